//! `dicechess selfplay`: games between two bots on all cores, written in resumable shards
//! (games as JSON lines, training rows as Parquet) with a manifest of digests.

use super::CliError;
use dicechess::selfplay::{
    run_selfplay, GameLimits, SelfPlayError, SelfPlayProgress, SelfPlayRequest,
};
use dicechess::selfplay::{DEFAULT_BOT, DEFAULT_FEATURES, DEFAULT_SHARD_GAMES};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `selfplay`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Output in --out: shard-<k>.games.jsonl (one GameRecord JSON line \
    per game), shard-<k>.rows.parquet (a training shard of schema v0, docs/data-formats.md: \
    one row per position before each turn with game_id, ply from 1, fen without dice, dice \
    upper case, side, result from the mover's view 1/0.5/0, then the float32 features of \
    --features from the mover's view; footer keys dicechess_training_schema=v0, \
    feature_schema, engine_version, ruleset, perspective, columns) and manifest.json (run \
    settings, per-shard counts and SHA-256 digests). The training pipeline's enriched \
    readers take --features kcp-13, kcp-mobility-27-v1 or kcp-mobility-pawns-31-v1. Game i \
    is seeded by (--seed, i): the files are the same whatever --threads. Rerunning the same \
    command verifies and skips finished shards; --shard i/n runs the shards k with \
    k % n == i (merge the slices with `dicechess merge`). One run at a time per --out (the \
    folder is locked)."
)]
pub struct Args {
    /// Games in the whole run.
    #[arg(long, value_name = "N")]
    games: u64,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// White's bot (see `dicechess bots`).
    #[arg(long, value_name = "BOT", default_value = DEFAULT_BOT)]
    white: String,
    /// Black's bot.
    #[arg(long, value_name = "BOT", default_value = DEFAULT_BOT)]
    black: String,
    /// Model package for White's bot (expectimax-model).
    #[arg(long, value_name = "PKG")]
    white_model: Option<PathBuf>,
    /// Model package for Black's bot.
    #[arg(long, value_name = "PKG")]
    black_model: Option<PathBuf>,
    /// Opening book (TSV) for White's bot.
    #[arg(long, value_name = "FILE")]
    white_book: Option<PathBuf>,
    /// Opening book (TSV) for Black's bot.
    #[arg(long, value_name = "FILE")]
    black_book: Option<PathBuf>,
    /// Candidate limit of expectimax bots [default: the bot's].
    #[arg(long, value_name = "N")]
    candidate_limit: Option<usize>,
    /// Transposition table per game for expectimax bots, MiB; 0 = none (each game builds
    /// its own bots: a table shared between games would make a game depend on the games
    /// played before it).
    #[arg(long, value_name = "MB", default_value_t = 0)]
    table_mb: usize,
    /// Run seed.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Run one slice of the shards: shard k belongs to slice i iff k % n == i.
    #[arg(long, value_name = "i/n")]
    shard: Option<String>,
    /// Feature schema of the training rows (default rich-9-v1: cheap to extract).
    #[arg(long, value_name = "ID", default_value = DEFAULT_FEATURES)]
    features: String,
    /// Games per shard.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHARD_GAMES)]
    shard_games: u64,
    /// Adjudicate a draw after this many turns (docs/rules.md §8).
    #[arg(long, value_name = "N", default_value_t = GameLimits::default().turns)]
    max_turns: u32,
    /// Adjudicate a draw when the half-move clock reaches this (docs/rules.md §8).
    #[arg(long, value_name = "N", default_value_t = GameLimits::default().halfmove)]
    halfmove_limit: u8,
    /// Start position (DFEN; dice ignored) [default: the standard start].
    #[arg(long, value_name = "DFEN")]
    start: Option<String>,
    /// Both sides' selective depth 3 (`best`, `best-net`, `expectimax-d3`).
    #[command(flatten)]
    depth3: super::depth3::Depth3Args,
}

impl Args {
    /// The run as the library states it.
    fn request(&self) -> SelfPlayRequest {
        SelfPlayRequest {
            games: self.games,
            out: self.out.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            white_model: self.white_model.clone(),
            black_model: self.black_model.clone(),
            white_book: self.white_book.clone(),
            black_book: self.black_book.clone(),
            candidate_limit: self.candidate_limit,
            table_mb: self.table_mb,
            seed: self.seed,
            threads: self.threads,
            shard: self.shard.clone(),
            features: self.features.clone(),
            shard_games: self.shard_games,
            max_turns: self.max_turns,
            halfmove_limit: self.halfmove_limit,
            start: self.start.clone(),
            d3_replies: self.depth3.d3_replies,
            d3_candidates: self.depth3.d3_candidates,
        }
    }
}

/// The CLI's view of a self-play failure: refusals are bad input (exit status 2).
pub fn selfplay_error(e: SelfPlayError) -> CliError {
    if e.is_refusal() {
        CliError::Input(e.to_string())
    } else {
        CliError::Other(anyhow::anyhow!("{e}"))
    }
}

/// Run `selfplay`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    if args.depth3.d3_widest.is_some() {
        return Err(CliError::Input(
            "--d3-widest: self-play is untimed, and a selective depth 3 widens only under a \
             clock (use it with arena, bestmove, serve or play)"
                .into(),
        ));
    }
    let cfg = args.request().config().map_err(selfplay_error)?;
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let t0 = Instant::now();
    let report = |p: SelfPlayProgress| {
        if bar.length() != Some(p.total) {
            bar.set_length(p.total);
        }
        bar.set_position(p.games);
        let s = t0.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{:.1} games/s  {:.0} positions/s",
            p.games as f64 / s,
            p.positions as f64 / s
        ));
    };
    let summary = run_selfplay(&cfg, &report).map_err(selfplay_error)?;
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let t = summary.totals;
    let mean = if t.games > 0 {
        t.turns as f64 / t.games as f64
    } else {
        0.0
    };
    let _ = writeln!(
        std::io::stderr(),
        "selfplay: {} games in {} shard(s) in {} ({} shard(s) resumed); played {} games, {} \
         positions in {secs:.2} s ({:.2} games/s, {:.0} positions/s)\n\
         White {} / Black {} / draws {}; passes {}; adjudicated {} (half-move {}, turn cap \
         {}); mean {mean:.1} turns",
        t.games,
        summary.shards,
        args.out.display(),
        summary.resumed_shards,
        summary.played_games,
        summary.played_positions,
        summary.played_games as f64 / secs,
        summary.played_positions as f64 / secs,
        t.white_wins,
        t.black_wins,
        t.draws,
        t.passes,
        t.halfmove_adjudications + t.turn_adjudications,
        t.halfmove_adjudications,
        t.turn_adjudications,
    );
    Ok(())
}
