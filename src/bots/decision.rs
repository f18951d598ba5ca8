//! One decision by any registered bot, as the JSON `dicechess bestmove` prints and the
//! Python package's `dicechess.bestmove` returns.

use super::bounded::{choose_bounded, root_budget, Bounded, BoundedError};
use super::{bot_by_id, Bot, BotBuildError, BotOptions, Turn};
use crate::board::Position;
use crate::rules::TurnPath;
use crate::search::RootSearchStats;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use std::time::Duration;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// What to decide with.
#[derive(Clone, Debug, Default)]
pub struct DecisionRequest {
    /// The bot's registry id (`bots::BOT_IDS`).
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
    Bot(#[from] BotBuildError),
    /// The worker pool could not be started.
    #[error("worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The bot or its bounded root check failed.
    #[error("{0}")]
    Search(#[from] BoundedError),
}

/// The root work budget a decision ran under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RootBudgetReport {
    /// The budget's limit in work units.
    pub limit: u64,
    /// Whether the root did not fit and the fast fallback answered instead of the bot.
    pub fallback: bool,
}

/// One decision, as `dicechess bestmove` prints it (JSON, in this field order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decision {
    /// The id of the bot that decided.
    pub bot: String,
    /// The UCI micro-moves of the turn; empty for a forced pass.
    pub moves: Vec<String>,
    /// The bot's score for the turn, on its own scale.
    pub score: f64,
    /// Wall time of the decision, ms.
    pub elapsed_ms: f64,
    /// Search statistics (searching bots; `null` otherwise).
    pub stats: Option<RootSearchStats>,
    /// The root work budget.
    #[serde(rename = "rootBudget")]
    pub root_budget: RootBudgetReport,
    /// The turn itself (not serialised: `moves` spells it).
    #[serde(skip)]
    pub path: Option<TurnPath>,
}

/// Decide the turn of the rolled position `pos` with the bot `req` names. The root
/// enumeration is charged to a work budget derived from `time_ms` ([`root_budget`]); a root
/// over it is answered by the fast fallback (`root_budget.fallback`) instead of the bot.
pub fn decide(pos: &Position, req: &DecisionRequest) -> Result<Decision, DecisionError> {
    let bot = bot_by_id(&req.bot, &req.options)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(req.threads)
        .build()?;
    Ok(pool.install(|| decide_with(bot.as_ref(), pos, req.time_ms, req.seed))?)
}

/// [`decide`] with a bot already built, on the caller's rayon pool: what a caller deciding
/// many positions with one bot uses (the equity-lost benchmark), so that neither the bot
/// nor a pool is built per decision. The clock starts here.
pub fn decide_with(
    bot: &dyn Bot,
    pos: &Position,
    time_ms: Option<u64>,
    seed: u64,
) -> Result<Decision, BoundedError> {
    let start = Instant::now();
    let deadline = time_ms.map(|ms| start + Duration::from_millis(ms));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut budget = root_budget(time_ms.map(Duration::from_millis));
    let bounded = choose_bounded(
        bot,
        pos,
        &mut Turn {
            rng: &mut rng,
            deadline,
        },
        &mut budget,
    )?;
    let fallback = matches!(bounded, Bounded::Fallback { .. });
    let choice = bounded.choice().clone();
    Ok(Decision {
        bot: bot.info().id,
        moves: choice
            .path
            .map(|p| p.moves().iter().map(|m| m.uci()).collect())
            .unwrap_or_default(),
        score: choice.score,
        elapsed_ms: start.elapsed().as_secs_f64() * 1e3,
        stats: choice.stats,
        root_budget: RootBudgetReport {
            limit: budget.limit(),
            fallback,
        },
        path: choice.path,
    })
}
