//! [`ModelCore`]: the part [`FeatureModel`](super::FeatureModel) and
//! [`CollapseModel`](super::CollapseModel) share: a checked package, its feature schema and
//! its sessions, running chunked batched inference over a feature matrix.

use super::error::ModelError;
use super::manifest::{Manifest, Role};
use super::package::ModelPackage;
use super::session_pool::{GraphContract, SessionPool};
use crate::batch::PositionBatch;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::EvalError;
use ndarray::ArrayView2;
use rayon::prelude::*;

/// Rows one session run takes at most, unless set otherwise.
pub const DEFAULT_CHUNK_SIZE: usize = 4096;

/// The fewest rows worth a rayon task of their own: smaller batches run in one piece.
const MIN_ROWS_PER_TASK: usize = 256;

/// A loaded, graph-checked model of one role.
pub(crate) struct ModelCore {
    package: ModelPackage,
    schema: &'static dyn FeatureSchema,
    pool: SessionPool,
    chunk_size: usize,
}

impl ModelCore {
    /// Check the package's role, open and graph-check a first session.
    pub(crate) fn new(package: ModelPackage, role: Role) -> Result<ModelCore, ModelError> {
        let manifest = package.manifest();
        if manifest.model_role != role {
            return Err(ModelError::RoleMismatch {
                expected: role.as_str(),
                found: manifest.model_role.as_str(),
            });
        }
        let schema = manifest.schema();
        let contract = GraphContract {
            input_name: manifest.input_name.clone(),
            output_name: manifest.output_name.clone(),
            feature_count: manifest.feature_count,
        };
        let pool = SessionPool::with_external_data(
            package.model_bytes().clone(),
            package
                .external_data()
                .map(|d| (super::package::DATA_FILE.to_owned(), d.clone())),
            contract,
        )?;
        Ok(ModelCore {
            package,
            schema,
            pool,
            chunk_size: DEFAULT_CHUNK_SIZE,
        })
    }

    pub(crate) fn set_chunk_size(&mut self, rows: usize) {
        self.chunk_size = rows.max(1);
    }

    pub(crate) fn chunk_size(&self) -> usize {
        self.chunk_size
    }

    pub(crate) fn package(&self) -> &ModelPackage {
        &self.package
    }

    pub(crate) fn manifest(&self) -> &Manifest {
        self.package.manifest()
    }

    pub(crate) fn schema(&self) -> &'static dyn FeatureSchema {
        self.schema
    }

    pub(crate) fn sessions_idle(&self) -> usize {
        self.pool.idle_count()
    }

    /// Raw model outputs for every row of `batch`, features from `perspective`.
    pub(crate) fn predict_into(
        &self,
        batch: &PositionBatch,
        perspective: Perspective,
        out: &mut [f32],
    ) -> Result<(), EvalError> {
        crate::eval::check_len(batch, out)?;
        if batch.is_empty() {
            return Ok(());
        }
        let features = self.schema.extract(batch, perspective);
        self.predict_features_into(features.view(), out)
    }

    /// Raw model outputs for the rows of a `[rows, featureCount]` feature matrix.
    pub(crate) fn predict_features_into(
        &self,
        features: ArrayView2<'_, f32>,
        out: &mut [f32],
    ) -> Result<(), EvalError> {
        let width = self.pool.contract().feature_count;
        let (rows, cols) = features.dim();
        if cols != width {
            return Err(EvalError::Inference(format!(
                "feature matrix has {cols} columns, the model takes {width}"
            )));
        }
        if rows != out.len() {
            return Err(EvalError::OutputLength {
                rows,
                got: out.len(),
            });
        }
        if rows == 0 {
            return Ok(());
        }
        let standard = features.as_standard_layout();
        let flat = standard
            .as_slice()
            .ok_or_else(|| EvalError::Inference("feature matrix is not contiguous".into()))?;
        let piece = piece_rows(rows, self.chunk_size);
        flat.par_chunks(piece * width)
            .zip(out.par_chunks_mut(piece))
            .try_for_each(|(f, o)| self.pool.run(f, o))
            .map_err(|e| EvalError::Inference(format!("{}: {e}", self.manifest().model_id)))?;
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            return Err(EvalError::Inference(format!(
                "{}: output of row {i} is {}",
                self.manifest().model_id,
                out[i]
            )));
        }
        Ok(())
    }
}

/// Rows per session run: at most `chunk_size`, and fewer when that spreads a big batch over
/// the rayon threads (never below [`MIN_ROWS_PER_TASK`]). Rows are independent, so results
/// do not depend on it.
fn piece_rows(rows: usize, chunk_size: usize) -> usize {
    let per_thread = rows.div_ceil(rayon::current_num_threads().max(1));
    chunk_size.min(per_thread.max(MIN_ROWS_PER_TASK)).max(1)
}
