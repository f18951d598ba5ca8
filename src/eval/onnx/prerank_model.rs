//! [`PrerankModel`]: a `move-prerank` model package, which orders the root candidates before
//! the candidate limit cuts them (the search's pre-rank seam, `Expectimax::with_prerank`).

use super::error::ModelError;
use super::inference::ModelCore;
use super::manifest::{Manifest, Role};
use super::package::ModelPackage;
use crate::batch::PositionBatch;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::{BatchEvaluator, EvalError};
use std::path::Path;

/// A pre-rank model (role `move-prerank`): an ordering score per after-state, from its side
/// to move's view (higher = better for that side), returned raw. Only the order of the
/// scores matters: the search keeps the candidate limit's best after-states by it and
/// searches those; the values the search returns never contain these scores.
pub struct PrerankModel {
    core: ModelCore,
}

impl PrerankModel {
    model_methods!(PrerankModel, Role::MovePrerank, "move-prerank");
}

impl BatchEvaluator for PrerankModel {
    fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    /// `out[i]` = the model's ordering score of row `i` for its side to move.
    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        self.core.predict_into(batch, Perspective::SideToMove, out)
    }
}
