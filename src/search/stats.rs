//! Per-decision search statistics (docs/search.md §4.9).

use serde::Serialize;

/// What one root decision did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RootSearchStats {
    /// Legal turns before pre-ranking (0 = forced pass).
    pub legal_turns: u32,
    /// Distinct after-states among them.
    pub distinct_afterstates: u32,
    /// Candidates kept by pre-ranking (0 on a win shortcut).
    pub candidates_selected: u32,
    /// Candidates whose chance node was fully expanded.
    pub candidates_completed: u32,
    /// Candidates cut by the deadline (discarded, never ranked).
    pub candidates_abandoned: u32,
    /// Candidates rejected by Star1/Star2 bounds.
    pub cutoffs: u32,
    /// Σ (rolls − rolls processed) over candidates cut by search.
    pub rolls_saved: u32,
    /// Cutoffs decided by the Star2 probes alone.
    pub probe_cutoffs: u32,
    /// Candidates that consulted the table.
    pub tt_probes: u32,
    /// Candidates answered by an exact table entry.
    pub tt_hits: u32,
    /// Candidates rejected by a stored upper bound.
    pub tt_cutoffs: u32,
    /// Candidates answered by a chance-collapse model.
    pub candidates_collapsed: u32,
    /// Leaves generated (one per legal reply, before deduplication).
    pub leaves: u64,
    /// Leaves evaluated after deduplication by Zobrist key.
    pub unique_leaves: u64,
    /// Evaluator calls.
    pub eval_batches: u64,
    /// Chance-node rolls (or ADEP classes) expanded.
    pub rolls_expanded: u64,
    /// Opponent replies a selective depth-3 search gave no chance node of ours (beyond its
    /// reply limit per roll class; docs/search.md §4.5a). 0 in an exact search.
    pub replies_skipped: u64,
    /// No candidate finished and the pre-ranker's pick was played.
    pub fell_back_to_pre_rank: bool,
}

impl RootSearchStats {
    /// Add the counters of a worker's share.
    pub fn merge(&mut self, o: &RootSearchStats) {
        self.candidates_completed += o.candidates_completed;
        self.candidates_abandoned += o.candidates_abandoned;
        self.cutoffs += o.cutoffs;
        self.rolls_saved += o.rolls_saved;
        self.probe_cutoffs += o.probe_cutoffs;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.leaves += o.leaves;
        self.unique_leaves += o.unique_leaves;
        self.eval_batches += o.eval_batches;
        self.rolls_expanded += o.rolls_expanded;
        self.replies_skipped += o.replies_skipped;
    }

    /// Add the work counters of a job that searched part of a candidate's tree for it
    /// (leaves, batches, rolls, replies skipped; not the per-candidate outcomes).
    pub fn add_work(&mut self, o: &RootSearchStats) {
        self.leaves += o.leaves;
        self.unique_leaves += o.unique_leaves;
        self.eval_batches += o.eval_batches;
        self.rolls_expanded += o.rolls_expanded;
        self.replies_skipped += o.replies_skipped;
    }

    /// unique leaves / leaves (1 when nothing was generated).
    pub fn dedup_ratio(&self) -> f64 {
        if self.leaves == 0 {
            1.0
        } else {
            self.unique_leaves as f64 / self.leaves as f64
        }
    }
}
