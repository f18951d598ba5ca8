//! `dicechess eval`: features and/or scores of many positions, to Parquet or NPY.
//!
//! Streams the input in chunks (bounded memory), extracts and scores each chunk on all cores
//! (rayon), writes each finished chunk as a part file in `OUT.parts/`, and at the end merges
//! the parts into `OUT` (temporary name + rename) and removes the folder. A rerun of an
//! interrupted command reuses the finished parts (see `dicechess::files::parts`).
//!
//! When the input is a training shard of schema v0 (docs/data-formats.md) and the output is
//! Parquet, `eval` is the training pipeline's enrichment step: the six base columns are
//! written through, followed by the features (and the score when scoring), with the
//! pipeline's footer keys and the `v0-enriched` marker.

use super::CliError;
use dicechess::batch::PositionBatch;
use dicechess::eval::features::{self, FeatureSchema, Perspective};
use dicechess::eval::{BatchEvaluator, BotEvaluator, BotTerms, EvalError, Material};
use dicechess::files::input::{InputError, PositionReader, RawChunk};
use dicechess::files::parts::{self, PartInfo, PartsDir, RunRecord, RUN_FORMAT};
use dicechess::files::shard_v0::{self, BaseRows};
use dicechess::files::{Layout, OutputError, Rows, ENGINE_VERSION};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Records per chunk (and part file) unless `--chunk-rows` says otherwise.
pub const DEFAULT_CHUNK_ROWS: usize = 65_536;

/// Feature values per chunk at most with the default chunk size (64 MiB of float32), so
/// wide schemas get smaller chunks.
const CHUNK_VALUES: usize = 1 << 24;

/// Print a line on standard error, ignoring failures (a closed stderr must not stop the run
/// or lose finished work).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Bad records reported one by one with `--skip-bad`; the rest are counted.
const REPORT_BAD: u64 = 20;

/// A built-in evaluator.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluatorName {
    /// Material in centipawns (P 100, N 300, B 300, R 500, Q 900, K 10000).
    Material,
    /// Material plus own king safety (the cautious bot).
    Cautious,
    /// The aggressive bot's terms.
    Aggressive,
}

/// Arguments of `eval`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Output columns: Parquet has `dfen` (canonical DFEN), one float32 \
    column per feature (named as in docs/features.md) and `score` when scoring, with footer \
    metadata feature_schema, engine_version, perspective and evaluator. From a training \
    shard of schema v0 (docs/data-formats.md), Parquet output carries its base columns \
    game_id, ply, fen, dice, side, result instead of `dfen`, with the pipeline's footer keys \
    (dicechess_training_schema=v0-enriched, ruleset, columns). NPY is a float32 \
    matrix [rows, features (+1)]: the feature columns in schema order, then the score. \
    Features are from the side to move's view. An interrupted run keeps its finished chunks \
    in OUT.parts/; rerunning the same command resumes from them."
)]
pub struct Args {
    /// Positions: a file of DFEN lines (blank lines and `#` comments skipped), a Parquet file
    /// with a `dfen` or `fen` string column or a training shard of schema v0, or `-` for
    /// standard input.
    input: String,
    /// Feature schema id to extract (e.g. rich-9-v1); optional when only scoring.
    #[arg(long, value_name = "ID")]
    features: Option<String>,
    /// Score with this model package (a folder with model.onnx and manifest.json); without
    /// --features, the model's own schema is extracted too.
    #[arg(long, value_name = "PKG", conflicts_with = "evaluator")]
    model: Option<PathBuf>,
    /// Score with a built-in evaluator.
    #[arg(long, value_name = "NAME")]
    evaluator: Option<EvaluatorName>,
    /// Output file: `.parquet` or `.npy`.
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
    /// Report bad input lines and go on without them (else the first one stops the run).
    #[arg(long)]
    skip_bad: bool,
    /// Records per chunk and part file [default: 65536, less for wide schemas; on resume,
    /// the interrupted run's].
    #[arg(long, value_name = "N")]
    chunk_rows: Option<usize>,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Discard finished parts of an earlier run instead of resuming from them.
    #[arg(long)]
    restart: bool,
}

/// The output format, from OUT's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Parquet,
    Npy,
}

impl Format {
    fn of(out: &Path) -> Result<Format, CliError> {
        let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext.to_ascii_lowercase().as_str() {
            "parquet" => Ok(Format::Parquet),
            "npy" => Ok(Format::Npy),
            "" => Err(CliError::Input(format!(
                "--out {}: no file extension; use .parquet or .npy",
                out.display()
            ))),
            _ => Err(CliError::Input(format!(
                "--out {}: unsupported extension .{ext}; use .parquet or .npy",
                out.display()
            ))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Npy => "npy",
        }
    }
}

/// What scores the rows.
enum Scorer {
    /// A built-in evaluator.
    Plain(Box<dyn BatchEvaluator>),
    /// A model package.
    #[cfg(feature = "onnx")]
    Model(Box<dicechess::eval::onnx::FeatureModel>),
}

impl Scorer {
    /// The evaluator's id (file metadata).
    fn id(&self) -> String {
        match self {
            Scorer::Plain(e) => e.id(),
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => m.id(),
        }
    }

    /// What identifies the scores for resuming (a model by id and SHA-256).
    fn record_id(&self) -> String {
        match self {
            Scorer::Plain(e) => e.id(),
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => format!("model:{}@{}", m.id(), m.manifest().model_sha256),
        }
    }

    /// Scores of `batch`; `features` are the rows' already extracted features, which a
    /// model of the same schema reads instead of extracting them again.
    #[cfg_attr(not(feature = "onnx"), allow(unused_variables))]
    fn score(
        &self,
        batch: &PositionBatch,
        features: Option<(&'static dyn FeatureSchema, &ndarray::Array2<f32>)>,
    ) -> Result<Vec<f32>, EvalError> {
        match self {
            Scorer::Plain(e) => {
                let mut out = vec![0.0; batch.len()];
                e.evaluate(batch, &mut out)?;
                Ok(out)
            }
            #[cfg(feature = "onnx")]
            Scorer::Model(m) => match features {
                Some((s, f)) if s.id() == m.schema().id() => Ok(m
                    .predict_features(f.view())?
                    .into_iter()
                    .map(dicechess::eval::onnx::win_probability_to_score)
                    .collect()),
                _ => {
                    let mut out = vec![0.0; batch.len()];
                    m.evaluate(batch, &mut out)?;
                    Ok(out)
                }
            },
        }
    }
}

#[cfg(feature = "onnx")]
fn load_model(dir: &Path) -> Result<Scorer, CliError> {
    let m = dicechess::eval::onnx::FeatureModel::load(dir)
        .map_err(|e| CliError::Input(format!("--model {}: {e}", dir.display())))?;
    Ok(Scorer::Model(Box::new(m)))
}

#[cfg(not(feature = "onnx"))]
fn load_model(dir: &Path) -> Result<Scorer, CliError> {
    Err(CliError::Input(format!(
        "--model {}: this build has no model support (cargo feature `onnx`)",
        dir.display()
    )))
}

/// The model's schema, for `--model` without `--features`.
fn model_schema(scorer: &Scorer) -> Option<&'static dyn FeatureSchema> {
    match scorer {
        Scorer::Plain(_) => None,
        #[cfg(feature = "onnx")]
        Scorer::Model(m) => Some(m.schema()),
    }
}

fn input_error(e: InputError) -> CliError {
    match e {
        // The message already holds the cause: no error chain.
        InputError::Read { .. } => CliError::Other(anyhow::anyhow!("{e}")),
        e => CliError::Input(e.to_string()),
    }
}

fn output_error(e: OutputError) -> CliError {
    match e {
        OutputError::PartsMismatch { .. } | OutputError::CannotResume { .. } => {
            CliError::Input(format!(
                "{e}; rerun with --restart to discard its finished parts (or remove the folder)"
            ))
        }
        OutputError::Layout(_) | OutputError::Locked(_) => CliError::Input(e.to_string()),
        e => CliError::Other(anyhow::anyhow!("{e}").context("writing the output")),
    }
}

/// Run `eval`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    let format = Format::of(&args.out)?;
    let schema = match &args.features {
        None => None,
        Some(id) => Some(
            features::schema_or_err(id).map_err(|e| CliError::Input(format!("--features: {e}")))?,
        ),
    };
    let scorer = match (&args.model, args.evaluator) {
        (Some(dir), _) => Some(load_model(dir)?),
        (None, Some(EvaluatorName::Material)) => Some(Scorer::Plain(Box::new(Material))),
        (None, Some(EvaluatorName::Cautious)) => Some(Scorer::Plain(Box::new(BotEvaluator {
            terms: BotTerms::Cautious,
        }))),
        (None, Some(EvaluatorName::Aggressive)) => Some(Scorer::Plain(Box::new(BotEvaluator {
            terms: BotTerms::Aggressive,
        }))),
        (None, None) => None,
    };
    let schema = schema.or_else(|| scorer.as_ref().and_then(model_schema));
    if schema.is_none() && scorer.is_none() {
        return Err(CliError::Input(
            "nothing to compute: give --features ID and/or --evaluator material or --model PKG"
                .into(),
        ));
    }
    if args.threads == Some(0) {
        return Err(CliError::Input("--threads: must be at least 1".into()));
    }
    if args.chunk_rows == Some(0) {
        return Err(CliError::Input("--chunk-rows: must be at least 1".into()));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Other(anyhow::anyhow!("starting worker threads: {e}")))?;
    let job = Job {
        format,
        schema,
        scorer,
        args,
    };
    pool.install(|| job.run())
}

/// One configured run.
struct Job {
    format: Format,
    schema: Option<&'static dyn FeatureSchema>,
    scorer: Option<Scorer>,
    args: Args,
}

/// Running totals.
#[derive(Default)]
struct Totals {
    rows: u64,
    bad: u64,
    records: u64,
    resumed_parts: u64,
    resumed_rows: u64,
}

impl Job {
    fn run(self) -> Result<(), CliError> {
        let start = Instant::now();
        let args = &self.args;
        let out = &args.out;
        let perspective = Perspective::SideToMove;
        let width = self.schema.map_or(0, |s| s.width());
        let recorded = (!args.restart).then(|| parts::read_record(out)).flatten();
        let chunk_rows = match (args.chunk_rows, &recorded) {
            (Some(n), _) => n,
            (None, Some(r)) if r.format == RUN_FORMAT && r.chunk_rows > 0 => {
                usize::try_from(r.chunk_rows).unwrap_or(DEFAULT_CHUNK_ROWS)
            }
            _ => (CHUNK_VALUES / width.max(1)).clamp(1024, DEFAULT_CHUNK_ROWS),
        };
        let mut reader = PositionReader::open(&args.input, chunk_rows).map_err(input_error)?;

        let p = Path::new(&args.input);
        let stream = args.input == "-" || !std::fs::metadata(p).is_ok_and(|m| m.is_file());
        let (input, input_size, input_sha256) = if stream {
            (args.input.clone(), None, None)
        } else {
            let (size, sha) = parts::fingerprint(p)
                .map_err(|e| CliError::Input(format!("cannot read {}: {e}", p.display())))?;
            let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
            (abs.display().to_string(), Some(size), Some(sha))
        };
        let record = RunRecord {
            format: RUN_FORMAT.into(),
            input,
            input_kind: match reader.column() {
                Some(c) => format!("parquet:{c}"),
                None => "dfen-lines".into(),
            },
            input_size,
            input_sha256,
            features: self.schema.map(|s| s.id().to_owned()),
            evaluator: self.scorer.as_ref().map(Scorer::record_id),
            perspective: perspective.name().into(),
            chunk_rows: chunk_rows as u64,
            output: self.format.name().into(),
            engine_version: ENGINE_VERSION.into(),
        };
        // A v0 shard's base columns are written through to Parquet (the pipeline's
        // enrichment step); NPY holds numbers only.
        let with_base = reader.is_v0_shard() && self.format == Format::Parquet;
        let columns = self.schema.map_or(&[][..], |s| s.columns());
        let layout = if with_base {
            Layout::with_base(columns, self.scorer.is_some())
        } else {
            Layout::new(columns, self.scorer.is_some())
        }
        .map_err(output_error)?;
        let (dir, finished) = PartsDir::open(out, &record, args.restart).map_err(output_error)?;
        let mut totals = Totals::default();
        if !finished.is_empty() {
            let rows: u64 = finished.values().map(|p| p.rows).sum();
            note!(
                "resuming: {} finished part(s) ({rows} rows) in {}",
                finished.len(),
                dir.path().display()
            );
        }

        let noun = if reader.column().is_some() {
            "row"
        } else {
            "line"
        };
        let bar = progress_bar(&reader);
        let max_in_flight = max_in_flight(chunk_rows, width);
        let mut flow = Flow::default();
        let mut index = 0u64;
        let (job, dir_ref, layout_ref) = (&self, &dir, &layout);
        rayon::scope(|s| {
            let (tx, rx) = mpsc::channel::<ChunkDone>();
            loop {
                while flow.in_flight >= max_in_flight {
                    flow.absorb(wait_one(&rx), &mut totals);
                    flow.report(&bar);
                }
                if flow.stopped() {
                    break;
                }
                if let Some(info) = finished.get(&index) {
                    let records = match reader.skip_chunk() {
                        Ok(r) => r,
                        Err(e) => {
                            flow.fail(input_error(e));
                            break;
                        }
                    };
                    if records != info.records {
                        flow.fail(output_error(OutputError::PartsMismatch {
                            dir: dir_ref.path().to_owned(),
                            reason: format!(
                                "part {index} covers {} records but the input now has \
                                 {records} there",
                                info.records
                            ),
                        }));
                        break;
                    }
                    totals.rows += info.rows;
                    totals.bad += info.bad;
                    totals.records += records;
                    totals.resumed_parts += 1;
                    totals.resumed_rows += info.rows;
                    flow.reports.insert(index, Vec::new());
                } else {
                    match reader.next_raw_chunk() {
                        Err(e) => {
                            flow.fail(input_error(e));
                            break;
                        }
                        Ok(None) => break,
                        Ok(Some(raw)) => {
                            flow.in_flight += 1;
                            let tx = tx.clone();
                            s.spawn(move |_| {
                                let done = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                    job.process(raw, dir_ref, layout_ref)
                                }))
                                .unwrap_or_else(|_| {
                                    Err(CliError::Other(anyhow::anyhow!(
                                        "internal error: a chunk's worker panicked"
                                    )))
                                });
                                let _ = tx.send(done);
                            });
                        }
                    }
                }
                index += 1;
                flow.report(&bar);
                update_bar(&bar, &reader, &totals, start);
            }
            while flow.in_flight > 0 {
                flow.absorb(wait_one(&rx), &mut totals);
                flow.report(&bar);
                update_bar(&bar, &reader, &totals, start);
            }
        });
        bar.finish_and_clear();
        if let Some(e) = flow.error {
            return Err(e);
        }
        if let Some((_, e)) = flow.first_bad {
            let kept = if (flow.written > 0 || !finished.is_empty()) && !stream {
                format!(
                    "; finished chunks are kept in {} for a rerun",
                    dir.path().display()
                )
            } else {
                // Nothing finished, or a stream (which cannot be resumed): leave no folder
                // behind.
                dir.remove().map_err(output_error)?;
                String::new()
            };
            return Err(CliError::Input(format!(
                "{e} (use --skip-bad to skip bad {noun}s{kept})"
            )));
        }
        if totals.bad > REPORT_BAD {
            note!(
                "… and {} more bad {noun}(s) skipped",
                totals.bad - REPORT_BAD
            );
        }

        let feature_schema = self.schema.map_or("none", |s| s.id());
        let mut metadata = if with_base {
            shard_v0::footer(shard_v0::SCHEMA_V0_ENRICHED, feature_schema, columns)
        } else {
            vec![
                ("feature_schema".to_owned(), feature_schema.to_owned()),
                ("engine_version".to_owned(), ENGINE_VERSION.to_owned()),
                ("perspective".to_owned(), perspective.name().to_owned()),
            ]
        };
        if let Some(s) = &self.scorer {
            metadata.push(("evaluator".to_owned(), s.id()));
        }
        let written = match self.format {
            Format::Parquet => dir.merge_parquet(index, &layout, &metadata, out),
            Format::Npy => dir.merge_npy(index, &layout, out),
        }
        .map_err(output_error)?;
        dir.remove().map_err(output_error)?;

        let secs = start.elapsed().as_secs_f64();
        let computed = written.saturating_sub(totals.resumed_rows);
        let resumed = if totals.resumed_parts > 0 {
            format!(
                " ({} from {} resumed part(s))",
                totals.resumed_rows, totals.resumed_parts
            )
        } else {
            String::new()
        };
        note!(
            "eval: {written} rows written to {}{resumed}, {} bad {noun}(s) skipped, {secs:.2} s, \
             {:.0} rows/s",
            out.display(),
            totals.bad,
            computed as f64 / secs.max(1e-9),
        );
        Ok(())
    }

    /// Parse one chunk and, unless it has bad records and `--skip-bad` is off, compute and
    /// write its part.
    fn process(&self, raw: RawChunk, dir: &PartsDir, layout: &Layout) -> ChunkDone {
        let chunk = raw.parse();
        if !self.args.skip_bad && !chunk.bad.is_empty() {
            return Ok(Done {
                index: chunk.index,
                info: None,
                bad: chunk.bad,
            });
        }
        let info = PartInfo {
            index: chunk.index,
            rows: chunk.positions.len() as u64,
            records: chunk.records,
            bad: chunk.bad.len() as u64,
        };
        let base = chunk.base.as_ref().filter(|_| layout.has_base());
        self.compute_part(dir, layout, info, &chunk.positions, base)?;
        Ok(Done {
            index: chunk.index,
            info: Some(info),
            bad: chunk.bad,
        })
    }

    /// Extract, score and write one chunk's part.
    fn compute_part(
        &self,
        dir: &PartsDir,
        layout: &Layout,
        info: PartInfo,
        positions: &[dicechess::board::Position],
        base: Option<&BaseRows>,
    ) -> Result<(), CliError> {
        let batch = PositionBatch::from_positions(positions);
        let features = self
            .schema
            .map(|s| (s, s.extract(&batch, Perspective::SideToMove)));
        let scores = match &self.scorer {
            None => None,
            Some(sc) => Some(
                sc.score(&batch, features.as_ref().map(|(s, f)| (*s, f)))
                    .map_err(|e| CliError::Other(anyhow::anyhow!("scoring: {e}")))?,
            ),
        };
        let dfens: Vec<String> = if base.is_some() {
            Vec::new()
        } else {
            positions
                .par_iter()
                .with_min_len(1024)
                .map(|p| p.to_dfen())
                .collect()
        };
        let flat: Vec<f32>;
        let feature_values: &[f32] = match &features {
            None => &[],
            Some((_, f)) => match f.as_slice() {
                Some(s) => s,
                None => {
                    flat = f.iter().copied().collect();
                    &flat
                }
            },
        };
        dir.write_part(
            info,
            layout,
            Rows {
                dfens: &dfens,
                base,
                features: feature_values,
                scores: scores.as_deref(),
            },
        )
        .map_err(output_error)
    }
}

/// A chunk's outcome.
type ChunkDone = Result<Done, CliError>;

/// A processed chunk.
struct Done {
    index: u64,
    /// The part written, `None` when bad records stopped it.
    info: Option<PartInfo>,
    bad: Vec<InputError>,
}

/// Chunks in flight and what came back from them.
#[derive(Default)]
struct Flow {
    in_flight: usize,
    /// Parts written by this run.
    written: u64,
    /// Bad records of finished chunks, to print in input order.
    reports: BTreeMap<u64, Vec<InputError>>,
    next_report: u64,
    printed: u64,
    /// The earliest chunk stopped by a bad record, with its first one.
    first_bad: Option<(u64, InputError)>,
    error: Option<CliError>,
}

impl Flow {
    fn stopped(&self) -> bool {
        self.error.is_some() || self.first_bad.is_some()
    }

    fn fail(&mut self, e: CliError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    fn absorb(&mut self, done: ChunkDone, totals: &mut Totals) {
        self.in_flight -= 1;
        match done {
            Err(e) => self.fail(e),
            Ok(Done {
                index,
                info: None,
                bad,
            }) => {
                if self.first_bad.as_ref().is_none_or(|(i, _)| index < *i) {
                    self.first_bad = bad.into_iter().next().map(|e| (index, e));
                }
            }
            Ok(Done {
                index,
                info: Some(info),
                bad,
            }) => {
                self.written += 1;
                totals.rows += info.rows;
                totals.records += info.records;
                totals.bad += info.bad;
                self.reports.insert(index, bad);
            }
        }
    }

    /// Print the bad records of the chunks finished so far in input order, the first
    /// [`REPORT_BAD`] of them one by one.
    fn report(&mut self, bar: &ProgressBar) {
        while let Some(list) = self.reports.remove(&self.next_report) {
            for e in list {
                self.printed += 1;
                if self.printed <= REPORT_BAD {
                    bar.suspend(|| note!("skipped {e}"));
                }
            }
            self.next_report += 1;
        }
    }
}

/// Chunks processed at once: enough to keep every thread busy (one more is being read),
/// few enough that their rows stay within about 4 × [`CHUNK_VALUES`] values.
fn max_in_flight(chunk_rows: usize, width: usize) -> usize {
    let per_chunk = chunk_rows.saturating_mul(width + 16).max(1);
    let by_memory = (4 * CHUNK_VALUES / per_chunk).max(2);
    (rayon::current_num_threads() + 1).clamp(2, by_memory)
}

/// The next finished chunk; while none is ready, help the pool with its work.
fn wait_one(rx: &mpsc::Receiver<ChunkDone>) -> ChunkDone {
    loop {
        match rx.try_recv() {
            Ok(d) => return d,
            Err(mpsc::TryRecvError::Disconnected) => {
                return Err(CliError::Other(anyhow::anyhow!(
                    "internal error: chunk workers disconnected"
                )))
            }
            Err(mpsc::TryRecvError::Empty) => {}
        }
        if !matches!(rayon::yield_now(), Some(rayon::Yield::Executed)) {
            match rx.recv_timeout(Duration::from_millis(1)) {
                Ok(d) => return d,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(CliError::Other(anyhow::anyhow!(
                        "internal error: chunk workers disconnected"
                    )))
                }
            }
        }
    }
}

fn progress_bar(reader: &PositionReader) -> ProgressBar {
    let (len, template) = if let Some(rows) = reader.total_rows() {
        (
            Some(rows),
            "{spinner} {elapsed_precise} [{wide_bar}] {percent}% of rows, ETA {eta} {msg}",
        )
    } else if let Some(bytes) = reader.total_bytes() {
        (
            Some(bytes),
            "{spinner} {elapsed_precise} [{wide_bar}] {percent}% of input, ETA {eta} {msg}",
        )
    } else {
        (None, "{spinner} {elapsed_precise} {msg}")
    };
    let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn update_bar(bar: &ProgressBar, reader: &PositionReader, totals: &Totals, start: Instant) {
    if reader.total_rows().is_some() {
        bar.set_position(totals.records);
    } else if reader.total_bytes().is_some() {
        bar.set_position(reader.bytes_read());
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    bar.set_message(format!(
        "{} rows, {:.0} rows/s",
        totals.rows,
        (totals.rows - totals.resumed_rows) as f64 / secs
    ));
}
