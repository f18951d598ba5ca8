//! The bounded root check of serve and `bestmove` (src/search/bounded.rs): how many work
//! units the budgeted turn walk gets through per millisecond, on the position that made
//! it necessary (nine queens rolled QQQ, 4.4 M paths) and on Kiwipete rolled BNQ (7,630
//! paths, which fits). `ROOT_UNITS_PER_MS` is set below the measured rate.
//!
//! Before timing, each case's result is checked: Kiwipete BNQ completes with exactly the
//! paths of the unbudgeted walk, and the nine queens run out of their million units with a
//! non-empty subset of sure paths — each a king capture or spending all three dice, its
//! micro-moves payable and pseudo-legal one after the other, so legal whatever the rest of
//! the walk holds (docs/rules.md §5).
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dicechess::board::Position;
use dicechess::rules::{Budget, Budgeted, TurnGenerator, TurnPath};

const NINE_QUEENS: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ";
const KIWIPETE_BNQ: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ";

/// Check one run's answer: `Some(n)`, complete with the `n` paths of the unbudgeted walk;
/// `None`, out of budget with sure paths only.
fn check(
    name: &str,
    pos: &Position,
    generator: &mut TurnGenerator,
    answer: Budgeted<()>,
    paths: &[TurnPath],
    want: Option<usize>,
) {
    let Some(n) = want else {
        assert!(
            matches!(answer, Budgeted::Incomplete(_)),
            "{name}: out of budget"
        );
        assert!(!paths.is_empty(), "{name}: some sure path");
        for path in paths {
            assert!(
                path.captures_king() || path.cost() == 3,
                "{name}: {path} is not sure"
            );
            let mut p = *pos;
            for m in path.moves().iter() {
                p = p.play(*m).unwrap_or_else(|e| panic!("{name}: {path}: {e}"));
            }
        }
        return;
    };
    assert!(matches!(answer, Budgeted::Complete(..)), "{name}: complete");
    let mut all = Vec::new();
    generator.legal_paths_into(pos, &mut all);
    assert_eq!(all.len(), n, "{name}: legal paths");
    let mut got = paths.to_vec();
    got.sort();
    all.sort();
    assert_eq!(got, all, "{name}: the paths of the unbudgeted walk");
}

fn bench_root_budget(c: &mut Criterion) {
    let mut generator = TurnGenerator::new();
    let mut out = Vec::new();
    let mut group = c.benchmark_group("root_budget");
    for (name, dfen, limit, want) in [
        ("nine-queens/1M", NINE_QUEENS, 1_000_000u64, None),
        ("kiwipete-bnq/complete", KIWIPETE_BNQ, u64::MAX, Some(7_630)),
    ] {
        let pos = Position::from_dfen(dfen).expect("valid DFEN");
        // The result first, and the units of one run, for the throughput.
        let mut probe = Budget::new(limit);
        out.clear();
        let answer = generator.legal_paths_or_sure_subset(&pos, &mut probe, &mut out);
        check(name, &pos, &mut generator, answer, &out, want);
        eprintln!("{name}: {} units, {} paths", probe.used(), out.len());
        group.throughput(Throughput::Elements(probe.used()));
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                let mut budget = Budget::new(limit);
                generator.legal_paths_or_sure_subset(black_box(&pos), &mut budget, &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 20);
    targets = bench_root_budget
}
criterion_main!(benches);
