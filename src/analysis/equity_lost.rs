//! A bot's equity lost on the benchmark set ([`DecisionSet`]): each decision's chosen turn
//! valued by the teacher at depth 3 against the best turn the teacher knows, averaged.
//!
//! The teacher's best is the best of its shortlist and the chosen turn (a turn off the
//! shortlist is valued on demand, as GNU Backgammon's analysis always evaluates the played
//! move at the analysis ply), so a loss is never negative and a turn the teacher valued is
//! never valued twice.

use super::classify::ERROR_THRESHOLDS;
use super::decision_set::{BenchDecision, Phase, Teacher};
use super::AnalysisError;
use crate::board::Position;
use crate::bots::{decide_with, Bot};
use serde::{Deserialize, Serialize};

/// One decision as a bot played it, judged by the teacher.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Judged {
    /// The decision's index in the set.
    pub index: usize,
    /// Its phase.
    pub phase: Phase,
    /// The chosen turn (UCI micro-moves; empty for a pass).
    pub moves: Vec<String>,
    /// The teacher's depth-3 win probability of the chosen turn.
    pub value: f64,
    /// The teacher's best: the best of its shortlist and the chosen turn.
    pub best: f64,
    /// `best − value` (≥ 0): the win probability the choice gave away.
    pub loss: f64,
    /// Whether the chosen turn is the teacher's best.
    pub matched: bool,
    /// Whether the chosen turn was off the shortlist (valued on demand).
    pub off_list: bool,
    /// The bot's thinking time, ms.
    pub think_ms: f64,
}

/// Judge the afterstate `after` that a bot chose at `decision` (whose rolled position is
/// `rolled`), valued by `teacher`; `think_ms` is recorded as given.
pub fn judge(
    decision: &BenchDecision,
    after: &Position,
    moves: Vec<String>,
    think_ms: f64,
    teacher: &Teacher,
) -> Result<Judged, AnalysisError> {
    judge_with(decision, after, moves, think_ms, |a| teacher.depth3(a))
}

/// [`judge`] with the teacher's value of an off-list turn asked of `off_list` (a cache in
/// front of [`Teacher::depth3`], say); it is called at most once, and only for a turn the
/// shortlist does not hold.
pub fn judge_with(
    decision: &BenchDecision,
    after: &Position,
    moves: Vec<String>,
    think_ms: f64,
    off_list: impl FnOnce(&Position) -> Result<f64, AnalysisError>,
) -> Result<Judged, AnalysisError> {
    let mut listed = None;
    let mut best = f64::NEG_INFINITY;
    let mut best_key = None;
    for t in &decision.teacher {
        let key = Position::from_dfen(&t.after)
            .map_err(|e| AnalysisError::Config(format!("decision {}: {e}", decision.index)))?
            .key();
        if key == after.key() {
            listed = Some(t.depth3);
        }
        if t.depth3 > best {
            best = t.depth3;
            best_key = Some(key);
        }
    }
    let value = match listed {
        Some(v) => v,
        None => off_list(after)?,
    };
    let matched = value >= best || best_key == Some(after.key());
    let best = best.max(value);
    Ok(Judged {
        index: decision.index,
        phase: decision.phase,
        moves,
        value,
        best,
        loss: best - value,
        matched,
        off_list: listed.is_none(),
        think_ms,
    })
}

/// Play `decision` with `bot` (thinking at most `time_ms`, seeded by `seed` and the
/// decision's index, on the caller's rayon pool) and judge its turn, asking `off_list` for
/// the teacher's value of a turn off the shortlist ([`judge_with`]; `|a|
/// teacher.depth3(a)` without a cache).
pub fn play_and_judge(
    bot: &dyn Bot,
    decision: &BenchDecision,
    time_ms: Option<u64>,
    seed: u64,
    off_list: impl FnOnce(&Position) -> Result<f64, AnalysisError>,
) -> Result<Judged, AnalysisError> {
    let rolled = Position::from_dfen(&decision.dfen)
        .map_err(|e| AnalysisError::Config(format!("decision {}: {e}", decision.index)))?;
    let seed = seed ^ (decision.index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let d = decide_with(bot, &rolled, time_ms, seed)?;
    let after = match d.path {
        Some(p) => p.end_position(&rolled),
        None => rolled.end_turn(),
    };
    judge_with(decision, &after, d.moves, d.elapsed_ms, off_list)
}

/// Mean loss, in thousandths of a win probability, with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeanLoss {
    /// Decisions.
    pub decisions: usize,
    /// Mean loss per decision × 1000.
    pub milli: f64,
    /// Half-width of the 95 % interval (1.96 standard errors) × 1000.
    pub ci95_milli: f64,
}

impl MeanLoss {
    fn of<'a>(judged: impl Iterator<Item = &'a Judged>) -> MeanLoss {
        let losses: Vec<f64> = judged.map(|j| j.loss).collect();
        MeanLoss::of_values(&losses)
    }

    /// The mean of `losses` (win probabilities) and its interval, in thousandths.
    pub(crate) fn of_values(losses: &[f64]) -> MeanLoss {
        let n = losses.len();
        if n == 0 {
            return MeanLoss {
                decisions: 0,
                milli: 0.0,
                ci95_milli: 0.0,
            };
        }
        let mean = losses.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            losses.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        MeanLoss {
            decisions: n,
            milli: mean * 1e3,
            ci95_milli: 1.96 * (var / n as f64).sqrt() * 1e3,
        }
    }
}

/// A bot's result on the set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EquityLostSummary {
    /// Over every decision.
    pub all: MeanLoss,
    /// Per phase, in game order (phases without decisions left out).
    pub phases: Vec<(Phase, MeanLoss)>,
    /// Share of decisions where the bot chose the teacher's best.
    pub agreement: f64,
    /// Decisions that gave away at least 0.02, 0.04 and 0.08 (doubtful, bad, very bad:
    /// GNU Backgammon's thresholds on the win probability, `analysis::ERROR_THRESHOLDS`).
    pub errors: [usize; 3],
    /// Chosen turns off the teacher's shortlist (valued on demand).
    pub off_list: usize,
    /// Mean thinking time, ms.
    pub mean_think_ms: f64,
    /// Longest thinking time, ms.
    pub max_think_ms: f64,
}

/// Summarise judged decisions.
pub fn summarize_losses(judged: &[Judged]) -> EquityLostSummary {
    let n = judged.len().max(1) as f64;
    let mut errors = [0usize; 3];
    for j in judged {
        for (slot, t) in errors.iter_mut().zip(ERROR_THRESHOLDS) {
            if j.loss >= t {
                *slot += 1;
            }
        }
    }
    EquityLostSummary {
        all: MeanLoss::of(judged.iter()),
        phases: Phase::ALL
            .iter()
            .map(|&p| (p, MeanLoss::of(judged.iter().filter(|j| j.phase == p))))
            .filter(|(_, m)| m.decisions > 0)
            .collect(),
        agreement: judged.iter().filter(|j| j.matched).count() as f64 / n,
        errors,
        off_list: judged.iter().filter(|j| j.off_list).count(),
        mean_think_ms: judged.iter().map(|j| j.think_ms).sum::<f64>() / n,
        max_think_ms: judged.iter().map(|j| j.think_ms).fold(0.0, f64::max),
    }
}
