//! The time manager (docs/search.md §6): how long to think for one turn.

/// A player's clock at its turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockState {
    /// Time left, ms.
    pub remaining_ms: u64,
    /// Increment per turn, ms.
    pub increment_ms: u64,
    /// The DFEN full-move number.
    pub move_number: u32,
    /// Turns to go until the next time control, if the control says.
    pub moves_to_go: Option<f64>,
}

/// The think time for one turn: aim for `target_ms`, never exceed `hard_cap_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Intended think time, ms.
    pub target_ms: u64,
    /// Never think longer, ms.
    pub hard_cap_ms: u64,
}

/// How many own turns remain, when the control does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimePolicy {
    /// Piecewise-linear over measured game lengths (the default).
    EmpiricalV1,
    /// `max(12, 30 − move)`.
    LegacyLinearV1,
}

/// Knots of `empirical-v1`: (move number, expected own turns left), from 1,459,949 games.
const EMPIRICAL_KNOTS: [(f64, f64); 9] = [
    (1.0, 7.517),
    (3.0, 6.017),
    (5.0, 5.471),
    (8.0, 5.176),
    (10.0, 5.136),
    (15.0, 5.431),
    (20.0, 6.185),
    (30.0, 8.830),
    (40.0, 12.050),
];

impl TimePolicy {
    /// Expected own turns left at `move_number`.
    pub fn moves_to_go(self, move_number: u32) -> f64 {
        match self {
            TimePolicy::LegacyLinearV1 => (30.0 - move_number as f64).max(12.0),
            TimePolicy::EmpiricalV1 => {
                let t = (move_number.max(1)) as f64;
                let (first, last) = (
                    EMPIRICAL_KNOTS[0],
                    EMPIRICAL_KNOTS[EMPIRICAL_KNOTS.len() - 1],
                );
                if t <= first.0 {
                    return first.1;
                }
                if t >= last.0 {
                    return last.1;
                }
                let i = EMPIRICAL_KNOTS
                    .iter()
                    .position(|k| k.0 >= t)
                    .unwrap_or(1)
                    .max(1);
                let (a, b) = (EMPIRICAL_KNOTS[i - 1], EMPIRICAL_KNOTS[i]);
                a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0)
            }
        }
    }
}

/// Reserve floor, ms.
pub const RESERVE_FLOOR_MS: u64 = 300;
/// Never think less, ms.
pub const MIN_THINK_MS: u64 = 20;
/// Below this much spendable time, ms, think at most [`PANIC_BUDGET_MS`].
pub const PANIC_THRESHOLD_MS: u64 = 2000;
/// The panic clamp, ms.
pub const PANIC_BUDGET_MS: u64 = 200;

/// The budget for one turn (docs/search.md §6): keep a reserve of
/// `max(300, 5 %)`, spread the rest over the expected turns left plus the increment, cap at
/// 20 % of the clock, clamp to 200 ms when under 2 s are spendable, never below 20 ms.
pub fn budget(clock: &ClockState, policy: TimePolicy) -> TimeBudget {
    let remaining = clock.remaining_ms;
    let reserve = RESERVE_FLOOR_MS.max(remaining / 20);
    let spendable = remaining.saturating_sub(reserve);
    let mtg = clock
        .moves_to_go
        .unwrap_or_else(|| policy.moves_to_go(clock.move_number));
    let mtg = if mtg.is_finite() { mtg.max(1.0) } else { 1.0 };
    let raw = (clock.increment_ms as f64 + spendable as f64 / mtg).floor() as u64;
    let hard_cap = MIN_THINK_MS.max(remaining / 5);
    let capped = raw.max(MIN_THINK_MS).min(hard_cap);
    let target = if spendable <= PANIC_THRESHOLD_MS {
        MIN_THINK_MS.max(capped.min(PANIC_BUDGET_MS))
    } else {
        capped
    };
    TimeBudget {
        target_ms: target,
        hard_cap_ms: hard_cap,
    }
}

/// The think time after subtracting a fixed `overhead_ms` (transport, scheduling):
/// `max(20, min(target, hard cap) − overhead)`.
pub fn budget_ms(clock: &ClockState, policy: TimePolicy, overhead_ms: u64) -> u64 {
    let b = budget(clock, policy);
    MIN_THINK_MS.max(b.target_ms.min(b.hard_cap_ms).saturating_sub(overhead_ms))
}
