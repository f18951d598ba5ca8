//! Evaluation: the [`BatchEvaluator`] contract, the material and bot evaluators, feature
//! schemas and ONNX models.

mod bot_terms;
mod dice_aware;
pub mod features;
mod logistic;
mod material;
pub mod onnx;
mod score;
mod tablebase_leaves;

pub use bot_terms::{aggressive_score, king_safety, BotEvaluator, BotTerms, KING_EXPOSURE_PENALTY};
pub use dice_aware::{DiceAware, DiceAwareWeights};
pub use logistic::Logistic;
pub use material::{material_kernels, Material, MaterialKernel};
pub use score::{
    score_to_win_probability, win_probability_to_score, LOSS_VALUE, SCORE_SCALE,
    TERMINAL_WIN_SCORE, UPPER_SCORE_BOUND, UPPER_SCORE_BOUND_CP, WIN_VALUE,
};
pub use tablebase_leaves::TablebaseLeaves;

use crate::batch::{LeafBatch, PositionBatch};

/// Why an evaluator could not score a batch.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The output slice does not have one slot per row.
    #[error("output has {got} slots for {rows} rows")]
    OutputLength {
        /// Rows in the batch.
        rows: usize,
        /// Slots given.
        got: usize,
    },
    /// The model runtime failed.
    #[error("model inference failed: {0}")]
    Inference(String),
}

/// Scores a whole batch at once (docs/architecture.md "Contracts"): one value per row from the row's
/// side-to-move perspective, on one centipawn-like axis shared by all evaluators
/// (non-terminal scores within ±10000). `Send + Sync`: one evaluator serves all workers.
///
/// Unlike docs/architecture.md's signature this returns a `Result`: a model runtime can fail, and a
/// failed batch must not look like a batch of zeros.
pub trait BatchEvaluator: Send + Sync {
    /// A short id for logs and reports (`material`, `bot`, a model id).
    fn id(&self) -> String;

    /// Fill `out[i]` with the score of row `i`.
    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError>;

    /// Score every leaf of a chance node in one call (values from each row's side to move);
    /// returns whether the evaluator was called (not for a node without leaf rows: its
    /// classes are all king captures).
    ///
    /// The default hands the leaves over as columns ([`LeafBatch::columns_and_values_mut`]);
    /// a row-wise evaluator overrides it to score the rows as they are.
    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        if leaves.is_empty() {
            return Ok(false);
        }
        let (columns, values) = leaves.columns_and_values_mut();
        self.evaluate(columns, values)?;
        Ok(true)
    }
}

/// A model that scores a root candidate's whole chance node from its after-state
/// (docs/search.md §4.6): one batched call replaces every candidate's expansion. The search
/// takes any implementation (`search::Expectimax::with_collapse`); the ONNX one is
/// [`onnx::CollapseModel`].
pub trait ChanceCollapse: Send + Sync {
    /// A short id for reports.
    fn id(&self) -> String;

    /// The chance-node expectation of each after-state, from `root`'s view, on the model's
    /// own axis (one value per row).
    fn expectations(
        &self,
        after_states: &PositionBatch,
        root: dicechess_kernels::Color,
    ) -> Result<Vec<f64>, EvalError>;
}

/// Check the output length contract.
pub(crate) fn check_len(batch: &PositionBatch, out: &[f32]) -> Result<(), EvalError> {
    if batch.len() == out.len() {
        Ok(())
    } else {
        Err(EvalError::OutputLength {
            rows: batch.len(),
            got: out.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{BatchEvaluator, Material};
    use crate::batch::{LeafBatch, PositionBatch};
    use crate::board::Position;

    #[test]
    fn leaf_segments_hold_their_rows_and_their_values() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
        ];
        let ps: Vec<Position> = fens
            .iter()
            .map(|f| Position::from_dfen(f).expect("valid FEN"))
            .collect();
        let mut b = LeafBatch::new();
        b.push_class(6, &ps[..2]);
        b.push_king_capture(3);
        b.push_class(1, &ps[2..]);
        assert_eq!(b.len(), 4);
        let segs = b.segments().to_vec();
        assert_eq!(
            segs.iter()
                .map(|s| (s.start, s.end, s.weight, s.king_capture))
                .collect::<Vec<_>>(),
            [(0, 2, 6, false), (2, 2, 3, true), (2, 4, 1, false)]
        );
        assert!(b.values(&segs[0]).is_empty(), "no values before evaluate");
        assert!(Material.evaluate_leaves(&mut b).expect("material"));
        let mut rows = vec![0f32; 4];
        Material
            .evaluate(&PositionBatch::from_positions(&ps), &mut rows)
            .expect("material");
        assert_eq!(b.values(&segs[0]), &rows[..2]);
        assert!(b.values(&segs[1]).is_empty());
        assert_eq!(b.values(&segs[2]), &rows[2..]);
        b.clear();
        assert!(b.is_empty() && b.segments().is_empty());
        assert!(
            !Material.evaluate_leaves(&mut b).expect("empty batch"),
            "no call for no rows"
        );
    }
}
