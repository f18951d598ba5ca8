//! Selective depth 3 (docs/search.md §4.5a): each candidate's value checked against a slow,
//! independent reference written from the definition — roll by roll with the per-roll turn
//! generator, every reply scored, the few best for the opponent kept, our roll and best
//! reply under each — and the properties that follow from it: a limit that covers every
//! reply is the exact depth 3, a smaller one can only raise a value, pruning and the table
//! never change the answer, and the iterative bots deepen as documented.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::random_rolled;
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions, Turn};
use dicechess::eval::{BatchEvaluator, EvalError, Material, LOSS_VALUE, WIN_VALUE};
use dicechess::rules::{legal_paths, EndStates, TurnGenerator, ROLLS};
use dicechess::search::{ChanceMode, Expectimax, SearchConfig, SearchResult, TranspositionTable};
use proptest::prelude::*;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// Material plus a small, position-specific fraction of a centipawn: replies of equal
/// material rarely tie, so the reply a selective search keeps is the one the reference
/// keeps (ties are handled by the reference's interval anyway).
struct Jittered;

impl BatchEvaluator for Jittered {
    fn id(&self) -> String {
        "material+jitter".into()
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        Material.evaluate(batch, out)?;
        for (i, v) in out.iter_mut().enumerate() {
            *v += (batch.key()[i] % 509) as f32 / 1024.0;
        }
        Ok(())
    }
}

/// A leaf's value from `us`'s view (every evaluator scores from the side to move).
fn leaf(eval: &dyn BatchEvaluator, p: &Position, us: dicechess::kernels::Color) -> f64 {
    let mut v = [0f32];
    eval.evaluate(&PositionBatch::from_positions(&[*p]), &mut v)
        .unwrap();
    if p.side_to_move() == us {
        v[0] as f64
    } else {
        -(v[0] as f64)
    }
}

/// What one roll's legal turns lead to, from the per-roll generator.
fn turns(gen: &mut TurnGenerator, p: &Position, roll: usize) -> EndStates2 {
    let mut out = Vec::new();
    match gen.end_states_into(&p.with_dice(ROLLS[roll].dice()), &mut out) {
        EndStates::KingCapture => EndStates2::King,
        EndStates::Pass => EndStates2::Moves(vec![p.end_turn()]),
        EndStates::Moves(_) => EndStates2::Moves(out),
    }
}

enum EndStates2 {
    King,
    Moves(Vec<Position>),
}

/// Our chance node at `b` (we roll): Σ over rolls of the weight times our best end state.
fn p1(eval: &dyn BatchEvaluator, gen: &mut TurnGenerator, b: &Position) -> f64 {
    let us = b.side_to_move();
    let mut acc = 0.0;
    for (r, roll) in ROLLS.iter().enumerate() {
        let v = match turns(gen, b, r) {
            EndStates2::King => WIN_VALUE,
            EndStates2::Moves(ends) => ends
                .iter()
                .map(|e| leaf(eval, e, us))
                .fold(f64::NEG_INFINITY, f64::max),
        };
        acc += roll.weight as f64 * v;
    }
    acc / 216.0
}

/// The selective depth-3 value of after-state `a` (the opponent rolls next) from the view
/// of its mover, as an interval: per roll the `limit` replies lowest by the leaf value get
/// our chance node; where replies tie at the limit's boundary, any of them could be the one
/// kept, so the roll's value ranges over those choices.
fn reference(eval: &dyn BatchEvaluator, a: &Position, limit: usize) -> (f64, f64) {
    let us = a.side_to_move().opponent();
    let mut gen = TurnGenerator::new();
    let (mut lo, mut hi) = (0.0, 0.0);
    for (r, roll) in ROLLS.iter().enumerate() {
        let w = roll.weight as f64;
        let EndStates2::Moves(replies) = turns(&mut gen, a, r) else {
            lo += w * LOSS_VALUE;
            hi += w * LOSS_VALUE;
            continue;
        };
        let mut scored: Vec<(f64, f64)> = replies
            .iter()
            .map(|t| (leaf(eval, t, us), p1(eval, &mut gen, t)))
            .collect();
        scored.sort_by(|x, y| x.0.total_cmp(&y.0));
        let limit = limit.min(scored.len());
        let boundary = scored[limit - 1].0;
        let must: Vec<f64> = scored
            .iter()
            .filter(|x| x.0 < boundary)
            .map(|x| x.1)
            .collect();
        let mut tied: Vec<f64> = scored
            .iter()
            .filter(|x| x.0 == boundary)
            .map(|x| x.1)
            .collect();
        tied.sort_by(f64::total_cmp);
        let slots = limit - must.len();
        let must_min = must.iter().copied().fold(f64::INFINITY, f64::min);
        // Lowest: a kept tie with the lowest deep value; highest: the `slots` ties with the
        // highest deep values kept.
        lo += w * must_min.min(tied[0]);
        hi += w * must_min.min(tied[tied.len() - slots]);
    }
    (lo / 216.0, hi / 216.0)
}

fn searcher(config: SearchConfig, tt: bool) -> Expectimax {
    let s = Expectimax::new(config, Arc::new(Jittered)).expect("valid config");
    if tt {
        s.with_table(Arc::new(TranspositionTable::with_megabytes(4)))
    } else {
        s
    }
}

fn selective(limit: usize, k: usize, pruning: bool) -> SearchConfig {
    SearchConfig {
        depth: 3,
        candidate_limit: k,
        chance: ChanceMode::Shared,
        pruning,
        parallel: false,
        reply_limit: limit,
        ..SearchConfig::default()
    }
}

fn run(s: &Expectimax, p: &Position) -> SearchResult {
    s.search(p, None, &mut Xoshiro256PlusPlus::seed_from_u64(5))
        .expect("search")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The best value and the candidates reaching it.
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn selective_values_equal_the_reference(seed in any::<u64>(), turns in 0usize..6, limit in 1usize..3) {
        // Sparse starts (the endgame and the promotion race) and two candidates keep the
        // reference (a chance node per reply of every roll, position by position) affordable.
        let p = random_rolled(2 + 2 * (seed % 2) as usize, seed, turns);
        prop_assume!(!legal_paths(&p).is_empty());
        let r = run(&searcher(selective(limit, 2, false), false), &p);
        for c in r.candidates.iter() {
            let Some(v) = c.value else { continue };
            let a = c.path.end_position(&p);
            let (lo, hi) = reference(&Jittered, &a, limit);
            prop_assert!(
                (lo <= v || close(lo, v)) && (v <= hi || close(v, hi)),
                "{}: {} outside [{}, {}] (limit {})", c.path.uci(), v, lo, hi, limit
            );
        }
    }

    #[test]
    fn a_limit_raises_values_and_pruning_keeps_the_answer(seed in any::<u64>(), turns in 0usize..6) {
        let p = random_rolled(2 + 2 * (seed % 2) as usize, seed, turns);
        prop_assume!(!legal_paths(&p).is_empty());
        let exact = run(&searcher(selective(0, 3, false), false), &p);
        let everything = run(&searcher(selective(usize::MAX, 3, false), false), &p);
        let two = run(&searcher(selective(2, 3, false), false), &p);
        let one = run(&searcher(selective(1, 3, false), false), &p);
        for k in 0..exact.candidates.len() {
            let (e, all, m2, m1) = (
                exact.candidates[k].value.unwrap(),
                everything.candidates[k].value.unwrap(),
                two.candidates[k].value.unwrap(),
                one.candidates[k].value.unwrap(),
            );
            // Every reply kept: the exact depth 3, to rounding (another summation order).
            prop_assert!(close(e, all), "{} vs {}", e, all);
            // Fewer replies: a minimum over fewer of the same values.
            prop_assert!(e <= m2 || close(e, m2), "exact {} > limit 2 {}", e, m2);
            prop_assert!(m2 <= m1 || close(m2, m1), "limit 2 {} > limit 1 {}", m2, m1);
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for limit in [1, 2] {
            let want = best_set(&run(&searcher(selective(limit, 3, false), false), &p));
            for tt in [false, true] {
                let pruned = run(&searcher(selective(limit, 3, true), tt), &p);
                prop_assert_eq!(best_set(&pruned), want.clone());
                // Candidates and their rolls' chance nodes on two threads.
                let parallel = SearchConfig { parallel: true, ..selective(limit, 3, true) };
                let on_pool = pool.install(|| run(&searcher(parallel, tt), &p));
                prop_assert_eq!(best_set(&on_pool), want.clone());
            }
        }
    }
}

#[test]
fn a_reply_limit_needs_the_shared_chance_mode() {
    let config = SearchConfig {
        chance: ChanceMode::Adep,
        ..selective(1, 3, true)
    };
    let err = Expectimax::new(config, Arc::new(Material)).unwrap_err();
    assert!(err.to_string().contains("shared chance mode"), "{err}");
}

#[test]
fn the_deeper_search_takes_the_shallow_order() {
    // A depth-3 search after a depth-2 one searches the depth-2 search's best candidates,
    // best first, whatever the pre-ranker thought of them.
    let p = Position::from_dfen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 PRK").unwrap();
    let shallow_config = SearchConfig {
        depth: 2,
        candidate_limit: 12,
        pruning: false,
        parallel: false,
        ..SearchConfig::default()
    };
    let shallow = run(&searcher(shallow_config, false), &p);
    let mut by_value: Vec<(f64, String)> = shallow
        .candidates
        .iter()
        .map(|c| (c.value.unwrap(), c.path.uci()))
        .collect();
    by_value.sort_by(|a, b| b.0.total_cmp(&a.0));
    let deeper = searcher(selective(1, 4, false), false)
        .search_deeper(
            &p,
            None,
            &mut Xoshiro256PlusPlus::seed_from_u64(5),
            &shallow,
        )
        .unwrap();
    let order: Vec<String> = deeper.candidates.iter().map(|c| c.path.uci()).collect();
    let want: Vec<String> = by_value.iter().take(4).map(|(_, u)| u.clone()).collect();
    // Equal depth-2 values keep their pre-rank order; compare the value sequence.
    let value_of = |u: &String| by_value.iter().find(|(_, x)| x == u).unwrap().0;
    assert_eq!(
        order.iter().map(value_of).collect::<Vec<_>>(),
        want.iter().map(value_of).collect::<Vec<_>>()
    );
    assert!(deeper.candidates.iter().all(|c| c.resolved));
}

#[test]
fn iterative_bots_deepen_untimed_and_best_v1_does_not() {
    let p = Position::from_dfen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 PRK").unwrap();
    let choose = |id: &str, opts: &BotOptions| {
        let bot = bot_by_id(id, opts).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        bot.choose(
            &p,
            &mut Turn {
                rng: &mut rng,
                deadline: None,
            },
        )
        .unwrap()
        .stats
        .unwrap()
    };
    let opts = BotOptions::default();
    // `best` and `expectimax-d3` answer with their depth-3 search: its candidates are the
    // depth-2 search's best few, and it skipped replies.
    for id in ["best", "expectimax-d3"] {
        let stats = choose(id, &opts);
        assert_eq!(stats.candidates_selected, 8, "{id}");
        assert!(stats.replies_skipped > 0, "{id}");
    }
    // `best-v1` is frozen: untimed it plays its depth-2 search (16 candidates).
    let v1 = choose("best-v1", &opts);
    assert_eq!((v1.candidates_selected, v1.replies_skipped), (16, 0));
    // The options reach the deeper search.
    let four = choose(
        "best",
        &BotOptions {
            d3_candidates: Some(4),
            ..BotOptions::default()
        },
    );
    assert_eq!(four.candidates_selected, 4);
    let exact = choose(
        "best",
        &BotOptions {
            d3_replies: Some(0),
            d3_candidates: Some(4),
            ..BotOptions::default()
        },
    );
    assert_eq!((exact.candidates_selected, exact.replies_skipped), (4, 0));
}

/// Searchers of different reply limits sharing one table (a bot widening its depth 3) each
/// get their own values: a limit-2 or exact search after a limit-1 one on the same table
/// equals the same search on a fresh table.
#[test]
fn a_shared_table_keeps_each_reply_limit_apart() {
    for seed in 0..6u64 {
        let p = random_rolled(2 + 2 * (seed % 2) as usize, seed, 3);
        if legal_paths(&p).is_empty() {
            continue;
        }
        let tt = Arc::new(TranspositionTable::with_megabytes(4));
        let on = |limit: usize| {
            Expectimax::new(selective(limit, 3, false), Arc::new(Jittered))
                .unwrap()
                .with_table(tt.clone())
        };
        let values = |r: &SearchResult| -> Vec<Option<f64>> {
            r.candidates.iter().map(|c| c.value).collect()
        };
        run(&on(1), &p);
        for limit in [2, 0] {
            let shared = run(&on(limit), &p);
            let fresh = run(&searcher(selective(limit, 3, false), false), &p);
            assert_eq!(values(&shared), values(&fresh), "seed {seed} limit {limit}");
        }
    }
}

/// Under a clock with time to spare, `--d3-widest` widens the played depth 3: the answer
/// comes from a search that kept more replies (fewer skipped) than the limit-1 search.
#[test]
fn a_clock_widens_the_selective_depth_3_when_asked() {
    let p = Position::from_dfen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 PRK").unwrap();
    let skipped = |widest: usize| {
        let opts = BotOptions {
            d3_widest: Some(widest),
            ..BotOptions::default()
        };
        let bot = bot_by_id("best", &opts).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let deadline = web_time::Instant::now() + std::time::Duration::from_secs(60);
        let choice = bot
            .choose(
                &p,
                &mut Turn {
                    rng: &mut rng,
                    deadline: Some(deadline),
                },
            )
            .unwrap();
        let stats = choice.stats.unwrap();
        assert_eq!(stats.candidates_abandoned, 0);
        stats.replies_skipped
    };
    let (one, eight) = (skipped(1), skipped(8));
    assert!(eight < one, "widened {eight} vs {one} replies skipped");
    assert!(bot_by_id(
        "best",
        &BotOptions {
            d3_widest: Some(8),
            ..BotOptions::default()
        }
    )
    .unwrap()
    .info()
    .description
    .contains("widened to 8"));
}
