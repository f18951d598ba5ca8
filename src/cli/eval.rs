//! `dicechess eval`: features and/or scores of many positions, to Parquet or NPY.
//!
//! This file parses the flags, reports progress on standard error and maps the errors to
//! exit statuses; the run itself is [`dicechess::pipeline`] (chunked, resumable, all
//! cores).

use super::eval_progress::{note, Progress};
use super::CliError;
use dicechess::eval::features;
use dicechess::eval::{BotEvaluator, BotTerms, Material};
use dicechess::files::InputError;
use dicechess::files::OutputError;
use dicechess::pipeline::{run_pipeline, OutputFormat, PipelineConfig, PipelineError, Scorer};
use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// with a `dfen` or `fen` string column or a training shard of schema v0, the analytics
    /// database's training export (`training_data.csv.gz`, or plain `.csv`; read as v0 rows),
    /// or `-` for standard input.
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
pub(super) fn format_of(out: &Path) -> Result<OutputFormat, CliError> {
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    OutputFormat::of(out).ok_or_else(|| {
        CliError::Input(if ext.is_empty() {
            format!(
                "--out {}: no file extension; use .parquet or .npy",
                out.display()
            )
        } else {
            format!(
                "--out {}: unsupported extension .{ext}; use .parquet or .npy",
                out.display()
            )
        })
    })
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

/// The exit status and message of a failed run.
pub(super) fn pipeline_error(e: PipelineError) -> CliError {
    match e {
        PipelineError::Input(e) => input_error(e),
        PipelineError::Output(e) => output_error(e),
        PipelineError::Fingerprint { .. } => CliError::Input(e.to_string()),
        PipelineError::BadRecord { error, noun, kept } => {
            let kept = kept.map_or(String::new(), |dir| {
                format!(
                    "; finished chunks are kept in {} for a rerun",
                    dir.display()
                )
            });
            CliError::Input(format!(
                "{error} (use --skip-bad to skip bad {noun}s{kept})"
            ))
        }
        e @ (PipelineError::Scoring(_)
        | PipelineError::Threads(_)
        | PipelineError::WorkerPanicked
        | PipelineError::WorkersDisconnected) => CliError::Other(anyhow::anyhow!("{e}")),
    }
}

/// The scorer the flags name, if any.
fn scorer(args: &Args) -> Result<Option<Scorer>, CliError> {
    Ok(match (&args.model, args.evaluator) {
        (Some(dir), _) => Some(load_model(dir)?),
        (None, Some(EvaluatorName::Material)) => Some(Scorer::Plain(Box::new(Material))),
        (None, Some(EvaluatorName::Cautious)) => Some(Scorer::Plain(Box::new(BotEvaluator {
            terms: BotTerms::Cautious,
        }))),
        (None, Some(EvaluatorName::Aggressive)) => Some(Scorer::Plain(Box::new(BotEvaluator {
            terms: BotTerms::Aggressive,
        }))),
        (None, None) => None,
    })
}

/// Run `eval`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    let format = format_of(&args.out)?;
    let schema = match &args.features {
        None => None,
        Some(id) => Some(
            features::schema_or_err(id).map_err(|e| CliError::Input(format!("--features: {e}")))?,
        ),
    };
    let scorer = scorer(&args)?;
    let schema = schema.or_else(|| scorer.as_ref().and_then(Scorer::model_schema));
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
    let cfg = PipelineConfig {
        input: args.input,
        out: args.out,
        format,
        schema,
        scorer,
        skip_bad: args.skip_bad,
        chunk_rows: args.chunk_rows,
        threads: args.threads,
        restart: args.restart,
    };
    let mut progress = Progress::rows();
    let s = run_pipeline(&cfg, &mut progress).map_err(pipeline_error)?;
    let secs = s.elapsed.as_secs_f64();
    let resumed = if s.resumed_parts > 0 {
        format!(
            " ({} from {} resumed part(s))",
            s.resumed_rows, s.resumed_parts
        )
    } else {
        String::new()
    };
    note!(
        "eval: {} rows written to {}{resumed}, {} bad {}(s) skipped, {secs:.2} s, \
         {:.0} rows/s",
        s.written,
        cfg.out.display(),
        s.bad,
        s.noun,
        s.computed as f64 / secs.max(1e-9),
    );
    Ok(())
}
