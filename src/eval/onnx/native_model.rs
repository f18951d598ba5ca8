//! [`NativeModel`]: a position-value or chance-collapse package whose graph is a plain MLP,
//! run by the engine's own forward pass instead of ONNX Runtime (no runtime library needed).
//! The same package, the same bytes, the same features; ORT stays the reference
//! (tests/native_mlp.rs and tests/collapse_leaves.rs hold the two within 10⁻⁵).

use super::error::ModelError;
use super::manifest::{Manifest, Role};
use super::mlp_graph::{read_mlp, MlpGraph, MlpGraphError};
use super::mlp_rows::BLOCK_ROWS;
use super::package::ModelPackage;
use crate::batch::{LeafBatch, PositionBatch};
use crate::eval::features::{FeatureSchema, Perspective};
use crate::eval::{check_len, win_probability_to_score, BatchEvaluator, EvalError};
use ndarray::ArrayView2;
use rayon::prelude::*;
use std::path::Path;

/// Leaves whose features `evaluate_leaves` gathers before one
/// [`MlpGraph::forward_rows`] call: sixteen AVX-512 blocks, so the call's checks (the
/// graph's shape, the CPU) are paid once per 64 leaves, while the features (64 × 20 floats
/// for `dice-terms-v1`) stay in the first-level cache.
const LEAF_CHUNK: usize = 16 * BLOCK_ROWS;

/// Rows one rayon task takes at least: below that a batch runs on the calling thread.
const MIN_ROWS_PER_TASK: usize = 256;

/// Why a package cannot run natively.
#[derive(Debug, thiserror::Error)]
pub enum NativeModelError {
    /// The package itself is refused (manifest, digest, role, …).
    #[error(transparent)]
    Package(#[from] ModelError),
    /// The package keeps its weights in `model.onnx.data`.
    #[error("{0}: the native forward reads weights embedded in model.onnx, and this package keeps them in model.onnx.data; use the ONNX Runtime evaluator")]
    ExternalData(String),
    /// The graph is not a plain MLP.
    #[error("{model}: {source}")]
    Graph {
        /// The model id.
        model: String,
        /// Why.
        source: MlpGraphError,
    },
    /// The graph's input width is not the manifest's feature count.
    #[error("{model}: the graph takes {graph} features, the manifest says {manifest}")]
    Width {
        /// The model id.
        model: String,
        /// The graph's input width.
        graph: usize,
        /// `featureCount`.
        manifest: usize,
    },
}

/// A plain-MLP model computed by [`MlpGraph::forward`], on the rayon threads for big
/// batches, in one of two roles:
///
/// * `position-value`: P(the side to move wins), features from the side to move;
/// * `chance-collapse` with a final `Sigmoid`: P(the side that **just moved** wins) — the
///   expectation of the chance node that follows, the opponent's roll — from the features
///   of the side about to roll, the side to move (docs/model-packages.md).
///
/// As a [`BatchEvaluator`] both give the score of a row from its side to move: a leaf of
/// the search is an after-state, so a collapse model there stands in for the last chance
/// node of the line (depth *d* + 1 at the cost of depth *d*, docs/search.md §4.6), and its
/// score is the complement of the just-moved side's probability.
pub struct NativeModel {
    package: ModelPackage,
    schema: &'static dyn FeatureSchema,
    graph: MlpGraph,
    /// A `chance-collapse` model: the output is the side that just moved's probability.
    collapse: bool,
}

impl NativeModel {
    /// Load the `position-value` package in `dir` and read its MLP.
    pub fn load(dir: &Path) -> Result<NativeModel, NativeModelError> {
        NativeModel::from_package(ModelPackage::load(dir, Role::PositionValue)?)
    }

    /// Load the package in `dir` as a leaf evaluator: a `position-value` package, or a
    /// `chance-collapse` one whose graph ends in a `Sigmoid` (any other role is refused,
    /// naming both).
    pub fn load_leaf_model(dir: &Path) -> Result<NativeModel, NativeModelError> {
        NativeModel::from_package(ModelPackage::load_leaf(dir)?)
    }

    /// A checked package's MLP (refused unless role `position-value`, or `chance-collapse`
    /// with a final `Sigmoid`).
    pub fn from_package(package: ModelPackage) -> Result<NativeModel, NativeModelError> {
        let manifest = package.manifest();
        let collapse = match manifest.model_role {
            Role::PositionValue => false,
            Role::ChanceCollapse => true,
            other => {
                return Err(ModelError::RoleMismatch {
                    expected: "position-value or chance-collapse",
                    found: other.as_str(),
                }
                .into())
            }
        };
        let model = manifest.model_id.clone();
        if package.external_data().is_some() {
            return Err(NativeModelError::ExternalData(model));
        }
        let graph = read_mlp(
            package.model_bytes(),
            &manifest.input_name,
            &manifest.output_name,
        )
        .map_err(|source| NativeModelError::Graph {
            model: model.clone(),
            source,
        })?;
        if graph.inputs() != manifest.feature_count {
            return Err(NativeModelError::Width {
                model,
                graph: graph.inputs(),
                manifest: manifest.feature_count,
            });
        }
        if collapse && !graph.sigmoid {
            return Err(NativeModelError::Graph {
                model,
                source: MlpGraphError::Shape(
                    "a chance-collapse graph without a final Sigmoid gives a score, not a \
                     probability; the native forward serves only probabilities"
                        .into(),
                ),
            });
        }
        let schema = manifest.schema();
        Ok(NativeModel {
            package,
            schema,
            graph,
            collapse,
        })
    }

    /// The package's role.
    pub fn role(&self) -> Role {
        self.manifest().model_role
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        self.package.manifest()
    }

    /// The network.
    pub fn graph(&self) -> &MlpGraph {
        &self.graph
    }

    /// The model's output per row of a `[rows, featureCount]` feature matrix.
    pub fn predict_features(&self, features: ArrayView2<'_, f32>) -> Result<Vec<f32>, EvalError> {
        let (rows, cols) = features.dim();
        if cols != self.graph.inputs() {
            return Err(EvalError::Inference(format!(
                "feature matrix has {cols} columns, the model takes {}",
                self.graph.inputs()
            )));
        }
        let standard = features.as_standard_layout();
        let flat = standard
            .as_slice()
            .ok_or_else(|| EvalError::Inference("feature matrix is not contiguous".into()))?;
        let mut out = vec![0.0f32; rows];
        if rows == 0 {
            return Ok(out);
        }
        let per_task = rows
            .div_ceil(rayon::current_num_threads().max(1))
            .max(MIN_ROWS_PER_TASK);
        flat.par_chunks(per_task * cols)
            .zip(out.par_chunks_mut(per_task))
            .for_each(|(f, o)| {
                let mut scratch = [Vec::new(), Vec::new()];
                self.graph.forward_rows(f, o, &mut scratch);
            });
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            return Err(EvalError::Inference(format!(
                "{}: output of row {i} is {}",
                self.manifest().model_id,
                out[i]
            )));
        }
        Ok(out)
    }

    /// The model's output per row, features from the side to move: P(side to move wins) for
    /// a `position-value` model, P(the side that just moved wins) for a `chance-collapse`
    /// one.
    pub fn predict(&self, batch: &PositionBatch) -> Result<Vec<f32>, EvalError> {
        let features = self.schema.extract(batch, Perspective::SideToMove);
        self.predict_features(features.view())
    }

    /// The score, from the row's side to move, of the model's output `p`.
    #[inline]
    fn score_for_mover(&self, p: f32) -> f32 {
        if self.collapse {
            -win_probability_to_score(p)
        } else {
            win_probability_to_score(p)
        }
    }
}

/// A `chance-collapse` package at the root seam (docs/search.md §4.6): each candidate's
/// after-state (the root mover just moved, the opponent rolls next) is
/// `win_probability_to_score(p)` of its P(the root mover wins).
///
/// A `position-value` model answers too, as the complement of the roller's probability.
impl crate::eval::ChanceCollapse for NativeModel {
    fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    fn expectations(
        &self,
        after_states: &PositionBatch,
        _root: dicechess_kernels::Color,
    ) -> Result<Vec<f64>, EvalError> {
        let p = self.predict(after_states)?;
        Ok(p.into_iter()
            .map(|v| f64::from(-self.score_for_mover(v)))
            .collect())
    }
}

impl BatchEvaluator for NativeModel {
    fn id(&self) -> String {
        self.manifest().model_id.clone()
    }

    /// `out[i] = win_probability_to_score(P(row i's side to move wins))`, as
    /// [`FeatureModel`](super::FeatureModel) gives it; for a `chance-collapse` model
    /// `−win_probability_to_score(P(the side that just moved wins))`.
    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        check_len(batch, out)?;
        if batch.is_empty() {
            return Ok(());
        }
        let p = self.predict(batch)?;
        for (o, v) in out.iter_mut().zip(p) {
            *o = self.score_for_mover(v);
        }
        Ok(())
    }

    /// The leaves scored where they are, [`LEAF_CHUNK`] at a time: their features into one
    /// reused buffer, then the forward pass over the chunk ([`MlpGraph::forward_rows`], the
    /// bits of one row at a time) — no feature matrix, no rayon task per chance node (a
    /// chance node's leaves are hundreds; the search already runs one chance node per
    /// worker). Equal to [`BatchEvaluator::evaluate`] on the same rows (tests/native_mlp.rs).
    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        if leaves.is_empty() {
            return Ok(false);
        }
        let width = self.schema.width();
        let mut features = vec![0.0f32; width * LEAF_CHUNK];
        let mut probs = [0.0f32; LEAF_CHUNK];
        let mut scratch = [Vec::new(), Vec::new()];
        let (rows, values) = leaves.rows_and_values_mut();
        for (vs, ps) in values.chunks_mut(LEAF_CHUNK).zip(rows.chunks(LEAF_CHUNK)) {
            for (pos, f) in ps.iter().zip(features.chunks_exact_mut(width.max(1))) {
                self.schema.extract_row(pos, pos.side_to_move(), f);
            }
            let k = ps.len();
            self.graph
                .forward_rows(&features[..k * width], &mut probs[..k], &mut scratch);
            for ((v, &p), pos) in vs.iter_mut().zip(&probs).zip(ps) {
                if !p.is_finite() {
                    return Err(EvalError::Inference(format!(
                        "{}: output for {} is {p}",
                        self.manifest().model_id,
                        pos.to_dfen()
                    )));
                }
                *v = self.score_for_mover(p);
            }
        }
        Ok(true)
    }
}
