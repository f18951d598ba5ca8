//! Why a suite file was refused (docs/suites.md "Errors"): the file's error around the text's
//! problem, which names the case and the field.

use std::path::PathBuf;

/// Why a suite file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file could not be read.
    #[error("suite {path}: {source}")]
    Read {
        /// The suite file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a valid suite.
    #[error("suite {path}: {problem}")]
    Invalid {
        /// The suite file.
        path: PathBuf,
        /// What is wrong.
        problem: SuiteProblem,
    },
}

/// What is wrong with a suite's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteProblem {
    /// Not a JSON document.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// A field is missing, of the wrong type or out of range.
    #[error("{field}: {reason}")]
    Field {
        /// The case's index in `scenarios` or `endgames`, when the field is in a case.
        case: Option<usize>,
        /// The field's path, e.g. `scenarios[3].expectedTurns[0][1]`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A problem with `field` (in case `case`, if any).
pub(super) fn at(
    case: Option<usize>,
    field: impl Into<String>,
    reason: impl Into<String>,
) -> SuiteProblem {
    SuiteProblem::Field {
        case,
        field: field.into(),
        reason: reason.into(),
    }
}
