//! The analysis (docs/analysis.md) against its definitions, written out as a brute-force
//! search over `legal_paths` (roll by roll, turn by turn, one leaf at a time through the
//! logistic), on random endings and played positions; the luck's zero mean over the 56
//! rolls; forced turns, king captures and the summaries of a played game.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::{random_ending, random_play};
use dicechess::analysis::{
    logistic, AnalysisConfig, Analyzer, Game, LuckClass, TurnAnalysis, TurnClass,
};
use dicechess::batch::PositionBatch;
use dicechess::board::{Dice, Position};
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::eval::{BatchEvaluator, DiceAware};
use dicechess::kernels::{Color, PieceType};
use dicechess::rules::{legal_paths, TurnPath, ROLLS};
use dicechess::selfplay::{play_game, GameLimits};
use proptest::prelude::*;
use serde_json::json;
use std::collections::HashSet;

/// The mover's win probability of a position whose side to move is the mover's opponent
/// (`after`, the mover just moved, without capturing a king): 1 − the logistic of the
/// opponent's leaf.
fn after_p(after: &Position, mover: Color) -> f64 {
    let _ = mover;
    let mut out = [0f32];
    DiceAware::default()
        .evaluate(&PositionBatch::from_positions(&[*after]), &mut out)
        .unwrap();
    1.0 - logistic(out[0] as f64)
}

/// The distinct afterstates of a rolled position with whether a king was captured on the
/// way (the game is won, whatever else stands on the board); the pass when there is no
/// legal turn.
fn afters(rolled: &Position) -> Vec<(Position, bool)> {
    let paths = legal_paths(rolled);
    if paths.is_empty() {
        return vec![(rolled.end_turn(), false)];
    }
    let mut seen = HashSet::new();
    paths
        .iter()
        .map(|p| (p.end_position(rolled), p.captures_king()))
        .filter(|(e, _)| seen.insert(e.key()))
        .collect()
}

/// Depth 1 of a rolled position: the best afterstate's probability (a king capture: 1).
fn best1(rolled: &Position) -> f64 {
    let mover = rolled.side_to_move();
    afters(rolled)
        .iter()
        .map(|(a, won)| if *won { 1.0 } else { after_p(a, mover) })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Depth 2 of an afterstate for the side that just moved (`won`: it captured a king):
/// every opponent roll, the opponent's turn that leaves us the least (a king capture: 0).
fn a1_ref((after, won): &(Position, bool)) -> f64 {
    if *won {
        return 1.0;
    }
    let us = after.side_to_move().opponent();
    let mut acc = 0.0;
    for roll in &ROLLS {
        let rolled = after.with_dice(roll.dice());
        let v = if legal_paths(&rolled).iter().any(|p| p.captures_king()) {
            0.0
        } else {
            // Each reply leaves a position with us to move: our leaf's logistic.
            afters(&rolled)
                .iter()
                .map(|(x, _)| 1.0 - after_p(x, us.opponent()))
                .fold(f64::INFINITY, f64::min)
        };
        acc += roll.weight as f64 * v;
    }
    acc / 216.0
}

/// Depth 1 before the roll: each roll's best, weighted.
fn before_ref(pos: &Position) -> f64 {
    ROLLS
        .iter()
        .map(|r| r.weight as f64 * best1(&pos.with_dice(r.dice())))
        .sum::<f64>()
        / 216.0
}

/// Whether each side has a king (a game in progress).
fn both_kings(pos: &Position) -> bool {
    [Color::White, Color::Black]
        .iter()
        .all(|&c| pos.piece_bb(c, PieceType::King).any())
}

fn uci(path: Option<&TurnPath>) -> Vec<String> {
    path.map(|p| p.moves().into_iter().map(|m| m.uci()).collect())
        .unwrap_or_default()
}

fn close(a: f64, b: f64, what: &str) {
    // Leaves go through f32 on the score axis (about 1e-7 of the scale) and the sums run in
    // another order.
    assert!((a - b).abs() < 2e-5, "{what}: {a} vs reference {b}");
}

/// Analyse `rolled` with its `k`-th legal path played and compare with the reference.
fn check_against_reference(rolled: &Position, k: usize) -> TurnAnalysis {
    let analyzer = Analyzer::for_bot("best", AnalysisConfig::default()).unwrap();
    let paths = legal_paths(rolled);
    let played = (!paths.is_empty()).then(|| paths[k % paths.len()]);
    let before = rolled.with_dice(Dice::EMPTY);
    let t = analyzer
        .analyze_turn(
            &before,
            rolled.dice().faces(),
            &uci(played.as_ref()),
            ("g", 1),
        )
        .unwrap();
    let played_after = played.map_or((rolled.end_turn(), false), |p| {
        (p.end_position(rolled), p.captures_king())
    });
    let refs: Vec<f64> = afters(rolled).iter().map(a1_ref).collect();
    let best = refs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    close(t.best_equity, best, "bestEquity");
    close(t.played_equity, a1_ref(&played_after), "playedEquity");
    close(t.equity_before, before_ref(&before), "equityBefore");
    close(t.equity_after_roll, best1(rolled), "equityAfterRoll");
    assert!(t.error >= 0.0);
    assert_eq!(t.candidates, refs.len());
    assert_eq!(t.valued, refs.len());
    if refs.len() == 1 {
        assert_eq!((t.class, t.error), (TurnClass::Forced, 0.0));
    } else {
        close(t.error, best - a1_ref(&played_after), "error");
        assert_eq!(t.class, TurnClass::of(t.error, false));
    }
    assert_eq!(t.luck, t.equity_after_roll - t.equity_before);
    assert_eq!(t.luck_class, LuckClass::of(t.luck));
    // The best turn's own value is the best value.
    let best_after = match t.best_moves.is_empty() {
        true => (rolled.end_turn(), false),
        false => {
            let p = paths
                .iter()
                .find(|p| uci(Some(p)) == t.best_moves)
                .expect("bestMoves is a legal path");
            (p.end_position(rolled), p.captures_king())
        }
    };
    close(a1_ref(&best_after), best, "the value of bestMoves");
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Every figure of a turn equals its definition, on endings (few pieces: many forced
    /// turns, passes and king captures) and on played middlegames.
    #[test]
    fn turns_match_the_brute_force_reference(seed in any::<u64>(), k in 0usize..64, middlegame in 0u8..4) {
        // One case in four is a played middlegame (hundreds of turns, each searched over
        // every roll by the reference); the rest are endings.
        let pos = if middlegame == 0 { random_play(seed, 6) } else { random_ending(seed) };
        // A game ends with a king capture: positions without a king are not analysed.
        prop_assume!(both_kings(&pos));
        let rolled = pos.with_dice(ROLLS[(seed % 56) as usize].dice());
        check_against_reference(&rolled, k);
    }

    /// Luck is measured against the average roll: over the 56 rolls, weighted, the equity
    /// after the roll averages to the equity before it (exactly, up to rounding).
    #[test]
    fn luck_averages_to_zero_over_the_rolls(seed in any::<u64>(), ending in any::<bool>()) {
        let analyzer = Analyzer::for_bot("best", AnalysisConfig { depth: 1, time_ms: None }).unwrap();
        let pos = if ending { random_ending(seed) } else { random_play(seed, 8) };
        prop_assume!(both_kings(&pos));
        let pos = pos.with_dice(Dice::EMPTY);
        let mut mean = 0.0;
        let mut before = None;
        for roll in &ROLLS {
            let rolled = pos.with_dice(roll.dice());
            let paths = legal_paths(&rolled);
            let t = analyzer
                .analyze_turn(&pos, rolled.dice().faces(), &uci(paths.first()), ("g", 1))
                .unwrap();
            mean += roll.weight as f64 * t.luck / 216.0;
            before = Some(t.equity_before);
        }
        prop_assert!(mean.abs() < 1e-9, "mean luck {mean} (equity before {before:?})");
    }
}

#[test]
fn a_missed_king_capture_costs_everything_left_and_the_best_is_the_shortest_capture() {
    let analyzer = Analyzer::for_bot("best", AnalysisConfig::default()).unwrap();
    let before = Position::from_dfen("4k3/8/8/8/Q7/8/4P3/5K2 w - - 0 1").unwrap();
    let played = ["e2e3", "a4a5", "f1g1"].map(String::from);
    let t = analyzer
        .analyze_turn(&before, &[1, 5, 6], &played, ("g", 1))
        .unwrap();
    assert_eq!(t.best_equity, 1.0);
    assert_eq!(t.best_moves, ["a4e8"]);
    assert_eq!(t.error, 1.0 - t.played_equity);
    assert_eq!(t.best_king_risk, 0.0);
    // Playing the capture is the best, error exactly 0.
    let t = analyzer
        .analyze_turn(&before, &[1, 5, 6], &["a4e8".into()], ("g", 1))
        .unwrap();
    assert_eq!(
        (t.class, t.error, t.played_equity),
        (TurnClass::Best, 0.0, 1.0)
    );
}

#[test]
fn an_illegal_turn_is_refused_with_its_game_and_turn() {
    let analyzer = Analyzer::for_bot("best", AnalysisConfig::default()).unwrap();
    let e = analyzer
        .analyze_turn(
            &Position::startpos(),
            &[1, 1, 1],
            &["e2e5".into()],
            ("g-9", 4),
        )
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("game g-9 turn 4: e2e5"), "{e}");
    let e = Analyzer::for_bot("random", AnalysisConfig::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("best, best-v1, expectimax"), "{e}");
    let e = Analyzer::for_bot(
        "best",
        AnalysisConfig {
            depth: 3,
            time_ms: None,
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("depth 3"), "{e}");
}

/// A played game (greedy against random), in our record's shape and the server's.
fn played_game(seed: u64) -> (serde_json::Value, serde_json::Value) {
    let white = bot_by_id("greedy", &BotOptions::default()).unwrap();
    let black = bot_by_id("random", &BotOptions::default()).unwrap();
    let record = play_game(
        &Position::startpos(),
        white.as_ref(),
        black.as_ref(),
        seed,
        GameLimits::default(),
        format!("played-{seed}"),
        (json!("greedy"), json!("random")),
    )
    .unwrap();
    let history = json!({
        "gameId": record.game_id,
        "players": {"white": {"kind": "Bot", "name": "house greedy"}, "black": {"kind": "Human", "name": null}},
        "rated": false,
        "timeControl": {"Fischer": {"initialSeconds": 300, "incrementSeconds": 3}},
        "result": record.result,
        "termination": if record.termination == dicechess::selfplay::Termination::KingCapture { "king_captured" } else { "aborted" },
        "initialDfen": record.initial_dfen,
        "turns": record.turns.iter().map(|t| json!({
            "turnNumber": t.turn_number,
            "activeColor": if t.active_color == "w" { "White" } else { "Black" },
            "dice": t.dice, "moves": t.moves, "fenAfter": t.fen_after,
        })).collect::<Vec<_>>(),
        "fairness": {"commit": "c", "seed": "s", "clientSeeds": {"white": "a", "black": "b"}},
    });
    (serde_json::to_value(&record).unwrap(), history)
}

#[test]
fn a_game_is_analysed_turn_by_turn_and_summed_per_player() {
    let analyzer = Analyzer::for_bot(
        "best",
        AnalysisConfig {
            depth: 1,
            time_ms: None,
        },
    )
    .unwrap();
    let (record, history) = played_game(11);
    let from_record = Game::from_value(record.clone()).unwrap();
    let from_history = Game::from_value(history).unwrap();
    assert_eq!(from_record.turns, from_history.turns);
    assert_eq!(
        (from_history.white.as_str(), from_history.black.as_str()),
        ("house greedy", "Human")
    );
    let count = std::sync::atomic::AtomicUsize::new(0);
    let a = analyzer
        .analyze_game(&from_record, &|| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
    assert_eq!(count.into_inner(), a.turns.len());
    assert_eq!(a.turns.len(), record["turns"].as_array().unwrap().len());
    for (t, r) in a.turns.iter().zip(record["turns"].as_array().unwrap()) {
        assert_eq!(json!(t.turn_number), r["turnNumber"]);
        assert_eq!(json!(t.dice), r["dice"]);
        assert_eq!(json!(t.moves), r["moves"]);
        assert_eq!(json!(t.fen_after), r["fenAfter"]);
        assert!((0.0..=1.0).contains(&t.best_equity) && t.best_equity >= t.played_equity);
    }
    for (s, c) in [(&a.white, "w"), (&a.black, "b")] {
        let mine: Vec<&TurnAnalysis> = a.turns.iter().filter(|t| t.active_color == c).collect();
        assert_eq!(s.turns, mine.len());
        assert_eq!(
            s.decisions,
            mine.iter().filter(|t| t.class != TurnClass::Forced).count()
        );
        let total: f64 = mine.iter().map(|t| t.error).sum();
        assert!((s.total_error - total).abs() < 1e-12);
        let luck: f64 = mine.iter().map(|t| t.luck).sum();
        assert!((s.total_luck - luck).abs() < 1e-12);
        let worst = mine.iter().map(|t| t.error).fold(0.0, f64::max);
        assert_eq!(s.worst.first().map_or(0.0, |w| w.error), worst);
    }
    let white_score = (record["result"].as_f64().unwrap() + 1.0) / 2.0;
    assert_eq!(a.white.result, Some(white_score));
    let adjusted = white_score - (a.white.total_luck - a.black.total_luck);
    assert!((a.white.luck_adjusted_result.unwrap() - adjusted).abs() < 1e-12);
    // Both results and both adjusted results add up to one game.
    let sum = a.white.luck_adjusted_result.unwrap() + a.black.luck_adjusted_result.unwrap();
    assert!((sum - 1.0).abs() < 1e-12);
    assert_eq!(a.white_equity_curve().len(), a.turns.len());
}

#[test]
fn a_history_of_another_shape_is_refused_naming_the_field() {
    let (_, mut history) = played_game(3);
    history.as_object_mut().unwrap().remove("turns");
    let e = Game::from_value(history).unwrap_err().to_string();
    assert!(e.contains("missing field `turns`"), "{e}");
    let (mut record, _) = played_game(4);
    record["turns"][2]["moves"] = json!(["a1a8"]);
    let e = Game::from_value(record).unwrap_err();
    assert_eq!(e.turn, Some(3));
    assert!(
        e.to_string()
            .starts_with("game played-4 turn 3: a1a8 is not a legal turn path"),
        "{e}"
    );
}
