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
    /// Load the package in `dir` (it must be role `chance-collapse`) and open its first
    /// session.
    pub fn load(dir: &Path) -> Result<CollapseModel, ModelError> {
        CollapseModel::from_package(ModelPackage::load(dir, Role::ChanceCollapse)?)
    }

    /// Use a checked package (refused unless role `chance-collapse`).
    pub fn from_package(package: ModelPackage) -> Result<CollapseModel, ModelError> {
        Ok(CollapseModel {
            core: ModelCore::new(package, Role::ChanceCollapse)?,
        })
    }

    /// The same model running at most `rows` rows per session call (at least 1).
    pub fn with_chunk_size(mut self, rows: usize) -> CollapseModel {
        self.core.set_chunk_size(rows);
        self
    }

    /// Rows per session call at most.
    pub fn chunk_size(&self) -> usize {
        self.core.chunk_size()
    }

    /// The id for logs and reports (`modelId`).
    pub fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    /// The package.
    pub fn package(&self) -> &ModelPackage {
        self.core.package()
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        self.core.manifest()
    }

    /// The feature schema the model reads.
    pub fn schema(&self) -> &'static dyn FeatureSchema {
        self.core.schema()
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
