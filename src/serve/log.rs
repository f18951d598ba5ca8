//! The log line of one delivery (`ServeConfig::log_requests`): one JSON object on stderr.

use serde_json::json;
use std::time::Instant;

/// What the log line of one delivery says. Fields from the body are filled in only once it
/// is authenticated.
#[derive(Default)]
pub(super) struct LogFields {
    pub(super) authenticated: bool,
    pub(super) game: Option<String>,
    pub(super) kind: Option<&'static str>,
    pub(super) version: Option<u64>,
    pub(super) think_ms: Option<f64>,
    pub(super) budget_ms: Option<u64>,
    pub(super) fallback: Option<&'static str>,
    /// Why a turn was degraded to the fast path, when there is more to say than `fallback`.
    pub(super) detail: Option<String>,
}

impl LogFields {
    /// Write the line of a delivery that arrived at `started` and was answered `status`
    /// (`error`: the rejection's code, `detail`: its reason, for an authenticated body only).
    pub(super) fn print(
        &self,
        started: Instant,
        status: u16,
        error: Option<&str>,
        detail: Option<String>,
    ) {
        let line = json!({
            "path": "/api/webhook",
            "game": self.game,
            "type": self.kind,
            "version": self.version,
            "budgetMs": self.budget_ms,
            "thinkMs": self.think_ms,
            "fallback": self.fallback,
            "ms": started.elapsed().as_secs_f64() * 1e3,
            "status": status,
            "error": error,
            "detail": detail,
        });
        eprintln!("{line}");
    }
}
