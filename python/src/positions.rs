//! Positions: legal turns, feature matrices, scores and probes.

use crate::errors::{batch_dfen_error, dfen_error, runtime_error, value_error};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::{schema_or_err, Perspective};
use dicechess::eval::{BatchEvaluator, Material};
use dicechess::probe::probe_report;
use dicechess::rules::legal_paths;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::path::PathBuf;

/// Every legal turn path of a rolled position (docs/rules.md §5 order, as `dicechess
/// turns`), each a list of UCI micro-moves; empty for a forced pass.
#[pyfunction]
pub fn legal_turns(py: Python<'_>, dfen: &str) -> PyResult<Vec<Vec<String>>> {
    py.detach(|| {
        let pos = Position::from_rolled_dfen(dfen).map_err(dfen_error)?;
        Ok(legal_paths(&pos)
            .iter()
            .map(|p| p.moves().iter().map(|m| m.uci()).collect())
            .collect())
    })
}

/// The column names of a feature schema, in order.
#[pyfunction]
pub fn feature_columns(schema: &str) -> PyResult<Vec<&'static str>> {
    Ok(schema_or_err(schema)
        .map_err(value_error)?
        .columns()
        .to_vec())
}

/// Parse every DFEN of a batch (dice optional); the first bad one is a `ValueError`
/// naming its index.
fn parse_all(dfens: &[String]) -> PyResult<Vec<Position>> {
    dfens
        .iter()
        .enumerate()
        .map(|(i, d)| Position::from_dfen(d).map_err(|e| batch_dfen_error(i, e)))
        .collect()
}

/// Float32 values as a bytearray of native-endian bytes (numpy reads it without a copy).
fn float_bytes<'py>(py: Python<'py>, values: &[f32]) -> Bound<'py, PyByteArray> {
    PyByteArray::new(py, bytemuck::cast_slice(values))
}

/// The features of `schema` for each position, from the side to move's view (as `dicechess
/// eval --features`): `(bytes, rows, width)`, a row-major float32 matrix.
#[pyfunction]
pub fn features<'py>(
    py: Python<'py>,
    dfens: Vec<String>,
    schema: &str,
) -> PyResult<(Bound<'py, PyByteArray>, usize, usize)> {
    let schema = schema_or_err(schema).map_err(value_error)?;
    let values = py.detach(|| -> PyResult<Vec<f32>> {
        let positions = parse_all(&dfens)?;
        let batch = PositionBatch::from_positions(&positions);
        let m = schema.extract(&batch, Perspective::SideToMove);
        Ok(m.iter().copied().collect())
    })?;
    Ok((float_bytes(py, &values), dfens.len(), schema.width()))
}

/// The scorer of `evaluate`: material, or a model package — `position-value`, or a
/// `chance-collapse` one scored as the bots serve it at a leaf (the complement of its
/// P(the side that just moved wins)).
fn scorer(model: Option<PathBuf>) -> PyResult<Box<dyn BatchEvaluator>> {
    use dicechess::eval::onnx::{FeatureModel, ModelPackage, NativeModel, Role};
    let Some(dir) = model else {
        return Ok(Box::new(Material));
    };
    let refused = |e: &dyn std::fmt::Display| value_error(format!("model {}: {e}", dir.display()));
    let package = ModelPackage::load_leaf(&dir).map_err(|e| refused(&e))?;
    match package.manifest().model_role {
        Role::ChanceCollapse => Ok(Box::new(
            NativeModel::from_package(package).map_err(|e| refused(&e))?,
        )),
        _ => Ok(Box::new(
            FeatureModel::from_package(package).map_err(|e| refused(&e))?,
        )),
    }
}

/// The score of each position from the side to move's view (as `dicechess eval
/// --evaluator material`, or `--model PKG` with a model package): float32 bytes.
#[pyfunction]
#[pyo3(signature = (dfens, model=None))]
pub fn evaluate<'py>(
    py: Python<'py>,
    dfens: Vec<String>,
    model: Option<PathBuf>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let scores = py.detach(|| -> PyResult<Vec<f32>> {
        let positions = parse_all(&dfens)?;
        let scorer = scorer(model)?;
        let batch = PositionBatch::from_positions(&positions);
        let mut out = vec![0.0; batch.len()];
        scorer
            .evaluate(&batch, &mut out)
            .map_err(|e| runtime_error(format!("scoring: {e}")))?;
        Ok(out)
    })?;
    Ok(float_bytes(py, &scores))
}

/// The probe report of a position as JSON text (what `dicechess probe` prints).
#[pyfunction]
pub fn probe(py: Python<'_>, dfen: &str) -> PyResult<String> {
    py.detach(|| {
        let pos = Position::from_dfen(dfen).map_err(dfen_error)?;
        serde_json::to_string(&probe_report(&pos)).map_err(|e| runtime_error(e.to_string()))
    })
}
