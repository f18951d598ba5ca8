//! `dicechess bestmove`: one decision by any bot, as JSON.

use super::{rolled_position, CliError};
use dicechess::search::bots::{bot_by_id, BotOptions, Turn};
use dicechess::search::bounded::{choose_bounded, root_budget, Bounded};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `bestmove`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The rolled position (DFEN with dice).
    dfen: String,
    /// The bot (see `dicechess bots`).
    #[arg(long, default_value = "expectimax")]
    bot: String,
    /// Think at most this long (bots that honour deadlines; a legal turn is always returned).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Model package for model leaves (`expectimax-model`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// Opening book (TSV) played before the bot.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Expectimax candidate limit.
    #[arg(long)]
    candidates: Option<usize>,
    /// Seed for tie-breaks and sampling.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Print `{"moves": [...], "score": …, "stats": …, "rootBudget": …}`; `moves` is empty for
/// a forced pass. The root enumeration is charged to a work budget derived from
/// `--time-ms` (capped whatever the time: `search::bounded`); a root over it is answered by
/// the fast fallback (`"rootBudget": {"fallback": true, ...}`) instead of the bot.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    let opts = BotOptions {
        model: args.model,
        book: args.book,
        candidate_limit: args.candidates,
        table_mb: None,
        chance: None,
    };
    let bot = bot_by_id(&args.bot, &opts).map_err(|e| CliError::Input(format!("--bot: {e}")))?;
    let threads = args.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Other(e.into()))?;
    let start = Instant::now();
    let deadline = args.time_ms.map(|ms| start + Duration::from_millis(ms));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let mut budget = root_budget(args.time_ms.map(Duration::from_millis));
    let bounded = pool
        .install(|| {
            choose_bounded(
                bot.as_ref(),
                &pos,
                &mut Turn {
                    rng: &mut rng,
                    deadline,
                },
                &mut budget,
            )
        })
        .map_err(|e| CliError::Other(e.into()))?;
    let root = json!({
        "limit": budget.limit(),
        "fallback": matches!(bounded, Bounded::Fallback { .. }),
    });
    let choice = bounded.choice().clone();
    let moves: Vec<String> = choice
        .path
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .unwrap_or_default();
    let report = json!({
        "bot": bot.info().id,
        "moves": moves,
        "score": choice.score,
        "elapsed_ms": start.elapsed().as_secs_f64() * 1e3,
        "stats": choice.stats,
        "rootBudget": root,
    });
    writeln!(out, "{report}")?;
    Ok(())
}
