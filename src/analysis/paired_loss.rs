//! Runs of the equity-lost benchmark compared decision by decision (`equity-lost compare`).
//!
//! A run's loss on a decision is measured against the best turn *that run* knows: the
//! teacher's shortlist and the run's own choice ([`super::judge`]). When a bot's choice is
//! off the shortlist and the teacher values it above the shortlist's best, the bot's own
//! reference rises with it (a loss of 0), while another bot's reference on that decision
//! does not: two runs' means are taken against different references, and a bot that often
//! leaves the shortlist is measured against a harder one. Compared on the decisions every
//! run judged, against the best turn *any* of them knows, the references agree; the
//! difference of two runs' losses is then the difference of the teacher's values of their
//! chosen turns, with each decision's difficulty paired out. Measured on the committed
//! set (2,000 decisions, 200 ms a decision, this 2-core VM): `best-v1` against `best` reads
//! −0.7 ± 0.8 mWP with each run against its own reference, and +2.1 ± 0.9 mWP paired
//! (docs/analysis.md).

use super::equity_lost::{Judged, MeanLoss};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One run as `equity-lost score --json` writes it: the bot, the set and every judged
/// decision (the summary in the file is recomputed, not read).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreRun {
    /// The set file the run played, as given on its command line.
    pub set: String,
    /// The SHA-256 of the set's text (absent in files written before it was recorded).
    #[serde(default)]
    pub set_sha256: Option<String>,
    /// The bot.
    pub bot: String,
    /// Its thinking time per decision (`None`: untimed).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// The judged decisions.
    pub decisions: Vec<Judged>,
}

/// Why a score file or a comparison of runs is refused.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ScoreRunError {
    /// The text is not a score file's JSON (serde's message: the field, line and column).
    #[error("not an `equity-lost score --json` file: {0}")]
    Json(String),
    /// A decision is judged twice.
    #[error("decision {0} is judged twice")]
    Duplicate(usize),
    /// A judged decision's numbers contradict each other.
    #[error("decision {index}: {what}")]
    Value {
        /// The decision.
        index: usize,
        /// What is wrong.
        what: String,
    },
    /// Two runs played different sets.
    #[error("run {second} played another set than run {first} (set checksums differ)")]
    SetMismatch {
        /// The first run's position among those compared (0-based).
        first: usize,
        /// The other run's.
        second: usize,
    },
    /// The runs disagree on a decision's phase: they cannot have played the same set.
    #[error("decision {index}: run {run} calls it {found}, run 0 {expected}")]
    PhaseMismatch {
        /// The decision.
        index: usize,
        /// The run that disagrees.
        run: usize,
        /// The phase run 0 gives.
        expected: &'static str,
        /// The phase that run gives.
        found: &'static str,
    },
    /// No decision was judged by every run (or no run was given).
    #[error("no decision was judged by every run")]
    NothingInCommon,
}

/// A loss this far from `best − value` is a contradiction, not rounding.
const TOLERANCE: f64 = 1e-9;

impl ScoreRun {
    /// Read a score file: JSON as `equity-lost score --json` writes it, every value a win
    /// probability, every loss `best − value ≥ 0`, no decision twice.
    pub fn parse(text: &str) -> Result<ScoreRun, ScoreRunError> {
        let run: ScoreRun =
            serde_json::from_str(text).map_err(|e| ScoreRunError::Json(e.to_string()))?;
        let mut seen = std::collections::BTreeSet::new();
        for j in &run.decisions {
            if !seen.insert(j.index) {
                return Err(ScoreRunError::Duplicate(j.index));
            }
            let bad = |what: String| ScoreRunError::Value {
                index: j.index,
                what,
            };
            for (name, v) in [("value", j.value), ("best", j.best)] {
                if !(0.0..=1.0).contains(&v) {
                    return Err(bad(format!("{name} {v} is not a win probability")));
                }
            }
            if j.value > j.best + TOLERANCE || (j.loss - (j.best - j.value)).abs() > TOLERANCE {
                return Err(bad(format!(
                    "loss {} is not best {} − value {} (≥ 0)",
                    j.loss, j.best, j.value
                )));
            }
        }
        Ok(run)
    }
}

/// Two runs' difference on the decisions both judged.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairedDifference {
    /// Decisions compared.
    pub decisions: usize,
    /// Of those, the decisions where both chose the same turn.
    pub same_turn: usize,
    /// How much more the run gave away than the first, per decision, × 1000: the mean of
    /// the first's chosen value minus this run's (positive: this run is worse).
    pub milli: f64,
    /// Half-width of the 95 % interval (1.96 standard errors of the paired differences) ×
    /// 1000.
    pub ci95_milli: f64,
}

/// Runs compared on the decisions every one of them judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Decisions judged by every run.
    pub decisions: usize,
    /// Each run's loss against the best turn any run knows on those decisions.
    pub losses: Vec<MeanLoss>,
    /// Each run against the first, paired (the first's own entry is all zeros but its
    /// decisions and same-turn count).
    pub against_first: Vec<PairedDifference>,
}

/// Compare `runs` on the decisions every one judged (module documentation). Refused when
/// two runs' set checksums differ, when they give a decision different phases, or when no
/// decision is common to all.
pub fn compare(runs: &[ScoreRun]) -> Result<Comparison, ScoreRunError> {
    let known: Vec<(usize, &str)> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.set_sha256.as_deref().map(|s| (i, s)))
        .collect();
    if let Some(&(first, sha)) = known.first() {
        if let Some(&(second, _)) = known.iter().find(|(_, s)| *s != sha) {
            return Err(ScoreRunError::SetMismatch { first, second });
        }
    }
    let by_index: Vec<BTreeMap<usize, &Judged>> = runs
        .iter()
        .map(|r| r.decisions.iter().map(|j| (j.index, j)).collect())
        .collect();
    let Some(first) = by_index.first() else {
        return Err(ScoreRunError::NothingInCommon);
    };
    let mut rows: Vec<Vec<&Judged>> = Vec::new();
    for (&index, j0) in first {
        let row: Option<Vec<&Judged>> = by_index.iter().map(|m| m.get(&index).copied()).collect();
        let Some(row) = row else { continue };
        if let Some((run, j)) = row.iter().enumerate().find(|(_, j)| j.phase != j0.phase) {
            return Err(ScoreRunError::PhaseMismatch {
                index,
                run,
                expected: j0.phase.name(),
                found: j.phase.name(),
            });
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(ScoreRunError::NothingInCommon);
    }
    let reference: Vec<f64> = rows
        .iter()
        .map(|row| row.iter().map(|j| j.best).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let losses = (0..runs.len())
        .map(|r| {
            let l: Vec<f64> = rows
                .iter()
                .zip(&reference)
                .map(|(row, best)| best - row[r].value)
                .collect();
            MeanLoss::of_values(&l)
        })
        .collect();
    let against_first = (0..runs.len())
        .map(|r| {
            let d: Vec<f64> = rows.iter().map(|row| row[0].value - row[r].value).collect();
            let m = MeanLoss::of_values(&d);
            PairedDifference {
                decisions: m.decisions,
                same_turn: rows
                    .iter()
                    .filter(|row| row[0].moves == row[r].moves)
                    .count(),
                milli: m.milli,
                ci95_milli: m.ci95_milli,
            }
        })
        .collect();
    Ok(Comparison {
        decisions: rows.len(),
        losses,
        against_first,
    })
}
