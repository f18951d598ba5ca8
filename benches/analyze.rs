//! Game analysis speed (docs/analysis.md): analysed turns per second at the default setting
//! (`best`'s dice-aware leaves, depth 2, every candidate valued), on one core and on all,
//! on the committed sample of self-play positions (`tests/data/sample_*.txt`: rolled
//! positions of `best` against `best`), each played with its first legal turn; and at depth 1
//! and within 100 ms a turn for comparison. Benchmarks are named
//! `analyze/<setting>/<class>`.
//!
//! Before anything is timed, every analysed turn is checked: its error is `best − played`
//! and ≥ 0, its luck is `after − before`, every candidate was valued at the default setting.
//! A table of turns per second is printed to stderr.
#![allow(clippy::unwrap_used)] // a bench fails by panicking

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::analysis::{AnalysisConfig, Analyzer, TurnAnalysis, TurnClass};
use dicechess::board::{Dice, Position};
use dicechess::rules::legal_paths;
use std::hint::black_box;
use std::time::Duration;

const CLASSES: [&str; 3] = ["opening", "middlegame", "endgame"];

/// (position before the roll, faces, played moves) of a sample's rolled positions.
fn sample(class: &str, n: usize) -> Vec<(Position, Vec<u8>, Vec<String>)> {
    let path = format!(
        "{}/tests/data/sample_{class}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(n)
        .map(|l| {
            let rolled = Position::from_dfen(l).unwrap();
            let moves = legal_paths(&rolled)
                .first()
                .map(|p| p.moves().into_iter().map(|m| m.uci()).collect())
                .unwrap_or_default();
            (
                rolled.with_dice(Dice::EMPTY),
                rolled.dice().faces().to_vec(),
                moves,
            )
        })
        .collect()
}

fn analyze_all(
    analyzer: &Analyzer,
    turns: &[(Position, Vec<u8>, Vec<String>)],
) -> Vec<TurnAnalysis> {
    turns
        .iter()
        .map(|(p, d, m)| analyzer.analyze_turn(p, d, m, ("bench", 1)).unwrap())
        .collect()
}

fn check(analyzed: &[TurnAnalysis], exact: bool) {
    for t in analyzed {
        assert!(t.error >= 0.0 && t.best_equity >= t.played_equity);
        if t.class != TurnClass::Forced {
            assert_eq!(t.error, (t.best_equity - t.played_equity).max(0.0));
        }
        assert_eq!(t.luck, t.equity_after_roll - t.equity_before);
        if exact {
            assert_eq!(t.valued, t.candidates);
        }
    }
}

fn bench(c: &mut Criterion) {
    let settings = [
        ("depth2", AnalysisConfig::default()),
        (
            "depth1",
            AnalysisConfig {
                depth: 1,
                time_ms: None,
            },
        ),
        (
            "time100ms",
            AnalysisConfig {
                depth: 2,
                time_ms: Some(100),
            },
        ),
    ];
    let one = common::pool(1);
    let all = common::pool(0);
    let cores = all.current_num_threads();
    eprintln!(
        "analysed turns per second (best's leaves; first legal turn played; 16 turns a class):"
    );
    eprintln!(
        "{:<10} {:<11} {:>12} {:>12} {:>12}",
        "setting",
        "class",
        "1 core",
        format!("{cores} cores"),
        "candidates"
    );
    for (name, config) in settings {
        let analyzer = Analyzer::for_bot("best", config).unwrap();
        for class in CLASSES {
            let turns = sample(class, 16);
            let checked = all.install(|| analyze_all(&analyzer, &turns));
            check(&checked, config.time_ms.is_none());
            let candidates: usize = checked.iter().map(|t| t.candidates).sum();
            let (_, one_s) = common::timed(|| one.install(|| analyze_all(&analyzer, &turns)));
            let (_, all_s) = common::timed(|| all.install(|| analyze_all(&analyzer, &turns)));
            eprintln!(
                "{name:<10} {class:<11} {:>12.1} {:>12.1} {:>12.0}",
                turns.len() as f64 / one_s,
                turns.len() as f64 / all_s,
                candidates as f64 / turns.len() as f64
            );
        }
    }
    let mut g = c.benchmark_group("analyze");
    for (name, config) in settings {
        let analyzer = Analyzer::for_bot("best", config).unwrap();
        for class in CLASSES {
            let turns = sample(class, 4);
            g.bench_with_input(BenchmarkId::new(name, class), &turns, |b, ts| {
                b.iter(|| all.install(|| black_box(analyze_all(&analyzer, ts))))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(4), 10);
    targets = bench
}
criterion_main!(benches);
