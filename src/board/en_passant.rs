//! The one rank of e.p. targets a side may capture (docs/rules.md §2.4, §4).

use dicechess_kernels::{Bitboard, Color};

/// The rank of the e.p. targets `us` may capture: those the opponent's double pushes left in
/// its turn just before, on rank 6 when `us` is White and rank 3 when Black. An opponent's
/// target lives for that one turn, so this is also the rank the end of `us`'s turn clears.
/// The move generator, copy-make, the end of turn, the shared all-roll walk, the normalised
/// FEN and the mobility probe all read the rule here.
#[inline]
pub(crate) const fn ep_capture_rank(us: Color) -> Bitboard {
    match us {
        Color::White => Bitboard::rank(5),
        Color::Black => Bitboard::rank(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_takes_on_the_rank_the_other_sides_double_pushes_pass() {
        for us in Color::ALL {
            let them = us.opponent();
            // A double push of `them` passes the rank next to their pawns' start rank.
            let passed = match them {
                Color::White => them.pawn_start_rank() + 1,
                Color::Black => them.pawn_start_rank() - 1,
            };
            assert_eq!(ep_capture_rank(us), Bitboard::rank(passed), "{us:?}");
        }
    }
}
