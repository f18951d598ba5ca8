//! The client's settings, its log, and the flags that stop it.

use super::policy::ChallengePolicy;
use crate::bots::{BotOptions, ResignPolicy};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Where the client's log lines go: one JSON object each (stderr by default).
pub type PlayLog = Arc<dyn Fn(&serde_json::Value) + Send + Sync>;

/// The client's settings. `Debug` never prints the token.
#[derive(Clone)]
pub struct PlayConfig {
    /// The server's base URL (`https://api.fortemate.com`).
    pub server: String,
    /// The bot's Bearer token.
    pub token: String,
    /// Registry id of the bot (see `dicechess bots`).
    pub bot: String,
    /// Model, book and search options of the bot.
    pub bot_options: BotOptions,
    /// Which challenges to accept.
    pub challenges: ChallengePolicy,
    /// When to resign.
    pub resign: ResignPolicy,
    /// Never think longer than this per turn, ms (also the budget without a clock).
    pub max_think_ms: u64,
    /// Transport allowance subtracted from each clock budget, ms.
    pub overhead_ms: u64,
    /// Read the account event stream (`false`: poll only).
    pub stream: bool,
    /// How often to poll `GET /bot/games` and `GET /bot/challenges` (also with the stream:
    /// streams are live-only, polling recovers what a dropped stream missed).
    pub poll: Duration,
    /// Stop after this many games have finished (`None`: run until stopped).
    pub games: Option<usize>,
    /// Connect and REST timeout.
    pub http_timeout: Duration,
    /// The first reconnect delay.
    pub backoff_first: Duration,
    /// The longest reconnect delay.
    pub backoff_cap: Duration,
    /// Submit a random dice seed at the start of each game (provably fair dice).
    pub seed_dice: bool,
    /// Declare `challenges.max_games` to the server at start (`POST /bot/capacity`).
    pub declare_capacity: bool,
    /// The log (`None`: JSON lines on stderr).
    pub log: Option<PlayLog>,
}

impl std::fmt::Debug for PlayConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayConfig")
            .field("server", &self.server)
            .field("token", &"<redacted>")
            .field("bot", &self.bot)
            .field("challenges", &self.challenges)
            .field("resign", &self.resign)
            .field("max_think_ms", &self.max_think_ms)
            .field("overhead_ms", &self.overhead_ms)
            .field("stream", &self.stream)
            .field("poll", &self.poll)
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

impl PlayConfig {
    /// The defaults for `bot` on `server` with `token`: the default challenge policy (one
    /// game at a time), never resign, 5,000 ms at most per turn, 300 ms transport
    /// allowance, the event stream plus a 15 s poll, reconnects from 0.5 s to 30 s, dice
    /// seeds on, the game limit declared to the server, log on stderr.
    pub fn new(server: &str, token: &str, bot: &str) -> PlayConfig {
        PlayConfig {
            server: server.to_owned(),
            token: token.to_owned(),
            bot: bot.to_owned(),
            bot_options: BotOptions::default(),
            challenges: ChallengePolicy::default(),
            resign: ResignPolicy::default(),
            max_think_ms: 5000,
            overhead_ms: 300,
            stream: true,
            poll: Duration::from_secs(15),
            games: None,
            http_timeout: Duration::from_secs(10),
            backoff_first: Duration::from_millis(500),
            backoff_cap: Duration::from_secs(30),
            seed_dice: true,
            declare_capacity: true,
            log: None,
        }
    }

    /// Write one log line: the object `line` with `"event": event` added.
    pub(super) fn log(&self, event: &str, mut line: serde_json::Value) {
        if let Some(o) = line.as_object_mut() {
            o.insert("event".into(), event.into());
        }
        match &self.log {
            Some(log) => log(&line),
            None => eprintln!("{line}"),
        }
    }
}

/// How a running client is stopped: `drain` stops taking challenges and ends the run when
/// the games in progress are over (the first Ctrl-C); `quit` ends it now (the second).
#[derive(Debug, Default)]
pub struct PlayControl {
    drain: AtomicBool,
    quit: AtomicBool,
}

impl PlayControl {
    /// A control with neither flag set.
    pub fn new() -> Arc<PlayControl> {
        Arc::new(PlayControl::default())
    }

    /// Stop taking challenges; end when the games in progress are over.
    pub fn drain(&self) {
        self.drain.store(true, Ordering::SeqCst);
    }

    /// End now.
    pub fn quit(&self) {
        self.drain();
        self.quit.store(true, Ordering::SeqCst);
    }

    /// Whether draining.
    pub fn is_draining(&self) -> bool {
        self.drain.load(Ordering::SeqCst)
    }

    /// Whether quitting.
    pub fn is_quitting(&self) -> bool {
        self.quit.load(Ordering::SeqCst)
    }
}
