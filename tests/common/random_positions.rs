//! The random-position generators the tests share: each one is deterministic in its seed.

use super::{placement, TestRng};
use dicechess::board::Dice;
use dicechess::board::Position;
use dicechess::rules::{legal_paths, ROLLS};

fn pos(fen: &str) -> Position {
    Position::from_dfen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// xorshift64 as a closure, seeded with `seed | 1`.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A position after `turns` random turns (random roll, random legal path) from one of a
/// few starts (the standard start, Kiwipete, a promotion race and a queen-and-rook middle
/// game), left unrolled.
pub fn random_play(seed: u64, turns: usize) -> Position {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R b KQkq c3 0 1",
        "4k3/8/3q4/8/2Q5/8/8/R3K2R w KQ - 0 1",
    ];
    let mut next = xorshift(seed);
    let mut p = pos(starts[(next() % starts.len() as u64) as usize]);
    for _ in 0..turns {
        p = random_turn(&p, &mut next);
    }
    p
}

/// One random turn from the unrolled `p`: a roll drawn from `next` (one of the 56, uniform),
/// then a legal path drawn from `next` (a pass when there is none); the result is unrolled.
pub fn random_turn(p: &Position, next: &mut impl FnMut() -> u64) -> Position {
    let roll = ROLLS[(next() % 56) as usize];
    let rolled = p.with_dice(roll.dice());
    let paths = legal_paths(&rolled);
    if paths.is_empty() {
        rolled.end_turn()
    } else {
        paths[(next() % paths.len() as u64) as usize].end_position(&rolled)
    }
}

/// A random loose placement: sliders, pawns anywhere (last ranks included), sometimes no
/// king, castling rights and e.p. targets that may or may not apply.
pub fn random_loose_placement(seed: u64) -> Position {
    let mut next = xorshift(seed);
    let mut board = [None::<char>; 64];
    let letters = b"PNBRQKpnbrqkQRBqrbPp";
    if !next().is_multiple_of(8) {
        board[(next() % 64) as usize] = Some('K');
    }
    if !next().is_multiple_of(8) {
        board[(next() % 64) as usize] = Some('k');
    }
    for _ in 0..(2 + next() % 10) {
        board[(next() % 64) as usize] =
            Some(letters[(next() % letters.len() as u64) as usize] as char);
    }
    let placement = placement(|sq| board[sq]);
    let side = ["w", "b"][(next() % 2) as usize];
    let castling = ["-", "KQkq", "Kq", "Q"][(next() % 4) as usize];
    let ep = ["-", "c6", "d3e6", "a3h6"][(next() % 4) as usize];
    pos(&format!("{placement} {side} {castling} {ep} 0 1"))
}

/// A random sparse placement (sliders, pawns near promotion, exposed kings, e.p. targets),
/// where discovered attacks and promotions matter most.
pub fn random_sparse_placement(seed: u64) -> Position {
    random_sparse(seed, b"PNBRQKpnbrqkQRBqrb", 3, 9, false)
}

/// A random few-piece ending of mostly leapers and pawns, kings often on their home squares
/// with rooks in the corners and castling rights: the positions where the empty-board reach
/// prune of the capture walk skips whole subtrees, and where castling decides whether it may.
pub fn random_ending(seed: u64) -> Position {
    random_sparse(seed, b"PPNNKpnnpkRrBbPp", 0, 6, seed & 1 == 0)
}

/// Two kings (each on its home square half the time and corner rooks when `home`, else
/// anywhere), then `min + rand(span)`
/// pieces drawn from `letters` on random squares, random side, castling and e.p. fields.
pub fn random_sparse(seed: u64, letters: &[u8], min: u64, span: u64, home: bool) -> Position {
    let mut x = seed | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut board = [None::<char>; 64];
    for (home_sq, c) in [(4, 'K'), (60, 'k')] {
        let sq = if home && next(2) == 0 {
            home_sq
        } else {
            next(64) as usize
        };
        board[sq] = Some(c);
    }
    if home {
        for (sq, c) in [(0, 'R'), (7, 'R'), (56, 'r'), (63, 'r')] {
            if board[sq].is_none() && next(2) == 0 {
                board[sq] = Some(c);
            }
        }
    }
    for _ in 0..(min + next(span)) {
        let sq = next(64) as usize;
        if board[sq].is_none() {
            board[sq] = Some(letters[next(letters.len() as u64) as usize] as char);
        }
    }
    let placement = placement(|sq| board[sq]);
    let side = ["w", "b"][next(2) as usize];
    let castling = ["-", "KQkq", "Kq", "Q"][next(4) as usize];
    let ep = ["-", "c6", "d3e6", "a3h6"][next(4) as usize];
    pos(&format!("{placement} {side} {castling} {ep} 0 1"))
}

/// A position reached by `turns` random turns from `start` (each turn rolled with `roll`,
/// then a random legal path), rolled once more with `roll` when `roll_at_end` is set.
pub fn random_played(
    start: &str,
    seed: u64,
    turns: usize,
    roll: impl Fn(&mut TestRng) -> Dice,
    roll_at_end: bool,
) -> Position {
    let mut rng = TestRng(seed | 1);
    let mut pos = Position::from_dfen(start).expect("valid start");
    for _ in 0..turns {
        let rolled = pos.with_dice(roll(&mut rng));
        let paths = legal_paths(&rolled);
        pos = if paths.is_empty() {
            rolled.end_turn()
        } else {
            paths[rng.below(paths.len())].end_position(&rolled)
        };
    }
    if roll_at_end {
        pos.with_dice(roll(&mut rng))
    } else {
        pos
    }
}

/// A random wild placement: any pieces anywhere (pawns on back ranks and several or no kings
/// included), random rights, e.p. targets and side.
pub fn random_wild_placement(seed: u64) -> Position {
    let mut rng = TestRng(seed | 1);
    let mut board = ['.'; 64];
    if rng.below(2) == 0 {
        // Kings at home and pieces in the corners, so that castling is often possible.
        board[4] = 'K';
        board[60] = 'k';
        for corner in [0, 7, 56, 63] {
            board[corner] = b"RRrrN."[rng.below(6)] as char;
        }
    }
    let pieces = 1 + rng.below(24);
    for _ in 0..pieces {
        board[rng.below(64)] = b"PNBRQKpnbrqkPPpp"[rng.below(16)] as char;
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let castling: String = "KQkq".chars().filter(|_| rng.below(2) == 0).collect();
    let castling = if castling.is_empty() { "-" } else { &castling };
    let mut ep = String::new();
    for file in "abcdefgh".chars() {
        for rank in ['3', '6'] {
            if rng.below(6) == 0 {
                ep.push(file);
                ep.push(rank);
            }
        }
    }
    let ep = if ep.is_empty() { "-" } else { &ep };
    let dfen = format!(
        "{} {side} {castling} {ep} 0 1",
        placement(|sq| (board[sq] != '.').then_some(board[sq]))
    );
    Position::from_dfen(&dfen).expect("generated DFEN is valid")
}

/// `n` start positions thinned out by a fixed pseudo-random sequence (the kings kept, every
/// other piece kept with odds drawn per position), either side to move.
pub fn random_thinned_starts(n: usize) -> Vec<Position> {
    let start: Vec<Vec<char>> = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        .split('/')
        .map(|r| {
            let mut row = Vec::new();
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(d) => row.extend(std::iter::repeat_n('.', d as usize)),
                    None => row.push(c),
                }
            }
            row
        })
        .collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let keep = next() % 100;
        let mut fen = placement(|sq| {
            let c = start[7 - sq / 8][sq % 8];
            if c == '.' || (c != 'k' && c != 'K' && next() % 100 >= keep) {
                None
            } else {
                Some(c)
            }
        });
        let side = if next() % 2 == 0 { "w" } else { "b" };
        fen.push_str(&format!(" {side} - - 0 1"));
        out.push(Position::from_dfen(&fen).expect("generated FEN"));
    }
    out
}
