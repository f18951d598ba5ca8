//! Labels: exact searched values of positions (docs/labels.md), for a batch in memory or a
//! file on disk (the label factory of `dicechess label`).

use crate::errors::{batch_dfen_error, runtime_error, value_error};
use dicechess::board::Position;
use dicechess::files::OutputError;
use dicechess::pipeline::{
    label_positions, run_labels, ChunkSlice, LabelEvaluator, LabelSpec, Labelled, OutputFormat,
    PipelineError, RunSpec,
};
use dicechess::search::{LabelError, LabelKind};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::path::PathBuf;

/// The leaf evaluator: a built-in by name, or a model package.
fn leaf(evaluator: &str, model: Option<PathBuf>) -> PyResult<LabelEvaluator> {
    match model {
        Some(dir) => LabelEvaluator::model(&dir)
            .map_err(|e| value_error(format!("model {}: {e}", dir.display()))),
        None => LabelEvaluator::builtin(evaluator).ok_or_else(|| {
            value_error(format!(
                "evaluator {evaluator:?}: expected one of {}",
                dicechess::pipeline::BUILTIN_LEAVES.join(", ")
            ))
        }),
    }
}

#[allow(clippy::too_many_arguments)]
fn spec(
    kind: &str,
    evaluator: &str,
    model: Option<PathBuf>,
    top: Option<usize>,
    prerank: Option<String>,
    max_work: Option<u64>,
) -> PyResult<LabelSpec> {
    let kind = LabelKind::parse(kind).ok_or_else(|| {
        value_error(format!(
            "kind {kind:?}: expected one of a1, a2, p1, p2, candidates"
        ))
    })?;
    if top == Some(0) || max_work == Some(0) {
        return Err(value_error("top and max_work must be at least 1"));
    }
    if top.is_some() && kind != LabelKind::Candidates {
        return Err(value_error("top: only for kind 'candidates'"));
    }
    Ok(LabelSpec {
        kind,
        leaf: leaf(evaluator, model)?,
        top,
        prerank: prerank.map(|p| leaf(&p, None)).transpose()?,
        max_work,
    })
}

fn bytes<'py>(py: Python<'py>, v: &[f32]) -> Bound<'py, PyByteArray> {
    PyByteArray::new(py, bytemuck::cast_slice(v))
}

/// What `label` returns: the root index of each row, the candidates' moves and afterstates
/// (empty for the scalar kinds), the value, its win probability, the per-roll values (56
/// per candidate) and the pre-rank scores (with `top`).
type Batch<'py> = (
    Vec<u64>,
    Vec<String>,
    Vec<String>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// Labels of a batch of positions (DFEN, dice needed for `candidates`), on all cores.
#[pyfunction]
#[pyo3(signature = (dfens, kind, evaluator="dice-aware".to_owned(), model=None, top=None, prerank=None, max_work=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn label<'py>(
    py: Python<'py>,
    dfens: Vec<String>,
    kind: &str,
    evaluator: String,
    model: Option<PathBuf>,
    top: Option<usize>,
    prerank: Option<String>,
    max_work: Option<u64>,
    threads: Option<usize>,
) -> PyResult<Batch<'py>> {
    let spec = spec(kind, &evaluator, model, top, prerank, max_work)?;
    type Cols = (
        Vec<u64>,
        Vec<String>,
        Vec<String>,
        Vec<f32>,
        Vec<f32>,
        Vec<f32>,
        Vec<f32>,
    );
    let cols = py.detach(|| -> PyResult<Cols> {
        let positions = dfens
            .iter()
            .enumerate()
            .map(|(i, d)| Position::from_dfen(d).map_err(|e| batch_dfen_error(i, e)))
            .collect::<PyResult<Vec<Position>>>()?;
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(n) = threads {
            pool = pool.num_threads(n);
        }
        let pool = pool.build().map_err(|e| runtime_error(e.to_string()))?;
        let results = pool.install(|| label_positions(&spec, &positions));
        let mut c: Cols = Default::default();
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(Labelled::Value(v)) => {
                    c.0.push(i as u64);
                    c.3.push(v as f32);
                    c.4.push(dicechess::eval::score_to_win_probability(v) as f32);
                }
                Ok(Labelled::Candidates(cands)) => {
                    for k in cands {
                        c.0.push(i as u64);
                        c.1.push(k.path.map_or(String::new(), |p| p.uci()));
                        c.2.push(k.after.to_dfen());
                        c.3.push(k.a1 as f32);
                        c.4.push(dicechess::eval::score_to_win_probability(k.a1) as f32);
                        c.5.extend_from_slice(&k.per_roll);
                        if let Some(p) = k.prerank {
                            c.6.push(p);
                        }
                    }
                }
                Err(LabelError::Eval(e)) => return Err(runtime_error(format!("scoring: {e}"))),
                Err(e) => return Err(value_error(format!("dfens[{i}]: label: {e}"))),
            }
        }
        Ok(c)
    })?;
    Ok((
        cols.0,
        cols.1,
        cols.2,
        bytes(py, &cols.3),
        bytes(py, &cols.4),
        bytes(py, &cols.5),
        bytes(py, &cols.6),
    ))
}

/// A label run failure: the caller's input is `ValueError`, the rest `RuntimeError`.
fn pipeline_error(e: PipelineError) -> PyErr {
    match &e {
        PipelineError::Input(_)
        | PipelineError::Fingerprint { .. }
        | PipelineError::BadRecord { .. }
        | PipelineError::Output(
            OutputError::PartsMismatch { .. }
            | OutputError::CannotResume { .. }
            | OutputError::Layout(_)
            | OutputError::Locked(_),
        ) => value_error(e),
        _ => runtime_error(e.to_string()),
    }
}

/// Run the label factory on a file as `dicechess label` does (the same bytes), returning a
/// JSON summary: rows written, computed, resumed, bad records, chunks, whether merged.
#[pyfunction]
#[pyo3(signature = (input, out, kind, evaluator="dice-aware".to_owned(), model=None, top=None, prerank=None, max_work=None, threads=None, chunk_rows=None, skip_bad=false, restart=false, slice=None))]
#[allow(clippy::too_many_arguments)]
pub fn label_file(
    py: Python<'_>,
    input: String,
    out: PathBuf,
    kind: &str,
    evaluator: String,
    model: Option<PathBuf>,
    top: Option<usize>,
    prerank: Option<String>,
    max_work: Option<u64>,
    threads: Option<usize>,
    chunk_rows: Option<usize>,
    skip_bad: bool,
    restart: bool,
    slice: Option<(u64, u64)>,
) -> PyResult<String> {
    let spec = spec(kind, &evaluator, model, top, prerank, max_work)?;
    let format = OutputFormat::of(&out)
        .ok_or_else(|| value_error(format!("out {}: use .parquet or .npy", out.display())))?;
    if let Some((i, n)) = slice {
        if n == 0 || i >= n {
            return Err(value_error(format!("slice {i}/{n}: need 0 <= i < n")));
        }
    }
    if threads == Some(0) || chunk_rows == Some(0) {
        return Err(value_error("threads and chunk_rows must be at least 1"));
    }
    let run = RunSpec {
        input,
        out,
        format,
        skip_bad,
        chunk_rows,
        threads,
        restart,
        slice: slice.map(|(index, count)| ChunkSlice { index, count }),
    };
    py.detach(|| {
        let s = run_labels(&run, &spec, &mut ()).map_err(pipeline_error)?;
        Ok(serde_json::json!({
            "written": s.written,
            "computed": s.computed,
            "resumedParts": s.resumed_parts,
            "resumedRows": s.resumed_rows,
            "bad": s.bad,
            "chunks": s.chunks,
            "merged": s.merged,
            "seconds": s.elapsed.as_secs_f64(),
        })
        .to_string())
    })
}
