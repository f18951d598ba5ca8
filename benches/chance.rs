//! Chance-node expansion: the distinct end-of-turn positions of all 56 rolls of a position,
//! per roll (`TurnGenerator::end_states_into` called 56 times) and in one shared walk
//! (`expand_all_rolls`). Benchmarks are named `chance/<form>/<position>`.
//!
//! Before anything is timed, the two forms are checked to give the same outcome and the same
//! set of positions for every roll. A table of quick medians beside the C++ peer's times
//! (`kezsulap/dice-chess-engine`, `board::generate_moves()` for all 84 dice multisets, g++ -O3
//! -march=native, measured on this machine class and quoted in issue #13) is printed to stderr.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::Position;
use dicechess::rules::{expand_all_rolls, EndStates, RollOutcome, RollSets, TurnGenerator, ROLLS};

/// The peer's µs for all rolls of each benchmark position.
const PEER_US: [(&str, f64); 5] = [
    ("start", 2688.0),
    ("kiwipete", 25195.0),
    ("endgame", 326.0),
    ("castling", 2224.0),
    ("promotion", 127.0),
];

/// Every roll's answer per roll; returns the number of positions (to keep the work alive).
fn per_roll(pos: &Position, gen: &mut TurnGenerator, out: &mut Vec<Position>) -> usize {
    let mut n = 0;
    for r in &ROLLS {
        out.clear();
        if let EndStates::Moves(_) = gen.end_states_into(&pos.with_dice(r.dice()), out) {
            n += out.len();
        }
    }
    n
}

fn shared(pos: &Position, sets: &mut RollSets) -> usize {
    expand_all_rolls(pos, sets);
    (0..56)
        .map(|i| match sets.roll(i) {
            RollOutcome::Moves(ps) => ps.len(),
            _ => 0,
        })
        .sum()
}

/// The two forms agree roll by roll (outcome and key set).
fn check(name: &str, pos: &Position, gen: &mut TurnGenerator, sets: &mut RollSets) {
    expand_all_rolls(pos, sets);
    let mut out = Vec::new();
    for (i, r) in ROLLS.iter().enumerate() {
        out.clear();
        let want = gen.end_states_into(&pos.with_dice(r.dice()), &mut out);
        let ok = match (want, sets.roll(i)) {
            (EndStates::KingCapture, RollOutcome::KingCapture) => true,
            (EndStates::Pass, RollOutcome::Pass) => true,
            (EndStates::Moves(_), RollOutcome::Moves(ps)) => {
                let a: BTreeSet<u64> = out.iter().map(Position::key).collect();
                let b: BTreeSet<u64> = ps.iter().map(Position::key).collect();
                a == b && b.len() == ps.len()
            }
            _ => false,
        };
        assert!(
            ok,
            "{name}: roll {:?} differs between the two forms",
            r.faces
        );
    }
}

/// Median µs per call of `f` over 15 rounds of about 40 ms each.
fn quick_median(mut f: impl FnMut() -> usize) -> f64 {
    let mut per_call = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        let mut calls = 0u32;
        while t.elapsed() < Duration::from_millis(40) {
            black_box(f());
            calls += 1;
        }
        per_call.push(t.elapsed().as_secs_f64() * 1e6 / calls as f64);
    }
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

fn bench_chance(c: &mut Criterion) {
    let mut gen = TurnGenerator::new();
    let mut sets = RollSets::new();
    let mut out = Vec::new();
    let positions: Vec<(&str, Position, f64)> = common::positions_with(PEER_US)
        .into_iter()
        .map(|(name, fen, peer)| {
            let pos = Position::from_dfen(fen).expect("valid benchmark FEN");
            check(name, &pos, &mut gen, &mut sets);
            (name, pos, peer)
        })
        .collect();

    eprintln!();
    eprintln!(
        "{:<10} {:>10} {:>10} {:>10} {:>12} {:>12}",
        "position", "peer µs", "per-roll", "shared", "shared/peer", "vs per-roll"
    );
    for (name, pos, peer) in &positions {
        let a = quick_median(|| per_roll(pos, &mut gen, &mut out));
        let b = quick_median(|| shared(pos, &mut sets));
        eprintln!(
            "{name:<10} {peer:>10.0} {a:>10.1} {b:>10.1} {:>11.1}× {:>11.2}×",
            peer / b,
            a / b
        );
    }
    eprintln!();

    let mut group = c.benchmark_group("chance");
    for (name, pos, _) in &positions {
        group.bench_with_input(BenchmarkId::new("shared", name), pos, |b, pos| {
            b.iter(|| shared(black_box(pos), &mut sets))
        });
        group.bench_with_input(BenchmarkId::new("per-roll", name), pos, |b, pos| {
            b.iter(|| per_roll(black_box(pos), &mut gen, &mut out))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 20);
    targets = bench_chance
}
criterion_main!(benches);
