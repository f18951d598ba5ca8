//! Pseudo-legal generation of all six piece types (`generate(&pos, 0x3f, true)`) on the five
//! benchmark positions, side by side with shakmaty's legal move generation so that each
//! criterion group (`movegen/<position>`) reads as a ratio:
//!
//! * `ours_count` — generate, then count the expanded micro-moves with `MoveList::count`;
//! * `ours_for_each` — generate, then expand every micro-move with `MoveList::for_each`;
//! * `ours_count_into` — as `ours_count`, but through `generate_into` with a reused list, so
//!   the fresh `MoveList` (a 64-entry array) is not initialised on every call;
//! * `shakmaty_legal` — `Chess::legal_moves().len()`.
//!
//! Dice Chess has no check, so our pseudo-legal set is the real move set; chess legality can
//! make shakmaty's count smaller (the endgame position). Before timing, our count is checked
//! against the slow reference implementation (tests/reference/mod.rs) and shakmaty's against
//! known perft(1) values.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
#[path = "../tests/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use dicechess::board::Position;
use dicechess::rules::{generate, generate_into, MoveList};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

/// All six piece types (bit `face − 1`).
const ALL_TYPES: u8 = 0x3f;

/// Shakmaty's legal move count (chess perft(1)) of each benchmark position.
///
/// start, Kiwipete and the endgame are the published perft(1) values (20, 48, 14). The
/// castling and promotion counts are counted by hand, and there legality equals
/// pseudo-legality (White is not in check, nothing is pinned, no black piece reaches a square
/// the white king can step on or castle through), so the same number must also be the
/// reference's pseudo-legal count, which `main` checks too:
/// * castling: 16 pawn moves + rook a1–b1/c1/d1 (3) + rook h1–g1/f1 (2) + king d1/f1 (2) +
///   both castlings (2) = 25;
/// * promotion: e7–e8 with four promotion pieces (4) + king d1/f1/d2/e2/f2 (5) = 9.
const PERFT1: [(&str, usize); 5] = [
    ("start", 20),
    ("kiwipete", 48),
    ("endgame", 14),
    ("castling", 25),
    ("promotion", 9),
];

/// Positions where chess legality equals pseudo-legality (see [`PERFT1`]).
const LEGAL_IS_PSEUDO: [&str; 2] = ["castling", "promotion"];

/// Our pseudo-legal count, via `count`.
fn ours_count(pos: &Position) -> usize {
    let list = generate(pos, ALL_TYPES, true);
    list.count(pos)
}

/// Our pseudo-legal count, by expanding every micro-move. Each move goes through
/// `black_box`, so it is materialised as shakmaty's move list materialises its moves.
fn ours_for_each(pos: &Position) -> usize {
    let list = generate(pos, ALL_TYPES, true);
    let mut n = 0usize;
    list.for_each(pos, |m| {
        black_box(m);
        n += 1;
    });
    n
}

/// As [`ours_count`], into a caller's reused list.
fn ours_count_into(pos: &Position, list: &mut MoveList) -> usize {
    generate_into(pos, ALL_TYPES, true, list);
    list.count(pos)
}

fn bench_movegen(c: &mut Criterion) {
    eprintln!();
    eprintln!(
        "{:<10} {:>9} {:>9} {:>9}",
        "movegen", "reference", "ours", "shakmaty"
    );
    for (name, fen, known) in common::positions_with(PERFT1) {
        // Setup and checks, outside any timing.
        let pos = Position::from_dfen(fen).expect("valid benchmark FEN");
        let chess: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN for shakmaty")
            .into_position(CastlingMode::Standard)
            .expect("legal chess position");
        let expected: usize = (1..=6)
            .map(|face| reference::pseudo_moves(fen, face).len())
            .sum();
        let ours = ours_count(&pos);
        assert_eq!(ours, expected, "{name}: count() differs from the reference");
        assert_eq!(
            ours_for_each(&pos),
            expected,
            "{name}: for_each differs from the reference"
        );
        let mut list = MoveList::default();
        assert_eq!(
            ours_count_into(&pos, &mut list),
            expected,
            "{name}: generate_into differs from the reference"
        );
        let legal = chess.legal_moves().len();
        assert_eq!(legal, known, "{name}: shakmaty's perft(1)");
        if LEGAL_IS_PSEUDO.contains(&name) {
            assert_eq!(
                legal, expected,
                "{name}: legal and pseudo-legal counts should agree here"
            );
        }
        eprintln!("{name:<10} {expected:>9} {ours:>9} {legal:>9}");

        let mut group = c.benchmark_group(format!("movegen/{name}"));
        group.bench_function("ours_count", |b| b.iter(|| ours_count(black_box(&pos))));
        group.bench_function("ours_for_each", |b| {
            b.iter(|| ours_for_each(black_box(&pos)))
        });
        group.bench_function("ours_count_into", |b| {
            b.iter(|| ours_count_into(black_box(&pos), &mut list))
        });
        group.bench_function("shakmaty_legal", |b| {
            b.iter(|| black_box(&chess).legal_moves().len())
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 30);
    targets = bench_movegen
}
criterion_main!(benches);
