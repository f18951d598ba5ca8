#![cfg(feature = "serve")]
//! The webhook server against a real listener on 127.0.0.1: signatures, statuses, every
//! delivery type, complete games, a 64-game load test and the think-time budget.

use dicechess::board::{Dice, Position};
use dicechess::rules::{legal_paths, parse_uci_path, play_turn, TurnTree};
use dicechess::search::bots::BotOptions;
use dicechess::serve::{spawn, ServeConfig, ServerHandle};
use hmac::{Hmac, Mac};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use sha2::Sha256;
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const SECRET: &[u8] = b"active-secret";
const NEXT: &[u8] = b"pending-secret";

async fn start_with(bot: &str, tweak: impl FnOnce(&mut ServeConfig)) -> ServerHandle {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mut config = ServeConfig::new(bot, SECRET);
    config.next_secret = Some(NEXT.to_vec());
    config.log_requests = false;
    config.threads = Some(2);
    config.max_think_ms = 2000;
    config.bot_options = BotOptions {
        table_mb: Some(1),
        ..BotOptions::default()
    };
    tweak(&mut config);
    spawn(config, listener).unwrap()
}

async fn start(bot: &str) -> ServerHandle {
    start_with(bot, |_| {}).await
}

/// Hex HMAC-SHA256, computed here independently of the server's code.
fn hmac_hex(key: &[u8], parts: &[&[u8]]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    for p in parts {
        mac.update(p);
    }
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn signed(key: &[u8], ts: u64, body: &[u8]) -> Vec<(String, String)> {
    let ts = ts.to_string();
    vec![
        ("X-DiceChess-Timestamp".into(), ts.clone()),
        (
            "X-DiceChess-Signature".into(),
            hmac_hex(key, &[ts.as_bytes(), b".", body]),
        ),
    ]
}

/// One HTTP/1.1 exchange on a fresh connection: (status, JSON body or Null, elapsed).
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> (u16, Value, Duration) {
    let t0 = Instant::now();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let elapsed = t0.elapsed();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let json = serde_json::from_str(body).unwrap_or(Value::Null);
    (status, json, elapsed)
}

async fn post_signed(addr: SocketAddr, key: &[u8], body: &Value) -> (u16, Value, Duration) {
    let raw = serde_json::to_vec(body).unwrap();
    request(
        addr,
        "POST",
        "/api/webhook",
        &signed(key, now_s(), &raw),
        &raw,
    )
    .await
}

fn roll(rng: &mut Xoshiro256PlusPlus, pos: &Position) -> Position {
    let faces: Vec<u8> = (0..3).map(|_| (rng.next_u64() % 6) as u8 + 1).collect();
    pos.with_dice(Dice::from_faces(&faces).unwrap())
}

fn seat(pos: &Position) -> &'static str {
    if pos.side_to_move() == dicechess_kernels::Color::White {
        "White"
    } else {
        "Black"
    }
}

fn your_turn(game: &str, rolled: &Position, tree: Value, clocks: Value, tc: Value) -> Value {
    json!({
        "type": "yourTurn",
        "gameId": game,
        "seat": seat(rolled),
        "state": {
            "dfen": rolled.to_dfen(),
            "activeSeat": seat(rolled),
            "clocks": clocks,
            "timeControl": tc,
            "legalMoves": tree,
        },
    })
}

fn moves_of(answer: &Value) -> Vec<String> {
    answer["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no moves in {answer}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// Play one game served turn by turn; every answer must be a legal turn. Returns the
/// latency of each delivery and whether the game ended (king capture or half-move limit).
async fn play_served_game(
    addr: SocketAddr,
    game: String,
    seed: u64,
    with_tree: bool,
    max_turns: u32,
) -> (Vec<Duration>, bool) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::startpos();
    let mut latencies = Vec::new();
    for _ in 0..max_turns {
        let rolled = roll(&mut rng, &pos);
        let tree = if with_tree {
            TurnTree::new(&rolled).to_json()
        } else {
            Value::Null
        };
        let body = your_turn(&game, &rolled, tree, Value::Null, json!("Unlimited"));
        let (status, answer, elapsed) = post_signed(addr, SECRET, &body).await;
        assert_eq!(status, 200, "{game}: {answer}");
        latencies.push(elapsed);
        let moves = parse_uci_path(&rolled, &moves_of(&answer).join(",")).unwrap();
        let next = play_turn(&rolled, &moves)
            .unwrap_or_else(|e| panic!("{game}: illegal answer {answer} in {rolled}: {e}"));
        let king = legal_paths(&rolled)
            .iter()
            .any(|p| p.captures_king() && *p.moves() == *moves);
        pos = next;
        if king || pos.halfmove() >= 100 {
            return (latencies, true);
        }
    }
    (latencies, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verification_and_authentication() {
    let server = start("greedy").await;
    let addr = server.addr();

    // v1, unsigned: the nonce is echoed.
    let v1 = br#"{"type":"verification","nonce":"n-123"}"#;
    let (s, a, _) = request(addr, "POST", "/api/webhook", &[], v1).await;
    assert_eq!((s, a), (200, json!({"nonce": "n-123"})));
    // v1, signed under either key.
    for key in [SECRET, NEXT] {
        let (s, a, _) = request(addr, "POST", "/api/webhook", &signed(key, now_s(), v1), v1).await;
        assert_eq!((s, a), (200, json!({"nonce": "n-123"})));
    }

    // v2 under the pending key: the proof is HMAC(pending, line + "\n" + raw body).
    let v2 = br#"{"type": "verification", "version": 2, "nonce": "xyz"}"#;
    let (s, a, _) = request(addr, "POST", "/api/webhook", &signed(NEXT, now_s(), v2), v2).await;
    assert_eq!(s, 200, "{a}");
    let want = hmac_hex(NEXT, &[b"dicechess-webhook-activate-v2\n", v2]);
    assert_eq!(a, json!({"nonce": "xyz", "proof": want}));
    // v2 under the active key, or unsigned: refused.
    let (s, a, _) = request(
        addr,
        "POST",
        "/api/webhook",
        &signed(SECRET, now_s(), v2),
        v2,
    )
    .await;
    assert_eq!(s, 401, "{a}");
    assert!(a["error"].is_string());
    let (s, _, _) = request(addr, "POST", "/api/webhook", &[], v2).await;
    assert_eq!(s, 401);

    let pos = roll(
        &mut Xoshiro256PlusPlus::seed_from_u64(1),
        &Position::startpos(),
    );
    let turn = your_turn("g-auth", &pos, Value::Null, Value::Null, json!("Unlimited"));
    let raw = serde_json::to_vec(&turn).unwrap();
    // Unsigned, wrongly signed, stale: 401.
    let (s, _, _) = request(addr, "POST", "/api/webhook", &[], &raw).await;
    assert_eq!(s, 401);
    let (s, a, _) = request(
        addr,
        "POST",
        "/api/webhook",
        &signed(b"wrong", now_s(), &raw),
        &raw,
    )
    .await;
    assert_eq!(s, 401);
    assert!(a["error"].is_string());
    let mut tampered = signed(SECRET, now_s(), &raw);
    tampered[1].1.replace_range(0..2, "00");
    tampered[1].1.replace_range(2..4, "ff");
    let (s, _, _) = request(addr, "POST", "/api/webhook", &tampered, &raw).await;
    assert_eq!(s, 401);
    let (s, _, _) = request(
        addr,
        "POST",
        "/api/webhook",
        &signed(SECRET, now_s() - 301, &raw),
        &raw,
    )
    .await;
    assert_eq!(s, 401);
    // The active and the pending key: accepted.
    for key in [SECRET, NEXT] {
        let (s, a, _) = post_signed(addr, key, &turn).await;
        assert_eq!(s, 200, "{a}");
        assert!(a["moves"].is_array());
    }

    // Too large: 413; not JSON: 400; unknown type: 400.
    let mut big = br#"{"type":"verification","nonce":""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 70 * 1024));
    big.extend(br#""}"#);
    let (s, a, _) = request(
        addr,
        "POST",
        "/api/webhook",
        &signed(SECRET, now_s(), &big),
        &big,
    )
    .await;
    assert_eq!(s, 413);
    assert!(a["error"].is_string());
    let garbage = b"{not json";
    let (s, a, _) = request(
        addr,
        "POST",
        "/api/webhook",
        &signed(SECRET, now_s(), garbage),
        garbage,
    )
    .await;
    assert_eq!(s, 400);
    assert!(a["error"].is_string());
    let (s, a, _) = post_signed(addr, SECRET, &json!({"type": "teaTime", "gameId": "g"})).await;
    assert_eq!(s, 400);
    assert!(a["error"].is_string());

    // Health.
    let (s, a, _) = request(addr, "GET", "/health", &[], b"").await;
    assert_eq!((s, a), (200, json!({"status": "ok", "bot": "greedy"})));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_decision_type_is_answered() {
    let server = start("greedy").await;
    let addr = server.addr();
    let pos = Position::startpos();
    let state = json!({"dfen": pos.to_dfen(), "activeSeat": "White", "clocks": null});
    let (s, a, _) = post_signed(
        addr,
        SECRET,
        &json!({"type": "drawDecision", "gameId": "g1", "seat": "Black", "state": state}),
    )
    .await;
    assert_eq!(s, 200, "{a}");
    assert!(a["acceptDraw"].is_boolean(), "{a}");
    let (s, a, _) = post_signed(
        addr,
        SECRET,
        &json!({"type": "doubleOpportunity", "gameId": "g1", "decisionId": "d-1",
                "seat": "White", "state": state}),
    )
    .await;
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["decisionId"], "d-1");
    assert!(a["offerDouble"].is_boolean(), "{a}");
    let (s, a, _) = post_signed(
        addr,
        SECRET,
        &json!({"type": "doubleDecision", "gameId": "g1", "decisionId": 42,
                "seat": "Black", "state": state}),
    )
    .await;
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["decisionId"], 42);
    assert!(a["acceptDouble"].is_boolean(), "{a}");

    // yourTurn with a tree, the time control as an object (a roll with several paths).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let rolled = loop {
        let r = roll(&mut rng, &pos);
        if legal_paths(&r).len() > 1 {
            break r;
        }
    };
    let tree = TurnTree::new(&rolled).to_json();
    let body = your_turn(
        "g1",
        &rolled,
        tree.clone(),
        json!({"white": 60000, "black": 60000}),
        json!({"type": "Fischer", "incrementMs": 1000}),
    );
    let (s, a, _) = post_signed(addr, SECRET, &body).await;
    assert_eq!(s, 200, "{a}");
    let moves = parse_uci_path(&rolled, &moves_of(&a).join(",")).unwrap();
    play_turn(&rolled, &moves).unwrap();

    // A tree holding only the last legal path: the answer is that path.
    let last = *legal_paths(&rolled).last().unwrap();
    let mut only = json!({});
    let mut node = &mut only;
    for m in last.moves() {
        node[m.uci()] = json!({});
        node = node.get_mut(m.uci()).unwrap();
    }
    let body = your_turn("g1", &rolled, only, Value::Null, json!("Unlimited"));
    let (s, a, _) = post_signed(addr, SECRET, &body).await;
    assert_eq!(s, 200, "{a}");
    let want: Vec<String> = last.moves().iter().map(|m| m.uci()).collect();
    assert_eq!(moves_of(&a), want);

    // A yourTurn without dice, or for the wrong seat: 400.
    let mut body = your_turn("g1", &rolled, Value::Null, Value::Null, json!("Unlimited"));
    body["state"]["dfen"] = json!(pos.to_dfen());
    let (s, _, _) = post_signed(addr, SECRET, &body).await;
    assert_eq!(s, 400);
    let mut body = your_turn("g1", &rolled, Value::Null, Value::Null, json!("Unlimited"));
    body["seat"] = json!("Black");
    let (s, _, _) = post_signed(addr, SECRET, &body).await;
    assert_eq!(s, 400);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_bot_plays_complete_legal_games() {
    let server = start("greedy").await;
    let addr = server.addr();
    for (i, with_tree) in [true, false, true, false].into_iter().enumerate() {
        let (turns, ended) =
            play_served_game(addr, format!("game-{i}"), 100 + i as u64, with_tree, 300).await;
        assert!(ended, "game {i} still running after {} turns", turns.len());
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_test_64_concurrent_games() {
    let server = start("greedy").await;
    let addr = server.addr();
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..64u64)
        .map(|g| {
            tokio::spawn(play_served_game(
                addr,
                format!("load-{g}"),
                1000 + g,
                g % 2 == 0,
                20,
            ))
        })
        .collect();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("a game task failed").0);
    }
    latencies.sort();
    let pct = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "load: 64 games, {} deliveries, 0 failed, {:.1} s; latency p50 {:.1} ms, p99 {:.1} ms",
        latencies.len(),
        t0.elapsed().as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
    assert!(latencies.len() >= 64);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn think_time_stays_within_the_clock_budget() {
    let server = start_with("expectimax", |c| c.max_think_ms = 3000).await;
    let addr = server.addr();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut pos = Position::startpos();
    // A few plies in, so the search has work to do.
    for _ in 0..4 {
        let rolled = roll(&mut rng, &pos);
        pos = match legal_paths(&rolled).first() {
            Some(p) => p.end_position(&rolled),
            None => rolled.end_turn(),
        };
    }
    let rolled = roll(&mut rng, &pos);
    // 1 s on the clock: the budget is the 20 ms floor (panic clamp less the overhead).
    let body = your_turn(
        "g-clock",
        &rolled,
        Value::Null,
        json!({"white": 1000, "black": 1000}),
        json!("SuddenDeath"),
    );
    let (s, a, elapsed) = post_signed(addr, SECRET, &body).await;
    assert_eq!(s, 200, "{a}");
    let moves = parse_uci_path(&rolled, &moves_of(&a).join(",")).unwrap();
    play_turn(&rolled, &moves).unwrap();
    let budget = Duration::from_millis(20);
    let margin = Duration::from_millis(700);
    assert!(
        elapsed < budget + margin,
        "answered in {elapsed:?}, budget {budget:?}"
    );
    println!(
        "clock 1000 ms: answered in {:.1} ms",
        elapsed.as_secs_f64() * 1e3
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_drains_in_flight_searches() {
    let server = start_with("expectimax", |c| c.max_think_ms = 400).await;
    let addr = server.addr();
    let rolled = roll(
        &mut Xoshiro256PlusPlus::seed_from_u64(3),
        &Position::startpos(),
    );
    let body = your_turn(
        "g-drain",
        &rolled,
        Value::Null,
        Value::Null,
        json!("Unlimited"),
    );
    let in_flight = tokio::spawn(async move { post_signed(addr, SECRET, &body).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.stop().await.unwrap();
    let (s, a, _) = in_flight.await.unwrap();
    assert_eq!(s, 200, "{a}");
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arena_plays_a_served_bot_with_every_turn_legal() {
    use dicechess::selfplay::{
        run_match, ArenaBot, ArenaConfig, GameLimits, SprtParams, TimeControl,
    };
    let server = start("greedy").await;
    let url = format!("http://{}/api/webhook", server.addr());
    // The arena signs its deliveries with the shared secret from the environment.
    std::env::set_var(
        "DICECHESS_WEBHOOK_SECRET",
        std::str::from_utf8(SECRET).unwrap(),
    );
    let report = tokio::task::spawn_blocking(move || {
        let config = ArenaConfig {
            start: dicechess::board::Position::startpos(),
            pairs: 3,
            run_seed: 5,
            limits: GameLimits::default(),
            sprt: None,
            report_sprt: SprtParams::default(),
            time: TimeControl::Untimed,
        };
        let served = ArenaBot::new(&url, BotOptions::default());
        let greedy = ArenaBot::new("greedy", BotOptions::default());
        run_match(&served, &greedy, &config, &|_| {})
    })
    .await
    .unwrap()
    .expect("every delivery answered with a legal turn");
    // WebhookBot refuses any answer that is not one of the legal paths, so completing the
    // match means every served turn was legal.
    assert_eq!(report.games, 6);
    assert_eq!(report.wins + report.losses + report.draws, 6);
    server.stop().await.expect("clean stop");
}
