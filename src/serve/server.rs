//! The server: the routes with their bot ([`router`]), served on a socket ([`spawn`]) until
//! its [`ServerHandle`] stops it.

use super::config::ServeConfig;
use super::dedup::Dedup;
use super::listener;
use super::routes::{health, webhook};
use super::state::App;
use crate::bots::{bot_by_id, Bot, BotBuildError};
use axum::routing::{any, get};
use axum::Router;
use std::net::SocketAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

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
    // Resident from the start, in the search threads' buffers and the table, so that RSS
    // over a soak stays flat (docs/webhook.md "Load").
    pool.install(|| bot.warm_up());
    // The fast paths get threads of their own, as many as the searches, so that they are
    // ready while every search slot is busy; a fixed pool (not Tokio's blocking pool, which
    // starts and retires threads with the load) keeps their per-thread scratch bounded.
    let fast_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.unwrap_or(0))
        .thread_name(|i| format!("dicechess-fast-{i}"))
        .build()?;
    let app = Arc::new(App {
        bot_id: bot.info().id,
        bot,
        pool,
        fast_pool,
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
