//! Copy-make: playing a micro-move and ending the turn (docs/rules.md §2, §4).

use super::{generate, MicroMove, MoveKind};
use crate::board::{ep_capture_rank, zobrist, Castling, Dice, Position};
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

/// Why [`Position::play`] refused a micro-move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The pool holds no die of the moving piece's type (castling: no King and Rook pair).
    #[error("the dice pool {pool:?} cannot pay for {uci}")]
    DieNotInPool {
        /// The move in UCI.
        uci: String,
        /// The pool's letters.
        pool: String,
    },
    /// Not a pseudo-legal move of the side to move (docs/rules.md §4).
    #[error("{uci} is not a move of the side to move in this position")]
    NotAMove {
        /// The move in UCI.
        uci: String,
    },
}

/// The right that a rook corner square guards (a1 → Q, h1 → K, a8 → q, h8 → k).
#[inline]
pub(crate) fn corner_right(sq: Square) -> u8 {
    match sq.to_u8() {
        0 => Castling::WHITE_QUEEN,
        7 => Castling::WHITE_KING,
        56 => Castling::BLACK_QUEEN,
        63 => Castling::BLACK_KING,
        _ => 0,
    }
}

#[inline]
pub(crate) fn color_rights(c: Color) -> u8 {
    match c {
        Color::White => Castling::WHITE_KING | Castling::WHITE_QUEEN,
        Color::Black => Castling::BLACK_KING | Castling::BLACK_QUEEN,
    }
}

/// The square one rank behind `sq` from `color`'s point of view (towards its own side).
#[inline]
fn behind(color: Color, sq: Square) -> Square {
    match color {
        Color::White => Square::from_index_masked(sq.to_u8().wrapping_sub(8) as u32),
        Color::Black => Square::from_index_masked(sq.to_u8() as u32 + 8),
    }
}

impl Position {
    /// Play a micro-move without checking it (copy-make): the piece moves, captures, e.p. and
    /// castling bookkeeping, the half-move clock and the dice pool follow docs/rules.md §2 and §4;
    /// the side to move does not change. `m` must come from the generator for this position
    /// (see [`Position::play`] for the checked twin); anything else gives an unspecified but
    /// memory-safe position.
    #[inline]
    pub fn play_unchecked(&self, m: MicroMove) -> Position {
        let mut p = *self;
        p.play_in_place_unchecked(m);
        p
    }

    /// [`Position::play_unchecked`] on this row itself, with the same contract on `m`. A walk
    /// that keeps positions in a buffer copies the parent into its slot and plays there: a
    /// position built on the stack and then copied into place is read back with wide loads
    /// right after the make's narrow stores, a store-forwarding stall that cost a quarter of
    /// `expand_all_rolls` on `k7/4P3/8/8/8/8/8/4K3 w` (perf annotate of the bucket push).
    pub(crate) fn play_in_place_unchecked(&mut self, m: MicroMove) {
        let p = self;
        let us = p.side_to_move();
        let them = us.opponent();
        let mut rights = p.castling;
        let mut ep = p.ep;
        let halfmove = p.halfmove;
        let dice = p.dice();
        let mut capture = false;

        // The captured piece (never on a castling destination, which must be empty).
        if m.kind == MoveKind::EnPassant {
            capture = true;
            ep &= !(1u64 << m.to.index());
            let victim = behind(us, m.to);
            if p.piece_bb(them, PieceType::Pawn).contains(victim) {
                p.remove(them, PieceType::Pawn, victim);
            }
        } else if p.color(them).contains(m.to) {
            if let Some(victim) = p.type_at(m.to) {
                capture = true;
                p.remove(them, victim, m.to);
                match victim {
                    PieceType::Rook => rights &= !corner_right(m.to),
                    PieceType::King => rights &= !color_rights(them),
                    PieceType::Pawn => ep &= !(1u64 << behind(them, m.to).index()),
                    _ => {}
                }
            }
        }

        // The mover.
        let landed = match m.kind {
            MoveKind::Promotion(t) => t,
            _ => m.piece,
        };
        p.remove(us, m.piece, m.from);
        p.put(us, landed, m.to);

        match m.piece {
            PieceType::Pawn => {
                if m.kind == MoveKind::DoublePush {
                    ep |= 1u64 << behind(us, m.to).index();
                } else {
                    ep &= !(1u64 << behind(us, m.from).index());
                }
            }
            PieceType::King => {
                rights &= !color_rights(us);
                if m.kind == MoveKind::Castle {
                    let base = m.from.to_u8() & 56;
                    let (rook_from, rook_to) = if m.to.file() == 6 {
                        (base + 7, base + 5)
                    } else {
                        (base, base + 3)
                    };
                    p.remove(
                        us,
                        PieceType::Rook,
                        Square::from_index_masked(rook_from as u32),
                    );
                    p.put(
                        us,
                        PieceType::Rook,
                        Square::from_index_masked(rook_to as u32),
                    );
                }
            }
            PieceType::Rook => {
                let own_corner = match us {
                    Color::White => m.from.to_u8() == 0 || m.from.to_u8() == 7,
                    Color::Black => m.from.to_u8() == 56 || m.from.to_u8() == 63,
                };
                if own_corner {
                    rights &= !corner_right(m.from);
                }
            }
            _ => {}
        }

        p.halfmove = if m.piece == PieceType::Pawn || capture {
            0
        } else {
            halfmove.saturating_add(1).min(127)
        };
        p.set_ep(ep);
        p.set_castling(rights);
        // An empty pool (the shared walk of `expand_all_rolls` plays every move without dice)
        // stays empty: skipping the pool update there saves 4 % of the walk's instructions
        // (callgrind, `k7/4P3/8/8/8/8/8/4K3 w`).
        if !dice.is_empty() {
            let mut dice = dice.without(m.piece.face());
            if m.kind == MoveKind::Castle {
                dice = dice.without(PieceType::Rook.face());
            }
            p.set_dice(dice);
        }
    }

    /// Play a micro-move after checking that it is a pseudo-legal move of the side to move
    /// (docs/rules.md §4) that the dice pool can pay for. This does **not** apply the maximum
    /// dice rule, which is a property of whole turns: validate turns with
    /// [`crate::rules::legal_paths`] or [`crate::rules::TurnTree`].
    pub fn play(&self, m: MicroMove) -> Result<Position, MoveError> {
        let dice = self.dice();
        let payable = dice.contains(m.piece.face())
            && (m.kind != MoveKind::Castle || dice.contains(PieceType::Rook.face()));
        if !payable {
            return Err(MoveError::DieNotInPool {
                uci: m.uci(),
                pool: dice.letters(self.side_to_move() == Color::White),
            });
        }
        let list = generate(self, m.piece.mask_bit(), m.kind == MoveKind::Castle);
        let mut found = false;
        list.for_each(self, |g| found |= g == m);
        if !found {
            return Err(MoveError::NotAMove { uci: m.uci() });
        }
        Ok(self.play_unchecked(m))
    }

    /// End the turn (docs/rules.md §2.4): drop the e.p. targets the next mover created in its own
    /// previous turn (rank 3 if White moves next, rank 6 if Black), flip the side to move,
    /// clear the dice and count the full move after Black. Also the whole of a pass.
    #[inline]
    pub fn end_turn(&self) -> Position {
        let mut p = *self;
        p.end_turn_in_place();
        p
    }

    /// [`Position::end_turn`] on this row itself (see [`Position::play_in_place_unchecked`]
    /// for why a walk plays in place).
    #[inline]
    pub(crate) fn end_turn_in_place(&mut self) {
        let us = self.side_to_move();
        let next = us.opponent();
        self.set_ep(self.ep & !ep_capture_rank(us).0);
        self.set_side(next);
        if next == Color::White {
            self.fullmove = self.fullmove.saturating_add(1).min(2_147_483_647);
        }
        self.set_dice(Dice::EMPTY);
    }

    /// The key [`Position::end_turn`] would give, without building the position: a shared
    /// walk dedupes its end states by this key and builds only the new ones.
    #[inline]
    pub(crate) fn end_turn_key(&self) -> u64 {
        let stale = self.ep & ep_capture_rank(self.side_to_move()).0;
        let mut key = self.key ^ zobrist::side();
        if !self.dice().is_empty() {
            key ^= zobrist::dice(self.dice()) ^ zobrist::dice(Dice::EMPTY);
        }
        if stale != 0 {
            key ^= zobrist::ep_set(Bitboard(stale));
        }
        key
    }

    /// Whether `m` would capture a king of the opponent (the game-ending micro-move).
    #[inline]
    pub fn captures_king(&self, m: MicroMove) -> bool {
        self.piece_bb(self.side_to_move().opponent(), PieceType::King)
            .contains(m.to)
            && m.kind != MoveKind::Castle
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;

    #[test]
    fn end_turn_key_is_the_key_of_end_turn() {
        for dfen in [
            "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
            "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R b Kkq a3c3e6 0 1 PNB",
            "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R b KQkq c3 0 1 qq",
            "4k3/8/8/8/8/8/8/4K3 w - a3h6 0 1 K",
        ] {
            let p = Position::from_dfen(dfen).expect("valid DFEN");
            assert_eq!(p.end_turn_key(), p.end_turn().key(), "{dfen}");
        }
    }
}
