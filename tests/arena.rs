//! The arena's statistics (SPRT, pentanomial pairs, Elo), mirrored pairs, determinism across
//! thread counts, and record replay.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::rules::legal_paths;
use dicechess::selfplay::{
    elo_estimate, elo_from_score, expected_score, llr, pair_variance, pentanomial_bin, sprt_decide,
    sprt_score, SprtDecision, SprtParams,
};
use dicechess::selfplay::{play_game, validate_record_line, GameLimits, GameRecord};
use dicechess::selfplay::{run_match, ArenaBot, ArenaConfig, TimeControl};
use serde_json::json;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b}");
}

#[test]
fn elo_and_expected_score() {
    close(expected_score(0.0), 0.5, 1e-12);
    // 1 / (1 + 10^(-400/400)) = 1/1.1
    close(expected_score(400.0), 1.0 / 1.1, 1e-12);
    close(expected_score(-400.0), 1.0 / 11.0, 1e-12);
    // 0.75 → −400·log10(1/3) = 400·log10(3) = 190.8485…
    close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9);
    close(elo_from_score(expected_score(123.0)), 123.0, 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
}

#[test]
fn pentanomial_bins() {
    // round(2·(s_white + s_black))
    assert_eq!(pentanomial_bin(0.0, 0.0), 0);
    assert_eq!(pentanomial_bin(0.5, 0.0), 1);
    assert_eq!(pentanomial_bin(0.0, 0.5), 1);
    assert_eq!(pentanomial_bin(1.0, 0.0), 2);
    assert_eq!(pentanomial_bin(0.5, 0.5), 2);
    assert_eq!(pentanomial_bin(1.0, 0.5), 3);
    assert_eq!(pentanomial_bin(1.0, 1.0), 4);
}

#[test]
fn sprt_by_hand() {
    let hist = [0u64, 10, 20, 15, 5];
    // Score: (10·¼ + 20·½ + 15·¾ + 5·1) / 50 = 28.75 / 50.
    close(sprt_score(&hist), 0.575, 1e-12);

    // Smoothed (+0.5 per bin): [0.5, 10.5, 20.5, 15.5, 5.5], total 52.5.
    // m = (0 + 2.625 + 10.25 + 11.625 + 5.5) / 52.5 = 30 / 52.5 = 4/7.
    let m = 30.0 / 52.5;
    // E[s²] = (0 + 10.5/16 + 20.5/4 + 15.5·9/16 + 5.5) / 52.5 = 20 / 52.5; v = E[s²] − m².
    let v = 20.0 / 52.5 - m * m;
    close(v, 0.054_421_768_707, 1e-9);
    // s0 = E(0) = 0.5, s1 = E(20) = 1 / (1 + 10^(−0.05)).
    let s0 = 0.5;
    let s1 = 1.0 / (1.0 + 10f64.powf(-0.05));
    close(s1, 0.528_750_563_892, 1e-9);
    // LLR = N·(s1 − s0)·(2m − s0 − s1) / (2v) with N = 50 real pairs.
    let by_hand = 50.0 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
    close(by_hand, 1.507_038_712, 1e-6);
    let params = SprtParams::default();
    close(llr(&hist, &params), by_hand, 1e-9);
    // Bounds ln(0.05/0.95) = −ln 19 and ln(0.95/0.05) = ln 19.
    close(params.lower_bound(), -(19f64.ln()), 1e-12);
    close(params.upper_bound(), 19f64.ln(), 1e-12);
    assert_eq!(sprt_decide(by_hand, &params), SprtDecision::Continue);
    // Ten times the pairs: the LLR grows past ln 19 = 2.944 (m and v barely move).
    let big = hist.map(|c| c * 10);
    assert_eq!(
        sprt_decide(llr(&big, &params), &params),
        SprtDecision::AcceptH1
    );
    // The mirror image accepts H0.
    let mirrored = [big[4], big[3], big[2], big[1], big[0]];
    assert_eq!(
        sprt_decide(llr(&mirrored, &params), &params),
        SprtDecision::AcceptH0
    );
    assert_eq!(llr(&[0; 5], &params), 0.0);
}

#[test]
fn elo_interval_by_hand() {
    let hist = [0u64, 10, 20, 15, 5];
    // Unsmoothed: m = 0.575, E[s²] = (10/16 + 20/4 + 15·9/16 + 5)/50 = 19.0625/50 = 0.38125,
    // v = 0.38125 − 0.575² = 0.050625 (sd 0.225), half-width 1.959964·0.225/√50.
    let half = 1.959964 * 0.225 / 50f64.sqrt();
    let e = elo_estimate(&hist).unwrap();
    close(e.elo, -400.0 * (1.0 / 0.575 - 1.0f64).log10(), 1e-9);
    close(e.elo, 52.511_565_8, 1e-6);
    close(e.low, elo_from_score(0.575 - half), 1e-9);
    close(e.high, elo_from_score(0.575 + half), 1e-9);
    close(e.low, 8.781_099, 1e-5);
    close(e.high, 97.967_903, 1e-5);
    assert!(elo_estimate(&[0; 5]).is_none());
}

#[test]
fn pair_variance_reduction() {
    // The §10.2 pilot numbers: sd 0.3053 per pair and 0.5010 per game ⇒ 1 792 / 2 411 games
    // for ±2 pp, reduction 0.5010 / (0.3053·√2) = 1.160.
    use dicechess::selfplay::observations_for;
    assert_eq!(2 * observations_for(0.3053, 0.02), 1792);
    assert_eq!(observations_for(0.5010, 0.02), 2411);
    // A histogram: 10 pairs all ½ (every game decisive, split) and 10 games each way.
    let pv = pair_variance(&[0, 0, 10, 0, 0], [10, 0, 10]);
    close(pv.sd_pair, 0.0, 1e-12);
    close(pv.sd_game, 0.5, 1e-12);
    let pv = pair_variance(&[5, 0, 0, 0, 5], [10, 0, 10]);
    close(pv.sd_pair, 0.5, 1e-12);
    close(pv.reduction, 0.5 / (0.5 * 2f64.sqrt()), 1e-12);
}

#[test]
fn sprt_params_parse() {
    assert_eq!(
        SprtParams::parse("0,20,0.05,0.05").unwrap(),
        SprtParams::default()
    );
    assert!(SprtParams::parse("20,0,0.05,0.05").is_err());
    assert!(SprtParams::parse("0,20,1.5,0.05").is_err());
    assert!(SprtParams::parse("0,20").is_err());
}

fn record(white: &str, black: &str, seed: u64) -> GameRecord {
    let start = Position::from_dfen(START).unwrap();
    let w = bot_by_id(white, &BotOptions::default()).unwrap();
    let b = bot_by_id(black, &BotOptions::default()).unwrap();
    play_game(
        &start,
        w.as_ref(),
        b.as_ref(),
        seed,
        GameLimits::default(),
        format!("g-{seed}"),
        (json!({"id": white}), json!({"id": black})),
    )
    .unwrap()
}

#[test]
fn mirrored_pairs_share_dice() {
    for seed in [3u64, 11, 40] {
        let a = record("greedy", "random", seed);
        let b = record("random", "greedy", seed);
        let n = a.turns.len().min(b.turns.len());
        assert!(n > 0);
        for i in 0..n {
            assert_eq!(
                a.turns[i].dice,
                b.turns[i].dice,
                "seed {seed} turn {}",
                i + 1
            );
        }
    }
}

#[test]
fn arena_is_identical_on_one_and_two_threads() {
    let config = ArenaConfig {
        start: Position::from_dfen(START).unwrap(),
        pairs: 6,
        run_seed: 9,
        limits: GameLimits::default(),
        sprt: Some(SprtParams {
            elo0: 0.0,
            elo1: 300.0,
            alpha: 0.2,
            beta: 0.2,
        }),
        report_sprt: SprtParams::default(),
        time: TimeControl::Untimed,
    };
    let first = ArenaBot::new("greedy", BotOptions::default());
    let second = ArenaBot::new("random-king-capture", BotOptions::default());
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut r = pool
            .install(|| run_match(&first, &second, &config, &|_| {}))
            .unwrap();
        r.wall_s = 0.0;
        // Thinking times are wall-clock measurements too.
        r.think_bot = Default::default();
        r.think_opponent = Default::default();
        r
    };
    let one = run(1);
    let two = run(2);
    assert_eq!(one, two);
    assert!(one.pairs >= 1 && one.pairs <= 6);
    assert_eq!(one.games, 2 * one.pairs);
    assert_eq!(one.wins + one.losses + one.draws, one.games);
    assert_eq!(one.pentanomial.iter().sum::<u64>(), one.pairs);
    // Greedy crushes a random king-capturer.
    assert!(one.score > 0.6, "{one:?}");
}

#[test]
fn replay_accepts_played_games() {
    for seed in [1u64, 2, 5] {
        let r = record("greedy", "aggressive", seed);
        let line = serde_json::to_string(&r).unwrap();
        let s = validate_record_line(&line).unwrap();
        assert_eq!(s.turns, r.turns.len());
        assert_eq!(s.result, r.result);
    }
}

/// A record with a turn of at least two moves; returns the index of that turn.
fn record_with_long_turn() -> (GameRecord, usize) {
    for seed in 1u64.. {
        let r = record("greedy", "greedy", seed);
        if let Some(i) = r.turns.iter().position(|t| t.moves.len() >= 2) {
            return (r, i);
        }
    }
    unreachable!()
}

#[test]
fn replay_rejects_an_altered_move() {
    let (mut r, i) = record_with_long_turn();
    r.turns[i].moves.pop();
    let line = serde_json::to_string(&r).unwrap();
    let e = validate_record_line(&line).unwrap_err();
    assert_eq!(e.turn, Some(r.turns[i].turn_number));
    assert_eq!(e.game_id.as_deref(), Some(r.game_id.as_str()));
    assert!(
        e.message.contains("is not a legal turn path for dice"),
        "{}",
        e.message
    );
    let text = e.describe(3);
    assert!(
        text.starts_with(&format!(
            "game {} (line 3) turn {}: ",
            r.game_id, r.turns[i].turn_number
        )),
        "{text}"
    );
}

#[test]
fn replay_rejects_altered_dice() {
    let (mut r, i) = record_with_long_turn();
    // The position before turn i.
    let before = if i == 0 {
        Position::from_dfen(&r.initial_dfen).unwrap()
    } else {
        Position::from_dfen(&r.turns[i - 1].fen_after).unwrap()
    };
    let played = r.turns[i].moves.join(",");
    let mut altered = None;
    'find: for a in 1..=6u8 {
        for b in a..=6 {
            for c in b..=6 {
                let faces = [a, b, c];
                let rolled = before.with_dice(dicechess::board::Dice::from_faces(&faces).unwrap());
                if !legal_paths(&rolled).iter().any(|p| p.uci() == played) {
                    altered = Some(faces.to_vec());
                    break 'find;
                }
            }
        }
    }
    r.turns[i].dice = altered.expect("some roll forbids the path");
    let e = validate_record_line(&serde_json::to_string(&r).unwrap()).unwrap_err();
    assert_eq!(e.turn, Some(r.turns[i].turn_number), "{e}");
    assert!(e.message.contains("legal"), "{}", e.message);

    // Faces outside 1..6.
    let (mut r, _) = record_with_long_turn();
    r.turns[0].dice = vec![0, 3, 7];
    let e = validate_record_line(&serde_json::to_string(&r).unwrap()).unwrap_err();
    assert_eq!(e.turn, Some(1));
    assert!(e.message.contains("not three faces"), "{}", e.message);
}

#[test]
fn replay_rejects_wrong_fen_after_and_result() {
    let (r0, _) = record_with_long_turn();
    let mut r = r0.clone();
    r.turns[2].fen_after = r.initial_dfen.clone();
    let e = validate_record_line(&serde_json::to_string(&r).unwrap()).unwrap_err();
    assert_eq!(e.turn, Some(3));
    assert!(e.message.contains("fenAfter"), "{}", e.message);

    let mut r = r0.clone();
    r.result = if r.result == 1 { -1 } else { 1 };
    let e = validate_record_line(&serde_json::to_string(&r).unwrap()).unwrap_err();
    assert_eq!(e.turn, None);
    assert!(e.message.contains("recorded result"), "{}", e.message);

    let mut r = r0.clone();
    r.turns[1].active_color = r.turns[0].active_color.clone();
    let e = validate_record_line(&serde_json::to_string(&r).unwrap()).unwrap_err();
    assert_eq!(e.turn, Some(2));

    let mut r = r0;
    r.turns.truncate(r.turns.len() - 1);
    assert!(validate_record_line(&serde_json::to_string(&r).unwrap()).is_err());

    for junk in ["", "{", "null", "[1,2]", "{\"gameId\":\"x\"}", "\u{0}"] {
        assert!(validate_record_line(junk).is_err());
    }
}
