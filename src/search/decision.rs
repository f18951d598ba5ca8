//! One decision by any registered bot, as the JSON `dicechess bestmove` prints and the
//! Python package's `dicechess.bestmove` returns.

use super::bots::{bot_by_id, BotOptions, Turn};
use super::bounded::{choose_bounded, root_budget, Bounded};
use crate::board::Position;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use std::time::Duration;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// What to decide with.
#[derive(Clone, Debug, Default)]
pub struct DecisionRequest {
    /// The bot's registry id (`search::bots::BOT_IDS`).
    pub bot: String,
    /// How to build the bot (model, book, candidate limit).
    pub options: BotOptions,
    /// Think at most this long (bots that honour deadlines; a legal turn is always
    /// returned); it also sizes the root's work budget.
    pub time_ms: Option<u64>,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Seed for tie-breaks and sampling.
    pub seed: u64,
}

/// Why no decision was made.
#[derive(Debug, thiserror::Error)]
pub enum DecisionError {
    /// The bot could not be built (unknown id, bad model or book): the caller's input.
    #[error("{0}")]
    Bot(String),
    /// The worker pool or the search failed.
    #[error("{0}")]
    Search(String),
}

/// Decide the turn of the rolled position `pos`: `{"bot", "moves", "score", "elapsed_ms",
/// "stats", "rootBudget"}` with `moves` the UCI micro-moves (empty for a forced pass). The
/// root enumeration is charged to a work budget derived from `time_ms`
/// ([`root_budget`]); a root over it is answered by the fast fallback
/// (`"rootBudget": {"fallback": true, ...}`) instead of the bot.
pub fn decide(pos: &Position, req: &DecisionRequest) -> Result<Value, DecisionError> {
    let bot = bot_by_id(&req.bot, &req.options).map_err(|e| DecisionError::Bot(e.to_string()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(req.threads)
        .build()
        .map_err(|e| DecisionError::Search(e.to_string()))?;
    let start = Instant::now();
    let deadline = req.time_ms.map(|ms| start + Duration::from_millis(ms));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(req.seed);
    let mut budget = root_budget(req.time_ms.map(Duration::from_millis));
    let bounded = pool
        .install(|| {
            choose_bounded(
                bot.as_ref(),
                pos,
                &mut Turn {
                    rng: &mut rng,
                    deadline,
                },
                &mut budget,
            )
        })
        .map_err(|e| DecisionError::Search(e.to_string()))?;
    let root = json!({
        "limit": budget.limit(),
        "fallback": matches!(bounded, Bounded::Fallback { .. }),
    });
    let choice = bounded.choice().clone();
    let moves: Vec<String> = choice
        .path
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .unwrap_or_default();
    Ok(json!({
        "bot": bot.info().id,
        "moves": moves,
        "score": choice.score,
        "elapsed_ms": start.elapsed().as_secs_f64() * 1e3,
        "stats": choice.stats,
        "rootBudget": root,
    }))
}
