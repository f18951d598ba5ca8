//! Shared helpers of the integration tests: loading the conformance vectors in `tests/data`,
//! hashing, random positions and temporary folders.
#![allow(dead_code)]

mod random_positions;
mod temp_dir;

#[allow(unused_imports)] // each test uses its own few
pub use random_positions::{
    random_ending, random_loose_placement, random_play, random_played, random_sparse,
    random_sparse_placement, random_thinned_starts, random_turn, random_wild_placement, xorshift,
};
#[allow(unused_imports)] // each test uses its own few
pub use temp_dir::{temp_dir, Scratch};

use serde_json::Value;
use sha2::{Digest, Sha256};

pub fn load(name: &str) -> Value {
    let path = format!(
        "{}/{}.json",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"),
        name
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {path}: {e}"))
}

/// The DFEN lines of `tests/data/{name}.txt` (blank lines and `#` comments skipped).
pub fn dfen_list(name: &str) -> Vec<String> {
    let path = format!(
        "{}/{}.txt",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"),
        name
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

pub fn cases(v: &Value) -> &Vec<Value> {
    v["cases"].as_array().expect("cases array")
}

pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

pub fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not an integer in {v}"))
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_str().expect("string").to_string())
        .collect()
}

pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Sorted "m1,m2,m3" lines of a path list.
pub fn path_lines(paths: &[Vec<String>]) -> Vec<String> {
    let mut lines: Vec<String> = paths.iter().map(|p| p.join(",")).collect();
    lines.sort();
    lines
}

/// The vectors' sha256 of a path list: lines sorted as bytes, joined by "\n", no trailing
/// newline (established in reference_vectors.rs).
pub fn paths_sha256(lines: &[String]) -> String {
    let mut lines = lines.to_vec();
    lines.sort();
    sha256_hex(lines.join("\n").as_bytes())
}

/// Start positions for random play: the five benchmark positions and two tactical ones.
pub const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
    "4k3/8/3q4/8/2Q5/8/8/R3K2R w KQ - 0 1",
];

/// Start positions for random play in the property tests: the five benchmark positions, a
/// promotion race and (last, `tests/probe_primitives.rs` only) a tactical melee.
pub const PLAY_STARTS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
    "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R b KQkq c3 0 1",
    "2q1k3/1P1b1P2/3B4/p2Pp3/8/1n2N1r1/2P4p/R3K2Q w Q - 0 1",
];

/// The FEN placement field of a board given square by square (a1 = 0, h8 = 63): `square`
/// is called once per square, rank 8 first and files a to h within a rank, and returns the
/// piece letter or `None` for an empty square.
pub fn placement(mut square: impl FnMut(usize) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match square(rank * 8 + file) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// xorshift64: a tiny deterministic generator for test positions.
pub struct TestRng(pub u64);

impl TestRng {
    /// Next raw value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform-ish in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The position after `turns` random turns from `STARTS[start]`, with a fresh roll.
pub fn random_rolled(start: usize, seed: u64, turns: usize) -> dicechess::board::Position {
    use dicechess::board::Position;
    use dicechess::rules::{legal_paths, ROLLS};
    let mut rng = TestRng(seed | 1);
    let mut pos = Position::from_dfen(STARTS[start % STARTS.len()]).expect("valid start");
    for _ in 0..turns {
        let rolled = pos.with_dice(ROLLS[rng.below(56)].dice());
        let paths = legal_paths(&rolled);
        pos = if paths.is_empty() {
            rolled.end_turn()
        } else {
            paths[rng.below(paths.len())].end_position(&rolled)
        };
    }
    pos.with_dice(ROLLS[rng.below(56)].dice())
}

/// A random placement: two kings and up to 14 more pieces anywhere, random rights, e.p.
/// targets, side and half-move clock, rolled with `roll`.
pub fn random_placed(
    seed: u64,
    roll: impl Fn(&mut TestRng) -> dicechess::board::Dice,
) -> dicechess::board::Position {
    use dicechess::board::Position;
    let mut rng = TestRng(seed | 1);
    let mut board = ['.'; 64];
    let pieces = 2 + rng.below(14);
    for i in 0..pieces {
        let letters = b"PNBRQKpnbrqk";
        let c = if i == 0 {
            'K'
        } else if i == 1 {
            'k'
        } else {
            letters[rng.below(12)] as char
        };
        board[rng.below(64)] = c;
    }
    let placement = placement(|sq| (board[sq] != '.').then_some(board[sq]));
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let castling: String = "KQkq".chars().filter(|_| rng.below(2) == 0).collect();
    let castling = if castling.is_empty() {
        "-".to_string()
    } else {
        castling
    };
    let mut ep = String::new();
    for file in b"abcdefgh" {
        for rank in ['3', '6'] {
            if rng.below(6) == 0 {
                ep.push(*file as char);
                ep.push(rank);
            }
        }
    }
    if ep.is_empty() {
        ep.push('-');
    }
    let dfen = format!("{placement} {side} {castling} {ep} {} 1", rng.below(128));
    Position::from_dfen(&dfen)
        .expect("generated DFEN is valid")
        .with_dice(roll(&mut rng))
}

/// Rayon pools of one and two threads, for "any thread count" checks.
pub fn pools() -> Vec<rayon::ThreadPool> {
    [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .expect("pool")
        })
        .collect()
}
