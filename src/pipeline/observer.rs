//! What a run reports while it runs: the command line draws a progress bar from it.

use crate::files::InputError;
use std::path::Path;
use std::time::Duration;

/// The size of the input, when it is known up front.
#[derive(Clone, Copy, Debug)]
pub struct InputExtent {
    /// What a record is called: "row" for Parquet input, "line" for DFEN lines.
    pub noun: &'static str,
    /// Records in a Parquet input.
    pub total_rows: Option<u64>,
    /// Bytes of a DFEN-lines file.
    pub total_bytes: Option<u64>,
}

/// Where a run stands.
#[derive(Clone, Copy, Debug)]
pub struct PipelineProgress {
    /// Input records consumed (resumed parts' included).
    pub records: u64,
    /// Input bytes read so far (DFEN lines).
    pub bytes_read: u64,
    /// Good rows so far (resumed parts' included).
    pub rows: u64,
    /// Rows of resumed parts.
    pub resumed_rows: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

/// Receives a run's reports, all on the thread that called
/// [`run_pipeline`](super::run_pipeline). Every method does nothing by default.
pub trait PipelineObserver: Send {
    /// The input is open.
    fn started(&mut self, _extent: InputExtent) {}
    /// Finished parts of an earlier run are reused.
    fn resuming(&mut self, _parts: usize, _rows: u64, _dir: &Path) {}
    /// A bad record was skipped; called in input order, for records of chunks computed by
    /// this run.
    fn skipped(&mut self, _error: &InputError) {}
    /// The run advanced.
    fn progress(&mut self, _progress: &PipelineProgress) {}
    /// Every chunk is computed (or the run stopped).
    fn chunks_done(&mut self) {}
    /// Every chunk is computed without error, `bad` records skipped in all; the output is
    /// merged next.
    fn merging(&mut self, _bad: u64) {}
}

/// An observer that ignores every report.
impl PipelineObserver for () {}
