//! Chance-node expansion: the distinct end-of-turn positions of all 56 rolls of a position,
//! per roll (`TurnGenerator::end_states_into` called 56 times) and in one shared walk
//! (`expand_all_rolls`). Benchmarks are named `chance/<form>/<position>`.
//!
//! Before anything is timed, the two forms are checked to give the same outcome and the same
//! set of positions for every roll. A table of quick medians is printed to stderr: both forms,
//! the shared walk's distinct successors per second and ns per turn path, and the shared walk
//! beside the C++ peer (`kezsulap/dice-chess-engine`, `board::generate_moves()` for all 84
//! dice multisets, g++ -O3 -march=native -flto). Ratios to the peer mean something only when
//! both were timed on the same machine in the same session: pass the peer's µs as
//! `DICECHESS_PEER_US=start,kiwipete,endgame,castling,promotion`; without it the table
//! divides by the numbers quoted in issue #13, from another machine, and says so.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::Position;
use dicechess::rules::{
    expand_all_rolls, EndStates, RollOutcome, RollSets, TurnGenerator, TurnPath, ROLLS,
};

/// The peer's µs for all rolls of each benchmark position, as quoted in issue #13 (another
/// machine): the fallback when `DICECHESS_PEER_US` is not set.
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

/// The peer's µs per position: from `DICECHESS_PEER_US` (five comma-separated numbers, in
/// [`common::POSITIONS`] order) when set, else the quoted [`PEER_US`]; and whether they were
/// given. A malformed variable stops the bench with what is wrong.
fn peer_us() -> ([(&'static str, f64); 5], bool) {
    let Ok(text) = std::env::var("DICECHESS_PEER_US") else {
        return (PEER_US, false);
    };
    let values: Vec<f64> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
                .unwrap_or_else(|| panic!("DICECHESS_PEER_US: {v:?} is not a positive number"))
        })
        .collect();
    assert_eq!(
        values.len(),
        5,
        "DICECHESS_PEER_US needs five numbers (start, kiwipete, endgame, castling, promotion), got {}",
        values.len()
    );
    let mut at = values.into_iter();
    (
        PEER_US.map(|(name, _)| (name, at.next().expect("five values"))),
        true,
    )
}

/// What one expansion produces, counted outside any timing: the distinct positions over all
/// 56 rolls (by key) and the legal turn paths summed over the rolls (what
/// `TurnGenerator::legal_paths_into` lists for each roll: its king captures, then its paths
/// of maximal cost).
fn work(pos: &Position, gen: &mut TurnGenerator, sets: &mut RollSets) -> (usize, usize) {
    expand_all_rolls(pos, sets);
    let mut distinct = BTreeSet::new();
    for i in 0..56 {
        if let RollOutcome::Moves(ps) = sets.roll(i) {
            distinct.extend(ps.iter().map(Position::key));
        }
    }
    let mut paths: Vec<TurnPath> = Vec::new();
    let mut total = 0;
    for r in &ROLLS {
        paths.clear();
        gen.legal_paths_into(&pos.with_dice(r.dice()), &mut paths);
        total += paths.len();
    }
    (distinct.len(), total)
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
    let (peer, measured_here) = peer_us();
    let positions: Vec<(&str, Position, f64)> = common::positions_with(peer)
        .into_iter()
        .map(|(name, fen, peer)| {
            let pos = Position::from_dfen(fen).expect("valid benchmark FEN");
            check(name, &pos, &mut gen, &mut sets);
            (name, pos, peer)
        })
        .collect();

    eprintln!();
    eprintln!(
        "peer µs: {}",
        if measured_here {
            "DICECHESS_PEER_US (timed on this machine)"
        } else {
            "quoted in issue #13 (another machine: set DICECHESS_PEER_US for ratios that mean something)"
        }
    );
    eprintln!(
        "{:<10} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9} {:>10} {:>10}",
        "position",
        "peer µs",
        "per-roll",
        "shared",
        "÷ peer",
        "÷ roll",
        "distinct",
        "paths",
        "M dist./s",
        "ns/path"
    );
    for (name, pos, peer) in &positions {
        let (distinct, paths) = work(pos, &mut gen, &mut sets);
        let a = quick_median(|| per_roll(pos, &mut gen, &mut out));
        let b = quick_median(|| shared(pos, &mut sets));
        eprintln!(
            "{name:<10} {peer:>9.1} {a:>9.1} {b:>9.1} {:>7.1}× {:>7.2}× {distinct:>9} {paths:>9} {:>10.1} {:>10.2}",
            peer / b,
            a / b,
            distinct as f64 / b,
            b * 1e3 / paths as f64,
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
