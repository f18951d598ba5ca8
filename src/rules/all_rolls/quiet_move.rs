//! The fast make-move of the walk's last level: a leaf move's end-of-turn key worked out
//! set-wise, straight from the move (the piece leaving and landing, the victim, the castling
//! rights and the e.p. square it touches), and its end position built directly, only for a
//! key not seen before.

use crate::board::{ep_capture_rank, zobrist, Position};
use crate::rules::make::corner_right;
#[cfg(debug_assertions)]
use crate::rules::{MicroMove, MoveKind};
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

/// What taking on `to` adds to a leaf keyed set-wise, for a mover whose move leaves the
/// castling rights at `rights`: the key change, the rights after (a rook taken on its corner
/// takes that corner's right along), the victim, and the e.p. target the victim takes along
/// (a pawn's target behind it, docs/rules.md §4; 0 for none, and 0 for a target on the rank
/// the end of turn clears anyway) — `(0, rights, None, 0)` when `to` holds no enemy piece.
/// `None` when the victim is an enemy king (the game ends), which the caller plays in full.
///
/// Pawn victims used to go to the full move too: they were 6,535 of Kiwipete's 55,352 leaf
/// moves, each a general make plus an end of turn (about a fifth of the walk's time).
#[inline]
pub(super) fn victim_delta(
    pos: &Position,
    to: Square,
    their_kings: u64,
    rights: u8,
) -> Option<(u64, u8, Option<PieceType>, u64)> {
    let bit = 1u64 << to.index();
    let us = pos.side_to_move();
    let them = us.opponent();
    if pos.color(them).0 & bit == 0 {
        return Some((0, rights, None, 0));
    }
    if their_kings & bit != 0 {
        return None;
    }
    let v = pos.type_at(to)?;
    let mut key = zobrist::piece(them, v, to);
    let mut after = rights;
    let mut ep_clear = 0u64;
    match v {
        PieceType::Rook => {
            after &= !corner_right(to);
            key ^= zobrist::castling(rights) ^ zobrist::castling(after);
        }
        PieceType::Pawn => {
            // The square behind the victim, seen from its owner (off the board: none).
            let behind = match them {
                Color::White => bit >> 8,
                Color::Black => bit << 8,
            };
            ep_clear = pos.ep_targets().0 & behind & !ep_capture_rank(us).0;
            if ep_clear != 0 {
                key ^= zobrist::ep_set(Bitboard(ep_clear));
            }
        }
        _ => {}
    }
    Some((key, after, Some(v), ep_clear))
}

/// The e.p. square a plain pawn move `from → to` toggles (a double push adds the square it
/// passes, any other pawn move removes the square behind its origin; docs/rules.md §4) as a
/// bitboard (0 for none), or `None` when the move is not plain — a promotion, an e.p. capture — or
/// touches a target on the rank the end of turn clears (then the move is played in full).
#[inline]
pub(super) fn pawn_ep_delta(pos: &Position, from: Square, to: Square) -> Option<u64> {
    let us = pos.side_to_move();
    let (step, last_rank): (i32, u8) = match us {
        Color::White => (8, 7),
        Color::Black => (-8, 0),
    };
    if to.rank() == last_rank {
        return None;
    }
    let empty_target = pos.occupied().0 & (1 << to.index()) == 0;
    if empty_target && to.file() != from.file() {
        return None; // e.p. capture
    }
    let ep = pos.ep_targets().0;
    let (sq, add) = if (to.index() as i32 - from.index() as i32).abs() == 16 {
        (to.index() as i32 - step, true)
    } else {
        (from.index() as i32 - step, false)
    };
    if !(0..64).contains(&sq) {
        return None; // a pawn on its own back rank: leave the odd case to the full move
    }
    let sq = Square::from_index_masked(sq as u32);
    if ep_capture_rank(us).contains(sq) {
        return None;
    }
    let present = ep & (1 << sq.index()) != 0;
    Some(if present != add { 1 << sq.index() } else { 0 })
}

/// A leaf move that touches no e.p. target but its own double push or the one behind its
/// origin, with everything its end position needs already worked out by the set-wise key.
pub(super) struct QuietMove {
    pub(super) piece: PieceType,
    /// The type on `to` after the move: `piece`, or what a pawn promotes to.
    pub(super) landed: PieceType,
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) victim: Option<PieceType>,
    /// Castling rights after the move.
    pub(super) rights: u8,
    /// The e.p. square the move adds or removes (0: none).
    pub(super) ep_toggle: u64,
    /// The key after the end of turn.
    pub(super) key: u64,
}

impl QuietMove {
    /// Turn `p`, a copy of the position the move is played from, into
    /// `p.play_unchecked(m).end_turn()` for this move, in place: copy-make of the bitboards
    /// plus the end of turn (docs/rules.md §2.4), with the key the caller computed. Two to
    /// three times cheaper than the general make followed by `end_turn`, and only new leaves
    /// are built (debug builds check it against the general form). In place, in the bucket's
    /// slot: see [`Position::play_in_place_unchecked`] for the stall a built-then-copied
    /// position costs.
    #[inline]
    pub(super) fn play_end_in_place(&self, p: &mut Position) {
        #[cfg(debug_assertions)]
        let before = *p;
        let us = p.side_to_move();
        let them = us.opponent();
        let to_bit = 1u64 << self.to.index();
        if let Some(v) = self.victim {
            p.by_type[v.index()] &= !to_bit;
            p.by_color[them.index()] &= !to_bit;
        }
        let path = (1u64 << self.from.index()) | to_bit;
        p.by_type[self.piece.index()] ^= 1u64 << self.from.index();
        p.by_type[self.landed.index()] ^= to_bit;
        p.by_color[us.index()] ^= path;
        p.ep = (p.ep ^ self.ep_toggle) & !ep_capture_rank(us).0;
        p.castling = self.rights;
        p.halfmove = if self.piece == PieceType::Pawn || self.victim.is_some() {
            0
        } else {
            p.halfmove.saturating_add(1).min(127)
        };
        p.side = them.index() as u8;
        if them == Color::White {
            p.fullmove = p.fullmove.saturating_add(1).min(2_147_483_647);
        }
        p.key = self.key;
        #[cfg(debug_assertions)]
        assert_eq!(
            *p,
            before
                .play_unchecked(MicroMove {
                    piece: self.piece,
                    from: self.from,
                    to: self.to,
                    kind: if self.landed != self.piece {
                        MoveKind::Promotion(self.landed)
                    } else if self.piece == PieceType::Pawn
                        && self.to.index().abs_diff(self.from.index()) == 16
                    {
                        MoveKind::DoublePush
                    } else {
                        MoveKind::Normal
                    },
                })
                .end_turn()
        );
    }
}

/// What a pawn promotes to.
pub(super) const PROMOTIONS: [PieceType; 4] = [
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];
