//! Piece price tables in die-face order, and the engine's `MaterialValues` (docs/rules.md §1,
//! docs/search.md §3.1).

use crate::board::Position;
use dicechess_kernels::{Bitboard, PieceType};

/// Every type bit of a 6-bit type mask.
const ALL_TYPES: u8 = 0x3f;

/// A price per piece type, in die-face order (P, N, B, R, Q, K). Any `i32` is allowed,
/// negative prices included; nothing assumes the table is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceValues {
    prices: [i32; 6],
}

/// `MaterialValues` (centipawns, shared by the evaluator and piece safety): P 100, N 300,
/// B 300, R 500, Q 900, K 10 000 — the king priced above a full army.
pub const MATERIAL_VALUES: PieceValues = PieceValues::new([100, 300, 300, 500, 900, 10_000]);

impl PieceValues {
    /// A table from prices in die-face order (P, N, B, R, Q, K).
    #[inline]
    pub const fn new(prices: [i32; 6]) -> PieceValues {
        PieceValues { prices }
    }

    /// The six prices in die-face order.
    #[inline]
    pub const fn prices(&self) -> [i32; 6] {
        self.prices
    }

    /// The price of one type.
    #[inline]
    pub const fn price(&self, piece: PieceType) -> i32 {
        self.prices[piece.index()]
    }

    /// The lowest price among the types in a 6-bit `mask` (bit = face − 1; higher bits are
    /// ignored); `None` for an empty mask. Every present bit is inspected, so the answer is
    /// right for any table.
    #[inline]
    pub const fn minimum(&self, mask: u8) -> Option<i32> {
        let mut m = mask & ALL_TYPES;
        if m == 0 {
            return None;
        }
        let mut best = i32::MAX;
        while m != 0 {
            let p = self.prices[m.trailing_zeros() as usize];
            if p < best {
                best = p;
            }
            m &= m - 1;
        }
        Some(best)
    }

    /// [`PieceValues::minimum`], or `sentinel` for an empty mask.
    #[inline]
    pub const fn minimum_or(&self, mask: u8, sentinel: i32) -> i32 {
        match self.minimum(mask) {
            Some(p) => p,
            None => sentinel,
        }
    }

    /// The lowest price of the pieces (either colour) standing on `squares`, or `sentinel` if
    /// none stands there.
    #[inline]
    pub fn minimum_on(&self, pos: &Position, squares: Bitboard, sentinel: i32) -> i32 {
        self.minimum_or(types_on(pos, squares), sentinel)
    }

    /// The summed price of the pieces (either colour) standing on `squares`.
    #[inline]
    pub fn sum_on(&self, pos: &Position, squares: Bitboard) -> i32 {
        let mut sum = 0i32;
        for piece in PieceType::ALL {
            let n = (pos.pieces(piece) & squares).count() as i32;
            sum = sum.wrapping_add(n.wrapping_mul(self.price(piece)));
        }
        sum
    }
}

/// The type mask of the pieces (either colour) standing on `squares`.
#[inline]
fn types_on(pos: &Position, squares: Bitboard) -> u8 {
    let mut mask = 0u8;
    for piece in PieceType::ALL {
        mask |= ((pos.pieces(piece) & squares).any() as u8) << (piece as u8);
    }
    mask
}
