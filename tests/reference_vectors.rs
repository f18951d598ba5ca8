//! Checks the slow reference implementation (tests/reference/mod.rs) against
//! the conformance vectors in tests/data/, so that the reference can then
//! be trusted as an oracle for the engine on positions the vectors lack.
//!
//! Findings about the vector files, established with this test:
//! * turn_paths.json `sha256`: SHA-256 of the legal paths, each written as its
//!   UCI micro-moves joined by ",", sorted as byte strings, joined by "\n",
//!   with NO trailing newline (an empty path list hashes the empty string,
//!   e3b0c442…). All 100 cases match this way and none with a trailing "\n".
//! * turn_paths.json `ends`: the number of distinct *full canonical* DFENs
//!   after the end of turn, clocks included (half-move and full-move), no dice
//!   (the pool is cleared). Counting positions without the clocks gives a
//!   smaller number in 60 of the 100 cases (e.g. 1834 instead of 3080):
//!   orders of the same moves differ in the half-move clock, and those count
//!   as different end positions.
//! * position_keys.json: the Zobrist dice index puts the empty slots of a
//!   pool with fewer than 3 dice in front (index = sorted faces read as
//!   base-7 digits: `c`, `b*7 + c`, `a*49 + b*7 + c`); see
//!   tests/reference/mod.rs.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod reference;

mod common;

use common::*;
use std::collections::BTreeSet;

#[test]
fn turn_paths_vectors() {
    let v = load("turn_paths");
    let mut failures = Vec::new();
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let paths = reference::legal_paths(dfen);

        if paths.len() as u64 != u(c, "paths") {
            failures.push(format!(
                "{dfen}: {} paths, want {}",
                paths.len(),
                u(c, "paths")
            ));
        }

        let lines = path_lines(&paths);
        let sha = sha256_hex(lines.join("\n").as_bytes());
        if sha != s(c, "sha256") {
            failures.push(format!("{dfen}: sha256 {sha}, want {}", s(c, "sha256")));
        }

        let ends: BTreeSet<String> = paths
            .iter()
            .map(|p| reference::end_of_turn(dfen, p))
            .collect();
        if ends.len() as u64 != u(c, "ends") {
            failures.push(format!(
                "{dfen}: {} distinct ends, want {}",
                ends.len(),
                u(c, "ends")
            ));
        }

        if let Some(legal) = c.get("legal") {
            let mut want = strings(legal);
            want.sort();
            if lines != want {
                failures.push(format!("{dfen}: paths {lines:?}, want {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Structural properties of docs/rules.md §5 on the vector positions: king-capture
/// paths come first, no path is a prefix of another, costs of non-king paths
/// are equal.
#[test]
fn turn_paths_structure() {
    let v = load("turn_paths");
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let paths = reference::legal_paths(dfen);
        let lines: BTreeSet<String> = paths.iter().map(|p| p.join(",")).collect();
        assert_eq!(lines.len(), paths.len(), "{dfen}: duplicate paths");
        for p in &paths {
            assert!(!p.is_empty() && p.len() <= 3, "{dfen}: bad path {p:?}");
            for k in 1..p.len() {
                let prefix = p[..k].join(",");
                assert!(
                    !lines.contains(&prefix),
                    "{dfen}: {prefix} is a prefix of another path"
                );
            }
        }
    }
}

#[test]
fn first_moves_vectors() {
    let v = load("first_moves");
    let mut failures = Vec::new();
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let got: Vec<String> = reference::legal_paths(dfen)
            .into_iter()
            .map(|p| p[0].clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut want = strings(&c["first_moves"]);
        want.sort();
        if got != want {
            failures.push(format!("{dfen}: {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `dfen` (no dice) with a one-die pool of `face` for the side to move.
fn with_die(dfen: &str, face: u8) -> String {
    let letter = b"PNBRQK"[face as usize - 1] as char;
    let mut p = reference::parse(dfen);
    p.dice = vec![face];
    let text = reference::write(&p);
    // write() cases the die by the mover; double-check.
    let white = p.side == reference::Color::White;
    let want = if white {
        letter
    } else {
        letter.to_ascii_lowercase()
    };
    assert!(text.ends_with(want), "{text}");
    text
}

/// Single-die perft: at every ply the mover has exactly one die of `face`;
/// nodes are its pseudo-legal micro-moves (castling under the King die);
/// king captures are counted and not terminal; after each move the turn ends
/// and the same die is installed for the other side.
fn perft(dfen: &str, face: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let pos = with_die(dfen, face);
    let moves = reference::pseudo_moves(&pos, face);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            perft(
                &reference::end_of_turn(&pos, std::slice::from_ref(m)),
                face,
                depth - 1,
            )
        })
        .sum()
}

#[test]
fn perft_single_die_vectors() {
    let v = load("perft_single_die");
    let mut failures = Vec::new();
    for c in cases(&v) {
        let fen = s(c, "fen");
        let face = u(c, "die") as u8;
        let depth = u(c, "depth") as u32;
        let got = perft(fen, face, depth);
        if got != u(c, "nodes") {
            failures.push(format!(
                "{fen} die {face} depth {depth}: {got}, want {}",
                u(c, "nodes")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Normalised FEN (docs/rules.md §3): fields 1–3 plus the e.p. targets the mover
/// could capture.
fn normalized_fen(dfen: &str) -> String {
    let p = reference::parse(dfen);
    let white = p.side == reference::Color::White;
    let mut ep = String::new();
    for sq in 0..64usize {
        if !p.ep[sq] || p.board[sq].is_some() {
            continue;
        }
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let (want_rank, pawn_rank) = if white { (5, 4) } else { (2, 3) };
        if rank != want_rank {
            continue;
        }
        let own_pawn = [file - 1, file + 1].iter().any(|&f| {
            (0..8).contains(&f)
                && p.board[(pawn_rank * 8 + f) as usize] == Some((p.side, reference::Piece::Pawn))
        });
        if own_pawn {
            ep.push((b'a' + file as u8) as char);
            ep.push((b'1' + rank as u8) as char);
        }
    }
    if ep.is_empty() {
        ep.push('-');
    }
    let canonical = reference::write(&p);
    let head: Vec<&str> = canonical.split(' ').take(3).collect();
    format!("{} {ep}", head.join(" "))
}

/// Opening-book dice key: letters sorted alphabetically, cased by the mover.
fn dice_key(dfen: &str) -> String {
    let p = reference::parse(dfen);
    let mut letters: Vec<char> = p
        .dice
        .iter()
        .map(|&f| b"pnbrqk"[f as usize - 1] as char)
        .collect();
    letters.sort_unstable();
    letters
        .into_iter()
        .map(|c| {
            if p.side == reference::Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn position_keys_vectors() {
    let v = load("position_keys");
    let mut failures = Vec::new();
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let key = reference::zobrist(dfen);
        let want_hex = u64::from_str_radix(s(c, "zobrist_hex"), 16).expect("hex");
        let want_signed: i64 = s(c, "zobrist").parse().expect("signed key");
        if key != want_hex || key as i64 != want_signed {
            failures.push(format!("{dfen}: zobrist {key:016x}, want {want_hex:016x}"));
        }
        let nf = normalized_fen(dfen);
        if nf != s(c, "normalized_fen") {
            failures.push(format!(
                "{dfen}: normalised {nf}, want {}",
                s(c, "normalized_fen")
            ));
        }
        let dk = dice_key(dfen);
        if dk != s(c, "dice_key") {
            failures.push(format!("{dfen}: dice key {dk}, want {}", s(c, "dice_key")));
        }
        // The vectors' DFENs are canonical.
        let canonical = reference::write(&reference::parse(dfen));
        if canonical != dfen {
            failures.push(format!("{dfen}: written back as {canonical}"));
        }
        // Colour flip is an involution.
        let back = reference::flip(&reference::flip(dfen));
        if back != dfen {
            failures.push(format!("{dfen}: flip twice gives {back}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn start_position_key() {
    let key = reference::zobrist("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(key as i64, 147_143_207_481_438_466);
}

#[test]
fn dfen_accepted_vectors() {
    let v = load("dfen");
    for c in v["accepted"].as_array().expect("accepted") {
        let got = reference::write(&reference::parse(s(c, "dfen")));
        assert_eq!(got, s(c, "canonical"), "input {}", s(c, "dfen"));
    }
}

#[test]
fn flip_example() {
    assert_eq!(
        reference::flip("r3k2r/8/8/3pP3/8/8/8/R3K3 w Qk d6 7 12 PRK"),
        "r3k3/8/8/8/3Pp3/8/8/R3K2R b Kq d3 7 12 prk"
    );
}
