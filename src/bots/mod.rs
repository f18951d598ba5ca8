//! Bots: every player a user can pick, behind one trait ([`Bot`]) and one registry
//! ([`bot_by_id`], docs/search.md §2), built on the search and the evaluators below them;
//! the bounded root check every outside decision goes through ([`choose_bounded`]) and the
//! one-decision call of `dicechess bestmove` ([`decide`]).

mod book;
mod bot;
mod bounded;
mod decision;
mod error;
mod heuristic;
mod policy;
mod registry;
mod resign;
mod searching;
mod shipped_model;

pub use book::{BookError, OpeningBook, OpeningBookBot};
pub(crate) use bot::exposed;
pub use bot::{first_shortest_win, Bot, BotInfo, Choice, Turn};
pub use bounded::{
    choose_bounded, fallback_path, fast_bounded, root_budget, Bounded, BoundedError,
    FAST_ROOT_UNITS, MAX_ROOT_UNITS, MIN_ROOT_UNITS, ROOT_UNITS_PER_MS,
};
pub use decision::{
    decide, decide_with, Decision, DecisionError, DecisionRequest, RootBudgetReport,
};
pub use error::BotError;
pub use heuristic::{CheckmateAware, Greedy, GreedyTerms, RandomBot, RandomKingCapture};
pub use policy::{dead_draw, win_probability, DrawDoublePolicy};
pub use registry::{
    bot_by_id, is_registered, registry, BotBuildError, BotId, BotOptions, BEST_CANDIDATE_LIMIT,
    BEST_NET_D3_WIDEST, BOT_IDS,
};
pub use resign::ResignPolicy;
pub use searching::{Deepening, ExpectimaxBot, MonteCarloBot, DEEPEN_TIME_RATIO, WARM_UP_POSITION};
pub use shipped_model::{shipped_model, shipped_package, SHIPPED_MODEL_DIR};
