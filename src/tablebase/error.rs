//! The failures of the tables: a table file that cannot be read, a folder without a table.

use std::path::PathBuf;

/// Why a table file was refused (src/tablebase/file.rs has the format).
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A readable file with a bad field; the path, then the field.
    #[error("{path}: {inner}")]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with its bytes.
        inner: Box<TableFileError>,
    },
    /// Fewer bytes than the header or the values need.
    #[error("truncated table file: {len} bytes, {need} needed")]
    Truncated {
        /// Bytes present.
        len: usize,
        /// Bytes needed.
        need: usize,
    },
    /// Bytes after the last value.
    #[error("trailing bytes after the table: {len} bytes, {need} expected")]
    Trailing {
        /// Bytes present.
        len: usize,
        /// Bytes expected.
        need: usize,
    },
    /// Not a table file.
    #[error("bad magic: not a dicechess table file (expected \"DCTBASE\\0\")")]
    Magic,
    /// A format version this engine does not read.
    #[error("unsupported table format version {0} (this engine reads version 1)")]
    Version(u16),
    /// An unknown material code.
    #[error("unknown material code {0} (0 to 25: KvK, KQvK, …, KNNvK in docs/tablebases.md)")]
    Material(u8),
    /// The reserved byte is not zero.
    #[error("reserved header byte is {0}, expected 0")]
    Reserved(u8),
    /// The entry count does not match the material.
    #[error("{material} table has {got} entries, expected {want}")]
    Entries {
        /// The table's ending.
        material: &'static str,
        /// Entries in the header.
        got: usize,
        /// Entries of the ending.
        want: usize,
    },
    /// The discount is outside `(0, 1]`.
    #[error("discount {0} is outside (0, 1]")]
    Discount(f64),
    /// The checksum does not match the bytes.
    #[error("checksum mismatch: the table file is corrupted")]
    Checksum,
    /// A non-zero value on an entry that stands for no position.
    #[error("entry {0} stands for no position but holds a value")]
    InvalidEntry(usize),
}

impl TableFileError {
    /// This error, for the file at `path`.
    pub(crate) fn in_file(self, path: &std::path::Path) -> TableFileError {
        match self {
            e @ (TableFileError::Io { .. } | TableFileError::InFile { .. }) => e,
            inner => TableFileError::InFile {
                path: path.to_owned(),
                inner: Box::new(inner),
            },
        }
    }
}

/// Why a table could not be solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The discount is outside `(0, 1)`.
    #[error("discount {0} is outside (0, 1)")]
    Discount(f64),
    /// A table it reads was not given.
    #[error("solving {material} needs the {needs} table first")]
    Missing {
        /// The table being solved.
        material: &'static str,
        /// The table it needs.
        needs: &'static str,
    },
    /// A turn ended outside every table (a bug in the tables' index, never expected).
    #[error("solving {material}: a turn ends in {dfen}, which no table holds")]
    Outside {
        /// The table being solved.
        material: &'static str,
        /// The end position.
        dfen: String,
    },
}

/// Why building a folder of tables stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The folder could not be created.
    #[error("{path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A table file present could not be read or the new one written.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// A table could not be solved.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A table present was solved with another discount.
    #[error("{path} was solved with discount {found}, not {wanted}: pass --force to rebuild it")]
    OtherDiscount {
        /// The file.
        path: PathBuf,
        /// Its discount.
        found: f64,
        /// The discount asked for.
        wanted: f64,
    },
}
