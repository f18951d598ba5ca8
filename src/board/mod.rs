//! One position: the `Position` row, DFEN, Zobrist keys, the analytics `fen_hash`, colour flip and file mirror.

mod castling;
mod dfen;
mod dice;
mod en_passant;
mod fen_hash;
mod position;
mod symmetry;
// Public on purpose: its key functions (`piece`, `side`, `castling`, `ep`, `ep_set`, `dice`)
// are named for what they key, and re-exported here they would clash with `board::castling`
// and `board::dice` (the modules of `Castling` and `Dice`) and read ambiguously.
pub mod zobrist;

pub use castling::Castling;
pub use dfen::{dice_key, normalized_fen, DfenError, START_FEN};
pub use dice::Dice;
pub(crate) use en_passant::ep_capture_rank;
pub use fen_hash::{fen_hash, fen_hash_of};
pub use position::Position;
