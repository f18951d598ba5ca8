//! Thinking time per bot: a [`Bot`] wrapper that times every decision, so that an arena
//! report can show whether two bots really thought for comparable times (a bot that answers
//! in 5 ms under a 200 ms control is not using its budget; one whose mean sits at the budget
//! is limited by it).

use crate::board::Position;
use crate::bots::{Bot, BotError, BotInfo, Choice, DrawDoublePolicy, Turn};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
// `std::time::Instant` natively; the wasm32 build's clock too (Cargo.toml).
use web_time::Instant;

/// Decisions timed and their total and longest time, µs (integers, so that outcomes stay
/// comparable with `Eq`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThinkTime {
    /// Decisions (turns on which the bot was asked).
    pub turns: u64,
    /// Their total wall time, µs.
    pub total_us: u64,
    /// The longest one, µs.
    pub max_us: u64,
}

impl ThinkTime {
    /// The sum of two tallies (turns and totals add; the maximum is the larger).
    pub fn merge(self, other: ThinkTime) -> ThinkTime {
        ThinkTime {
            turns: self.turns + other.turns,
            total_us: self.total_us + other.total_us,
            max_us: self.max_us.max(other.max_us),
        }
    }

    /// Mean time per decision, ms (0 with no decisions).
    pub fn mean_ms(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            self.total_us as f64 / self.turns as f64 / 1000.0
        }
    }

    /// The longest decision, ms.
    pub fn max_ms(&self) -> f64 {
        self.max_us as f64 / 1000.0
    }
}

/// A bot whose every [`Bot::choose`] is timed (wall clock, around the whole call).
pub struct TimedBot<'a> {
    inner: &'a dyn Bot,
    turns: AtomicU64,
    total_us: AtomicU64,
    max_us: AtomicU64,
}

impl<'a> TimedBot<'a> {
    /// Time `inner`.
    pub fn new(inner: &'a dyn Bot) -> TimedBot<'a> {
        TimedBot {
            inner,
            turns: AtomicU64::new(0),
            total_us: AtomicU64::new(0),
            max_us: AtomicU64::new(0),
        }
    }

    /// The tally so far.
    pub fn think_time(&self) -> ThinkTime {
        ThinkTime {
            turns: self.turns.load(Ordering::Relaxed),
            total_us: self.total_us.load(Ordering::Relaxed),
            max_us: self.max_us.load(Ordering::Relaxed),
        }
    }
}

impl Bot for TimedBot<'_> {
    fn info(&self) -> BotInfo {
        self.inner.info()
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let began = Instant::now();
        let choice = self.inner.choose(pos, turn);
        let us = began.elapsed().as_micros() as u64;
        self.turns.fetch_add(1, Ordering::Relaxed);
        self.total_us.fetch_add(us, Ordering::Relaxed);
        self.max_us.fetch_max(us, Ordering::Relaxed);
        choice
    }

    fn policy(&self) -> DrawDoublePolicy {
        self.inner.policy()
    }
}

/// A tally as reported: decisions, mean and longest time, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThinkSummary {
    /// Decisions timed.
    pub turns: u64,
    /// Mean per decision, ms.
    pub mean_ms: f64,
    /// Longest decision, ms.
    pub max_ms: f64,
}

impl From<ThinkTime> for ThinkSummary {
    fn from(t: ThinkTime) -> ThinkSummary {
        ThinkSummary {
            turns: t.turns,
            mean_ms: t.mean_ms(),
            max_ms: t.max_ms(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_turns_and_totals_and_keeps_the_longest() {
        let a = ThinkTime {
            turns: 2,
            total_us: 3_000,
            max_us: 2_500,
        };
        let b = ThinkTime {
            turns: 1,
            total_us: 4_000,
            max_us: 4_000,
        };
        let m = a.merge(b);
        assert_eq!(m.turns, 3);
        assert_eq!(m.total_us, 7_000);
        assert_eq!(m.max_us, 4_000);
        assert!((m.mean_ms() - 7.0 / 3.0).abs() < 1e-12);
        assert_eq!(ThinkTime::default().mean_ms(), 0.0);
    }
}
