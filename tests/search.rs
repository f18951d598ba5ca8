//! Expectimax: pruning, table, ADEP and parallelism never change the result; terminal rules;
//! the reference engine's golden decisions.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::random_rolled;
use dicechess::board::Position;
use dicechess::eval::{BatchEvaluator, Material, TERMINAL_WIN_SCORE};
use dicechess::rules::legal_paths;
use dicechess::search::{ChanceMode, Expectimax, SearchConfig, SearchResult, TranspositionTable};
use proptest::prelude::*;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;
use std::time::Instant;

fn material() -> Arc<dyn BatchEvaluator> {
    Arc::new(Material)
}

fn search(
    pos: &Position,
    config: SearchConfig,
    tt: Option<Arc<TranspositionTable>>,
    seed: u64,
) -> SearchResult {
    let mut s = Expectimax::new(config, material()).expect("valid config");
    if let Some(tt) = tt {
        s = s.with_table(tt);
    }
    s.search(pos, None, &mut Xoshiro256PlusPlus::seed_from_u64(seed))
        .expect("search")
}

fn exact(depth: u8, k: usize) -> SearchConfig {
    SearchConfig {
        depth,
        candidate_limit: k,
        chance: ChanceMode::Rolls,
        pruning: false,
        parallel: false,
        ..SearchConfig::default()
    }
}

/// The best value and the set of candidates reaching it.
fn best_set(r: &SearchResult) -> (Option<f64>, Vec<String>) {
    let best = r
        .candidates
        .iter()
        .filter_map(|c| c.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut set: Vec<String> = r
        .candidates
        .iter()
        .filter(|c| c.value == Some(best))
        .map(|c| c.path.uci())
        .collect();
    set.sort();
    (best.is_finite().then_some(best), set)
}

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).expect("valid DFEN")
}

#[test]
fn golden_parity_decision_and_loss_taint() {
    // docs/search.md §4.9. e1d2 is loss-tainted by the a5 bishop. The reference engine
    // always plays e1d1 because floating-point summation order prunes the material-equal
    // e1e2 and e1f1 (its quirk 2); here bounds carry a safety margin, so the three equal
    // candidates stay tied and the seeded tie-break picks among them.
    let p = pos("7k/8/8/b7/8/8/5P2/4K3 w - - 0 1 NBK");
    let full = search(&p, exact(2, 8), None, 0);
    let tainted: Vec<String> = full
        .candidates
        .iter()
        .filter(|c| c.loss_tainted)
        .map(|c| c.path.uci())
        .collect();
    assert_eq!(tainted, vec!["e1d2".to_string()]);
    let (best, set) = best_set(&full);
    assert_eq!(set, vec!["e1d1", "e1e2", "e1f1"]);
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let r = search(
            &p,
            SearchConfig {
                chance: ChanceMode::Rolls,
                ..SearchConfig::default()
            },
            None,
            seed,
        );
        assert_eq!(r.stats.legal_turns, 4);
        assert_eq!(r.stats.candidates_selected, 4);
        assert_eq!(Some(r.score), best);
        chosen.insert(r.path.expect("a move").uci());
    }
    assert!(
        chosen.iter().all(|m| set.contains(m)) && chosen.len() > 1,
        "{chosen:?}"
    );
}

#[test]
fn immediate_king_capture_and_forced_pass() {
    let win = search(
        &pos("k7/8/8/8/8/8/8/R3K3 w - - 0 1 PPR"),
        SearchConfig::default(),
        None,
        1,
    );
    assert_eq!(
        win.path
            .expect("a capture")
            .moves()
            .last()
            .expect("moves")
            .to
            .to_string(),
        "a8"
    );
    assert_eq!(win.score, TERMINAL_WIN_SCORE);
    assert_eq!(win.stats.candidates_selected, 0);
    let pass = search(
        &pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP"),
        SearchConfig::default(),
        None,
        1,
    );
    assert!(pass.path.is_none());
    assert_eq!(pass.stats.legal_turns, 0);
}

#[test]
fn an_expired_deadline_still_returns_a_legal_turn() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB");
    for depth in [2, 3] {
        let s = Expectimax::new(
            SearchConfig {
                depth,
                ..SearchConfig::default()
            },
            material(),
        )
        .expect("config");
        let r = s
            .search(
                &p,
                Some(Instant::now()),
                &mut Xoshiro256PlusPlus::seed_from_u64(3),
            )
            .expect("search");
        let path = r.path.expect("a legal turn");
        assert!(legal_paths(&p).contains(&path));
        assert!(r.stats.fell_back_to_pre_rank);
        assert_eq!(r.stats.candidates_completed, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn pruning_table_adep_and_threads_never_change_depth_2_results(
        start in 0usize..7, seed in any::<u64>(), turns in 0usize..10, k in 1usize..10
    ) {
        let p = random_rolled(start, seed, turns);
        prop_assume!(!legal_paths(&p).is_empty());
        let reference = search(&p, exact(2, k), None, 7);
        let want = best_set(&reference);
        // Star1/Star2 pruning, ADEP classes, the table (twice: cold and warm), parallel workers.
        let pruned = search(&p, SearchConfig { pruning: true, ..exact(2, k) }, None, 7);
        prop_assert_eq!(best_set(&pruned), want.clone());
        let adep = search(&p, SearchConfig { chance: ChanceMode::Adep, ..exact(2, k) }, None, 7);
        prop_assert_eq!(best_set(&adep), want.clone());
        // Without pruning every candidate's value must agree, not only the best.
        let values = |r: &SearchResult| r.candidates.iter().map(|c| c.value).collect::<Vec<_>>();
        prop_assert_eq!(values(&adep), values(&reference));
        // The shared expansion (one walk for all rolls, one leaf batch per node), with and
        // without pruning and the table: every candidate's value agrees.
        let shared = search(&p, SearchConfig { chance: ChanceMode::Shared, ..exact(2, k) }, None, 7);
        prop_assert_eq!(values(&shared), values(&reference));
        let tt_shared = Arc::new(TranspositionTable::with_megabytes(4));
        let shared_pruned = search(&p, SearchConfig { chance: ChanceMode::Shared, pruning: true, parallel: true, ..exact(2, k) }, Some(tt_shared), 7);
        prop_assert_eq!(best_set(&shared_pruned), want.clone());
        let tt = Arc::new(TranspositionTable::with_megabytes(4));
        for _ in 0..2 {
            let with_tt = search(&p, SearchConfig { pruning: true, ..exact(2, k) }, Some(tt.clone()), 7);
            prop_assert_eq!(best_set(&with_tt), want.clone());
        }
        let par = search(&p, SearchConfig { pruning: true, parallel: true, chance: ChanceMode::Adep, ..exact(2, k) }, Some(tt), 7);
        prop_assert_eq!(best_set(&par), want.clone());
        if want.0.is_some() {
            prop_assert_eq!(pruned.score, reference.score);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn pruning_and_table_never_change_depth_3_results(seed in any::<u64>(), turns in 0usize..6) {
        // Sparse positions (the endgame and promotion starts) keep depth 3 affordable here.
        let p = random_rolled(2 + 2 * (seed % 2) as usize, seed, turns);
        prop_assume!(!legal_paths(&p).is_empty());
        let reference = search(&p, SearchConfig { chance: ChanceMode::Adep, ..exact(3, 3) }, None, 5);
        let want = best_set(&reference);
        let pruned = search(&p, SearchConfig { pruning: true, chance: ChanceMode::Adep, ..exact(3, 3) }, None, 5);
        prop_assert_eq!(best_set(&pruned), want.clone());
        let tt = Arc::new(TranspositionTable::with_megabytes(4));
        let with_tt = search(&p, SearchConfig { pruning: true, chance: ChanceMode::Adep, ..exact(3, 3) }, Some(tt), 5);
        prop_assert_eq!(best_set(&with_tt), want.clone());
        // The shared expansion at both chance levels, exact and pruned with a table. Depth-3
        // values are sums of fractions over 216 in another order (classes instead of ADEP
        // classes), so they agree to rounding, not bit for bit.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
        let shared = search(&p, SearchConfig { chance: ChanceMode::Shared, ..exact(3, 3) }, None, 5);
        for (x, y) in shared.candidates.iter().zip(&reference.candidates) {
            prop_assert_eq!(x.path, y.path);
            match (x.value, y.value) {
                (Some(a), Some(b)) => prop_assert!(close(a, b), "{} vs {}", a, b),
                (a, b) => prop_assert_eq!(a, b),
            }
        }
        let tt = Arc::new(TranspositionTable::with_megabytes(4));
        let shared_pruned = search(&p, SearchConfig { pruning: true, chance: ChanceMode::Shared, ..exact(3, 3) }, Some(tt), 5);
        if let (Some(a), Some(b)) = (best_set(&shared_pruned).0, want.0) {
            prop_assert!(close(a, b), "{} vs {}", a, b);
        }
    }
}

/// Three replies tie at a value made of loss terms (−1e9 per capturing roll): a per-roll
/// window computed by subtracting sums of that size lost the tie to cancellation and pruning
/// cut two of them (found by the proptest above; fixed by testing in the sum domain).
#[test]
fn ties_between_loss_tainted_candidates_survive_pruning_at_depth_3() {
    let p = Position::from_dfen("5R2/1k6/8/8/8/8/8/4K3 b - - 2 2 rkk").expect("DFEN");
    let config = |pruning| SearchConfig {
        pruning,
        chance: ChanceMode::Adep,
        ..exact(3, 3)
    };
    let want = best_set(&search(&p, config(false), None, 5));
    assert_eq!(want.1.len(), 3, "{want:?}");
    assert_eq!(best_set(&search(&p, config(true), None, 5)), want);
    let tt = Arc::new(TranspositionTable::with_megabytes(4));
    assert_eq!(best_set(&search(&p, config(true), Some(tt), 5)), want);
    let shared = SearchConfig {
        pruning: true,
        chance: ChanceMode::Shared,
        ..exact(3, 3)
    };
    assert_eq!(best_set(&search(&p, shared, None, 5)), want);
}

/// Every row scores `value` (from the row's side-to-move view).
struct Constant(f32);

impl BatchEvaluator for Constant {
    fn id(&self) -> String {
        "constant".into()
    }
    fn evaluate(
        &self,
        batch: &dicechess::batch::PositionBatch,
        out: &mut [f32],
    ) -> Result<(), dicechess::eval::EvalError> {
        assert_eq!(batch.len(), out.len());
        out.fill(self.0);
        Ok(())
    }
}

/// A collapse model answering `value` for every candidate.
struct ConstantCollapse(f64);

impl dicechess::eval::ChanceCollapse for ConstantCollapse {
    fn id(&self) -> String {
        "constant-collapse".into()
    }
    fn expectations(
        &self,
        after: &dicechess::batch::PositionBatch,
        _root: dicechess::kernels::Color,
    ) -> Result<Vec<f64>, dicechess::eval::EvalError> {
        Ok(vec![self.0; after.len()])
    }
}

#[test]
fn a_loss_tainted_candidate_is_never_rescued_by_the_rescorer() {
    // e1d2 loses the king to the a5 bishop on some roll; a rescorer that loves every
    // after-state (its −9000 for the opponent to move is +9000 for us) blends the others.
    let p = pos("7k/8/8/b7/8/8/5P2/4K3 w - - 0 1 NBK");
    for w in [0.5, 1.0] {
        let s = Expectimax::new(
            SearchConfig {
                rescore_weight: w,
                ..exact(2, 8)
            },
            material(),
        )
        .expect("config")
        .with_rescore(Arc::new(Constant(-9000.0)));
        let r = s
            .search(&p, None, &mut Xoshiro256PlusPlus::seed_from_u64(1))
            .expect("search");
        let tainted = r
            .candidates
            .iter()
            .find(|c| c.path.uci() == "e1d2")
            .expect("candidate");
        assert!(tainted.loss_tainted && tainted.value.expect("complete") < -1e6);
        assert_ne!(r.path.expect("a move").uci(), "e1d2");
    }
}

#[test]
fn chance_collapse_with_and_without_loss_guard() {
    // docs/search.md §4.6: collapse 500, rescore 9000, w = 1 → 9000 without the guard,
    // 500 with it when every candidate is loss-tainted (the h8 queen reaches a1 through or
    // after the b2 pawn whatever White plays).
    let p = pos("7q/8/8/8/8/8/PP6/K6k w - - 0 1 PPP");
    let run = |guard: bool| {
        Expectimax::new(
            SearchConfig {
                rescore_weight: 1.0,
                ..SearchConfig::default()
            },
            material(),
        )
        .expect("config")
        .with_rescore(Arc::new(Constant(-9000.0)))
        .with_collapse(Arc::new(ConstantCollapse(500.0)), guard)
        .search(&p, None, &mut Xoshiro256PlusPlus::seed_from_u64(1))
        .expect("search")
    };
    let plain = run(false);
    assert_eq!(plain.score, 9000.0);
    assert_eq!(
        plain.stats.candidates_collapsed,
        plain.stats.candidates_selected
    );
    assert_eq!(plain.stats.candidates_completed, 0);
    let guarded = run(true);
    assert!(
        guarded.candidates.iter().all(|c| c.loss_tainted),
        "{:?}",
        guarded.candidates
    );
    assert_eq!(guarded.score, 500.0);
}
