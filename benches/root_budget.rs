//! The bounded root check of serve and `bestmove` (src/search/bounded.rs): how many work
//! units the budgeted turn walk gets through per millisecond, on the position that made
//! it necessary (nine queens rolled QQQ, 4.4 M paths) and on Kiwipete rolled BNQ (7,630
//! paths, which fits). `ROOT_UNITS_PER_MS` is set below the measured rate.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dicechess::board::Position;
use dicechess::rules::{Budget, TurnGenerator};

const NINE_QUEENS: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ";
const KIWIPETE_BNQ: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ";

fn bench_root_budget(c: &mut Criterion) {
    let mut generator = TurnGenerator::new();
    let mut out = Vec::new();
    let mut group = c.benchmark_group("root_budget");
    for (name, dfen, limit) in [
        ("nine-queens/1M", NINE_QUEENS, 1_000_000u64),
        ("kiwipete-bnq/complete", KIWIPETE_BNQ, u64::MAX),
    ] {
        let pos = Position::from_dfen(dfen).expect("valid DFEN");
        // Units of one run, for the throughput.
        let mut probe = Budget::new(limit);
        generator.legal_paths_or_sure_subset(&pos, &mut probe, &mut out);
        eprintln!("{name}: {} units", probe.used());
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

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_root_budget
}
criterion_main!(benches);
