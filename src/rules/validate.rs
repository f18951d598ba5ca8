//! Checking a whole turn against the legal paths.

use super::{legal_paths, MicroMove};
use crate::board::Position;

/// Why a turn was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The position has no dice to play.
    #[error("the position has no dice: a turn needs a rolled pool")]
    NoDice,
    /// Moves were given but the roll admits no legal path: the turn is a pass.
    #[error("the roll admits no legal path (a forced pass), but {given} was played")]
    MustPass {
        /// The moves given, in UCI.
        given: String,
    },
    /// An empty turn (pass) although legal paths exist.
    #[error("a pass is not allowed: {count} legal paths exist")]
    MustMove {
        /// Number of legal paths.
        count: usize,
    },
    /// The moves are not one of the legal paths.
    #[error("{given} is not a legal turn path (maximum dice rule, docs/rules.md §5); {count} legal paths exist")]
    NotLegal {
        /// The moves given, in UCI.
        given: String,
        /// Number of legal paths.
        count: usize,
    },
}

/// Play a whole turn: `moves` must be exactly one of the legal paths (empty = pass, allowed
/// only when there is none). Returns the position after the end of the turn.
pub fn play_turn(pos: &Position, moves: &[MicroMove]) -> Result<Position, TurnError> {
    if pos.dice().is_empty() {
        return Err(TurnError::NoDice);
    }
    let paths = legal_paths(pos);
    let given = || moves.iter().map(|m| m.uci()).collect::<Vec<_>>().join(",");
    if moves.is_empty() {
        return if paths.is_empty() {
            Ok(pos.end_turn())
        } else {
            Err(TurnError::MustMove { count: paths.len() })
        };
    }
    if paths.is_empty() {
        return Err(TurnError::MustPass { given: given() });
    }
    match paths.iter().find(|p| *p.moves() == *moves) {
        Some(p) => Ok(p.end_position(pos)),
        None => Err(TurnError::NotLegal {
            given: given(),
            count: paths.len(),
        }),
    }
}
