//! [`Labeller`]: the exact values of single positions (docs/labels.md), from the shared
//! all-roll expansion and one leaf-batch evaluator call per chance node.
//!
//! Every value is on the leaf evaluator's axis; a king capture is the axis bound, exactly:
//! `+UPPER_SCORE_BOUND` for the side that captures, `−UPPER_SCORE_BOUND` for the side whose
//! king is taken (a win probability of 1 or 0 under [`score_to_win_probability`]). Unlike the
//! search, which values a lost king below every score so that it never risks one, a label is
//! an expectation, and a lost game is worth exactly what a win probability of 0 is worth.
//!
//! [`score_to_win_probability`]: crate::eval::score_to_win_probability

use super::LabelError;
use crate::batch::LeafBatch;
use crate::board::{Dice, Position};
use crate::eval::{BatchEvaluator, UPPER_SCORE_BOUND};
use crate::rules::{
    expand_all_rolls_budgeted, Budget, Budgeted, KeyMap, RollOutcome, RollSets, ROLLS,
};
use dicechess_kernels::{Color, PieceType};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The value of a won game (the side to whose view it is given captures the king).
pub const LABEL_WIN: f64 = UPPER_SCORE_BOUND;

/// The value of a lost game.
pub const LABEL_LOSS: f64 = -UPPER_SCORE_BOUND;

/// Work units (move-generation calls and generated micro-moves) one shared expansion may
/// spend: the bound on one expansion's memory (about 130 bytes a unit at most), as the
/// search's `CHANCE_WORK_UNITS`. Kiwipete's expansion needs 57,562, the start position's
/// 7,508.
pub const EXPANSION_UNITS: u64 = 1_000_000;

/// The default work budget of one position's label, by kind: one expansion for `a1` and
/// `p1`; for the kinds that expand every afterstate or reply (`candidates`, `a2`, `p2`), a
/// few hundred expansions of a busy middlegame (Kiwipete's `p2` needs about 330 M).
pub fn default_work_units(kind: super::LabelKind) -> u64 {
    match kind {
        super::LabelKind::A1 | super::LabelKind::P1 => EXPANSION_UNITS,
        _ => 2_000_000_000,
    }
}

/// The work budget of one position's label, shared by the workers that label its
/// afterstates or replies in parallel: each expansion may spend what is left (at most
/// [`EXPANSION_UNITS`]), then pays what it spent. Overshoot is bounded by one expansion
/// per worker.
#[derive(Debug)]
pub struct Work {
    limit: u64,
    used: AtomicU64,
}

impl Work {
    /// A budget of `limit` units.
    pub fn new(limit: u64) -> Work {
        Work {
            limit,
            used: AtomicU64::new(0),
        }
    }

    /// Units spent so far.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// The limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The budget of the next expansion, or the error when nothing is left.
    fn next(&self) -> Result<Budget, LabelError> {
        let left = self.limit.saturating_sub(self.used());
        if left == 0 {
            return Err(LabelError::WorkBudget { limit: self.limit });
        }
        Ok(Budget::new(left.min(EXPANSION_UNITS)))
    }

    /// Pay `units` spent outside an expansion (a root enumeration).
    pub(super) fn pay_units(&self, units: u64) {
        self.pay(units);
    }

    /// Pay `units`.
    fn pay(&self, units: u64) {
        self.used.fetch_add(units, Ordering::Relaxed);
    }
}

/// 56 per-roll values, in [`ROLLS`] order.
pub type PerRoll = [f32; 56];

/// Per-worker buffers, reused across positions.
#[derive(Default)]
pub(super) struct Scratch {
    sets: RollSets,
    classes: Vec<(usize, u16)>,
    leaves: LeafBatch,
}

thread_local! {
    /// One warmed-up [`Scratch`] per thread (a fresh expansion's tables grow on first use).
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` with this thread's scratch (a fresh one when it is in use further up the stack).
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.with(|c| c.borrow_mut().take()).unwrap_or_default();
    let r = f(&mut s);
    SCRATCH.with(|c| *c.borrow_mut() = Some(s));
    r
}

/// Computes labels with one leaf evaluator. `Send + Sync`: one labeller serves all workers.
#[derive(Clone)]
pub struct Labeller {
    leaf: Arc<dyn BatchEvaluator>,
}

impl std::fmt::Debug for Labeller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Labeller")
            .field("leaf", &self.leaf.id())
            .finish()
    }
}

/// Whether `color` still has a king.
fn has_king(pos: &Position, color: Color) -> bool {
    !pos.piece_bb(color, PieceType::King).is_empty()
}

impl Labeller {
    /// A labeller whose `leaf(x)` is `leaf`'s score.
    pub fn new(leaf: Arc<dyn BatchEvaluator>) -> Labeller {
        Labeller { leaf }
    }

    /// The leaf evaluator's id.
    pub fn evaluator_id(&self) -> String {
        self.leaf.id()
    }

    /// `a1` of `after` (its side to move rolls next), from the view of the side that just
    /// moved: `Σ_r w_r/216 · min over the opponent's turns t of leaf(t(after))`.
    pub fn a1(&self, after: &Position, work: &Work) -> Result<f64, LabelError> {
        with_scratch(|s| self.chance(s, after, work, None))
    }

    /// `p1` of `pos` (its side to move is about to roll), from its side to move's view:
    /// `Σ_r w_r/216 · max over its turns t of leaf(t(pos))`. Equal to `−a1(pos)`: the
    /// evaluator is mover-canonical, so the opponent's minimum is our maximum negated.
    pub fn p1(&self, pos: &Position, work: &Work) -> Result<f64, LabelError> {
        Ok(-self.a1(pos, work)?)
    }

    /// `a1` of `after` with its 56 per-roll values (each roll's minimum, in [`ROLLS`]
    /// order, from the same view).
    pub fn a1_per_roll(&self, after: &Position, work: &Work) -> Result<(f64, PerRoll), LabelError> {
        let mut per = [0f32; 56];
        let v = with_scratch(|s| self.chance(s, after, work, Some(&mut per)))?;
        Ok((v, per))
    }

    /// `a2` of `after`: `Σ_r w_r/216 · min over the opponent's turns t of p1(t(after))`,
    /// from the view of the side that just moved. Each distinct reply is labelled once, on
    /// all cores.
    pub fn a2(&self, after: &Position, work: &Work) -> Result<f64, LabelError> {
        if let Some(v) = terminal(after) {
            return Ok(v);
        }
        self.deeper(after, work, LABEL_LOSS, true, |p| self.p1(p, work))
    }

    /// `p2` of `pos`: `Σ_r w_r/216 · max over its turns t of a1(t(pos))`, from its side to
    /// move's view. Each distinct afterstate is labelled once, whichever rolls reach it, on
    /// all cores.
    pub fn p2(&self, pos: &Position, work: &Work) -> Result<f64, LabelError> {
        if let Some(v) = terminal(pos) {
            return Ok(-v);
        }
        self.deeper(pos, work, LABEL_WIN, false, |a| self.a1(a, work))
    }

    /// A chance node at `node` whose end states are valued by `value` (the one-ply label of
    /// each distinct state, computed in parallel): per class the minimum (`minimize`) or
    /// maximum of the values, `king` for a king-capturing class, weighted over 216.
    fn deeper(
        &self,
        node: &Position,
        work: &Work,
        king: f64,
        minimize: bool,
        value: impl Fn(&Position) -> Result<f64, LabelError> + Sync,
    ) -> Result<f64, LabelError> {
        let outcomes = with_scratch(|s| self.outcomes(s, node, work))?;
        let mut index: KeyMap<usize> = KeyMap::default();
        let mut distinct: Vec<Position> = Vec::new();
        for (_, outcome) in &outcomes {
            if let Outcome::States(states) = outcome {
                for p in states {
                    index.entry(p.key()).or_insert_with(|| {
                        distinct.push(*p);
                        distinct.len() - 1
                    });
                }
            }
        }
        let values = distinct
            .par_iter()
            .map(&value)
            .collect::<Result<Vec<f64>, LabelError>>()?;
        let mut acc = 0f64;
        for (weight, outcome) in &outcomes {
            let v = match outcome {
                Outcome::KingCapture => king,
                Outcome::States(states) => {
                    let vs = states.iter().map(|p| values[index[&p.key()]]);
                    if minimize {
                        vs.fold(f64::INFINITY, f64::min)
                    } else {
                        vs.fold(f64::NEG_INFINITY, f64::max)
                    }
                }
            };
            acc += *weight as f64 * v;
        }
        Ok(acc / 216.0)
    }

    /// The classes of `node`'s 56 rolls with their turns' distinct end states (a pass as the
    /// one state `node.end_turn()`), copied out of the shared expansion.
    fn outcomes(
        &self,
        s: &mut Scratch,
        node: &Position,
        work: &Work,
    ) -> Result<Vec<(u16, Outcome)>, LabelError> {
        expand(s, node, work)?;
        let pass = node.end_turn();
        Ok(s.classes
            .iter()
            .map(|&(rep, weight)| {
                let outcome = match s.sets.roll(rep) {
                    RollOutcome::KingCapture => Outcome::KingCapture,
                    RollOutcome::Pass => Outcome::States(vec![pass]),
                    RollOutcome::Moves(ps) => Outcome::States(ps.to_vec()),
                };
                (weight, outcome)
            })
            .collect())
    }

    /// The chance node at `x` (its side to move rolls next), valued from the view of the
    /// other side: every class's leaves in one evaluator call, the minimum per class,
    /// weighted over 216. With `per_roll`, each roll's minimum in [`ROLLS`] order.
    pub(super) fn chance(
        &self,
        s: &mut Scratch,
        x: &Position,
        work: &Work,
        per_roll: Option<&mut PerRoll>,
    ) -> Result<f64, LabelError> {
        if let Some(v) = terminal(x) {
            if let Some(per) = per_roll {
                *per = [v as f32; 56];
            }
            return Ok(v);
        }
        expand(s, x, work)?;
        s.leaves.clear();
        let pass = x.end_turn();
        for &(rep, weight) in &s.classes {
            match s.sets.roll(rep) {
                RollOutcome::KingCapture => s.leaves.push_king_capture(weight),
                RollOutcome::Pass => s.leaves.push_class(weight, [&pass]),
                RollOutcome::Moves(ps) => s.leaves.push_class(weight, ps),
            }
        }
        // Every leaf has the other side to move: the evaluator's scores are its view.
        self.leaf.evaluate_leaves(&mut s.leaves)?;
        let mut acc = 0f64;
        let mut class_values = Vec::with_capacity(s.classes.len());
        for seg in s.leaves.segments() {
            let v = if seg.king_capture {
                LABEL_LOSS
            } else {
                s.leaves
                    .values(seg)
                    .iter()
                    .fold(f32::INFINITY, |m, &v| m.min(v)) as f64
            };
            class_values.push(v);
            acc += seg.weight as f64 * v;
        }
        if let Some(per) = per_roll {
            fill_per_roll(&s.sets, &s.classes, &class_values, per);
        }
        Ok(acc / 216.0)
    }
}

/// One class of a node's rolls.
enum Outcome {
    /// The mover captures the enemy king.
    KingCapture,
    /// The distinct end states of the mover's turns.
    States(Vec<Position>),
}

/// The value of a position without one of its kings (the game is over), from the view of
/// the side not to move: it won when the side to move's king is gone, else it lost.
pub(super) fn terminal(x: &Position) -> Option<f64> {
    let mover = x.side_to_move();
    if !has_king(x, mover) {
        Some(LABEL_WIN)
    } else if !has_king(x, mover.opponent()) {
        Some(LABEL_LOSS)
    } else {
        None
    }
}

/// Expand every roll of `node` into `s.sets` and group them into `s.classes`, paying
/// `work` (one expansion at most [`EXPANSION_UNITS`]).
fn expand(s: &mut Scratch, node: &Position, work: &Work) -> Result<(), LabelError> {
    let mut one = work.next()?;
    let limit = one.limit();
    match expand_all_rolls_budgeted(node, &mut one, &mut s.sets) {
        Budgeted::Complete((), used) => {
            work.pay(used);
            s.sets.classes(&mut s.classes);
            Ok(())
        }
        Budgeted::Incomplete(used) => {
            work.pay(used);
            Err(if limit < EXPANSION_UNITS {
                LabelError::WorkBudget {
                    limit: work.limit(),
                }
            } else {
                LabelError::ExpansionTooLarge {
                    units: EXPANSION_UNITS,
                }
            })
        }
    }
}

/// Spread the class values over the 56 rolls: each roll reads its class's value. A class is
/// the rolls whose outcome is the same (the same bucket of the expansion, or every king
/// capture, or every pass), so a roll's class is found by its outcome.
fn fill_per_roll(sets: &RollSets, classes: &[(usize, u16)], values: &[f64], out: &mut PerRoll) {
    let id = |r: usize| match sets.roll(r) {
        RollOutcome::KingCapture => (0usize, 0usize),
        RollOutcome::Pass => (1, 0),
        RollOutcome::Moves(ps) => (ps.as_ptr() as usize, ps.len()),
    };
    let class_ids: Vec<(usize, usize)> = classes.iter().map(|&(rep, _)| id(rep)).collect();
    for (r, slot) in out.iter_mut().enumerate() {
        let c = class_ids.iter().position(|&c| c == id(r));
        *slot = c.map_or(f32::NAN, |c| values[c] as f32);
    }
}

/// The dice pool of roll `i` (0..56) in [`ROLLS`] order.
pub fn roll_dice(i: usize) -> Dice {
    ROLLS[i].dice()
}
