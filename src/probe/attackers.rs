//! Attacker types (docs/rules.md §6): which piece types of a colour attack a square, and how many
//! of the 216 rolls let that colour use at least one of them.
//!
//! A type mask has bit `face − 1` per type (Pawn bit 0 … King bit 5, docs/rules.md §1). Each
//! attacking piece is counted as its own type: a queen on a diagonal sets the Queen bit, never
//! the Bishop bit. The test is geometric — whose turn it is, the dice and defence do not
//! matter.

use super::rolls_showing_any_of;
use crate::board::Position;
use crate::rules::ROLL_DENOMINATOR;
use dicechess_kernels::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks, Color, PieceType,
    Square,
};

/// Every type bit of a 6-bit type mask.
const ALL_TYPES: u8 = 0x3f;

/// The types of `attacker`'s pieces that attack `target` (6-bit mask, bit = face − 1).
///
/// Equals the types of the pieces in [`Position::attackers`]`(target, attacker)`, computed
/// with one bishop and one rook lookup.
#[inline]
pub fn attacker_types(pos: &Position, target: Square, attacker: Color) -> u8 {
    let own = pos.color(attacker).0;
    let occ = pos.occupied();
    let t = |p: PieceType| pos.pieces(p).0 & own;
    let diag = bishop_attacks(target, occ).0;
    let orth = rook_attacks(target, occ).0;
    let hit = |b: u64, p: PieceType| ((b != 0) as u8) << (p as u8);
    hit(
        pawn_attacks(attacker.opponent(), target).0 & t(PieceType::Pawn),
        PieceType::Pawn,
    ) | hit(
        knight_attacks(target).0 & t(PieceType::Knight),
        PieceType::Knight,
    ) | hit(diag & t(PieceType::Bishop), PieceType::Bishop)
        | hit(orth & t(PieceType::Rook), PieceType::Rook)
        | hit((diag | orth) & t(PieceType::Queen), PieceType::Queen)
        | hit(king_attacks(target).0 & t(PieceType::King), PieceType::King)
}

/// Number of distinct types in a type mask (bits above bit 5 are ignored).
#[inline]
pub const fn type_count(mask: u8) -> u32 {
    (mask & ALL_TYPES).count_ones()
}

/// Ordered rolls (out of 216) showing at least one die of a type in `mask`:
/// `216 − (6 − k)³` for `k` = [`type_count`]`(mask)`.
#[inline]
pub const fn available_rolls(mask: u8) -> u32 {
    rolls_showing_any_of(type_count(mask))
}

/// [`available_rolls`] as a probability: `1 − ((6 − k) / 6)³`.
#[inline]
pub fn availability_probability(mask: u8) -> f64 {
    available_rolls(mask) as f64 / ROLL_DENOMINATOR as f64
}
