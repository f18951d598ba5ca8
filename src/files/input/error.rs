//! Why input could not be read, or why one record of it is bad.

use super::record::Location;
use crate::board::DfenError;
use std::path::PathBuf;

/// Why input could not be read, or why one record of it is bad.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// [`parse_input_line`] rejected the text (no location known there).
    #[error("{0}")]
    Dfen(#[from] DfenError),
    /// One bad record: its location, the reason (a [`DfenError`]'s text, which starts with
    /// the field name, or e.g. `not UTF-8 text`) and the offending text.
    #[error("{location}: {reason}")]
    Bad {
        /// Where the record is.
        location: Location,
        /// What is wrong.
        reason: String,
        /// The record's text (lossy UTF-8, cut to 200 bytes).
        text: String,
    },
    /// The input file could not be opened.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Reading failed part way.
    #[error("reading {what}: {source}")]
    Read {
        /// The input (`standard input` or a path).
        what: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The Parquet file could not be read.
    #[error("{path}: not a readable Parquet file: {reason}")]
    Parquet {
        /// The file.
        path: PathBuf,
        /// The reader's message.
        reason: String,
    },
    /// The Parquet file has no position column.
    #[error("{path}: no `dfen` or `fen` column (columns: {columns})")]
    NoColumn {
        /// The file.
        path: PathBuf,
        /// The columns it has, comma-separated.
        columns: String,
    },
    /// A training-export CSV whose header lacks a column a row needs (the wording of the
    /// analytics enricher's own check).
    #[error("{what}: training CSV header is missing the '{column}' column: {header}")]
    CsvHeader {
        /// The input.
        what: String,
        /// The missing column.
        column: &'static str,
        /// The header as read (cut to 200 bytes).
        header: String,
    },
    /// The position column does not hold strings.
    #[error("{path}: column `{column}` has type {found}, expected strings (Utf8)")]
    ColumnType {
        /// The file.
        path: PathBuf,
        /// The column.
        column: String,
        /// Its Arrow type.
        found: String,
    },
}

impl InputError {
    /// The location of a bad record ([`InputError::Bad`]), `None` for other errors.
    pub fn location(&self) -> Option<Location> {
        match self {
            InputError::Bad { location, .. } => Some(*location),
            _ => None,
        }
    }
}

/// Cut echoed text to 200 bytes (on a character boundary).
pub(super) fn cut(s: &str) -> String {
    const LIMIT: usize = 200;
    if s.len() <= LIMIT {
        return s.to_owned();
    }
    let mut end = LIMIT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
