//! The engine's errors as Python exceptions: the caller's input is `ValueError`, anything
//! else `RuntimeError`, both with the engine's message.

use dicechess::board::DfenError;
use dicechess::selfplay::SelfPlayError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// `ValueError(message)`.
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// `ValueError("bad DFEN: ...")`, the CLI's wording.
pub fn dfen_error(e: DfenError) -> PyErr {
    value_error(format!("bad DFEN: {e}"))
}

/// `ValueError("dfens[i]: bad DFEN: ...")` for one position of a batch.
pub fn batch_dfen_error(index: usize, e: DfenError) -> PyErr {
    value_error(format!("dfens[{index}]: bad DFEN: {e}"))
}

/// A self-play or merge failure: refusals are `ValueError`, the rest `RuntimeError`.
pub fn selfplay_error(e: SelfPlayError) -> PyErr {
    if e.is_refusal() {
        value_error(e)
    } else {
        PyRuntimeError::new_err(e.to_string())
    }
}

/// `RuntimeError(message)`.
pub fn runtime_error(message: impl Into<String>) -> PyErr {
    PyRuntimeError::new_err(message.into())
}
