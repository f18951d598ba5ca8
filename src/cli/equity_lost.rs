//! `dicechess equity-lost`: the opponent-independent measure (docs/analysis.md, "Equity lost
//! against a deeper teacher"). `build` draws rolled decisions from games and has the teacher
//! value them; `score` plays every decision with a bot and reports the equity it gave away.
//! Both show progress and resume after a kill.

use super::eval_progress::note;
use super::CliError;
use dicechess::analysis::{
    draw_decisions, play_and_judge, summarize_losses, AnalysisError, BenchDecision, DecisionSet,
    EquityLostSummary, Judged, SetHeader, Teacher, DEFAULT_SHORTLIST, SET_FORMAT,
};
use dicechess::board::Position;
use dicechess::bots::bot_by_id;
use dicechess::digest::sha256_hex;
use dicechess::files::{write_bytes, PositionReader, ResumeLog};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Arguments of `equity-lost`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Draw decisions from rolled positions and have the teacher value them into a set file
    /// (resumable: `<out>.log` keeps the finished decisions until the set is written).
    Build(BuildArgs),
    /// Play every decision of a set with a bot and report the equity it gave away.
    Score(Box<ScoreArgs>),
    /// Compare runs (`score --json` files) on the decisions all of them judged, against the
    /// best turn any of them knows, each paired with the first.
    Compare(super::equity_compare::CompareArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Rolled positions: files of DFEN lines with dice, Parquet files with a `dfen` column,
    /// or self-play training shards (`rows.parquet`, whose rows carry their dice), read in
    /// the order given.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// The set file to write.
    #[arg(long)]
    out: PathBuf,
    /// Decisions to draw (positions with a single distinct turn are not decisions).
    #[arg(long, default_value_t = 2000)]
    decisions: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Turns per decision the teacher values at depth 3 (the best by depth 2).
    #[arg(long, default_value_t = DEFAULT_SHORTLIST)]
    shortlist: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct ScoreArgs {
    /// The set file (`suites/decisions-v1.jsonl`).
    set: PathBuf,
    /// The bot (see `dicechess bots`).
    #[arg(long, default_value = "best")]
    bot: String,
    /// Think at most this long per decision; decisions then run one at a time on every
    /// worker, as in a game. Without it they run side by side, one per worker.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    bot_flags: super::bot_flags::BotFlags,
    /// Seed for tie-breaks and sampling (decision i is seeded by it and i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Keep each judged decision in this file, so that a rerun resumes (a file of another
    /// run is refused).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Keep the teacher's values of off-list turns in this file and reuse them: bots that
    /// choose the same turn (and reruns) pay for its depth-3 value once.
    #[arg(long, value_name = "FILE")]
    teacher_cache: Option<PathBuf>,
    /// Write the summary and every judged decision as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Only the first N decisions (a quick look; the report says so).
    #[arg(long)]
    limit: Option<usize>,
}

/// Run `equity-lost`.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    match args.action {
        Action::Build(a) => build(a, out),
        Action::Score(a) => score(*a, out),
        Action::Compare(a) => super::equity_compare::run(a, out),
    }
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Other(e.into()))
}

fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{spinner}} {{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what}, ETA {{eta}}"
    )) {
        bar.set_style(style);
    }
    bar
}

fn log_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".log");
    PathBuf::from(name)
}

fn other(e: impl Into<anyhow::Error>) -> CliError {
    CliError::Other(e.into())
}

/// Read every rolled position of the input, with the input's digest (hashed as a stream,
/// not held whole beside the positions).
fn read_rolled(input: &str) -> Result<(Vec<Position>, String), CliError> {
    let (_, digest) = dicechess::files::fingerprint(Path::new(input))
        .map_err(|e| CliError::Input(format!("{input}: {e}")))?;
    let mut reader =
        PositionReader::open(input, 4096).map_err(|e| CliError::Input(e.to_string()))?;
    let mut positions = Vec::new();
    while let Some(chunk) = reader
        .next_chunk()
        .map_err(|e| CliError::Input(e.to_string()))?
    {
        if let Some(bad) = chunk.bad.first() {
            return Err(CliError::Input(bad.to_string()));
        }
        positions.extend(chunk.positions);
    }
    if let Some(i) = positions.iter().position(|p| p.dice().is_empty()) {
        return Err(CliError::Input(format!(
            "{input}: record {} has no dice: a decision is a rolled position",
            i + 1
        )));
    }
    Ok((positions, digest))
}

fn build(args: BuildArgs, out: &mut impl Write) -> Result<(), CliError> {
    if args.shortlist == 0 {
        return Err(CliError::Input("--shortlist: at least 1".into()));
    }
    let mut positions = Vec::new();
    let mut sources = Vec::new();
    for input in &args.inputs {
        let (mut more, digest) = read_rolled(input)?;
        positions.append(&mut more);
        let name = Path::new(input)
            .file_name()
            .map_or(input.clone(), |n| n.to_string_lossy().into_owned());
        sources.push(format!("{name} sha256:{digest}"));
    }
    let pool = pool(args.threads)?;
    let drawn = pool.install(|| draw_decisions(&positions, args.decisions, args.seed));
    if drawn.len() < args.decisions {
        note!(
            "only {} of the {} positions are decisions; the set holds them all",
            drawn.len(),
            positions.len()
        );
    }
    let teacher = Teacher::dice_aware();
    let header = SetHeader {
        format: SET_FORMAT.into(),
        teacher: teacher.id(),
        shortlist: args.shortlist,
        source: sources.join(", "),
        seed: args.seed,
        decisions: drawn.len(),
        engine_version: dicechess::ENGINE_VERSION.into(),
    };
    let header_line = serde_json::to_string(&header).map_err(other)?;
    let log_file = log_path(&args.out);
    let (log, records) =
        ResumeLog::open(&log_file, &header_line).map_err(|e| CliError::Input(e.to_string()))?;
    let mut done: BTreeMap<usize, BenchDecision> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let d: BenchDecision = serde_json::from_str(r).map_err(|e| {
            CliError::Input(format!("{}: record {}: {e}", log_file.display(), i + 1))
        })?;
        done.insert(d.index, d);
    }
    if !done.is_empty() {
        note!(
            "resuming: {} of {} decisions already valued in {}",
            done.len(),
            drawn.len(),
            log_file.display()
        );
    }
    let pending: Vec<usize> = (0..drawn.len()).filter(|i| !done.contains_key(i)).collect();
    let progress = bar(drawn.len() as u64, "decisions");
    progress.set_position(done.len() as u64);
    let log = Mutex::new(log);
    let fresh: Vec<Result<BenchDecision, String>> = pool.install(|| {
        pending
            .par_iter()
            .map(|&i| {
                let pos = &positions[drawn[i]];
                let d = teacher
                    .decision(i, pos, args.shortlist)
                    .map_err(|e| format!("{}: {e}", pos.to_dfen()))?
                    .ok_or_else(|| format!("{}: a forced turn was drawn", pos.to_dfen()))?;
                let line = serde_json::to_string(&d).map_err(|e| e.to_string())?;
                log.lock()
                    .map_err(|_| "the log's lock is poisoned".to_string())?
                    .append(&line)
                    .map_err(|e| e.to_string())?;
                progress.inc(1);
                Ok(d)
            })
            .collect()
    });
    progress.finish_and_clear();
    for d in fresh {
        let d = d.map_err(|e| {
            other(anyhow::anyhow!(
                "{e} (the decisions finished before it are kept in {})",
                log_file.display()
            ))
        })?;
        done.insert(d.index, d);
    }
    let set = DecisionSet {
        header,
        decisions: done.into_values().collect(),
    };
    let text = set.to_text().map_err(other)?;
    // Read back what is written: the file a user gets is the file `score` accepts.
    DecisionSet::parse(&text).map_err(other)?;
    write_bytes(&args.out, text.as_bytes()).map_err(other)?;
    drop(log);
    std::fs::remove_file(&log_file).map_err(other)?;
    writeln!(
        out,
        "equity-lost build: {} decisions from {} positions written to {}",
        set.decisions.len(),
        positions.len(),
        args.out.display()
    )?;
    Ok(())
}

fn score(args: ScoreArgs, out: &mut impl Write) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.set)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.set.display())))?;
    let set = DecisionSet::parse(&text)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.set.display())))?;
    let teacher = Teacher::dice_aware();
    if set.header.teacher != teacher.id() {
        return Err(CliError::Input(format!(
            "{}: its teacher is {:?}, this engine's is {:?}",
            args.set.display(),
            set.header.teacher,
            teacher.id()
        )));
    }
    let flags = format!("{:?}", args.bot_flags);
    let options = args.bot_flags.options()?;
    let bot = bot_by_id(&args.bot, &options).map_err(|e| CliError::Input(format!("--bot: {e}")))?;
    let decisions = &set.decisions[..args.limit.unwrap_or(usize::MAX).min(set.decisions.len())];
    let mut done: BTreeMap<usize, Judged> = BTreeMap::new();
    let mut log = match &args.log {
        None => None,
        Some(path) => {
            let header = serde_json::json!({
                "format": "dicechess-equity-lost-log-1",
                "setSha256": sha256_hex(text.as_bytes()),
                "bot": args.bot,
                "flags": flags,
                "timeMs": args.time_ms,
                "seed": args.seed,
                "engineVersion": dicechess::ENGINE_VERSION,
            })
            .to_string();
            let (log, records) =
                ResumeLog::open(path, &header).map_err(|e| CliError::Input(e.to_string()))?;
            for (i, r) in records.iter().enumerate() {
                let j: Judged = serde_json::from_str(r).map_err(|e| {
                    CliError::Input(format!("{}: record {}: {e}", path.display(), i + 1))
                })?;
                done.insert(j.index, j);
            }
            if !done.is_empty() {
                note!(
                    "resuming: {} decisions already judged in {}",
                    done.len(),
                    path.display()
                );
            }
            Some(log)
        }
    };
    let cache = TeacherCache::open(args.teacher_cache.as_deref(), &teacher)?;
    let pending: Vec<&BenchDecision> = decisions
        .iter()
        .filter(|d| !done.contains_key(&d.index))
        .collect();
    let progress = bar(decisions.len() as u64, "decisions");
    progress.set_position((decisions.len() - pending.len()) as u64);
    let pool = pool(args.threads)?;
    let judge_one = |d: &BenchDecision| -> Result<Judged, CliError> {
        play_and_judge(bot.as_ref(), d, args.time_ms, args.seed, |a| {
            cache.value(a, &teacher)
        })
        .map_err(|e| other(anyhow::anyhow!("decision {}: {e}", d.index)))
    };
    let record = |j: &Judged, log: &mut Option<ResumeLog>| -> Result<(), CliError> {
        if let Some(log) = log {
            log.append(&serde_json::to_string(j).map_err(other)?)
                .map_err(other)?;
        }
        progress.inc(1);
        Ok(())
    };
    if args.time_ms.is_some() {
        // Timed: one decision at a time with every worker, as in a game.
        for d in pending {
            let j = pool.install(|| judge_one(d))?;
            record(&j, &mut log)?;
            done.insert(j.index, j);
        }
    } else {
        let log = Mutex::new(log);
        // In index order, a few decisions per worker at a time: what a killed run has
        // logged is (nearly) a prefix of the set, so a partial report reads the first N.
        let chunk = 4 * pool.current_num_threads().max(1);
        for batch in pending.chunks(chunk) {
            let fresh: Vec<Result<Judged, CliError>> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|d| {
                        let j = judge_one(d)?;
                        let mut guard = log
                            .lock()
                            .map_err(|_| other(anyhow::anyhow!("the log's lock is poisoned")))?;
                        record(&j, &mut guard)?;
                        Ok(j)
                    })
                    .collect()
            });
            for j in fresh {
                let j = j?;
                done.insert(j.index, j);
            }
        }
    }
    progress.finish_and_clear();
    // A log may hold decisions past `--limit` (an earlier, longer run): only the first N
    // are reported.
    let judged: Vec<Judged> = done
        .into_values()
        .filter(|j| j.index < decisions.len())
        .collect();
    let summary = summarize_losses(&judged);
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "set": args.set.display().to_string(),
            "setSha256": sha256_hex(text.as_bytes()),
            "bot": args.bot,
            "timeMs": args.time_ms,
            "summary": summary,
            "decisions": judged,
        });
        let text = serde_json::to_string_pretty(&json).map_err(other)?;
        write_bytes(path, text.as_bytes()).map_err(other)?;
    }
    report(out, &args.bot, args.time_ms, &summary, set.decisions.len())?;
    Ok(())
}

/// The teacher's depth-3 values of off-list afterstates, kept in a [`ResumeLog`] of
/// `{"after": DFEN, "depth3": value}` lines (`--teacher-cache`).
struct TeacherCache {
    known: Mutex<HashMap<u64, f64>>,
    log: Option<Mutex<ResumeLog>>,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CachedValue {
    after: String,
    depth3: f64,
}

impl TeacherCache {
    fn open(path: Option<&Path>, teacher: &Teacher) -> Result<TeacherCache, CliError> {
        let mut known = HashMap::new();
        let log = match path {
            None => None,
            Some(path) => {
                let header = serde_json::json!({
                    "format": "dicechess-teacher-cache-1",
                    "teacher": teacher.id(),
                })
                .to_string();
                let (log, records) =
                    ResumeLog::open(path, &header).map_err(|e| CliError::Input(e.to_string()))?;
                for (i, r) in records.iter().enumerate() {
                    let bad = |e: String| {
                        CliError::Input(format!("{}: record {}: {e}", path.display(), i + 1))
                    };
                    let c: CachedValue = serde_json::from_str(r).map_err(|e| bad(e.to_string()))?;
                    let after = Position::from_dfen(&c.after).map_err(|e| bad(e.to_string()))?;
                    if !(0.0..=1.0).contains(&c.depth3) {
                        return Err(bad(format!("depth3 {} is not a win probability", c.depth3)));
                    }
                    known.insert(after.key(), c.depth3);
                }
                Some(Mutex::new(log))
            }
        };
        Ok(TeacherCache {
            known: Mutex::new(known),
            log,
        })
    }

    /// The cached value of `after`, or the teacher's (then kept).
    fn value(&self, after: &Position, teacher: &Teacher) -> Result<f64, AnalysisError> {
        let poisoned = || AnalysisError::Config("the teacher cache's lock is poisoned".into());
        if let Some(&v) = self.known.lock().map_err(|_| poisoned())?.get(&after.key()) {
            return Ok(v);
        }
        let v = teacher.depth3(after)?;
        self.known
            .lock()
            .map_err(|_| poisoned())?
            .insert(after.key(), v);
        if let Some(log) = &self.log {
            let line = serde_json::to_string(&CachedValue {
                after: after.to_dfen(),
                depth3: v,
            })
            .map_err(|e| AnalysisError::Config(e.to_string()))?;
            log.lock()
                .map_err(|_| poisoned())?
                .append(&line)
                .map_err(|e| AnalysisError::Config(format!("teacher cache: {e}")))?;
        }
        Ok(v)
    }
}

fn report(
    out: &mut impl Write,
    bot: &str,
    time_ms: Option<u64>,
    s: &EquityLostSummary,
    set_size: usize,
) -> Result<(), CliError> {
    let time = time_ms.map_or("untimed".to_string(), |t| format!("{t} ms"));
    let partial = if s.all.decisions < set_size {
        format!(" (first {} of {set_size})", s.all.decisions)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{bot} ({time}): equity lost {:.2} ± {:.2} mWP per decision over {} decisions{partial}",
        s.all.milli, s.all.ci95_milli, s.all.decisions
    )?;
    for (phase, m) in &s.phases {
        writeln!(
            out,
            "  {:<10} {:>6.2} ± {:.2} mWP ({} decisions)",
            phase.name(),
            m.milli,
            m.ci95_milli,
            m.decisions
        )?;
    }
    writeln!(
        out,
        "  teacher's best chosen {:.1} %; gave away ≥ 0.02 / 0.04 / 0.08: {} / {} / {}; off the shortlist {}; think mean {:.1} ms, max {:.1} ms",
        100.0 * s.agreement,
        s.errors[0],
        s.errors[1],
        s.errors[2],
        s.off_list,
        s.mean_think_ms,
        s.max_think_ms
    )?;
    Ok(())
}
