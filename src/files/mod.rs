//! Files users get (docs/architecture.md "Files users get"): streaming position input (DFEN lines or a
//! Parquet `dfen`/`fen` column), Parquet and NPY feature output, atomic writes and resumable
//! chunked runs.
//!
//! Everything here streams in bounded memory: input is read in chunks of a fixed number of
//! records, each chunk's output is a small part file written to a temporary name and renamed
//! ([`AtomicFile`]), and finished parts are merged into the final file at the end ([`PartsDir`]).
//!
//! Output layout (the same for every writer, docs/data-formats.md):
//!
//! * Parquet: a `dfen` column (Utf8, canonical DFEN), or the six base columns of a training
//!   shard of schema v0 when the input is one ([`SCHEMA_V0`]), one Float32 column per
//!   feature-schema column, then a Float32 `score` column when scoring; key-value metadata
//!   `feature_schema`, `engine_version`, `perspective` (and `evaluator`), plus the pipeline's
//!   shard keys for v0 output, in the footer and on the embedded Arrow schema.
//! * NPY: a little-endian float32 C-order matrix `[rows, width]` with the feature columns in
//!   schema order followed by the score as the last column when scoring (no text columns).
//!
//! Temporary files are created exclusively under random names and only their creator removes
//! them ([`AtomicFile`]); a run locks the folder it writes ([`lock_dir`]).
//!
//! ```
//! use dicechess::files::parse_input_line;
//!
//! assert!(parse_input_line("# a comment").unwrap().is_none());
//! assert!(parse_input_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap().is_some());
//! let err = parse_input_line("4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err();
//! assert!(err.to_string().starts_with("side:"));
//! ```

mod atomic;
mod input;
mod lock;
mod npy_out;
mod parquet_out;
mod parts;
mod resume_log;
mod scores_csv;
mod shard_file;
mod shard_v0;

pub use atomic::{is_temp_name, write_bytes, AtomicFile};
pub use input::{parse_input_line, Chunk, InputError, Location, PositionReader, RawChunk};
pub use lock::{lock_dir, DirLock, LockError};
pub use npy_out::NpyWriter;
pub use parquet_out::{Layout, ParquetRowsWriter, Rows};
pub use parts::{fingerprint, read_record, PartInfo, PartsDir, RunRecord, RUN_FORMAT};
pub use resume_log::{ResumeLog, ResumeLogError};
pub use scores_csv::scores_path;
pub use shard_file::write_v0_shard;
pub use shard_v0::{
    base_arrays, base_fields, footer, with_metadata, BaseRow, BaseRows, ShardRows, BASE_COLUMNS,
    PERSPECTIVE, RULESET, SCHEMA_KEY, SCHEMA_V0, SCHEMA_V0_ENRICHED,
};

use std::path::PathBuf;

/// The engine version written into file metadata (`engine_version`).
pub use crate::ENGINE_VERSION;

/// Why output could not be written (or a finished part could not be reused).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The operating system refused a write, rename or read of an output file.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The Parquet or Arrow writer (or the reader of a part) failed.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: PathBuf,
        /// The library's message.
        reason: String,
    },
    /// The requested columns or the rows given do not fit the layout.
    #[error("output layout: {0}")]
    Layout(String),
    /// The parts folder was left by a run with other settings or other input.
    #[error("{dir} holds finished parts of a different run: {reason}")]
    PartsMismatch {
        /// The parts folder.
        dir: PathBuf,
        /// What differs (recorded value and current value).
        reason: String,
    },
    /// Another run holds the parts folder's lock.
    #[error("{0}")]
    Locked(String),
    /// The parts folder cannot be resumed at all (e.g. the input is standard input).
    #[error("{dir}: {reason}")]
    CannotResume {
        /// The parts folder.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
}

impl OutputError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> OutputError {
        let path = path.into();
        move |source| OutputError::Io { path, source }
    }

    /// A format library error on `path`.
    pub fn format<E: std::fmt::Display>(path: impl Into<PathBuf>) -> impl FnOnce(E) -> OutputError {
        let path = path.into();
        move |e| OutputError::Format {
            path,
            reason: e.to_string(),
        }
    }
}
