//! `dicechess equity`: Monte-Carlo equity of a position.

use super::CliError;
use dicechess::board::Position;
use dicechess::search::{equity, MonteCarloConfig};
use std::io::Write;

/// Arguments of `equity`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (its side to move rolls next; dice are ignored).
    dfen: String,
    /// Rollouts.
    #[arg(long, default_value_t = 500)]
    rollouts: u32,
    /// Plies per rollout before the rest counts as undecided.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Stop once the standard error is at most this (0: run every rollout).
    #[arg(long, default_value_t = 0.0)]
    target_error: f64,
    /// Seed (rollout i is seeded from it and i, whatever the thread count).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// Print the estimate as JSON.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = Position::from_dfen(&args.dfen)?;
    let config = MonteCarloConfig {
        rollouts: args.rollouts,
        max_plies: args.max_plies,
        target_error: args.target_error,
        seed: args.seed,
        ..MonteCarloConfig::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Other(e.into()))?;
    let e = pool.install(|| equity(&pos, &config, None));
    writeln!(
        out,
        "{}",
        serde_json::to_string(&e).map_err(|e| CliError::Other(e.into()))?
    )?;
    Ok(())
}
