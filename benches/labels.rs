//! The label factory's speed: labels per second per core of each kind on the committed
//! sample of self-play positions (`tests/data/sample_{opening,middlegame,endgame}.txt`,
//! 40 rolled positions each), with `best`'s dice-aware leaves, one thread. Benchmarks are
//! named `labels/<kind>/<class>`.
//!
//! Before anything is timed, every label is checked against its own definition's identities:
//! `p1 = −a1` for the same board, a candidate's `a1` is the weighted sum of its 56 roll
//! values, every value lies on the axis (±10000). A table is printed to stderr: per class and
//! kind, labels/s and µs per label on one core and, for `candidates`, the cost per candidate
//! beside the JVM corpus's anchor (185 M candidates in 226 core-hours, about 4.4 ms each:
//! `fortemate/dicechess-training` docs/prerank/README.md).
#![allow(clippy::unwrap_used)] // a bench fails by panicking

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::Position;
use dicechess::eval::DiceAware;
use dicechess::rules::ROLLS;
use dicechess::search::{Labeller, Work};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// µs per candidate of the JVM corpus (226 core-hours / 185 M candidates).
const JVM_US_PER_CANDIDATE: f64 = 226.0 * 3600.0 * 1e6 / 185e6;

/// The sample's classes.
const CLASSES: [&str; 3] = ["opening", "middlegame", "endgame"];

fn sample(class: &str) -> Vec<Position> {
    let path = format!(
        "{}/tests/data/sample_{class}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_dfen(l).unwrap())
        .collect()
}

fn work() -> Work {
    Work::new(u64::MAX / 2)
}

/// The identities every label must satisfy; returns the candidates' count.
fn check(labeller: &Labeller, positions: &[Position]) -> usize {
    let mut candidates = 0;
    for p in positions {
        let a1 = labeller.a1(p, &work()).unwrap();
        assert_eq!(labeller.p1(p, &work()).unwrap(), -a1);
        assert!(a1.abs() <= 10_000.0);
        for c in labeller.candidates(p, None, &work()).unwrap() {
            let sum: f64 = c
                .per_roll
                .iter()
                .zip(&ROLLS)
                .map(|(&v, r)| r.weight as f64 * v as f64)
                .sum::<f64>()
                / 216.0;
            assert!((sum - c.a1).abs() < 0.05, "{sum} vs {}", c.a1);
            assert!(c.a1.abs() <= 10_000.0);
            candidates += 1;
        }
    }
    candidates
}

fn bench(c: &mut Criterion) {
    let labeller = Labeller::new(Arc::new(DiceAware::default()));
    let one = common::pool(1);
    eprintln!("labels on one core, dice-aware leaves (labels/s, µs per label):");
    eprintln!(
        "{:<11} {:>10} {:>10} {:>12} {:>12} {:>14} {:>9}",
        "class", "p1/s", "p1 µs", "cand/s", "µs/cand", "vs JVM 4.4 ms", "p2 s"
    );
    let mut all = (0usize, 0f64);
    for class in CLASSES {
        let positions = sample(class);
        let candidates = one.install(|| check(&labeller, &positions));
        let (_, p1_secs) = common::timed(|| {
            one.install(|| {
                for p in &positions {
                    black_box(labeller.p1(p, &work()).unwrap());
                }
            })
        });
        let (_, c_secs) = common::timed(|| {
            one.install(|| {
                for p in &positions {
                    black_box(labeller.candidates(p, None, &work()).unwrap());
                }
            })
        });
        let (_, p2_secs) = common::timed(|| one.install(|| labeller.p2(&positions[0], &work())));
        all.0 += candidates;
        all.1 += c_secs;
        let us = c_secs * 1e6 / candidates as f64;
        eprintln!(
            "{class:<11} {:>10.0} {:>10.0} {:>12.0} {:>12.0} {:>13.1}× {:>9.2}",
            positions.len() as f64 / p1_secs,
            p1_secs * 1e6 / positions.len() as f64,
            candidates as f64 / c_secs,
            us,
            JVM_US_PER_CANDIDATE / us,
            p2_secs,
        );
    }
    let us = all.1 * 1e6 / all.0 as f64;
    eprintln!(
        "all {} candidates: {us:.0} µs per candidate, {:.1}× the JVM's {:.0} µs (goal 20×: ≤ {:.0} µs)",
        all.0,
        JVM_US_PER_CANDIDATE / us,
        JVM_US_PER_CANDIDATE,
        JVM_US_PER_CANDIDATE / 20.0
    );

    let mut g = c.benchmark_group("labels");
    for class in CLASSES {
        let positions = sample(class);
        let few = &positions[..8];
        g.bench_with_input(BenchmarkId::new("p1", class), few, |b, ps| {
            b.iter(|| {
                one.install(|| {
                    for p in ps {
                        black_box(labeller.p1(p, &work()).unwrap());
                    }
                })
            })
        });
        g.bench_with_input(BenchmarkId::new("candidates", class), few, |b, ps| {
            b.iter(|| {
                one.install(|| {
                    for p in ps {
                        black_box(labeller.candidates(p, None, &work()).unwrap());
                    }
                })
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(4), 10);
    targets = bench
}
criterion_main!(benches);
