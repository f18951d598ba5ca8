//! The webhook server against a real listener on 127.0.0.1: the play server's exact wire
//! format (fixtures in tests/fixtures/webhook), the canonical v2 vector, the runtimes'
//! error codes, duplicates, hostile clients (half-sent headers, megabyte bodies, a
//! nine-queen root), complete games, load, think time and shutdown.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::board::{Dice, Position};
use dicechess::bots::{bot_by_id, fast_bounded, BotOptions, FAST_ROOT_UNITS};
use dicechess::rules::{legal_paths, parse_uci_path, play_turn, Budget, TurnTree};
use dicechess::serve::{proof, sign, spawn, verify, ServeConfig, ServerHandle, SignedWith};
use dicechess::serve::{MAX_BODY_BYTES, MAX_INLINE_TREE_BYTES};
use hmac::{Hmac, Mac};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use sha2::Sha256;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const SECRET: &[u8] = b"active-secret";
const NEXT: &[u8] = b"pending-secret";
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/webhook");

/// The issue's nine queens: sixteen white pieces and no black king.
const NINE_QUEENS: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ";
/// The same army with a black king on h2: a position a game can reach (eight promotions),
/// still millions of turn paths.
const NINE_QUEENS_REACHABLE: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q3k/1BNN1KB1 w - - 0 1 QQQ";

/// These tests measure the latency and memory of a real server on this machine: they run one
/// at a time, so that one test's load (32 concurrent games, a megabyte flood, nine queens) is
/// never another's latency. (Run concurrently on 2 cores, the wait-queue test's depth-3
/// search overran its 400 ms grace.)
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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

/// One HTTP/1.1 answer: status, headers (lower-case names), raw body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    elapsed: Duration,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A sanitized error: exactly `{"error": code}`, not cached.
    fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.json()),
            (status, json!({ "error": code })),
            "{}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(self.header("cache-control"), Some("no-store"));
    }
}

/// One exchange on a fresh connection. Write errors are ignored (a server may answer 413
/// and close before the body is sent); the answer is read to the end.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Reply {
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
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body).await;
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    let elapsed = t0.elapsed();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP response");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
        elapsed,
    }
}

async fn post_raw(addr: SocketAddr, key: &[u8], raw: &[u8]) -> Reply {
    request(
        addr,
        "POST",
        "/api/webhook",
        &signed(key, now_s(), raw),
        raw,
    )
    .await
}

async fn post_signed(addr: SocketAddr, key: &[u8], body: &Value) -> Reply {
    post_raw(addr, key, &serde_json::to_vec(body).unwrap()).await
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(FIXTURES).join(name)).unwrap()
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

/// A `yourTurn` as the server builds it: the tree inline up to 1,000 paths, else null.
fn your_turn(game: &str, version: u64, rolled: &Position, clocks: Value, tc: Value) -> Value {
    let paths = legal_paths(rolled).len();
    let tree = if paths <= 1000 {
        TurnTree::new(rolled).to_json()
    } else {
        Value::Null
    };
    json!({
        "type": "yourTurn",
        "gameId": game,
        "seat": seat(rolled),
        "state": {
            "version": version,
            "dfen": rolled.to_dfen(),
            "activeSeat": seat(rolled),
            "dicePending": true,
            "status": {"Active": {}},
            "timeControl": tc,
            "clocks": clocks,
            "commit": "00",
            "seed": null,
            "clientSeeds": null,
            "legalMoves": tree,
            "players": null,
            "rated": false,
            "drawOffer": null,
            "mayOfferDraw": false,
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

/// The turn answered for `dfen` is legal there.
fn assert_legal(dfen: &str, answer: &Value) {
    let pos = Position::from_dfen(dfen).unwrap();
    let moves = parse_uci_path(&pos, &moves_of(answer).join(","))
        .unwrap_or_else(|e| panic!("{answer} at {dfen}: {e}"));
    play_turn(&pos, &moves).unwrap_or_else(|e| panic!("{answer} at {dfen}: {e}"));
}

/// Play one game served turn by turn; every answer must be a legal turn. Returns the
/// latency of each delivery and whether the game ended (king capture or half-move limit).
async fn play_served_game(
    addr: SocketAddr,
    game: String,
    seed: u64,
    max_turns: u32,
) -> (Vec<Duration>, bool) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::startpos();
    let mut latencies = Vec::new();
    for version in 0..max_turns {
        let rolled = roll(&mut rng, &pos);
        let body = your_turn(
            &game,
            u64::from(version),
            &rolled,
            Value::Null,
            json!({"Unlimited": {}}),
        );
        let r = post_signed(addr, SECRET, &body).await;
        let answer = r.json();
        assert_eq!(r.status, 200, "{game}: {answer}");
        latencies.push(r.elapsed);
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

/// The canonical v2 vector of `fortemate/dicechess-bot-runtime`,
/// `src/test/java/com/fortemate/dicechess/runtime/VerificationV2Vectors.java` (the
/// `jvm-verification-v2` entry of `fortemate/dicechess-bot-runtime-js`,
/// `fixtures/verification-v2.json`): the secret is used as its UTF-8 bytes.
mod vector {
    pub const SECRET: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    pub const TIMESTAMP: u64 = 1_788_264_000;
    pub const REQUEST_SIGNATURE: &str =
        "d5a25685fcf630eec4de6a07536aea2d302c0048c3fafd0a5f0b8dd0b908b451";
    pub const RESPONSE_PROOF: &str =
        "d5cb5c588d0bee2d87a2980061feb30e3e1d22cb6701c01934fdca35408090fa";
    pub const SUCCESS_BODY: &str = "{\"nonce\":\"AQIDBAUGBwgJCgsMDQ4PEA\",\"proof\":\"d5cb5c588d0bee2d87a2980061feb30e3e1d22cb6701c01934fdca35408090fa\"}";
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_canonical_v2_vector_is_reproduced() {
    let _serial = SERIAL.lock().await;
    let raw = fixture("verification-v2.json");
    assert!(
        !raw.ends_with(b"\n"),
        "the raw body has no trailing newline"
    );
    let ts = vector::TIMESTAMP.to_string();
    // The request signature, and its acceptance at the vector's own time.
    assert_eq!(
        sign(vector::SECRET.as_bytes(), &ts, &raw),
        vector::REQUEST_SIGNATURE
    );
    assert_eq!(
        verify(
            b"other",
            Some(vector::SECRET.as_bytes()),
            &ts,
            vector::REQUEST_SIGNATURE,
            &raw,
            vector::TIMESTAMP
        ),
        Ok(SignedWith::Next)
    );
    assert_eq!(
        proof(vector::SECRET.as_bytes(), &raw),
        vector::RESPONSE_PROOF
    );

    // The server, holding the vector's secret as the pending key, answers the vector's raw
    // body (re-signed now: the vector's timestamp is outside the ±300 s window) with the
    // vector's exact success body.
    let server = start_with("greedy", |c| {
        c.next_secret = Some(vector::SECRET.as_bytes().to_vec())
    })
    .await;
    let r = post_raw(server.addr(), vector::SECRET.as_bytes(), &raw).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        String::from_utf8(r.body.clone()).unwrap(),
        vector::SUCCESS_BODY
    );
    assert_eq!(r.header("cache-control"), Some("no-store"));
    // At the vector's timestamp itself the delivery is stale here: refused.
    let stale = request(
        server.addr(),
        "POST",
        "/api/webhook",
        &[
            ("X-DiceChess-Timestamp".into(), ts.clone()),
            (
                "X-DiceChess-Signature".into(),
                vector::REQUEST_SIGNATURE.into(),
            ),
        ],
        &raw,
    )
    .await;
    stale.assert_error(401, "unauthorized");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verification_handshakes() {
    let _serial = SERIAL.lock().await;
    let server = start("greedy").await;
    let addr = server.addr();

    // Version-less (registration, wake probe): echoed, signed or not, whatever the key.
    let v1 = fixture("verification.json");
    let want = json!({"nonce": "5f1c0e9ad2b34c7788e1f0a9b6c3d214"});
    for headers in [
        vec![],
        signed(SECRET, now_s(), &v1),
        signed(b"fresh-unknown-secret", now_s(), &v1),
    ] {
        let r = request(addr, "POST", "/api/webhook", &headers, &v1).await;
        assert_eq!((r.status, r.json()), (200, want.clone()));
    }
    // Capped nonce length, non-blank nonce.
    let long = json!({"type": "verification", "nonce": "a".repeat(300)}).to_string();
    request(addr, "POST", "/api/webhook", &[], long.as_bytes())
        .await
        .assert_error(400, "invalid_request");
    let blank = br#"{"type":"verification","nonce":" "}"#;
    request(addr, "POST", "/api/webhook", &[], blank)
        .await
        .assert_error(400, "invalid_request");

    // v2: the pending key only, a canonical nonce of 16 bytes, non-blank ids.
    let v2 = |nonce: &str, team: &str| {
        json!({"type": "verification", "version": 2, "bot": {"team": team, "name": "greedy"},
               "setupId": "whs_1", "revision": "whrev_1", "nonce": nonce})
        .to_string()
        .into_bytes()
    };
    let good = v2("AAECAwQFBgcICQoLDA0ODw", "acme");
    let r = post_raw(addr, NEXT, &good).await;
    assert_eq!(
        r.json(),
        json!({"nonce": "AAECAwQFBgcICQoLDA0ODw",
               "proof": hmac_hex(NEXT, &[b"dicechess-webhook-activate-v2\n", &good])})
    );
    post_raw(addr, SECRET, &good)
        .await
        .assert_error(401, "unauthorized");
    request(addr, "POST", "/api/webhook", &[], &good)
        .await
        .assert_error(401, "unauthorized");
    for bad in [
        v2("AAECAwQFBgcICQoLDA0ODw==", "acme"),
        v2("AAECAwQFBgcICQoLDA0O", "acme"),
        v2("AAECAwQFBgcICQoLDA0ODw", " "),
    ] {
        post_raw(addr, NEXT, &bad)
            .await
            .assert_error(400, "invalid_request");
    }
    // Any other version.
    for version in [json!(1), json!(3), json!(null), json!("2")] {
        let body = json!({"type": "verification", "version": version, "nonce": "n"});
        post_signed(addr, NEXT, &body)
            .await
            .assert_error(400, "unsupported_delivery");
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fixture_is_answered_in_the_servers_shape() {
    let _serial = SERIAL.lock().await;
    let server = start_with("greedy", |c| c.max_think_ms = 500).await;
    let addr = server.addr();
    let mut turns = 0;
    for entry in std::fs::read_dir(FIXTURES).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.starts_with("your-turn-") {
            continue;
        }
        turns += 1;
        let raw = fixture(&name);
        let sent: Value = serde_json::from_slice(&raw).unwrap();
        let r = post_raw(addr, SECRET, &raw).await;
        let answer = r.json();
        assert_eq!(r.status, 200, "{name}: {answer}");
        let state = &sent["state"];
        let dfen = state["dfen"].as_str().unwrap();
        assert_legal(dfen, &answer);
        if let Some(tree) = state["legalMoves"].as_object() {
            // Inline: the answer is a root-to-leaf path of the server's tree.
            let mut node = tree;
            for m in moves_of(&answer) {
                node = node[&m].as_object().unwrap();
            }
            assert!(node.is_empty(), "{name}: {answer} stops inside the tree");
        }
        // Only `moves`, plus `offerDraw: true` when drawing is allowed.
        let keys: Vec<&String> = answer.as_object().unwrap().keys().collect();
        match answer.get("offerDraw") {
            None => assert_eq!(keys, ["moves"]),
            Some(v) => {
                assert_eq!(v, &json!(true));
                assert_eq!(state["mayOfferDraw"], true, "{name}");
            }
        }
    }
    assert_eq!(turns, 8, "four time controls, tree inline and null");

    let r = post_raw(addr, SECRET, &fixture("draw-decision.json")).await;
    assert_eq!(r.status, 200);
    let a = r.json();
    assert!(
        a["acceptDraw"].is_boolean() && a.as_object().unwrap().len() == 1,
        "{a}"
    );

    let r = post_raw(addr, SECRET, &fixture("double-opportunity.json")).await;
    assert_eq!(r.status, 200);
    let a = r.json();
    assert_eq!(a["decisionId"], "double_01K4F4Y7M8R2");
    assert!(a["offerDouble"].is_boolean(), "{a}");
    let r = post_raw(addr, SECRET, &fixture("double-decision.json")).await;
    assert_eq!(r.status, 200);
    let a = r.json();
    assert_eq!(a["decisionId"], "double_01K4F4Y7M8R3");
    assert!(a["acceptDouble"].is_boolean(), "{a}");
    // No resignation unless a policy says so.
    assert!(a.get("resign").is_none(), "{a}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resign_policy_resigns_in_the_doubling_answers() {
    let _serial = SERIAL.lock().await;
    // Under a threshold of 1 every position is lost: the contract's resign answers
    // (stake-doubling v1, `webhook-*-response-resign.json`).
    let server = start_with("greedy", |c| {
        c.resign = dicechess::bots::ResignPolicy { below: Some(1.0) }
    })
    .await;
    let addr = server.addr();
    for (file, key, id) in [
        (
            "double-opportunity.json",
            "offerDouble",
            "double_01K4F4Y7M8R2",
        ),
        (
            "double-decision.json",
            "acceptDouble",
            "double_01K4F4Y7M8R3",
        ),
    ] {
        let r = post_raw(addr, SECRET, &fixture(file)).await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.json(),
            json!({"decisionId": id, key: false, "resign": true})
        );
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_sanitized_codes() {
    let _serial = SERIAL.lock().await;
    let server = start("greedy").await;
    let addr = server.addr();
    let raw = fixture("your-turn-fischer-inline.json");
    let sent: Value = serde_json::from_slice(&raw).unwrap();

    request(addr, "GET", "/api/webhook", &[], b"")
        .await
        .assert_error(405, "invalid_request");
    // Unsigned, wrongly signed, tampered, stale, malformed headers.
    request(addr, "POST", "/api/webhook", &[], &raw)
        .await
        .assert_error(401, "unauthorized");
    post_raw(addr, b"wrong", &raw)
        .await
        .assert_error(401, "unauthorized");
    let mut tampered = signed(SECRET, now_s(), &raw);
    tampered[1].1.replace_range(0..2, "00");
    tampered[1].1.replace_range(2..4, "ff");
    request(addr, "POST", "/api/webhook", &tampered, &raw)
        .await
        .assert_error(401, "unauthorized");
    request(
        addr,
        "POST",
        "/api/webhook",
        &signed(SECRET, now_s() - 301, &raw),
        &raw,
    )
    .await
    .assert_error(401, "unauthorized");
    let mut upper = signed(SECRET, now_s(), &raw);
    upper[1].1 = upper[1].1.to_ascii_uppercase();
    request(addr, "POST", "/api/webhook", &upper, &raw)
        .await
        .assert_error(401, "unauthorized");
    // Both keys are accepted for game deliveries.
    for key in [SECRET, NEXT] {
        assert_eq!(post_raw(addr, key, &raw).await.status, 200);
    }

    // Over the limit: 413 (declared), whatever the signature.
    let big = vec![b' '; MAX_BODY_BYTES + 1];
    post_raw(addr, SECRET, &big)
        .await
        .assert_error(413, "invalid_request");
    // Not JSON, unknown type, the invented time-control shape.
    post_raw(addr, SECRET, b"{not json")
        .await
        .assert_error(400, "invalid_request");
    post_signed(addr, SECRET, &json!({"type": "teaTime", "gameId": "g"}))
        .await
        .assert_error(400, "unsupported_delivery");
    let mut invented = sent.clone();
    invented["state"]["timeControl"] = json!({"type": "Fischer", "incrementMs": 2000});
    post_signed(addr, SECRET, &invented)
        .await
        .assert_error(400, "invalid_request");
    // Wrong seat, no roll pending, a dice-less DFEN, a spectator.
    let mut wrong = sent.clone();
    wrong["seat"] = json!("Black");
    post_signed(addr, SECRET, &wrong)
        .await
        .assert_error(400, "invalid_request");
    let mut idle = sent.clone();
    idle["state"]["dicePending"] = json!(false);
    idle["state"]["version"] = json!(1000);
    post_signed(addr, SECRET, &idle)
        .await
        .assert_error(400, "invalid_request");
    let mut no_dice = sent.clone();
    no_dice["state"]["dfen"] = json!(Position::startpos().to_dfen());
    no_dice["state"]["version"] = json!(1001);
    post_signed(addr, SECRET, &no_dice)
        .await
        .assert_error(400, "invalid_request");
    let mut spectator = sent.clone();
    spectator["seat"] = json!("Spectator");
    post_signed(addr, SECRET, &spectator)
        .await
        .assert_error(400, "invalid_request");
    // A drawDecision without a pending offer, or with the dice field.
    let draw: Value = serde_json::from_slice(&fixture("draw-decision.json")).unwrap();
    let mut no_offer = draw.clone();
    no_offer["state"]["drawOffer"] = Value::Null;
    post_signed(addr, SECRET, &no_offer)
        .await
        .assert_error(400, "invalid_request");
    // A position no game reaches, by name.
    let mut nine = sent.clone();
    nine["state"]["dfen"] = json!(NINE_QUEENS);
    nine["state"]["legalMoves"] = Value::Null;
    nine["state"]["version"] = json!(1002);
    post_signed(addr, SECRET, &nine)
        .await
        .assert_error(400, "unreachable_position");

    // Health.
    let r = request(addr, "GET", "/health", &[], b"").await;
    assert_eq!(
        (r.status, r.json()),
        (200, json!({"status": "ok", "bot": "greedy"}))
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_delivery_twice_gets_the_same_answer() {
    let _serial = SERIAL.lock().await;
    // One search slot and a long think: without sharing, the second of two identical
    // deliveries in flight could not search before its deadline.
    let server = start_with("expectimax", |c| {
        c.max_think_ms = 600;
        c.max_concurrent = 1;
        c.threads = Some(1);
    })
    .await;
    let addr = server.addr();
    let raw = fixture("your-turn-fischer-null.json");
    let t0 = Instant::now();
    let (a, b) = tokio::join!(post_raw(addr, SECRET, &raw), post_raw(addr, SECRET, &raw));
    let both = t0.elapsed();
    assert_eq!((a.status, b.status), (200, 200));
    assert_eq!(a.body, b.body, "in flight together, one search");
    assert!(
        both < Duration::from_millis(600 + 900),
        "two identical deliveries took {both:?}"
    );
    // Later, signed anew: the same answer.
    let c = post_raw(addr, SECRET, &raw).await;
    assert_eq!(c.body, a.body);
    // The same identity with other inputs: a conflict.
    let mut other: Value = serde_json::from_slice(&raw).unwrap();
    other["state"]["dfen"] = json!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PPB");
    post_signed(addr, SECRET, &other)
        .await
        .assert_error(409, "stale_context");
    // Ticking clocks are not other inputs.
    let mut ticked: Value = serde_json::from_slice(&raw).unwrap();
    ticked["state"]["clocks"] = json!({"white": 170000, "black": 180000});
    assert_eq!(post_signed(addr, SECRET, &ticked).await.body, a.body);
    println!(
        "duplicates: two in flight answered in {:.0} ms",
        both.as_secs_f64() * 1e3
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wait_queue_is_bounded_and_respects_deadlines() {
    let _serial = SERIAL.lock().await;
    // One search slot, one waiting place; the exact depth 3 (every reply, not the default
    // selective one) thinks its whole budget on Kiwipete.
    let server = start_with("expectimax-d3", |c| {
        c.max_think_ms = 1500;
        c.max_concurrent = 1;
        c.max_queue = 1;
        c.threads = Some(1);
        c.bot_options.d3_replies = Some(0);
    })
    .await;
    let addr = server.addr();
    let long = |game: &str| {
        let mut v: Value =
            serde_json::from_slice(&fixture("your-turn-unlimited-null.json")).unwrap();
        v["gameId"] = json!(game);
        v["state"]["dfen"] =
            json!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ");
        v
    };
    let busy = tokio::spawn(async move { post_signed(addr, SECRET, &long("q-1")).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Waiting for the slot with 700 ms to think (PerMove 1 s less the overhead): its permit
    // never comes while 100 ms are still left, so it answers the fast path (the bot's
    // pre-ranked pick) then, instead of searching late.
    let mut short: Value =
        serde_json::from_slice(&fixture("your-turn-per-move-inline.json")).unwrap();
    short["state"]["timeControl"] = json!({"PerMove": {"secondsPerMove": 1}});
    let short_dfen = short["state"]["dfen"].as_str().unwrap().to_owned();
    let waiting = tokio::spawn(async move { post_signed(addr, SECRET, &short).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The queue's one place is taken: refused at once.
    let full = post_signed(addr, SECRET, &long("q-3")).await;
    full.assert_error(503, "capacity_exceeded");
    let waited = waiting.await.unwrap();
    assert_eq!(waited.status, 200, "{}", waited.json());
    assert_legal(&short_dfen, &waited.json());
    assert_eq!(
        moves_of(&waited.json()),
        fast_path_moves("expectimax-d3", &short_dfen)
    );
    assert!(
        waited.elapsed >= Duration::from_millis(550)
            && waited.elapsed < Duration::from_millis(1200),
        "a 700 ms delivery answered after {:?}",
        waited.elapsed
    );
    let busy = busy.await.unwrap();
    assert_eq!(busy.status, 200, "{}", busy.json());
    println!(
        "queue: waited {:.0} ms for a 700 ms budget, busy search {:.0} ms",
        waited.elapsed.as_secs_f64() * 1e3,
        busy.elapsed.as_secs_f64() * 1e3
    );
    server.stop().await.unwrap();
}

/// The bot's fast-path turn for `dfen` as UCI moves (the pre-ranker's pick does not draw on
/// the generator, so any seed gives it).
fn fast_path_moves(bot: &str, dfen: &str) -> Vec<String> {
    let pos = Position::from_dfen(dfen).unwrap();
    let bot = bot_by_id(bot, &BotOptions::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    let b = fast_bounded(
        bot.as_ref(),
        &pos,
        &mut rng,
        &mut Budget::new(FAST_ROOT_UNITS),
    )
    .unwrap();
    b.choice()
        .path
        .unwrap()
        .moves()
        .iter()
        .map(|m| m.uci())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_that_cannot_finish_in_time_is_answered_by_the_fast_path() {
    let _serial = SERIAL.lock().await;
    // Two search slots but one search thread: the second search waits in the pool behind
    // a depth-3 search that thinks its whole 1.5 s, as a search does that overruns. It was
    // answered 504 at its deadline + 400 ms; now the watchdog answers the fast path (the
    // pre-ranker's pick) at its deadline, 700 ms. The overrunning search keeps its slot, so
    // the third turn finds none while 100 ms are left and answers the fast path at 600 ms.
    let server = start_with("expectimax-d3", |c| {
        c.max_think_ms = 1500;
        c.max_concurrent = 2;
        c.threads = Some(1);
        c.bot_options.d3_replies = Some(0);
    })
    .await;
    let addr = server.addr();
    let mut long: Value =
        serde_json::from_slice(&fixture("your-turn-unlimited-null.json")).unwrap();
    long["gameId"] = json!("slow-1");
    long["state"]["dfen"] =
        json!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ");
    let busy = tokio::spawn(async move { post_signed(addr, SECRET, &long).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    for (game, inline, at_ms) in [("slow-2", true, 700), ("slow-3", false, 600)] {
        let mut short: Value =
            serde_json::from_slice(&fixture("your-turn-per-move-inline.json")).unwrap();
        short["gameId"] = json!(game);
        short["state"]["timeControl"] = json!({"PerMove": {"secondsPerMove": 1}});
        if !inline {
            short["state"]["legalMoves"] = Value::Null;
        }
        let dfen = short["state"]["dfen"].as_str().unwrap().to_owned();
        let r = post_signed(addr, SECRET, &short).await;
        assert_eq!(r.status, 200, "{}", r.json());
        assert_legal(&dfen, &r.json());
        assert_eq!(moves_of(&r.json()), fast_path_moves("expectimax-d3", &dfen));
        // The budget is 700 ms (1 s less the 300 ms overhead).
        assert!(
            r.elapsed >= Duration::from_millis(at_ms - 20)
                && r.elapsed < Duration::from_millis(at_ms + 200),
            "{game}: a 700 ms delivery answered after {:?}, not at {at_ms} ms",
            r.elapsed
        );
    }
    let busy = busy.await.unwrap();
    assert_eq!(busy.status, 200, "{}", busy.json());
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_games_a_core_against_best_get_a_legal_move_every_time() {
    let _serial = SERIAL.lock().await;
    // 8 concurrent games on 2 search slots with 300 ms budgets: most turns wait longer than
    // their budget, so they are answered by the fast path — but every one is answered 200
    // with a legal turn (play_served_game asserts both), never 503 or 504.
    let server = start_with("best", |c| {
        c.max_think_ms = 300;
        c.max_concurrent = 2;
        c.max_queue = dicechess::serve::default_max_queue(2, 300, c.max_connections);
    })
    .await;
    let addr = server.addr();
    let tasks: Vec<_> = (0..8u64)
        .map(|g| tokio::spawn(play_served_game(addr, format!("best-{g}"), 2000 + g, 6)))
        .collect();
    let mut answered = 0;
    for t in tasks {
        answered += t.await.expect("a game task failed").0.len();
    }
    assert!(answered >= 8, "{answered} deliveries");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_are_closed_within_15_s() {
    let _serial = SERIAL.lock().await;
    let server = start("greedy").await;
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    stream
        .write_all(b"POST /api/webhook HTTP/1.1\r\nHost: x\r\nContent-Le")
        .await
        .unwrap();
    let t0 = Instant::now();
    let mut buf = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(15), stream.read_to_end(&mut buf)).await;
    assert!(closed.is_ok(), "still open after 15 s");
    println!(
        "half-sent headers: closed after {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    server.stop().await.unwrap();
}

#[test]
fn inline_trees_fit_the_body_limit() {
    // Real trees of up to 1,000 paths (what the server inlines), from random games.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut largest = 0usize;
    let mut inlined = 0;
    for _ in 0..40 {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let rolled = roll(&mut rng, &pos);
            let paths = legal_paths(&rolled);
            if paths.len() <= 1000 {
                let size = TurnTree::new(&rolled).to_json().to_string().len();
                assert!(size <= MAX_INLINE_TREE_BYTES, "{size} bytes at {rolled}");
                largest = largest.max(size);
                inlined += 1;
            }
            let Some(p) = paths.get((rng.next_u64() % paths.len().max(1) as u64) as usize) else {
                pos = rolled.end_turn();
                continue;
            };
            if p.captures_king() {
                break;
            }
            pos = p.end_position(&rolled);
        }
    }
    // Kiwipete rolled BNQ: 7,630 paths (never inlined), its tree 82,628 bytes.
    let kiwi = Position::from_dfen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ",
    )
    .unwrap();
    let kiwi_tree = TurnTree::new(&kiwi).to_json().to_string().len();
    assert_eq!(kiwi_tree, 82_628);
    assert!(kiwi_tree < MAX_BODY_BYTES);
    println!(
        "inline trees: {inlined} real trees, largest {largest} bytes (bound {MAX_INLINE_TREE_BYTES}, body limit {MAX_BODY_BYTES})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_bot_plays_complete_legal_games() {
    let _serial = SERIAL.lock().await;
    let server = start("greedy").await;
    let addr = server.addr();
    for i in 0..3u64 {
        let (turns, ended) = play_served_game(addr, format!("game-{i}"), 100 + i, 300).await;
        assert!(ended, "game {i} still running after {} turns", turns.len());
    }
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_test_32_concurrent_games() {
    let _serial = SERIAL.lock().await;
    let server = start("greedy").await;
    let addr = server.addr();
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..32u64)
        .map(|g| tokio::spawn(play_served_game(addr, format!("load-{g}"), 1000 + g, 15)))
        .collect();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("a game task failed").0);
    }
    latencies.sort();
    let pct = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "load: 32 games, {} deliveries, 0 failed, {:.1} s; latency p50 {:.1} ms, p99 {:.1} ms",
        latencies.len(),
        t0.elapsed().as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
    assert!(latencies.len() >= 32);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn think_time_stays_within_the_clock_budget() {
    let _serial = SERIAL.lock().await;
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
        1,
        &rolled,
        json!({"white": 1000, "black": 1000}),
        json!({"SuddenDeath": {"initialSeconds": 60}}),
    );
    let r = post_signed(addr, SECRET, &body).await;
    assert_eq!(r.status, 200, "{}", r.json());
    assert_legal(&rolled.to_dfen(), &r.json());
    let budget = Duration::from_millis(20);
    let margin = Duration::from_millis(700);
    assert!(
        r.elapsed < budget + margin,
        "answered in {:?}, budget {budget:?}",
        r.elapsed
    );
    println!(
        "clock 1000 ms: answered in {:.1} ms",
        r.elapsed.as_secs_f64() * 1e3
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_drains_in_flight_searches() {
    let _serial = SERIAL.lock().await;
    let server = start_with("expectimax", |c| c.max_think_ms = 400).await;
    let addr = server.addr();
    let rolled = roll(
        &mut Xoshiro256PlusPlus::seed_from_u64(3),
        &Position::startpos(),
    );
    let body = your_turn("g-drain", 1, &rolled, Value::Null, json!({"Unlimited": {}}));
    let in_flight = tokio::spawn(async move { post_signed(addr, SECRET, &body).await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.stop().await.unwrap();
    let r = in_flight.await.unwrap();
    assert_eq!(r.status, 200, "{}", r.json());
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arena_plays_a_served_bot_with_every_turn_legal() {
    let _serial = SERIAL.lock().await;
    use dicechess::selfplay::{
        run_match, ArenaBot, ArenaConfig, GameLimits, SprtParams, TimeControl,
    };
    let server = start("greedy").await;
    let url = format!("http://{}/api/webhook", server.addr());
    let report = tokio::task::spawn_blocking(move || {
        let config = ArenaConfig {
            start: dicechess::board::Position::startpos(),
            pairs: 2,
            run_seed: 5,
            limits: GameLimits::default(),
            sprt: None,
            report_sprt: SprtParams::default(),
            time: TimeControl::Untimed,
        };
        // Built for every game, its deliveries signed with the shared secret (what
        // `dicechess arena` does for a webhook URL).
        let id = url.clone();
        let served = ArenaBot::with_builder(&id, move || {
            dicechess::serve::WebhookBot::new(&url, SECRET)
                .map(|b| Box::new(b) as Box<dyn dicechess::bots::Bot>)
                .map_err(|e| dicechess::bots::BotBuildError::Webhook(Box::new(e)))
        });
        let greedy = ArenaBot::new("greedy", BotOptions::default());
        run_match(&served, &greedy, &config, &|_| {})
    })
    .await
    .unwrap()
    .expect("every delivery answered with a legal turn");
    // WebhookBot refuses any answer that is not one of the legal paths, so completing the
    // match means every served turn was legal.
    assert_eq!(report.games, 4);
    assert_eq!(report.wins + report.losses + report.draws, 4);
    server.stop().await.expect("clean stop");
}

/// `target/release/dicechess serve` as a child process, so that its memory is its own.
struct Child {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Child {
    async fn spawn(args: &[&str]) -> Child {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_dicechess"))
            .args(["serve", "--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(args)
            .env(
                "DICECHESS_WEBHOOK_SECRET",
                std::str::from_utf8(SECRET).unwrap(),
            )
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let t0 = Instant::now();
        while TcpStream::connect(addr).await.is_err() {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "serve did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Child { child, addr }
    }

    /// `VmRSS` and `VmHWM` (peak) from /proc, KiB.
    fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap()
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Send `n` unsigned ~1 MiB bodies at once, half with a declared length, half chunked.
async fn megabyte_flood(addr: SocketAddr, n: usize) -> usize {
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            tokio::spawn(async move {
                let Ok(mut s) = TcpStream::connect(addr).await else {
                    return false;
                };
                let mib = vec![b'x'; 1 << 20];
                let head = if i % 2 == 0 {
                    format!(
                        "POST /api/webhook HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
                        mib.len()
                    )
                } else {
                    "POST /api/webhook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        .to_owned()
                };
                let _ = s.write_all(head.as_bytes()).await;
                if i % 2 == 0 {
                    let _ = s.write_all(&mib).await;
                } else {
                    for chunk in mib.chunks(64 * 1024) {
                        let size = format!("{:x}\r\n", chunk.len());
                        if s.write_all(size.as_bytes()).await.is_err()
                            || s.write_all(chunk).await.is_err()
                            || s.write_all(b"\r\n").await.is_err()
                        {
                            break;
                        }
                    }
                    let _ = s.write_all(b"0\r\n\r\n").await;
                }
                let mut answer = Vec::new();
                let _ =
                    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut answer)).await;
                answer.starts_with(b"HTTP/1.1 413")
            })
        })
        .collect();
    let mut refused = 0;
    for t in tasks {
        refused += usize::from(t.await.unwrap_or(false));
    }
    refused
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsigned_megabyte_bodies_do_not_grow_memory() {
    let _serial = SERIAL.lock().await;
    let server = Child::spawn(&["--bot", "greedy", "--threads", "1"]).await;
    // Warm up the allocator and the runtime with one ordinary exchange.
    let warm = fixture("your-turn-unlimited-inline.json");
    assert_eq!(post_raw(server.addr, SECRET, &warm).await.status, 200);
    let (before, _) = server.memory_kib();
    let refused = megabyte_flood(server.addr, 100).await;
    let (after, peak) = server.memory_kib();
    let growth_mib = after.saturating_sub(before) as f64 / 1024.0;
    let peak_growth_mib = peak.saturating_sub(before) as f64 / 1024.0;
    println!(
        "100 unsigned 1 MiB bodies: RSS {before} KiB -> {after} KiB ({growth_mib:.1} MiB), peak +{peak_growth_mib:.1} MiB, {refused} answered 413"
    );
    assert!(
        peak_growth_mib < 64.0,
        "peak RSS grew {peak_growth_mib:.1} MiB"
    );
    assert!(refused >= 50, "only {refused} of 100 saw a 413");
    // Still serving.
    assert_eq!(post_raw(server.addr, SECRET, &warm).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nine_queens_are_answered_within_budget_and_memory() {
    let _serial = SERIAL.lock().await;
    let server = Child::spawn(&["--bot", "expectimax", "--max-think-ms", "1000"]).await;
    let addr = server.addr;
    let envelope = |dfen: &str| {
        json!({"type": "yourTurn", "gameId": "nine-queens", "seat": "White", "state": {
            "version": 3, "dfen": dfen, "activeSeat": "White", "dicePending": true,
            "status": {"Active": {}}, "timeControl": {"Unlimited": {}}, "commit": "00",
            "legalMoves": null, "mayOfferDraw": false}})
    };
    // The issue's position has no black king: refused at once, by name.
    let r = post_signed(addr, SECRET, &envelope(NINE_QUEENS)).await;
    r.assert_error(400, "unreachable_position");
    // With a black king it is reachable: answered within the budget, with a legal turn.
    let r = post_signed(addr, SECRET, &envelope(NINE_QUEENS_REACHABLE)).await;
    assert_eq!(r.status, 200, "{}", r.json());
    assert_legal(NINE_QUEENS_REACHABLE, &r.json());
    let (_, peak) = server.memory_kib();
    let peak_mib = peak as f64 / 1024.0;
    println!(
        "nine queens (reachable): answered in {:.0} ms, budget 1000 ms, peak RSS {peak_mib:.0} MiB",
        r.elapsed.as_secs_f64() * 1e3
    );
    assert!(r.elapsed < Duration::from_millis(1500), "{:?}", r.elapsed);
    assert!(peak_mib < 400.0, "peak RSS {peak_mib:.0} MiB");
}
