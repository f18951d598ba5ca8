//! Every bot plays legal turns; terminal rules; Monte-Carlo equity; book and policies.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::random_rolled;
use dicechess::board::Position;
use dicechess::bots::{
    bot_by_id, dead_draw, registry, win_probability, Bot, BotOptions, Deepening, ExpectimaxBot,
    MonteCarloBot, OpeningBook, OpeningBookBot, Turn, BOT_IDS,
};
use dicechess::kernels::Color;
use dicechess::rules::legal_paths;
use dicechess::search::{equity, Expectimax, MonteCarloConfig, SearchConfig};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).expect("valid DFEN")
}

fn check_legal(bot: &dyn Bot, positions: &[Position], seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for p in positions {
        let paths = legal_paths(p);
        let choice = bot
            .choose(
                p,
                &mut Turn {
                    rng: &mut rng,
                    deadline: None,
                },
            )
            .expect("bot runs");
        match choice.path {
            None => assert!(
                paths.is_empty(),
                "{} passed with legal turns at {p}",
                bot.info().id
            ),
            Some(path) => assert!(
                paths.contains(&path),
                "{} played an illegal turn {path} at {p}",
                bot.info().id
            ),
        }
    }
}

fn positions(n: usize, seed: u64) -> Vec<Position> {
    (0..n)
        .map(|i| random_rolled(i, seed ^ (i as u64 * 0x9e37), i % 25))
        .collect()
}

#[test]
fn every_cheap_bot_plays_a_legal_turn_on_1000_random_positions() {
    let ps = positions(1000, 11);
    for id in [
        "random",
        "random-king-capture",
        "checkmate-aware",
        "greedy",
        "cautious-greedy",
        "aggressive",
    ] {
        let bot = bot_by_id(id, &BotOptions::default()).expect("registered");
        check_legal(bot.as_ref(), &ps, 1);
    }
    // Expectimax (depth 2, material leaves) on the same 1,000 positions, narrow and with a table.
    let opts = BotOptions {
        candidate_limit: Some(3),
        table_mb: Some(8),
        ..BotOptions::default()
    };
    check_legal(
        bot_by_id("expectimax", &opts).expect("registered").as_ref(),
        &ps,
        2,
    );
}

#[test]
fn searching_bots_play_legal_turns() {
    let mc = MonteCarloBot {
        config: MonteCarloConfig {
            rollouts: 4,
            max_plies: 6,
            ..MonteCarloConfig::default()
        },
        candidates: 3,
    };
    check_legal(&mc, &positions(150, 12), 3);
    let d3 = bot_by_id(
        "expectimax-d3",
        &BotOptions {
            candidate_limit: Some(2),
            table_mb: Some(8),
            ..BotOptions::default()
        },
    )
    .expect("registered");
    let sparse: Vec<Position> = (0..20)
        .map(|i| random_rolled(2 + 2 * (i % 2), 99 + i as u64, 4))
        .collect();
    check_legal(d3.as_ref(), &sparse, 4);
}

#[test]
fn a_king_capture_is_always_taken_and_a_pass_returns_no_turn() {
    let win = pos("k7/8/8/8/8/8/8/R3K3 w - - 0 1 PPR");
    let pass = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for id in BOT_IDS.iter().filter(|id| **id != "expectimax-model") {
        let bot = bot_by_id(
            id,
            &BotOptions {
                table_mb: Some(1),
                ..BotOptions::default()
            },
        )
        .expect("registered");
        let mut turn = Turn {
            rng: &mut rng,
            deadline: None,
        };
        let c = bot.choose(&pass, &mut turn).expect("runs");
        assert!(c.path.is_none(), "{id} must pass");
        if *id == "random" {
            continue;
        }
        let c = bot.choose(&win, &mut turn).expect("runs");
        assert!(
            c.path.expect("a turn").captures_king(),
            "{id} must capture the king"
        );
    }
}

#[test]
fn registry_lists_every_id_once_by_difficulty() {
    let r = registry();
    let ids: Vec<&str> = r.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, BOT_IDS.to_vec());
    assert!(r.windows(2).all(|w| w[0].difficulty < w[1].difficulty));
    assert!(
        bot_by_id("GREEDY", &BotOptions::default()).is_ok(),
        "ids are case-insensitive"
    );
    let err = bot_by_id("nope", &BotOptions::default())
        .err()
        .expect("unknown");
    assert!(err.to_string().contains("unknown bot"));
    let err = bot_by_id("expectimax-model", &BotOptions::default())
        .err()
        .expect("needs a model");
    assert!(err.to_string().contains("--model"));
}

#[test]
fn expectimax_with_model_leaves_plays_legal_turns() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models/linear-material7");
    let opts = BotOptions {
        model: Some(dir),
        candidate_limit: Some(3),
        ..BotOptions::default()
    };
    let bot = bot_by_id("expectimax-model", &opts).unwrap_or_else(|e| {
        panic!("{e} (run `bash .ci/install-onnxruntime` and export ORT_DYLIB_PATH)")
    });
    check_legal(bot.as_ref(), &positions(60, 13), 6);
}

#[test]
fn opening_book_turns_are_played_before_the_bot() {
    let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB");
    let key = OpeningBook::key(&start).expect("dice");
    assert_eq!(
        key,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - BNP"
    );
    // Stored order does not matter: matched as a multiset.
    let book = OpeningBook::parse(&format!("{key}\tf1c4,g1f3,e2e4\n\n")).expect("valid book");
    let bot = OpeningBookBot::new(
        book,
        bot_by_id("greedy", &BotOptions::default()).expect("greedy"),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let c = bot
        .choose(
            &start,
            &mut Turn {
                rng: &mut rng,
                deadline: None,
            },
        )
        .expect("runs");
    let mut got: Vec<String> = c
        .path
        .expect("booked")
        .moves()
        .iter()
        .map(|m| m.uci())
        .collect();
    got.sort();
    assert_eq!(got, vec!["e2e4", "f1c4", "g1f3"]);
    let err = OpeningBook::parse("only-one-field\n").expect_err("bad line");
    assert!(err.to_string().contains("line 1"));
}

#[test]
fn monte_carlo_masses_sum_to_one_and_are_reproducible_across_threads() {
    let p = pos("rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1");
    let config = MonteCarloConfig {
        rollouts: 64,
        max_plies: 30,
        seed: 7,
        ..MonteCarloConfig::default()
    };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| equity(&p, &config, None))
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one.rollouts, 64);
    assert!(
        (one.white_win + one.black_win + one.undecided - 1.0).abs() < 1e-9,
        "{one:?}"
    );
    assert!(one.standard_error > 0.0 && one.variance_reduction > 1.0);
}

#[test]
fn a_position_decided_on_the_first_roll_is_exact() {
    // Every piece type of White attacks the black king: every roll captures it.
    let p = pos("7B/8/3K4/Q3k3/3P4/5N2/8/4R3 w - - 0 1");
    let e = equity(
        &p,
        &MonteCarloConfig {
            rollouts: 40,
            ..MonteCarloConfig::default()
        },
        None,
    );
    assert_eq!(
        (e.white_win, e.black_win, e.undecided, e.standard_error),
        (1.0, 0.0, 0.0, 0.0)
    );
}

#[test]
fn win_probability_and_dead_draw_reference_values() {
    let pawn_up = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!((win_probability(&pawn_up, Color::White) - 0.562).abs() < 1e-3);
    assert!(
        (win_probability(&pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), Color::White) - 0.5).abs() < 1e-12
    );
    // Opposite-colour lone bishops with kings apart: dead; a pawn or adjacent kings: not.
    assert!(dead_draw(&pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")));
    assert!(!dead_draw(&pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")));
    assert!(!dead_draw(&pos("8/8/8/8/8/8/3k4/2B1K3 w - - 0 1")));
}

#[test]
fn expectimax_bot_reports_search_stats() {
    let s = Expectimax::new(SearchConfig::default(), Arc::new(dicechess::eval::Material))
        .expect("config");
    let bot = ExpectimaxBot {
        search: s,
        deeper: None,
        wider: Vec::new(),
        deepening: Deepening::Clock,
        info: registry()[7].clone(),
    };
    let p = pos("7k/8/8/b7/8/8/5P2/4K3 w - - 0 1 NBK");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let c = bot
        .choose(
            &p,
            &mut Turn {
                rng: &mut rng,
                deadline: None,
            },
        )
        .expect("runs");
    let stats = c.stats.expect("stats");
    assert_eq!((stats.legal_turns, stats.candidates_selected), (4, 4));
}

#[test]
fn expectimax_deepens_to_depth_3_when_the_clock_allows() {
    // Sparse position: depth 3 finishes in well under a second even on a loaded machine.
    let p = pos("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 PRK");
    let bot = bot_by_id("expectimax", &BotOptions::default()).expect("registered");
    let exact = |depth| {
        Expectimax::new(
            SearchConfig {
                depth,
                ..SearchConfig::default()
            },
            Arc::new(dicechess::eval::Material),
        )
        .expect("config")
        .search(&p, None, &mut Xoshiro256PlusPlus::seed_from_u64(3))
        .expect("search")
        .score
    };
    let (d2, d3) = (exact(2), exact(3));
    assert_ne!(d2, d3, "the test needs a position where depth matters");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut choose = |deadline| {
        bot.choose(
            &p,
            &mut Turn {
                rng: &mut rng,
                deadline,
            },
        )
        .expect("runs")
        .score
    };
    // Untimed: depth 2 only (reproducible); with a minute on the clock: the depth-3 answer.
    assert_eq!(choose(None), d2);
    let minute = std::time::Instant::now() + std::time::Duration::from_secs(60);
    assert_eq!(choose(Some(minute)), d3);
}

#[test]
fn best_v1_is_wave_2s_best_frozen_and_best_deepens_from_it() {
    // `best-v1` keeps wave 2's depth-2 decision untimed; `best` runs the same depth-2
    // search, then its selective depth 3 over that search's best candidates: with one
    // candidate it can only confirm the depth-2 choice, so it plays best-v1's after-state
    // (the turn within it may differ: equal paths are drawn at random).
    let v1 = bot_by_id("best-v1", &BotOptions::default()).unwrap();
    let best = bot_by_id("best", &BotOptions::default()).unwrap();
    let best_one = bot_by_id(
        "best",
        &BotOptions {
            d3_candidates: Some(1),
            ..BotOptions::default()
        },
    )
    .unwrap();
    assert_eq!(v1.info().id, "best-v1");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sample_middlegame.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')).take(4) {
        let p = pos(line);
        let choose = |bot: &dyn Bot| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            bot.choose(
                &p,
                &mut Turn {
                    rng: &mut rng,
                    deadline: None,
                },
            )
            .unwrap()
        };
        let (a, b, c) = (
            choose(v1.as_ref()),
            choose(best.as_ref()),
            choose(best_one.as_ref()),
        );
        let (sa, sb) = (a.stats.unwrap(), b.stats.unwrap());
        assert_eq!(
            (sa.candidates_selected, sa.replies_skipped),
            (16, 0),
            "{line}"
        );
        assert_eq!(sb.candidates_selected, 8, "{line}");
        assert!(sb.replies_skipped > 0, "{line}");
        let after = |c: &dicechess::bots::Choice| c.path.unwrap().end_position(&p).key();
        assert_eq!(after(&a), after(&c), "{line}");
    }
}
