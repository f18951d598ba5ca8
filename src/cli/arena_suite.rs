//! `dicechess arena --suite FILE`: a scenario or endgame suite (docs/suites.md) run by the
//! bot under test (`--white`, alias `--bot`) and the baseline (`--black`, alias
//! `--baseline`); an endgame suite with `--games` per colour (5), `--seed` (42) and
//! `--category`, as the JVM's `EndgameSuiteRunner`; the table on standard output, the JSON
//! report to `--json` (atomically).

use super::CliError;
use dicechess::selfplay::{
    format_endgame_report, format_scenario_report, load_suite, run_endgames, run_scenarios,
    ArenaBot, ArenaError, EndgameSettings, GameLimits, Suite, TimeControl,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a suite run needs from the arena's flags.
pub(super) struct SuiteRun<'a> {
    /// The suite file.
    pub path: &'a Path,
    /// The bot under test.
    pub candidate: ArenaBot,
    /// The baseline.
    pub baseline: ArenaBot,
    /// `--move-ms`: each decision's think time (and the endgames' time control).
    pub move_ms: Option<u64>,
    /// The endgames' draw adjudication.
    pub limits: GameLimits,
    /// `--games`: an endgame suite's games per colour per position.
    pub games: Option<u64>,
    /// `--seed`: an endgame suite's run seed.
    pub seed: Option<u64>,
    /// `--category`: an endgame suite's category filter.
    pub category: Option<&'a str>,
    /// `--json`.
    pub json: Option<&'a PathBuf>,
    /// `--quiet`.
    pub quiet: bool,
}

fn bar(quiet: bool, len: u64, unit: &str, message: String) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
    };
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{spinner}} {{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {unit} {{msg}}"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message);
    bar
}

fn arena_error(e: ArenaError) -> CliError {
    match e {
        ArenaError::Bot(b) => CliError::Input(b.to_string()),
        other => CliError::Other(other.into()),
    }
}

/// An endgame suite's games per colour when `--games` is not given (the JVM runner's).
const ENDGAME_GAMES_PER_COLOR: u64 = 5;
/// An endgame suite's seed when `--seed` is not given (the JVM runner's).
const ENDGAME_SEED: u64 = 42;

/// Run the suite in `pool`, print its table to `out` and write its JSON report.
pub(super) fn run(
    run: SuiteRun<'_>,
    pool: &rayon::ThreadPool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let suite = load_suite(run.path).map_err(|e| CliError::Input(e.to_string()))?;
    let who = format!("{} vs {}", run.candidate.id, run.baseline.id);
    let (table, body) = match &suite {
        Suite::Scenarios(s) => {
            for (flag, given) in [
                ("--games", run.games.is_some()),
                ("--seed", run.seed.is_some()),
                ("--category", run.category.is_some()),
            ] {
                if given {
                    return Err(CliError::Input(format!(
                        "{flag} applies to endgame suites only (a scenario suite's seeds are its seedSet)"
                    )));
                }
            }
            let runs = (s.scenarios.len() * s.seed_set.values.len()) as u64;
            let bar = bar(run.quiet, runs, "runs", format!("{who} on {}", s.id));
            let think = run.move_ms.map(Duration::from_millis);
            let report = pool
                .install(|| {
                    run_scenarios(s, &run.candidate, &run.baseline, think, &|n| {
                        bar.set_position(n)
                    })
                })
                .map_err(arena_error)?;
            bar.finish_and_clear();
            (
                format_scenario_report(&report),
                serde_json::to_string_pretty(&report),
            )
        }
        Suite::Endgames(all) => {
            let filtered;
            let s = match run.category {
                Some(cat) => {
                    filtered = all.with_category(cat).ok_or_else(|| {
                        CliError::Input(format!("No positions matched category filter '{cat}'"))
                    })?;
                    &filtered
                }
                None => all,
            };
            let games_per_color = run.games.unwrap_or(ENDGAME_GAMES_PER_COLOR);
            if games_per_color == 0 {
                return Err(CliError::Input(
                    "--games must be at least 1 (games per colour per position)".into(),
                ));
            }
            let settings = EndgameSettings {
                games_per_color,
                seed: run.seed.unwrap_or(ENDGAME_SEED),
                limits: run.limits,
                time: match run.move_ms {
                    Some(ms) => TimeControl::PerMove { ms },
                    None => TimeControl::Untimed,
                },
            };
            let games = s.positions.len() as u64 * 2 * games_per_color;
            let bar = bar(run.quiet, games, "games", format!("{who} on {}", s.id));
            let report = pool
                .install(|| {
                    run_endgames(s, &run.candidate, &run.baseline, &settings, &|n| {
                        bar.set_position(n)
                    })
                })
                .map_err(arena_error)?;
            bar.finish_and_clear();
            let mut table = String::new();
            if let Some(cat) = run.category {
                table.push_str(&format!("Category filter: {cat}\n"));
            }
            table.push_str(&format_endgame_report(&report));
            (table, serde_json::to_string_pretty(&report))
        }
    };
    if let Some(path) = run.json {
        let body = body.map_err(|e| CliError::Other(e.into()))?;
        dicechess::files::write_bytes(path, (body + "\n").as_bytes()).map_err(|e| {
            CliError::Other(anyhow::Error::new(e).context(format!("writing {}", path.display())))
        })?;
    }
    write!(out, "{table}")?;
    Ok(())
}
