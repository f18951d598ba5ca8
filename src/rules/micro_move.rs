//! One micro-move: a piece of one type moving once, paid by one die (castling: two).

use dicechess_kernels::{PieceType, Square};
use std::fmt;

/// What kind of micro-move it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal,
    /// A pawn's two-step push from its start rank (adds the passed square to the e.p. set).
    DoublePush,
    /// A pawn capturing onto an e.p. target; the pawn behind the target is removed.
    EnPassant,
    /// A pawn reaching the last rank and becoming this type.
    Promotion(PieceType),
    /// King and rook together, paid by a King and a Rook die; `to` is the king's square.
    Castle,
}

/// A micro-move: `piece` moves `from` → `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MicroMove {
    /// The moving piece's type (the die it spends; castling also spends a Rook die).
    pub piece: PieceType,
    /// Origin square.
    pub from: Square,
    /// Destination square (the king's for castling).
    pub to: Square,
    /// Special handling.
    pub kind: MoveKind,
}

impl MicroMove {
    /// A placeholder that no generator emits (a1 → a1), for filling fixed arrays.
    pub const NULL: MicroMove = MicroMove {
        piece: PieceType::Pawn,
        from: Square::A1,
        to: Square::A1,
        kind: MoveKind::Normal,
    };

    /// Number of dice the move spends: 2 for castling, else 1.
    #[inline]
    pub const fn cost(self) -> u8 {
        match self.kind {
            MoveKind::Castle => 2,
            _ => 1,
        }
    }

    /// The UCI text: `e2e4`, `e7e8q`, `e1g1` (castling as the king's move).
    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for MicroMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let MoveKind::Promotion(p) = self.kind {
            write!(f, "{}", p.letter())?;
        }
        Ok(())
    }
}
