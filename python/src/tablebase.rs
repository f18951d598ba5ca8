//! Endgame tables: build a folder, probe positions (docs/tablebases.md).

use crate::errors::{batch_dfen_error, runtime_error, value_error};
use dicechess::board::Position;
use dicechess::tablebase::{build_dir, BuildError, BuildStep, Material, SolveConfig, Tablebases};
use pyo3::prelude::*;
use std::path::PathBuf;

/// Build the tables `tables` (names such as `"kqk"` or `"krkn"`; `"3"` for every table up to
/// three pieces, `"4"` for every pawnless 4-piece one, `"4p"` for the 4-piece ones with a
/// pawn, `"all"`) and those they need into `dir`, keeping the ones already there; one JSON
/// object per table.
#[pyfunction]
#[pyo3(signature = (dir, tables=vec!["3".to_owned()], discount=None))]
pub fn tablebase_build(
    py: Python<'_>,
    dir: PathBuf,
    tables: Vec<String>,
    discount: Option<f64>,
) -> PyResult<Vec<String>> {
    let wanted =
        Material::parse_list(&tables.join(",")).map_err(|e| value_error(format!("tables: {e}")))?;
    let config = SolveConfig {
        discount: discount.unwrap_or(SolveConfig::default().discount),
        ..SolveConfig::default()
    };
    py.detach(|| {
        let (_, steps) = build_dir(&dir, &wanted, &config, false, &mut |_| {}, &|_| {}).map_err(
            |e| match e {
                BuildError::Solve(_) | BuildError::OtherDiscount { .. } => value_error(e),
                other => runtime_error(other.to_string()),
            },
        )?;
        Ok(steps
            .into_iter()
            .map(|s| {
                match s {
                    BuildStep::Kept(m) => serde_json::json!({"table": m.name(), "kept": true}),
                    BuildStep::Solved(r) => serde_json::json!({
                        "table": r.material.name(), "positions": r.positions, "edges": r.edges,
                        "sweeps": r.sweeps, "converged": r.converged,
                        "seconds": r.graph_secs + r.iterate_secs,
                    }),
                }
                .to_string()
            })
            .collect())
    })
}

/// The table value (expected score of the side to move, 0..1) of each DFEN, NaN where no
/// table in `dir` holds the position.
#[pyfunction]
pub fn tablebase_probe(py: Python<'_>, dir: PathBuf, dfens: Vec<String>) -> PyResult<Vec<f64>> {
    py.detach(|| {
        let tables = Tablebases::load_dir(&dir).map_err(value_error)?;
        if tables.is_empty() {
            return Err(value_error(format!(
                "{}: no table files (tablebase_build writes them)",
                dir.display()
            )));
        }
        dfens
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let pos = Position::from_dfen(d).map_err(|e| batch_dfen_error(i, e))?;
                Ok(tables.probe(&pos).unwrap_or(f64::NAN))
            })
            .collect()
    })
}
