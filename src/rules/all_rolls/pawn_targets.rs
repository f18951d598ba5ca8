//! The pawn moves of a node of the walk's last level, set-wise: every pawn's pushes, double
//! pushes and captures from a few shifts of the pawn set, read pawn by pawn without a move
//! list (`Walk::expand_leaves`).

use crate::board::Position;
use crate::rules::movegen::{pawn_capture_targets, pawn_pushes, pawn_targets_from};
use dicechess_kernels::{Bitboard, Color, Square};

/// The target sets of the side to move's pawns: for each pawn, exactly the targets of its
/// entry in [`generate_into`](crate::rules::generate_into).
#[derive(Clone, Copy, Debug)]
pub(super) struct PawnTargets {
    /// The pawns moved.
    pawns: u64,
    /// Squares a pawn reaches by a single push (empty squares).
    single: u64,
    /// Squares a pawn reaches by a double push (empty, with an empty square passed).
    double: u64,
    /// Squares a pawn may capture on: enemy pieces, and e.p. targets on the rank where a
    /// capture is possible.
    captures: u64,
}

impl PawnTargets {
    /// The moves of `pawns`, pawns of the side to move of `pos` (all of them or none; the
    /// rules of `generate_into`'s pawn entries, docs/rules.md §4).
    #[inline]
    pub(super) fn new(pos: &Position, pawns: Bitboard) -> PawnTargets {
        let us = pos.side_to_move();
        let empty = !pos.occupied();
        let (single, double) = pawn_pushes(us, pawns, empty);
        let captures = pawn_capture_targets(pos, us, pos.color(us.opponent()), empty);
        PawnTargets {
            pawns: pawns.0,
            single: single.0,
            double: double.0,
            captures: captures.0,
        }
    }

    /// The targets of the pawn of `us` on `from`.
    #[inline(always)]
    pub(super) fn of(&self, us: Color, from: Square) -> u64 {
        pawn_targets_from(
            us,
            from,
            Bitboard(self.single),
            Bitboard(self.double),
            Bitboard(self.captures),
        )
        .0
    }

    /// The micro-moves of the pawns of `us` (each promotion counts 4, a pawn capturing a king on
    /// the last rank 1), as [`MoveList::count`](crate::rules::MoveList::count) counts their
    /// entries: for the work budget.
    pub(super) fn count(&self, us: Color, their_kings: u64) -> u64 {
        let pawns = self.pawns;
        const NOT_A: u64 = !Bitboard::file(0).0;
        const NOT_H: u64 = !Bitboard::file(7).0;
        // The last rank is picked in the same match as the shifts: a separate
        // `Bitboard::rank(us.promotion_rank())` cost 0.35 % more instructions on the start
        // position's walk (callgrind, 1,064k instead of 1,061k per expansion).
        const LAST: [u64; 2] = [
            Bitboard::rank(Color::White.promotion_rank()).0,
            Bitboard::rank(Color::Black.promotion_rank()).0,
        ];
        let (east, west, last) = match us {
            Color::White => ((pawns & NOT_H) << 9, (pawns & NOT_A) << 7, LAST[0]),
            Color::Black => ((pawns & NOT_H) >> 7, (pawns & NOT_A) >> 9, LAST[1]),
        };
        let (east, west) = (east & self.captures, west & self.captures);
        let plain = self.single.count_ones() + self.double.count_ones();
        let promoting = ((self.single | east) & last & !their_kings).count_ones()
            + (west & last & !their_kings).count_ones();
        u64::from(plain + east.count_ones() + west.count_ones() + 3 * promoting)
    }
}

#[cfg(test)]
mod tests {
    use super::PawnTargets;
    use crate::board::Position;
    use crate::rules::generate;
    use dicechess_kernels::PieceType;

    /// Every position met in random play from openings, middlegames and endings with e.p.
    /// targets and pawns about to promote, for both sides: the set-wise targets equal the
    /// move generator's pawn entries, pawn by pawn, and the count its `count`.
    #[test]
    fn pawn_targets_equal_the_generators_pawn_entries() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "r1b1k2r/pP1p1pP1/8/2pPp3/3pP1p1/8/Pp1P1pP1/R3K2R b KQkq c3e3 0 1",
            "1n2k1n1/P1P3PP/8/8/8/8/pp3p1p/1N2K1N1 w - - 0 1",
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for fen in starts {
            for _ in 0..20 {
                let mut pos = Position::from_dfen(fen).expect("valid test FEN");
                for _ in 0..30 {
                    let us = pos.side_to_move();
                    let pawns = pos.piece_bb(us, PieceType::Pawn);
                    let list = generate(&pos, PieceType::Pawn.mask_bit(), false);
                    let targets = PawnTargets::new(&pos, pawns);
                    for from in pawns {
                        let entry = list.entries().iter().find(|e| e.from == from);
                        assert_eq!(
                            targets.of(us, from),
                            entry.map_or(0, |e| e.to.0),
                            "{} pawn {from:?}",
                            pos.to_dfen()
                        );
                    }
                    let kings = pos.piece_bb(us.opponent(), PieceType::King).0;
                    assert_eq!(
                        targets.count(us, kings),
                        list.count(&pos) as u64,
                        "{}",
                        pos.to_dfen()
                    );
                    checked += 1;
                    let moves = generate(&pos, 0x3f, true).to_vec(&pos);
                    if moves.is_empty() || pos.piece_bb(us.opponent(), PieceType::King).is_empty() {
                        break;
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let m = moves[(x % moves.len() as u64) as usize];
                    pos = pos.play_unchecked(m);
                    if x & 3 != 0 {
                        pos = pos.end_turn();
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} positions");
    }
}
