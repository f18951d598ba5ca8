//! Game analysis (`dicechess analyze`, the library's `dicechess::analysis`): every turn of a
//! finished game valued against the best turn of its roll, every roll against the average
//! roll, per-player summaries; the same records as the CLI's `--json` (camelCase).

use crate::errors::{runtime_error, value_error};
use dicechess::analysis::{AnalysisConfig, AnalysisError, Analyzer, Game};
use dicechess::search::LabelError;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Why a game could not be analysed, before it becomes a Python exception: the caller's
/// input (`ValueError`) or not (`RuntimeError`).
enum Fault {
    Input(String),
    Other(String),
}

impl Fault {
    /// The library's error: a setting, a game that is not a valid record or history, a turn
    /// that cannot be read or a position past the search's bounds is the caller's input; an
    /// evaluator failure is not. `game_id` names the game where the message does not.
    fn of(e: AnalysisError, game_id: Option<&str>) -> Fault {
        let message = match game_id {
            Some(id) if !e.to_string().starts_with("game ") => format!("game {id}: {e}"),
            _ => e.to_string(),
        };
        match e {
            AnalysisError::Eval(_) | AnalysisError::Label(LabelError::Eval(_)) => {
                Fault::Other(message)
            }
            _ => Fault::Input(message),
        }
    }

    /// With `games[i]: ` in front when the call analyses a batch.
    fn at(self, index: Option<usize>) -> PyErr {
        let place = |m: String| match index {
            Some(i) => format!("games[{i}]: {m}"),
            None => m,
        };
        match self {
            Fault::Input(m) => value_error(place(m)),
            Fault::Other(m) => runtime_error(place(m)),
        }
    }
}

/// Analyse `games` (JSON texts, each a games.jsonl record or a play-server history) and
/// return each game's analysis as JSON text (the library's `GameAnalysis`, camelCase), in
/// order. Everything runs without the GIL on a pool of `threads` (all cores by default):
/// the games and the turns of each in parallel. Every game is read and replayed against
/// the rules before any is searched; the first that fails (in input order) raises, its
/// message led by `games[i]: ` when `indexed`.
#[pyfunction]
#[pyo3(signature = (games, bot="best".to_owned(), depth=2, time_ms=None, threads=None, indexed=false))]
pub fn analyze_games(
    py: Python<'_>,
    games: Vec<String>,
    bot: String,
    depth: u8,
    time_ms: Option<u64>,
    threads: Option<usize>,
    indexed: bool,
) -> PyResult<Vec<String>> {
    if threads == Some(0) {
        return Err(value_error("threads must be at least 1"));
    }
    if time_ms.is_some() && depth != 2 {
        return Err(value_error(
            "time_ms: only at depth 2 (it bounds the depth-2 valuation of a turn's candidates)",
        ));
    }
    let index = |i: usize| indexed.then_some(i);
    py.detach(|| {
        let analyzer = Analyzer::for_bot(&bot, AnalysisConfig { depth, time_ms })
            .map_err(|e| Fault::of(e, None).at(None))?;
        let parsed = games
            .iter()
            .enumerate()
            .map(|(i, text)| {
                Game::from_json(text).map_err(|e| Fault::Input(e.to_string()).at(index(i)))
            })
            .collect::<PyResult<Vec<Game>>>()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|e| runtime_error(e.to_string()))?;
        let results: Vec<Result<String, Fault>> = pool.install(|| {
            parsed
                .par_iter()
                .map(|game| {
                    let a = analyzer
                        .analyze_game(game, &|| ())
                        .map_err(|e| Fault::of(e, Some(&game.game_id)))?;
                    serde_json::to_string(&a).map_err(|e| Fault::Other(e.to_string()))
                })
                .collect()
        });
        results
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.map_err(|f| f.at(index(i))))
            .collect()
    })
}
