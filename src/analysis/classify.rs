//! How an error and a roll's luck are named, after GNU Backgammon's thresholds.
//!
//! GNU Backgammon marks a move doubtful, bad or very bad when it gives away at least 0.04,
//! 0.08 or 0.16 of (normalised, cubeless) equity, and a roll lucky or very lucky (unlucky,
//! very unlucky) at ±0.3 and ±0.6. Its equity is `P(win) − P(loss)`, which for a game
//! without gammons is `2p − 1`: a difference of `Δ` in equity is `Δ / 2` in the win
//! probability `p` these reports use. So the thresholds here are half of GNU Backgammon's:
//! errors 0.02, 0.04 and 0.08 of `p`, luck ±0.15 and ±0.3.

use serde::{Deserialize, Serialize};

/// Error thresholds (in win probability): doubtful, bad, very bad.
pub const ERROR_THRESHOLDS: [f64; 3] = [0.02, 0.04, 0.08];

/// Luck thresholds (in win probability): lucky, very lucky (negated: unlucky, very unlucky).
pub const LUCK_THRESHOLDS: [f64; 2] = [0.15, 0.3];

/// What a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TurnClass {
    /// One turn only (or a pass): no decision, error 0 by definition.
    Forced,
    /// The best turn (error 0).
    Best,
    /// Within [`ERROR_THRESHOLDS`]`[0]` of the best.
    Good,
    /// At least 0.02 given away.
    Doubtful,
    /// At least 0.04.
    Bad,
    /// At least 0.08.
    VeryBad,
}

impl TurnClass {
    /// The class of a decision that gave away `error` (≥ 0).
    pub fn of(error: f64, forced: bool) -> TurnClass {
        if forced {
            TurnClass::Forced
        } else if error <= 0.0 {
            TurnClass::Best
        } else if error < ERROR_THRESHOLDS[0] {
            TurnClass::Good
        } else if error < ERROR_THRESHOLDS[1] {
            TurnClass::Doubtful
        } else if error < ERROR_THRESHOLDS[2] {
            TurnClass::Bad
        } else {
            TurnClass::VeryBad
        }
    }

    /// The JSON name (`veryBad`, …).
    pub fn name(self) -> &'static str {
        match self {
            TurnClass::Forced => "forced",
            TurnClass::Best => "best",
            TurnClass::Good => "good",
            TurnClass::Doubtful => "doubtful",
            TurnClass::Bad => "bad",
            TurnClass::VeryBad => "veryBad",
        }
    }

    /// Whether the report marks it (doubtful or worse).
    pub fn marked(self) -> bool {
        matches!(
            self,
            TurnClass::Doubtful | TurnClass::Bad | TurnClass::VeryBad
        )
    }
}

/// How lucky a roll was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LuckClass {
    /// At most −0.3.
    VeryUnlucky,
    /// At most −0.15.
    Unlucky,
    /// Between.
    Normal,
    /// At least 0.15.
    Lucky,
    /// At least 0.3.
    VeryLucky,
}

impl LuckClass {
    /// The class of a roll whose luck is `luck`.
    pub fn of(luck: f64) -> LuckClass {
        if luck >= LUCK_THRESHOLDS[1] {
            LuckClass::VeryLucky
        } else if luck >= LUCK_THRESHOLDS[0] {
            LuckClass::Lucky
        } else if luck <= -LUCK_THRESHOLDS[1] {
            LuckClass::VeryUnlucky
        } else if luck <= -LUCK_THRESHOLDS[0] {
            LuckClass::Unlucky
        } else {
            LuckClass::Normal
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_half_of_gnu_backgammons() {
        // GNU Backgammon's equity thresholds 0.04 / 0.08 / 0.16 and luck 0.3 / 0.6, in 2p − 1.
        for (ours, gnubg) in ERROR_THRESHOLDS.iter().zip([0.04, 0.08, 0.16]) {
            assert_eq!(*ours, gnubg / 2.0);
        }
        for (ours, gnubg) in LUCK_THRESHOLDS.iter().zip([0.3, 0.6]) {
            assert_eq!(*ours, gnubg / 2.0);
        }
    }

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(TurnClass::of(0.5, true), TurnClass::Forced);
        assert_eq!(TurnClass::of(0.0, false), TurnClass::Best);
        assert_eq!(TurnClass::of(0.019, false), TurnClass::Good);
        assert_eq!(TurnClass::of(0.02, false), TurnClass::Doubtful);
        assert_eq!(TurnClass::of(0.04, false), TurnClass::Bad);
        assert_eq!(TurnClass::of(0.08, false), TurnClass::VeryBad);
        assert_eq!(LuckClass::of(0.3), LuckClass::VeryLucky);
        assert_eq!(LuckClass::of(-0.15), LuckClass::Unlucky);
        assert_eq!(LuckClass::of(0.1), LuckClass::Normal);
    }
}
