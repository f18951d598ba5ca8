//! `dicechess serve`: the webhook bot server.

use super::CliError;
use dicechess::bots::BotOptions;
use dicechess::serve::{spawn, ServeConfig};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `serve`.
#[derive(clap::Args)]
#[command(after_help = "\
Plain HTTP/1.1 only: TLS is terminated by the host (reverse proxy or load balancer) in \
front of this server.

POST /api/webhook   one delivery per decision in the play server's wire format \
(docs/webhook.md): verification (version-less: echo; version 2: proof under the pending \
secret), yourTurn, drawDecision, and the doubleOpportunity/doubleDecision extension; \
headers X-DiceChess-Timestamp (Unix seconds) and X-DiceChess-Signature (hex HMAC-SHA256 \
over timestamp + \".\" + raw body). Errors are {\"error\": code} with Cache-Control: no-store.
GET  /health        {\"status\":\"ok\",\"bot\":ID}

Secrets: --secret / DICECHESS_WEBHOOK_SECRET (active), --next-secret / \
DICECHESS_WEBHOOK_NEXT_SECRET (pending, during key rotation). One JSON log line per request \
goes to stderr. SIGTERM or Ctrl-C stops accepting and drains in-flight searches.")]
pub struct Args {
    /// TCP port.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to bind.
    #[arg(long, default_value = "0.0.0.0")]
    bind: String,
    /// The active shared secret (default: $DICECHESS_WEBHOOK_SECRET).
    #[arg(long)]
    secret: Option<String>,
    /// The pending next secret (default: $DICECHESS_WEBHOOK_NEXT_SECRET).
    #[arg(long)]
    next_secret: Option<String>,
    /// The bot (see `dicechess bots`).
    #[arg(long, default_value = "expectimax")]
    bot: String,
    /// Model package for model leaves (`expectimax-model`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// A `chance-collapse` model package replacing expectimax's root chance nodes.
    #[arg(long, value_name = "PKG")]
    collapse: Option<PathBuf>,
    /// Opening book (TSV) played before the bot.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Endgame tables (a folder `dicechess tablebase build` wrote) scoring the bot's leaves.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    #[command(flatten)]
    depth3: super::depth3::Depth3Args,
    /// Search worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Never think longer per turn, ms (also the budget of untimed games).
    #[arg(long, default_value_t = 5000)]
    max_think_ms: u64,
    /// Transport allowance subtracted from each clock budget, ms.
    #[arg(long, default_value_t = 300)]
    overhead_ms: u64,
    /// At most this many searches at once; the rest wait (default: number of cores).
    #[arg(long)]
    max_concurrent: Option<usize>,
    /// At most this many deliveries waiting for a search slot; more get 503 (default: cores ×
    /// max-think-ms / 12, at most --max-connections; docs/webhook.md).
    #[arg(long)]
    max_queue: Option<usize>,
    /// At most this many connections served at once; more wait in the accept backlog.
    #[arg(long, default_value_t = dicechess::serve::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,
    /// On shutdown, wait this long for in-flight searches, ms.
    #[arg(long, default_value_t = 10_000)]
    drain_ms: u64,
    /// Resign in the doubling answers (`"resign": true`) when the win probability
    /// (material and king safety) is below this (default: never).
    #[arg(long, value_name = "P")]
    resign_below: Option<f64>,
}

impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secrets.
        f.debug_struct("Args")
            .field("port", &self.port)
            .field("bind", &self.bind)
            .field("bot", &self.bot)
            .finish_non_exhaustive()
    }
}

fn secret(flag: Option<String>, var: &str) -> Option<Vec<u8>> {
    flag.or_else(|| std::env::var(var).ok())
        .filter(|s| !s.is_empty())
        .map(String::into_bytes)
}

/// Serve until SIGTERM or Ctrl-C.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    super::allocator::fix_mmap_threshold();
    let Some(active) = secret(args.secret, "DICECHESS_WEBHOOK_SECRET") else {
        return Err(CliError::Input(
            "a shared secret is needed: --secret or DICECHESS_WEBHOOK_SECRET".into(),
        ));
    };
    let mut config = ServeConfig::new(&args.bot, &active);
    config.next_secret = secret(args.next_secret, "DICECHESS_WEBHOOK_NEXT_SECRET");
    config.bot_options = BotOptions {
        model: args.model,
        collapse: args.collapse,
        book: args.book,
        tablebases: super::tablebase::for_bots(args.tablebases.as_deref())?,
        ..BotOptions::default()
    };
    config.bot_options = args.depth3.apply(config.bot_options);
    config.threads = args.threads;
    config.max_think_ms = args.max_think_ms;
    config.overhead_ms = args.overhead_ms;
    if let Some(n) = args.max_concurrent {
        config.max_concurrent = n;
    }
    config.max_connections = args.max_connections;
    config.max_queue = args.max_queue.unwrap_or_else(|| {
        dicechess::serve::default_max_queue(
            config.max_concurrent,
            config.max_think_ms,
            config.max_connections,
        )
    });
    config.drain_ms = args.drain_ms;
    if let Some(p) = args.resign_below {
        if !(0.0..=1.0).contains(&p) {
            return Err(CliError::Input(format!(
                "--resign-below {p}: a probability in [0, 1]"
            )));
        }
    }
    config.resign = dicechess::bots::ResignPolicy {
        below: args.resign_below,
    };
    let runtime = super::listen::runtime(None)?;
    runtime.block_on(async move {
        let listener = super::listen::listen(&args.bind, args.port).await?;
        let bot = config.bot.clone();
        let handle = spawn(config, listener).map_err(|e| match e {
            dicechess::serve::ServeError::Io(e) => CliError::Other(e.into()),
            other => CliError::Input(other.to_string()),
        })?;
        eprintln!(
            "{}",
            serde_json::json!({"event": "listening", "addr": handle.addr().to_string(), "bot": bot})
        );
        shutdown_signal().await;
        eprintln!(
            "{}",
            serde_json::json!({"event": "shutdown", "status": "draining"})
        );
        handle.stop().await.map_err(|e| CliError::Other(e.into()))?;
        eprintln!("{}", serde_json::json!({"event": "stopped"}));
        Ok(())
    })
}

/// Ctrl-C or SIGTERM.
pub(super) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
