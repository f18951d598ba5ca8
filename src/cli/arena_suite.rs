//! `dicechess arena --suite FILE`: a scenario or endgame suite (docs/suites.md) run by the
//! bot under test (`--white`, alias `--bot`) and the baseline (`--black`, alias
//! `--baseline`); the table on standard output, the JSON report to `--json` (atomically).

use super::CliError;
use dicechess::selfplay::{
    format_endgame_report, format_scenario_report, load_suite, run_endgames, run_scenarios,
    ArenaBot, ArenaError, GameLimits, Suite, TimeControl,
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
        Suite::Endgames(s) => {
            let runs = (s.endgames.len() * s.seed_set.values.len()) as u64;
            let bar = bar(
                run.quiet,
                runs,
                "endgame pairs",
                format!("{who} on {}", s.id),
            );
            let time = match run.move_ms {
                Some(ms) => TimeControl::PerMove { ms },
                None => TimeControl::Untimed,
            };
            let report = pool
                .install(|| {
                    run_endgames(s, &run.candidate, &run.baseline, run.limits, time, &|n| {
                        bar.set_position(n)
                    })
                })
                .map_err(arena_error)?;
            bar.finish_and_clear();
            (
                format_endgame_report(&report),
                serde_json::to_string_pretty(&report),
            )
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
