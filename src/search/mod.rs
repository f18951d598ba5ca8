//! Search: the transposition table, the time manager (and, built on them, expectimax,
//! Monte-Carlo equity and the bots).

pub mod time;
pub mod tt;

pub use time::{budget, budget_ms, ClockState, TimeBudget, TimePolicy};
pub use tt::{Bound, Entry, TableStats, TranspositionTable};
