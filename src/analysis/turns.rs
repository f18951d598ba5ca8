//! The turns of one rolled position, each valued as the mover's win probability: depth 1
//! (the leaf of the afterstate) for all of them, depth 2 (`a1`: every opponent roll, the
//! opponent's best reply to each) for as many as the turn's budget allows, best first.

use super::leaf::ProbabilityLeaf;
use super::AnalysisError;
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::eval::{score_to_win_probability, BatchEvaluator};
use crate::rules::{legal_paths, KeyMap, TurnPath};
use crate::search::{Labeller, Work, EXPANSION_UNITS};
use rayon::prelude::*;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// One distinct turn of a rolled position (transpositions count once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedTurn {
    /// The first legal path (generation order) reaching the afterstate; `None` for a pass.
    pub path: Option<TurnPath>,
    /// The afterstate (the opponent rolls next).
    pub after: Position,
    /// Depth-1 equity: the leaf's win probability of the afterstate for the mover.
    pub equity1: f64,
    /// Depth-2 equity (`a1` as a win probability) when it was computed.
    pub equity2: Option<f64>,
}

impl RankedTurn {
    /// The equity at the deepest depth computed.
    pub fn equity(&self) -> f64 {
        self.equity2.unwrap_or(self.equity1)
    }

    /// The turn as UCI micro-moves (empty for a pass).
    pub fn moves(&self) -> Vec<String> {
        self.path
            .map(|p| p.moves().into_iter().map(|m| m.uci()).collect())
            .unwrap_or_default()
    }
}

/// The distinct turns of `rolled` with their depth-1 equities, in generation order (a
/// position without a legal turn has one: the pass). A king capture is worth exactly 1.
pub(super) fn distinct_turns(
    rolled: &Position,
    leaf: &ProbabilityLeaf,
) -> Result<Vec<RankedTurn>, AnalysisError> {
    let paths = legal_paths(rolled);
    let mut seen: KeyMap<()> = KeyMap::default();
    let mut turns: Vec<RankedTurn> = Vec::new();
    if paths.is_empty() {
        turns.push(RankedTurn {
            path: None,
            after: rolled.end_turn(),
            equity1: 0.0,
            equity2: None,
        });
    }
    for p in &paths {
        let after = p.end_position(rolled);
        if seen.insert(after.key(), ()).is_none() {
            turns.push(RankedTurn {
                path: Some(*p),
                after,
                equity1: if p.captures_king() { 1.0 } else { 0.0 },
                equity2: None,
            });
        }
    }
    let open: Vec<Position> = turns
        .iter()
        .filter(|t| !t.path.is_some_and(|p| p.captures_king()))
        .map(|t| t.after)
        .collect();
    if !open.is_empty() {
        let mut scores = vec![0f32; open.len()];
        leaf.evaluate(&PositionBatch::from_positions(&open), &mut scores)?;
        let mut s = scores.iter();
        for t in turns
            .iter_mut()
            .filter(|t| !t.path.is_some_and(|p| p.captures_king()))
        {
            // The afterstate's side to move is the opponent: our probability is the rest.
            let score = *s.next().expect("one score per open afterstate");
            t.equity1 = 1.0 - score_to_win_probability(score as f64);
        }
    }
    Ok(turns)
}

/// Value turns at depth 2, best depth-1 first, in rounds of one turn per thread until
/// `deadline`; the turn at `must` (the played one) and the first are always valued. Returns
/// how many were valued.
pub(super) fn deepen(
    turns: &mut [RankedTurn],
    must: Option<usize>,
    labeller: &Labeller,
    deadline: Option<Instant>,
) -> Result<usize, AnalysisError> {
    let mut order: Vec<usize> = (0..turns.len()).collect();
    // Stable: equal depth-1 equities keep generation order.
    order.sort_by(|&a, &b| turns[b].equity1.total_cmp(&turns[a].equity1));
    let value = |t: &RankedTurn| -> Result<f64, AnalysisError> {
        // A king capture ends the game, whatever stands on the board after it (a position
        // may hold two kings of a side: the labeller's end test looks for none).
        if t.path.is_some_and(|p| p.captures_king()) {
            return Ok(1.0);
        }
        let a1 = labeller.a1(&t.after, &Work::new(EXPANSION_UNITS))?;
        Ok(score_to_win_probability(a1))
    };
    let round = rayon::current_num_threads().max(1);
    let mut done = 0;
    for chunk in order.chunks(round) {
        if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let values = chunk
            .par_iter()
            .map(|&i| value(&turns[i]))
            .collect::<Result<Vec<f64>, AnalysisError>>()?;
        for (&i, v) in chunk.iter().zip(values) {
            turns[i].equity2 = Some(v);
        }
        done += chunk.len();
    }
    if let Some(m) = must {
        if turns[m].equity2.is_none() {
            turns[m].equity2 = Some(value(&turns[m])?);
            done += 1;
        }
    }
    Ok(done)
}
