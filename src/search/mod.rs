//! Search: expectimax over leaf batches, the transposition table, Monte-Carlo equity and
//! the time manager (the bots built on them are one floor up, in `crate::bots`).

mod chance;
mod expectimax;
mod label;
mod montecarlo;
mod stats;
mod time;
mod tt;
mod value;

pub use chance::{outcomes, rolls_by_weight, ChanceMode, ChanceOutcome};
pub use expectimax::{
    transformed_root_alpha, CandidateReport, Expectimax, SearchConfig, SearchError, SearchResult,
};
pub use label::{
    default_work_units, roll_dice, CandidateLabel, LabelError, LabelKind, Labeller, PerRoll, TopK,
    Work, EXPANSION_UNITS, LABEL_LOSS, LABEL_WIN,
};
pub use montecarlo::{equity, EquityEstimate, MonteCarloConfig};
pub use stats::RootSearchStats;
pub use time::{budget, budget_ms, ClockState, TimeBudget, TimePolicy, MIN_THINK_MS};
pub use tt::{Bound, Entry, TableStats, TranspositionTable};
pub use value::MAX_CHANCE_KEY_SALT;
