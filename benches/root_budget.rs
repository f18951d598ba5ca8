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
//!
//! `fast_path/<position>`: the webhook server's degraded answer (`bots::fast_bounded` under
//! `FAST_ROOT_UNITS`) for `best` on the search bench's middlegames rolled, Kiwipete BNQ and
//! the nine queens; each answer is first checked to be a legal turn and, where the root
//! fits, `best`'s pre-ranker's pick (its search under a deadline already passed). Its cost
//! sizes `serve`'s default queue (docs/webhook.md "Degrade, don't fail").
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, fast_bounded, BotOptions, Bounded, FAST_ROOT_UNITS};
use dicechess::rules::{legal_paths, Budget, Budgeted, TurnGenerator, TurnPath};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

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

/// Rolled middlegames of the search bench, Kiwipete BNQ and the nine queens.
const FAST_POSITIONS: [(&str, &str); 5] = [
    (
        "qgd",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8 NBQ",
    ),
    (
        "hedgehog",
        "2rq1rk1/pb1nbppp/1p2pn2/3p4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 12 PNR",
    ),
    (
        "ruy",
        "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/2P2N1P/PPB2PP1/RNBQR1K1 w - - 0 13 BBQ",
    ),
    ("kiwipete-bnq", KIWIPETE_BNQ),
    ("nine-queens", NINE_QUEENS),
];

fn bench_fast_path(c: &mut Criterion) {
    let bot = bot_by_id("best", &BotOptions::default()).expect("best builds");
    let mut group = c.benchmark_group("fast_path");
    for (name, dfen) in FAST_POSITIONS {
        let pos = Position::from_dfen(dfen).expect("valid DFEN");
        let run = || {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            fast_bounded(
                bot.as_ref(),
                &pos,
                &mut rng,
                &mut Budget::new(FAST_ROOT_UNITS),
            )
            .expect("a legal turn")
        };
        let (answer, secs) = common::timed(run);
        let path = answer.choice().path.expect("no position here passes");
        let mut p = pos;
        for m in path.moves().iter() {
            p = p.play(*m).unwrap_or_else(|e| panic!("{name}: {path}: {e}"));
        }
        if let Bounded::Chosen(choice) = &answer {
            assert!(legal_paths(&pos).contains(&path), "{name}: a legal turn");
            let stats = choice.stats.expect("best reports its search");
            assert!(stats.fell_back_to_pre_rank, "{name}: the pre-ranker's pick");
        }
        eprintln!(
            "fast_path {name}: {:.2} ms, {}",
            secs * 1e3,
            match answer {
                Bounded::Chosen(_) => "pre-ranked",
                Bounded::Fallback { .. } => "root over budget: material among sure paths",
            }
        );
        group.bench_function(name, |b| b.iter(|| black_box(run())));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 20);
    targets = bench_root_budget, bench_fast_path
}
criterion_main!(benches);
