//! `dicechess bestmove`: one decision by any bot, as JSON.

use super::{rolled_position, CliError};
use dicechess::bots::{decide, DecisionError, DecisionRequest};
use std::io::Write;

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
    #[command(flatten)]
    bot_flags: super::bot_flags::BotFlags,
    /// Seed for tie-breaks and sampling.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Print `{"moves": [...], "score": …, "stats": …, "rootBudget": …}` ([`decide`]); `moves`
/// is empty for a forced pass.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    let req = DecisionRequest {
        bot: args.bot,
        options: args.bot_flags.options()?,
        time_ms: args.time_ms,
        threads: args.threads.unwrap_or(0),
        seed: args.seed,
    };
    let report = decide(&pos, &req).map_err(|e| match e {
        DecisionError::Bot(m) => CliError::Input(format!("--bot: {m}")),
        other => CliError::Other(other.into()),
    })?;
    let json = serde_json::to_string(&report).map_err(|e| CliError::Other(e.into()))?;
    writeln!(out, "{json}")?;
    Ok(())
}
