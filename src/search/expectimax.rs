//! Expectimax over leaf batches (docs/architecture.md "The batch pipeline", docs/search.md §4).
//!
//! ```text
//! root (rolled) --turn paths--> candidates (distinct after-states, pre-ranked, top K)
//! candidate     --expand------> opponent rolls (56 multisets or ADEP classes)
//! roll          --turn paths--> leaves (distinct after-states, deduplicated by Zobrist key)
//! leaves        --evaluate----> one BatchEvaluator call per batch
//! values        --reduce------> min per roll -> weighted sum / 216 -> max over candidates
//! ```
//!
//! Depth 3 inserts our roll and our reply under each opponent reply. Star2 probes (one
//! material-minimising reply per roll, evaluated in one batch) give per-roll upper bounds;
//! Star1 cuts a candidate as soon as its upper bound falls below the best completed one, and
//! the cut is strict with a safety margin, so pruning never changes the result. The
//! transposition table stores exact values and upper bounds apart; parallel workers share it
//! and the best completed value.

use super::chance::{outcomes, ChanceMode, ChanceOutcome};
use super::stats::RootSearchStats;
use super::tt::{Bound, Entry, TranspositionTable};
use super::value::MAX_CHANCE_KEY_SALT;
use crate::batch::{LeafBatch, PositionBatch};
use crate::board::Position;
use crate::eval::{BatchEvaluator, ChanceCollapse, EvalError, LOSS_VALUE, WIN_VALUE};
use crate::rules::{
    expand_all_rolls_budgeted, Budget, Budgeted, EndStates, KeyMap, RollOutcome, RollSets,
    TurnGenerator, TurnPath,
};
use dicechess_kernels::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

mod chance_min;
mod root;

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// 2 (our turn, their roll and reply) or 3 (plus our roll and reply).
    pub depth: u8,
    /// Root candidates expanded after pre-ranking.
    pub candidate_limit: usize,
    /// How chance nodes are expanded.
    pub chance: ChanceMode,
    /// Star1/Star2 pruning (never changes the result; off for validation).
    pub pruning: bool,
    /// Root rescoring weight in [0, 1] (used only with a rescorer).
    pub rescore_weight: f64,
    /// Search root candidates on the rayon pool.
    pub parallel: bool,
    /// Depth 3: how many of the opponent's replies per roll class get our chance node, the
    /// best for the opponent by the leaf evaluator (0: every reply, the exact search). A
    /// forward pruning that can change the value (docs/search.md §4.5a); needs
    /// [`ChanceMode::Shared`].
    pub reply_limit: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            depth: 2,
            candidate_limit: 8,
            chance: ChanceMode::Shared,
            pruning: true,
            rescore_weight: 0.0,
            parallel: true,
            reply_limit: 0,
        }
    }
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// Depth other than 2 or 3, or a zero candidate limit.
    #[error("invalid search configuration: {0}")]
    Config(String),
    /// The position has no dice to search.
    #[error("the position has no dice: a search needs a rolled pool")]
    NoDice,
    /// An evaluator failed.
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// One root candidate as the search left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CandidateReport {
    /// A path reaching this after-state (the first in generation order).
    pub path: TurnPath,
    /// Pre-rank score (root mover's view).
    pub pre_score: f64,
    /// Final value if the candidate completed (or came from an exact table entry).
    pub value: Option<f64>,
    /// Some opponent roll captures our king.
    pub loss_tainted: bool,
    /// The search settled the candidate: an exact value, or a bound proving it below the
    /// best (`false`: abandoned at the deadline, or never started).
    pub resolved: bool,
}

/// The decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen turn; `None` for a forced pass.
    pub path: Option<TurnPath>,
    /// Its value (root mover's view); [`TERMINAL_WIN_SCORE`](crate::eval::TERMINAL_WIN_SCORE) for an immediate king capture.
    pub score: f64,
    /// What the search did.
    pub stats: RootSearchStats,
    /// The candidates in pre-rank order.
    pub candidates: Vec<CandidateReport>,
}

/// The expectimax searcher: configuration, evaluators and an optional shared table.
#[derive(Clone)]
pub struct Expectimax {
    config: SearchConfig,
    leaf: Arc<dyn BatchEvaluator>,
    prerank: Option<Arc<dyn BatchEvaluator>>,
    rescore: Option<Arc<dyn BatchEvaluator>>,
    collapse: Option<(Arc<dyn ChanceCollapse>, bool)>,
    tt: Option<Arc<TranspositionTable>>,
}

impl std::fmt::Debug for Expectimax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expectimax")
            .field("config", &self.config)
            .field("leaf", &self.leaf.id())
            .field("tt", &self.tt.is_some())
            .finish()
    }
}

/// The result of one chance node.
#[derive(Clone, Copy, Debug)]
struct NodeResult {
    value: f64,
    kind: NodeKind,
    loss_tainted: bool,
    rolls_processed: usize,
    rolls_total: usize,
    probe_cut: bool,
    from_tt: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    Exact,
    /// The true value is at most `value`, which is below the window.
    Upper,
    /// The deadline passed inside the node.
    Aborted,
}

/// Work units (move-generation calls and examined micro-moves) one reply enumeration may
/// spend. The walk keeps one 104-byte entry per completion until it ends, so this bounds a
/// worker's reply memory to about 52 MB; ordinary replies cost a few thousand units (the
/// start position's richest roll about 2,000), while 9 queens rolled QQQ cost millions.
pub const REPLY_WORK_UNITS: u64 = 500_000;

/// A candidate's final value and node result; `None` if it never started.
type CandidateOutcome = Option<(f64, NodeResult)>;

/// The distinct replies of one roll.
#[derive(Clone, Debug, Default)]
struct Replies {
    /// Some reply captures the enemy king.
    king: bool,
    /// No legal reply: the pass state.
    pass: Option<Position>,
    /// Distinct after-states (turn ended), first-appearance order.
    states: Vec<Position>,
}

/// Per-worker buffers, reused across nodes.
#[derive(Default)]
struct Scratch {
    gen: TurnGenerator,
    paths: Vec<TurnPath>,
    ends: Vec<Position>,
    batch: PositionBatch,
    values: Vec<f32>,
    stats: RootSearchStats,
    /// The shared expansion of the chance node being searched, and its classes.
    sets: RollSets,
    classes: Vec<(usize, u16)>,
    /// The leaves of a leaf-level node, every class in one batch (one segment per class).
    leaves: LeafBatch,
}

thread_local! {
    /// Warmed-up [`Scratch`]es per thread, reused by every candidate and decision the thread
    /// searches. A fresh one starts with empty buffers (the shared expansion's buckets and key
    /// tables grow on first use): built per candidate, as `map_init` did with one job per
    /// candidate, it held two threads to 1.1× one thread on Kiwipete's depth-2 decision. A
    /// stack, because a thread nests jobs: it steals another candidate while it waits, and a
    /// selective depth-3 node hands its rolls' chance nodes to the pool from inside a
    /// candidate's job.
    static SCRATCH: std::cell::RefCell<Vec<Scratch>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Run `f` with one of this thread's scratches (a fresh one when all are in use further up
/// the stack).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.with(|c| c.borrow_mut().pop()).unwrap_or_default();
    let r = f(&mut s);
    SCRATCH.with(|c| c.borrow_mut().push(s));
    r
}

/// Work units (move-generation calls and generated micro-moves) one shared chance-node
/// expansion may spend. Kiwipete needs 57,562 (the start position 7,508); the walk keeps at most one end
/// position (96 bytes) and two table slots per unit, so this bounds a worker's expansion
/// memory to roughly 130 MB even for positions no game reaches (nine queens rolled QQQ
/// spend millions).
pub const CHANCE_WORK_UNITS: u64 = 1_000_000;

/// Shared state of one root decision.
struct Shared {
    us: Color,
    deadline: Option<Instant>,
    expired: AtomicBool,
}

impl Shared {
    fn expired(&self) -> bool {
        if self.expired.load(Ordering::Relaxed) {
            return true;
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => {
                self.expired.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }
}

impl Expectimax {
    /// A searcher with `leaf` as the leaf evaluator, material pre-ranking and no table.
    pub fn new(
        config: SearchConfig,
        leaf: Arc<dyn BatchEvaluator>,
    ) -> Result<Expectimax, SearchError> {
        if !(2..=3).contains(&config.depth) {
            return Err(SearchError::Config(format!(
                "depth must be 2 or 3, not {}",
                config.depth
            )));
        }
        if config.candidate_limit == 0 {
            return Err(SearchError::Config(
                "candidate limit must be positive".into(),
            ));
        }
        if config.reply_limit > 0 && config.chance != ChanceMode::Shared {
            return Err(SearchError::Config(
                "a reply limit (selective depth 3) needs the shared chance mode".into(),
            ));
        }
        if !(0.0..=1.0).contains(&config.rescore_weight) {
            return Err(SearchError::Config(format!(
                "rescore weight must be in [0, 1], not {}",
                config.rescore_weight
            )));
        }
        Ok(Expectimax {
            config,
            leaf,
            prerank: None,
            rescore: None,
            collapse: None,
            tt: None,
        })
    }

    /// Use a shared transposition table (never share one between two leaf evaluators).
    pub fn with_table(mut self, tt: Arc<TranspositionTable>) -> Expectimax {
        self.tt = Some(tt);
        self
    }

    /// Pre-rank candidates with a model instead of material.
    pub fn with_prerank(mut self, prerank: Arc<dyn BatchEvaluator>) -> Expectimax {
        self.prerank = Some(prerank);
        self
    }

    /// Blend each completed candidate with a rescoring model (`config.rescore_weight`).
    pub fn with_rescore(mut self, rescore: Arc<dyn BatchEvaluator>) -> Expectimax {
        self.rescore = Some(rescore);
        self
    }

    /// Replace every candidate's chance node by one batched collapse-model call. With
    /// `loss_guard` and an active rescorer, a candidate after which the opponent can capture
    /// our king on some roll (exact king-capture count > 0) is never blended. Collapsed values
    /// are never stored in the table; pruning and depth do not apply.
    pub fn with_collapse(mut self, model: Arc<dyn ChanceCollapse>, loss_guard: bool) -> Expectimax {
        self.collapse = Some((model, loss_guard));
        self
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The table, if any.
    pub fn table(&self) -> Option<&Arc<TranspositionTable>> {
        self.tt.as_ref()
    }

    /// Distinct replies of a rolled position (turn ended), and terminal flags. `None` when
    /// the enumeration ran past [`REPLY_WORK_UNITS`]: the whole search is then marked
    /// expired (a position that large would not finish in time anyway, and its after-states
    /// are what would exhaust memory), so every candidate in progress is abandoned.
    fn replies(&self, s: &mut Scratch, shared: &Shared, rolled: &Position) -> Option<Replies> {
        let mut states = Vec::new();
        let mut budget = Budget::new(REPLY_WORK_UNITS);
        let Some(ends) = s.gen.end_states_budgeted(rolled, &mut budget, &mut states) else {
            shared.expired.store(true, Ordering::Relaxed);
            return None;
        };
        Some(match ends {
            EndStates::Pass => Replies {
                king: false,
                pass: Some(rolled.end_turn()),
                states,
            },
            EndStates::KingCapture => Replies {
                king: true,
                pass: None,
                states,
            },
            EndStates::Moves(walked) => {
                s.stats.leaves += walked as u64;
                Replies {
                    king: false,
                    pass: None,
                    states,
                }
            }
        })
    }

    /// Evaluate `states` in one batch; values in the root mover's view.
    fn eval_states(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        states: &[Position],
    ) -> Result<Vec<f64>, SearchError> {
        s.batch.clear();
        for p in states {
            s.batch.push(p);
        }
        s.values.clear();
        s.values.resize(states.len(), 0.0);
        self.leaf.evaluate(&s.batch, &mut s.values)?;
        s.stats.eval_batches += 1;
        s.stats.unique_leaves += states.len() as u64;
        Ok(states
            .iter()
            .zip(&s.values)
            .map(|(p, &v)| {
                if p.side_to_move() == shared.us {
                    v as f64
                } else {
                    -(v as f64)
                }
            })
            .collect())
    }

    /// Expand every roll of `node` into `s.sets` and group them into `s.classes`; `false`
    /// (and the whole search marked expired) when the expansion ran past
    /// [`CHANCE_WORK_UNITS`]: a node that large would not finish in time anyway.
    fn expand_node(&self, s: &mut Scratch, shared: &Shared, node: &Position) -> bool {
        let mut budget = Budget::new(CHANCE_WORK_UNITS);
        match expand_all_rolls_budgeted(node, &mut budget, &mut s.sets) {
            Budgeted::Complete((), _) => {
                s.sets.classes(&mut s.classes);
                s.stats.rolls_expanded += s.classes.len() as u64;
                true
            }
            Budgeted::Incomplete(_) => {
                shared.expired.store(true, Ordering::Relaxed);
                false
            }
        }
    }

    /// The replies of every class of the last shared expansion, for nodes that recurse
    /// (the per-class loop below needs them while deeper nodes reuse `s.sets`).
    fn class_replies(s: &Scratch, node: &Position) -> (Vec<ChanceOutcome>, Vec<Option<Replies>>) {
        let (outs, mut replies) = Self::class_replies_unfilled(s, node);
        for (&(rep, _), r) in s.classes.iter().zip(replies.iter_mut()) {
            if let (RollOutcome::Moves(ps), Some(r)) = (s.sets.roll(rep), r.as_mut()) {
                r.states = ps.to_vec();
            }
        }
        (outs, replies)
    }

    /// The classes of the last shared expansion with their outcomes, a class with moves
    /// holding no states yet.
    fn class_replies_unfilled(
        s: &Scratch,
        node: &Position,
    ) -> (Vec<ChanceOutcome>, Vec<Option<Replies>>) {
        let mut outs = Vec::with_capacity(s.classes.len());
        let mut replies = Vec::with_capacity(s.classes.len());
        for &(rep, weight) in &s.classes {
            outs.push((crate::rules::ROLLS[rep].dice(), weight));
            replies.push(Some(match s.sets.roll(rep) {
                RollOutcome::KingCapture => Replies {
                    king: true,
                    pass: None,
                    states: Vec::new(),
                },
                RollOutcome::Pass => Replies {
                    king: false,
                    pass: Some(node.end_turn()),
                    states: Vec::new(),
                },
                RollOutcome::Moves(_) => Replies {
                    king: false,
                    pass: None,
                    states: Vec::new(),
                },
            }));
        }
        (outs, replies)
    }

    /// [`Expectimax::class_replies`] for a selective depth-3 node: every leaf of every
    /// class of the last shared expansion scored in one evaluator call, and per class only
    /// the `reply_limit` replies that are best for the opponent (lowest in our view), best
    /// first, ties in generation order.
    fn class_best_replies(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        node: &Position,
    ) -> Result<(Vec<ChanceOutcome>, Vec<Option<Replies>>), SearchError> {
        let (outs, mut replies) = Self::class_replies_unfilled(s, node);
        s.leaves.clear();
        for &(rep, weight) in &s.classes {
            match s.sets.roll(rep) {
                RollOutcome::Moves(ps) => s.leaves.push_class(weight, ps),
                _ => s.leaves.push_class(weight, []),
            }
        }
        if self.leaf.evaluate_leaves(&mut s.leaves)? {
            s.stats.eval_batches += 1;
            s.stats.unique_leaves += s.leaves.len() as u64;
        }
        // The leaves have the node's mover's opponent to move: us at depth 3's MIN node.
        let sign = if node.side_to_move().opponent() == shared.us {
            1.0
        } else {
            -1.0
        };
        let mut order: Vec<usize> = Vec::new();
        for (seg, r) in s.leaves.segments().iter().zip(replies.iter_mut()) {
            let Some(r) = r.as_mut().filter(|r| !r.king && r.pass.is_none()) else {
                continue;
            };
            let values = s.leaves.values(seg);
            let rows = &s.leaves.rows()[seg.start as usize..seg.end as usize];
            order.clear();
            order.extend(0..rows.len());
            order.sort_by(|&i, &j| {
                (sign * values[i])
                    .total_cmp(&(sign * values[j]))
                    .then(i.cmp(&j))
            });
            order.truncate(self.config.reply_limit);
            r.states = order.iter().map(|&i| rows[i]).collect();
            s.stats.replies_skipped += (rows.len() - r.states.len()) as u64;
        }
        Ok((outs, replies))
    }

    /// A chance node whose replies are leaves (depth 2's opponent node, depth 3's own node),
    /// from one shared expansion: every leaf of every class in one evaluator call, then per
    /// class the minimum (`minimize`, the opponent rolls) or maximum, weighted. Returns the
    /// sum over 216 and whether some roll captures the king; `None` when the expansion ran
    /// out of work budget.
    fn leaf_chance(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        node: &Position,
        minimize: bool,
    ) -> Result<Option<(f64, bool)>, SearchError> {
        if !self.expand_node(s, shared, node) {
            return Ok(None);
        }
        s.leaves.clear();
        let pass = node.end_turn();
        for &(rep, weight) in &s.classes {
            match s.sets.roll(rep) {
                RollOutcome::KingCapture => s.leaves.push_king_capture(weight),
                RollOutcome::Pass => s.leaves.push_class(weight, [&pass]),
                RollOutcome::Moves(ps) => s.leaves.push_class(weight, ps),
            }
        }
        if self.leaf.evaluate_leaves(&mut s.leaves)? {
            let rows = s.leaves.len() as u64;
            s.stats.eval_batches += 1;
            s.stats.unique_leaves += rows;
            s.stats.leaves += rows;
        }
        // Every leaf of one node has the same side to move: the node's mover's opponent.
        let sign = if node.side_to_move().opponent() == shared.us {
            1.0
        } else {
            -1.0
        };
        let mut acc = 0f64;
        let mut king = false;
        for seg in s.leaves.segments() {
            let v = if seg.king_capture {
                king = true;
                if minimize {
                    LOSS_VALUE
                } else {
                    WIN_VALUE
                }
            } else {
                let vals = s.leaves.values(seg).iter().map(|&v| sign * v as f64);
                if minimize {
                    vals.fold(f64::INFINITY, f64::min)
                } else {
                    vals.fold(f64::NEG_INFINITY, f64::max)
                }
            };
            acc += seg.weight as f64 * v;
        }
        Ok(Some((acc, king)))
    }

    /// A chance node where we roll (MAX role, depth 3): the exact expectation of our best
    /// reply's leaf value. `None` when the deadline passed.
    fn chance_max(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        b: &Position,
    ) -> Result<Option<f64>, SearchError> {
        let key = b.key() ^ MAX_CHANCE_KEY_SALT;
        if let Some(tt) = &self.tt {
            if let (Some(e), _) = tt.probe(key) {
                if e.depth == 1 {
                    return Ok(Some(e.value));
                }
            }
        }
        let mut outs: Vec<ChanceOutcome> = Vec::new();
        let mut acc = 0f64;
        if self.config.chance == ChanceMode::Shared {
            // One shared node is a whole expansion (2–5 ms in a middlegame) and a depth-3
            // class can have hundreds of replies: the clock is read before each, or a search
            // overran its deadline by 300–450 ms (Kiwipete BNQ, depth 3, 1.5 s).
            if shared.expired() {
                return Ok(None);
            }
            match self.leaf_chance(s, shared, b, false)? {
                Some((sum, _)) => acc = sum,
                None => return Ok(None),
            }
        } else {
            outcomes(b, self.config.chance, &mut outs);
        }
        for &(dice, weight) in &outs {
            if shared.expired() {
                return Ok(None);
            }
            s.stats.rolls_expanded += 1;
            let Some(r) = self.replies(s, shared, &b.with_dice(dice)) else {
                return Ok(None);
            };
            let v = if r.king {
                WIN_VALUE
            } else if let Some(pass) = r.pass {
                self.eval_states(s, shared, &[pass])?[0]
            } else {
                let values = self.eval_states(s, shared, &r.states)?;
                values.into_iter().fold(f64::NEG_INFINITY, f64::max)
            };
            acc += weight as f64 * v;
        }
        let value = acc / 216.0;
        if let Some(tt) = &self.tt {
            tt.store(
                key,
                Entry {
                    value,
                    bound: Bound::Exact,
                    depth: 1,
                    loss_tainted: false,
                },
            );
        }
        Ok(Some(value))
    }

    /// [`Expectimax::eval_states`] after deduplicating by key (probe states of several rolls
    /// often coincide).
    fn eval_unique(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        states: &[Position],
    ) -> Result<Vec<f64>, SearchError> {
        let mut unique: Vec<Position> = Vec::new();
        let mut slot = Vec::with_capacity(states.len());
        let mut index = KeyMap::<usize>::default();
        for p in states {
            let i = *index.entry(p.key()).or_insert_with(|| {
                unique.push(*p);
                unique.len() - 1
            });
            slot.push(i);
        }
        if unique.is_empty() {
            return Ok(Vec::new());
        }
        let values = self.eval_states(s, shared, &unique)?;
        Ok(slot.into_iter().map(|i| values[i]).collect())
    }

    /// The depth a node's table entry carries: `plies`, and for a node whose value a
    /// selective depth 3 shaped (two plies or more left under a `reply_limit`) the limit in
    /// the high bits too, so that searchers of other limits sharing the table (a bot widening
    /// its depth 3 under the clock) never read its values as theirs, nor an exact search's.
    pub(crate) fn tt_depth(&self, plies: u8) -> u8 {
        match self.config.reply_limit {
            m if m > 0 && plies >= 2 => plies | (m.min(15) as u8) << 4,
            _ => plies,
        }
    }

    /// Store a chance-node result: exact values always, upper bounds when pruning.
    fn store(&self, key: u64, plies: u8, r: &NodeResult) {
        let Some(tt) = &self.tt else { return };
        let bound = match r.kind {
            NodeKind::Exact => Bound::Exact,
            NodeKind::Upper => Bound::Upper,
            NodeKind::Aborted => return,
        };
        tt.store(
            key,
            Entry {
                value: r.value,
                bound,
                depth: self.tt_depth(plies),
                loss_tainted: r.loss_tainted,
            },
        );
    }
}

/// The best blended root score converted back into one candidate's search domain, so that
/// pruning stays sound under rescoring (docs/search.md §4.3): −∞ (no pruning) when the
/// weight is 1 or more; `best` when it is 0; else `min(best, next_down((next_down(best) −
/// w·r)/(1 − w)))`.
pub fn transformed_root_alpha(best: f64, rescore: f64, w: f64) -> f64 {
    if best.is_nan() || best == f64::NEG_INFINITY || w.is_nan() || w >= 1.0 {
        return f64::NEG_INFINITY;
    }
    if w <= 0.0 {
        return best;
    }
    let t = (best.next_down() - w * rescore) / (1.0 - w);
    if t.is_nan() {
        return f64::NEG_INFINITY;
    }
    best.min(t.next_down())
}
