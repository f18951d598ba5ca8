//! One position: the `Position` row, DFEN, Zobrist keys and colour symmetry.

mod castling;
pub mod dfen;
mod dice;
mod position;
mod symmetry;
pub mod zobrist;

pub use castling::Castling;
pub use dfen::{dice_key, normalized_fen, DfenError, START_FEN};
pub use dice::Dice;
pub use position::Position;
