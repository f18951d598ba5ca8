//! `dicechess turns`: the legal turn paths of a rolled position.

use super::{rolled_position, CliError};
use dicechess::rules::{legal_paths, TurnTree};
use std::io::Write;

/// Arguments of `turns`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position with its dice, e.g. "<fen> PNB".
    dfen: String,
    /// Print only the number of legal paths.
    #[arg(long, conflicts_with = "tree")]
    count: bool,
    /// Print the paths as a JSON prefix tree keyed by UCI micro-moves (leaves are {}).
    #[arg(long)]
    tree: bool,
}

/// Print the paths (docs/rules.md §5 order), their count, or their tree. A pass prints no path.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    if args.tree {
        writeln!(out, "{}", TurnTree::new(&pos).to_json())?;
        return Ok(());
    }
    let paths = legal_paths(&pos);
    if args.count {
        writeln!(out, "{}", paths.len())?;
        return Ok(());
    }
    for p in &paths {
        writeln!(out, "{p}")?;
    }
    if paths.is_empty() {
        eprintln!("pass: the roll admits no legal path");
    }
    Ok(())
}
