//! The root of a decision, stage by stage: the candidates (distinct after-states,
//! pre-ranked, the best K kept), their rescoring, then either one chance-collapse call or a
//! chance-node search per candidate (in parallel), and the pick among the best.

use super::{
    transformed_root_alpha, with_scratch, CandidateOutcome, CandidateReport, Expectimax, NodeKind,
    NodeResult, Scratch, SearchError, SearchResult, Shared,
};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::eval::TERMINAL_WIN_SCORE;
use crate::eval::{BatchEvaluator, ChanceCollapse, Material};
use crate::rules::{KeyMap, TurnPath};
use crate::search::stats::RootSearchStats;
use dicechess_kernels::Color;
use rand_core::Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// A decision's candidates after pre-ranking, and what the search learns of them.
struct Root {
    paths: Vec<TurnPath>,
    /// Distinct after-states with the first path reaching each (generation order).
    afters: Vec<(Position, usize)>,
    /// The paths reaching each after-state.
    groups: Vec<Vec<usize>>,
    /// The candidates: indices into `afters`, best pre-rank first, at most the limit.
    order: Vec<usize>,
    /// The pre-ranker's pick and its score (the fallback when nothing completes).
    fallback: (usize, f64),
    reports: Vec<CandidateReport>,
    stats: RootSearchStats,
}

impl Expectimax {
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
        self.search_ordered(pos, deadline, rng, None)
    }

    /// [`Expectimax::search`] one iteration after `shallow`, a finished search of the same
    /// position (iterative deepening, docs/search.md §4.7): the candidates `shallow` valued
    /// come first, best value first, then the rest in pre-rank order, before this searcher's
    /// candidate limit. Under a deadline the shallow search's best candidates are the ones
    /// searched first, so a partial answer is still worth playing (see
    /// [`CandidateReport::resolved`]).
    pub fn search_deeper<R: Rng>(
        &self,
        pos: &Position,
        deadline: Option<Instant>,
        rng: &mut R,
        shallow: &SearchResult,
    ) -> Result<SearchResult, SearchError> {
        self.search_ordered(pos, deadline, rng, Some(&shallow.candidates))
    }

    fn search_ordered<R: Rng>(
        &self,
        pos: &Position,
        deadline: Option<Instant>,
        rng: &mut R,
        prior: Option<&[CandidateReport]>,
    ) -> Result<SearchResult, SearchError> {
        if pos.dice().is_empty() {
            return Err(SearchError::NoDice);
        }
        let us = pos.side_to_move();
        let mut root = match self.root_candidates(pos, prior)? {
            Ok(root) => root,
            Err(decided) => return Ok(decided),
        };
        let shared = Shared {
            us,
            deadline,
            expired: AtomicBool::new(false),
        };
        let w = if self.rescore.is_some() {
            self.config.rescore_weight
        } else {
            0.0
        };
        let Some(resc) = self.rescore_candidates(&root, &shared, w)? else {
            return Ok(root.abandon());
        };
        if let Some((model, guard)) = &self.collapse {
            return self.collapse_candidates(root, model.as_ref(), *guard, us, w, &resc, rng);
        }
        let results = self.search_candidates(&root, &shared, w, &resc);
        root.tally(results)?;
        if root.reports.iter().all(|r| r.value.is_none()) {
            return Ok(root.fall_back());
        }
        Ok(root.pick_best(rng))
    }

    /// The root's candidates, or the decision itself when there is nothing to search: a pass
    /// (no legal path) or an immediate king capture (the first shortest one).
    fn root_candidates(
        &self,
        pos: &Position,
        prior: Option<&[CandidateReport]>,
    ) -> Result<Result<Root, SearchResult>, SearchError> {
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
            return Ok(Err(SearchResult {
                path: None,
                score: 0.0,
                stats,
                candidates: Vec::new(),
            }));
        }
        if let Some(win) = paths
            .iter()
            .filter(|p| p.captures_king())
            .min_by_key(|p| p.moves().len())
        {
            return Ok(Err(SearchResult {
                path: Some(*win),
                score: TERMINAL_WIN_SCORE,
                stats,
                candidates: Vec::new(),
            }));
        }
        let (afters, groups) = distinct_afters(&ends);
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
        if let Some(prior) = prior {
            order = prior_first(order, prior, |c| paths[afters[c].1]);
        }
        order.truncate(self.config.candidate_limit);
        stats.candidates_selected = order.len() as u32;
        let fallback = (order[0], -(pre[order[0]] as f64));
        let reports = order
            .iter()
            .map(|&c| CandidateReport {
                path: paths[afters[c].1],
                pre_score: -(pre[c] as f64),
                value: None,
                loss_tainted: false,
                resolved: false,
            })
            .collect();
        Ok(Ok(Root {
            paths,
            afters,
            groups,
            order,
            fallback,
            reports,
            stats,
        }))
    }

    /// The rescorer's value of each candidate (root mover's view; zeros without rescoring),
    /// or `None` when the deadline passed first.
    fn rescore_candidates(
        &self,
        root: &Root,
        shared: &Shared,
        w: f64,
    ) -> Result<Option<Vec<f32>>, SearchError> {
        let mut resc = vec![0f32; root.order.len()];
        if w > 0.0 {
            if shared.expired() {
                return Ok(None);
            }
            if let Some(model) = &self.rescore {
                model.evaluate(
                    &PositionBatch::from_positions(&root.candidates()),
                    &mut resc,
                )?;
                // Rescorer values are from the after-state mover's (opponent's) view.
                resc.iter_mut().for_each(|v| *v = -*v);
            }
        }
        if shared.expired() {
            return Ok(None);
        }
        Ok(Some(resc))
    }

    /// The decision from one chance-collapse call over every candidate (blended with the
    /// rescorer's values unless `guard` finds a king capture reply).
    #[allow(clippy::too_many_arguments)]
    fn collapse_candidates<R: Rng>(
        &self,
        mut root: Root,
        model: &dyn ChanceCollapse,
        guard: bool,
        us: Color,
        w: f64,
        resc: &[f32],
        rng: &mut R,
    ) -> Result<SearchResult, SearchError> {
        let cands = root.candidates();
        let values = model.expectations(&PositionBatch::from_positions(&cands), us)?;
        if values.len() != cands.len() {
            // A wrong batch length is refused: nothing ranked, pre-rank fallback.
            return Ok(root.abandon());
        }
        root.stats.candidates_collapsed = cands.len() as u32;
        for (k, (v, after)) in values.iter().zip(&cands).enumerate() {
            let tainted = guard && w > 0.0 && crate::probe::king_capture_rolls(after, us) > 0;
            root.reports[k].loss_tainted = tainted;
            root.reports[k].resolved = true;
            root.reports[k].value = Some(if w > 0.0 && !tainted {
                (1.0 - w) * v + w * resc[k] as f64
            } else {
                *v
            });
        }
        Ok(root.pick_best(rng))
    }

    /// Each candidate's chance node, searched in parallel (one job per candidate) unless
    /// the configuration or the pool says otherwise; its window is the best blended value
    /// completed so far.
    fn search_candidates(
        &self,
        root: &Root,
        shared: &Shared,
        w: f64,
        resc: &[f32],
    ) -> Vec<Result<(CandidateOutcome, RootSearchStats), SearchError>> {
        let plies = self.config.depth - 1;
        // Best blended value so far (root domain), for each candidate's window.
        let best_final = AtomicU64::new(f64::NEG_INFINITY.to_bits());
        let run = |scratch: &mut Scratch, k: usize| -> Result<CandidateOutcome, SearchError> {
            if shared.expired() {
                return Ok(None);
            }
            let c = root.order[k];
            let best = f64::from_bits(best_final.load(Ordering::Acquire));
            let alpha = if w > 0.0 {
                transformed_root_alpha(best, resc[k] as f64, w)
            } else {
                best
            };
            let res = self.chance_min(scratch, shared, &root.afters[c].0, plies, alpha)?;
            if res.kind == NodeKind::Exact {
                let fin = if w > 0.0 && !res.loss_tainted {
                    (1.0 - w) * res.value + w * resc[k] as f64
                } else {
                    res.value
                };
                raise(&best_final, fin);
                return Ok(Some((fin, res)));
            }
            Ok(Some((res.value, res)))
        };
        let n = root.order.len();
        if self.config.parallel && n > 1 && rayon::current_num_threads() > 1 {
            (0..n)
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
                (0..n)
                    .map(|k| {
                        s.stats = RootSearchStats::default();
                        run(s, k).map(|r| (r, s.stats))
                    })
                    .collect()
            })
        }
    }
}

/// Raise `best` (the bits of an `f64`) to `value` unless it is already at least that.
fn raise(best: &AtomicU64, value: f64) {
    let mut cur = best.load(Ordering::Acquire);
    while value > f64::from_bits(cur) {
        match best.compare_exchange_weak(cur, value.to_bits(), Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => break,
            Err(now) => cur = now,
        }
    }
}

/// `order` (after-state indices in pre-rank order) with the candidates `prior` valued first,
/// best value first (ties in pre-rank order), the rest after them in pre-rank order;
/// `path_of` gives an after-state's first path, which names it in `prior`.
fn prior_first(
    order: Vec<usize>,
    prior: &[CandidateReport],
    path_of: impl Fn(usize) -> TurnPath,
) -> Vec<usize> {
    let mut valued: Vec<(f64, usize)> = prior
        .iter()
        .filter_map(|r| Some((r.value?, order.iter().position(|&c| path_of(c) == r.path)?)))
        .collect();
    valued.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut first = vec![false; order.len()];
    for &(_, rank) in &valued {
        first[rank] = true;
    }
    let rest = (0..order.len()).filter(|&rank| !first[rank]);
    valued
        .iter()
        .map(|&(_, rank)| rank)
        .chain(rest)
        .map(|rank| order[rank])
        .collect()
}

/// Distinct after-states of the paths' end positions, the first path of each kept
/// (generation order), and the paths reaching each.
fn distinct_afters(ends: &[Position]) -> (Vec<(Position, usize)>, Vec<Vec<usize>>) {
    let mut afters: Vec<(Position, usize)> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index_of = KeyMap::<usize>::default();
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
    (afters, groups)
}

impl Root {
    /// The candidates' after-states, in candidate order.
    fn candidates(&self) -> Vec<Position> {
        self.order.iter().map(|&c| self.afters[c].0).collect()
    }

    /// Fold the candidates' search results into the reports and statistics.
    fn tally(
        &mut self,
        results: Vec<Result<(CandidateOutcome, RootSearchStats), SearchError>>,
    ) -> Result<(), SearchError> {
        let stats = &mut self.stats;
        for (k, r) in results.into_iter().enumerate() {
            let (outcome, worker_stats) = r?;
            stats.merge(&worker_stats);
            let Some((fin, res)) = outcome else {
                continue;
            };
            self.reports[k].loss_tainted = res.loss_tainted;
            self.reports[k].resolved = res.kind != NodeKind::Aborted;
            match res.kind {
                NodeKind::Exact => {
                    self.reports[k].value = Some(fin);
                    if res.from_tt {
                        stats.tt_hits += 1;
                    } else {
                        stats.candidates_completed += 1;
                    }
                }
                NodeKind::Upper => count_cut(stats, &res),
                NodeKind::Aborted => stats.candidates_abandoned += 1,
            }
        }
        // Candidates never started because the deadline had passed are abandoned too.
        let unstarted = self.reports.len() as u32
            - (stats.candidates_completed
                + stats.tt_hits
                + stats.cutoffs
                + stats.tt_cutoffs
                + stats.candidates_abandoned);
        stats.candidates_abandoned += unstarted;
        Ok(())
    }

    /// The pre-ranker's pick, every candidate abandoned before its search began (the
    /// deadline passed, or the collapse model answered a wrong batch).
    fn abandon(mut self) -> SearchResult {
        self.stats.candidates_abandoned = 1;
        self.fall_back()
    }

    /// The pre-ranker's pick: no candidate completed.
    fn fall_back(mut self) -> SearchResult {
        self.stats.fell_back_to_pre_rank = true;
        SearchResult {
            path: Some(self.paths[self.afters[self.fallback.0].1]),
            score: self.fallback.1,
            stats: self.stats,
            candidates: self.reports,
        }
    }

    /// Uniform among every path of every candidate whose value is the best.
    fn pick_best<R: Rng>(self, rng: &mut R) -> SearchResult {
        let best = self
            .reports
            .iter()
            .filter_map(|r| r.value)
            .fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = self
            .order
            .iter()
            .zip(&self.reports)
            .filter(|(_, r)| r.value == Some(best))
            .flat_map(|(&c, _)| self.groups[c].iter().copied())
            .collect();
        let pick = tied[(rng.next_u64() % tied.len() as u64) as usize];
        SearchResult {
            path: Some(self.paths[pick]),
            score: best,
            stats: self.stats,
            candidates: self.reports,
        }
    }
}

/// Count a candidate cut below the window (by the table or by pruning).
fn count_cut(stats: &mut RootSearchStats, res: &NodeResult) {
    if res.from_tt {
        stats.tt_cutoffs += 1;
    } else {
        stats.cutoffs += 1;
        stats.probe_cutoffs += res.probe_cut as u32;
        stats.rolls_saved += (res.rolls_total - res.rolls_processed) as u32;
    }
}
