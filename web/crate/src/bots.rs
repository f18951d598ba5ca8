//! The bots that need no files and no ONNX Runtime: the registry and one decision.

use crate::js::{field_error, rolled_position, to_js, Options, MAX_SAFE_INTEGER};
use dicechess::bots::{bot_by_id, registry, BotOptions, Turn};
use dicechess::bots::{choose_bounded, root_budget, Bounded};
use dicechess::rules::MoveKind;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use web_time::Instant;

/// The bot `getBestMove` plays when `algorithm` is not given (the JVM API's default).
pub const DEFAULT_ALGORITHM: &str = "greedy";

/// One registry entry in the JVM API's shape.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BotEntry {
    id: String,
    name: String,
    description: String,
    difficulty: u8,
    is_experimental: bool,
}

/// The bots this build can play (the registry less those that need a model package), by
/// difficulty: `[{id, name, description, difficulty, isExperimental}]`.
#[wasm_bindgen(js_name = getAvailableBots)]
pub fn get_available_bots() -> Result<JsValue, JsValue> {
    let opts = BotOptions {
        table_mb: Some(0),
        ..BotOptions::default()
    };
    let bots: Vec<BotEntry> = registry()
        .into_iter()
        .filter(|b| bot_by_id(&b.id, &opts).is_ok())
        .map(|b| BotEntry {
            id: b.id,
            name: b.name,
            description: b.description,
            difficulty: b.difficulty,
            is_experimental: false,
        })
        .collect();
    to_js(&bots)
}

/// One micro-move of a decision.
#[derive(Serialize)]
struct Move {
    from: String,
    to: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    promotion: Option<String>,
}

/// A decision in the JVM API's shape, plus the bot's id and whether the root budget's
/// fallback answered (as `dicechess bestmove` reports it).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BestMove {
    moves: Vec<Move>,
    score: f64,
    time_taken_ms: f64,
    algorithm: String,
    fallback: bool,
}

/// Choose a turn for the rolled DFEN with a bot (`dicechess bestmove`, on the calling
/// thread: run it in a Web Worker in a page). Options: `algorithm` (a bot id from
/// `getAvailableBots`, default `"greedy"`), `timeBudgetMs` (think at most this long, and
/// the root enumeration's work budget that follows from it; default: no deadline), `seed`
/// (tie-breaks and sampling, default 0). Returns `{moves: [{from, to, promotion?}], score,
/// timeTakenMs, algorithm, fallback}`; `moves` is empty for a forced pass.
#[wasm_bindgen(js_name = getBestMove)]
pub fn get_best_move(dfen: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let pos = rolled_position(dfen)?;
    let o = Options::new(&options)?;
    let id = o
        .string("algorithm")?
        .unwrap_or_else(|| DEFAULT_ALGORITHM.to_owned());
    let think = o
        .integer("timeBudgetMs", MAX_SAFE_INTEGER)?
        .map(Duration::from_millis);
    let seed = o.integer("seed", MAX_SAFE_INTEGER)?.unwrap_or(0);
    let bot = bot_by_id(&id, &BotOptions::default())
        .map_err(|e| field_error("algorithm", &format!("algorithm: {e}")))?;
    let start = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut budget = root_budget(think);
    let bounded = choose_bounded(
        bot.as_ref(),
        &pos,
        &mut Turn {
            rng: &mut rng,
            deadline: think.map(|t| start + t),
        },
        &mut budget,
    )
    .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    let fallback = matches!(bounded, Bounded::Fallback { .. });
    let choice = bounded.choice();
    let moves = choice
        .path
        .map(|p| {
            p.moves()
                .iter()
                .map(|m| Move {
                    from: m.from.to_string(),
                    to: m.to.to_string(),
                    promotion: match m.kind {
                        MoveKind::Promotion(p) => Some(p.letter().to_string()),
                        _ => None,
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    to_js(&BestMove {
        moves,
        score: choice.score,
        time_taken_ms: start.elapsed().as_secs_f64() * 1e3,
        algorithm: bot.info().id,
        fallback,
    })
}
