//! `dicechess perft`: single-die perft.

use super::CliError;
use dicechess::board::Position;
use dicechess::kernels::PieceType;
use dicechess::rules::perft_single_die;
use std::io::Write;

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (FEN or DFEN; its dice are ignored).
    fen: String,
    /// The die face 1..=6 (1 pawn … 6 king) installed at every ply.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    die: u8,
    /// Plies to count (each ply is one micro-move and an end of turn).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=8))]
    depth: u32,
}

/// Print the node count.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let pos = Position::from_dfen(&args.fen)?;
    let piece = PieceType::from_face(args.die)
        .ok_or_else(|| CliError::Input(format!("--die: {} is not a face 1..=6", args.die)))?;
    writeln!(out, "{}", perft_single_die(&pos, piece, args.depth))?;
    Ok(())
}
