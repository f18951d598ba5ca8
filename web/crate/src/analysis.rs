//! Game analysis (`dicechess analyze`) and hints for a roll: equities are the mover's win
//! probability (0–1), valued by `dicechess::analysis`.

use crate::js::{field_error, rolled_position, to_js, Options, MAX_SAFE_INTEGER};
use dicechess::analysis::{AnalysisConfig, AnalysisError, Analyzer, Game, ANALYSIS_BOTS};
use dicechess::kernels::Color;
use dicechess::probe::king_capture_probability;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The bot whose leaf evaluator values the turns when `bot` is not given.
pub const DEFAULT_BOT: &str = "best";

/// How many turns `hint` lists when `top` is not given.
pub const DEFAULT_TOP: u64 = 5;

/// The analyser of the options `bot`, `depth` and `timeMs` (each optional; the CLI's
/// defaults: `best`, 2, no time limit).
fn analyzer(o: &Options) -> Result<Analyzer, JsValue> {
    let bot = o.string("bot")?.unwrap_or_else(|| DEFAULT_BOT.to_owned());
    let depth = match o.integer("depth", MAX_SAFE_INTEGER)? {
        None => AnalysisConfig::default().depth,
        Some(d @ 1..=2) => d as u8,
        Some(d) => {
            return Err(field_error(
                "depth",
                &format!("depth: expected 1 or 2, found {d}"),
            ))
        }
    };
    let time_ms = o.integer("timeMs", MAX_SAFE_INTEGER)?;
    Analyzer::for_bot(&bot, AnalysisConfig { depth, time_ms }).map_err(|_| {
        field_error(
            "bot",
            &format!(
                "bot: {bot:?} is not one of {} (the analysis takes their leaf evaluator)",
                ANALYSIS_BOTS.join(", ")
            ),
        )
    })
}

/// An analysis error after the game was read: a turn of the game (field `game`), or the
/// search's own failure (a plain `Error`).
fn analysis_error(e: AnalysisError) -> JsValue {
    match e {
        AnalysisError::Replay(_) | AnalysisError::Turn { .. } => {
            field_error("game", &e.to_string())
        }
        AnalysisError::Config(_) => field_error("options", &e.to_string()),
        _ => js_sys::Error::new(&e.to_string()).into(),
    }
}

/// The game argument as JSON text: a string as it is, an object through `JSON.stringify`.
fn game_text(game: &JsValue) -> Result<String, JsValue> {
    if let Some(s) = game.as_string() {
        return Ok(s);
    }
    let bad = || {
        field_error(
            "game",
            "game: expected a game record or history, as JSON text or an object",
        )
    };
    if !game.is_object() {
        return Err(bad());
    }
    js_sys::JSON::stringify(game)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(bad)
}

/// The progress callback of the analysis running on this thread: `(callback, turns done,
/// turns in all, the first exception it threw)`. The library calls its progress closure
/// once per finished turn and wants it `Sync`, which a JS function is not; on wasm32 the
/// analysis runs on the calling thread (rayon's fallback), so the closure reaches the
/// callback through this thread's slot instead of capturing it.
type Progress = (js_sys::Function, u32, u32, Option<JsValue>);

thread_local! {
    static PROGRESS: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

/// One finished turn: call `onProgress(done, total)` (until it first throws).
fn tick() {
    PROGRESS.with(|slot| {
        // Take the callback out while it runs: it may itself call into this module.
        let Some((f, done, total, thrown)) = slot.borrow_mut().take() else {
            return;
        };
        let done = done + 1;
        let thrown = thrown.or_else(|| f.call2(&JsValue::NULL, &done.into(), &total.into()).err());
        *slot.borrow_mut() = Some((f, done, total, thrown));
    });
}

/// Analyse a finished game (`dicechess analyze`, on the calling thread: run it in a Web
/// Worker in a page). `game`: our `games.jsonl` record or the play server's history, as
/// JSON text or an object; it is replayed against the rules first, and a bad one throws the
/// validator's message with `field` `"game"`. Options (all optional): `bot` (`best`,
/// `best-v1` or `expectimax`: whose leaf evaluator; default `best`), `depth` (1 or 2,
/// default 2), `timeMs` (at depth 2, value a turn's candidates for at most this long, best
/// depth-1 first; default: all of them), `onProgress(done, total)` (called after each turn).
/// Returns the analysis as `dicechess analyze` writes it: `{gameId, initialDfen, result,
/// termination, evaluator, depth, turns: [{turnNumber, activeColor, dice, moves,
/// equityBefore, equityAfterRoll, luck, luckClass, bestMoves, bestEquity, playedEquity,
/// error, class, candidates, valued, kingRisk, bestKingRisk, fenBefore, fenAfter}], white,
/// black}`.
#[wasm_bindgen(js_name = analyzeGame)]
pub fn analyze_game(game: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let o = Options::new(&options)?;
    let analyzer = analyzer(&o)?;
    let on_progress = o.function("onProgress")?;
    let text = game_text(&game)?;
    let game = Game::from_json(&text).map_err(|e| field_error("game", &e.to_string()))?;
    let total = game.turns.len() as u32;
    let outer = PROGRESS.with(|slot| {
        slot.borrow_mut()
            .replace((on_progress.unwrap_or_else(noop), 0, total, None))
    });
    let analysis = analyzer.analyze_game(&game, &tick);
    let mine = PROGRESS.with(|slot| std::mem::replace(&mut *slot.borrow_mut(), outer));
    let analysis = analysis.map_err(analysis_error)?;
    if let Some((_, _, _, Some(thrown))) = mine {
        return Err(thrown);
    }
    to_js(&analysis)
}

/// A JS function that does nothing.
fn noop() -> js_sys::Function {
    js_sys::Function::new_no_args("")
}

/// One turn of a hint.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HintTurn {
    moves: Vec<String>,
    equity: f64,
    depth: u8,
    king_risk: f64,
}

/// The best turns of a rolled DFEN with their equities, and both kings' danger. Options
/// (all optional): `bot`, `depth` and `timeMs` as for `analyzeGame` (depth 2 without
/// `timeMs` values every distinct turn: give a time in a page), `top` (how many turns,
/// default 5). Returns `{turns: [{moves, equity, depth, kingRisk}], candidates, valued,
/// whiteKingCaptured, blackKingCaptured, evaluator, depth}`: `turns` best first (`moves` in
/// UCI, `[]` for a pass; `equity` the mover's win probability at `depth`, the turns valued
/// at the analysis depth first; `kingRisk` the chance that the opponent captures the
/// mover's king on its next roll after that turn); `candidates` the distinct turns of the
/// roll, `valued` those valued at the analysis depth; `whiteKingCaptured` and
/// `blackKingCaptured` the chance that each king is captured by its opponent's next roll
/// from the position as it stands.
#[wasm_bindgen]
pub fn hint(dfen: &str, options: JsValue) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Hint {
        turns: Vec<HintTurn>,
        candidates: usize,
        valued: usize,
        white_king_captured: f64,
        black_king_captured: f64,
        evaluator: String,
        depth: u8,
    }
    let pos = rolled_position(dfen)?;
    let o = Options::new(&options)?;
    let analyzer = analyzer(&o)?;
    let top = match o.integer("top", MAX_SAFE_INTEGER)? {
        None => DEFAULT_TOP,
        Some(0) => {
            return Err(field_error(
                "top",
                &format!("top: expected an integer from 1 to {MAX_SAFE_INTEGER}"),
            ))
        }
        Some(n) => n,
    };
    let depth = analyzer.config().depth;
    let turns = analyzer
        .ranked_turns(&pos, None)
        .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    let mover = pos.side_to_move();
    to_js(&Hint {
        candidates: turns.len(),
        valued: turns
            .iter()
            .filter(|t| depth == 1 || t.equity2.is_some())
            .count(),
        turns: turns
            .iter()
            .take(usize::try_from(top).unwrap_or(usize::MAX))
            .map(|t| HintTurn {
                moves: t.moves(),
                equity: t.equity(),
                depth: if t.equity2.is_some() { 2 } else { 1 },
                king_risk: king_capture_probability(&t.after, mover),
            })
            .collect(),
        white_king_captured: king_capture_probability(&pos, Color::White),
        black_king_captured: king_capture_probability(&pos, Color::Black),
        evaluator: analyzer.evaluator_id(),
        depth,
    })
}
