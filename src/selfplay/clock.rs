//! How long bots may think in a game: no limit, a fixed time per turn, or a clock per side
//! run by the time manager ([`GameClock`], the game loop's optional clock).

use crate::board::Position;
use crate::search::{budget_ms, ClockState, TimePolicy};
use dicechess_kernels::Color;
use serde::Serialize;
use std::time::Duration;
// `std::time::Instant` natively; the bots' deadline type on wasm32 too (Cargo.toml).
use web_time::Instant;

/// Transport and scheduling overhead subtracted from each clock budget, ms.
pub const CLOCK_OVERHEAD_MS: u64 = 50;

/// How long bots may think.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum TimeControl {
    /// No clock and no deadline: results depend only on the seeds.
    Untimed,
    /// A fixed deadline per turn, ms; no clock, no flags.
    PerMove {
        /// Think time per turn, ms.
        ms: u64,
    },
    /// A game clock per side: `base_ms` plus `increment_ms` per turn; the deadline of each
    /// turn comes from the time manager; a side whose clock runs out loses.
    Clock {
        /// Initial time, ms.
        base_ms: u64,
        /// Increment per turn, ms.
        increment_ms: u64,
    },
}

/// Why a `--tc` text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not `minutes[+increment seconds]` with non-negative numbers.
    #[error("--tc {0:?}: expected minutes[+increment seconds]")]
    Syntax(String),
    /// The base time is 0.
    #[error("--tc {0:?}: the base time must be positive")]
    ZeroBase(String),
}

impl TimeControl {
    /// Read `minutes[+increment seconds]`, e.g. `1+0`, `3+2`, `0.5`.
    pub fn parse_tc(text: &str) -> Result<TimeControl, TimeControlError> {
        let (m, i) = match text.split_once('+') {
            Some((m, i)) => (m, i),
            None => (text, "0"),
        };
        let num = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| TimeControlError::Syntax(text.into()))
        };
        let (m, i) = (num(m)?, num(i)?);
        if m <= 0.0 {
            return Err(TimeControlError::ZeroBase(text.into()));
        }
        Ok(TimeControl::Clock {
            base_ms: (m * 60_000.0).round() as u64,
            increment_ms: (i * 1000.0).round() as u64,
        })
    }
}

/// One game's clocks under a [`TimeControl`]: the deadline of each turn and, on a clock, the
/// time left per side.
#[derive(Clone, Copy, Debug)]
pub struct GameClock {
    time: TimeControl,
    /// Time left per side, ms (a clock only); below 0 the side has flagged.
    left_ms: [i64; 2],
    increment_ms: i64,
}

impl GameClock {
    /// Both sides' clocks at the start of a game.
    pub fn new(time: TimeControl) -> GameClock {
        let (base, increment) = match time {
            TimeControl::Clock {
                base_ms,
                increment_ms,
            } => (base_ms as i64, increment_ms as i64),
            _ => (0, 0),
        };
        GameClock {
            time,
            left_ms: [base, base],
            increment_ms: increment,
        }
    }

    /// The deadline of `mover`'s turn at `pos` begun at `began` (`None` untimed).
    pub fn deadline(&self, mover: Color, pos: &Position, began: Instant) -> Option<Instant> {
        let think_ms = match self.time {
            TimeControl::Untimed => return None,
            TimeControl::PerMove { ms } => ms,
            TimeControl::Clock { .. } => budget_ms(
                &ClockState {
                    remaining_ms: self.left_ms[mover.index()].max(0) as u64,
                    increment_ms: self.increment_ms as u64,
                    move_number: pos.fullmove(),
                    moves_to_go: None,
                },
                TimePolicy::EmpiricalV1,
                CLOCK_OVERHEAD_MS,
            ),
        };
        Some(began + Duration::from_millis(think_ms))
    }

    /// Charge `mover` for a turn begun at `began`; false when its clock ran out (it loses on
    /// time). Without a clock every turn is in time.
    pub fn charge(&mut self, mover: Color, began: Instant) -> bool {
        if let TimeControl::Clock { .. } = self.time {
            let spent = began.elapsed().as_millis() as i64;
            let left = &mut self.left_ms[mover.index()];
            *left -= spent;
            if *left < 0 {
                return false;
            }
            *left += self.increment_ms;
        }
        true
    }
}
