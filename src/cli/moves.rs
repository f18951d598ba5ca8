//! `dicechess moves`: the legal first micro-moves of a rolled position.

use super::{rolled_position, CliError};
use dicechess::rules::legal_first_moves;
use std::io::Write;

/// Arguments of `moves`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position with its dice, e.g. "<fen> PNB".
    dfen: String,
}

/// Print the distinct first micro-moves of the legal paths, in path order.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    let moves = legal_first_moves(&pos);
    for m in &moves {
        writeln!(out, "{m}")?;
    }
    if moves.is_empty() {
        eprintln!("pass: the roll admits no legal path");
    }
    Ok(())
}
