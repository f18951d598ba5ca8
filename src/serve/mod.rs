//! The webhook bot server (`dicechess serve`): the play server POSTs one delivery per
//! decision to `/api/webhook`, in its own wire format (`src/serve/wire.rs`, `docs/webhook.md`), and a
//! registry bot answers; `GET /health` reports liveness.
//!
//! Plain HTTP/1.1: TLS is terminated by the host in front of it. Hostile clients are held
//! off before authentication (`limits.rs`, `listener.rs`): header and body read timeouts, a
//! connection cap, and no body buffered past [`MAX_BODY_BYTES`]. Searches run on a
//! rayon pool, never on the I/O threads, at most [`ServeConfig::max_concurrent`] at once,
//! with at most [`ServeConfig::max_queue`] waiting, each wait bounded by its own deadline:
//! an admitted turn is answered in time, by the search or by the bot's fast path.
//!
//! The app: its settings (`config.rs`), the state its routes share (`state.rs`), the routes
//! (`routes.rs`: read, authenticate, dispatch, log through `log.rs`), the answers
//! (`decide.rs`) and the server that serves them (`server.rs`).

mod auth;
mod client;
mod config;
mod decide;
mod dedup;
mod limits;
mod listener;
mod log;
mod reject;
mod routes;
mod server;
mod state;
mod think;
mod wire;

pub use auth::{
    proof, sign, verify, AuthError, SignedWith, MAX_SKEW_S, SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
pub use client::{ClientError, WebhookBot, MAX_ANSWER_BYTES};
pub use config::ServeConfig;
pub use limits::{
    default_max_queue, DEFAULT_MAX_CONNECTIONS, FAST_PATH_MS, MAX_BODY_BYTES,
    MAX_INLINE_TREE_BYTES, MAX_LEGACY_NONCE_BYTES,
};
pub use server::{router, spawn, ServeError, ServerHandle};
pub use think::{color_of, think_budget_ms};
pub use wire::{
    ClientSeeds, Clocks, DrawOffer, GameOver, GameResult, GameStatus, MoveTree, PlayerKind,
    Players, PublicGameState, PublicPlayer, Seat, ServerTimeControl, Side, Termination,
};
