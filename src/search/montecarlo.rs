//! Monte-Carlo equity, Rao-Blackwellised with the exact per-ply king-capture probability
//! (docs/search.md §5.1).
//!
//! Each rollout walks a game from the pre-roll position. At every ply the exact probability
//! `p` that the mover captures a king on this roll is credited to the mover, weighted by the
//! probability `survive` that the game is still running, and the walk continues conditioned
//! on survival: a roll that would allow a king capture is rejected and rolled again, and a
//! uniform random legal turn of an accepted roll is played (a pass when it has none). The
//! reference engine instead drops the capturing turns of such a roll and plays another turn
//! of the same roll, which over-weights those rolls; conditioning on the roll is exact.
//! White + Black + undecided = 1 for every rollout.

use crate::board::{Dice, Position};
use crate::probe::king_capture_rolls;
use crate::rules::{TurnGenerator, TurnPath};
use dicechess_kernels::Color;
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// Rollout settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MonteCarloConfig {
    /// Rollouts to run (at most).
    pub rollouts: u32,
    /// Plies per rollout before the remaining mass counts as undecided.
    pub max_plies: u32,
    /// Stop early once the standard error of White's share is at most this (0 = never).
    pub target_error: f64,
    /// Rollouts before `target_error` may stop the run.
    pub min_rollouts: u32,
    /// Seed of the run; rollout `i` uses a generator seeded from (seed, i).
    pub seed: u64,
}

impl Default for MonteCarloConfig {
    fn default() -> Self {
        MonteCarloConfig {
            rollouts: 500,
            max_plies: 1000,
            target_error: 0.0,
            min_rollouts: 128,
            seed: 0,
        }
    }
}

/// Below this survival mass a rollout stops.
pub const SURVIVAL_EPSILON: f64 = 1e-5;
/// Rolls tried per ply before the remaining mass is left undecided.
pub const MAX_ROLL_RETRIES: u32 = 64;

/// The estimate: shares of White wins, Black wins and undecided games (summing to 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EquityEstimate {
    /// Mean White-win mass.
    pub white_win: f64,
    /// Mean Black-win mass.
    pub black_win: f64,
    /// Mean undecided mass.
    pub undecided: f64,
    /// Rollouts run.
    pub rollouts: u32,
    /// Standard error of `white_win`.
    pub standard_error: f64,
    /// Variance of a plain win/loss rollout (`p(1 − p)`) over this estimator's variance.
    pub variance_reduction: f64,
}

/// One rollout's (White, Black, undecided) masses.
fn rollout(
    start: &Position,
    p0: f64,
    max_plies: u32,
    rng: &mut Xoshiro256PlusPlus,
    gen: &mut TurnGenerator,
) -> (f64, f64, f64) {
    let (mut white, mut black, mut survive) = (0.0, 0.0, 1.0);
    let mut s = start.with_dice(Dice::EMPTY);
    let mut paths: Vec<TurnPath> = Vec::new();
    for ply in 0..max_plies {
        let mover = s.side_to_move();
        let p = if ply == 0 {
            p0
        } else {
            king_capture_rolls(&s, mover.opponent()) as f64 / 216.0
        };
        match mover {
            Color::White => white += survive * p,
            Color::Black => black += survive * p,
        }
        survive *= 1.0 - p;
        if survive <= SURVIVAL_EPSILON {
            break;
        }
        let mut next = None;
        for _ in 0..MAX_ROLL_RETRIES {
            let faces = crate::rules::roll_faces(rng);
            let rolled = s.with_dice(Dice::from_faces(&faces).unwrap_or(Dice::EMPTY));
            paths.clear();
            gen.legal_paths_into(&rolled, &mut paths);
            if paths.iter().any(|t| t.captures_king()) {
                continue;
            }
            next = Some(if paths.is_empty() {
                rolled.end_turn()
            } else {
                paths[(rng.next_u64() % paths.len() as u64) as usize].end_position(&rolled)
            });
            break;
        }
        match next {
            Some(n) => s = n,
            None => break,
        }
    }
    (white, black, survive)
}

/// Seed of rollout `i` of a run: independent of thread count and scheduling.
fn rollout_seed(seed: u64, i: u32) -> u64 {
    let mut z = seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Estimate the equity of the pre-roll position `pos` (its side to move rolls next; any
/// dice in `pos` are ignored). Rollouts run in parallel in blocks; each has its own
/// generator seeded from (`config.seed`, rollout index), so the estimate does not depend on
/// the thread count. Stops at `config.rollouts`, at the target error, or at `deadline`
/// (always after at least one block).
pub fn equity(
    pos: &Position,
    config: &MonteCarloConfig,
    deadline: Option<Instant>,
) -> EquityEstimate {
    let start = pos.with_dice(Dice::EMPTY);
    // Identical for every rollout and consumes no randomness: hoisted.
    let p0 = king_capture_rolls(&start, start.side_to_move().opponent()) as f64 / 216.0;
    let mut results: Vec<(f64, f64, f64)> = Vec::with_capacity(config.rollouts as usize);
    let block = 32u32;
    let mut next = 0u32;
    while next < config.rollouts {
        let end = (next + block).min(config.rollouts);
        let chunk: Vec<(f64, f64, f64)> = (next..end)
            .into_par_iter()
            .map_init(TurnGenerator::new, |gen, i| {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(rollout_seed(config.seed, i));
                rollout(&start, p0, config.max_plies, &mut rng, gen)
            })
            .collect();
        results.extend(chunk);
        next = end;
        let n = results.len() as u32;
        if config.target_error > 0.0
            && n >= config.min_rollouts
            && summarize(&results).standard_error <= config.target_error
        {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    summarize(&results)
}

fn summarize(results: &[(f64, f64, f64)]) -> EquityEstimate {
    let n = results.len();
    // Welford for White's share; plain means for the others.
    let (mut mean, mut m2) = (0.0f64, 0.0f64);
    let (mut black, mut undecided) = (0.0, 0.0);
    for (i, &(w, b, u)) in results.iter().enumerate() {
        let d = w - mean;
        mean += d / (i + 1) as f64;
        m2 += d * (w - mean);
        black += b;
        undecided += u;
    }
    let nf = n.max(1) as f64;
    let var = if n > 1 { m2 / (n - 1) as f64 } else { 0.0 };
    EquityEstimate {
        white_win: mean,
        black_win: black / nf,
        undecided: undecided / nf,
        rollouts: n as u32,
        standard_error: if n > 1 { (var / n as f64).sqrt() } else { 0.0 },
        variance_reduction: if var <= 1e-12 {
            f64::INFINITY
        } else {
            mean * (1.0 - mean) / var
        },
    }
}
