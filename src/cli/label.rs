//! `dicechess label`: exact searched labels (docs/labels.md) of many positions, to Parquet or
//! NPY, on all cores, resumable; `--slice i/n` computes one slice of the chunks for a
//! cluster run.

use super::eval::{format_of, pipeline_error};
use super::eval_progress::{note, Progress};
use super::CliError;
use dicechess::pipeline::{run_labels, ChunkSlice, LabelEvaluator, LabelSpec, RunSpec};
use dicechess::search::LabelKind;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A built-in leaf evaluator.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafName {
    /// Material in centipawns.
    Material,
    /// `best`'s leaves: material plus the dice-aware king and hanging-piece terms.
    DiceAware,
}

/// Arguments of `label`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Kinds (docs/labels.md): a1 and a2 value the position as an \
    afterstate, from the view of the side that just moved (the side NOT to move); p1 and p2 \
    value it before its roll, from the side to move's view; candidates lists every distinct \
    legal afterstate of the rolled position (or the --top K by --prerank) with its a1 and \
    its 56 per-roll values (roll_PPP .. roll_KKK in multiset order), plus the Utf8 columns \
    moves (UCI, comma-joined; empty for a pass) and after (its DFEN). Each value column has \
    a win probability beside it (<kind>_win = clamp(0.5 + value / 20000, 0, 1)); a king \
    capture is exactly +-10000. Output: Parquet with `dfen` (or, from a v0 training shard, \
    its six base columns: a v0 shard the pipeline reads, the labels beside the base \
    columns), then the label columns, with footer keys engine_version, label_kind, \
    label_columns, label_evaluator, label_model_sha256, label_perspective, label_scale; or \
    NPY, the value columns only. An interrupted run keeps its finished chunks in \
    OUT.parts/; rerunning the same command resumes, and the result is byte-identical."
)]
pub struct Args {
    /// Positions: a file of DFEN lines, a Parquet file with a `dfen` or `fen` column or a
    /// training shard of schema v0 (ours or the pipeline's), the analytics database's
    /// training export (`training_data.csv.gz` or `.csv`; read as v0 rows), or `-` for
    /// standard input.
    input: String,
    /// What to label: a1, a2, p1, p2 or candidates.
    #[arg(long, value_name = "KIND")]
    kind: String,
    /// The leaf evaluator [default: dice-aware].
    #[arg(long, value_name = "NAME", conflicts_with = "model")]
    evaluator: Option<LeafName>,
    /// A position-value model package as the leaf evaluator.
    #[arg(long, value_name = "PKG")]
    model: Option<PathBuf>,
    /// Output file: `.parquet` or `.npy`.
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
    /// `candidates`: keep the best K afterstates by the pre-ranker (default: all).
    #[arg(long, value_name = "K")]
    top: Option<usize>,
    /// `candidates --top`: the pre-ranker [default: the leaf evaluator].
    #[arg(long, value_name = "NAME", requires = "top")]
    prerank: Option<LeafName>,
    /// Work units one position's label may spend (one unit per move generation or
    /// generated micro-move) [default: one expansion (1,000,000) for a1 and p1, 2e9 for the
    /// others]; a position over it is a bad record.
    #[arg(long, value_name = "UNITS")]
    max_work: Option<u64>,
    /// Report bad records (and positions over their work budget) and go on without them.
    #[arg(long)]
    skip_bad: bool,
    /// Records per chunk and part file [default: 256 for a1/p1, 4 for candidates, 1 for
    /// a2/p2; on resume, the interrupted run's].
    #[arg(long, value_name = "N")]
    chunk_rows: Option<usize>,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Discard finished parts of an earlier run instead of resuming from them.
    #[arg(long)]
    restart: bool,
    /// Compute only the chunks k with k % n == i and leave them in OUT.parts/ (no merge);
    /// once every slice's parts are in one OUT.parts/, the plain command merges them.
    #[arg(long, value_name = "i/n")]
    slice: Option<String>,
}

fn builtin(name: LeafName) -> LabelEvaluator {
    let id = match name {
        LeafName::Material => "material",
        LeafName::DiceAware => "dice-aware",
    };
    LabelEvaluator::builtin(id).expect("a built-in leaf")
}

#[cfg(feature = "onnx")]
fn model(dir: &Path) -> Result<LabelEvaluator, CliError> {
    LabelEvaluator::model(dir)
        .map_err(|e| CliError::Input(format!("--model {}: {e}", dir.display())))
}

#[cfg(not(feature = "onnx"))]
fn model(dir: &Path) -> Result<LabelEvaluator, CliError> {
    Err(CliError::Input(format!(
        "--model {}: this build has no model support (cargo feature `onnx`)",
        dir.display()
    )))
}

/// `i/n` with `0 <= i < n`.
fn slice(text: &str) -> Result<ChunkSlice, CliError> {
    let s = dicechess::selfplay::Slice::parse(text)
        .map_err(|e| CliError::Input(format!("--slice {e}")))?;
    Ok(ChunkSlice {
        index: s.index,
        count: s.count,
    })
}

/// Run `label`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    let kind = LabelKind::parse(&args.kind).ok_or_else(|| {
        CliError::Input(format!(
            "--kind {:?}: expected one of a1, a2, p1, p2, candidates",
            args.kind
        ))
    })?;
    let format = format_of(&args.out)?;
    for (flag, v) in [
        ("--threads", args.threads),
        ("--chunk-rows", args.chunk_rows),
    ] {
        if v == Some(0) {
            return Err(CliError::Input(format!("{flag}: must be at least 1")));
        }
    }
    if args.top == Some(0) {
        return Err(CliError::Input("--top: must be at least 1".into()));
    }
    if args.top.is_some() && kind != LabelKind::Candidates {
        return Err(CliError::Input("--top: only for --kind candidates".into()));
    }
    if args.max_work == Some(0) {
        return Err(CliError::Input("--max-work: must be at least 1".into()));
    }
    let slice = args.slice.as_deref().map(slice).transpose()?;
    // A model is checked whole before any work starts.
    let leaf = match (&args.model, args.evaluator) {
        (Some(dir), _) => model(dir)?,
        (None, e) => builtin(e.unwrap_or(LeafName::DiceAware)),
    };
    let run = RunSpec {
        input: args.input,
        out: args.out,
        format,
        skip_bad: args.skip_bad,
        chunk_rows: args.chunk_rows,
        threads: args.threads,
        restart: args.restart,
        slice,
    };
    let spec = LabelSpec {
        kind,
        leaf,
        top: args.top,
        prerank: args.prerank.map(builtin),
        max_work: args.max_work,
    };
    let mut progress = Progress::labelling();
    let s = run_labels(&run, &spec, &mut progress).map_err(pipeline_error)?;
    let secs = s.elapsed.as_secs_f64();
    let resumed = if s.resumed_parts > 0 {
        format!(
            " ({} from {} resumed part(s))",
            s.resumed_rows, s.resumed_parts
        )
    } else {
        String::new()
    };
    let rate = s.computed as f64 / secs.max(1e-9);
    if s.merged {
        note!(
            "label: {} {kind} rows written to {}{resumed}, {} bad {}(s) skipped, {secs:.2} s, \
             {rate:.1} labels/s",
            s.written,
            run.out.display(),
            s.bad,
            s.noun,
        );
    } else {
        note!(
            "label: slice {} of {} chunks: {} {kind} rows in {}.parts/{resumed}, {} bad {}(s) \
             skipped, {secs:.2} s, {rate:.1} labels/s (run without --slice to merge)",
            args.slice.as_deref().unwrap_or(""),
            s.chunks,
            s.computed + s.resumed_rows,
            run.out.display(),
            s.bad,
            s.noun,
        );
    }
    Ok(())
}
