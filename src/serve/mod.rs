//! The webhook bot server (`dicechess serve`): the play server POSTs one delivery per
//! decision to `/api/webhook`, in its own wire format (`src/serve/wire.rs`, `docs/webhook.md`), and a
//! registry bot answers; `GET /health` reports liveness.
//!
//! Plain HTTP/1.1: TLS is terminated by the host in front of it. Hostile clients are held
//! off before authentication (`limits.rs`, `listener.rs`): header and body read timeouts, a
//! connection cap, and no body buffered past [`MAX_BODY_BYTES`]. Searches run on a
//! rayon pool, never on the I/O threads, at most [`ServeConfig::max_concurrent`] at once,
//! with at most [`ServeConfig::max_queue`] waiting, each wait bounded by its own deadline.

mod auth;
mod client;
mod decide;
mod dedup;
mod limits;
mod listener;
mod reject;
mod think;
mod wire;

pub use client::{ClientError, WebhookBot, MAX_ANSWER_BYTES};

use crate::bots::{bot_by_id, Bot, BotBuildError, BotOptions};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use axum::routing::{any, get};
use axum::Router;
use dedup::Dedup;
use reject::{json_response, Invalid, Rejection};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;
use wire::{DeliveryType, Head};

pub use auth::{proof, sign, verify, AuthError, SignedWith, MAX_SKEW_S};
pub use limits::{
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_QUEUE, MAX_BODY_BYTES, MAX_INLINE_TREE_BYTES,
};

/// The timestamp header (Unix seconds).
pub const TIMESTAMP_HEADER: &str = "x-dicechess-timestamp";
/// The signature header (hex HMAC-SHA256 over `timestamp + "." + body`).
pub const SIGNATURE_HEADER: &str = "x-dicechess-signature";

/// Longest version-less nonce echoed, bytes (the server sends 32 hex digits).
pub const MAX_LEGACY_NONCE_BYTES: usize = 256;

/// The server's settings. `Debug` never prints the secrets.
#[derive(Clone)]
pub struct ServeConfig {
    /// Registry id of the bot (see `dicechess bots`).
    pub bot: String,
    /// Model, book and search options of the bot.
    pub bot_options: BotOptions,
    /// Search worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// The active shared secret.
    pub secret: Vec<u8>,
    /// The pending next secret (key rotation, staged activation), if any.
    pub next_secret: Option<Vec<u8>>,
    /// Never think longer than this per turn, ms (also the budget without a clock).
    pub max_think_ms: u64,
    /// Transport allowance subtracted from each clock budget, ms.
    pub overhead_ms: u64,
    /// At most this many searches at once.
    pub max_concurrent: usize,
    /// At most this many deliveries waiting for a search slot (more: 503).
    pub max_queue: usize,
    /// At most this many connections served at once.
    pub max_connections: usize,
    /// Deliveries remembered for duplicates.
    pub dedup_entries: usize,
    /// How long a settled delivery is remembered.
    pub dedup_ttl: Duration,
    /// On shutdown, wait this long for in-flight requests, ms.
    pub drain_ms: u64,
    /// Write one JSON line per request to stderr.
    pub log_requests: bool,
}

impl std::fmt::Debug for ServeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeConfig")
            .field("bot", &self.bot)
            .field("threads", &self.threads)
            .field("secret", &"<redacted>")
            .field(
                "next_secret",
                &self.next_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("max_think_ms", &self.max_think_ms)
            .field("overhead_ms", &self.overhead_ms)
            .field("max_concurrent", &self.max_concurrent)
            .field("max_queue", &self.max_queue)
            .field("max_connections", &self.max_connections)
            .field("dedup_entries", &self.dedup_entries)
            .field("drain_ms", &self.drain_ms)
            .finish_non_exhaustive()
    }
}

impl ServeConfig {
    /// The defaults: 5000 ms max think, 300 ms overhead, one search per core, 128
    /// waiting, 256 connections, 1024 remembered deliveries for 10 minutes, 10 s drain,
    /// request logs on.
    pub fn new(bot: &str, secret: &[u8]) -> ServeConfig {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        ServeConfig {
            bot: bot.to_owned(),
            bot_options: BotOptions::default(),
            threads: None,
            secret: secret.to_vec(),
            next_secret: None,
            max_think_ms: 5000,
            overhead_ms: 300,
            max_concurrent: cores,
            max_queue: limits::DEFAULT_MAX_QUEUE,
            max_connections: limits::DEFAULT_MAX_CONNECTIONS,
            dedup_entries: 1024,
            dedup_ttl: Duration::from_secs(600),
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
    /// `--max-concurrent` is zero.
    #[error("--max-concurrent must be at least 1")]
    NoSearchSlots,
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

/// The shared state of the routes.
struct App {
    bot: Arc<dyn Bot>,
    bot_id: String,
    pool: rayon::ThreadPool,
    searches: Arc<Semaphore>,
    waiting: AtomicUsize,
    dedup: Dedup,
    config: ServeConfig,
}

/// The routes (`POST /api/webhook`, `GET /health`) with their bot, as a `tower` service —
/// what [`spawn`] serves, and what a fuzzer or test can call without a socket.
pub fn router(config: ServeConfig) -> Result<Router, ServeError> {
    if config.max_concurrent == 0 {
        return Err(ServeError::NoSearchSlots);
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
        waiting: AtomicUsize::new(0),
        dedup: Dedup::new(config.dedup_entries, config.dedup_ttl),
        config,
    });
    Ok(Router::new()
        .route("/api/webhook", any(webhook))
        .route("/health", get(health))
        .with_state(app))
}

/// Build the bot and serve on `listener` (call inside a Tokio runtime); returns at once
/// with a handle.
pub fn spawn(config: ServeConfig, listener: TcpListener) -> Result<ServerHandle, ServeError> {
    let addr = listener.local_addr()?;
    let loop_config = listener::LoopConfig {
        max_connections: config.max_connections,
        drain: Duration::from_millis(config.drain_ms),
        log: config.log_requests,
    };
    let router = router(config)?;
    let (tx, rx) = watch::channel(false);
    let task = tokio::spawn(listener::run(listener, router, loop_config, rx));
    Ok(ServerHandle {
        addr,
        shutdown: tx,
        task,
    })
}

async fn health(State(app): State<Arc<App>>) -> Response {
    json_response(StatusCode::OK, &json!({"status": "ok", "bot": app.bot_id}))
}

/// What the log line of one delivery says. Fields from the body are filled in only once it
/// is authenticated.
#[derive(Default)]
struct LogFields {
    authenticated: bool,
    game: Option<String>,
    kind: Option<&'static str>,
    version: Option<u64>,
    think_ms: Option<f64>,
    budget_ms: Option<u64>,
    fallback: Option<&'static str>,
}

async fn webhook(State(app): State<Arc<App>>, req: Request) -> Response {
    let started = Instant::now();
    let (parts, body) = req.into_parts();
    let mut fields = LogFields::default();
    let outcome = if parts.method == Method::POST {
        handle(&app, &parts.headers, body, started, &mut fields).await
    } else {
        Err(Rejection::MethodNotAllowed)
    };
    let (response, status, detail) = match &outcome {
        Ok(bytes) => {
            let mut r = json_response(StatusCode::OK, &serde_json::Value::Null);
            *r.body_mut() = Body::from(bytes.as_ref().clone());
            (r, 200, None)
        }
        Err(rejection) => {
            use axum::response::IntoResponse;
            // The reason's text may quote the body: only for an authenticated one.
            let detail = fields.authenticated.then(|| rejection.to_string());
            (
                rejection.into_response(),
                rejection.status().as_u16(),
                detail,
            )
        }
    };
    if app.config.log_requests {
        let line = json!({
            "path": "/api/webhook",
            "game": fields.game,
            "type": fields.kind,
            "version": fields.version,
            "budgetMs": fields.budget_ms,
            "thinkMs": fields.think_ms,
            "fallback": fields.fallback,
            "ms": started.elapsed().as_secs_f64() * 1e3,
            "status": status,
            "error": outcome.as_ref().err().map(|r| r.code()),
            "detail": detail,
        });
        eprintln!("{line}");
    }
    response
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The single value of a header; `None` when absent, repeated, or not visible ASCII.
fn single_header<'a>(headers: &'a HeaderMap, name: &str) -> Option<Option<&'a str>> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (None, _) => Some(None),
        (Some(v), None) => v.to_str().ok().map(Some),
        _ => None,
    }
}

/// Authenticate the raw body against the configured secrets.
fn authenticate(app: &App, headers: &HeaderMap, raw: &[u8]) -> Result<SignedWith, AuthError> {
    let ts = single_header(headers, TIMESTAMP_HEADER).flatten();
    let sig = single_header(headers, SIGNATURE_HEADER).flatten();
    let (Some(ts), Some(sig)) = (ts, sig) else {
        return Err(AuthError::MissingHeaders);
    };
    let config = &app.config;
    auth::verify(
        &config.secret,
        config.next_secret.as_deref(),
        ts,
        sig,
        raw,
        now_s(),
    )
}

/// One delivery: the answer's bytes, or why not.
async fn handle(
    app: &Arc<App>,
    headers: &HeaderMap,
    body: Body,
    started: Instant,
    fields: &mut LogFields,
) -> Result<dedup::Answer, Rejection> {
    let raw = limits::read_body(headers, body).await?;
    let signed = authenticate(app, headers, &raw);
    fields.authenticated = signed.is_ok();
    // Only the head of an unauthenticated body is read (the version-less handshake is
    // answered unsigned: a fresh registration's secret is not ours yet).
    let head: Head = match serde_json::from_slice(&raw) {
        Ok(h) => h,
        Err(e) => {
            return Err(match signed {
                Ok(_) => Invalid::Head(e).into(),
                Err(a) => a.into(),
            })
        }
    };
    let kind = DeliveryType::parse(&head.kind);
    if let Some(k) = kind {
        fields.kind = Some(k.as_str());
    }
    match (kind, head.version) {
        (Some(DeliveryType::Verification), None) => decide::legacy_verification(&raw),
        (Some(DeliveryType::Verification), Some(v)) if v == json!(2) => match signed {
            Ok(SignedWith::Next) if app.config.next_secret.is_some() => {
                decide::verification_v2(app, &raw)
            }
            Ok(_) => Err(AuthError::NotPending.into()),
            Err(e) => Err(e.into()),
        },
        (Some(DeliveryType::Verification), Some(_)) => match signed {
            Ok(_) => Err(Rejection::Unsupported("verification version".into())),
            Err(e) => Err(e.into()),
        },
        (Some(kind), _) => {
            signed?;
            decide::game(app, kind, &raw, started, fields).await
        }
        (None, _) => {
            signed?;
            Err(Rejection::Unsupported(format!("type {:?}", head.kind)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_prints_the_secrets() {
        let mut c = ServeConfig::new("greedy", b"active-s3cret");
        c.next_secret = Some(b"pending-s3cret".to_vec());
        let shown = format!("{c:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }
}
