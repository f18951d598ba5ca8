//! The equity-lost benchmark set (docs/analysis.md, "Equity lost against a deeper teacher"):
//! fixed rolled decisions, each with its teacher's shortlist of turns valued one ply deeper
//! than the bots search, so that any bot (or a learned net's generation) is scored by the
//! mean equity it gives away per decision — an opponent-independent measure, as backgammon
//! programs report it.
//!
//! The file is JSON lines: a [`SetHeader`] line, then one [`BenchDecision`] per line.
//! Reading it is [`DecisionSet::parse`], which checks every field and names the line of the
//! first one that is wrong.

use super::leaf::{ProbabilityLeaf, Scale};
use super::AnalysisError;
use crate::board::Position;
use crate::eval::{score_to_win_probability, BatchEvaluator, DiceAware};
use crate::rules::{legal_paths, KeyMap};
use crate::search::{default_work_units, LabelKind, Labeller, Work};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The `format` of a set file's header.
pub const SET_FORMAT: &str = "dicechess-decisions-v1";

/// How many of a decision's turns the teacher values at depth 3 by default: the two best by
/// its depth-2 value (docs/analysis.md says why two).
pub const DEFAULT_SHORTLIST: usize = 2;

/// The stage of the game a decision comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The first ten turns of the game (plies 1–10).
    Opening,
    /// Later, with more than 14 pieces on the board.
    Middlegame,
    /// Later, with at most 14 pieces.
    Endgame,
}

impl Phase {
    /// Every phase, in game order.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];

    /// The phase of `pos` from its move number, side to move and piece count (the label
    /// bench's samples use the same cut: `tests/data/sample_*.txt`).
    pub fn of(pos: &Position) -> Phase {
        let black = usize::from(pos.side_to_move() == dicechess_kernels::Color::Black);
        let ply = 2 * (pos.fullmove().max(1) as usize - 1) + black + 1;
        if ply <= 10 {
            Phase::Opening
        } else if pos.occupied().count() > 14 {
            Phase::Middlegame
        } else {
            Phase::Endgame
        }
    }

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// A set file's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetHeader {
    /// [`SET_FORMAT`].
    pub format: String,
    /// The teacher's id ([`Teacher::id`]).
    pub teacher: String,
    /// Turns per decision the teacher valued at depth 3.
    pub shortlist: usize,
    /// Where the decisions were drawn from (the input's name and digest).
    pub source: String,
    /// The seed of the draw.
    pub seed: u64,
    /// Decisions in the file.
    pub decisions: usize,
    /// The engine version that wrote it.
    pub engine_version: String,
}

/// One of a decision's turns, valued by the teacher.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TeacherTurn {
    /// The turn's UCI micro-moves (the first legal path reaching its afterstate; empty for
    /// a pass).
    pub moves: Vec<String>,
    /// The afterstate's DFEN (the opponent rolls next).
    pub after: String,
    /// The mover's win probability at depth 2 (`a1` over the teacher's leaf).
    pub depth2: f64,
    /// The mover's win probability at depth 3 (`a2`): the teacher's value.
    pub depth3: f64,
}

/// One rolled decision with the teacher's shortlist.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BenchDecision {
    /// The decision's number in the set, from 0.
    pub index: usize,
    /// The rolled position (DFEN with its three dice).
    pub dfen: String,
    /// Its phase ([`Phase::of`]).
    pub phase: Phase,
    /// Distinct turns (afterstates) the roll allows: at least 2, forced turns are not
    /// decisions.
    pub turns: usize,
    /// The shortlist, best depth-2 value first.
    pub teacher: Vec<TeacherTurn>,
}

/// Why a set file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DecisionSetError {
    /// The file is empty.
    #[error("decision set: empty file (its first line is the header)")]
    Empty,
    /// A line is not what it should be.
    #[error("decision set line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// A whole set: the header and its decisions, every field checked.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionSet {
    /// The first line.
    pub header: SetHeader,
    /// The decisions, in index order.
    pub decisions: Vec<BenchDecision>,
}

fn check_probability(what: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err(format!("{what} {v} is not a win probability in [0, 1]"))
    }
}

fn check_decision(d: &BenchDecision, index: usize) -> Result<(), String> {
    if d.index != index {
        return Err(format!("index {} where {index} was expected", d.index));
    }
    let rolled = Position::from_dfen(&d.dfen).map_err(|e| format!("dfen: {e}"))?;
    if rolled.dice().is_empty() {
        return Err("dfen: the position has no dice (a decision is a rolled position)".into());
    }
    if Phase::of(&rolled) != d.phase {
        return Err(format!(
            "phase {:?} but the position is {}",
            d.phase.name(),
            Phase::of(&rolled).name()
        ));
    }
    if d.turns < 2 {
        return Err(format!("turns {}: a decision has at least 2", d.turns));
    }
    if d.teacher.is_empty() || d.teacher.len() > d.turns {
        return Err(format!(
            "{} teacher turns for {} turns",
            d.teacher.len(),
            d.turns
        ));
    }
    for (i, t) in d.teacher.iter().enumerate() {
        let after = Position::from_dfen(&t.after).map_err(|e| format!("teacher {i}: {e}"))?;
        if !after.dice().is_empty() || after.side_to_move() == rolled.side_to_move() {
            return Err(format!(
                "teacher {i}: {:?} is not an afterstate (the opponent to roll, no dice)",
                t.after
            ));
        }
        check_probability(&format!("teacher {i}: depth2"), t.depth2)?;
        check_probability(&format!("teacher {i}: depth3"), t.depth3)?;
    }
    Ok(())
}

impl DecisionSet {
    /// Read a set file's text, checking the header, every decision (its position, phase,
    /// shortlist and values) and that the count matches; the error names the line.
    pub fn parse(text: &str) -> Result<DecisionSet, DecisionSetError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines.next().ok_or(DecisionSetError::Empty)?;
        let bad = |line: usize, reason: String| DecisionSetError::Line {
            line: line + 1,
            reason,
        };
        let header: SetHeader =
            serde_json::from_str(first).map_err(|e| bad(0, format!("header: {e}")))?;
        if header.format != SET_FORMAT {
            return Err(bad(
                0,
                format!("format {:?}, expected {SET_FORMAT:?}", header.format),
            ));
        }
        let mut decisions = Vec::new();
        for (i, l) in lines {
            let d: BenchDecision = serde_json::from_str(l).map_err(|e| bad(i, e.to_string()))?;
            check_decision(&d, decisions.len()).map_err(|r| bad(i, r))?;
            decisions.push(d);
        }
        if decisions.len() != header.decisions {
            return Err(DecisionSetError::Line {
                line: 1,
                reason: format!(
                    "the header counts {} decisions, the file holds {}",
                    header.decisions,
                    decisions.len()
                ),
            });
        }
        Ok(DecisionSet { header, decisions })
    }

    /// The file's text: the header line, then one line per decision.
    pub fn to_text(&self) -> Result<String, serde_json::Error> {
        let mut text = serde_json::to_string(&self.header)?;
        text.push('\n');
        for d in &self.decisions {
            text.push_str(&serde_json::to_string(d)?);
            text.push('\n');
        }
        Ok(text)
    }
}

/// Distinct afterstates of a rolled position (a pass counts as one).
pub fn distinct_turn_count(rolled: &Position) -> usize {
    let mut seen: KeyMap<()> = KeyMap::default();
    let paths = legal_paths(rolled);
    for p in &paths {
        seen.insert(p.end_position(rolled).key(), ());
    }
    seen.len().max(1)
}

/// Draw `n` decisions from `positions` (rolled positions): the indexes of `n` of those with
/// at least two distinct turns, chosen uniformly by a generator seeded with `seed`, in input
/// order. Fewer when fewer qualify.
pub fn draw_decisions(positions: &[Position], n: usize, seed: u64) -> Vec<usize> {
    use rayon::prelude::*;
    let mut open: Vec<usize> = positions
        .par_iter()
        .enumerate()
        .filter(|(_, p)| !p.dice().is_empty() && distinct_turn_count(p) >= 2)
        .map(|(i, _)| i)
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = n.min(open.len());
    // A partial Fisher–Yates shuffle: the first n slots are a uniform draw.
    for i in 0..n {
        let span = (open.len() - i) as u128;
        let j = i + ((u128::from(rng.next_u64()) * span) >> 64) as usize;
        open.swap(i, j);
    }
    open.truncate(n);
    open.sort_unstable();
    open
}

/// The teacher: exact `a1` (depth 2) of every turn of a decision and exact `a2` (depth 3)
/// of its shortlist, over a leaf read as the mover's win probability (the analysis's
/// [`ProbabilityLeaf`]). No pruning: a value is the same on every machine.
#[derive(Clone)]
pub struct Teacher {
    leaf: Arc<ProbabilityLeaf>,
    labeller: Labeller,
}

impl std::fmt::Debug for Teacher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Teacher").field("id", &self.id()).finish()
    }
}

impl Teacher {
    /// A teacher over `leaf`'s scores read on `scale`.
    pub fn new(leaf: Arc<dyn BatchEvaluator>, scale: Scale) -> Teacher {
        let leaf = Arc::new(ProbabilityLeaf::new(leaf, scale));
        Teacher {
            labeller: Labeller::new(leaf.clone()),
            leaf,
        }
    }

    /// The default teacher: `best`'s dice-aware leaf, through the logistic.
    pub fn dice_aware() -> Teacher {
        Teacher::new(Arc::new(DiceAware::default()), Scale::Centipawns)
    }

    /// `a2 over <leaf id>`: what a set's header records, and what scoring checks.
    pub fn id(&self) -> String {
        format!("a2 over {}", self.leaf.id())
    }

    /// The teacher's value of an afterstate: the win probability at depth 3 (`a2`) of the
    /// side that just moved.
    pub fn depth3(&self, after: &Position) -> Result<f64, AnalysisError> {
        let work = Work::new(default_work_units(LabelKind::A2));
        Ok(score_to_win_probability(self.labeller.a2(after, &work)?))
    }

    /// The decision `index` for the rolled `rolled`: every distinct turn valued at depth 2,
    /// the best `shortlist` of them (king captures first, ties in generation order) at depth
    /// 3. `None` for a forced turn (one afterstate), which is no decision.
    pub fn decision(
        &self,
        index: usize,
        rolled: &Position,
        shortlist: usize,
    ) -> Result<Option<BenchDecision>, AnalysisError> {
        let work = Work::new(default_work_units(LabelKind::Candidates));
        let mut candidates = self.labeller.candidates(rolled, None, &work)?;
        if candidates.len() < 2 {
            return Ok(None);
        }
        let turns = candidates.len();
        // Stable: equal values keep generation order. A king capture's a1 is the win, so it
        // comes first.
        candidates.sort_by(|a, b| b.a1.total_cmp(&a.a1));
        candidates.truncate(shortlist.max(1));
        let teacher = candidates
            .iter()
            .map(|c| {
                Ok(TeacherTurn {
                    moves: c
                        .path
                        .map(|p| p.moves().into_iter().map(|m| m.uci()).collect())
                        .unwrap_or_default(),
                    after: c.after.to_dfen(),
                    depth2: score_to_win_probability(c.a1),
                    depth3: self.depth3(&c.after)?,
                })
            })
            .collect::<Result<Vec<_>, AnalysisError>>()?;
        Ok(Some(BenchDecision {
            index,
            dfen: rolled.to_dfen(),
            phase: Phase::of(rolled),
            turns,
            teacher,
        }))
    }
}
