//! `dicechess play` against a local play server that speaks the documented Bot API
//! (`tests/play_server`): whole games from challenge to end, the challenge policy, resume
//! after a restart, dropped streams, server errors, draw offers, resignation, refused tokens.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod play_server;

use dicechess::play::{
    run, ApiError, ChallengePolicy, ControlKind, PlayConfig, PlayControl, PlayError, PlayReport,
    RatedFilter, ResignPolicy,
};
use play_server::{challenge, MockServer, TOKEN};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn config(server: &MockServer, bot: &str, games: usize) -> (PlayConfig, Arc<Mutex<Vec<Value>>>) {
    let mut c = PlayConfig::new(&server.url(), TOKEN, bot);
    c.max_think_ms = 20;
    c.overhead_ms = 0;
    c.poll = Duration::from_millis(200);
    c.backoff_first = Duration::from_millis(20);
    c.backoff_cap = Duration::from_millis(200);
    c.http_timeout = Duration::from_secs(5);
    c.games = Some(games);
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    c.log = Some(Arc::new(move |v: &Value| {
        sink.lock().unwrap().push(v.clone())
    }));
    (c, lines)
}

/// Run the client, failing the test (and stopping the client) after `limit`.
fn run_for(config: PlayConfig, limit: Duration) -> Result<PlayReport, PlayError> {
    let control = PlayControl::new();
    let c = control.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(config, c));
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r,
        Err(_) => {
            control.quit();
            panic!("the client did not finish within {limit:?}");
        }
    }
}

fn fischer() -> Value {
    json!({"Fischer": {"initialSeconds": 180, "incrementSeconds": 2}})
}

fn events(lines: &Arc<Mutex<Vec<Value>>>, name: &str) -> Vec<Value> {
    lines
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l["event"] == name)
        .cloned()
        .collect()
}

#[test]
fn plays_a_challenge_to_the_end_with_legal_turns_only() {
    let server = MockServer::start(|s| {
        s.challenges.push(challenge("challenge-1", fischer(), true));
    });
    let (mut cfg, lines) = config(&server, "best", 1);
    // Polls come every `poll` or when woken (an account event, a game's end), never while a
    // game is merely running.
    cfg.poll = Duration::from_secs(60);
    let report = run_for(cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(report.account, "bot:team:anon:us");
    assert_eq!(report.accepted, 1);
    assert_eq!(report.games.len(), 1);
    let summary = &report.games[0];
    assert!(summary.over.is_some(), "{summary:?}");
    server.with(|s| {
        assert!(s.illegal.is_empty(), "illegal turns: {:?}", s.illegal);
        assert_eq!(s.accepted, vec!["challenge-1".to_owned()]);
        let g = s.games.values().next().unwrap();
        assert!(g.over.is_some());
        assert_eq!(summary.turns, g.bot_turns);
        assert!(g.bot_turns > 0);
        // One fresh seed of 32 hex digits, sent before any turn of ours.
        assert_eq!(
            g.seeds.len(),
            1,
            "{:?}",
            s.requests.iter().map(|r| &r.1).collect::<Vec<_>>()
        );
        assert_eq!(g.seeds[0].len(), 32);
        let seed_at = s
            .requests
            .iter()
            .position(|r| r.1.ends_with("/seed"))
            .unwrap();
        let first_move = s
            .requests
            .iter()
            .position(|r| r.1.ends_with("/move"))
            .unwrap();
        assert!(seed_at < first_move);
        let polls = s.requests.iter().filter(|r| r.1 == "/bot/games").count();
        let turns = s.requests.iter().filter(|r| r.1.ends_with("/move")).count();
        assert!(
            polls <= 4,
            "{polls} polls of /bot/games in a game of {turns} turns"
        );
    });
    // Every turn was thought inside the budget the (Fischer) clock allowed.
    for t in events(&lines, "think") {
        assert!(t["budgetMs"].as_u64().unwrap() <= 20, "{t}");
    }
}

#[test]
fn the_policy_declines_by_control_and_rating_and_waits_at_capacity() {
    let server = MockServer::start(|s| {
        s.challenges
            .push(challenge("unlimited", json!({"Unlimited": {}}), true));
        s.challenges.push(challenge("casual", fischer(), false));
        s.challenges.push(challenge(
            "blitz",
            json!({"SuddenDeath": {"initialSeconds": 10}}),
            true,
        ));
        s.challenges.push(challenge("first", fischer(), true));
        s.challenges.push(challenge(
            "second",
            json!({"PerMove": {"secondsPerMove": 5}}),
            true,
        ));
        s.max_plies = 40;
    });
    let (mut cfg, lines) = config(&server, "greedy", 2);
    cfg.challenges = ChallengePolicy {
        controls: vec![
            ControlKind::Fischer,
            ControlKind::SuddenDeath,
            ControlKind::PerMove,
        ],
        min_initial_s: 30,
        min_per_move_s: 1,
        rated: RatedFilter::Rated,
        max_games: 1,
    };
    let report = run_for(cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(report.accepted, 2);
    assert_eq!(report.declined, 3);
    assert_eq!(report.games.len(), 2);
    server.with(|s| {
        let mut declined = s.declined.clone();
        declined.sort();
        assert_eq!(declined, ["blitz", "casual", "unlimited"]);
        assert_eq!(s.accepted, ["first", "second"]);
        // One game at a time: the second challenge waited for the first game to end.
        assert_eq!(s.max_active, 1);
        assert_eq!(s.capacity, Some(1), "--max-games declared to the server");
        assert!(s.illegal.is_empty(), "{:?}", s.illegal);
    });
    assert!(!events(&lines, "challenge-waits").is_empty());
}

#[test]
fn resumes_a_live_game_after_a_restart() {
    // A game already running with our roll pending (as after a crash): no challenge, no
    // GameStart event; `GET /bot/games` and the snapshot are all the client has.
    let server = MockServer::start(|s| {
        s.running_game("White", fischer());
        s.running_game("Black", json!({"Unlimited": {}}));
        // An anonymous bot: the server keeps no declaration (403), the client goes on.
        s.anonymous = true;
    });
    let before = server.with(|s| {
        s.games
            .values()
            .map(|g| (g.id.clone(), g.version))
            .collect::<Vec<_>>()
    });
    let (mut cfg, lines) = config(&server, "greedy", 2);
    cfg.challenges.max_games = 2;
    let report = run_for(cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(report.accepted, 0);
    let capacity = events(&lines, "capacity");
    assert_eq!(capacity.len(), 1);
    assert!(capacity[0]["declared"].is_null(), "{}", capacity[0]);
    assert_eq!(report.games.len(), 2);
    server.with(|s| {
        for (id, v) in before {
            let g = &s.games[&id];
            assert!(g.over.is_some() && g.version > v && g.bot_turns > 0, "{id}");
            // The game was under way: too late for a seed.
            assert!(g.seeds.is_empty(), "{id}");
        }
        assert!(s.illegal.is_empty(), "{:?}", s.illegal);
    });
}

#[test]
fn dropped_streams_and_server_errors_are_survived() {
    let server = MockServer::start(|s| {
        s.challenges.push(challenge("c", fischer(), true));
        s.cut_game_streams = 4;
        s.cut_after = 3;
        s.cut_account_streams = 2;
        s.fail.insert("/bot/games".into(), [503, 502, 500].into());
        s.fail.insert("/bot/stream/event".into(), [500].into());
        s.fail.insert("/bot/game/stream/".into(), [503].into());
        s.fail
            .insert("/bot/game/game-0001/move".into(), [502, 503].into());
        s.max_plies = 60;
    });
    let (cfg, lines) = config(&server, "greedy", 1);
    let report = run_for(cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(report.games.len(), 1);
    assert!(report.games[0].over.is_some(), "{report:?}");
    server.with(|s| {
        assert!(s.illegal.is_empty(), "{:?}", s.illegal);
        assert!(s.game_stream_connects >= 5, "{}", s.game_stream_connects);
        assert!(s.fail.values().all(|q| q.is_empty()), "every fault was hit");
        let g = s.games.values().next().unwrap();
        assert!(g.over.is_some());
    });
    assert!(!events(&lines, "reconnect").is_empty());
    assert!(!events(&lines, "submit-retry").is_empty());
    assert!(!events(&lines, "retry").is_empty());
}

#[test]
fn draw_offers_are_answered_by_the_bots_policy() {
    let server = MockServer::start(|s| {
        let id = s.running_game("Black", fischer());
        let g = s.games.get_mut(&id).unwrap();
        // White (the opponent) has played and offers with its next turn.
        g.opponent_offers_draw_at = Some(2);
        s.max_plies = 30;
    });
    let (cfg, lines) = config(&server, "greedy", 1);
    let report = run_for(cfg, Duration::from_secs(60)).unwrap();
    assert_eq!(report.games.len(), 1);
    server.with(|s| {
        // greedy's policy never accepts a draw: declined, and the game went on.
        assert_eq!(s.draw_answers, vec![("game-0001".to_owned(), false)]);
        let g = &s.games["game-0001"];
        assert!(g.events.iter().any(|e| e.contains("DrawDeclined")));
        assert!(g.over.is_some());
    });
    assert_eq!(events(&lines, "draw-answered").len(), 1);
}

#[test]
fn the_resign_policy_resigns_lost_positions_only() {
    let server = MockServer::start(|s| {
        s.running_game("White", fischer());
    });
    let (mut cfg, _) = config(&server, "greedy", 1);
    // Every position is "lost" under a threshold of 1: the first roll resigns.
    cfg.resign = ResignPolicy { below: Some(1.0) };
    let report = run_for(cfg, Duration::from_secs(60)).unwrap();
    assert!(report.games[0].resigned);
    assert_eq!(report.games[0].turns, 0);
    server.with(|s| {
        assert_eq!(s.resigned, ["game-0001"]);
        let over = s.games["game-0001"].over.clone().unwrap();
        assert_eq!(over["termination"], "Resign");
        assert_eq!(over["result"]["Win"]["side"], "Black");
    });
}

#[test]
fn trees_over_the_inline_cap_are_not_needed() {
    let server = MockServer::start(|s| {
        let id = s.running_game("White", fischer());
        s.games.get_mut(&id).unwrap().tree_inline = false;
        s.max_plies = 40;
    });
    // Only rolls after the first are sent with `legalMoves: null` (the first was rolled
    // at seating); the client plays from its own rules either way.
    let (cfg, _) = config(&server, "greedy", 1);
    let report = run_for(cfg, Duration::from_secs(60)).unwrap();
    assert!(report.games[0].over.is_some());
    server.with(|s| assert!(s.illegal.is_empty(), "{:?}", s.illegal));
}

#[test]
fn a_refused_token_is_a_clear_error_not_a_retry_loop() {
    let server = MockServer::start(|_| {});
    let (mut cfg, _) = config(&server, "greedy", 1);
    cfg.token = "wrong".into();
    let err = run_for(cfg, Duration::from_secs(10)).unwrap_err();
    assert!(
        matches!(
            err,
            PlayError::Api(ApiError::Unauthorized { status: 401, .. })
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "/bot/account: the server refused the bot token (HTTP 401)"
    );
}

#[test]
fn the_command_plays_and_reports_and_names_a_missing_token() {
    let exe = env!("CARGO_BIN_EXE_dicechess");
    let out = std::process::Command::new(exe)
        .args([
            "play",
            "--server",
            "http://127.0.0.1:9",
            "--token-env",
            "NO_SUCH_TOKEN_VAR",
        ])
        .env_remove("NO_SUCH_TOKEN_VAR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no bot token: set the environment variable NO_SUCH_TOKEN_VAR"),
        "{err}"
    );
    for (flag, value, says) in [
        ("--time-controls", "fischer,blitz", "unknown kind \"blitz\""),
        ("--rated", "maybe", "any, rated or casual"),
        ("--max-games", "0", "1 to 32"),
        ("--resign-below", "2", "a probability"),
        ("--poll-s", "0", "a positive number of seconds"),
    ] {
        let out = std::process::Command::new(exe)
            .args(["play", "--server", "http://127.0.0.1:9", flag, value])
            .env("DICECHESS_BOT_TOKEN", "x")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains(says), "{flag}: {err}");
    }

    let server = MockServer::start(|s| {
        s.challenges.push(challenge("c", fischer(), true));
        s.max_plies = 40;
    });
    let out = std::process::Command::new(exe)
        .args([
            "play",
            "--server",
            &server.url(),
            "--bot",
            "greedy",
            "--games",
            "1",
        ])
        .args([
            "--max-think-ms",
            "20",
            "--poll-s",
            "0.2",
            "--backoff-max-s",
            "0.2",
        ])
        .env("DICECHESS_BOT_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["accepted"], 1);
    assert_eq!(report["games"][0]["gameId"], "game-0001");
    assert!(
        report["games"][0]["over"]["termination"].is_string(),
        "{report}"
    );
    // Every log line on stderr is one JSON object, and the token is never in it.
    for line in err.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(v["event"].is_string(), "{line}");
        assert!(!line.contains(TOKEN));
    }
    let wrong = std::process::Command::new(exe)
        .args(["play", "--server", &server.url(), "--bot", "greedy"])
        .env("DICECHESS_BOT_TOKEN", "wrong")
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("refused the bot token (HTTP 401)"));
}

#[test]
fn a_server_at_its_limit_keeps_the_challenge_for_later() {
    // The client would hold two games but did not declare it: the server seats one (its
    // default for a registered bot), answers the second accept 409, and the challenge stays
    // pending until the first game ends.
    let server = MockServer::start(|s| {
        s.challenges.push(challenge("one", fischer(), true));
        s.challenges.push(challenge("two", fischer(), true));
        s.max_plies = 30;
    });
    let (mut cfg, lines) = config(&server, "greedy", 2);
    cfg.challenges.max_games = 2;
    cfg.declare_capacity = false;
    let report = run_for(cfg, Duration::from_secs(120)).unwrap();
    assert_eq!(report.accepted, 2);
    assert_eq!(report.games.len(), 2);
    assert!(!events(&lines, "busy").is_empty());
    server.with(|s| {
        assert_eq!(s.accepted, ["one", "two"]);
        assert_eq!(s.max_active, 1);
        assert_eq!(s.capacity, None);
        assert!(s.illegal.is_empty(), "{:?}", s.illegal);
    });
}
