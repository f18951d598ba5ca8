//! The webhook bot server (`dicechess serve`): one signed POST per decision to
//! `/api/webhook`, answered by a registry bot; `GET /health` for liveness.
//!
//! Plain HTTP/1.1: TLS is terminated by the host in front of it. Searches run on blocking
//! threads (inside a rayon pool), at most [`ServeConfig::max_concurrent`] at once; the rest
//! wait their turn, their clock running. See [`spawn`].

pub mod auth;
mod client;
pub mod protocol;

pub use client::WebhookBot;

use crate::board::Position;
use crate::rules::legal_paths;
use crate::search::bots::{bot_by_id, Bot, BotBuildError, BotOptions, Turn};
use auth::SignedWith;
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use dicechess_kernels::Color;
use protocol::TimeControl;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

/// Largest accepted body, bytes (larger: 413).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Bodies up to this size are read to the end before a 413, so the client sees the answer.
const DRAIN_BYTES: usize = 1024 * 1024;
/// The timestamp header (Unix seconds).
pub const TIMESTAMP_HEADER: &str = "x-dicechess-timestamp";
/// The signature header (hex HMAC-SHA256 over `timestamp + "." + body`).
pub const SIGNATURE_HEADER: &str = "x-dicechess-signature";

/// The server's settings.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Registry id of the bot (see `dicechess bots`).
    pub bot: String,
    /// Model, book and search options of the bot.
    pub bot_options: BotOptions,
    /// Search worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// The active shared secret.
    pub secret: Vec<u8>,
    /// The pending next secret (key rotation), if any.
    pub next_secret: Option<Vec<u8>>,
    /// Never think longer than this per turn, ms (also the budget without a clock).
    pub max_think_ms: u64,
    /// Transport allowance subtracted from each clock budget, ms.
    pub overhead_ms: u64,
    /// At most this many searches at once.
    pub max_concurrent: usize,
    /// On shutdown, wait this long for in-flight requests, ms.
    pub drain_ms: u64,
    /// Write one JSON line per request to stderr.
    pub log_requests: bool,
}

impl ServeConfig {
    /// The defaults: 5000 ms max think, 300 ms overhead, one search per core, 10 s drain,
    /// request logs on.
    pub fn new(bot: &str, secret: &[u8]) -> ServeConfig {
        ServeConfig {
            bot: bot.to_owned(),
            bot_options: BotOptions::default(),
            threads: None,
            secret: secret.to_vec(),
            next_secret: None,
            max_think_ms: 5000,
            overhead_ms: 300,
            max_concurrent: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            drain_ms: 10_000,
            log_requests: true,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The bot could not be built.
    #[error("--bot: {0}")]
    Bot(#[from] BotBuildError),
    /// The search thread pool could not be built.
    #[error("thread pool: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// The listener failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A setting is unusable.
    #[error("{0}")]
    Config(String),
}

/// A running server: its address, a shutdown trigger and its task.
pub struct ServerHandle {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

impl ServerHandle {
    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop accepting; in-flight requests get up to the drain time to finish.
    pub fn shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Wait until the server has stopped.
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e)),
        }
    }

    /// [`shutdown`](Self::shutdown), then [`wait`](Self::wait).
    pub async fn stop(self) -> std::io::Result<()> {
        self.shutdown();
        self.wait().await
    }
}

struct App {
    bot: Arc<dyn Bot>,
    bot_id: String,
    pool: rayon::ThreadPool,
    searches: Arc<Semaphore>,
    config: ServeConfig,
}

/// The routes (`POST /api/webhook`, `GET /health`) with their bot, as a `tower` service —
/// what [`spawn`] serves, and what a fuzzer or test can call without a socket.
pub fn router(config: ServeConfig) -> Result<Router, ServeError> {
    if config.max_concurrent == 0 {
        return Err(ServeError::Config(
            "--max-concurrent must be at least 1".into(),
        ));
    }
    let bot: Arc<dyn Bot> = Arc::from(bot_by_id(&config.bot, &config.bot_options)?);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.unwrap_or(0))
        .thread_name(|i| format!("dicechess-search-{i}"))
        .build()?;
    let app = Arc::new(App {
        bot_id: bot.info().id,
        bot,
        pool,
        searches: Arc::new(Semaphore::new(config.max_concurrent)),
        config,
    });
    Ok(Router::new()
        .route("/api/webhook", post(webhook))
        .route("/health", get(health))
        .with_state(app))
}

/// Build the bot and serve on `listener` (call inside a Tokio runtime); returns at once
/// with a handle.
pub fn spawn(config: ServeConfig, listener: TcpListener) -> Result<ServerHandle, ServeError> {
    let addr = listener.local_addr()?;
    let drain = Duration::from_millis(config.drain_ms);
    let log = config.log_requests;
    let router = router(config)?;
    let (tx, rx) = watch::channel(false);
    let mut stop_rx = rx.clone();
    let mut drain_rx = rx;
    let task = tokio::spawn(async move {
        let server = axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = stop_rx.wait_for(|stop| *stop).await;
            })
            .into_future();
        tokio::pin!(server);
        tokio::select! {
            r = &mut server => r,
            _ = async {
                if drain_rx.wait_for(|stop| *stop).await.is_err() {
                    // The handle is gone without a shutdown: serve forever.
                    std::future::pending::<()>().await;
                }
                tokio::time::sleep(drain).await;
            } => {
                if log {
                    eprintln!("{}", json!({"event": "drain-timeout", "drainMs": drain.as_millis() as u64}));
                }
                Ok(())
            }
        }
    });
    Ok(ServerHandle {
        addr,
        shutdown: tx,
        task,
    })
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let started = Instant::now();
    let resp = Json(json!({"status": "ok", "bot": app.bot_id})).into_response();
    if app.config.log_requests {
        eprintln!(
            "{}",
            json!({"path": "/health", "status": 200, "ms": started.elapsed().as_secs_f64() * 1e3})
        );
    }
    resp
}

/// What one delivery produced, for the answer and the log line.
struct Outcome {
    status: StatusCode,
    body: Value,
    note: Option<String>,
}

impl Outcome {
    fn ok(body: Value) -> Outcome {
        Outcome {
            status: StatusCode::OK,
            body,
            note: None,
        }
    }

    fn error(status: StatusCode, message: impl Into<String>) -> Outcome {
        let message = message.into();
        Outcome {
            status,
            body: json!({ "error": message }),
            note: Some(message),
        }
    }
}

#[derive(Default)]
struct LogFields {
    game: Option<String>,
    kind: Option<String>,
    version: Option<u64>,
    think_ms: Option<f64>,
    budget_ms: Option<u64>,
}

async fn webhook(State(app): State<Arc<App>>, req: Request) -> Response {
    let started = Instant::now();
    let (parts, body) = req.into_parts();
    let mut fields = LogFields::default();
    let outcome = handle(&app, &parts.headers, body, started, &mut fields).await;
    if app.config.log_requests {
        let line = json!({
            "path": "/api/webhook",
            "game": fields.game,
            "type": fields.kind,
            "version": fields.version,
            "budgetMs": fields.budget_ms,
            "thinkMs": fields.think_ms,
            "ms": started.elapsed().as_secs_f64() * 1e3,
            "status": outcome.status.as_u16(),
            "outcome": outcome.note.as_deref().unwrap_or("ok"),
        });
        eprintln!("{line}");
    }
    (outcome.status, Json(outcome.body)).into_response()
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap_or(""))
}

async fn handle(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    started: Instant,
    fields: &mut LogFields,
) -> Outcome {
    let too_large = || {
        Outcome::error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("body over {MAX_BODY_BYTES} bytes"),
        )
    };
    let declared = header(headers, "content-length").and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > DRAIN_BYTES) {
        return too_large();
    }
    let raw = match to_bytes(body, DRAIN_BYTES).await {
        Ok(b) if b.len() <= MAX_BODY_BYTES => b,
        Ok(_) => return too_large(),
        Err(_) if declared.is_some_and(|n| n <= MAX_BODY_BYTES) => {
            return Outcome::error(StatusCode::BAD_REQUEST, "could not read the body")
        }
        Err(_) => return too_large(),
    };
    let signed = match (
        header(headers, TIMESTAMP_HEADER),
        header(headers, SIGNATURE_HEADER),
    ) {
        (None, None) => None,
        (Some(ts), Some(sig)) => {
            let config = &app.config;
            match auth::verify(
                &config.secret,
                config.next_secret.as_deref(),
                ts,
                sig,
                &raw,
                now_s(),
            ) {
                Ok(w) => Some(w),
                Err(e) => return Outcome::error(StatusCode::UNAUTHORIZED, e),
            }
        }
        _ => {
            return Outcome::error(
                StatusCode::UNAUTHORIZED,
                "both X-DiceChess-Timestamp and X-DiceChess-Signature are needed",
            )
        }
    };
    let msg: Value = match serde_json::from_slice(&raw) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return Outcome::error(StatusCode::BAD_REQUEST, "expected a JSON object"),
        Err(e) => return Outcome::error(StatusCode::BAD_REQUEST, format!("bad JSON: {e}")),
    };
    let kind = msg.get("type").and_then(Value::as_str).unwrap_or_default();
    fields.kind = Some(kind.to_owned());
    fields.game = msg.get("gameId").map(|g| match g {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    });
    let version = match msg.get("version") {
        None | Some(Value::Null) => 1,
        Some(v) => match v.as_u64() {
            Some(n @ (1 | 2)) => n,
            _ => return Outcome::error(StatusCode::BAD_REQUEST, "version: expected 1 or 2"),
        },
    };
    fields.version = Some(version);
    if kind == "verification" {
        return verification(app, &msg, version, signed, &raw);
    }
    if signed.is_none() {
        return Outcome::error(StatusCode::UNAUTHORIZED, "unsigned delivery");
    }
    match kind {
        "yourTurn" => your_turn(app, &msg, started, fields).await,
        "drawDecision" | "doubleOpportunity" | "doubleDecision" => decision(app, &msg, kind),
        "" => Outcome::error(StatusCode::BAD_REQUEST, "missing `type`"),
        other => Outcome::error(StatusCode::BAD_REQUEST, format!("unknown type {other:?}")),
    }
}

fn verification(
    app: &App,
    msg: &Value,
    version: u64,
    signed: Option<SignedWith>,
    raw: &[u8],
) -> Outcome {
    let Some(nonce) = msg.get("nonce") else {
        return Outcome::error(StatusCode::BAD_REQUEST, "verification: missing `nonce`");
    };
    if version == 1 {
        return Outcome::ok(json!({ "nonce": nonce }));
    }
    match (signed, &app.config.next_secret) {
        (Some(SignedWith::Next), Some(next)) => {
            Outcome::ok(json!({ "nonce": nonce, "proof": auth::proof(next, raw) }))
        }
        _ => Outcome::error(
            StatusCode::UNAUTHORIZED,
            "v2 verification must be signed with the pending secret",
        ),
    }
}

/// The bot's seat and the position of `state.dfen`.
fn seat_and_position(msg: &Value) -> Result<(Color, Position), String> {
    let seat = protocol::parse_seat(msg.get("seat"))?;
    let state = msg.get("state").ok_or("missing `state`")?;
    let dfen = state
        .get("dfen")
        .and_then(Value::as_str)
        .ok_or("state.dfen: expected a string")?;
    let pos = Position::from_dfen(dfen).map_err(|e| format!("state.dfen: {e}"))?;
    Ok((seat, pos))
}

/// A generator for one request, seeded from the game id and the position.
fn request_rng(msg: &Value, pos: &Position) -> Xoshiro256PlusPlus {
    let mut h = Sha256::new();
    h.update(msg.get("gameId").map(Value::to_string).unwrap_or_default());
    h.update(b"\n");
    h.update(pos.to_dfen());
    let d = h.finalize();
    let mut seed = [0u8; 8];
    seed.copy_from_slice(&d[..8]);
    Xoshiro256PlusPlus::seed_from_u64(u64::from_le_bytes(seed))
}

fn decision(app: &App, msg: &Value, kind: &str) -> Outcome {
    let (seat, pos) = match seat_and_position(msg) {
        Ok(x) => x,
        Err(e) => return Outcome::error(StatusCode::BAD_REQUEST, e),
    };
    let mut rng = request_rng(msg, &pos);
    let policy = app.bot.policy();
    let id = msg.get("decisionId").cloned().unwrap_or(Value::Null);
    Outcome::ok(match kind {
        "drawDecision" => json!({ "acceptDraw": policy.accept_draw(&pos, seat, &mut rng) }),
        "doubleOpportunity" => json!({
            "decisionId": id,
            "offerDouble": policy.offer_double(&pos, seat, &mut rng),
        }),
        _ => json!({
            "decisionId": id,
            "acceptDouble": policy.accept_double(&pos, seat, &mut rng),
        }),
    })
}

async fn your_turn(app: &App, msg: &Value, started: Instant, fields: &mut LogFields) -> Outcome {
    let bad = |e: String| Outcome::error(StatusCode::BAD_REQUEST, e);
    let (seat, pos) = match seat_and_position(msg) {
        Ok(x) => x,
        Err(e) => return bad(e),
    };
    if pos.dice().is_empty() {
        return bad("state.dfen: a yourTurn position needs the rolled dice (field 7)".into());
    }
    if pos.side_to_move() != seat {
        return bad("seat: not the side to move of state.dfen".into());
    }
    let state = &msg["state"];
    if let Some(active) = state.get("activeSeat").filter(|v| !v.is_null()) {
        match protocol::parse_seat(Some(active)) {
            Ok(a) if a == seat => {}
            Ok(_) => return bad("state.activeSeat: not our seat".into()),
            Err(e) => return bad(format!("state.activeSeat: {e}")),
        }
    }
    let tc = match TimeControl::parse(state.get("timeControl").or(msg.get("timeControl"))) {
        Ok(tc) => tc,
        Err(e) => return bad(e),
    };
    let tree = match state.get("legalMoves").or(msg.get("legalMoves")) {
        None | Some(Value::Null) => None,
        Some(t @ Value::Object(_)) => Some(t.clone()),
        Some(_) => return bad("legalMoves: expected an object or null".into()),
    };
    let clock = protocol::seat_clock(state.get("clocks").or(msg.get("clocks")), seat);
    let config = &app.config;
    let budget =
        protocol::think_budget_ms(tc, clock, &pos, config.max_think_ms, config.overhead_ms);
    fields.budget_ms = Some(budget);
    let deadline = started + Duration::from_millis(budget);
    let mut rng = request_rng(msg, &pos);

    let Ok(permit) = app.searches.clone().acquire_owned().await else {
        return Outcome::error(StatusCode::INTERNAL_SERVER_ERROR, "server shutting down");
    };
    let bot = app.bot.clone();
    let job = move || {
        let _permit = permit;
        let t0 = Instant::now();
        let r = bot.choose(
            &pos,
            &mut Turn {
                rng: &mut rng,
                deadline: Some(deadline),
            },
        );
        (r, t0.elapsed())
    };
    // Off the I/O threads: the search runs on the rayon pool (where its own parallel work
    // lands too); the answer comes back over a channel.
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.pool.spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)));
    });
    let pool_result = rx.await;
    let (result, elapsed) = match pool_result {
        Ok(Ok(x)) => x,
        _ => return Outcome::error(StatusCode::INTERNAL_SERVER_ERROR, "the engine panicked"),
    };
    fields.think_ms = Some(elapsed.as_secs_f64() * 1e3);
    let choice = match result {
        Ok(c) => c,
        Err(e) => {
            return Outcome::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the engine failed: {e}"),
            )
        }
    };
    let chosen: Vec<String> = choice
        .path
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .unwrap_or_default();
    let moves = match &tree {
        Some(tree) => match protocol::tree_has_path(tree, &chosen) {
            Ok(true) => chosen,
            Ok(false) => match protocol::first_leaf_path(tree) {
                Ok(first) => {
                    if config.log_requests {
                        eprintln!(
                            "{}",
                            json!({
                                "event": "choice-not-in-legalMoves",
                                "game": fields.game,
                                "chosen": chosen,
                                "answered": first,
                            })
                        );
                    }
                    first
                }
                Err(e) => return bad(e),
            },
            Err(e) => return bad(e),
        },
        None => {
            let paths = legal_paths(&pos);
            let ours = paths
                .iter()
                .any(|p| p.moves().iter().map(|m| m.uci()).eq(chosen.iter().cloned()));
            if ours || (paths.is_empty() && chosen.is_empty()) {
                chosen
            } else {
                let first: Vec<String> = paths
                    .first()
                    .map(|p| p.moves().iter().map(|m| m.uci()).collect())
                    .unwrap_or_default();
                if config.log_requests {
                    eprintln!(
                        "{}",
                        json!({
                            "event": "choice-not-legal",
                            "game": fields.game,
                            "chosen": chosen,
                            "answered": first,
                        })
                    );
                }
                first
            }
        }
    };
    Outcome::ok(json!({ "moves": moves }))
}
