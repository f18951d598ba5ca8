//! The search's own use of the score axis (whose constants live in [`crate::eval`],
//! docs/search.md §4.1): the strict cut test of its pruning and the key salt of a chance
//! node where the root mover rolls.

/// XORed into the key of a chance node where the root mover rolls (a MAX-role node), so it
/// never shares an entry with a MIN-role node of the same position.
pub const MAX_CHANCE_KEY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// `upper < alpha` with a relative safety margin: a bound computed in another summation
/// order than the exact value must never cut a candidate that ties the best one.
#[inline]
pub fn strictly_below(upper: f64, alpha: f64) -> bool {
    alpha.is_finite() && upper < alpha - 1e-9 * (1.0 + alpha.abs())
}
