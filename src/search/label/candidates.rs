//! The per-candidate distributions of a rolled position (`candidates`, docs/labels.md):
//! every distinct legal afterstate, or the pre-ranker's top K, with its `a1` and its 56
//! per-roll values — the listwise pre-rank corpus.

use super::labeller::{terminal, with_scratch, Labeller, PerRoll, Work};
use super::LabelError;
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::eval::BatchEvaluator;
use crate::rules::{Budget, Budgeted, KeyMap, TurnGenerator, TurnPath};
use rayon::prelude::*;

/// One candidate of a rolled position.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateLabel {
    /// The first legal path (in generation order) that reaches the afterstate; `None` for
    /// the pass of a position without a legal turn (its one candidate).
    pub path: Option<TurnPath>,
    /// The afterstate (turn ended: the opponent rolls next).
    pub after: Position,
    /// The pre-ranker's score of the afterstate from the mover's view, when the candidates
    /// were cut to a top K.
    pub prerank: Option<f32>,
    /// The candidate's `a1`, from the mover's view.
    pub a1: f64,
    /// Each opponent roll's value (the minimum over the opponent's turns) from the mover's
    /// view, in `ROLLS` order: `a1 = Σ_r w_r · per_roll[r] / 216`.
    pub per_roll: PerRoll,
}

/// How many candidates to keep, and by what order.
#[derive(Clone, Copy)]
pub struct TopK<'a> {
    /// Candidates kept (at least 1).
    pub k: usize,
    /// The pre-ranker whose scores order them (its score of an afterstate, negated: the
    /// afterstate's side to move is the opponent), king captures first, ties in generation
    /// order.
    pub prerank: &'a dyn BatchEvaluator,
}

impl Labeller {
    /// The candidates of the rolled position `root`: its distinct afterstates in generation
    /// order (or, with `top`, the best `k` by the pre-ranker, best first), each with its
    /// `a1` and per-roll values, labelled on all cores. A king-capturing afterstate is a
    /// won game: `a1` and every roll value are the win. The root enumeration and every
    /// expansion are paid from `work`.
    pub fn candidates(
        &self,
        root: &Position,
        top: Option<TopK<'_>>,
        work: &Work,
    ) -> Result<Vec<CandidateLabel>, LabelError> {
        if root.dice().is_empty() {
            return Err(LabelError::NoDice);
        }
        let (paths, afters) = distinct_afterstates(root, work)?;
        let mut order: Vec<(Option<TurnPath>, Position, Option<f32>)> = if paths.is_empty() {
            vec![(None, root.end_turn(), None)]
        } else {
            paths
                .iter()
                .zip(&afters)
                .map(|(p, a)| (Some(*p), *a, None))
                .collect()
        };
        if let Some(t) = top {
            let batch =
                PositionBatch::from_positions(&order.iter().map(|c| c.1).collect::<Vec<_>>());
            let mut scores = vec![0f32; batch.len()];
            t.prerank.evaluate(&batch, &mut scores)?;
            for (c, s) in order.iter_mut().zip(&scores) {
                c.2 = Some(-s);
            }
            // A won game first, whatever the pre-ranker says of the board; then by score.
            // Stable: equal scores keep generation order.
            let key = |c: &(Option<TurnPath>, Position, Option<f32>)| {
                (terminal(&c.1).is_some(), c.2.unwrap_or(f32::NEG_INFINITY))
            };
            order.sort_by(|a, b| {
                let (ka, kb) = (key(a), key(b));
                kb.0.cmp(&ka.0)
                    .then(kb.1.partial_cmp(&ka.1).unwrap_or(std::cmp::Ordering::Equal))
            });
            order.truncate(t.k.max(1));
        }
        order
            .into_par_iter()
            .map(|(path, after, prerank)| {
                let mut per = [0f32; 56];
                let a1 = with_scratch(|s| self.chance(s, &after, work, Some(&mut per)))?;
                Ok(CandidateLabel {
                    path,
                    after,
                    prerank,
                    a1,
                    per_roll: per,
                })
            })
            .collect()
    }
}

/// The legal paths of `root` that reach distinct afterstates (the first path of each, in
/// generation order) and those afterstates; the enumeration is paid from `work`.
fn distinct_afterstates(
    root: &Position,
    work: &Work,
) -> Result<(Vec<TurnPath>, Vec<Position>), LabelError> {
    let mut gen = TurnGenerator::new();
    let mut all = Vec::new();
    let mut budget = Budget::new(work.limit().saturating_sub(work.used()));
    match gen.legal_paths_budgeted(root, &mut budget, &mut all) {
        Budgeted::Complete((), used) => work.pay_units(used),
        Budgeted::Incomplete(_) => {
            return Err(LabelError::WorkBudget {
                limit: work.limit(),
            })
        }
    }
    let mut seen: KeyMap<()> = KeyMap::default();
    let (mut paths, mut afters) = (Vec::new(), Vec::new());
    for p in all {
        let a = p.end_position(root);
        if seen.insert(a.key(), ()).is_none() {
            paths.push(p);
            afters.push(a);
        }
    }
    Ok((paths, afters))
}
