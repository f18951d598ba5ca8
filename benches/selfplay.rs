//! Self-play throughput: `expectimax` against `expectimax` (depth 2, candidate limit 8, no
//! table, untimed — what `dicechess selfplay --white expectimax --black expectimax` plays),
//! with chance nodes expanded roll by roll (ADEP classes, `per-roll`) and in one shared walk
//! (`shared`, the default), on 1 and 2 threads. Benchmarks are named
//! `selfplay/<mode>/threads/<n>`; one iteration plays the same 8 seeded games.
//!
//! Before timing, every game of both modes is checked turn by turn against the rules
//! (`validate_record`), and a quick games/s line per form is printed to stderr.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::search::ChanceMode;
use dicechess::selfplay::{game_seed, play_game, validate_record, GameLimits, GameRecord};
use rayon::prelude::*;
use std::time::Duration;

const GAMES: u64 = 8;
const RUN_SEED: u64 = 7;

fn options(chance: ChanceMode) -> BotOptions {
    BotOptions {
        table_mb: Some(0),
        chance: Some(chance),
        ..BotOptions::default()
    }
}

/// Play game `k` of the run with both bots built fresh (as self-play does).
fn game(k: u64, chance: ChanceMode) -> GameRecord {
    let opts = options(chance);
    let white = bot_by_id("expectimax", &opts).expect("registered bot");
    let black = bot_by_id("expectimax", &opts).expect("registered bot");
    play_game(
        &Position::startpos(),
        white.as_ref(),
        black.as_ref(),
        game_seed(RUN_SEED, k),
        GameLimits::default(),
        format!("bench-{k}"),
        (serde_json::Value::Null, serde_json::Value::Null),
    )
    .expect("game")
}

/// The run's games in parallel on the current pool; returns the turns played.
fn run(chance: ChanceMode) -> usize {
    (0..GAMES)
        .into_par_iter()
        .map(|k| game(k, chance).turns.len())
        .sum()
}

fn bench(c: &mut Criterion) {
    let pools = common::pools();
    for (mode, chance) in common::CHANCE_MODES {
        for k in 0..GAMES {
            let record = game(k, chance);
            validate_record(&record)
                .unwrap_or_else(|e| panic!("{mode}: game {k} is not legal: {}", e.describe(0)));
        }
        let mut group = c.benchmark_group(format!("selfplay/{mode}"));
        for (threads, pool) in &pools {
            let (turns, secs) = common::timed(|| pool.install(|| run(chance)));
            eprintln!(
                "selfplay expectimax vs expectimax {mode:8} {threads}T: {:6.2} games/s, {:7.1} turns/s ({GAMES} games, {turns} turns, {secs:.2} s)",
                GAMES as f64 / secs,
                turns as f64 / secs,
            );
            group.bench_function(BenchmarkId::new("threads", threads), |b| {
                b.iter(|| pool.install(|| run(chance)))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_millis(100), Duration::from_secs(5), 10);
    targets = bench
}
criterion_main!(benches);
