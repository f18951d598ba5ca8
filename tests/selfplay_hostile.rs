//! Self-play folders nobody can abuse: a manifest's file names are never trusted as paths
//! (merge cannot write, resume cannot delete, the digest check cannot hang outside the
//! folder), listed files must be regular files whose copied bytes match their digests,
//! shard indices and counts are checked, and two runs on one folder refuse cleanly.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use common::temp_dir;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn dicechess(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .expect("run dicechess");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn selfplay_args(out: &Path, slice: Option<&str>) -> Vec<String> {
    let mut a: Vec<String> = [
        "selfplay",
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--white",
        "greedy",
        "--black",
        "random",
        "--seed",
        "5",
        "--shard-games",
        "2",
        "--threads",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(s) = slice {
        a.extend(["--shard".to_owned(), s.to_owned()]);
    }
    a
}

fn selfplay(out: &Path, slice: Option<&str>) -> (i32, String) {
    let args = selfplay_args(out, slice);
    dicechess(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn read_manifest(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

fn write_manifest(dir: &Path, m: &Value) {
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_vec_pretty(m).unwrap(),
    )
    .unwrap();
}

/// Replace shard 0's file list with `name` → the digest of the real games file.
fn list_foreign_name(dir: &Path, name: &str) {
    let mut m = read_manifest(dir);
    let files = m["shards"][0]["files"].as_object_mut().unwrap();
    let digest = files["shard-00000.games.jsonl"].clone();
    files.insert(name.to_owned(), digest);
    write_manifest(dir, &m);
}

fn merge(dirs: &[&Path], out: &Path) -> (i32, String) {
    let mut args = vec!["merge".to_owned()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap().to_owned()));
    args.extend(["--out".to_owned(), out.to_str().unwrap().to_owned()]);
    dicechess(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn merge_writes_nothing_outside_out_for_a_traversing_name() {
    let d = temp_dir("traversal");
    // The source of `../victim.sh` is beside the slices; its target would be beside --out.
    let (s0, s1, out) = (d.join("s0"), d.join("s1"), d.join("deep").join("merged"));
    assert_eq!(selfplay(&s0, Some("0/2")).0, 0);
    assert_eq!(selfplay(&s1, Some("1/2")).0, 0);
    std::fs::write(s0.join("../victim.sh"), b"#!/bin/sh\necho planted\n").unwrap();
    list_foreign_name(&s0, "../victim.sh");
    let (code, err) = merge(&[&s0, &s1], &out);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("\"../victim.sh\"") && err.contains("shard-00000"),
        "{err}"
    );
    // Nothing was written beside --out, and --out holds no run.
    assert!(!d.join("deep").join("victim.sh").exists());
    assert!(!out.join("manifest.json").exists());
}

#[test]
fn resume_never_deletes_a_file_the_manifest_names_outside_the_folder() {
    let d = temp_dir("precious");
    let run = d.join("run");
    assert_eq!(selfplay(&run, None).0, 0);
    let precious = d.join("precious.txt");
    std::fs::write(&precious, b"keep me").unwrap();
    list_foreign_name(&run, "../precious.txt");
    let (code, err) = selfplay(&run, None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("../precious.txt"), "{err}");
    assert_eq!(std::fs::read(&precious).unwrap(), b"keep me");
}

#[test]
fn a_device_entry_is_refused_at_once() {
    let d = temp_dir("devzero");
    let (s0, out) = (d.join("s0"), d.join("merged"));
    assert_eq!(selfplay(&s0, None).0, 0);
    list_foreign_name(&s0, "/dev/zero");
    let t = Instant::now();
    let (code, err) = merge(&[&s0], &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero"), "{err}");
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "took {:?}",
        t.elapsed()
    );

    // The right name, but a symlink to a device: not a regular file.
    let s1 = d.join("s1");
    assert_eq!(selfplay(&s1, None).0, 0);
    #[cfg(unix)]
    {
        let f = s1.join("shard-00001.rows.parquet");
        std::fs::remove_file(&f).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &f).unwrap();
        let t = Instant::now();
        let (code, err) = merge(&[&s1], &d.join("m2"));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("not a regular file"), "{err}");
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "took {:?}",
            t.elapsed()
        );
    }
}

#[test]
fn merge_checks_indices_counts_and_the_copied_bytes() {
    let d = temp_dir("counts");
    let s0 = d.join("s0");
    assert_eq!(selfplay(&s0, None).0, 0);
    let pristine = read_manifest(&s0);

    // A shard index outside the run.
    let mut m = pristine.clone();
    m["shards"][1]["index"] = 7.into();
    write_manifest(&s0, &m);
    let (code, err) = merge(&[&s0], &d.join("m1"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("shard 7"), "{err}");

    // A game count the run does not put there.
    let mut m = pristine.clone();
    m["shards"][0]["counts"]["games"] = 3.into();
    write_manifest(&s0, &m);
    let (code, err) = merge(&[&s0], &d.join("m2"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("shard 0") && err.contains("game"), "{err}");

    // A shard file changed after the manifest: refused, and no file (or temporary) left.
    write_manifest(&s0, &pristine);
    let games = s0.join("shard-00001.games.jsonl");
    let mut bytes = std::fs::read(&games).unwrap();
    bytes.push(b'\n');
    std::fs::write(&games, bytes).unwrap();
    let out = d.join("m3");
    let (code, err) = merge(&[&s0], &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("SHA-256"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("shard-00001"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn two_runs_on_one_folder_refuse_cleanly() {
    let d = temp_dir("lock");
    let run = d.join("run");
    std::fs::create_dir_all(&run).unwrap();
    // Another run holds the folder (its lock, taken the way every run takes it).
    let held = dicechess::files::lock_dir(&run).unwrap();
    let (code, err) = selfplay(&run, None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in use by another dicechess run"), "{err}");
    assert!(!run.join("manifest.json").exists());
    drop(held);
    let (code, err) = selfplay(&run, None);
    assert_eq!(code, 0, "{err}");
    // merge locks its --out the same way.
    let merged = d.join("merged");
    std::fs::create_dir_all(&merged).unwrap();
    let held = dicechess::files::lock_dir(&merged).unwrap();
    let (code, err) = merge(&[&run], &merged);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in use by another dicechess run"), "{err}");
    drop(held);
    assert_eq!(merge(&[&run], &merged).0, 0);
}

#[test]
fn a_widening_flag_is_refused_not_ignored() {
    // Self-play is untimed: the widening a clock drives would never happen, so the flag is
    // an input error that names it, and nothing is written.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out_str = out.to_string_lossy().into_owned();
    let (code, stderr) = dicechess(&[
        "selfplay",
        "--games",
        "2",
        "--out",
        &out_str,
        "--d3-widest",
        "8",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--d3-widest"), "{stderr}");
    assert!(!out.exists());
}
