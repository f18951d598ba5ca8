//! Which first moves of a capture walk's node can still begin a line that lands on a target,
//! judged by empty-board reach ([`dicechess_kernels::reach`]): the pruning rule of the
//! king- and queen-capture walk (`king_capture.rs`), kept apart so its argument sits next to
//! its code.
//!
//! The targets never move during a walk (the defender does not move), so the reach sets are
//! gathered once per walk ([`ReachRule::new`], 18 table loads per target) and a node's test is
//! a dozen AND/compare steps against its own pieces.

use crate::board::{Castling, Position};
use dicechess_kernels::{bishop_attacks, reach, rook_attacks, Bitboard, Color, PieceType, Square};

/// The first moves of a node that can begin a line landing on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FirstMoves {
    /// Piece types (6-bit mask) whose moves may begin such a line.
    pub(super) types: u8,
    /// Whether castling may begin one.
    pub(super) castle: bool,
}

/// Every first move may help.
const ANY: FirstMoves = FirstMoves {
    types: 0x3F,
    castle: true,
};

/// The reach rule of one walk: the attacker, its targets and, per number of own moves
/// `k = 1..=3` and piece type, the squares from which that type lands on a target within `k`
/// moves; and whether castling (from the root's rights) puts the king or rook within `k`.
#[derive(Clone, Copy, Debug)]
pub(super) struct ReachRule {
    us: Color,
    targets: Bitboard,
    from: [[Bitboard; 6]; 3],
    castle_within: [bool; 3],
}

impl ReachRule {
    /// The rule for `root`'s side to move landing on `targets`.
    pub(super) fn new(root: &Position, targets: Bitboard) -> ReachRule {
        let us = root.side_to_move();
        let mut from = [[Bitboard::EMPTY; 6]; 3];
        for (k, level) in from.iter_mut().enumerate() {
            for p in PieceType::ALL {
                for t in targets {
                    level[p.index()] |= reach(us, p, t, k as u8 + 1);
                }
            }
        }
        let (king_side, queen_side) = match us {
            Color::White => (Castling::WHITE_KING, Castling::WHITE_QUEEN),
            Color::Black => (Castling::BLACK_KING, Castling::BLACK_QUEEN),
        };
        let base = 8 * us.back_rank();
        let mut castle_within = [false; 3];
        for (right, king_to, rook_to) in [(king_side, 6, 5), (queen_side, 2, 3)] {
            if !root.castling().has(right) {
                continue;
            }
            let king = Square::from_index_masked((base + king_to) as u32);
            let rook = Square::from_index_masked((base + rook_to) as u32);
            for (k, within) in castle_within.iter_mut().enumerate() {
                *within |= from[k][PieceType::King.index()].contains(king)
                    || from[k][PieceType::Rook.index()].contains(rook);
            }
        }
        ReachRule {
            us,
            targets,
            from,
            castle_within,
        }
    }

    /// The types (6-bit masks) of `pos`'s attacker pieces that could land on a target within
    /// `moves − 1` and within `moves` of their own micro-moves (castling excluded).
    #[inline]
    fn types_within(&self, pos: &Position, moves: u8) -> (u8, u8) {
        let own = pos.color(self.us);
        let far_level = &self.from[moves as usize - 1];
        let near_level = &self.from[(moves as usize).saturating_sub(2)];
        let (mut near, mut far) = (0u8, 0u8);
        for p in PieceType::ALL {
            let pieces = own & pos.pieces(p);
            if moves > 1 && (pieces & near_level[p.index()]).any() {
                near |= p.mask_bit();
            }
            if (pieces & far_level[p.index()]).any() {
                far |= p.mask_bit();
            }
        }
        (near, far)
    }

    /// Which first moves of `pos` (side to move = this rule's attacker) can begin a line that
    /// lands on a target within `actions ∈ 2..=3` micro-moves, the capture included.
    /// Castling is judged from the root's rights: only the root, with nothing spent, may
    /// castle.
    ///
    /// Let `d(X)` be the empty-board number of moves piece `X` needs to land on a target; no
    /// position needs fewer (occupancy only removes moves). A line whose capturer is `X` makes
    /// at least `d(X)` moves with `X`. If no piece has `d ≤ actions − 1`, every line is made by
    /// its capturer alone, so only the types of pieces with `d = actions` may move first, and
    /// castling only when the castled king or rook is then within `actions − 1`; nothing at
    /// all when no piece is within `actions`. Otherwise, with three actions every first move
    /// may help (it may clear a piece's way); with two, only moves of pieces within two, and
    /// moves that clear the way of a blocked slider (see the body).
    #[inline]
    pub(super) fn first_moves(&self, pos: &Position, actions: u8) -> FirstMoves {
        debug_assert!((2..=3).contains(&actions));
        let own = pos.color(self.us);
        // A rook or queen lands anywhere within two moves: no table needed.
        let straight = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
        if actions >= 3 && (own & straight).any() {
            return ANY;
        }
        let (near, far) = self.types_within(pos, actions);
        if near != 0 && actions >= 3 {
            return ANY;
        }
        let castle = self.castle_within[actions as usize - 2];
        if near == 0 {
            return FirstMoves { types: far, castle };
        }
        // Two actions and a piece one empty-board move away. A leaper or pawn there attacks
        // the target now, and a line "another move, then that attack" spends a superset of the
        // dice already covered; so a first move by another piece only helps by clearing the
        // way of a blocked slider: moving one of our pieces off the segment between them, or
        // taking the enemy pawn there en passant. Castling clears e1/h1 (a1) and may land a
        // capturer.
        let diag = own & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen));
        let orth = own & (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen));
        let mut between = Bitboard::EMPTY;
        for t in self.targets {
            let tb = Bitboard::from_square(t);
            for sq in orth & rook_attacks(t, Bitboard::EMPTY) {
                between |= rook_attacks(sq, tb) & rook_attacks(t, Bitboard::from_square(sq));
            }
            for sq in diag & bishop_attacks(t, Bitboard::EMPTY) {
                between |= bishop_attacks(sq, tb) & bishop_attacks(t, Bitboard::from_square(sq));
            }
        }
        let mut types = far;
        for p in PieceType::ALL {
            if (between & own & pos.pieces(p)).any() {
                types |= p.mask_bit();
            }
        }
        if pos.ep_targets().any() {
            types |= PieceType::Pawn.mask_bit();
        }
        let castlers = pos.pieces(PieceType::King) | pos.pieces(PieceType::Rook);
        FirstMoves {
            types,
            castle: castle || (between & own & castlers).any(),
        }
    }
}
