//! A local play server for `dicechess play`'s tests: the Bot API's routes and shapes as the
//! play server documents them (`docs/.../reference/streaming.md`, `rest.md`;
//! `server/BotRoutes.scala`, `core/Protocol.scala`, `core/BotEvent.scala`), over plain
//! HTTP/1.1 on loopback, streams chunked as ndjson with blank keep-alive lines.
//!
//! It referees: every submitted turn is checked against the rules (an illegal one is
//! refused `409 "illegal turn"` and counted), the opponent plays random legal turns, a roll
//! without a legal turn is passed by the server itself, and a game ends on a king capture,
//! a resignation, a draw agreement or after `max_plies`. Faults are injected per route:
//! error statuses for the first calls, streams cut after a few events.

#![allow(dead_code)]

use dicechess::board::{Dice, Position};
use dicechess::rules::{legal_paths, roll_faces};
use dicechess::serve::MoveTree;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub const TOKEN: &str = "t0k3n-for-tests";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A game on the mock server.
pub struct MockGame {
    pub id: String,
    /// The client's seat ("White" or "Black").
    pub bot_seat: &'static str,
    pub time_control: Value,
    pub pos: Position,
    pub version: u64,
    /// Every event line so far (a stream sends a snapshot, then the lines after it).
    pub events: Vec<String>,
    pub history: Vec<Value>,
    pub over: Option<Value>,
    pub rng: Xoshiro256PlusPlus,
    pub plies: u32,
    pub seeds: Vec<String>,
    /// The opponent offers a draw with its turn at this ply.
    pub opponent_offers_draw_at: Option<u32>,
    pub draw_pending: bool,
    /// Send `legalMoves: null` instead of the tree.
    pub tree_inline: bool,
    pub bot_turns: u32,
    /// The opening roll waits for our seed (or the grace after the stream connects).
    pub started: bool,
}

/// What the mock saw and how it misbehaves.
#[derive(Default)]
pub struct MockState {
    pub challenges: Vec<Value>,
    pub games: BTreeMap<String, MockGame>,
    pub account_events: Vec<String>,
    /// Route prefix → statuses answered (first calls first) instead of serving.
    pub fail: HashMap<String, VecDeque<u16>>,
    /// Cut this many game-stream connections after `cut_after` events each.
    pub cut_game_streams: u32,
    pub cut_after: usize,
    pub cut_account_streams: u32,
    pub requests: Vec<(String, String, String)>,
    pub illegal: Vec<String>,
    pub accepted: Vec<String>,
    pub declined: Vec<String>,
    pub draw_answers: Vec<(String, bool)>,
    pub resigned: Vec<String>,
    pub game_stream_connects: u32,
    pub account_stream_connects: u32,
    pub max_active: usize,
    /// The declared concurrent-game limit (`POST /bot/capacity`); `None`: never declared
    /// (the server's default for a registered bot is 1).
    pub capacity: Option<u32>,
    /// An anonymous identity: no declaration (`403`), no limit.
    pub anonymous: bool,
    pub max_plies: u32,
    pub next_game: u32,
    pub seed: u64,
}

pub struct MockServer {
    pub addr: SocketAddr,
    pub state: Arc<(Mutex<MockState>, Condvar)>,
}

impl MockServer {
    /// A server on a free loopback port.
    pub fn start(configure: impl FnOnce(&mut MockState)) -> MockServer {
        let mut st = MockState {
            max_plies: 200,
            cut_after: 3,
            seed: 7,
            ..MockState::default()
        };
        configure(&mut st);
        let state = Arc::new((Mutex::new(st), Condvar::new()));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let s = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        MockServer { addr, state }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn with<R>(&self, f: impl FnOnce(&mut MockState) -> R) -> R {
        let (m, cv) = &*self.state;
        let r = f(&mut m.lock().unwrap());
        cv.notify_all();
        r
    }
}

/// A challenge in the server's shape (`Challenge`).
pub fn challenge(id: &str, time_control: Value, rated: bool) -> Value {
    json!({
        "id": id,
        "challenger": {"Bot": {"team": "acme", "name": "rival"}},
        "target": {"Bot": {"team": "anon", "name": "us"}},
        "timeControl": time_control,
        "rated": rated
    })
}

impl MockState {
    /// Seat a new game with the client at `bot_seat`; its opening roll follows.
    pub fn new_game(&mut self, bot_seat: &'static str, time_control: Value) -> String {
        self.next_game += 1;
        let id = format!("game-{:04}", self.next_game);
        let game = MockGame {
            id: id.clone(),
            bot_seat,
            time_control,
            pos: Position::from_dfen(START).unwrap(),
            version: 0,
            events: Vec::new(),
            history: Vec::new(),
            over: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(self.seed + u64::from(self.next_game)),
            plies: 0,
            seeds: Vec::new(),
            opponent_offers_draw_at: None,
            draw_pending: false,
            tree_inline: true,
            bot_turns: 0,
            started: false,
        };
        self.games.insert(id.clone(), game);
        let active = self.games.values().filter(|g| g.over.is_none()).count();
        self.max_active = self.max_active.max(active);
        id
    }

    /// Seat a game that is already under way (its opening roll made).
    pub fn running_game(&mut self, bot_seat: &'static str, time_control: Value) -> String {
        let id = self.new_game(bot_seat, time_control);
        self.start(&id);
        id
    }

    /// The opening roll, once.
    pub fn start(&mut self, id: &str) {
        let max_plies = self.max_plies;
        if let Some(g) = self.games.get_mut(id) {
            if !g.started {
                g.started = true;
                advance(g, max_plies);
            }
        }
    }
}

fn seat_of(color_white: bool) -> &'static str {
    if color_white {
        "White"
    } else {
        "Black"
    }
}

fn tree_of(pos: &Position) -> MoveTree {
    let mut root = MoveTree::default();
    for p in legal_paths(pos) {
        let mut node = &mut root;
        for m in p.moves() {
            node = node.0.entry(m.uci()).or_default();
        }
    }
    root
}

fn push(g: &mut MockGame, kind: &str, mut body: Value) {
    g.version += 1;
    body["v"] = json!(g.version);
    g.events.push(json!({ kind: body }).to_string());
}

fn clocks(g: &MockGame) -> Value {
    if g.time_control.get("Unlimited").is_some() {
        Value::Null
    } else {
        json!({"white": 60_000, "black": 60_000})
    }
}

/// Roll for the side to move; the opponent plays at once, a roll without a turn is passed;
/// stop when the client must act or the game is over.
fn advance(g: &mut MockGame, max_plies: u32) {
    loop {
        if g.over.is_some() || g.draw_pending {
            return;
        }
        if g.plies >= max_plies {
            end(g, json!({"Draw": {}}), "Draw");
            return;
        }
        let faces = roll_faces(&mut g.rng);
        let white = g.pos.side_to_move() == dicechess_kernels::Color::White;
        let seat = seat_of(white);
        let rolled = g.pos.with_dice(Dice::from_faces(&faces).unwrap());
        let tree = tree_of(&rolled);
        let inline = if g.tree_inline {
            serde_json::to_value(&tree).unwrap()
        } else {
            Value::Null
        };
        push(
            g,
            "DiceRolled",
            json!({"seat": seat, "dice": faces, "dfen": rolled.to_dfen(), "clocks": clocks(g), "legalMoves": inline}),
        );
        g.pos = rolled;
        let paths = legal_paths(&rolled);
        if paths.is_empty() {
            apply(g, &[]);
            continue;
        }
        if seat == g.bot_seat {
            return;
        }
        let pick = paths[(g.rng_next() % paths.len() as u64) as usize];
        let moves: Vec<String> = pick.moves().iter().map(|m| m.uci()).collect();
        apply(g, &moves);
        if g.over.is_none() && g.opponent_offers_draw_at.is_some_and(|p| p <= g.plies) {
            g.opponent_offers_draw_at = None;
            g.draw_pending = true;
            let by = seat_of(g.pos.side_to_move() != dicechess_kernels::Color::White);
            push(g, "DrawOffered", json!({"by": by}));
            return;
        }
    }
}

impl MockGame {
    fn rng_next(&mut self) -> u64 {
        use rand_xoshiro::rand_core::Rng;
        self.rng.next_u64()
    }

    /// The snapshot line a new stream starts with.
    fn snapshot(&self) -> String {
        let rolled = !self.pos.dice().is_empty();
        let white_to_move = self.pos.side_to_move() == dicechess_kernels::Color::White;
        let legal = if rolled && self.tree_inline {
            serde_json::to_value(tree_of(&self.pos)).unwrap()
        } else {
            Value::Null
        };
        let status = match &self.over {
            Some(over) => json!({"Ended": {"over": over}}),
            None => json!({"Active": {}}),
        };
        json!({"Snapshot": {
            "v": self.version,
            "state": {
                "version": self.version,
                "dfen": self.pos.to_dfen(),
                "activeSeat": seat_of(white_to_move),
                "dicePending": rolled && self.over.is_none(),
                "status": status,
                "timeControl": self.time_control,
                "clocks": clocks(self),
                "commit": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "seed": null,
                "clientSeeds": null,
                "drawOffer": if self.draw_pending { json!({"pending": true}) } else { Value::Null },
                "mayOfferDraw": true,
                "mayOfferDrawBy": {"white": true, "black": true},
                "legalMoves": legal,
                "players": {"white": {"kind": "Bot", "name": "acme rival", "rating": null}, "black": {"kind": "Bot", "name": "anon us", "rating": null}},
                "rated": false
            },
            "history": self.history
        }})
        .to_string()
    }
}

/// Play `moves` (already checked) for the side to move, then look for the king.
fn apply(g: &mut MockGame, moves: &[String]) {
    let start = g.pos;
    let path = legal_paths(&start)
        .into_iter()
        .find(|p| p.moves().iter().map(|m| m.uci()).collect::<Vec<_>>() == moves);
    let seat = seat_of(start.side_to_move() == dicechess_kernels::Color::White);
    // A pass ends the turn without a move.
    let after = path.map_or_else(|| start.end_turn(), |p| p.end_position(&start));
    let captured = path.is_some_and(|p| p.captures_king());
    g.plies += 1;
    let fen_after = after.to_dfen();
    g.history.push(
        json!({"seat": seat, "dice": start.dice().faces(), "moves": moves, "fenAfter": fen_after}),
    );
    push(
        g,
        "TurnPlayed",
        json!({"seat": seat, "moves": moves, "fenAfter": fen_after}),
    );
    g.pos = after;
    if captured {
        end(g, json!({"Win": {"side": seat}}), "KingCaptured");
    }
}

fn end(g: &mut MockGame, result: Value, termination: &str) {
    let over = json!({"result": result, "termination": termination});
    g.over = Some(over.clone());
    g.draw_pending = false;
    push(
        g,
        "GameEnded",
        json!({"over": over, "seed": "00", "clientSeeds": {"white": "w", "black": "b"}}),
    );
}

struct Request {
    method: String,
    path: String,
    auth: Option<String>,
    body: String,
}

fn read_request(r: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    r.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut len = 0usize;
    let mut auth = None;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        match k.to_ascii_lowercase().as_str() {
            "content-length" => len = v.trim().parse().ok()?,
            "authorization" => auth = Some(v.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        auth,
        body: String::from_utf8(body).ok()?,
    })
}

fn respond(w: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let text = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let retry = if status == 503 || status == 429 {
        "Retry-After: 0\r\n"
    } else {
        ""
    };
    write!(
        w,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{retry}Connection: close\r\n\r\n{text}",
        text.len()
    )?;
    w.flush()
}

fn chunk(w: &mut TcpStream, line: &str) -> std::io::Result<()> {
    let data = format!("{line}\n");
    write!(w, "{:x}\r\n{data}\r\n", data.len())?;
    w.flush()
}

fn serve(conn: TcpStream, state: &Arc<(Mutex<MockState>, Condvar)>) -> std::io::Result<()> {
    let mut w = conn.try_clone()?;
    let mut r = BufReader::new(conn);
    let Some(req) = read_request(&mut r) else {
        return Ok(());
    };
    let (m, cv) = &**state;
    {
        let mut st = m.lock().unwrap();
        st.requests
            .push((req.method.clone(), req.path.clone(), req.body.clone()));
        if req.auth.as_deref() != Some(&format!("Bearer {TOKEN}")) {
            drop(st);
            return respond(&mut w, 401, &Value::Null);
        }
        let fail = st
            .fail
            .iter_mut()
            .find(|(prefix, q)| req.path.starts_with(prefix.as_str()) && !q.is_empty())
            .and_then(|(_, q)| q.pop_front());
        if let Some(status) = fail {
            drop(st);
            return respond(&mut w, status, &json!({"error": "injected"}));
        }
    }
    let segs: Vec<&str> = req.path.trim_start_matches('/').split('/').collect();
    match (req.method.as_str(), segs.as_slice()) {
        ("GET", ["bot", "stream", "event"]) => account_stream(&mut w, state),
        ("GET", ["bot", "game", "stream", id]) => game_stream(&mut w, state, id),
        _ => {
            let (status, body) = {
                let mut st = m.lock().unwrap();
                let out = route(&mut st, &req, &segs);
                cv.notify_all();
                out
            };
            respond(&mut w, status, &body)
        }
    }
}

fn route(st: &mut MockState, req: &Request, segs: &[&str]) -> (u16, Value) {
    let max_plies = st.max_plies;
    match (req.method.as_str(), segs) {
        ("GET", ["bot", "account"]) => (
            200,
            json!({"team": "anon", "name": "us", "id": "bot:team:anon:us"}),
        ),
        ("GET" | "POST", ["bot", "capacity"]) => {
            if st.anonymous {
                return (403, Value::Null);
            }
            if req.method == "POST" {
                let body: Value = serde_json::from_str(&req.body).unwrap_or_default();
                match body["maxConcurrentGames"].as_u64() {
                    Some(n @ 1..=32) => st.capacity = Some(n as u32),
                    _ => return (400, json!("maxConcurrentGames must be between 1 and 32")),
                }
            }
            let active = st.games.values().filter(|g| g.over.is_none()).count();
            (
                200,
                json!({"maxConcurrentGames": st.capacity.unwrap_or(1), "openToHumans": false,
                       "ladderAllowance": st.capacity.unwrap_or(1), "activeGames": active}),
            )
        }
        ("GET", ["bot", "challenges"]) => (200, json!({"in": st.challenges, "out": []})),
        ("GET", ["bot", "games"]) => {
            let games: Vec<Value> = st
                .games
                .values()
                .filter(|g| g.over.is_none())
                .map(|g| {
                    json!({
                        "gameId": g.id, "seat": g.bot_seat,
                        "activeSeat": seat_of(g.pos.side_to_move() == dicechess_kernels::Color::White),
                        "dicePending": !g.pos.dice().is_empty(), "timeControl": g.time_control,
                        "clocks": clocks(g), "version": g.version, "decision": null,
                        "mayOfferDraw": true, "drawOfferArmed": false
                    })
                })
                .collect();
            (200, json!({ "games": games }))
        }
        ("POST", ["bot", "challenge", id, verb]) => {
            let Some(i) = st.challenges.iter().position(|c| c["id"] == *id) else {
                return (404, Value::Null);
            };
            if *verb == "decline" {
                st.challenges.remove(i);
                st.declined.push((*id).to_owned());
                return (200, Value::Null);
            }
            let active = st.games.values().filter(|g| g.over.is_none()).count();
            let limit = if st.anonymous {
                usize::MAX
            } else {
                st.capacity.unwrap_or(1) as usize
            };
            if active >= limit {
                // At the limit: 409, and the challenge stays pending.
                return (409, Value::Null);
            }
            let tc = st.challenges[i]["timeControl"].clone();
            st.challenges.remove(i);
            st.accepted.push((*id).to_owned());
            let seat = if st.accepted.len() % 2 == 1 {
                "White"
            } else {
                "Black"
            };
            let game = st.new_game(seat, tc);
            st.account_events
                .push(json!({"GameStart": {"gameId": game}}).to_string());
            (201, json!({ "gameId": game }))
        }
        ("POST", ["bot", "game", id, "seed"]) => match st.games.get_mut(*id) {
            Some(g) => {
                let seed: Value = serde_json::from_str(&req.body).unwrap_or_default();
                g.seeds.push(seed["seed"].as_str().unwrap_or("").to_owned());
                st.start(id);
                (202, Value::Null)
            }
            None => (404, Value::Null),
        },
        ("POST", ["bot", "game", id, "move"]) => {
            let Some(g) = st.games.get_mut(*id) else {
                return (404, Value::Null);
            };
            let body: Value = serde_json::from_str(&req.body).unwrap_or_default();
            let moves: Vec<String> = body["moves"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|m| m.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            let ours =
                seat_of(g.pos.side_to_move() == dicechess_kernels::Color::White) == g.bot_seat;
            if g.over.is_some() {
                return refuse(g, "game is over");
            }
            if !ours || g.pos.dice().is_empty() || g.draw_pending {
                return refuse(g, "not your turn");
            }
            let legal = legal_paths(&g.pos)
                .iter()
                .any(|p| p.moves().iter().map(|m| m.uci()).collect::<Vec<_>>() == moves);
            if !legal {
                let line = format!("{id} {} {:?}", g.pos.to_dfen(), moves);
                st.illegal.push(line);
                let g = st.games.get_mut(*id).unwrap();
                return refuse(g, "illegal turn");
            }
            g.bot_turns += 1;
            apply(g, &moves);
            let version = g.version;
            advance(g, max_plies);
            (
                200,
                json!({"applied": true, "version": version, "reason": null, "drawOffered": false}),
            )
        }
        ("POST", ["bot", "game", id, "draw", verb]) => {
            let accept = matches!(*verb, "accept" | "yes");
            st.draw_answers.push(((*id).to_owned(), accept));
            let Some(g) = st.games.get_mut(*id) else {
                return (404, Value::Null);
            };
            if !g.draw_pending {
                return refuse(g, "no draw offer pending");
            }
            g.draw_pending = false;
            if accept {
                end(g, json!({"Draw": {}}), "Draw");
            } else {
                let by = g.bot_seat;
                push(g, "DrawDeclined", json!({ "by": by }));
                advance(g, max_plies);
            }
            (
                200,
                json!({"applied": true, "version": g.version, "reason": null}),
            )
        }
        ("POST", ["bot", "game", id, "resign"]) => {
            st.resigned.push((*id).to_owned());
            let Some(g) = st.games.get_mut(*id) else {
                return (404, Value::Null);
            };
            if g.over.is_some() {
                return refuse(g, "game is over");
            }
            let winner = if g.bot_seat == "White" {
                "Black"
            } else {
                "White"
            };
            end(g, json!({"Win": {"side": winner}}), "Resign");
            (
                200,
                json!({"applied": true, "version": g.version, "reason": null}),
            )
        }
        ("GET", ["games", id, "moves"]) => match st.games.get(*id) {
            Some(g) => (
                200,
                json!({"version": g.version, "dfen": g.pos.to_dfen(), "dicePending": !g.pos.dice().is_empty(),
                       "legalMoves": if g.pos.dice().is_empty() { json!({}) } else { serde_json::to_value(tree_of(&g.pos)).unwrap() }}),
            ),
            None => (404, Value::Null),
        },
        _ => (404, Value::Null),
    }
}

fn refuse(g: &mut MockGame, reason: &str) -> (u16, Value) {
    let seat = g.bot_seat;
    push(g, "Rejected", json!({"seat": seat, "reason": reason}));
    (
        409,
        json!({"applied": false, "version": null, "reason": reason, "drawOffered": null}),
    )
}

fn stream_head(w: &mut TcpStream) -> std::io::Result<()> {
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
    )?;
    w.flush()
}

/// Lines of `lines(state)` from `from` on, as they come, with a keep-alive every 100 ms of
/// silence; `cut`: close abruptly after that many lines; `stop`: end cleanly.
fn follow(
    w: &mut TcpStream,
    state: &Arc<(Mutex<MockState>, Condvar)>,
    mut from: usize,
    cut: Option<usize>,
    lines: impl Fn(&MockState) -> Option<(Vec<String>, bool)>,
) -> std::io::Result<()> {
    let (m, cv) = &**state;
    let mut sent = 0usize;
    let mut last = Instant::now();
    loop {
        let (batch, finished) = {
            let st = m.lock().unwrap();
            let (all, finished) = match lines(&st) {
                Some(x) => x,
                None => return Ok(()),
            };
            let batch: Vec<String> = all.get(from..).unwrap_or_default().to_vec();
            if batch.is_empty() && !finished {
                let (_st, _) = cv.wait_timeout(st, Duration::from_millis(100)).unwrap();
            }
            (batch, finished)
        };
        for line in &batch {
            chunk(w, line)?;
            from += 1;
            sent += 1;
            last = Instant::now();
            if cut.is_some_and(|c| sent >= c) {
                // Cut: no final chunk, the connection just closes.
                return w.shutdown(std::net::Shutdown::Both);
            }
        }
        if finished && batch.is_empty() {
            write!(w, "0\r\n\r\n")?;
            return w.flush();
        }
        if last.elapsed() > Duration::from_millis(100) {
            chunk(w, "")?;
            last = Instant::now();
        }
    }
}

fn account_stream(
    w: &mut TcpStream,
    state: &Arc<(Mutex<MockState>, Condvar)>,
) -> std::io::Result<()> {
    let (from, cut) = {
        let mut st = state.0.lock().unwrap();
        st.account_stream_connects += 1;
        let cut = (st.cut_account_streams > 0).then(|| {
            st.cut_account_streams -= 1;
            st.cut_after
        });
        (st.account_events.len(), cut)
    };
    stream_head(w)?;
    // Live only: what was published before the connect is not replayed.
    follow(w, state, from, cut, |st| {
        Some((st.account_events.clone(), false))
    })
}

fn game_stream(
    w: &mut TcpStream,
    state: &Arc<(Mutex<MockState>, Condvar)>,
    id: &str,
) -> std::io::Result<()> {
    let (snapshot, from, cut) = {
        let mut st = state.0.lock().unwrap();
        st.game_stream_connects += 1;
        let cut = (st.cut_game_streams > 0).then(|| {
            st.cut_game_streams -= 1;
            st.cut_after
        });
        match st.games.get(id) {
            Some(g) => (g.snapshot(), g.events.len(), cut),
            None => {
                drop(st);
                return respond(w, 404, &Value::Null);
            }
        }
    };
    stream_head(w)?;
    chunk(w, &snapshot)?;
    // The seed's grace: the opening roll comes 300 ms after the stream connects at most.
    let grace_state = state.clone();
    let grace_id = id.to_owned();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        let (m, cv) = &*grace_state;
        m.lock().unwrap().start(&grace_id);
        cv.notify_all();
    });
    let id = id.to_owned();
    follow(
        w,
        state,
        from,
        cut.map(|c| c.saturating_sub(1)),
        move |st| {
            st.games
                .get(&id)
                .map(|g| (g.events.clone(), g.over.is_some()))
        },
    )
}
