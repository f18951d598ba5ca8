//! The server's settings.

use super::limits;
use crate::bots::{BotOptions, ResignPolicy};
use std::time::Duration;

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
    /// When the doubling answers resign (`"resign": true`; never by default).
    pub resign: ResignPolicy,
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
            .field("resign", &self.resign)
            .finish_non_exhaustive()
    }
}

impl ServeConfig {
    /// The defaults: 5000 ms max think, 300 ms overhead, one search per core,
    /// [`limits::default_max_queue`] waiting (256 on 2 cores), 256 connections, 1024 remembered deliveries for 10 minutes, 10 s drain,
    /// request logs on, never resign.
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
            max_queue: limits::default_max_queue(cores, 5000, limits::DEFAULT_MAX_CONNECTIONS),
            max_connections: limits::DEFAULT_MAX_CONNECTIONS,
            dedup_entries: 1024,
            dedup_ttl: Duration::from_secs(600),
            drain_ms: 10_000,
            log_requests: true,
            resign: ResignPolicy::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ServeConfig;

    #[test]
    fn debug_never_prints_the_secrets() {
        let mut c = ServeConfig::new("greedy", b"active-s3cret");
        c.next_secret = Some(b"pending-s3cret".to_vec());
        let shown = format!("{c:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }
}
