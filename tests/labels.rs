//! The labels of docs/labels.md against their definitions: a brute-force reference over
//! `legal_paths` (roll by roll, path by path, one leaf at a time, no shared expansion, no
//! leaf batch), on hand-picked positions (king captures, passes, promotions, e.p., castling,
//! missing kings) and hundreds of random endings and played positions.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::{dfen_list, random_ending, random_play};
use dicechess::batch::PositionBatch;
use dicechess::board::{Dice, Position};
use dicechess::eval::{BatchEvaluator, DiceAware, Material, UPPER_SCORE_BOUND};
use dicechess::kernels::PieceType;
use dicechess::rules::{legal_paths, ROLLS};
use dicechess::search::{LabelError, Labeller, TopK, Work};
use std::sync::Arc;

/// The distinct end positions of `paths` from `rolled` (a maximum or minimum over turns is
/// one over their ends; the reference dedupes them to stay affordable, by a plain set).
fn ends(rolled: &Position, paths: &[dicechess::rules::TurnPath]) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    paths
        .iter()
        .map(|p| p.end_position(rolled))
        .filter(|e| seen.insert(e.key()))
        .collect()
}

/// One row's score, from its side to move.
fn leaf(eval: &dyn BatchEvaluator, p: &Position) -> f64 {
    let mut out = [0f32];
    eval.evaluate(&PositionBatch::from_positions(&[*p]), &mut out)
        .unwrap();
    out[0] as f64
}

/// ±bound for a position without one of its kings, from the view of the side not to move.
fn finished(x: &Position) -> Option<f64> {
    let mover = x.side_to_move();
    if x.piece_bb(mover, PieceType::King).is_empty() {
        Some(UPPER_SCORE_BOUND)
    } else if x.piece_bb(mover.opponent(), PieceType::King).is_empty() {
        Some(-UPPER_SCORE_BOUND)
    } else {
        None
    }
}

/// Roll `r`'s value of the chance node at `x` (its side to move rolls), from the other
/// side's view: the minimum over the mover's legal turns of `value(end)`, a king capture
/// the loss, no legal turn the pass.
fn roll_min(x: &Position, r: usize, value: &dyn Fn(&Position) -> f64) -> f64 {
    let rolled = x.with_dice(ROLLS[r].dice());
    let paths = legal_paths(&rolled);
    if paths.is_empty() {
        return value(&rolled.end_turn());
    }
    if paths.iter().any(|p| p.captures_king()) {
        return -UPPER_SCORE_BOUND;
    }
    ends(&rolled, &paths)
        .iter()
        .map(value)
        .fold(f64::INFINITY, f64::min)
}

/// `a1` by its definition.
fn a1_ref(eval: &dyn BatchEvaluator, after: &Position) -> f64 {
    if let Some(v) = finished(after) {
        return v;
    }
    (0..56)
        .map(|r| ROLLS[r].weight as f64 * roll_min(after, r, &|e| leaf(eval, e)))
        .sum::<f64>()
        / 216.0
}

/// `p1` by its own definition (the maximum of the mover's leaves, negated scores).
fn p1_ref(eval: &dyn BatchEvaluator, pos: &Position) -> f64 {
    if let Some(v) = finished(pos) {
        return -v;
    }
    let mut acc = 0.0;
    for roll in &ROLLS {
        let rolled = pos.with_dice(roll.dice());
        let paths = legal_paths(&rolled);
        let v = if paths.is_empty() {
            -leaf(eval, &rolled.end_turn())
        } else if paths.iter().any(|p| p.captures_king()) {
            UPPER_SCORE_BOUND
        } else {
            paths
                .iter()
                .map(|p| -leaf(eval, &p.end_position(&rolled)))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        acc += roll.weight as f64 * v;
    }
    acc / 216.0
}

/// `p2` by its definition: each turn judged by the reference `a1` of its end.
fn p2_ref(eval: &dyn BatchEvaluator, pos: &Position) -> f64 {
    if let Some(v) = finished(pos) {
        return -v;
    }
    let mut acc = 0.0;
    for roll in &ROLLS {
        let rolled = pos.with_dice(roll.dice());
        let paths = legal_paths(&rolled);
        let v = if paths.is_empty() {
            a1_ref(eval, &rolled.end_turn())
        } else if paths.iter().any(|p| p.captures_king()) {
            UPPER_SCORE_BOUND
        } else {
            ends(&rolled, &paths)
                .iter()
                .map(|e| a1_ref(eval, e))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        acc += roll.weight as f64 * v;
    }
    acc / 216.0
}

/// `a2` by its definition: each opponent turn judged by the reference `p1` of its end.
fn a2_ref(eval: &dyn BatchEvaluator, after: &Position) -> f64 {
    if let Some(v) = finished(after) {
        return v;
    }
    (0..56)
        .map(|r| ROLLS[r].weight as f64 * roll_min(after, r, &|e| p1_ref(eval, e)))
        .sum::<f64>()
        / 216.0
}

fn close(a: f64, b: f64, what: &str) {
    // The labeller sums f32 leaf scores in f64 like the reference; only the order of the
    // summation differs.
    assert!(
        (a - b).abs() <= 1e-6 * (1.0 + b.abs()),
        "{what}: labeller {a}, reference {b}"
    );
}

fn work() -> Work {
    Work::new(u64::MAX / 2)
}

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).unwrap()
}

/// Hand-picked positions, random endings and positions from random play.
fn positions(endings: u64, played: u64) -> Vec<Position> {
    let mut out: Vec<Position> = dfen_list("hand_picked").iter().map(|d| pos(d)).collect();
    out.extend(
        [
            // Black's king stands attacked by the f7 bishop: 91 of White's rolls capture it.
            "rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1",
            // White can only move its king, and not on every roll: passes.
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            // A lone pawn blocked: most rolls are a pass.
            "k7/8/8/8/8/p7/P7/K7 w - - 0 1",
        ]
        .iter()
        .map(|d| pos(d)),
    );
    out.extend((0..endings).map(|s| random_ending(s + 1).with_dice(Dice::EMPTY)));
    out.extend((0..played).map(|s| random_play(s + 7, (s % 9) as usize)));
    out
}

#[test]
fn a1_and_p1_equal_their_definitions() {
    for eval in [
        Arc::new(Material) as Arc<dyn BatchEvaluator>,
        Arc::new(DiceAware::default()),
    ] {
        let labeller = Labeller::new(eval.clone());
        for (i, p) in positions(120, 24).iter().enumerate() {
            let what = format!("{} #{i} {}", eval.id(), p.to_dfen());
            let a1 = labeller.a1(p, &work()).unwrap();
            close(a1, a1_ref(eval.as_ref(), p), &format!("a1 {what}"));
            let p1 = labeller.p1(p, &work()).unwrap();
            close(p1, p1_ref(eval.as_ref(), p), &format!("p1 {what}"));
        }
    }
}

#[test]
fn a2_and_p2_equal_their_definitions_on_endings() {
    let eval: Arc<dyn BatchEvaluator> = Arc::new(Material);
    let labeller = Labeller::new(eval.clone());
    // Small endings: the reference is a search of every path of every roll, twice over.
    let mut list: Vec<Position> = (0..400)
        .map(|s| random_ending(1000 + s).with_dice(Dice::EMPTY))
        .filter(|p| p.occupied().count() <= 4)
        .take(8)
        .collect();
    list.push(pos("7k/8/8/8/8/8/8/K7 w - - 0 1"));
    list.push(pos("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1"));
    list.push(pos("4k3/8/8/8/8/8/8/K3R3 b - - 0 1"));
    for (i, p) in list.iter().enumerate() {
        let what = format!("#{i} {}", p.to_dfen());
        close(
            labeller.p2(p, &work()).unwrap(),
            p2_ref(eval.as_ref(), p),
            &format!("p2 {what}"),
        );
        close(
            labeller.a2(p, &work()).unwrap(),
            a2_ref(eval.as_ref(), p),
            &format!("a2 {what}"),
        );
    }
}

#[test]
fn candidates_are_the_distinct_afterstates_with_their_a1_and_roll_values() {
    let eval: Arc<dyn BatchEvaluator> = Arc::new(DiceAware::default());
    let labeller = Labeller::new(eval.clone());
    let roots: Vec<Position> = positions(30, 20)
        .into_iter()
        .enumerate()
        .map(|(i, p)| p.with_dice(ROLLS[(i * 17 + 5) % 56].dice()))
        .collect();
    for (i, root) in roots.iter().enumerate() {
        let what = format!("#{i} {}", root.to_dfen());
        let got = labeller.candidates(root, None, &work()).unwrap();
        // The reference: every legal path's end, first path of each distinct end, in
        // generation order; a pass as the one candidate.
        let paths = legal_paths(root);
        let mut want: Vec<(Option<String>, Position)> = Vec::new();
        for p in &paths {
            let end = p.end_position(root);
            if !want.iter().any(|(_, e)| e.key() == end.key()) {
                want.push((Some(p.uci()), end));
            }
        }
        if paths.is_empty() {
            want.push((None, root.end_turn()));
        }
        assert_eq!(got.len(), want.len(), "candidate count {what}");
        // Every candidate's identity; the reference value (56 enumerations) of a spread of
        // them, king captures and passes included.
        let step = (got.len() / 6).max(1);
        for (j, (c, (uci, end))) in got.iter().zip(&want).enumerate() {
            assert_eq!(c.path.map(|p| p.uci()), *uci, "{what}");
            assert_eq!(c.after.key(), end.key(), "{what}");
            let terminal = finished(end).is_some();
            if j % step != 0 && !terminal && c.path.is_some() {
                continue;
            }
            close(c.a1, a1_ref(eval.as_ref(), end), &format!("a1 {what}"));
            let sum: f64 = c
                .per_roll
                .iter()
                .zip(&ROLLS)
                .map(|(&v, r)| r.weight as f64 * v as f64)
                .sum::<f64>()
                / 216.0;
            close(sum, c.a1, &format!("per-roll sum {what}"));
            for r in [0, 13, 41, 55] {
                let want_r = if finished(end).is_some() {
                    finished(end).unwrap()
                } else {
                    roll_min(end, r, &|e| leaf(eval.as_ref(), e))
                };
                close(c.per_roll[r] as f64, want_r, &format!("roll {r} {what}"));
            }
        }
    }
}

#[test]
fn top_k_keeps_the_pre_rankers_best_in_order() {
    let eval: Arc<dyn BatchEvaluator> = Arc::new(DiceAware::default());
    let labeller = Labeller::new(eval.clone());
    let root = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB");
    let all = labeller.candidates(&root, None, &work()).unwrap();
    let top = labeller
        .candidates(
            &root,
            Some(TopK {
                k: 5,
                prerank: &Material,
            }),
            &work(),
        )
        .unwrap();
    assert_eq!(top.len(), 5);
    let mut by_material: Vec<(f64, usize)> = all
        .iter()
        .enumerate()
        .map(|(i, c)| (-leaf(&Material, &c.after), i))
        .collect();
    // Best first, ties in generation order.
    by_material.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
    for (t, &(score, i)) in top.iter().zip(&by_material) {
        assert_eq!(t.after.key(), all[i].after.key());
        assert_eq!(t.prerank, Some(score as f32));
        assert_eq!(t.a1, all[i].a1);
    }
}

#[test]
fn a_position_over_its_work_budget_is_refused() {
    let labeller = Labeller::new(Arc::new(Material));
    let kiwipete = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
    assert!(matches!(
        labeller.a1(&kiwipete, &Work::new(1000)),
        Err(LabelError::WorkBudget { limit: 1000 })
    ));
    let work = Work::new(1_000_000);
    let a1 = labeller.a1(&kiwipete, &work).unwrap();
    // Exactly the units it spent are enough, one fewer is not.
    let need = work.used();
    assert!(need > 1000);
    assert_eq!(labeller.a1(&kiwipete, &Work::new(need)).unwrap(), a1);
    assert!(labeller.a1(&kiwipete, &Work::new(need - 1)).is_err());
}
