//! Which first moves of a capture walk's node can still begin a line that lands on a target,
//! judged by empty-board reach ([`dicechess_kernels::reach`]): the pruning rule of the
//! king- and queen-capture walk (`king_capture.rs`), kept apart so its argument sits next to
//! its code.

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

/// The types (6-bit masks) of the side to move's pieces that could land on one of `targets`
/// within `moves − 1` and within `moves` of their own micro-moves (empty-board reach,
/// castling excluded), in one pass over the pieces.
#[inline]
fn types_within(pos: &Position, targets: Bitboard, moves: u8) -> (u8, u8) {
    let us = pos.side_to_move();
    let own = pos.color(us);
    let (mut near, mut far) = (0u8, 0u8);
    for p in PieceType::ALL {
        let pieces = own & pos.pieces(p);
        if pieces.is_empty() {
            continue;
        }
        let (mut from_near, mut from_far) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for t in targets {
            if moves > 1 {
                from_near |= reach(us, p, t, moves - 1);
            }
            from_far |= reach(us, p, t, moves);
        }
        if (pieces & from_near).any() {
            near |= p.mask_bit();
        }
        if (pieces & from_far).any() {
            far |= p.mask_bit();
        }
    }
    (near, far)
}

/// Which first moves of `pos` (side to move = attacker) can begin a line that lands on one
/// of `targets` within `actions ≥ 2` micro-moves, the capture included.
///
/// Let `d(X)` be the empty-board number of moves piece `X` needs to land on a target; no
/// position needs fewer (occupancy only removes moves). A line whose capturer is `X` makes at
/// least `d(X)` moves with `X`. If no piece has `d ≤ actions − 1`, every line is made by its
/// capturer alone, so only the types of pieces with `d = actions` may move first, and
/// castling only when the castled king or rook is then within `actions − 1`; nothing at all
/// when no piece is within `actions`. Otherwise, with three actions every first move may
/// help (it may clear a piece's way); with two, only moves of pieces within two, and moves
/// that clear the way of a blocked slider (see the body).
#[inline]
pub(super) fn first_moves(pos: &Position, targets: Bitboard, actions: u8) -> FirstMoves {
    debug_assert!(actions >= 2);
    const ANY: FirstMoves = FirstMoves {
        types: 0x3F,
        castle: true,
    };
    let us = pos.side_to_move();
    // A rook or queen lands anywhere within two moves: no table needed.
    let straight = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    if actions >= 3 && (pos.color(us) & straight).any() {
        return ANY;
    }
    let (near, far) = types_within(pos, targets, actions);
    if near != 0 && actions >= 3 {
        return ANY;
    }
    let rights = pos.castling();
    let (king_side, queen_side) = match us {
        Color::White => (Castling::WHITE_KING, Castling::WHITE_QUEEN),
        Color::Black => (Castling::BLACK_KING, Castling::BLACK_QUEEN),
    };
    let mut castle = false;
    let base = 8 * us.back_rank();
    for (right, king_to, rook_to) in [(king_side, 6, 5), (queen_side, 2, 3)] {
        if !rights.has(right) {
            continue;
        }
        let k = Square::from_index_masked((base + king_to) as u32);
        let r = Square::from_index_masked((base + rook_to) as u32);
        for t in targets {
            castle |= reach(us, PieceType::King, t, actions - 1).contains(k)
                || reach(us, PieceType::Rook, t, actions - 1).contains(r);
        }
    }
    if near == 0 {
        return FirstMoves { types: far, castle };
    }
    // Two actions and a piece one empty-board move away. A leaper or pawn there attacks the
    // target now, and a line "another move, then that attack" spends a superset of the dice
    // already covered; so a first move by another piece only helps by clearing the way of a
    // blocked slider: moving one of our pieces off the segment between them, or taking the
    // enemy pawn there en passant. Castling clears e1/h1 (a1) and may land a capturer.
    let own = pos.color(us);
    let diag = own & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen));
    let orth = own & (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen));
    let mut between = Bitboard::EMPTY;
    for t in targets {
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
    castle |= (between & own & castlers).any();
    FirstMoves { types, castle }
}
