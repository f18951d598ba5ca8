//! The rules: moves per die, copy-make, turn paths under the maximum dice rule, rolls,
//! playable dice and single-die perft (docs/rules.md §2–§6).

mod all_rolls;
mod budget;
mod key_set;
mod make;
mod micro_move;
mod movegen;
mod perft;
mod playable;
mod rolls;
mod tree;
mod turn;
mod uci;
mod validate;

pub use all_rolls::{expand_all_rolls, expand_all_rolls_budgeted, RollOutcome, RollSets};
pub use budget::{Budget, Budgeted, Meter, Unmetered};
pub use make::MoveError;
pub use micro_move::{MicroMove, MoveKind};
pub use movegen::{
    generate, generate_into, MoveList, PieceMoves, CASTLE_KING_SIDE, CASTLE_QUEEN_SIDE,
    MOVE_LIST_CAPACITY,
};
pub use perft::perft_single_die;
pub use playable::playable_dice;
pub use rolls::{roll_faces, WeightedRoll, ROLLS, ROLL_DENOMINATOR};

pub(crate) use key_set::KeyMap;
pub use tree::TurnTree;
pub use turn::{
    has_payable_move, legal_first_moves, legal_paths, EndStates, PathMoves, TurnGenerator, TurnPath,
};
pub use uci::{parse_uci, parse_uci_path, UciError};
pub use validate::{play_turn, TurnError};
