//! `dicechess probe`: every exact probe of a position, for both colours, as JSON.

use super::CliError;
use dicechess::board::Position;
use dicechess::probe::probe_report;
use std::io::Write;

/// Arguments of `probe`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (its dice, if any, are ignored: probes look at the next roll).
    dfen: String,
}

/// Print the probes as one JSON object ([`probe_report`]).
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = Position::from_dfen(&args.dfen)?;
    let report = probe_report(&pos);
    writeln!(
        out,
        "{}",
        serde_json::to_string_pretty(&report).map_err(|e| CliError::Other(e.into()))?
    )?;
    Ok(())
}
