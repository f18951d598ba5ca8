//! [`CollapseModel`]: a chance-collapse model package, which scores a root candidate's
//! whole chance node in one batched call over the candidates' after-states
//! (docs/search.md §4.6).

use super::error::ModelError;
use super::inference::ModelCore;
use super::manifest::{Manifest, Role};
use super::package::ModelPackage;
use crate::batch::PositionBatch;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::EvalError;
use ndarray::ArrayView2;
use std::path::Path;

/// A chance-collapse model (role `chance-collapse`): for each candidate after-state, the
/// expectation its chance node would compute, on the model's own axis (returned raw).
///
/// Features are read from the colour the value is for: in an after-state the root mover is
/// no longer the side to move, so the search passes `Perspective::Fixed(root colour)`.
/// Batching, chunking and sessions work as in [`FeatureModel`](super::FeatureModel).
pub struct CollapseModel {
    core: ModelCore,
}

impl CollapseModel {
    model_methods!(CollapseModel, Role::ChanceCollapse, "chance-collapse");

    /// The id for logs and reports (`modelId`).
    pub fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    /// The raw expectation per after-state row, features from `perspective`.
    pub fn predict(
        &self,
        after_states: &PositionBatch,
        perspective: Perspective,
    ) -> Result<Vec<f32>, EvalError> {
        let mut out = vec![0.0; after_states.len()];
        self.core
            .predict_into(after_states, perspective, &mut out)?;
        Ok(out)
    }

    /// The raw expectation per row of a `[rows, featureCount]` feature matrix.
    pub fn predict_features(&self, features: ArrayView2<'_, f32>) -> Result<Vec<f32>, EvalError> {
        let mut out = vec![0.0; features.nrows()];
        self.core.predict_features_into(features, &mut out)?;
        Ok(out)
    }
}

impl crate::eval::ChanceCollapse for CollapseModel {
    fn id(&self) -> String {
        CollapseModel::id(self)
    }

    /// The model's raw expectation, features from `root`'s view.
    fn expectations(
        &self,
        after_states: &PositionBatch,
        root: dicechess_kernels::Color,
    ) -> Result<Vec<f64>, EvalError> {
        let v = self.predict(after_states, Perspective::Fixed(root))?;
        Ok(v.into_iter().map(f64::from).collect())
    }
}
