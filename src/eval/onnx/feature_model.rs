//! [`FeatureModel`]: a position-value model package (feature schema + ONNX graph) as a
//! [`BatchEvaluator`] on the engine's shared score axis.

use super::error::ModelError;
use super::inference::ModelCore;
use super::manifest::{Manifest, Role};
use super::package::ModelPackage;
use crate::batch::PositionBatch;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::{BatchEvaluator, EvalError};
use ndarray::ArrayView2;
use std::path::Path;

/// Scale of the map from a win probability to the shared score axis.
pub const SCORE_SCALE: f32 = 20_000.0;

/// A win probability `p` on the shared centipawn-like axis: `score = 20000 · (p − 0.5)`,
/// so `p = 0.5` ↦ 0 and `p ∈ [0, 1]` ↦ `[−10000, +10000]`, the non-terminal range of the
/// axis. The map is linear (affine), so the expectation of scores over a chance node is
/// the score of the expected probability: an expectimax over these scores ranks moves
/// exactly as one over the model's probabilities would. `p` is first clamped to `[0, 1]`,
/// so a model that strays outside cannot produce a score in the terminal-sentinel range
/// (inside `[0, 1]` the map stays exactly linear).
#[inline]
pub fn win_probability_to_score(p: f32) -> f32 {
    SCORE_SCALE * (p.clamp(0.0, 1.0) - 0.5)
}

/// A position-value model (role `position-value`): the probability that each row's side to
/// move wins, from the schema's features of that side (`Perspective::SideToMove`).
///
/// Inference is batched: the rows are split into pieces of at most
/// [`chunk_size`](FeatureModel::chunk_size) rows (default 4096), the pieces run on the rayon
/// threads, each on a session of its own; results do not depend on the chunk size or the
/// thread count.
pub struct FeatureModel {
    core: ModelCore,
}

impl FeatureModel {
    model_methods!(FeatureModel, Role::PositionValue, "position-value");

    /// Sessions opened and currently idle (one per worker that has used the model).
    pub fn idle_sessions(&self) -> usize {
        self.core.sessions_idle()
    }

    /// The model's raw output per row: P(side to move wins).
    pub fn predict(&self, batch: &PositionBatch) -> Result<Vec<f32>, EvalError> {
        let mut out = vec![0.0; batch.len()];
        self.core
            .predict_into(batch, Perspective::SideToMove, &mut out)?;
        Ok(out)
    }

    /// The model's raw output per row of a `[rows, featureCount]` feature matrix.
    pub fn predict_features(&self, features: ArrayView2<'_, f32>) -> Result<Vec<f32>, EvalError> {
        let mut out = vec![0.0; features.nrows()];
        self.core.predict_features_into(features, &mut out)?;
        Ok(out)
    }
}

impl BatchEvaluator for FeatureModel {
    fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    /// `out[i] = win_probability_to_score(P(row i's side to move wins))`.
    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        self.core
            .predict_into(batch, Perspective::SideToMove, out)?;
        for v in out.iter_mut() {
            *v = win_probability_to_score(*v);
        }
        Ok(())
    }
}
