//! The streaming and polling bot client (`dicechess play`): a registry bot plays on the
//! play server through its Bot API, in the server's own shapes (`docs/play.md`).
//!
//! * the account stream (`GET /bot/stream/event`, ndjson) wakes the client; polling
//!   `GET /bot/challenges` and `GET /bot/games` is the source of truth (streams are
//!   live-only), so a restarted client resumes its games and a dropped stream loses nothing;
//! * challenges are taken by a [`ChallengePolicy`] (time controls, rated, games at once);
//! * each game runs on its own thread: its stream (`GET /bot/game/stream/{id}`) is read and
//!   reconnected with backoff, each roll of ours answered inside the clock's budget
//!   (`POST /bot/game/{id}/move`), draw offers answered by the bot's policy, and a
//!   [`ResignPolicy`] may resign;
//! * every step is one JSON log line.
//!
//! The parts: the streams' events (`events.rs`), the REST bodies (`rest.rs`), the HTTP
//! calls (`api.rs`, `ndjson.rs`), reconnect delays (`backoff.rs`), policies (`policy.rs`),
//! a game's state (`tracker.rs`), a game's thread (`worker.rs`) and the client
//! (`client.rs`); settings in `config.rs`.

mod api;
mod backoff;
mod client;
mod config;
mod events;
mod ndjson;
mod policy;
mod rest;
mod tracker;
mod worker;

pub use crate::bots::ResignPolicy;
pub use api::{Accepted, Api, ApiError, Verdict, MAX_BODY_BYTES, STREAM_IDLE};
pub use backoff::Backoff;
pub use client::{run, PlayError, PlayReport};
pub use config::{PlayConfig, PlayControl, PlayLog};
pub use events::{
    parse_account_line, parse_game_line, AccountEvent, EventError, GameEvent, Line, Principal,
    SnapshotTurn,
};
pub use ndjson::{NdjsonLines, MAX_LINE_BYTES};
pub use policy::{ChallengePolicy, ControlKind, Judgement, RatedFilter};
pub use rest::{
    BotAccount, BotActiveGame, BotChallenges, BotGame, BotGames, Capacity, Challenge, GameMoves,
    MoveBody, MoveOutcome, SeedBody,
};
pub use tracker::{Action, GameTracker};
pub use worker::GameSummary;
