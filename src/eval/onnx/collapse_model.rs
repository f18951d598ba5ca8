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
/// Features are read from the side about to roll, the after-state's side to move (the
/// search passes `Perspective::SideToMove`). Why not from the root mover, whose value it
/// is: the dice-aware terms describe the roll of the side they are computed for, so read
/// from the side that just moved they describe a roll that does not come next — on 2,000
/// self-play positions `dice_aware_win` of that view differed from the roller's complement
/// by up to 0.058, and a collapse net trained on that view stood at −9 ± 26 Elo, LLR −2.15
/// after 208 pairs of its gate when it was stopped (README, generation 3). The roller's
/// row holds the true terms; the output is still the root's.
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

    /// The model's raw expectation, features from the side about to roll.
    fn expectations(
        &self,
        after_states: &PositionBatch,
        _root: dicechess_kernels::Color,
    ) -> Result<Vec<f64>, EvalError> {
        let v = self.predict(after_states, Perspective::SideToMove)?;
        Ok(v.into_iter().map(f64::from).collect())
    }
}
