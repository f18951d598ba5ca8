//! The pipeline's failures.

use crate::eval::EvalError;
use crate::files::InputError;
use crate::files::OutputError;
use std::path::PathBuf;

/// Why a pipeline run failed.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The input cannot be opened or read, or (without `skip_bad`) holds a bad record
    /// outside a chunk's parse.
    #[error("{0}")]
    Input(#[from] InputError),
    /// The input file cannot be read to fingerprint it for resuming.
    #[error("cannot read {}: {source}", path.display())]
    Fingerprint {
        /// The input file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A bad record stopped the run (`skip_bad` off).
    #[error("{error}")]
    BadRecord {
        /// The first bad record of the earliest chunk that has one.
        error: InputError,
        /// What a record is called: "row" or "line".
        noun: &'static str,
        /// The parts folder kept for a rerun, `None` when it was removed (nothing finished,
        /// or a stream, which cannot be resumed).
        kept: Option<PathBuf>,
    },
    /// Writing a part or the output failed, or the parts folder is refused.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// The evaluator failed.
    #[error("scoring: {0}")]
    Scoring(#[from] EvalError),
    /// The worker thread pool did not start.
    #[error("starting worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// A chunk's worker panicked.
    #[error("internal error: a chunk's worker panicked")]
    WorkerPanicked,
    /// The chunk workers' channel closed early.
    #[error("internal error: chunk workers disconnected")]
    WorkersDisconnected,
}
