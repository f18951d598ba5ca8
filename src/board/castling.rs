//! Castling rights as the 4-bit value the Zobrist keys use.

/// Castling rights: White king side `K = 1`, White queen side `Q = 2`, Black king side
/// `k = 4`, Black queen side `q = 8` (docs/rules.md §7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Castling(pub u8);

impl Castling {
    /// White king side.
    pub const WHITE_KING: u8 = 1;
    /// White queen side.
    pub const WHITE_QUEEN: u8 = 2;
    /// Black king side.
    pub const BLACK_KING: u8 = 4;
    /// Black queen side.
    pub const BLACK_QUEEN: u8 = 8;
    /// No rights.
    pub const NONE: Castling = Castling(0);
    /// All four rights.
    pub const ALL: Castling = Castling(15);

    /// Whether the right `bit` is held.
    #[inline]
    pub const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// The FEN field: `KQkq` order, `-` if none.
    pub fn fen(self) -> String {
        let mut s = String::with_capacity(4);
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The rights with White's and Black's swapped (K↔k, Q↔q).
    #[inline]
    pub const fn swap_colors(self) -> Castling {
        Castling(((self.0 & 3) << 2) | ((self.0 >> 2) & 3))
    }
}
