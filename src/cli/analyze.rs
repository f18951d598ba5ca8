//! `dicechess analyze`: every turn of finished games rated against the best turn of its roll,
//! every roll against the average roll (docs/analysis.md); per-turn JSON lines, an HTML
//! report, per-player summaries; all cores, a progress bar, resumable.

use super::eval_progress::note;
use super::CliError;
use dicechess::analysis::{
    report_html, AnalysisConfig, Analyzer, Game, GameAnalysis, ANALYSIS_BOTS,
};
use dicechess::files::{lock_dir, write_bytes, AtomicFile};
use dicechess::selfplay::{game_texts, GameTextError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game files or folders of them (`*.jsonl`, `*.json` but a self-play `manifest.json`):
    /// our `games.jsonl` records or the play server's game history JSON (one document, an
    /// array, or one per line); `-` for standard input.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The bot whose leaf evaluator values the turns (best, best-v1, expectimax).
    #[arg(long, default_value = "best")]
    bot: String,
    /// 1: a turn is worth its afterstate's leaf; 2: every opponent roll and its best reply.
    #[arg(long, default_value_t = 2, conflicts_with = "time_ms")]
    depth: u8,
    /// Depth 2 within this many milliseconds a turn (its best depth-1 turns first; the
    /// played one always): faster, but no longer the same on every machine.
    #[arg(long)]
    time_ms: Option<u64>,
    /// The HTML report (one self-contained file).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The per-turn records as JSON lines (`-`: standard output).
    #[arg(long)]
    json: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Discard the finished games of an interrupted run instead of resuming.
    #[arg(long)]
    restart: bool,
}

/// Everything the finished games of a run depend on (`<output>.parts/run.json`).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunRecord {
    format: String,
    inputs_sha256: String,
    games: usize,
    evaluator: String,
    depth: u8,
    time_ms: Option<u64>,
    engine_version: String,
}

const RUN_FORMAT: &str = "dicechess-analyze-parts-1";

/// A game read from the input, or why it could not be.
struct Input {
    /// `file:line` (or `file:#index` in a document).
    place: String,
    game: Result<Game, String>,
}

/// Analyse the games; exit status 1 when some game could not be analysed (after writing the
/// others), 2 when an input or argument is wrong.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let config = AnalysisConfig {
        depth: if args.time_ms.is_some() {
            2
        } else {
            args.depth
        },
        time_ms: args.time_ms,
    };
    let analyzer = Analyzer::for_bot(&args.bot, config)
        .map_err(|e| CliError::Input(format!("{e} (--bot takes {})", ANALYSIS_BOTS.join(", "))))?;
    let (inputs, digest) = read_inputs(&args.games)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Other(e.into()))?;
    // The finished games are kept beside the first file output, so a rerun resumes.
    let parts_for = args
        .json
        .as_ref()
        .filter(|p| p.as_os_str() != "-")
        .or(args.out.as_ref())
        .map(|p| {
            let mut name = p.as_os_str().to_owned();
            name.push(".parts");
            PathBuf::from(name)
        });
    let record = RunRecord {
        format: RUN_FORMAT.into(),
        inputs_sha256: digest,
        games: inputs.len(),
        evaluator: analyzer.evaluator_id(),
        depth: config.depth,
        time_ms: config.time_ms,
        engine_version: dicechess::ENGINE_VERSION.into(),
    };
    let parts = match &parts_for {
        Some(dir) => Some(Parts::open(dir, &record, args.restart)?),
        None => None,
    };
    let mut results: Vec<Option<Result<GameAnalysis, String>>> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| match &input.game {
            Err(m) => Some(Err(m.clone())),
            Ok(_) => parts.as_ref().and_then(|p| p.finished(i)).map(Ok),
        })
        .collect();
    let pending: Vec<usize> = (0..inputs.len())
        .filter(|&i| results[i].is_none())
        .collect();
    let kept = results.iter().filter(|r| matches!(r, Some(Ok(_)))).count();
    if let (Some(dir), true) = (&parts_for, kept > 0) {
        note!(
            "resuming: {kept} of {} games already analysed in {}",
            inputs.len(),
            dir.display()
        );
    }
    let turns: u64 = pending
        .iter()
        .filter_map(|&i| inputs[i].game.as_ref().ok())
        .map(|g| g.turns.len() as u64)
        .sum();
    let bar = progress_bar(turns);
    // The first part that could not be written (a full disk, say) is the run's error.
    let write_failed: Mutex<Option<String>> = Mutex::new(None);
    let fresh: Vec<(usize, Result<GameAnalysis, String>)> = pool.install(|| {
        pending
            .par_iter()
            .map(|&i| {
                let game = inputs[i].game.as_ref().expect("pending games were read");
                let a = analyzer
                    .analyze_game(game, &|| bar.inc(1))
                    .map_err(|e| e.to_string());
                if let (Ok(a), Some(p)) = (&a, &parts) {
                    if let Err(e) = p.write(i, a) {
                        if let Ok(mut first) = write_failed.lock() {
                            first.get_or_insert(e.message());
                        }
                    }
                }
                (i, a)
            })
            .collect()
    });
    bar.finish_and_clear();
    if let Some(first) = write_failed.into_inner().ok().flatten() {
        return Err(CliError::Other(anyhow::anyhow!(
            "{first} (the games finished before it are kept for a rerun)"
        )));
    }
    for (i, a) in fresh {
        results[i] = Some(a);
    }
    let mut analysed: Vec<GameAnalysis> = Vec::new();
    let mut failed = 0usize;
    for (input, r) in inputs.iter().zip(results) {
        match r.expect("every game has a result") {
            Ok(a) => analysed.push(a),
            Err(m) => {
                failed += 1;
                note!("{}: {m}", input.place);
            }
        }
    }
    if let Some(path) = &args.json {
        write_json(path, &analysed, out)?;
    }
    if let Some(path) = &args.out {
        write_file(path, report_html(&analysed).as_bytes())?;
    }
    let to_stdout = args.json.as_ref().is_some_and(|p| p.as_os_str() == "-");
    for a in &analysed {
        let line = serde_json::json!({"gameId": a.game_id, "white": a.white, "black": a.black});
        if to_stdout {
            note!("{line}");
        } else {
            writeln!(out, "{line}")?;
        }
    }
    if let Some(p) = parts {
        p.remove()?;
    }
    let turns: usize = analysed.iter().map(|a| a.turns.len()).sum();
    note!(
        "{} games analysed ({turns} turns), {failed} could not be",
        analysed.len()
    );
    if failed > 0 {
        out.flush()?;
        return Err(CliError::Other(anyhow::anyhow!(
            "{failed} of {} games could not be analysed",
            inputs.len()
        )));
    }
    Ok(())
}

/// Every game of every input, in order, with the SHA-256 of their texts (the run's
/// identity for a resume).
fn read_inputs(paths: &[PathBuf]) -> Result<(Vec<Input>, String), CliError> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| CliError::Input(format!("cannot read {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                // A self-play folder's manifest is not a game.
                .filter(|f| {
                    f.is_file()
                        && f.extension().is_some_and(|x| x == "jsonl" || x == "json")
                        && f.file_name().is_some_and(|n| n != "manifest.json")
                })
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(CliError::Input(format!(
                    "{}: no *.jsonl or *.json game files in the folder",
                    p.display()
                )));
            }
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    let mut hasher = Sha256::new();
    let mut inputs = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let reader: Box<dyn std::io::Read> = if f.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(
                std::fs::File::open(f)
                    .map_err(|e| CliError::Input(format!("cannot read {name}: {e}")))?,
            )
        };
        for text in game_texts(BufReader::new(reader)) {
            match text {
                Ok(t) => {
                    hasher.update(t.text.as_bytes());
                    hasher.update(b"\n");
                    inputs.push(Input {
                        place: format!("{name}:{}", t.place),
                        game: Game::from_json(&t.text).map_err(|e| e.to_string()),
                    });
                }
                Err(e @ GameTextError::Read { .. }) => {
                    return Err(CliError::Input(format!("cannot read {name}: {e}")))
                }
                Err(e) => inputs.push(Input {
                    place: name.clone(),
                    game: Err(e.to_string()),
                }),
            }
        }
    }
    Ok((inputs, format!("{:x}", hasher.finalize())))
}

fn progress_bar(turns: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(turns), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {elapsed_precise} [{wide_bar}] {pos}/{len} turns, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The turn records, one JSON line each, games in input order.
fn write_json(path: &Path, games: &[GameAnalysis], out: &mut impl Write) -> Result<(), CliError> {
    let mut text = String::new();
    for g in games {
        for t in &g.turns {
            text.push_str(&serde_json::to_string(t).map_err(|e| CliError::Other(e.into()))?);
            text.push('\n');
        }
    }
    if path.as_os_str() == "-" {
        out.write_all(text.as_bytes())?;
        Ok(())
    } else {
        write_file(path, text.as_bytes())
    }
}

/// Write `bytes` to `path` under a temporary name, then rename.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let mut f = AtomicFile::create(path).map_err(|e| file_error(path, e))?;
    f.writer()
        .write_all(bytes)
        .map_err(|e| file_error(path, e))?;
    f.commit().map_err(|e| file_error(path, e))
}

fn file_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::Other(anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// The finished games of a run: `game-NNNNNNNN.json` (a game's analysis, written
/// atomically) in `<output>.parts/`, next to `run.json`; locked while the run lasts.
struct Parts {
    dir: PathBuf,
    _lock: dicechess::files::DirLock,
}

impl Parts {
    fn open(dir: &Path, record: &RunRecord, restart: bool) -> Result<Parts, CliError> {
        let fresh = !dir.is_dir();
        std::fs::create_dir_all(dir).map_err(|e| file_error(dir, e))?;
        let lock = lock_dir(dir).map_err(|e| CliError::Other(anyhow::anyhow!("{e}")))?;
        let rec_path = dir.join("run.json");
        let parts = Parts {
            dir: dir.to_owned(),
            _lock: lock,
        };
        if !fresh && !restart {
            match std::fs::read(&rec_path)
                .ok()
                .and_then(|b| serde_json::from_slice::<RunRecord>(&b).ok())
            {
                Some(old) if old == *record => return Ok(parts),
                Some(old) => {
                    return Err(CliError::Input(format!(
                        "{} holds the finished games of another run ({}); rerun with --restart \
                         to discard them",
                        dir.display(),
                        difference(&old, record)
                    )))
                }
                None if parts.game_files().is_empty() => {}
                None => {
                    return Err(CliError::Input(format!(
                        "{} has finished games but no readable run.json; rerun with --restart",
                        dir.display()
                    )))
                }
            }
        }
        for f in parts.game_files() {
            std::fs::remove_file(&f).map_err(|e| file_error(&f, e))?;
        }
        let text = serde_json::to_string_pretty(record).map_err(|e| CliError::Other(e.into()))?;
        write_bytes(&rec_path, text.as_bytes()).map_err(|e| file_error(&rec_path, e))?;
        Ok(parts)
    }

    fn path(&self, index: usize) -> PathBuf {
        self.dir.join(format!("game-{index:08}.json"))
    }

    fn game_files(&self) -> Vec<PathBuf> {
        std::fs::read_dir(&self.dir)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("game-"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Game `index`'s analysis when a finished one is kept (an unreadable one is redone).
    fn finished(&self, index: usize) -> Option<GameAnalysis> {
        let bytes = std::fs::read(self.path(index)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    fn write(&self, index: usize, a: &GameAnalysis) -> Result<(), CliError> {
        let path = self.path(index);
        let text = serde_json::to_vec(a).map_err(|e| CliError::Other(e.into()))?;
        write_bytes(&path, &text).map_err(|e| file_error(&path, e))
    }

    /// Remove the folder once the outputs are written: the games first, the record last
    /// (a removal cut short leaves a folder a rerun resumes from).
    fn remove(self) -> Result<(), CliError> {
        for f in self.game_files() {
            std::fs::remove_file(&f).map_err(|e| file_error(&f, e))?;
        }
        let rec = self.dir.join("run.json");
        let _ = std::fs::remove_file(&rec);
        std::fs::remove_dir_all(&self.dir).map_err(|e| file_error(&self.dir, e))
    }
}

/// The first setting in which two run records differ.
fn difference(old: &RunRecord, now: &RunRecord) -> String {
    let (a, b) = (
        serde_json::to_value(old).unwrap_or_default(),
        serde_json::to_value(now).unwrap_or_default(),
    );
    a.as_object()
        .and_then(|a| {
            a.iter().find_map(|(k, va)| {
                let vb = &b[k];
                (va != vb).then(|| format!("{k} was {va}, now {vb}"))
            })
        })
        .unwrap_or_else(|| "unknown".into())
}
