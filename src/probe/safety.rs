//! Piece safety (docs/search.md §3.2–§3.3): attacked squares, hanging pieces and king
//! exposure. Boolean attack tests with the current occupancy; no exchange evaluation, en
//! passant not modelled, dice and side to move ignored.

use super::MATERIAL_VALUES;
use crate::board::Position;
use dicechess_kernels::{
    bishop_attacks, king_attacks, knight_attacks, rook_attacks, Bitboard, Color, PieceType,
};

/// The squares `by`'s pieces of each type attack (indexed by `PieceType as usize`), with the
/// board's occupancy: [`attacked_squares`] is their union, and a square's attacker types are
/// the types whose set holds it (what `attacker_types` finds from the square).
#[inline]
pub fn attacks_by_type(pos: &Position, by: Color) -> [Bitboard; 6] {
    let occ = pos.occupied();
    let t = |p: PieceType| pos.piece_bb(by, p);
    let pawns = t(PieceType::Pawn).0;
    let (west, east) = (pawns & !Bitboard::FILE_A.0, pawns & !Bitboard::FILE_H.0);
    let pawn = match by {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    };
    let mut att = [0u64; 6];
    att[PieceType::Pawn as usize] = pawn;
    for sq in t(PieceType::Knight) {
        att[PieceType::Knight as usize] |= knight_attacks(sq).0;
    }
    for sq in t(PieceType::Bishop) {
        att[PieceType::Bishop as usize] |= bishop_attacks(sq, occ).0;
    }
    for sq in t(PieceType::Rook) {
        att[PieceType::Rook as usize] |= rook_attacks(sq, occ).0;
    }
    for sq in t(PieceType::Queen) {
        att[PieceType::Queen as usize] |= bishop_attacks(sq, occ).0 | rook_attacks(sq, occ).0;
    }
    for sq in t(PieceType::King) {
        att[PieceType::King as usize] |= king_attacks(sq).0;
    }
    att.map(Bitboard)
}

/// Every square that some piece of `by` attacks (geometric attacks with the current
/// occupancy, own pieces' squares included): `sq` is in the set exactly when
/// [`Position::attackers`]`(sq, by)` is not empty.
#[inline]
pub fn attacked_squares(pos: &Position, by: Color) -> Bitboard {
    let occ = pos.occupied();
    let t = |p: PieceType| pos.piece_bb(by, p);
    let pawns = t(PieceType::Pawn).0;
    let (west, east) = (pawns & !Bitboard::FILE_A.0, pawns & !Bitboard::FILE_H.0);
    let mut att = match by {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    };
    for sq in t(PieceType::Knight) {
        att |= knight_attacks(sq).0;
    }
    for sq in t(PieceType::Bishop) | t(PieceType::Queen) {
        att |= bishop_attacks(sq, occ).0;
    }
    for sq in t(PieceType::Rook) | t(PieceType::Queen) {
        att |= rook_attacks(sq, occ).0;
    }
    for sq in t(PieceType::King) {
        att |= king_attacks(sq).0;
    }
    Bitboard(att)
}

/// `side`'s non-king pieces that the other colour attacks and `side` does not defend (a king
/// counts as a defender).
#[inline]
pub fn hanging_squares(pos: &Position, side: Color) -> Bitboard {
    let targets = pos.color(side) & !pos.pieces(PieceType::King);
    if targets.is_empty() {
        return Bitboard::EMPTY;
    }
    let attacked = targets & attacked_squares(pos, side.opponent());
    if attacked.is_empty() {
        return Bitboard::EMPTY;
    }
    attacked & !attacked_squares(pos, side)
}

/// The [`MATERIAL_VALUES`] price of [`hanging_squares`] (kings are never hanging, so never
/// priced).
#[inline]
pub fn hanging_material(pos: &Position, side: Color) -> i32 {
    MATERIAL_VALUES.sum_on(pos, hanging_squares(pos, side))
}

/// Whether some king of `side` is attacked by the other colour (`evaluateKingSafety` is
/// −2000 exactly when this holds). `false` when `side` has no king.
#[inline]
pub fn king_attacked(pos: &Position, side: Color) -> bool {
    let them = side.opponent();
    pos.piece_bb(side, PieceType::King)
        .into_iter()
        .any(|sq| pos.attackers(sq, them).any())
}
