//! King-capture roll counts: the one-traversal probe next to a plain per-roll search (56
//! searches, each a depth-first turn walk that stops at the first king capture).
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::POSITIONS;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::{Dice, Position};
use dicechess::kernels::Color;
use dicechess::probe::{king_capture_rolls, queen_capture_rolls};
use dicechess::rules::{TurnGenerator, ROLLS};
use std::hint::black_box;
use std::time::Duration;

/// The plain per-roll search: for each of the 56 multisets, does some legal path of the
/// attacker capture a king? (King captures are always legal, so the first one found decides.)
fn plain_per_roll(pos: &Position, defender: Color, gen: &mut TurnGenerator) -> u32 {
    let view = pos
        .with_dice(Dice::EMPTY)
        .with_side_to_move(defender.opponent());
    ROLLS
        .iter()
        .filter(|r| gen.first_king_capture(&view.with_dice(r.dice())).is_some())
        .map(|r| r.weight as u32)
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut gen = TurnGenerator::new();
    for (name, fen) in POSITIONS {
        let pos = Position::from_dfen(fen).expect("benchmark FEN");
        for defender in Color::ALL {
            // The result first: the fast count must equal the plain search.
            let fast = king_capture_rolls(&pos, defender);
            let plain = plain_per_roll(&pos, defender, &mut gen);
            assert_eq!(fast, plain, "{name} defender {defender:?}");
            eprintln!(
                "{name:10} defender {defender:?}: king {fast:3}/216, queen {:3}/216",
                queen_capture_rolls(&pos, defender)
            );
            let mut g = c.benchmark_group(format!("king_capture/{name}/{defender:?}"));
            g.bench_function(BenchmarkId::new("one_traversal", fast), |b| {
                b.iter(|| king_capture_rolls(black_box(&pos), defender))
            });
            g.bench_function(BenchmarkId::new("plain_per_roll", plain), |b| {
                b.iter(|| plain_per_roll(black_box(&pos), defender, &mut gen))
            });
            g.bench_function("queen_one_traversal", |b| {
                b.iter(|| queen_capture_rolls(black_box(&pos), defender))
            });
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_millis(500), Duration::from_secs(1), 20);
    targets = bench
}
criterion_main!(benches);
