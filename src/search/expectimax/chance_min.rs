//! The opponent's chance node (MIN role), stage by stage: the transposition table; a
//! leaf-level node from one shared expansion; else the rolls (classes of a shared expansion,
//! or the outcomes of the chance mode), Star2's probe ceilings and Star1's roll-by-roll
//! expansion, heaviest roll first, cut as soon as the node is proven below the window.
//!
//! A selective depth-3 node (`SearchConfig::reply_limit` > 0) gives our chance node only to
//! the opponent's few best replies of each roll by the leaf evaluator (docs/search.md §4.5a).

use super::{
    with_scratch, Expectimax, NodeKind, NodeResult, Replies, Scratch, SearchError, Shared,
};
use crate::board::{Dice, Position};
use crate::eval::Material;
use crate::eval::LOSS_VALUE;
use crate::search::chance::{outcomes, ChanceMode, ChanceOutcome};
use crate::search::tt::Bound;
use crate::search::value::strictly_below;
use crate::search::RootSearchStats;
use rayon::prelude::*;

/// Star2's ceilings (`ceil[k]`: the probes' weighted sum over rolls `k..`, and a zero after
/// the last) and the probe values themselves, one per roll.
type Ceilings = (Vec<f64>, Vec<f64>);

/// How one roll of a MIN node came out.
enum RollValue {
    /// Its value: the minimum over the replies.
    Value(f64),
    /// Proven low enough that the node is below the window: the best (lowest) reply value
    /// found.
    Cut(f64),
    /// The deadline passed (or an enumeration ran out of budget).
    Aborted,
}

/// What Star1 needs to know to cut inside a roll: the sum so far, the ceiling of the rolls
/// after this one, the window (all ×216) and whether pruning is on.
#[derive(Clone, Copy)]
struct Window {
    acc: f64,
    rest: f64,
    alpha_sum: f64,
    probing: bool,
}

impl Window {
    /// Whether a roll of weight `wf` whose best reply is `best` puts the node below the
    /// window. The test stays in the sum domain: a per-roll alpha `(alpha_sum − acc −
    /// ceil)/w` loses the tie to cancellation when loss values (−1e9) sit in the sums, and
    /// would cut a reply that ties the best candidate.
    fn below(&self, wf: f64, best: f64) -> bool {
        self.probing && strictly_below(self.acc + wf * best + self.rest, self.alpha_sum)
    }
}

impl NodeResult {
    /// An exact result of value 0, nothing processed yet.
    fn start() -> NodeResult {
        NodeResult {
            value: 0.0,
            kind: NodeKind::Exact,
            loss_tainted: false,
            rolls_processed: 0,
            rolls_total: 0,
            probe_cut: false,
            from_tt: false,
        }
    }

    /// `self` marked aborted.
    fn aborted(mut self) -> NodeResult {
        self.kind = NodeKind::Aborted;
        self
    }
}

impl Expectimax {
    /// A chance node where the opponent rolls (MIN role). `plies` = 1: the replies are
    /// leaves; 2: each reply leads to our chance node. Cuts when the value is proven below
    /// `alpha` (root domain).
    pub(super) fn chance_min(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        a: &Position,
        plies: u8,
        alpha: f64,
    ) -> Result<NodeResult, SearchError> {
        let key = a.key();
        if let Some(hit) = self.min_from_table(s, key, plies, alpha) {
            return Ok(hit);
        }
        let mut result = NodeResult::start();
        let shared_rolls = self.config.chance == ChanceMode::Shared;
        if shared_rolls && plies == 1 {
            // Leaves: the exact value from one batch (the expansion, shared by all rolls, is
            // what pruning used to save; the evaluator call is one either way).
            let Some((sum, king)) = self.leaf_chance(s, shared, a, true)? else {
                return Ok(result.aborted());
            };
            result.value = sum / 216.0;
            result.loss_tainted = king;
            result.rolls_total = s.classes.len();
            result.rolls_processed = s.classes.len();
            self.store(key, plies, &result);
            return Ok(result);
        }
        let selective = plies == 2 && self.config.reply_limit > 0;
        let (outs, mut cached) = if shared_rolls {
            if !self.expand_node(s, shared, a) {
                return Ok(result.aborted());
            }
            if selective {
                self.class_best_replies(s, shared, a)?
            } else {
                Self::class_replies(s, a)
            }
        } else {
            let mut outs: Vec<ChanceOutcome> = Vec::new();
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
        // A selective node probes the first reply of every roll even without a window: the
        // probe is the first reply the roll searches anyway, its value is kept (the roll loop
        // does not search it again), and the probes run on the pool together, so a lone
        // candidate (the depth-2 choice, searched first) gets every thread.
        let mut known_first = vec![None; n];
        if probing || selective {
            match self.probe_ceilings(s, shared, a, plies, &outs, &mut cached)? {
                Some((c, probes)) => {
                    ceil = c;
                    if selective {
                        known_first = probes.into_iter().map(Some).collect();
                    }
                }
                None => return Ok(result.aborted()),
            }
            if probing && strictly_below(ceil[0], alpha_sum) {
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
                return Ok(result.aborted());
            }
            s.stats.rolls_expanded += 1;
            let Some(r) = self.roll_replies(s, shared, a, dice, &mut cached[k]) else {
                return Ok(result.aborted());
            };
            let wf = weight as f64;
            let window = Window {
                acc,
                rest: ceil[k + 1],
                alpha_sum,
                probing,
            };
            let v = match self.min_roll(s, shared, r, plies, wf, window, known_first[k])? {
                RollValue::Value(v) => v,
                RollValue::Aborted => return Ok(result.aborted()),
                RollValue::Cut(best) => {
                    // This roll alone pushes the node below alpha.
                    result.value = (acc + wf * best + ceil[k + 1]) / 216.0;
                    result.kind = NodeKind::Upper;
                    result.rolls_processed = k + 1;
                    self.store(key, plies, &result);
                    return Ok(result);
                }
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

    /// The table's answer for this node: an exact value of the same depth, or an upper
    /// bound of the same depth below `alpha` (when pruning).
    fn min_from_table(
        &self,
        s: &mut Scratch,
        key: u64,
        plies: u8,
        alpha: f64,
    ) -> Option<NodeResult> {
        let tt = self.tt.as_ref()?;
        s.stats.tt_probes += 1;
        let mut result = NodeResult::start();
        result.from_tt = true;
        let (exact, bound) = tt.probe(key);
        let depth = self.tt_depth(plies);
        if let Some(e) = exact.filter(|e| e.depth == depth) {
            result.value = e.value;
            result.loss_tainted = e.loss_tainted;
            return Some(result);
        }
        let e = bound.filter(|e| e.depth == depth && e.bound == Bound::Upper)?;
        if self.config.pruning && strictly_below(e.value, alpha) {
            result.value = e.value;
            result.kind = NodeKind::Upper;
            return Some(result);
        }
        None
    }

    /// The replies of roll `dice` at `a`: the cached ones if the roll has them (taken), else
    /// enumerated now; `None` when the enumeration ran out of budget.
    fn roll_replies(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        a: &Position,
        dice: Dice,
        cached: &mut Option<Replies>,
    ) -> Option<Replies> {
        match cached.take() {
            Some(r) => Some(r),
            None => self.replies(s, shared, &a.with_dice(dice)),
        }
    }

    /// Star2's ceilings: `ceil[k]` is the weighted sum, over rolls `k..`, of one probe
    /// reply's value per roll (the material-minimising reply — in a selective node the
    /// leaf evaluator's best reply for the opponent — or a loss for a king capture), an
    /// upper bound on those rolls' minima, and the probe values themselves. The replies are
    /// cached for Star1. `None` when the deadline passed.
    fn probe_ceilings(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        a: &Position,
        plies: u8,
        outs: &[ChanceOutcome],
        cached: &mut [Option<Replies>],
    ) -> Result<Option<Ceilings>, SearchError> {
        let n = outs.len();
        let mut probe_values = vec![0f64; n];
        let mut probe_states: Vec<(usize, Position)> = Vec::new();
        for (k, &(dice, _)) in outs.iter().enumerate() {
            if shared.expired() {
                return Ok(None);
            }
            let Some(r) = self.roll_replies(s, shared, a, dice, &mut cached[k]) else {
                return Ok(None);
            };
            if r.king {
                probe_values[k] = LOSS_VALUE;
            } else {
                let state = match r.pass {
                    Some(p) => p,
                    // A selective node's replies come best first (for the opponent): the
                    // probe is the first reply the roll searches anyway.
                    None if plies == 2 && self.config.reply_limit > 0 => r.states[0],
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
            let values = self.chance_max_all(s, shared, &probe_states);
            for ((k, _), v) in probe_states.iter().zip(values) {
                match v? {
                    Some(v) => probe_values[*k] = v,
                    None => return Ok(None),
                }
            }
        }
        let mut ceil = vec![0f64; n + 1];
        for k in (0..n).rev() {
            ceil[k] = ceil[k + 1] + outs[k].1 as f64 * probe_values[k];
        }
        Ok(Some((ceil, probe_values)))
    }

    /// Our chance node under each of `states` ([`Expectimax::chance_max`]), on the pool when
    /// the search is parallel (each job on a scratch of its thread, its statistics added to
    /// `s`'s), else one after the other.
    fn chance_max_all(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        states: &[(usize, Position)],
    ) -> Vec<Result<Option<f64>, SearchError>> {
        if !self.config.parallel || states.len() < 2 || rayon::current_num_threads() < 2 {
            return states
                .iter()
                .map(|(_, st)| self.chance_max(s, shared, st))
                .collect();
        }
        let jobs: Vec<(Result<Option<f64>, SearchError>, RootSearchStats)> = states
            .par_iter()
            .with_max_len(1)
            .map(|(_, st)| {
                with_scratch(|job| {
                    let outer = std::mem::take(&mut job.stats);
                    let v = self.chance_max(job, shared, st);
                    (v, std::mem::replace(&mut job.stats, outer))
                })
            })
            .collect();
        jobs.into_iter()
            .map(|(v, stats)| {
                s.stats.add_work(&stats);
                v
            })
            .collect()
    }

    /// One roll of weight `wf` with replies `r`: a loss on a king capture; else the pass
    /// state's value or the minimum over the replies (leaves at `plies` = 1, our chance
    /// nodes at 2, those in material order — a selective node's few in its order — and cut
    /// once the roll alone decides the node). `known_first`: the value of the first reply's
    /// chance node when the probe already searched it.
    #[allow(clippy::too_many_arguments)]
    fn min_roll(
        &self,
        s: &mut Scratch,
        shared: &Shared,
        r: Replies,
        plies: u8,
        wf: f64,
        window: Window,
        known_first: Option<f64>,
    ) -> Result<RollValue, SearchError> {
        if r.king {
            return Ok(RollValue::Value(LOSS_VALUE));
        }
        if let Some(pass) = r.pass {
            if plies == 1 {
                return Ok(RollValue::Value(self.eval_states(s, shared, &[pass])?[0]));
            }
            let v = match known_first {
                Some(v) => Some(v),
                None => self.chance_max(s, shared, &pass)?,
            };
            return Ok(v.map_or(RollValue::Aborted, RollValue::Value));
        }
        if plies == 1 {
            let values = self.eval_states(s, shared, &r.states)?;
            return Ok(RollValue::Value(
                values.into_iter().fold(f64::INFINITY, f64::min),
            ));
        }
        // Our chance node under each reply; the minimum, cut when it cannot matter. A
        // selective node's replies are already its best few, best first.
        let mut states = r.states;
        if self.config.reply_limit == 0 {
            states.sort_by_cached_key(|p| Material::score(p, shared.us));
        }
        let mut best = f64::INFINITY;
        for (i, st) in states.iter().enumerate() {
            let known = known_first.filter(|_| i == 0);
            match known.map_or_else(|| self.chance_max(s, shared, st), |v| Ok(Some(v)))? {
                Some(v) => best = best.min(v),
                None => return Ok(RollValue::Aborted),
            }
            if window.below(wf, best) {
                break;
            }
        }
        if window.below(wf, best) {
            return Ok(RollValue::Cut(best));
        }
        Ok(RollValue::Value(best))
    }
}
