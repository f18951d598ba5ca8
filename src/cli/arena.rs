//! `dicechess arena`: colour-mirrored matches between bots, with SPRT and a gauntlet mode;
//! `--suite` runs a scenario or endgame suite instead (arena_suite.rs).

use super::depth3::Depth3Args;
use super::CliError;
use dicechess::board::Position;
use dicechess::bots::{BotId, BotOptions, BOT_IDS};
use dicechess::selfplay::{
    format_table, run_match, run_match_journaled, ArenaBot, ArenaConfig, ArenaJournal, TimeControl,
};
use dicechess::selfplay::{ArenaReport, GameLimits, SprtParams};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;

/// The standard start position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Arguments of `arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot under test (scores are from its view; a suite's candidate).
    #[arg(long, visible_alias = "bot", default_value = "expectimax")]
    white: String,
    /// The opponent (the base bot of a gauntlet; a suite's baseline).
    #[arg(long, visible_alias = "baseline", default_value = "greedy")]
    black: String,
    /// Run a suite file instead of a match (docs/suites.md): a scenario suite (the JVM
    /// arena's search-evaluation catalog: expected turns, improvements and regressions of the
    /// bot under test against the baseline) or an endgame suite (the JVM arena's endgame
    /// benchmark: `--games` games per colour per position, attacker and defender win rates);
    /// `--json` writes its report.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["gauntlet", "sprt", "tc", "resume"])]
    suite: Option<PathBuf>,
    /// Play every registry bot that needs no model against `--black` instead, one row each.
    #[arg(long)]
    gauntlet: bool,
    /// Bots to leave out of the gauntlet (comma-separated ids).
    #[arg(long, value_delimiter = ',')]
    exclude: Vec<String>,
    /// Colour-mirrored pairs to play at most (two games each) [default: 100]; with an
    /// endgame suite, the games per colour per position (one pair per colour) [default: 5].
    #[arg(long)]
    games: Option<u64>,
    /// Stop when the SPRT decides: `elo0,elo1,alpha,beta` (`--sprt` alone: 0,20,0.05,0.05).
    #[arg(long, num_args = 0..=1, default_missing_value = "0,20,0.05,0.05")]
    sprt: Option<String>,
    /// A game clock per side: `minutes[+increment seconds]`, e.g. `1+0`; several
    /// comma-separated (`1+0,3+2`) play the whole match once per time control.
    #[arg(long, conflicts_with = "move_ms")]
    tc: Option<String>,
    /// A fixed think time per turn, ms.
    #[arg(long)]
    move_ms: Option<u64>,
    /// Run seed (pair k plays the dice seed derived from it and k) [default: 1; an endgame
    /// suite: 42].
    #[arg(long)]
    seed: Option<u64>,
    /// An endgame suite's positions of this category only (case-insensitive).
    #[arg(long, requires = "suite")]
    category: Option<String>,
    /// Start position (DFEN; dice ignored).
    #[arg(long, default_value = START)]
    dfen: String,
    /// Draw when the half-move clock reaches this.
    #[arg(long, default_value_t = 100)]
    halfmove_limit: u8,
    /// Draw after this many turns.
    #[arg(long, default_value_t = 300)]
    turn_limit: u32,
    /// Transposition table per expectimax bot, MiB (each game builds its own bots).
    #[arg(long, default_value_t = 16)]
    table_mb: usize,
    /// A model package for `expectimax-model` (both sides; `--white-model` and
    /// `--black-model` override it per side).
    #[arg(long)]
    model: Option<PathBuf>,
    /// The bot under test's model package (`--white`, or each gauntlet bot).
    #[arg(long, value_name = "PKG")]
    white_model: Option<PathBuf>,
    /// The opponent's model package.
    #[arg(long, value_name = "PKG")]
    black_model: Option<PathBuf>,
    /// A `move-prerank` model package ordering the root candidates of the bot under test
    /// (`--white`, or each gauntlet bot) before its candidate limit; the opponent keeps its
    /// own pre-ranking unless `--black-prerank` is given.
    #[arg(long, visible_alias = "white-prerank", value_name = "PKG")]
    prerank: Option<PathBuf>,
    /// A `chance-collapse` model package for the bot under test's expectimax (its root
    /// chance nodes collapsed by one model call).
    #[arg(long, visible_alias = "white-collapse", value_name = "PKG")]
    collapse: Option<PathBuf>,
    /// The opponent's `chance-collapse` model package.
    #[arg(long, value_name = "PKG")]
    black_collapse: Option<PathBuf>,
    /// The opponent's `move-prerank` model package.
    #[arg(long, value_name = "PKG")]
    black_prerank: Option<PathBuf>,
    /// Endgame tables scoring the leaves of the bot under test (a folder `dicechess
    /// tablebase build` wrote); the opponent plays without unless `--black-tablebases`.
    #[arg(long, visible_alias = "white-tablebases", value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// Endgame tables for the opponent.
    #[arg(long, value_name = "DIR")]
    black_tablebases: Option<PathBuf>,
    /// The bot under test's candidate limit (expectimax bots) [default: the bot's].
    #[arg(long, value_name = "K")]
    white_candidates: Option<usize>,
    /// The opponent's candidate limit [default: the bot's].
    #[arg(long, value_name = "K")]
    black_candidates: Option<usize>,
    /// The bot under test's selective depth 3 (`--d3-replies`, `--d3-candidates`).
    #[command(flatten)]
    white_depth3: Depth3Args,
    /// The opponent's selective depth 3.
    #[command(flatten)]
    black_depth3: BlackDepth3,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Keep finished pairs in this JSON-lines journal; rerunning with the same file and the
    /// same match settings resumes where the match stopped (a gauntlet and several time
    /// controls share one file: each line names its match).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Also write the report(s) as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// The opponent's depth-3 flags: `--black-d3-replies`, `--black-d3-candidates`,
/// `--black-d3-widest`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
struct BlackDepth3 {
    /// The opponent's selective depth 3: replies per roll class (0: every reply).
    #[arg(long, value_name = "N")]
    black_d3_replies: Option<usize>,
    /// The opponent's depth-2 candidates searched at depth 3 (0: off).
    #[arg(long, value_name = "K")]
    black_d3_candidates: Option<usize>,
    /// The most replies per roll class the opponent widens its selective depth 3 to.
    #[arg(long, value_name = "N")]
    black_d3_widest: Option<usize>,
}

impl BlackDepth3 {
    /// The flags as the shared type.
    fn args(&self) -> Depth3Args {
        Depth3Args {
            d3_replies: self.black_d3_replies,
            d3_candidates: self.black_d3_candidates,
            d3_widest: self.black_d3_widest,
        }
    }
}

/// `--games` of a match.
const MATCH_PAIRS: u64 = 100;
/// `--seed` of a match.
const MATCH_SEED: u64 = 1;

/// Play the match (or gauntlet) and print the table.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let start = Position::from_dfen(&args.dfen)?;
    let sprt = match &args.sprt {
        Some(t) => Some(SprtParams::parse(t).map_err(|e| CliError::Input(e.to_string()))?),
        None => None,
    };
    let times: Vec<(String, TimeControl)> = match (&args.tc, args.move_ms) {
        (Some(tc), _) => tc
            .split(',')
            .map(|t| {
                TimeControl::parse_tc(t.trim())
                    .map(|c| (t.trim().to_owned(), c))
                    .map_err(|e| CliError::Input(e.to_string()))
            })
            .collect::<Result<_, _>>()?,
        (None, Some(0)) => return Err(CliError::Input("--move-ms must be positive".into())),
        (None, Some(ms)) => vec![(format!("{ms} ms/move"), TimeControl::PerMove { ms })],
        (None, None) => vec![("untimed".to_owned(), TimeControl::Untimed)],
    };
    let config_at = |time: TimeControl| ArenaConfig {
        start,
        pairs: args.games.unwrap_or(MATCH_PAIRS),
        run_seed: args.seed.unwrap_or(MATCH_SEED),
        limits: GameLimits {
            halfmove: args.halfmove_limit,
            turns: args.turn_limit,
        },
        sprt,
        report_sprt: SprtParams::default(),
        time,
    };
    let options = BotOptions {
        model: args.model.clone(),
        table_mb: Some(args.table_mb),
        ..BotOptions::default()
    };
    let white = Side {
        model: args.white_model.as_ref(),
        prerank: args.prerank.as_ref(),
        collapse: args.collapse.as_ref(),
        candidates: args.white_candidates,
        tablebases: super::tablebase::for_bots(args.tablebases.as_deref())?,
        depth3: args.white_depth3,
    };
    let black = Side {
        model: args.black_model.as_ref(),
        prerank: args.black_prerank.as_ref(),
        collapse: args.black_collapse.as_ref(),
        candidates: args.black_candidates,
        tablebases: super::tablebase::for_bots(args.black_tablebases.as_deref())?,
        depth3: args.black_depth3.args(),
    };
    let white_options = white.options(&options)?;
    let black_options = black.options(&options)?;
    // A webhook URL is a bot too: its deliveries are signed with DICECHESS_WEBHOOK_SECRET.
    for id in [&args.white, &args.black].into_iter().chain(&args.exclude) {
        BotId::parse(id).map_err(|e| CliError::Input(e.to_string()))?;
    }
    let firsts: Vec<String> = if args.gauntlet {
        BOT_IDS
            .iter()
            .filter(|id| **id != "expectimax-model" || white_options.model.is_some())
            .filter(|id| !args.exclude.iter().any(|e| e.eq_ignore_ascii_case(id)))
            .map(|id| id.to_string())
            .collect()
    } else {
        vec![args.white.clone()]
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Other(e.into()))?;
    let black_label = black.label(&args.black, true);
    let second = arena_bot(&args.black, &black_label, black_options.clone())?;
    if let Some(path) = &args.suite {
        let label = white.label(&args.white, false);
        let run = super::arena_suite::SuiteRun {
            path,
            candidate: arena_bot(&args.white, &label, white_options.clone())?,
            baseline: second,
            move_ms: args.move_ms,
            limits: GameLimits {
                halfmove: args.halfmove_limit,
                turns: args.turn_limit,
            },
            games: args.games,
            seed: args.seed,
            category: args.category.as_deref(),
            json: args.json.as_ref(),
            quiet: args.quiet,
        };
        return super::arena_suite::run(run, &pool, out);
    }
    let mut reports: Vec<ArenaReport> = Vec::new();
    let mut tables = String::new();
    for (tc_name, time) in &times {
        let config = config_at(*time);
        let from = reports.len();
        for id in &firsts {
            let label = white.label(id, false);
            let first = arena_bot(id, &label, white_options.clone())?;
            let bar = if args.quiet {
                ProgressBar::hidden()
            } else {
                ProgressBar::with_draw_target(
                    Some(args.games.unwrap_or(MATCH_PAIRS)),
                    ProgressDrawTarget::stderr(),
                )
            };
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} pairs {msg}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(format!("{id} vs {} ({tc_name})", args.black));
            let journal = match &args.resume {
                Some(path) => {
                    let key = match_key(
                        &label,
                        &white_options,
                        &black_label,
                        &black_options,
                        &args,
                        time,
                    );
                    let journal = ArenaJournal::open(path, &key)
                        .map_err(|e| CliError::Input(e.to_string()))?;
                    if !journal.is_empty() && !args.quiet {
                        eprintln!(
                            "arena: {} finished pair(s) of {label} vs {black_label} ({tc_name}) taken from {}",
                            journal.len(),
                            path.display()
                        );
                    }
                    Some(journal)
                }
                None => None,
            };
            let report = pool
                .install(|| {
                    let progress = |n| bar.set_position(n);
                    match journal {
                        Some(mut j) => {
                            run_match_journaled(&first, &second, &config, &mut j, &progress)
                        }
                        None => run_match(&first, &second, &config, &progress),
                    }
                })
                .map_err(|e| match e {
                    dicechess::selfplay::ArenaError::Bot(b) => CliError::Input(b.to_string()),
                    other => CliError::Other(other.into()),
                })?;
            bar.finish_and_clear();
            reports.push(report);
        }
        if times.len() > 1 {
            tables.push_str(&format!("time control {tc_name}:\n"));
        }
        tables.push_str(&format_table(&reports[from..]));
    }
    if let Some(path) = &args.json {
        // One report as an object (as before); a gauntlet or several time controls as an
        // array, time control by time control.
        let body = if args.gauntlet || times.len() > 1 {
            serde_json::to_string_pretty(&reports)
        } else {
            serde_json::to_string_pretty(&reports[0])
        }
        .map_err(|e| CliError::Other(e.into()))?;
        std::fs::write(path, body + "\n").map_err(|e| {
            CliError::Other(anyhow::Error::new(e).context(format!("writing {}", path.display())))
        })?;
    }
    write!(out, "{tables}")?;
    Ok(())
}

/// The journal key of one match: everything that decides its pairs' outcomes (the bots
/// with their options, the start, the seed, the game limits, the time control, the
/// engine), and not what only decides when it stops (the pair count, the SPRT).
fn match_key(
    white: &str,
    white_options: &BotOptions,
    black: &str,
    black_options: &BotOptions,
    args: &Args,
    time: &TimeControl,
) -> String {
    serde_json::json!({
        "bot": white,
        "botOptions": format!("{white_options:?}"),
        "opponent": black,
        "opponentOptions": format!("{black_options:?}"),
        "start": args.dfen,
        "seed": args.seed.unwrap_or(MATCH_SEED),
        "halfmoveLimit": args.halfmove_limit,
        "turnLimit": args.turn_limit,
        "timeControl": time,
        "engine": dicechess::ENGINE_VERSION,
    })
    .to_string()
}

/// One side's own flags (`--white-…` or `--black-…`).
struct Side<'a> {
    model: Option<&'a PathBuf>,
    prerank: Option<&'a PathBuf>,
    collapse: Option<&'a PathBuf>,
    candidates: Option<usize>,
    tablebases: Option<std::sync::Arc<dicechess::tablebase::Tablebases>>,
    /// The side's depth-3 flags.
    depth3: Depth3Args,
}

impl Side<'_> {
    /// The shared options with this side's model, pre-ranker, collapse model and candidate
    /// limit where given.
    fn options(&self, shared: &BotOptions) -> Result<BotOptions, CliError> {
        if self.candidates == Some(0) {
            return Err(CliError::Input(
                "--white-candidates / --black-candidates must be at least 1".into(),
            ));
        }
        let options = BotOptions {
            model: self.model.or(shared.model.as_ref()).cloned(),
            prerank: self.prerank.cloned(),
            collapse: self.collapse.cloned(),
            candidate_limit: self.candidates.or(shared.candidate_limit),
            tablebases: self.tablebases.clone(),
            ..shared.clone()
        };
        Ok(self.depth3.apply(options))
    }

    /// The id a report shows for the side: the bot's id with what the per-side flags change
    /// (`expectimax-model[model=gen2,k=24]`), so that two sides of one id stay apart. The
    /// flags that predate them (`--model` for both sides, `--prerank` for the bot under
    /// test) leave the id as it was; `with_prerank` says whether this side's pre-ranker is
    /// one of the new flags.
    fn label(&self, id: &str, with_prerank: bool) -> String {
        let name = |p: &PathBuf| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string())
        };
        let mut parts = Vec::new();
        if let Some(m) = self.model {
            parts.push(format!("model={}", name(m)));
        }
        if let Some(p) = self.prerank.filter(|_| with_prerank) {
            parts.push(format!("prerank={}", name(p)));
        }
        if let Some(c) = self.collapse {
            parts.push(format!("collapse={}", name(c)));
        }
        if let Some(k) = self.candidates {
            parts.push(format!("k={k}"));
        }
        if self.tablebases.is_some() {
            parts.push("tables".to_owned());
        }
        parts.extend(self.depth3.label());
        if parts.is_empty() {
            id.to_owned()
        } else {
            format!("{id}[{}]", parts.join(","))
        }
    }
}

/// The arena's bot `id` (checked by [`BotId::parse`]): a registry bot, or a webhook URL
/// whose deliveries are signed with the shared secret in `DICECHESS_WEBHOOK_SECRET`, read
/// here (the library reads no environment).
fn arena_bot(id: &str, label: &str, options: BotOptions) -> Result<ArenaBot, CliError> {
    match BotId::parse(id).map_err(|e| CliError::Input(e.to_string()))? {
        BotId::Registered(id) => {
            // Refuse a missing or broken model package before the match starts.
            dicechess::bots::bot_by_id(&id, &options)
                .map_err(|e| CliError::Input(format!("{label}: {e}")))?;
            Ok(ArenaBot::with_builder(label, move || {
                dicechess::bots::bot_by_id(&id, &options)
            }))
        }
        BotId::Webhook(url) => webhook_bot(&url),
    }
}

#[cfg(feature = "serve")]
fn webhook_bot(url: &str) -> Result<ArenaBot, CliError> {
    use dicechess::bots::{Bot, BotBuildError};
    use dicechess::serve::WebhookBot;
    let secret = std::env::var("DICECHESS_WEBHOOK_SECRET").unwrap_or_default();
    let build = {
        let url = url.to_owned();
        move || {
            WebhookBot::new(&url, secret.as_bytes())
                .map(|b| Box::new(b) as Box<dyn Bot>)
                .map_err(|e| BotBuildError::Webhook(Box::new(e)))
        }
    };
    // Refuse a bad URL or secret before the match starts.
    build().map_err(|e| CliError::Input(e.to_string()))?;
    Ok(ArenaBot::with_builder(url, build))
}

#[cfg(not(feature = "serve"))]
fn webhook_bot(url: &str) -> Result<ArenaBot, CliError> {
    Err(CliError::Input(format!(
        "{url}: this build has no webhook support (feature `serve`)"
    )))
}
