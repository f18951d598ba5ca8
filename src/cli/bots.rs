//! `dicechess bots`: the bot registry.

use super::CliError;
use dicechess::bots::registry;
use std::io::Write;

/// Arguments of `bots`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// List every bot with id, name, difficulty and description.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let bots = registry();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&bots).map_err(|e| CliError::Other(e.into()))?
        )?;
        return Ok(());
    }
    for b in bots {
        writeln!(
            out,
            "{:<22} {:>2}  {:<24} {}",
            b.id, b.difficulty, b.name, b.description
        )?;
    }
    Ok(())
}
