//! The resumable feature and label pipeline: features and/or scores of many positions, to
//! Parquet or NPY (`dicechess eval` is its command line).
//!
//! Streams the input in chunks (bounded memory), extracts and scores each chunk on all cores
//! (rayon), writes each finished chunk as a part file in `OUT.parts/`, and at the end merges
//! the parts into `OUT` (temporary name + rename) and removes the folder. A rerun of an
//! interrupted run reuses the finished parts (see [`crate::files::PartsDir`]).
//!
//! When the input is a training shard of schema v0 (docs/data-formats.md) and the output is
//! Parquet, the pipeline is the training pipeline's enrichment step: the six base columns are
//! written through, followed by the features (and the score when scoring), with the
//! pipeline's footer keys and the `v0-enriched` marker.

mod error;
mod eval_job;
mod flow;
mod job;
mod label;
mod observer;
mod run;
mod scorer;

pub use error::PipelineError;
pub use label::{
    label_columns, label_positions, run_labels, LabelEvaluator, LabelSpec, Labelled,
    BUILTIN_LEAVES, CANDIDATE_TEXT_COLUMNS,
};
pub use observer::{InputExtent, PipelineObserver, PipelineProgress};
pub use run::run_pipeline;
pub use scorer::Scorer;

use crate::eval::features::FeatureSchema;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Records per chunk (and part file) unless [`PipelineConfig::chunk_rows`] says otherwise.
pub const DEFAULT_CHUNK_ROWS: usize = 65_536;

/// Feature values per chunk at most with the default chunk size (64 MiB of float32), so
/// wide schemas get smaller chunks.
const CHUNK_VALUES: usize = 1 << 24;

/// The output file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Apache Parquet: `dfen` (or a v0 shard's base columns), the features, the score.
    Parquet,
    /// A float32 NPY matrix `[rows, features (+1)]`.
    Npy,
}

impl OutputFormat {
    /// The format named by `out`'s extension (`.parquet` or `.npy`, any case).
    pub fn of(out: &Path) -> Option<OutputFormat> {
        let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext.to_ascii_lowercase().as_str() {
            "parquet" => Some(OutputFormat::Parquet),
            "npy" => Some(OutputFormat::Npy),
            _ => None,
        }
    }

    /// The name recorded in the parts folder's run record.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Parquet => "parquet",
            OutputFormat::Npy => "npy",
        }
    }
}

/// One deterministic slice of a run's chunks: chunk `k` belongs to it iff `k % count ==
/// index`. A run of a slice computes only its chunks and leaves them in the parts folder
/// (no merge); once every slice's parts are in one folder, a run of the whole input merges
/// them without computing anything (how `python -m dicechess.ray_label` distributes a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkSlice {
    /// This slice, `0..count`.
    pub index: u64,
    /// Number of slices (at least 1).
    pub count: u64,
}

impl ChunkSlice {
    /// Every chunk.
    pub const ALL: ChunkSlice = ChunkSlice { index: 0, count: 1 };

    /// Whether chunk `k` belongs to the slice.
    pub fn holds(self, k: u64) -> bool {
        k % self.count.max(1) == self.index
    }
}

/// What every run needs, whatever it computes: the input, the output and how to run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Positions: a file of DFEN lines, a Parquet file with a `dfen` or `fen` column or a
    /// training shard of schema v0, or `-` for standard input.
    pub input: String,
    /// The output file.
    pub out: PathBuf,
    /// The output file's format.
    pub format: OutputFormat,
    /// Report bad records and go on without them (else the first one stops the run).
    pub skip_bad: bool,
    /// Records per chunk; `None`: the interrupted run's on resume, else the job's default.
    pub chunk_rows: Option<usize>,
    /// Worker threads; `None`: all cores.
    pub threads: Option<usize>,
    /// Discard finished parts of an earlier run instead of resuming from them.
    pub restart: bool,
    /// Compute one slice of the chunks only ([`ChunkSlice`]); `None`: all, then merge.
    pub slice: Option<ChunkSlice>,
}

/// One configured run.
pub struct PipelineConfig {
    /// Positions: a file of DFEN lines, a Parquet file with a `dfen` or `fen` column or a
    /// training shard of schema v0, or `-` for standard input.
    pub input: String,
    /// The output file.
    pub out: PathBuf,
    /// The output file's format.
    pub format: OutputFormat,
    /// The feature schema to extract, if any.
    pub schema: Option<&'static dyn FeatureSchema>,
    /// What scores the rows, if anything.
    pub scorer: Option<Scorer>,
    /// Report bad records and go on without them (else the first one stops the run).
    pub skip_bad: bool,
    /// Records per chunk; `None`: the interrupted run's on resume, else a size that keeps a
    /// chunk's features within 64 MiB (at most [`DEFAULT_CHUNK_ROWS`]).
    pub chunk_rows: Option<usize>,
    /// Worker threads; `None`: all cores.
    pub threads: Option<usize>,
    /// Discard finished parts of an earlier run instead of resuming from them.
    pub restart: bool,
}

impl PipelineConfig {
    /// The run's input, output and settings.
    pub fn spec(&self) -> RunSpec {
        RunSpec {
            input: self.input.clone(),
            out: self.out.clone(),
            format: self.format,
            skip_bad: self.skip_bad,
            chunk_rows: self.chunk_rows,
            threads: self.threads,
            restart: self.restart,
            slice: None,
        }
    }
}

/// What a finished run did.
#[derive(Clone, Debug)]
pub struct PipelineSummary {
    /// Whether the parts were merged into the output (every run but a slice's).
    pub merged: bool,
    /// Chunks of the input.
    pub chunks: u64,
    /// Rows in the output file (0 for a slice, which writes none).
    pub written: u64,
    /// Rows computed by this run (the rest came from resumed parts).
    pub computed: u64,
    /// Parts of an earlier run reused.
    pub resumed_parts: u64,
    /// Rows in those parts.
    pub resumed_rows: u64,
    /// Bad records skipped (resumed parts' included).
    pub bad: u64,
    /// What a record is called: "row" for Parquet input, "line" for DFEN lines.
    pub noun: &'static str,
    /// Wall time of the run.
    pub elapsed: Duration,
}
