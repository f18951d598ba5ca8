//! Full-turn enumeration: every legal turn path (docs/rules.md §5) of the five benchmark
//! positions under five rolls, through a reused [`TurnGenerator`] and output vector so that
//! allocation is not measured. Benchmarks are named `turns/<position>/<roll>`.
//!
//! Before anything is timed, each case's path count is checked against the slow reference
//! implementation in tests/reference/mod.rs, and a table of path counts is printed to stderr.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
#[path = "../tests/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::time::Duration;

use common::POSITIONS;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::{Dice, Position};
use dicechess::rules::{TurnGenerator, TurnPath};

/// The rolls, as White's DFEN dice letters.
const ROLLS: [&str; 5] = ["PNB", "RQK", "PPP", "KRN", "QQQ"];

/// Die faces of a roll's letters (P = 1 … K = 6).
fn faces(roll: &str) -> Vec<u8> {
    roll.chars()
        .map(|c| match c {
            'P' => 1,
            'N' => 2,
            'B' => 3,
            'R' => 4,
            'Q' => 5,
            'K' => 6,
            _ => panic!("bad die letter {c:?} in {roll:?}"),
        })
        .collect()
}

/// One case: the position with its roll, ready to enumerate.
fn setup(fen: &str, roll: &str) -> Position {
    let dice = Dice::from_faces(&faces(roll)).expect("valid roll");
    let pos = Position::from_dfen(fen)
        .expect("valid benchmark FEN")
        .with_dice(dice);
    // The same position read with the dice field, as the reference sees it.
    let dfen = format!("{fen} {roll}");
    let parsed = Position::from_dfen(&dfen).expect("valid benchmark DFEN");
    assert_eq!(
        pos, parsed,
        "with_dice disagrees with the DFEN dice field for {dfen}"
    );
    pos
}

fn bench_turns(c: &mut Criterion) {
    let mut generator = TurnGenerator::new();
    let mut out: Vec<TurnPath> = Vec::new();

    // Setup, outside any timing: the engine's counts against the reference's.
    eprintln!();
    eprint!("{:<10}", "paths");
    for roll in ROLLS {
        eprint!(" {roll:>7}");
    }
    eprintln!();
    let mut cases = Vec::new();
    for (name, fen) in POSITIONS {
        eprint!("{name:<10}");
        for roll in ROLLS {
            let pos = setup(fen, roll);
            out.clear();
            generator.legal_paths_into(&pos, &mut out);
            let expected = reference::legal_paths(&format!("{fen} {roll}")).len();
            assert_eq!(
                out.len(),
                expected,
                "{name}/{roll}: engine path count differs from the reference"
            );
            eprint!(" {:>7}", out.len());
            cases.push((name, roll, pos, expected));
        }
        eprintln!();
    }
    eprintln!();

    let mut group = c.benchmark_group("turns");
    for (name, roll, pos, expected) in cases {
        // Re-check right before timing this case (same generator and buffer as the loop).
        out.clear();
        generator.legal_paths_into(&pos, &mut out);
        assert_eq!(out.len(), expected, "{name}/{roll}");
        group.bench_with_input(BenchmarkId::new(name, roll), &pos, |b, pos| {
            b.iter(|| {
                out.clear();
                generator.legal_paths_into(black_box(pos), &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 30);
    targets = bench_turns
}
criterion_main!(benches);
