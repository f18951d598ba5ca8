//! The score axis of the search (docs/search.md §4.1).

/// A line in which the opponent captures our king: below every other score.
pub const LOSS_VALUE: f64 = -1e9;
/// Ceiling of non-terminal leaf scores.
pub const UPPER_SCORE_BOUND: f64 = 10_000.0;
/// An inner terminal win (our king capture at depth 3); kept small so bounds stay tight.
pub const WIN_VALUE: f64 = UPPER_SCORE_BOUND + 1.0;
/// The score reported for an immediate king capture at the root.
pub const TERMINAL_WIN_SCORE: f64 = 2_147_483_647.0;
/// XORed into the key of a chance node where the root mover rolls (a MAX-role node), so it
/// never shares an entry with a MIN-role node of the same position.
pub const MAX_CHANCE_KEY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// `upper < alpha` with a relative safety margin: a bound computed in another summation
/// order than the exact value must never cut a candidate that ties the best one.
#[inline]
pub fn strictly_below(upper: f64, alpha: f64) -> bool {
    alpha.is_finite() && upper < alpha - 1e-9 * (1.0 + alpha.abs())
}
