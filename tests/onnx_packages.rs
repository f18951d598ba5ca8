//! Model packages as trainers export them, loaded so nobody can abuse them:
//! external weights in `model.onnx.data` (torch ≥ 2.13's default) resolved relative to the
//! package folder, never the current directory, and covered by the manifest's digests; package
//! files read bounded and only when they are regular files; the ONNX Runtime library loaded
//! only from `ORT_DYLIB_PATH` or beside the executable.
//!
//! The model tests need the ONNX Runtime library (ORT_DYLIB_PATH, see
//! `.ci/install-onnxruntime`); they fail, never skip, without it.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "onnx")]

mod common;

use common::temp_dir;
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::onnx::{FeatureModel, ModelError};
use dicechess::eval::BatchEvaluator;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models")
        .join(name)
}

/// A copy of a fixture package in `dir`, with `edit` applied to its manifest.
fn copy_package(from: &str, dir: &Path, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let to = dir.join(from.replace('/', "-"));
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(fixture(from)).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let mut m: Value =
        serde_json::from_slice(&std::fs::read(to.join("manifest.json")).unwrap()).unwrap();
    edit(&mut m);
    std::fs::write(to.join("manifest.json"), serde_json::to_vec(&m).unwrap()).unwrap();
    to
}

fn load_err(dir: &Path) -> ModelError {
    match FeatureModel::load(dir) {
        Ok(_) => panic!("{} loaded", dir.display()),
        Err(e) => e,
    }
}

const POSITIONS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNQ",
    "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1 ppr",
    "3k2nr/2Nqpb2/pQ1P1Bpp/2p2p2/PP6/7N/R3PPPP/4KBR1 b - - 0 11 bbq",
];

fn scores(model: &FeatureModel) -> Vec<f32> {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|d| Position::from_dfen(d).unwrap())
        .collect();
    let batch = PositionBatch::from_positions(&positions);
    let mut out = vec![0.0; positions.len()];
    model.evaluate(&batch, &mut out).unwrap();
    out
}

#[test]
fn external_weights_load_from_the_package_folder_and_match_the_embedded_model() {
    // The test's working directory is the repository root, not the package folder.
    let external = FeatureModel::load(&fixture("external-material7")).unwrap();
    let embedded = FeatureModel::load(&fixture("linear-material7")).unwrap();
    assert!(external.package().external_data().is_some());
    assert_eq!(scores(&external), scores(&embedded));
}

#[test]
fn eval_from_another_working_directory_uses_the_packages_side_file() {
    let d = temp_dir("cwd");
    let input = d.join("in.dfen");
    std::fs::write(&input, POSITIONS.join("\n")).unwrap();
    let run = |pkg: &str, out: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
            .current_dir(d.path())
            .args(["eval", "in.dfen", "--model"])
            .arg(fixture(pkg))
            .args(["--out", out])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(d.join(out)).unwrap()
    };
    let a = run("external-material7", "a.npy");
    let b = run("linear-material7", "b.npy");
    assert_eq!(a, b);
}

#[test]
fn external_data_outside_the_manifest_or_elsewhere_is_refused_with_the_fix() {
    let d = temp_dir("undeclared");
    let pkg = copy_package("external-material7", d.path(), |m| {
        m.as_object_mut().unwrap().remove("modelDataSha256");
    });
    let actual =
        dicechess::eval::onnx::sha256_hex(&std::fs::read(pkg.join("model.onnx.data")).unwrap());
    let e = load_err(&pkg);
    assert!(
        matches!(e, ModelError::ExternalDataUndeclared { .. }),
        "{e}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("modelDataSha256") && msg.contains(&actual),
        "{msg}"
    );
    assert!(msg.contains("re-export"), "{msg}");

    let pkg = copy_package("external-material7", &d.join("wrong"), |m| {
        m["modelDataSha256"] = Value::from("0".repeat(64));
    });
    let e = load_err(&pkg);
    assert!(matches!(e, ModelError::DataDigest { .. }), "{e}");

    let pkg = copy_package("external-material7", &d.join("missing"), |_| {});
    std::fs::remove_file(pkg.join("model.onnx.data")).unwrap();
    let e = load_err(&pkg);
    assert!(e.to_string().contains("model.onnx.data"), "{e}");

    let e = load_err(&fixture("broken/external-elsewhere"));
    assert!(matches!(e, ModelError::ExternalDataLocation { .. }), "{e}");
    assert!(e.to_string().contains("\"weights.bin\""), "{e}");
}

#[cfg(unix)]
#[test]
fn a_package_file_linked_to_dev_zero_fails_at_once() {
    let d = temp_dir("devzero");
    for file in ["model.onnx", "manifest.json", "model.onnx.data"] {
        let pkg = copy_package("external-material7", &d.join(file), |_| {});
        std::fs::remove_file(pkg.join(file)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", pkg.join(file)).unwrap();
        let t = Instant::now();
        let e = load_err(&pkg);
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{file}: {:?}",
            t.elapsed()
        );
        assert!(matches!(e, ModelError::NotRegular { .. }), "{file}: {e}");
        assert!(e.to_string().contains(file), "{e}");
    }
    // A named pipe with no writer: opening it to read would wait forever.
    let pkg = copy_package("linear-material7", &d.join("fifo"), |_| {});
    std::fs::remove_file(pkg.join("model.onnx")).unwrap();
    let made = Command::new("mkfifo").arg(pkg.join("model.onnx")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let t = Instant::now();
    let e = load_err(&pkg);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "fifo: {:?}",
        t.elapsed()
    );
    assert!(matches!(e, ModelError::NotRegular { .. }), "fifo: {e}");
}

#[test]
fn the_runtime_is_never_loaded_from_the_working_directory() {
    let d = temp_dir("planted");
    // A "library" planted where the old search looked: the working directory's .tools and
    // the working directory itself.
    let tools = d.join(dicechess::eval::onnx::RUNTIME_RELATIVE_PATH);
    std::fs::create_dir_all(tools.parent().unwrap()).unwrap();
    std::fs::write(&tools, b"not a library").unwrap();
    std::fs::write(d.join(dicechess::eval::onnx::RUNTIME_FILE_NAME), b"x").unwrap();
    std::fs::write(d.join("in.dfen"), POSITIONS[0]).unwrap();
    let exe_dir = Path::new(env!("CARGO_BIN_EXE_dicechess")).parent().unwrap();
    assert!(
        !exe_dir
            .join(dicechess::eval::onnx::RUNTIME_FILE_NAME)
            .exists(),
        "this test needs no library beside the executable"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .current_dir(d.path())
        .env_remove("ORT_DYLIB_PATH")
        .args(["eval", "in.dfen", "--model"])
        .arg(fixture("linear-material7"))
        .args(["--out", "o.npy"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("ONNX Runtime not available"), "{err}");
    assert!(
        !err.contains(d.to_str().unwrap()),
        "tried the working directory: {err}"
    );
    assert!(err.contains(exe_dir.to_str().unwrap()), "{err}");
}
