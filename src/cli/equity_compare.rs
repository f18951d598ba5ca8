//! `dicechess equity-lost compare`: runs of the equity-lost benchmark side by side, paired
//! decision by decision against the best turn any of them knows (`analysis::compare`).

use super::eval_progress::note;
use super::CliError;
use dicechess::analysis::{compare, ScoreRun};
use dicechess::files::write_bytes;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `equity-lost compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Two or more `equity-lost score --json` files of the same set; the first is the one
    /// the others are paired with.
    #[arg(required = true, num_args = 2..)]
    runs: Vec<PathBuf>,
    /// Write the comparison as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Run `equity-lost compare`.
pub fn run(args: CompareArgs, out: &mut impl Write) -> Result<(), CliError> {
    // Two or more files: clap's `num_args = 2..` refuses fewer before this runs.
    let mut runs = Vec::with_capacity(args.runs.len());
    for path in &args.runs {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        let run = ScoreRun::parse(&text)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        if run.set_sha256.is_none() {
            note!(
                "{}: no set checksum (written before it was recorded): its decisions are \
                 matched by index and phase only",
                path.display()
            );
        }
        runs.push(run);
    }
    let c = compare(&runs).map_err(|e| CliError::Input(e.to_string()))?;
    let first = label(&runs[0]);
    writeln!(
        out,
        "{} decisions judged by every run; loss against the best turn any run knows, mWP \
         per decision (95 %)",
        c.decisions
    )?;
    writeln!(
        out,
        "{:<28} {:>16}   {:>24}   {:>9}",
        "run",
        "loss",
        format!("vs {first}, paired"),
        "same turn"
    )?;
    for (i, run) in runs.iter().enumerate() {
        let l = &c.losses[i];
        let (paired, same) = if i == 0 {
            ("–".to_string(), "–".to_string())
        } else {
            let p = &c.against_first[i];
            (
                format!("{:+.2} ± {:.2}", p.milli, p.ci95_milli),
                p.same_turn.to_string(),
            )
        };
        writeln!(
            out,
            "{:<28} {:>16}   {:>24}   {:>9}",
            label(run),
            format!("{:.2} ± {:.2}", l.milli, l.ci95_milli),
            paired,
            same
        )?;
    }
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "runs": runs.iter().zip(&args.runs).map(|(r, p)| serde_json::json!({
                "file": p.display().to_string(),
                "bot": r.bot,
                "timeMs": r.time_ms,
            })).collect::<Vec<_>>(),
            "comparison": c,
        });
        let text = serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.into()))?;
        write_bytes(path, text.as_bytes()).map_err(|e| CliError::Other(e.into()))?;
    }
    Ok(())
}

/// `bot (200 ms)` or `bot (untimed)`.
fn label(run: &ScoreRun) -> String {
    match run.time_ms {
        Some(t) => format!("{} ({t} ms)", run.bot),
        None => format!("{} (untimed)", run.bot),
    }
}
