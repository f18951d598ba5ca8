//! Finding and initialising the ONNX Runtime library, once per process (docs/building.md: the
//! `onnxruntime==1.32.0` PyPI wheel's `libonnxruntime.so.1.32.0`, loaded at run time).
//!
//! Where the library is looked for, first hit wins:
//! 1. `ORT_DYLIB_PATH` (when set and non-empty, it is the only place tried);
//! 2. `.tools/onnxruntime/onnxruntime/capi/libonnxruntime.so.1.32.0` under the folder of the
//!    running executable or any folder above it (a binary or test under `target/` finds the
//!    repository's copy), then under the current directory, then under the repository this
//!    crate was built from. `bash .ci/install-onnxruntime` installs it there.

use super::error::ModelError;
use ort::environment::Environment;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The runtime version the engine is built and tested against.
pub const RUNTIME_VERSION: &str = "1.32.0";

/// The library's path relative to the folder that holds `.tools`.
pub const RUNTIME_RELATIVE_PATH: &str =
    ".tools/onnxruntime/onnxruntime/capi/libonnxruntime.so.1.32.0";

static ENVIRONMENT: OnceLock<Environment> = OnceLock::new();
static INIT: Mutex<()> = Mutex::new(());

/// The process's ONNX Runtime environment, loading the library on first use. A failure is
/// not remembered: a later call tries again (e.g. after the library was installed).
pub fn environment() -> Result<&'static Environment, ModelError> {
    if let Some(env) = ENVIRONMENT.get() {
        return Ok(env);
    }
    let _guard = INIT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(env) = ENVIRONMENT.get() {
        return Ok(env);
    }
    let path = find_library()?;
    let builder = ort::init_from(&path).map_err(|e| ModelError::RuntimeMissing {
        detail: format!("cannot load {}: {e}", path.display()),
    })?;
    let env = builder
        .with_name("dicechess")
        .with_telemetry(false)
        .build()
        .map_err(|e| ModelError::RuntimeMissing {
            detail: format!("cannot start the runtime from {}: {e}", path.display()),
        })?;
    Ok(ENVIRONMENT.get_or_init(|| env))
}

/// The library path that [`environment`] loads (or would load).
pub fn find_library() -> Result<PathBuf, ModelError> {
    locate(std::env::var_os("ORT_DYLIB_PATH"), &candidate_paths())
}

/// The first usable path: `ort_dylib_path` when set and non-empty (then nothing else is
/// tried), else the first candidate that is a file.
fn locate(ort_dylib_path: Option<OsString>, candidates: &[PathBuf]) -> Result<PathBuf, ModelError> {
    if let Some(p) = ort_dylib_path.filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(ModelError::RuntimeMissing {
                detail: format!("ORT_DYLIB_PATH is {} but no file is there", p.display()),
            })
        };
    }
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .ok_or_else(|| ModelError::RuntimeMissing {
            detail: format!(
                "ORT_DYLIB_PATH is not set and the library is not at any of: {}",
                candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// The default places, in search order.
fn candidate_paths() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        roots.extend(dir.ancestors().map(Path::to_path_buf));
    }
    if let Ok(dir) = std::env::current_dir() {
        roots.push(dir);
    }
    roots.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let mut out: Vec<PathBuf> = Vec::new();
    for root in roots {
        let p = root.join(RUNTIME_RELATIVE_PATH);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_runtime_names_the_variable_and_the_script() {
        let nowhere = PathBuf::from("/nonexistent/libonnxruntime.so.1.32.0");
        for err in [
            locate(Some(nowhere.clone().into_os_string()), &[]).unwrap_err(),
            locate(None, std::slice::from_ref(&nowhere)).unwrap_err(),
        ] {
            let msg = err.to_string();
            assert!(matches!(err, ModelError::RuntimeMissing { .. }), "{msg}");
            assert!(msg.contains("ORT_DYLIB_PATH"), "{msg}");
            assert!(msg.contains(".ci/install-onnxruntime"), "{msg}");
            assert!(msg.contains("/nonexistent/"), "{msg}");
        }
    }

    #[test]
    fn ort_dylib_path_wins_and_empty_means_unset() {
        let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/eval/onnx/runtime.rs");
        let other = PathBuf::from("/nonexistent/lib.so");
        assert_eq!(
            locate(
                Some(here.clone().into_os_string()),
                std::slice::from_ref(&other)
            )
            .unwrap(),
            here
        );
        assert_eq!(
            locate(Some(OsString::new()), &[other, here.clone()]).unwrap(),
            here
        );
    }
}
