//! Evaluation: the [`BatchEvaluator`] contract, the material and bot evaluators, feature
//! schemas and ONNX models.

mod bot_terms;
mod dice_aware;
pub mod features;
mod material;
pub mod onnx;

pub use bot_terms::{aggressive_score, king_safety, BotEvaluator, BotTerms, KING_EXPOSURE_PENALTY};
pub use dice_aware::{DiceAware, DiceAwareWeights};
pub use material::{material_kernels, Material, MaterialKernel, MATERIAL_LIMIT};

use crate::batch::PositionBatch;

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
}

/// A model that scores a root candidate's whole chance node from its after-state
/// (docs/search.md §4.6): one batched call replaces every candidate's expansion. The search
/// takes any implementation ([`crate::search::Expectimax::with_collapse`]); the ONNX one is
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
