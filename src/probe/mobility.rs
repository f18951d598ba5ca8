//! Piece mobility (features.md §6 `PieceMobility`): pseudo-legal move counts per moving
//! piece type for a colour as if it were to move with the dice pool {K, R}, so castling is
//! counted (under the king) when the right and the empty squares allow.
//!
//! Counts are micro-moves as [`MoveList::count`] expands them: each promotion counts 4, a
//! pawn capturing a king on the last rank 1, each castling 1. No heap: the move list lives
//! on the stack.

use crate::board::Position;
use crate::rules::{generate, MoveList};
use dicechess_kernels::{Bitboard, Color, PieceType};

/// Every type bit of a 6-bit type mask.
const ALL_TYPES: u8 = 0x3f;

/// The pseudo-legal moves of every type for `color`, generated as if `color` were to move
/// (castling included); returns the list and the position it was generated from.
#[inline]
fn moves_as_mover(pos: &Position, color: Color) -> (MoveList, Position) {
    let mut p = *pos;
    p.set_side(color);
    (generate(&p, ALL_TYPES, true), p)
}

/// Pseudo-legal move counts of `color` per moving piece type, in die-face order
/// (P, N, B, R, Q, K), as if `color` were to move with the dice pool {K, R}.
#[inline]
pub fn mobility(pos: &Position, color: Color) -> [u32; 6] {
    let (list, _) = moves_as_mover(pos, color);
    let last = Bitboard::rank(color.promotion_rank());
    let their_kings = pos.piece_bb(color.opponent(), PieceType::King);
    let mut counts = [0u32; 6];
    for e in list.entries() {
        let mut n = e.to.count() + e.castles.count_ones();
        if e.piece == PieceType::Pawn {
            n += 3 * (e.to & last & !their_kings).count();
        }
        counts[e.piece.index()] += n;
    }
    counts
}

/// All pseudo-legal moves of `color` as if it were to move (castling included): the sum of
/// [`mobility`], counted by [`MoveList::count`]. `mobility_diff` of features.md §3 is
/// `all_moves_count(pos, c) − all_moves_count(pos, c.opponent())`.
#[inline]
pub fn all_moves_count(pos: &Position, color: Color) -> u32 {
    let (list, p) = moves_as_mover(pos, color);
    list.count(&p) as u32
}

/// Both colours' [`mobility`] from one perspective (features.md §6 columns 13–24).
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

    /// Σ own − Σ opponent: `mobility_diff` of features.md §3.
    #[inline]
    pub fn difference(&self) -> i32 {
        let sum = |c: &[u32; 6]| c.iter().sum::<u32>() as i32;
        sum(&self.own) - sum(&self.opponent)
    }
}
