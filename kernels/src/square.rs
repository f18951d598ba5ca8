//! Board squares, a1 = 0 … h8 = 63.

use core::fmt;

/// A square, `index = 8 * rank + file` with a1 = 0, h1 = 7, a8 = 56, h8 = 63 (docs/rules.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// c8.
    pub const C8: Square = Square(58);
    /// d8.
    pub const D8: Square = Square(59);
    /// e8.
    pub const E8: Square = Square(60);
    /// f8.
    pub const F8: Square = Square(61);
    /// g8.
    pub const G8: Square = Square(62);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square of `index` if it is below 64.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of `index & 63` — total, for indices known to be in range (e.g. from a
    /// bitboard's trailing zeros).
    #[inline]
    pub const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank` (both 0..8).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Index 0..64 as `u8`.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// File 0..8 (a = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (rank 1 = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The vertically mirrored square (rank r ↔ 9 − r), `index ^ 56`.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The horizontally mirrored square (file f ↔ 7 − f), `index ^ 7`.
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// Parse a square name such as `e4` from the start of `bytes` (exactly two bytes).
    #[inline]
    pub const fn from_name(bytes: &[u8]) -> Option<Square> {
        if bytes.len() != 2 {
            return None;
        }
        let (f, r) = (bytes[0], bytes[1]);
        if f < b'a' || f > b'h' || r < b'1' || r > b'8' {
            return None;
        }
        Some(Square((r - b'1') * 8 + (f - b'a')))
    }

    /// The file letter `a..h`.
    #[inline]
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit `1..8`.
    #[inline]
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}
