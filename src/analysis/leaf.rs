//! The analysis's leaf: an evaluator's centipawn-like score as the mover's win probability.
//!
//! Equities are win probabilities (0–1), so that an error reads as "this turn gave away 6 % of
//! the game". The labels' own map (`eval::score_to_win_probability`, `0.5 + score / 20 000`)
//! is exact for a model's leaves but squeezes material leaves into 0.45–0.55 (a queen is
//! 4.5 %), so for centipawn leaves the analysis maps through the logistic the bots' draw and
//! doubling policies already use (`bots::win_probability`, `1 / (1 + e^(−cp/400))`) and
//! writes the probability back onto the score axis (`eval::win_probability_to_score`). The
//! labeller then computes expectations of probabilities exactly (the map back is affine), and
//! a captured king is exactly 0 or 1.

use crate::batch::{LeafBatch, PositionBatch};
use crate::eval::{win_probability_to_score, BatchEvaluator, EvalError};
use std::sync::Arc;

/// Centipawns per logistic unit: `p = 1 / (1 + e^(−cp / LOGISTIC_SCALE))` (the bots'
/// win-probability estimate, `bots::win_probability`).
pub const LOGISTIC_SCALE: f64 = 400.0;

/// How an inner evaluator's scores become win probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Centipawn-like scores (material, dice-aware): the logistic of [`LOGISTIC_SCALE`].
    Centipawns,
    /// Scores that already are `win_probability_to_score(p)` (a model's leaves): unchanged.
    WinProbability,
}

/// The inner evaluator with its scores mapped onto win probabilities (on the score axis).
pub struct ProbabilityLeaf {
    inner: Arc<dyn BatchEvaluator>,
    scale: Scale,
}

impl ProbabilityLeaf {
    /// `inner`'s scores, read on `scale`.
    pub fn new(inner: Arc<dyn BatchEvaluator>, scale: Scale) -> ProbabilityLeaf {
        ProbabilityLeaf { inner, scale }
    }

    fn map(&self, values: &mut [f32]) {
        if self.scale == Scale::Centipawns {
            for v in values {
                *v = win_probability_to_score(logistic(*v as f64) as f32);
            }
        }
    }
}

/// `1 / (1 + e^(−cp / LOGISTIC_SCALE))`.
pub fn logistic(cp: f64) -> f64 {
    1.0 / (1.0 + (-cp / LOGISTIC_SCALE).exp())
}

impl BatchEvaluator for ProbabilityLeaf {
    fn id(&self) -> String {
        match self.scale {
            Scale::Centipawns => format!("{}/logistic{LOGISTIC_SCALE}", self.inner.id()),
            Scale::WinProbability => self.inner.id(),
        }
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        self.inner.evaluate(batch, out)?;
        self.map(out);
        Ok(())
    }

    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        let called = self.inner.evaluate_leaves(leaves)?;
        self.map(leaves.values_mut());
        Ok(called)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::{score_to_win_probability, Material};

    #[test]
    fn the_logistic_is_symmetric_and_centred() {
        assert_eq!(logistic(0.0), 0.5);
        for cp in [1.0, 100.0, 900.0, 5000.0] {
            assert!((logistic(cp) + logistic(-cp) - 1.0).abs() < 1e-12);
        }
        // A queen up is about a 90 % game on this scale.
        assert!((logistic(900.0) - 0.905).abs() < 0.001);
    }

    #[test]
    fn leaves_are_win_probabilities_on_the_axis() {
        let leaf = ProbabilityLeaf::new(Arc::new(Material), Scale::Centipawns);
        // White is a queen up, White to move.
        let pos = Position::from_dfen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let batch = PositionBatch::from_positions(&[pos]);
        let mut out = [0f32];
        leaf.evaluate(&batch, &mut out).unwrap();
        let p = score_to_win_probability(out[0] as f64);
        assert!((p - logistic(900.0)).abs() < 1e-4, "{p}");
    }
}
