//! The one score axis every evaluator writes and the search reads (docs/search.md §4.1):
//! centipawn-like values from the side to move's view, non-terminal scores within
//! ±[`UPPER_SCORE_BOUND`], terminal values outside that range.
//!
//! Why one module: the bound is what keeps a leaf from outranking a king capture (a
//! material sum reaches 20,000 and more after promotions), the win-probability scale maps a
//! model's `[0, 1]` onto exactly that range, and the search's loss and win values sit just
//! outside it. Three spellings of one number drift apart; here each is derived from the
//! bound.

/// Ceiling of non-terminal scores (and, negated, their floor): every evaluator clamps to
/// `±UPPER_SCORE_BOUND`.
pub const UPPER_SCORE_BOUND: f64 = 10_000.0;

/// [`UPPER_SCORE_BOUND`] as the integer the centipawn evaluators clamp to.
pub const UPPER_SCORE_BOUND_CP: i32 = UPPER_SCORE_BOUND as i32;

/// A line in which the opponent captures our king: below every other score.
pub const LOSS_VALUE: f64 = -1e9;

/// An inner terminal win (our king capture at depth 3); just above the bound so the search's
/// pruning bounds stay tight.
pub const WIN_VALUE: f64 = UPPER_SCORE_BOUND + 1.0;

/// The score reported for an immediate king capture at the root.
pub const TERMINAL_WIN_SCORE: f64 = 2_147_483_647.0;

// The order the search relies on, checked when the crate compiles: every non-terminal score
// lies strictly between the loss and the inner win, and the root's win is above both.
const _: () = assert!(LOSS_VALUE < -UPPER_SCORE_BOUND && WIN_VALUE > UPPER_SCORE_BOUND);
const _: () = assert!(TERMINAL_WIN_SCORE > WIN_VALUE);

/// Scale of the map from a win probability onto the axis: `p ∈ [0, 1]` ↦
/// `[−UPPER_SCORE_BOUND, +UPPER_SCORE_BOUND]`.
pub const SCORE_SCALE: f32 = 2.0 * UPPER_SCORE_BOUND as f32;

/// A win probability `p` on the shared axis: `score = SCORE_SCALE · (p − 0.5)`, so
/// `p = 0.5` ↦ 0 and `p ∈ [0, 1]` ↦ `[−10000, +10000]`, the non-terminal range. The map is
/// affine, so the expectation of scores over a chance node is the score of the expected
/// probability: an expectimax over these scores ranks moves exactly as one over the model's
/// probabilities would. `p` is first clamped to `[0, 1]`, so a model that strays outside
/// cannot produce a score in the terminal range (inside `[0, 1]` the map stays exactly
/// linear).
#[inline]
pub fn win_probability_to_score(p: f32) -> f32 {
    SCORE_SCALE * (p.clamp(0.0, 1.0) - 0.5)
}

/// The inverse of [`win_probability_to_score`] on the non-terminal range: `p = 0.5 +
/// score / SCORE_SCALE`, clamped to `[0, 1]`. A label in the evaluator's scale becomes a win
/// probability by this map (docs/labels.md): exact for a model's leaves, whose scores are
/// `win_probability_to_score(p)`; for material and dice-aware leaves it is a rescaling of the
/// score, with the king captures at exactly 1 and 0. Affine, so it maps the expectation of
/// scores to the expectation of probabilities.
#[inline]
pub fn score_to_win_probability(score: f64) -> f64 {
    (0.5 + score / SCORE_SCALE as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_is_derived_from_one_bound() {
        assert_eq!(UPPER_SCORE_BOUND_CP, 10_000);
        assert_eq!(SCORE_SCALE, 20_000.0);
        assert_eq!(win_probability_to_score(1.0) as f64, UPPER_SCORE_BOUND);
        assert_eq!(win_probability_to_score(0.0) as f64, -UPPER_SCORE_BOUND);
        assert_eq!(win_probability_to_score(0.5), 0.0);
        assert_eq!(win_probability_to_score(7.0), win_probability_to_score(1.0));
        for p in [0.0f32, 0.125, 0.5, 0.75, 1.0] {
            let back = score_to_win_probability(win_probability_to_score(p) as f64);
            assert!((back - p as f64).abs() < 1e-7, "{p} -> {back}");
        }
        assert_eq!(score_to_win_probability(UPPER_SCORE_BOUND), 1.0);
        assert_eq!(score_to_win_probability(-UPPER_SCORE_BOUND), 0.0);
        assert_eq!(score_to_win_probability(-2e9), 0.0);
    }
}
