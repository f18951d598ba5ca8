//! [`FeatureModel`]: a position-value model package (feature schema + ONNX graph) as a
//! [`BatchEvaluator`] on the engine's shared score axis.

use super::error::ModelError;
use super::inference::ModelCore;
use super::manifest::{Manifest, Role};
use super::package::ModelPackage;
use crate::batch::PositionBatch;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::{win_probability_to_score, BatchEvaluator, EvalError};
use ndarray::ArrayView2;
use std::path::Path;

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
