//! Deadlines kept: how far past its budget a searching bot's decision runs, over many
//! positions. A bot is told "think until now + budget"; what it overshoots is
//! `elapsed − budget`, and the target (docs/search.md §4.7) is at most 10 ms on a quiet
//! machine for every decision. This bench reports that distribution (p50, p90, p99, max),
//! the decisions over the target, and the positions of the three worst overruns.
//!
//! The positions: `DEADLINE_POSITIONS` (default 200) rolled positions from seeded games of
//! `greedy` against `greedy` (its turns are cheap, and its games reach every phase), one
//! position in three from the fourth turn on, positions whose decision is forced (a pass
//! or a king capture) left out. Each decision is by `DEADLINE_BOT` (default `best`, built
//! once, as `serve` and the arena hold their bots) under `DEADLINE_MS` (default 200) on
//! the global rayon pool, one decision at a time, after one warm-up search.
//!
//! Before anything is reported, every decision is checked: a legal turn of the rolled
//! position (`rules::play_turn`), never a pass where a turn exists.
//!
//! `cargo bench --bench deadline` (about 45 s at the defaults).
#![allow(clippy::unwrap_used)]

use dicechess::board::Dice;
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions, Choice, Turn};
use dicechess::rules::{legal_paths, play_turn, roll_faces};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `n` rolled positions from seeded greedy games (module documentation).
fn positions(n: usize) -> Vec<Position> {
    let greedy = bot_by_id("greedy", &BotOptions::default()).unwrap();
    let mut out = Vec::with_capacity(n);
    let mut game = 0u64;
    while out.len() < n {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + game);
        game += 1;
        let mut pos = Position::startpos();
        for turn in 0..300 {
            let rolled = pos.with_dice(Dice::from_faces(&roll_faces(&mut rng)).unwrap());
            let paths = legal_paths(&rolled);
            if Choice::forced(&paths).is_none() && turn >= 6 && turn % 3 == 0 {
                out.push(rolled);
                if out.len() == n {
                    break;
                }
            }
            let choice = greedy
                .choose(
                    &rolled,
                    &mut Turn {
                        rng: &mut rng,
                        deadline: None,
                    },
                )
                .unwrap();
            let Some(path) = choice.path else {
                pos = rolled.end_turn();
                continue;
            };
            if path.captures_king() {
                break;
            }
            pos = path.end_position(&rolled);
        }
    }
    out
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn main() {
    // `cargo bench` passes `--bench`; this harness takes no arguments of its own.
    let n: usize = env_or("DEADLINE_POSITIONS", 200);
    let ms: u64 = env_or("DEADLINE_MS", 200);
    let id: String = env_or("DEADLINE_BOT", "best".to_owned());
    let budget = Duration::from_millis(ms);
    let positions = positions(n);
    let bot = bot_by_id(&id, &BotOptions::default()).unwrap();
    bot.warm_up();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut overruns: Vec<(f64, usize)> = Vec::with_capacity(n);
    for (i, rolled) in positions.iter().enumerate() {
        let start = Instant::now();
        let choice = bot
            .choose(
                rolled,
                &mut Turn {
                    rng: &mut rng,
                    deadline: Some(start + budget),
                },
            )
            .unwrap();
        let elapsed = start.elapsed();
        let path = choice
            .path
            .unwrap_or_else(|| panic!("{}: a pass where turns exist", rolled.to_dfen()));
        play_turn(rolled, &path.moves())
            .unwrap_or_else(|e| panic!("{}: {path} is not a legal turn: {e}", rolled.to_dfen()));
        let over = elapsed.as_secs_f64() * 1e3 - ms as f64;
        overruns.push((over, i));
    }
    let mut sorted: Vec<f64> = overruns.iter().map(|&(o, _)| o).collect();
    sorted.sort_by(f64::total_cmp);
    let over_target = sorted.iter().filter(|&&o| o > 10.0).count();
    println!(
        "deadline/{id}/{ms}ms over {n} positions: elapsed − budget p50 {:+.2} ms, p90 {:+.2} ms, \
         p99 {:+.2} ms, max {:+.2} ms; {over_target} decisions over +10 ms",
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.9),
        percentile(&sorted, 0.99),
        sorted[sorted.len() - 1],
    );
    overruns.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(o, i) in overruns.iter().take(3) {
        println!("  worst: {o:+.2} ms  {}", positions[i].to_dfen());
    }
}
