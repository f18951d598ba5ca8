//! What a run computes, chunk by chunk ([`Job`]): the feature-and-score job of `eval`
//! ([`super::eval_job`]) and the label job of `label` ([`super::label`]) share the runner
//! (chunks on all cores, part files, resume, merge) and differ only here.

use super::PipelineError;
use crate::files::{BaseRows, Chunk, InputError, Layout, OutputError, Rows};

/// One chunk's output rows, owned, in the layout's columns.
#[derive(Debug, Default)]
pub(super) struct PartOut {
    /// The `dfen` column (layouts without base columns).
    pub(super) dfens: Vec<String>,
    /// The `fen_hash` column, aligned with `dfens` (layouts without base columns).
    pub(super) fen_hashes: Vec<i64>,
    /// The base columns (layouts with them).
    pub(super) base: Option<BaseRows>,
    /// One value per row for each of the layout's text columns.
    pub(super) texts: Vec<Vec<String>>,
    /// Row-major Float32 values, the layout's width per row.
    pub(super) values: Vec<f32>,
    /// The score column, for layouts with one.
    pub(super) scores: Option<Vec<f32>>,
    /// Records the job itself refused (a position over its work budget, say), in input
    /// order; they count as bad records.
    pub(super) bad: Vec<InputError>,
}

impl PartOut {
    /// The rows as the writer takes them.
    pub(super) fn rows(&self) -> Rows<'_> {
        Rows {
            dfens: &self.dfens,
            fen_hashes: &self.fen_hashes,
            base: self.base.as_ref(),
            texts: &self.texts,
            features: &self.values,
            scores: self.scores.as_deref(),
        }
    }

    /// Rows in the part.
    pub(super) fn len(&self) -> usize {
        match &self.base {
            Some(b) => b.len(),
            None => self.dfens.len(),
        }
    }
}

/// What a run computes. `Sync`: chunks are computed on all cores at once.
pub(super) trait Job: Sync {
    /// What the run record says the job is (two runs share parts only when equal): the
    /// feature schema id, the evaluator's record id, and anything else that changes a
    /// part's bytes.
    fn record(&self) -> JobRecord;

    /// Values per output row (sizes the default chunk and the chunks in flight).
    fn width(&self) -> usize;

    /// Records per chunk unless the user says otherwise.
    fn default_chunk_rows(&self) -> usize;

    /// The output columns; `with_base` when a v0 shard's base columns are written through.
    fn layout(&self, with_base: bool) -> Result<Layout, OutputError>;

    /// The output file's key-value metadata.
    fn metadata(&self, with_base: bool) -> Vec<(String, String)>;

    /// Compute one parsed chunk's rows (`with_base`: carry its base columns).
    fn compute(&self, chunk: &Chunk, with_base: bool) -> Result<PartOut, PipelineError>;
}

/// The job's part of the run record.
pub(super) struct JobRecord {
    /// The feature schema id, if features are extracted.
    pub(super) features: Option<String>,
    /// The evaluator's id, if anything is scored.
    pub(super) evaluator: Option<String>,
    /// The rest of what the parts depend on (a label job's kind and settings); `None` for
    /// `eval`, whose records predate this field.
    pub(super) job: Option<String>,
}
