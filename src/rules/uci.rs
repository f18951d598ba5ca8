//! Reading micro-moves and turns written in UCI.

use super::{generate, MicroMove, MoveKind};
use crate::board::Position;
use dicechess_kernels::{PieceType, Square};

/// Why a UCI micro-move or turn could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not of the form `e2e4` or `e7e8q`.
    #[error("{text:?} is not a UCI micro-move (expected e.g. e2e4 or e7e8q)")]
    Syntax {
        /// The offending text.
        text: String,
    },
    /// Well-formed, but no piece of the side to move makes that move (any die).
    #[error("{text:?} is not a move of the side to move in this position")]
    NoSuchMove {
        /// The offending text.
        text: String,
    },
}

/// Find the micro-move written `text` among the side to move's pseudo-legal moves of every
/// type (castling included), ignoring the dice; the dice are checked by [`Position::play`]
/// and by turn validation.
pub fn parse_uci(pos: &Position, text: &str) -> Result<MicroMove, UciError> {
    let b = text.as_bytes();
    let syntax = || UciError::Syntax {
        text: text.to_owned(),
    };
    if !(b.len() == 4 || b.len() == 5) {
        return Err(syntax());
    }
    let from = Square::from_name(&b[0..2]).ok_or_else(syntax)?;
    let to = Square::from_name(&b[2..4]).ok_or_else(syntax)?;
    let promo = match b.get(4) {
        None => None,
        Some(&c) => Some(
            PieceType::from_letter(c as char)
                .filter(|p| {
                    !matches!(p, PieceType::Pawn | PieceType::King) && c.is_ascii_lowercase()
                })
                .ok_or_else(syntax)?,
        ),
    };
    let list = generate(pos, 0x3f, true);
    let mut found = None;
    list.for_each(pos, |m| {
        let p = match m.kind {
            MoveKind::Promotion(p) => Some(p),
            _ => None,
        };
        if found.is_none() && m.from == from && m.to == to && p == promo {
            found = Some(m);
        }
    });
    found.ok_or_else(|| UciError::NoSuchMove {
        text: text.to_owned(),
    })
}

/// Read a comma-separated UCI micro-move list (`e2e4,g1f3`), each move read in the position
/// the previous ones reach. An empty string is the empty list.
pub fn parse_uci_path(pos: &Position, text: &str) -> Result<Vec<MicroMove>, UciError> {
    let mut out = Vec::new();
    let mut p = *pos;
    for part in text.split(',').filter(|s| !s.is_empty()) {
        let m = parse_uci(&p, part.trim())?;
        p = p.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}
