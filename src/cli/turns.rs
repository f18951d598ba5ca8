//! `dicechess turns`: the legal turn paths of a rolled position.

use super::{rolled_position, CliError};
use dicechess::rules::{legal_paths, Budget, Budgeted, TurnTree};
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
    /// With --tree: refuse a root whose enumeration costs more than this many work units
    /// (move-generation calls plus examined micro-moves). The tree keeps about 200 bytes
    /// a path: nine queens rolled QQQ (4.4 M paths) took 0.9 GB unbounded.
    #[arg(long, default_value_t = TREE_WORK_UNITS)]
    max_work: u64,
}

/// The default `--max-work` of `--tree`: 2 M units bound the tree to about 400 MB; Kiwipete
/// rolled BNQ (7,630 paths) costs 9,037.
pub const TREE_WORK_UNITS: u64 = 2_000_000;

/// Print the paths (docs/rules.md §5 order), their count, or their tree. A pass prints no path.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    if args.tree {
        let mut budget = Budget::new(args.max_work);
        return match TurnTree::budgeted(&pos, &mut budget) {
            Budgeted::Complete(tree, _) => {
                writeln!(out, "{}", tree.to_json())?;
                Ok(())
            }
            Budgeted::Incomplete(used) => Err(CliError::Input(format!(
                "the turn tree needs more than --max-work {} units (stopped after {used}); \
                 raise it to print the tree anyway",
                args.max_work
            ))),
        };
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
