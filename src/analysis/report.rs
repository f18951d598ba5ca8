//! What an analysis says: one record per turn ([`TurnAnalysis`], the `--json` line), one
//! summary per player ([`PlayerSummary`]) and the game with both ([`GameAnalysis`]).

use super::classify::{LuckClass, TurnClass};
use serde::{Deserialize, Serialize};

/// One turn, analysed. Equities are the mover's win probability (0–1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnAnalysis {
    /// The game's id.
    pub game_id: String,
    /// 1-based.
    pub turn_number: u32,
    /// `w` or `b`.
    pub active_color: String,
    /// The rolled faces as recorded.
    pub dice: Vec<u8>,
    /// The micro-moves played (UCI; empty for a pass).
    pub moves: Vec<String>,
    /// Depth-1 equity before the roll: the 56 rolls' best turns, weighted.
    pub equity_before: f64,
    /// Depth-1 equity after the roll: this roll's best turn.
    pub equity_after_roll: f64,
    /// `equityAfterRoll − equityBefore` (its mean over the 56 rolls is 0).
    pub luck: f64,
    /// The roll's class by [`crate::analysis::LUCK_THRESHOLDS`].
    pub luck_class: LuckClass,
    /// The best turn at the analysis depth (UCI; empty for a pass).
    pub best_moves: Vec<String>,
    /// Its equity.
    pub best_equity: f64,
    /// The played turn's equity at the same depth.
    pub played_equity: f64,
    /// `bestEquity − playedEquity` (≥ 0; 0 for a forced turn).
    pub error: f64,
    /// The decision's class by [`crate::analysis::ERROR_THRESHOLDS`].
    pub class: TurnClass,
    /// Distinct turns the roll allowed (transpositions count once).
    pub candidates: usize,
    /// Of them, valued at the analysis depth.
    pub valued: usize,
    /// Probability that the opponent captures the mover's king on its next roll after the
    /// played turn (exact, `probe::king_capture_probability`).
    pub king_risk: f64,
    /// The same after the best turn.
    pub best_king_risk: f64,
    /// The position before the roll (DFEN, no dice).
    pub fen_before: String,
    /// The position after the played turn.
    pub fen_after: String,
}

/// One of a player's worst decisions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorstTurn {
    /// Its turn number.
    pub turn_number: u32,
    /// What it gave away.
    pub error: f64,
    /// Its class.
    pub class: TurnClass,
}

/// One player's game in numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerSummary {
    /// `w` or `b`.
    pub color: String,
    /// The name the record gives.
    pub name: String,
    /// Turns played.
    pub turns: usize,
    /// Of them, decisions (not forced).
    pub decisions: usize,
    /// Sum of the errors.
    pub total_error: f64,
    /// Total error per decision (0 without decisions).
    pub mean_error: f64,
    /// Decisions marked doubtful, bad and very bad.
    pub doubtful: usize,
    /// See `doubtful`.
    pub bad: usize,
    /// See `doubtful`.
    pub very_bad: usize,
    /// The three largest errors, largest first (only errors above 0).
    pub worst: Vec<WorstTurn>,
    /// Sum of the player's luck.
    pub total_luck: f64,
    /// The result for the player: 1 won, 0.5 drawn, 0 lost; `None` when aborted.
    pub result: Option<f64>,
    /// `result − (own luck − the opponent's luck)`: what the game would have scored with
    /// average dice on both sides (GNU Backgammon's luck-adjusted result).
    pub luck_adjusted_result: Option<f64>,
}

/// A game, analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameAnalysis {
    /// The game's id.
    pub game_id: String,
    /// The start position.
    pub initial_dfen: String,
    /// White's view: 1, 0, −1; `None` when aborted.
    pub result: Option<i8>,
    /// How it ended.
    pub termination: String,
    /// The evaluator the equities come from.
    pub evaluator: String,
    /// The depth of `bestEquity`/`playedEquity` (1 or 2).
    pub depth: u8,
    /// Every turn.
    pub turns: Vec<TurnAnalysis>,
    /// White's summary.
    pub white: PlayerSummary,
    /// Black's summary.
    pub black: PlayerSummary,
}

impl GameAnalysis {
    /// White's win probability after each turn (the played turn's equity at the analysis
    /// depth, in White's view): the equity graph.
    pub fn white_equity_curve(&self) -> Vec<f64> {
        self.turns
            .iter()
            .map(|t| white_view(&t.active_color, t.played_equity))
            .collect()
    }
}

/// `p` of `color`'s view in White's.
pub fn white_view(color: &str, p: f64) -> f64 {
    if color == "w" {
        p
    } else {
        1.0 - p
    }
}

/// The summaries of both players from the turns.
pub(super) fn summarize(
    turns: &[TurnAnalysis],
    result: Option<i8>,
    names: (&str, &str),
) -> (PlayerSummary, PlayerSummary) {
    let luck_of = |c: &str| -> f64 {
        turns
            .iter()
            .filter(|t| t.active_color == c)
            .map(|t| t.luck)
            .sum()
    };
    let one = |color: &str, name: &str| {
        let mine: Vec<&TurnAnalysis> = turns.iter().filter(|t| t.active_color == color).collect();
        let decisions = mine.iter().filter(|t| t.class != TurnClass::Forced).count();
        let total_error: f64 = mine.iter().map(|t| t.error).sum();
        let count = |c: TurnClass| mine.iter().filter(|t| t.class == c).count();
        let mut worst: Vec<WorstTurn> = mine
            .iter()
            .filter(|t| t.error > 0.0)
            .map(|t| WorstTurn {
                turn_number: t.turn_number,
                error: t.error,
                class: t.class,
            })
            .collect();
        worst.sort_by(|a, b| b.error.total_cmp(&a.error));
        worst.truncate(3);
        let own_luck = luck_of(color);
        let their_luck = luck_of(if color == "w" { "b" } else { "w" });
        let score = result.map(|r| {
            let white = (f64::from(r) + 1.0) / 2.0;
            if color == "w" {
                white
            } else {
                1.0 - white
            }
        });
        PlayerSummary {
            color: color.to_owned(),
            name: name.to_owned(),
            turns: mine.len(),
            decisions,
            total_error,
            mean_error: if decisions > 0 {
                total_error / decisions as f64
            } else {
                0.0
            },
            doubtful: count(TurnClass::Doubtful),
            bad: count(TurnClass::Bad),
            very_bad: count(TurnClass::VeryBad),
            worst,
            total_luck: own_luck,
            result: score,
            luck_adjusted_result: score.map(|s| s - (own_luck - their_luck)),
        }
    };
    (one("w", names.0), one("b", names.1))
}
