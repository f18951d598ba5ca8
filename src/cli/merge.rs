//! `dicechess merge`: combine the output folders of `selfplay --shard i/n` slices (or of
//! partial runs) into one folder ([`merge_runs`]: only the file names the engine writes are
//! accepted, every count is checked, and each digest is computed over the bytes copied).

use super::selfplay::selfplay_error;
use super::CliError;
use dicechess::selfplay::merge_runs;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Self-play output folders of the same run (each with a manifest.json).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The merged folder (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Run `merge`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    let merged = merge_runs(&args.dirs, &args.out).map_err(selfplay_error)?;
    let t = merged.totals();
    let _ = writeln!(
        std::io::stderr(),
        "merge: {} shard(s) of {} ({} games, {} positions) into {}",
        merged.shards.len(),
        merged.shard_count,
        t.games,
        t.positions,
        args.out.display()
    );
    Ok(())
}
