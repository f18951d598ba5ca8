//! `dicechess play`: a bot on the play server through its Bot API (streams and REST).

use super::CliError;
use dicechess::bots::BotOptions;
use dicechess::play::{
    run as run_client, ApiError, ChallengePolicy, ControlKind, PlayConfig, PlayControl, PlayError,
    RatedFilter, ResignPolicy,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `play`.
#[derive(clap::Args)]
#[command(after_help = "\
The bot plays on the play server (https://api.fortemate.com) as the account of its Bearer \
token, read from the environment variable --token-env names (never from the command line). \
It listens to the account stream (GET /bot/stream/event) and polls GET /bot/challenges and \
GET /bot/games, so it resumes its live games after a restart; each game's stream \
(GET /bot/game/stream/{id}) is reconnected with backoff. Turns go to POST \
/bot/game/{id}/move inside the clock's budget. One JSON log line per step goes to stderr; \
the run's report (games, results) is printed as JSON on stdout at the end.

Ctrl-C or SIGTERM: stop taking challenges and end when the games in progress are over; a \
second one ends at once (docs/play.md).")]
pub struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "https://api.fortemate.com")]
    server: String,
    /// The environment variable holding the bot's Bearer token.
    #[arg(long, default_value = "DICECHESS_BOT_TOKEN", value_name = "VAR")]
    token_env: String,
    /// The bot (see `dicechess bots`).
    #[arg(long, default_value = "best")]
    bot: String,
    /// Model package for model leaves (`expectimax-model`).
    #[arg(long)]
    model: Option<PathBuf>,
    /// Opening book (TSV) played before the bot.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Endgame tables (a folder `dicechess tablebase build` wrote) scoring the bot's leaves.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    #[command(flatten)]
    depth3: super::depth3::Depth3Args,
    /// At most this many games at once (declared to the server at start: POST /bot/capacity).
    #[arg(long, default_value_t = 1)]
    max_games: usize,
    /// Time-control kinds taken, comma-separated: unlimited, sudden-death, fischer, per-move.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "unlimited,sudden-death,fischer,per-move"
    )]
    time_controls: Vec<String>,
    /// Clocked games: at least this many seconds on the clock.
    #[arg(long, default_value_t = 30)]
    min_initial_s: u32,
    /// Per-move games: at least this many seconds a turn.
    #[arg(long, default_value_t = 1)]
    min_per_move_s: u32,
    /// Which offers to take: any, rated or casual.
    #[arg(long, default_value = "any")]
    rated: String,
    /// Resign a rolled position whose win probability (material and king safety) is below
    /// this, unless the roll takes the king (default: never resign).
    #[arg(long, value_name = "P")]
    resign_below: Option<f64>,
    /// Never think longer per turn, ms (also the budget of untimed games).
    #[arg(long, default_value_t = 5000)]
    max_think_ms: u64,
    /// Transport allowance subtracted from each clock budget, ms.
    #[arg(long, default_value_t = 300)]
    overhead_ms: u64,
    /// Poll only: do not open the account stream.
    #[arg(long)]
    no_stream: bool,
    /// Seconds between polls of /bot/games and /bot/challenges.
    #[arg(long, default_value_t = 15.0)]
    poll_s: f64,
    /// Stop after this many games have finished.
    #[arg(long)]
    games: Option<usize>,
    /// Do not submit dice seeds.
    #[arg(long)]
    no_seed: bool,
    /// Do not declare --max-games to the server (POST /bot/capacity) at start.
    #[arg(long)]
    no_declare: bool,
    /// Longest reconnect delay, seconds.
    #[arg(long, default_value_t = 30.0)]
    backoff_max_s: f64,
}

impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Args")
            .field("server", &self.server)
            .field("token_env", &self.token_env)
            .field("bot", &self.bot)
            .finish_non_exhaustive()
    }
}

fn seconds(flag: &str, s: f64) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| CliError::Input(format!("--{flag} {s}: a positive number of seconds")))
}

/// Play until the game quota is reached or a signal stops the run.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let token = std::env::var(&args.token_env)
        .ok()
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            CliError::Input(format!(
                "no bot token: set the environment variable {} (or name another with --token-env)",
                args.token_env
            ))
        })?;
    let mut controls = Vec::new();
    for name in &args.time_controls {
        let kind = ControlKind::parse(name.trim()).ok_or_else(|| {
            CliError::Input(format!(
                "--time-controls: unknown kind {name:?} (unlimited, sudden-death, fischer, per-move)"
            ))
        })?;
        controls.push(kind);
    }
    let rated = match args.rated.as_str() {
        "any" => RatedFilter::Any,
        "rated" => RatedFilter::Rated,
        "casual" => RatedFilter::Casual,
        other => {
            return Err(CliError::Input(format!(
                "--rated {other:?}: any, rated or casual"
            )))
        }
    };
    if args.max_games == 0 || args.max_games > 32 {
        return Err(CliError::Input(format!(
            "--max-games {}: 1 to 32 (the server's range)",
            args.max_games
        )));
    }
    if let Some(p) = args.resign_below {
        if !(0.0..=1.0).contains(&p) {
            return Err(CliError::Input(format!(
                "--resign-below {p}: a probability in [0, 1]"
            )));
        }
    }
    let mut config = PlayConfig::new(&args.server, &token, &args.bot);
    config.bot_options = BotOptions {
        model: args.model,
        book: args.book,
        tablebases: super::tablebase::for_bots(args.tablebases.as_deref())?,
        ..BotOptions::default()
    };
    config.bot_options = args.depth3.apply(config.bot_options);
    config.challenges = ChallengePolicy {
        controls,
        min_initial_s: args.min_initial_s,
        min_per_move_s: args.min_per_move_s,
        rated,
        max_games: args.max_games,
    };
    config.resign = ResignPolicy {
        below: args.resign_below,
    };
    config.max_think_ms = args.max_think_ms;
    config.overhead_ms = args.overhead_ms;
    config.stream = !args.no_stream;
    config.poll = seconds("poll-s", args.poll_s)?;
    config.backoff_cap = seconds("backoff-max-s", args.backoff_max_s)?;
    config.games = args.games;
    config.seed_dice = !args.no_seed;
    config.declare_capacity = !args.no_declare;
    let control = PlayControl::new();
    watch_signals(control.clone());
    let report = run_client(config, control).map_err(|e| match e {
        PlayError::Bot(b) => CliError::Input(b.to_string()),
        PlayError::Api(a @ (ApiError::Url(_) | ApiError::Unauthorized { .. })) => {
            CliError::Input(a.to_string())
        }
        PlayError::Api(a) => CliError::Other(a.into()),
    })?;
    let text = serde_json::to_string_pretty(&report).map_err(|e| CliError::Other(e.into()))?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// The first Ctrl-C or SIGTERM drains, the second quits.
fn watch_signals(control: std::sync::Arc<PlayControl>) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    std::thread::spawn(move || {
        runtime.block_on(async move {
            for round in 0..2 {
                super::serve::shutdown_signal().await;
                if round == 0 {
                    eprintln!(
                        "{}",
                        serde_json::json!({"event": "draining", "detail": "no new games; a second Ctrl-C ends at once"})
                    );
                    control.drain();
                } else {
                    control.quit();
                }
            }
        });
    });
}
