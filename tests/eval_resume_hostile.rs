//! `dicechess eval` resumes only what is really finished: the input's identity is the hash
//! of its whole content (a same-size edit in the middle of a large input refuses the
//! resume), each part is reused only when its bytes match its checksum, and two runs on
//! one output refuse cleanly.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use common::temp_dir;
use std::path::Path;
use std::process::{Command, Output};

fn eval(input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "eval",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--features",
        "material-7-v1",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(&args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const A: &str = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 PPR";
const B: &str = "4k3/8/8/8/8/8/8/Q3K3 w Q - 0 1 PPR";

/// `lines` copies of `line`, then a bad line (which stops a run without --skip-bad after
/// the chunks before it finished).
fn input(path: &Path, lines: usize, line: &str) {
    let mut text = String::with_capacity(lines * (line.len() + 1) + 64);
    for _ in 0..lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("4k3/8/8/8/8/8/8/4K3 x - - 0 1\n");
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_same_size_edit_in_the_middle_refuses_the_resume() {
    let d = temp_dir("middle");
    let (inp, out) = (d.join("in.dfen"), d.join("out.parquet"));
    // 3.4 MB: more than the first and last MiB a sampling fingerprint would hash.
    input(&inp, 100_000, A);
    let o = eval(&inp, &out, &["--chunk-rows", "20000"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Same size, one line in the middle (byte ~1.7 MB) now another position.
    let mut bytes = std::fs::read(&inp).unwrap();
    let at = 50_000 * (A.len() + 1);
    bytes[at..at + A.len()].copy_from_slice(B.as_bytes());
    let size = bytes.len();
    std::fs::write(&inp, &bytes).unwrap();
    assert_eq!(std::fs::metadata(&inp).unwrap().len() as usize, size);
    let o = eval(&inp, &out, &["--skip-bad"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("input_sha256 was"), "{err}");
    assert!(err.contains("--restart"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_part_whose_bytes_changed_is_computed_again() {
    let d = temp_dir("checksum");
    let (ia, ib) = (d.join("a.dfen"), d.join("b.dfen"));
    input(&ia, 8, A);
    input(&ib, 8, B);
    let (oa, ob) = (d.join("a.parquet"), d.join("b.parquet"));
    for (i, o) in [(&ia, &oa), (&ib, &ob)] {
        let r = eval(i, o, &["--chunk-rows", "4"]);
        assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    }
    // B's first part is a valid part 0 of the same layout, but not A's bytes.
    let part = |o: &Path| {
        o.with_extension("parquet.parts")
            .join("part-00000000.parquet")
    };
    std::fs::copy(part(&ob), part(&oa)).unwrap();
    let r = eval(&ia, &oa, &["--skip-bad"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("resuming: 1 finished part(s)"),
        "{}",
        stderr(&r)
    );
    // Byte for byte the output of an uninterrupted run.
    let fresh = d.join("fresh.parquet");
    let r = eval(&ia, &fresh, &["--skip-bad", "--chunk-rows", "4"]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::read(&oa).unwrap(), std::fs::read(&fresh).unwrap());
}

#[test]
fn two_runs_on_one_output_refuse_cleanly() {
    let d = temp_dir("lock");
    let (inp, out) = (d.join("in.dfen"), d.join("out.parquet"));
    input(&inp, 8, A);
    let parts = out.with_extension("parquet.parts");
    std::fs::create_dir_all(&parts).unwrap();
    let held = dicechess::files::lock_dir(&parts).unwrap();
    for extra in [&["--skip-bad"][..], &["--skip-bad", "--restart"][..]] {
        let o = eval(&inp, &out, extra);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("in use by another dicechess run"),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists());
    }
    drop(held);
    let o = eval(&inp, &out, &["--skip-bad"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
