//! [`Logistic`]: a centipawn evaluator read as a win probability, `σ(score / scale)`, put
//! back on the shared axis ([`win_probability_to_score`]).
//!
//! Why: an expectimax averages leaf values over the rolls. On the centipawn axis a queen
//! more is worth as much again when one is already a rook ahead, and a king capture
//! (±10000) stands for about eleven queens; on the probability axis a won position
//! saturates and a lost king is exactly 0. The search then prefers the line with the better
//! *chance* of winning over the line with the larger expected material. The same map is the
//! one game analysis reads equities through (docs/analysis.md, scale 400).

use super::{win_probability_to_score, BatchEvaluator, EvalError, UPPER_SCORE_BOUND};
use crate::batch::{LeafBatch, PositionBatch};
use std::sync::Arc;

/// `inner`'s scores through `σ(score / scale)` onto the win-probability axis: `score ↦
/// 20000 · (σ(score / scale) − 0.5)`. Monotone, so a one-ply choice is the inner
/// evaluator's; only averages over rolls change. Scores at the bound (a king taken, a
/// terminal sentinel) map to the bound.
#[derive(Clone)]
pub struct Logistic {
    inner: Arc<dyn BatchEvaluator>,
    scale: f32,
}

impl Logistic {
    /// `inner` read through a logistic of `scale` centipawns (analysis: 400).
    pub fn new(inner: Arc<dyn BatchEvaluator>, scale: f32) -> Logistic {
        Logistic { inner, scale }
    }

    /// The logistic's scale, centipawns.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// One score through the map.
    #[inline]
    pub fn map(&self, score: f32) -> f32 {
        let bound = UPPER_SCORE_BOUND as f32;
        if score >= bound {
            return bound;
        }
        if score <= -bound {
            return -bound;
        }
        win_probability_to_score(1.0 / (1.0 + (-score / self.scale).exp()))
    }
}

impl BatchEvaluator for Logistic {
    fn id(&self) -> String {
        format!("{}-logistic-{}", self.inner.id(), self.scale)
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        self.inner.evaluate(batch, out)?;
        for v in out.iter_mut() {
            *v = self.map(*v);
        }
        Ok(())
    }

    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        if !self.inner.evaluate_leaves(leaves)? {
            return Ok(false);
        }
        for v in leaves.values_mut() {
            *v = self.map(*v);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::{DiceAware, Material};

    #[test]
    fn the_map_is_monotone_and_keeps_the_bounds() {
        let l = Logistic::new(Arc::new(Material), 400.0);
        assert_eq!(l.map(0.0), 0.0);
        assert_eq!(l.map(10_000.0), 10_000.0);
        assert_eq!(l.map(-10_000.0), -10_000.0);
        assert_eq!(l.map(-1e9), -10_000.0);
        // σ(1) = 0.7311 ↦ 20000 · 0.2311.
        assert!((l.map(400.0) - 20_000.0 * (0.731_058_6 - 0.5)).abs() < 0.05);
        // Strictly increasing where f32 resolves σ (|score| ≤ 4000 at scale 400: beyond,
        // σ is within 1e-4 of 0 or 1 and the map saturates at the bound), never decreasing.
        let mut last = -10_001.0;
        for s in (-9_000i32..=9_000).step_by(250) {
            let v = l.map(s as f32);
            if s.abs() <= 4_000 {
                assert!(v > last, "{s}");
            } else {
                assert!(v >= last, "{s}");
            }
            assert!((l.map(-s as f32) + v).abs() < 1e-2, "odd: {s}");
            last = v;
        }
    }

    #[test]
    fn batches_and_leaves_are_the_inner_scores_mapped() {
        let ps: Vec<Position> = [
            "4k3/8/8/8/8/8/8/K3R3 w - - 0 1",
            "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
        ]
        .iter()
        .map(|d| Position::from_dfen(d).unwrap())
        .collect();
        let inner = DiceAware::default();
        let l = Logistic::new(Arc::new(inner), 600.0);
        let mut out = vec![0f32; 2];
        l.evaluate(&PositionBatch::from_positions(&ps), &mut out)
            .unwrap();
        let mut leaves = LeafBatch::new();
        leaves.push_class(3, &ps);
        assert!(l.evaluate_leaves(&mut leaves).unwrap());
        for (i, p) in ps.iter().enumerate() {
            assert_eq!(out[i], l.map(inner.score(p)));
            assert_eq!(leaves.values_mut()[i], out[i]);
        }
    }
}
