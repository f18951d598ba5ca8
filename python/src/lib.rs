//! `dicechess._native`: the engine's entry points for the Python package `dicechess`.
//!
//! Every function that works on more than one position, searches or writes files releases
//! the GIL while the engine runs. Bad input raises `ValueError` with the engine's message;
//! failures that are not the caller's (I/O, a search error) raise `RuntimeError`. The
//! package's `dicechess/__init__.py` wraps these into the documented API (numpy arrays,
//! dicts).

use pyo3::prelude::*;

mod analysis;
mod errors;
mod labels;
mod play;
mod positions;
mod tablebase;

/// The module: positions (turns, features, scores, probes), play (decisions, self-play,
/// merging slices), labels, game analysis and endgame tables.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ENGINE_VERSION", dicechess::files::ENGINE_VERSION)?;
    m.add("SCHEMA_IDS", dicechess::eval::features::SCHEMA_IDS.to_vec())?;
    m.add("BOT_IDS", dicechess::bots::BOT_IDS.to_vec())?;
    m.add_function(wrap_pyfunction!(positions::legal_turns, m)?)?;
    m.add_function(wrap_pyfunction!(positions::feature_columns, m)?)?;
    m.add_function(wrap_pyfunction!(positions::features, m)?)?;
    m.add_function(wrap_pyfunction!(positions::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(positions::probe, m)?)?;
    m.add_function(wrap_pyfunction!(play::bestmove, m)?)?;
    m.add_function(wrap_pyfunction!(play::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(play::merge, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label_file, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyze_games, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_build, m)?)?;
    m.add_function(wrap_pyfunction!(tablebase::tablebase_probe, m)?)?;
    m.add("ANALYSIS_BOTS", dicechess::analysis::ANALYSIS_BOTS.to_vec())?;
    Ok(())
}
