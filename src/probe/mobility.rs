//! Piece mobility (docs/features.md §6 `PieceMobility`): pseudo-legal move counts per moving
//! piece type for a colour as if it were to move with the dice pool {K, R}, so castling is
//! counted (under the king) when the right, the rook in the corner and the empty squares
//! allow (docs/rules.md §4).
//!
//! Counts are micro-moves as `MoveList::count` expands the moves of `rules::generate(pos,
//! 0x3f, true)` with that colour to move: each promotion counts 4, a pawn capturing a king on
//! the last rank 1, each castling 1. They are computed directly with set-wise pawn shifts
//! and one attack lookup per piece — no move list, no heap, and neither the side to move nor
//! the dice of `pos` matter.

use crate::board::{ep_capture_rank, Castling, Position};
use dicechess_kernels::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks, Bitboard, Color,
    PieceType,
};

/// Pseudo-legal move counts of `color` per moving piece type, in die-face order
/// (P, N, B, R, Q, K), as if `color` were to move with the dice pool {K, R}.
#[inline]
pub fn mobility(pos: &Position, color: Color) -> [u32; 6] {
    let own = pos.color(color);
    let occ = pos.occupied();
    let free = !own;
    let t = |p: PieceType| pos.piece_bb(color, p);
    let mut counts = [0u32; 6];
    counts[PieceType::Pawn.index()] = pawn_moves(pos, color);
    for sq in t(PieceType::Knight) {
        counts[PieceType::Knight.index()] += (knight_attacks(sq) & free).count();
    }
    for sq in t(PieceType::Bishop) {
        counts[PieceType::Bishop.index()] += (bishop_attacks(sq, occ) & free).count();
    }
    for sq in t(PieceType::Rook) {
        counts[PieceType::Rook.index()] += (rook_attacks(sq, occ) & free).count();
    }
    for sq in t(PieceType::Queen) {
        counts[PieceType::Queen.index()] += (queen_attacks(sq, occ) & free).count();
    }
    let kings = t(PieceType::King);
    for sq in kings {
        counts[PieceType::King.index()] += (king_attacks(sq) & free).count();
    }
    counts[PieceType::King.index()] += castlings(pos, color, kings, occ);
    counts
}

/// All pseudo-legal moves of `color` as if it were to move (castling included): the sum of
/// [`mobility`]. `mobility_diff` of docs/features.md §3 is
/// `all_moves_count(pos, c) − all_moves_count(pos, c.opponent())`.
#[inline]
pub fn all_moves_count(pos: &Position, color: Color) -> u32 {
    mobility(pos, color).iter().sum()
}

/// Both colours' [`mobility`] from one perspective (docs/features.md §6 columns 13–24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mobility {
    /// The perspective colour's counts, die-face order.
    pub own: [u32; 6],
    /// The other colour's counts, die-face order.
    pub opponent: [u32; 6],
}

impl Mobility {
    /// Mobility of `color` and of its opponent.
    #[inline]
    pub fn new(pos: &Position, color: Color) -> Mobility {
        Mobility {
            own: mobility(pos, color),
            opponent: mobility(pos, color.opponent()),
        }
    }

    /// Σ own − Σ opponent: `mobility_diff` of docs/features.md §3.
    #[inline]
    pub fn difference(&self) -> i32 {
        let sum = |c: &[u32; 6]| c.iter().sum::<u32>() as i32;
        sum(&self.own) - sum(&self.opponent)
    }
}

/// All pawn micro-moves of `color`, set-wise: pushes, double pushes from the start rank,
/// captures and e.p. captures (onto an empty target on rank 6 for White, 3 for Black); a
/// push or capture onto the last rank counts 4, except a capture of a king.
#[inline]
fn pawn_moves(pos: &Position, color: Color) -> u32 {
    let pawns = pos.piece_bb(color, PieceType::Pawn).0;
    if pawns == 0 {
        return 0;
    }
    let occ = pos.occupied().0;
    let them = pos.color(color.opponent()).0;
    let their_kings = pos.piece_bb(color.opponent(), PieceType::King).0;
    let (west, east) = (pawns & !Bitboard::FILE_A.0, pawns & !Bitboard::FILE_H.0);
    // Shifts are injective, so each bit of a shifted set is one (pawn, destination) pair.
    let (single, double, west_hits, east_hits) = match color {
        Color::White => {
            let single = (pawns << 8) & !occ;
            let double = ((single & Bitboard::rank(2).0) << 8) & !occ;
            (single, double, west << 7, east << 9)
        }
        Color::Black => {
            let single = (pawns >> 8) & !occ;
            let double = ((single & Bitboard::rank(5).0) >> 8) & !occ;
            (single, double, west >> 9, east >> 7)
        }
    };
    let targets = them | (pos.ep_targets().0 & ep_capture_rank(color).0 & !occ);
    let (west_caps, east_caps) = (west_hits & targets, east_hits & targets);
    let promoting = Bitboard::rank(color.promotion_rank()).0 & !their_kings;
    let plain =
        single.count_ones() + double.count_ones() + west_caps.count_ones() + east_caps.count_ones();
    let promotions = (single & promoting).count_ones()
        + (west_caps & promoting).count_ones()
        + (east_caps & promoting).count_ones();
    plain + 3 * promotions
}

/// Castling moves of `color`: a king on e1/e8, the right held, the own rook in the corner
/// and the squares between empty (attacked squares do not matter).
#[inline]
fn castlings(pos: &Position, color: Color, kings: Bitboard, occ: Bitboard) -> u32 {
    let base = color.back_rank() * 8;
    if kings.0 & (1u64 << (base + 4)) == 0 {
        return 0;
    }
    let rights = pos.castling();
    let (k_bit, q_bit) = match color {
        Color::White => (Castling::WHITE_KING, Castling::WHITE_QUEEN),
        Color::Black => (Castling::BLACK_KING, Castling::BLACK_QUEEN),
    };
    let rooks = pos.piece_bb(color, PieceType::Rook).0;
    let king_side = rights.has(k_bit)
        && rooks & (1u64 << (base + 7)) != 0
        && occ.0 & (0b11u64 << (base + 5)) == 0;
    let queen_side =
        rights.has(q_bit) && rooks & (1u64 << base) != 0 && occ.0 & (0b111u64 << (base + 1)) == 0;
    king_side as u32 + queen_side as u32
}
