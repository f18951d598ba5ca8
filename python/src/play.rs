//! Play: one decision by a bot, self-play runs and merging their slices.

use crate::errors::{dfen_error, runtime_error, selfplay_error, value_error};
use dicechess::board::Position;
use dicechess::bots::BotOptions;
use dicechess::bots::{decide, DecisionError, DecisionRequest};
use dicechess::selfplay::RunManifest;
use dicechess::selfplay::{merge_runs, run_selfplay, SelfPlayProgress, SelfPlayRequest};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One decision as JSON text (what `dicechess bestmove` prints).
#[pyfunction]
#[pyo3(signature = (dfen, bot, time_ms=None, threads=None, seed=0, model=None, book=None, candidates=None))]
#[allow(clippy::too_many_arguments)]
pub fn bestmove(
    py: Python<'_>,
    dfen: &str,
    bot: String,
    time_ms: Option<u64>,
    threads: Option<usize>,
    seed: u64,
    model: Option<PathBuf>,
    book: Option<PathBuf>,
    candidates: Option<usize>,
) -> PyResult<String> {
    py.detach(|| {
        let pos = Position::from_rolled_dfen(dfen).map_err(dfen_error)?;
        let req = DecisionRequest {
            bot,
            options: BotOptions {
                model,
                book,
                candidate_limit: candidates,
                ..BotOptions::default()
            },
            time_ms,
            threads: threads.unwrap_or(0),
            seed,
        };
        match decide(&pos, &req) {
            Ok(d) => serde_json::to_string(&d).map_err(|e| runtime_error(e.to_string())),
            Err(DecisionError::Bot(m)) => Err(value_error(format!("bot: {m}"))),
            Err(other) => Err(runtime_error(other.to_string())),
        }
    })
}

/// The manifest of `dir` as JSON text.
fn manifest_json(dir: &Path) -> PyResult<String> {
    let m = RunManifest::read(dir)
        .map_err(|e| value_error(e.to_string()))?
        .ok_or_else(|| runtime_error(format!("{}: no manifest.json", dir.display())))?;
    serde_json::to_string(&m).map_err(|e| runtime_error(e.to_string()))
}

/// Run (or resume) self-play as `dicechess selfplay` does, writing the same files, and
/// return the folder's manifest as JSON text. `None` options take the CLI's defaults.
/// `progress(games, positions, total)` is called after each finished game (from the
/// engine's writer thread, holding the GIL only for the call); the first exception it
/// raises is raised once the run has finished.
#[pyfunction]
#[pyo3(signature = (
    out, games, white=None, black=None, seed=0, shard=None, features=None, threads=None,
    shard_games=None, max_turns=None, halfmove_limit=None, start=None, white_model=None,
    black_model=None, white_book=None, black_book=None, candidate_limit=None, table_mb=0,
    progress=None
))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay(
    py: Python<'_>,
    out: PathBuf,
    games: u64,
    white: Option<String>,
    black: Option<String>,
    seed: u64,
    shard: Option<String>,
    features: Option<String>,
    threads: Option<usize>,
    shard_games: Option<u64>,
    max_turns: Option<u32>,
    halfmove_limit: Option<u8>,
    start: Option<String>,
    white_model: Option<PathBuf>,
    black_model: Option<PathBuf>,
    white_book: Option<PathBuf>,
    black_book: Option<PathBuf>,
    candidate_limit: Option<usize>,
    table_mb: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let failed: Mutex<Option<PyErr>> = Mutex::new(None);
    let report = |p: SelfPlayProgress| {
        let Some(cb) = &progress else { return };
        Python::attach(|py| {
            if let Err(e) = cb.call1(py, (p.games, p.positions, p.total)) {
                let mut first = failed.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert(e);
            }
        });
    };
    let text = py.detach(|| {
        let mut req = SelfPlayRequest::new(games, out);
        req.white = white.unwrap_or(req.white);
        req.black = black.unwrap_or(req.black);
        req.seed = seed;
        req.shard = shard;
        req.features = features.unwrap_or(req.features);
        req.threads = threads;
        req.shard_games = shard_games.unwrap_or(req.shard_games);
        req.max_turns = max_turns.unwrap_or(req.max_turns);
        req.halfmove_limit = halfmove_limit.unwrap_or(req.halfmove_limit);
        req.start = start;
        req.white_model = white_model;
        req.black_model = black_model;
        req.white_book = white_book;
        req.black_book = black_book;
        req.candidate_limit = candidate_limit;
        req.table_mb = table_mb;
        let cfg = req.config().map_err(selfplay_error)?;
        run_selfplay(&cfg, &report).map_err(selfplay_error)?;
        manifest_json(&req.out)
    })?;
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(text),
    }
}

/// Merge self-play slices into `out` as `dicechess merge` does (every digest checked) and
/// return the merged manifest as JSON text.
#[pyfunction]
pub fn merge(py: Python<'_>, dirs: Vec<PathBuf>, out: PathBuf) -> PyResult<String> {
    py.detach(|| {
        let m = merge_runs(&dirs, &out).map_err(selfplay_error)?;
        serde_json::to_string(&m).map_err(|e| runtime_error(e.to_string()))
    })
}
