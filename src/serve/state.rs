//! The state the routes share: the bot, its search and fast-path pools, its slots, the wait count, the
//! duplicate cache and the settings.

use super::config::ServeConfig;
use super::dedup::Dedup;
use crate::bots::Bot;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The shared state of the routes.
pub(super) struct App {
    pub(super) bot: Arc<dyn Bot>,
    pub(super) bot_id: String,
    pub(super) pool: rayon::ThreadPool,
    /// Where the fast paths run (as many threads as `pool`).
    pub(super) fast_pool: rayon::ThreadPool,
    pub(super) searches: Arc<Semaphore>,
    pub(super) waiting: AtomicUsize,
    pub(super) dedup: Dedup,
    pub(super) config: ServeConfig,
}
