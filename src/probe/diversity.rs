//! Piece diversity (docs/features.md §4, PDI): how many non-king piece types a colour has.

use crate::board::Position;
use dicechess_kernels::{Color, PieceType};

/// The type mask (bit = face − 1) of the types `color` has on the board, king included.
#[inline]
pub fn presence_mask(pos: &Position, color: Color) -> u8 {
    let own = pos.color(color);
    let mut mask = 0u8;
    for piece in PieceType::ALL {
        mask |= ((pos.pieces(piece) & own).any() as u8) << (piece as u8);
    }
    mask
}

/// PDI: the number of non-king piece types (P, N, B, R, Q) `color` has, 0..=5; duplicates
/// count once.
#[inline]
pub fn piece_diversity(pos: &Position, color: Color) -> u32 {
    (presence_mask(pos, color) & !PieceType::King.mask_bit()).count_ones()
}

/// PDI of `color` minus PDI of its opponent, −5..=5.
#[inline]
pub fn diversity_difference(pos: &Position, color: Color) -> i32 {
    piece_diversity(pos, color) as i32 - piece_diversity(pos, color.opponent()) as i32
}
