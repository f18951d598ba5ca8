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

use super::chance::{outcomes, ChanceMode, Outcome};
use super::stats::RootSearchStats;
use super::tt::{Bound, Entry, TranspositionTable};
use super::value::{
    strictly_below, LOSS_VALUE, MAX_CHANCE_KEY_SALT, TERMINAL_WIN_SCORE, WIN_VALUE,
};
use crate::batch::{LeafBatch, PositionBatch};
use crate::board::Position;
use crate::eval::{BatchEvaluator, ChanceCollapse, EvalError, Material};
use crate::rules::{
    expand_all_rolls_budgeted, Budget, Budgeted, EndStates, RollOutcome, RollSets, TurnGenerator,
    TurnPath,
};
use dicechess_kernels::Color;
use rand_core::Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

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
    /// A remote (webhook) bot failed or answered an illegal turn.
    #[error("remote bot: {0}")]
    Remote(String),
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
}

/// The decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen turn; `None` for a forced pass.
    pub path: Option<TurnPath>,
    /// Its value (root mover's view); [`TERMINAL_WIN_SCORE`] for an immediate king capture.
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

/// Hashes a Zobrist key by itself (it is already uniformly mixed).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

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
    seen: KeySet,
    stats: RootSearchStats,
    /// The shared expansion of the chance node being searched, and its classes.
    sets: RollSets,
    classes: Vec<(usize, u16)>,
    /// The leaves of a leaf-level node, every class in one batch (one segment per class).
    leaves: LeafBatch,
}

thread_local! {
    /// One warmed-up [`Scratch`] per thread, reused by every candidate and decision the thread
    /// searches. A fresh one starts with empty buffers (the shared expansion's buckets and key
    /// tables grow on first use): built per candidate, as `map_init` did with one job per
    /// candidate, it held two threads to 1.1× one thread on Kiwipete's depth-2 decision.
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` with this thread's scratch (a fresh one when it is in use further up the stack: a
/// thread that steals another candidate while it waits inside the evaluator).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.with(|c| c.borrow_mut().take()).unwrap_or_default();
    let r = f(&mut s);
    SCRATCH.with(|c| *c.borrow_mut() = Some(s));
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

    /// Choose a turn for the rolled position `pos`. Ties between equal best values are
    /// broken by `rng`; with one thread and a fixed seed the result is reproducible. When
    /// `deadline` passes, candidates in progress are discarded and the best completed one (or
    /// the pre-ranker's pick) is played: a legal turn is always returned.
    pub fn search<R: Rng>(
        &self,
        pos: &Position,
        deadline: Option<Instant>,
        rng: &mut R,
    ) -> Result<SearchResult, SearchError> {
        if pos.dice().is_empty() {
            return Err(SearchError::NoDice);
        }
        let us = pos.side_to_move();
        let mut scratch = Scratch::default();
        scratch
            .gen
            .legal_paths_with_ends_into(pos, &mut scratch.paths, &mut scratch.ends);
        let paths = std::mem::take(&mut scratch.paths);
        let ends = std::mem::take(&mut scratch.ends);
        let mut stats = RootSearchStats {
            legal_turns: paths.len() as u32,
            ..RootSearchStats::default()
        };
        if paths.is_empty() {
            return Ok(SearchResult {
                path: None,
                score: 0.0,
                stats,
                candidates: Vec::new(),
            });
        }
        // An immediate king capture is played at once: the first shortest one.
        if let Some(win) = paths
            .iter()
            .filter(|p| p.captures_king())
            .min_by_key(|p| p.moves().len())
        {
            return Ok(SearchResult {
                path: Some(*win),
                score: TERMINAL_WIN_SCORE,
                stats,
                candidates: Vec::new(),
            });
        }

        // Distinct after-states, first path of each kept (generation order).
        let mut afters: Vec<(Position, usize)> = Vec::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        scratch.seen.clear();
        let mut index_of =
            std::collections::HashMap::<u64, usize, BuildHasherDefault<KeyHasher>>::default();
        for (i, end) in ends.iter().enumerate() {
            let after = end.end_turn();
            match index_of.get(&after.key()) {
                Some(&g) => groups[g].push(i),
                None => {
                    index_of.insert(after.key(), afters.len());
                    afters.push((after, i));
                    groups.push(vec![i]);
                }
            }
        }
        stats.distinct_afterstates = afters.len() as u32;

        // Pre-rank all after-states in one batch (root mover's view), stable sort, top K.
        let after_batch =
            PositionBatch::from_positions(&afters.iter().map(|a| a.0).collect::<Vec<_>>());
        let mut pre = vec![0f32; afters.len()];
        match &self.prerank {
            Some(model) => model.evaluate(&after_batch, &mut pre)?,
            None => Material.evaluate(&after_batch, &mut pre)?,
        }
        // After-states have the opponent to move: negate into our view.
        let mut order: Vec<usize> = (0..afters.len()).collect();
        order.sort_by(|&a, &b| {
            (-pre[b] as f64)
                .partial_cmp(&(-pre[a] as f64))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        order.truncate(self.config.candidate_limit);
        stats.candidates_selected = order.len() as u32;

        let shared = Shared {
            us,
            deadline,
            expired: AtomicBool::new(false),
        };
        let fallback = (order[0], -(pre[order[0]] as f64));
        let mut reports: Vec<CandidateReport> = order
            .iter()
            .map(|&c| CandidateReport {
                path: paths[afters[c].1],
                pre_score: -(pre[c] as f64),
                value: None,
                loss_tainted: false,
            })
            .collect();

        // Root rescoring: one batch over the candidates.
        let w = if self.rescore.is_some() {
            self.config.rescore_weight
        } else {
            0.0
        };
        let mut resc = vec![0f32; order.len()];
        if w > 0.0 {
            if shared.expired() {
                stats.candidates_abandoned = 1;
                stats.fell_back_to_pre_rank = true;
                return Ok(self.finish_fallback(&paths, &afters, fallback, stats, reports));
            }
            if let Some(model) = &self.rescore {
                let cands: Vec<Position> = order.iter().map(|&c| afters[c].0).collect();
                model.evaluate(&PositionBatch::from_positions(&cands), &mut resc)?;
                // Rescorer values are from the after-state mover's (opponent's) view.
                resc.iter_mut().for_each(|v| *v = -*v);
            }
        }
        if shared.expired() {
            stats.candidates_abandoned = 1;
            stats.fell_back_to_pre_rank = true;
            return Ok(self.finish_fallback(&paths, &afters, fallback, stats, reports));
        }

        if let Some((model, guard)) = &self.collapse {
            let cands: Vec<Position> = order.iter().map(|&c| afters[c].0).collect();
            let values = model.expectations(&PositionBatch::from_positions(&cands), us)?;
            if values.len() != cands.len() {
                // A wrong batch length is refused: nothing ranked, pre-rank fallback.
                stats.candidates_abandoned = 1;
                stats.fell_back_to_pre_rank = true;
                return Ok(self.finish_fallback(&paths, &afters, fallback, stats, reports));
            }
            stats.candidates_collapsed = cands.len() as u32;
            for (k, (v, after)) in values.iter().zip(&cands).enumerate() {
                let tainted = *guard && w > 0.0 && crate::probe::king_capture_rolls(after, us) > 0;
                reports[k].loss_tainted = tainted;
                reports[k].value = Some(if w > 0.0 && !tainted {
                    (1.0 - w) * v + w * resc[k] as f64
                } else {
                    *v
                });
            }
            let best = reports
                .iter()
                .filter_map(|r| r.value)
                .fold(f64::NEG_INFINITY, f64::max);
            return Ok(self.pick_best(&paths, &groups, &order, best, stats, reports, rng));
        }

        let plies = self.config.depth - 1;
        // Best blended value so far (root domain), for each candidate's window.
        let best_final = AtomicU64::new(f64::NEG_INFINITY.to_bits());
        let run =
            |scratch: &mut Scratch, k: usize| -> Result<Option<(f64, NodeResult)>, SearchError> {
                if shared.expired() {
                    return Ok(None);
                }
                let c = order[k];
                let best = f64::from_bits(best_final.load(Ordering::Acquire));
                let alpha = if w > 0.0 {
                    transformed_root_alpha(best, resc[k] as f64, w)
                } else {
                    best
                };
                let res = self.chance_min(scratch, &shared, &afters[c].0, plies, alpha)?;
                if res.kind == NodeKind::Exact {
                    let fin = if w > 0.0 && !res.loss_tainted {
                        (1.0 - w) * res.value + w * resc[k] as f64
                    } else {
                        res.value
                    };
                    let mut cur = best_final.load(Ordering::Acquire);
                    while fin > f64::from_bits(cur) {
                        match best_final.compare_exchange_weak(
                            cur,
                            fin.to_bits(),
                            Ordering::AcqRel,
                            Ordering::Acquire,
                        ) {
                            Ok(_) => break,
                            Err(now) => cur = now,
                        }
                    }
                    return Ok(Some((fin, res)));
                }
                Ok(Some((res.value, res)))
            };

        let results: Vec<Result<(CandidateOutcome, RootSearchStats), SearchError>> =
            if self.config.parallel && order.len() > 1 && rayon::current_num_threads() > 1 {
                (0..order.len())
                    .into_par_iter()
                    .with_max_len(1)
                    .map(|k| {
                        with_scratch(|s| {
                            s.stats = RootSearchStats::default();
                            run(s, k).map(|r| (r, s.stats))
                        })
                    })
                    .collect()
            } else {
                with_scratch(|s| {
                    (0..order.len())
                        .map(|k| {
                            s.stats = RootSearchStats::default();
                            run(s, k).map(|r| (r, s.stats))
                        })
                        .collect()
                })
            };

        for (k, r) in results.into_iter().enumerate() {
            let (outcome, worker_stats) = r?;
            stats.merge(&worker_stats);
            let Some((fin, res)) = outcome else {
                continue;
            };
            reports[k].loss_tainted = res.loss_tainted;
            match res.kind {
                NodeKind::Exact => {
                    reports[k].value = Some(fin);
                    if res.from_tt {
                        stats.tt_hits += 1;
                    } else {
                        stats.candidates_completed += 1;
                    }
                }
                NodeKind::Upper => {
                    if res.from_tt {
                        stats.tt_cutoffs += 1;
                    } else {
                        stats.cutoffs += 1;
                        stats.probe_cutoffs += res.probe_cut as u32;
                        stats.rolls_saved += (res.rolls_total - res.rolls_processed) as u32;
                    }
                }
                NodeKind::Aborted => stats.candidates_abandoned += 1,
            }
        }
        // Candidates never started because the deadline had passed are abandoned too.
        let unstarted = reports.len() as u32
            - (stats.candidates_completed
                + stats.tt_hits
                + stats.cutoffs
                + stats.tt_cutoffs
                + stats.candidates_abandoned);
        stats.candidates_abandoned += unstarted;
        if reports.iter().all(|r| r.value.is_none()) {
            stats.fell_back_to_pre_rank = true;
            return Ok(self.finish_fallback(&paths, &afters, fallback, stats, reports));
        }
        let best = reports
            .iter()
            .filter_map(|r| r.value)
            .fold(f64::NEG_INFINITY, f64::max);
        Ok(self.pick_best(&paths, &groups, &order, best, stats, reports, rng))
    }

    /// Uniform among every path of every candidate whose value equals `best`.
    #[allow(clippy::too_many_arguments)]
    fn pick_best<R: Rng>(
        &self,
        paths: &[TurnPath],
        groups: &[Vec<usize>],
        order: &[usize],
        best: f64,
        stats: RootSearchStats,
        reports: Vec<CandidateReport>,
        rng: &mut R,
    ) -> SearchResult {
        let tied: Vec<usize> = order
            .iter()
            .zip(&reports)
            .filter(|(_, r)| r.value == Some(best))
            .flat_map(|(&c, _)| groups[c].iter().copied())
            .collect();
        let pick = tied[(rng.next_u64() % tied.len() as u64) as usize];
        SearchResult {
            path: Some(paths[pick]),
            score: best,
            stats,
            candidates: reports,
        }
    }

    fn finish_fallback(
        &self,
        paths: &[TurnPath],
        afters: &[(Position, usize)],
        fallback: (usize, f64),
        stats: RootSearchStats,
        candidates: Vec<CandidateReport>,
    ) -> SearchResult {
        SearchResult {
            path: Some(paths[afters[fallback.0].1]),
            score: fallback.1,
            stats,
            candidates,
        }
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
    fn class_replies(s: &Scratch, node: &Position) -> (Vec<Outcome>, Vec<Option<Replies>>) {
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
                RollOutcome::Moves(ps) => Replies {
                    king: false,
                    pass: None,
                    states: ps.to_vec(),
                },
            }));
        }
        (outs, replies)
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
        if s.leaves.evaluate(self.leaf.as_ref())? {
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

    /// A chance node where the opponent rolls (MIN role). `plies` = 1: the replies are
    /// leaves; 2: each reply leads to our chance node. Cuts when the value is proven below
    /// `alpha` (root domain).
    fn chance_min(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        a: &Position,
        plies: u8,
        alpha: f64,
    ) -> Result<NodeResult, SearchError> {
        let key = a.key();
        let mut result = NodeResult {
            value: 0.0,
            kind: NodeKind::Exact,
            loss_tainted: false,
            rolls_processed: 0,
            rolls_total: 0,
            probe_cut: false,
            from_tt: false,
        };
        if let Some(tt) = &self.tt {
            s.stats.tt_probes += 1;
            let (exact, bound) = tt.probe(key);
            if let Some(e) = exact.filter(|e| e.depth == plies) {
                result.value = e.value;
                result.loss_tainted = e.loss_tainted;
                result.from_tt = true;
                return Ok(result);
            }
            if let Some(e) = bound.filter(|e| e.depth == plies && e.bound == Bound::Upper) {
                if self.config.pruning && strictly_below(e.value, alpha) {
                    result.value = e.value;
                    result.kind = NodeKind::Upper;
                    result.from_tt = true;
                    return Ok(result);
                }
            }
        }
        let shared_rolls = self.config.chance == ChanceMode::Shared;
        if shared_rolls && plies == 1 {
            // Leaves: the exact value from one batch (the expansion, shared by all rolls, is
            // what pruning used to save; the evaluator call is one either way).
            let Some((sum, king)) = self.leaf_chance(s, shared, a, true)? else {
                result.kind = NodeKind::Aborted;
                return Ok(result);
            };
            result.value = sum / 216.0;
            result.loss_tainted = king;
            result.rolls_total = s.classes.len();
            result.rolls_processed = s.classes.len();
            self.store(key, plies, &result);
            return Ok(result);
        }
        let (outs, mut cached) = if shared_rolls {
            if !self.expand_node(s, shared, a) {
                result.kind = NodeKind::Aborted;
                return Ok(result);
            }
            Self::class_replies(s, a)
        } else {
            let mut outs: Vec<Outcome> = Vec::new();
            outcomes(a, self.config.chance, &mut outs);
            let none = vec![None; outs.len()];
            (outs, none)
        };
        result.rolls_total = outs.len();
        let n = outs.len();
        let alpha_sum = alpha * 216.0;
        let probing = self.config.pruning && alpha.is_finite();

        // Star2: one probe reply per roll gives an upper bound on that roll's minimum.
        let mut ceil = vec![0f64; n + 1];
        if probing {
            let mut probe_values = vec![0f64; n];
            let mut probe_states: Vec<(usize, Position)> = Vec::new();
            for (k, &(dice, _)) in outs.iter().enumerate() {
                if shared.expired() {
                    result.kind = NodeKind::Aborted;
                    return Ok(result);
                }
                let r = match cached[k].take() {
                    Some(r) => r,
                    None => match self.replies(s, shared, &a.with_dice(dice)) {
                        Some(r) => r,
                        None => {
                            result.kind = NodeKind::Aborted;
                            return Ok(result);
                        }
                    },
                };
                if r.king {
                    probe_values[k] = LOSS_VALUE;
                } else {
                    let state = match r.pass {
                        Some(p) => p,
                        None => *r
                            .states
                            .iter()
                            .min_by_key(|p| Material::score(p, shared.us))
                            .expect("replies exist"),
                    };
                    probe_states.push((k, state));
                }
                cached[k] = Some(r);
            }
            if plies == 1 {
                let states: Vec<Position> = probe_states.iter().map(|x| x.1).collect();
                let values = self.eval_unique(s, shared, &states)?;
                for ((k, _), v) in probe_states.iter().zip(values) {
                    probe_values[*k] = v;
                }
            } else {
                for (k, state) in &probe_states {
                    let v = self.chance_max(s, shared, state)?;
                    match v {
                        Some(v) => probe_values[*k] = v,
                        None => {
                            result.kind = NodeKind::Aborted;
                            return Ok(result);
                        }
                    }
                }
            }
            for k in (0..n).rev() {
                ceil[k] = ceil[k + 1] + outs[k].1 as f64 * probe_values[k];
            }
            if strictly_below(ceil[0], alpha_sum) {
                result.value = ceil[0] / 216.0;
                result.kind = NodeKind::Upper;
                result.probe_cut = true;
                self.store(key, plies, &result);
                return Ok(result);
            }
        }

        // Star1: expand roll by roll, heaviest first.
        let mut acc = 0f64;
        for (k, &(dice, weight)) in outs.iter().enumerate() {
            if probing && strictly_below(acc + ceil[k], alpha_sum) {
                result.value = (acc + ceil[k]) / 216.0;
                result.kind = NodeKind::Upper;
                result.rolls_processed = k;
                self.store(key, plies, &result);
                return Ok(result);
            }
            if shared.expired() {
                result.kind = NodeKind::Aborted;
                return Ok(result);
            }
            s.stats.rolls_expanded += 1;
            let r = match cached[k].take() {
                Some(r) => r,
                None => match self.replies(s, shared, &a.with_dice(dice)) {
                    Some(r) => r,
                    None => {
                        result.kind = NodeKind::Aborted;
                        return Ok(result);
                    }
                },
            };
            let wf = weight as f64;
            let v = if r.king {
                LOSS_VALUE
            } else if let Some(pass) = r.pass {
                if plies == 1 {
                    self.eval_states(s, shared, &[pass])?[0]
                } else {
                    match self.chance_max(s, shared, &pass)? {
                        Some(v) => v,
                        None => {
                            result.kind = NodeKind::Aborted;
                            return Ok(result);
                        }
                    }
                }
            } else if plies == 1 {
                let values = self.eval_states(s, shared, &r.states)?;
                values.into_iter().fold(f64::INFINITY, f64::min)
            } else {
                // Our chance node under each reply; the minimum, cut when it cannot matter.
                // The test stays in the sum domain: a per-roll alpha `(alpha_sum − acc −
                // ceil)/w` loses the tie to cancellation when loss values (−1e9) sit in the
                // sums, and would cut a reply that ties the best candidate.
                let below =
                    |best: f64| probing && strictly_below(acc + wf * best + ceil[k + 1], alpha_sum);
                let mut states = r.states;
                states.sort_by_cached_key(|p| Material::score(p, shared.us));
                let mut best = f64::INFINITY;
                for st in &states {
                    match self.chance_max(s, shared, st)? {
                        Some(v) => best = best.min(v),
                        None => {
                            result.kind = NodeKind::Aborted;
                            return Ok(result);
                        }
                    }
                    if below(best) {
                        break;
                    }
                }
                if below(best) {
                    // This roll alone pushes the node below alpha.
                    result.value = (acc + wf * best + ceil[k + 1]) / 216.0;
                    result.kind = NodeKind::Upper;
                    result.rolls_processed = k + 1;
                    self.store(key, plies, &result);
                    return Ok(result);
                }
                best
            };
            if v == LOSS_VALUE {
                result.loss_tainted = true;
            }
            acc += wf * v;
        }
        result.value = acc / 216.0;
        result.rolls_processed = n;
        self.store(key, plies, &result);
        Ok(result)
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
        let mut outs: Vec<Outcome> = Vec::new();
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
        let mut index =
            std::collections::HashMap::<u64, usize, BuildHasherDefault<KeyHasher>>::default();
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
                depth: plies,
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
