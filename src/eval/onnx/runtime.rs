//! Finding and initialising the ONNX Runtime library, once per process (docs/building.md: the
//! `onnxruntime==1.32.0` PyPI wheel's `libonnxruntime.so.1.32.0`, loaded at run time).
//!
//! Where the library is looked for, and nowhere else:
//! 1. `ORT_DYLIB_PATH` (when set and non-empty, it is the only place tried);
//! 2. else `libonnxruntime.so.1.32.0` in the folder of the running executable.
//!
//! Why so narrow: loading a shared library runs its code. The current directory, the folders
//! above the executable and the build tree are places other people can write to (a cloned
//! repository, a shared scratch folder), so a library planted there must never be loaded.
//! `bash .ci/install-onnxruntime` installs the library and prints the path to export.

use super::error::ModelError;
use ort::environment::Environment;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// The runtime version the engine is built and tested against.
pub const RUNTIME_VERSION: &str = "1.32.0";

/// The library's path relative to the folder that holds `.tools` (where
/// `.ci/install-onnxruntime` installs it; export that path as `ORT_DYLIB_PATH`).
pub const RUNTIME_RELATIVE_PATH: &str =
    ".tools/onnxruntime/onnxruntime/capi/libonnxruntime.so.1.32.0";

/// The library's file name, looked for beside the executable.
pub const RUNTIME_FILE_NAME: &str = "libonnxruntime.so.1.32.0";

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

/// The default place: the library beside the running executable (never the current
/// directory or the build tree).
fn candidate_paths() -> Vec<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join(RUNTIME_FILE_NAME)))
        .into_iter()
        .collect()
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
    fn only_the_executables_folder_is_searched() {
        let exe_dir = std::env::current_exe()
            .unwrap()
            .parent()
            .unwrap()
            .to_path_buf();
        let candidates = candidate_paths();
        assert_eq!(candidates, vec![exe_dir.join(RUNTIME_FILE_NAME)]);
        let cwd = std::env::current_dir().unwrap();
        for c in &candidates {
            assert!(
                c.parent() != Some(cwd.as_path()) || cwd == exe_dir,
                "{c:?} is in the current directory"
            );
            assert!(!c.starts_with(env!("CARGO_MANIFEST_DIR")) || c.starts_with(&exe_dir));
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
