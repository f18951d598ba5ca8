//! Piece types in die-face order.

/// A piece type. The discriminant is `face - 1`, so a die face maps to a type directly and a
/// type's bit in a 6-bit type mask is `1 << (type as u8)` (docs/rules.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Face 1.
    Pawn = 0,
    /// Face 2.
    Knight = 1,
    /// Face 3.
    Bishop = 2,
    /// Face 4.
    Rook = 3,
    /// Face 5.
    Queen = 4,
    /// Face 6.
    King = 5,
}

impl PieceType {
    /// All six types in die-face order.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// Promotion choices in generation order (docs/rules.md §4: Q, R, B, N).
    pub const PROMOTIONS: [PieceType; 4] = [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ];

    /// The type moved by die `face` (1..=6); `None` for any other value.
    #[inline]
    pub const fn from_face(face: u8) -> Option<PieceType> {
        match face {
            1..=6 => Some(Self::ALL[(face - 1) as usize]),
            _ => None,
        }
    }

    /// The type of index `i` (0..6); `None` otherwise.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceType> {
        if i < 6 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// The die face that moves this type (1..=6).
    #[inline]
    pub const fn face(self) -> u8 {
        self as u8 + 1
    }

    /// `0..6`, die-face order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// This type's bit in a 6-bit type mask.
    #[inline]
    pub const fn mask_bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Lower-case letter: `p n b r q k`.
    #[inline]
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The type for a letter of `pnbrqk` in either case.
    #[inline]
    pub const fn from_letter(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}
