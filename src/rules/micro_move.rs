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

    /// An 18-bit code: piece (3 bits), from (6), to (6), kind (3: normal, double push,
    /// e.p., castle, promotion to Q, R, B, N).
    #[inline]
    pub const fn encode(self) -> u32 {
        let kind = match self.kind {
            MoveKind::Normal => 0,
            MoveKind::DoublePush => 1,
            MoveKind::EnPassant => 2,
            MoveKind::Castle => 3,
            MoveKind::Promotion(PieceType::Queen) => 4,
            MoveKind::Promotion(PieceType::Rook) => 5,
            MoveKind::Promotion(PieceType::Bishop) => 6,
            MoveKind::Promotion(_) => 7,
        };
        self.piece as u32
            | (self.from.to_u8() as u32) << 3
            | (self.to.to_u8() as u32) << 9
            | kind << 15
    }

    /// The micro-move of an [`MicroMove::encode`] code (total: any 18 bits decode to some
    /// move).
    #[inline]
    pub const fn decode(code: u32) -> MicroMove {
        let piece = match code & 7 {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        };
        let kind = match (code >> 15) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Promotion(PieceType::Queen),
            5 => MoveKind::Promotion(PieceType::Rook),
            6 => MoveKind::Promotion(PieceType::Bishop),
            _ => MoveKind::Promotion(PieceType::Knight),
        };
        MicroMove {
            piece,
            from: Square::from_index_masked(code >> 3),
            to: Square::from_index_masked(code >> 9),
            kind,
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
