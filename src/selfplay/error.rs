//! Why a self-play run (or a merge of runs) failed: refusals of its input, which the command
//! line reports as bad input, and failures while it runs.

use super::shards::{ManifestError, SliceError};
use crate::board::DfenError;
use crate::bots::{BotBuildError, BotError};
use crate::eval::features::UnknownSchema;
use crate::files::LockError;
use crate::files::OutputError;
use std::path::PathBuf;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    /// `--features` names no schema.
    #[error("--features: {0}")]
    Features(UnknownSchema),
    /// `--shard` is not a slice `i/n`.
    #[error("--shard {0}")]
    Slice(SliceError),
    /// A count that must be positive is 0.
    #[error("{flag}: must be at least 1")]
    Zero {
        /// The flag, e.g. `--threads`.
        flag: &'static str,
    },
    /// The start position is not a DFEN.
    #[error("bad DFEN: {0}")]
    Start(DfenError),
    /// A bot cannot be built.
    #[error("bot {id:?}: {error}")]
    Bot {
        /// The bot's registry id.
        id: String,
        /// Why it cannot be built.
        error: BotBuildError,
    },
    /// The output folder holds another run.
    #[error("{} holds a different self-play run ({difference}); use another --out", dir.display())]
    OtherRun {
        /// The output folder.
        dir: PathBuf,
        /// The first setting that differs.
        difference: String,
    },
    /// The output folder holds another slice of this run.
    #[error("{} holds slice {found} of this run, not {wanted}", dir.display())]
    OtherSlice {
        /// The output folder.
        dir: PathBuf,
        /// The slice in the folder (`all` for the whole run).
        found: String,
        /// The slice asked for.
        wanted: String,
    },
    /// A folder to merge has no manifest.
    #[error("{}: no manifest.json", dir.display())]
    NoManifest {
        /// The folder.
        dir: PathBuf,
    },
    /// The merge's output folder already holds a run.
    #[error("--out {}: already holds a self-play run", dir.display())]
    OutHoldsRun {
        /// The output folder.
        dir: PathBuf,
    },
    /// A shard of a folder to merge does not copy (digest mismatch, not a regular file…).
    #[error("{}: shard {index}: {error}", dir.display())]
    ShardCopy {
        /// The folder merged from.
        dir: PathBuf,
        /// The shard's index.
        index: u64,
        /// What is wrong (boxed: the error type stays small).
        error: Box<ManifestError>,
    },
    /// The output folder's manifest (or a shard file it lists) is refused.
    #[error("{0}")]
    Manifest(#[from] ManifestError),
    /// Another run holds the output folder.
    #[error("{0}")]
    Locked(#[from] LockError),
    /// Reading or writing a file of the output folder failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// The worker thread pool did not start.
    #[error("starting worker threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    /// The writer thread panicked.
    #[error("the writer thread panicked")]
    WriterPanicked,
    /// A game's search failed.
    #[error("game {index}: {error}")]
    Game {
        /// The game's index in the run.
        index: u64,
        /// What failed.
        error: BotError,
    },
    /// A game's record does not serialise.
    #[error("{0}")]
    Record(serde_json::Error),
    /// Writing a shard's rows file failed.
    #[error("{0}")]
    Output(OutputError),
}

impl SelfPlayError {
    /// Whether the run was refused for its input (arguments, output folder, folders to
    /// merge) rather than failing while it ran: the command line's exit status 2, Python's
    /// `ValueError`.
    pub fn is_refusal(&self) -> bool {
        if let SelfPlayError::ShardCopy { error, .. } = self {
            // A full disk while copying is the output's failure, not the input's.
            return error.is_refusal();
        }
        !matches!(
            self,
            SelfPlayError::Io { .. }
                | SelfPlayError::Threads(_)
                | SelfPlayError::WriterPanicked
                | SelfPlayError::Game { .. }
                | SelfPlayError::Record(_)
                | SelfPlayError::Output(_)
        )
    }

    /// An I/O failure on `path`.
    pub(super) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> SelfPlayError + '_ {
        move |error| SelfPlayError::Io {
            path: path.to_owned(),
            error,
        }
    }
}
