//! Search: the transposition table, the time manager (and, built on them, expectimax,
//! Monte-Carlo equity and the bots).

pub mod bots;
mod bounded;
mod chance;
mod decision;
mod expectimax;
mod montecarlo;
mod stats;
mod time;
mod tt;
mod value;

pub use bounded::{
    choose_bounded, fallback_path, root_budget, Bounded, BoundedError, MAX_ROOT_UNITS,
    MIN_ROOT_UNITS, ROOT_UNITS_PER_MS,
};
pub use chance::{outcomes, rolls_by_weight, ChanceMode, ChanceOutcome};
pub use decision::{decide, DecisionError, DecisionRequest};
pub use expectimax::{
    transformed_root_alpha, CandidateReport, Expectimax, SearchConfig, SearchError, SearchResult,
};
pub use montecarlo::{equity, EquityEstimate, MonteCarloConfig};
pub use stats::RootSearchStats;
pub use time::{budget, budget_ms, ClockState, TimeBudget, TimePolicy, MIN_THINK_MS};
pub use tt::{Bound, Entry, TableStats, TranspositionTable};
pub use value::MAX_CHANCE_KEY_SALT;
