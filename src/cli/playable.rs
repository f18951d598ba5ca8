//! `dicechess playable`: the dice still playable after a played prefix.

use super::{rolled_position, CliError};
use dicechess::kernels::{Color, PieceType};
use dicechess::rules::{parse_uci_path, playable_dice};
use std::io::Write;

/// Arguments of `playable`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position at the start of the turn, with its dice.
    dfen: String,
    /// The micro-moves played so far, UCI, comma-separated (empty: none).
    #[arg(long, default_value = "")]
    prefix: String,
}

/// Print the playable dice as DFEN dice letters (face order, cased by the mover), or `-`
/// when the prefix completes the turn.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = rolled_position(&args.dfen)?;
    let prefix = parse_uci_path(&pos, &args.prefix)
        .map_err(|e| CliError::Input(format!("bad --prefix: {e}")))?;
    let counts = playable_dice(&pos, &prefix).ok_or_else(|| {
        CliError::Input(format!(
            "bad --prefix: {:?} does not start any legal turn path of this roll",
            args.prefix
        ))
    })?;
    let upper = pos.side_to_move() == Color::White;
    let mut letters = String::new();
    for (piece, &n) in PieceType::ALL.iter().zip(counts.iter()) {
        let c = if upper {
            piece.letter().to_ascii_uppercase()
        } else {
            piece.letter()
        };
        letters.extend(std::iter::repeat_n(c, n as usize));
    }
    if letters.is_empty() {
        letters.push('-');
    }
    writeln!(out, "{letters}")?;
    Ok(())
}
