//! `dicechess tablebase` and the bots' `--tablebases` flag end to end: output, exit statuses,
//! error lines. Only the bare-kings table is built (a fraction of a second); tests/tablebase.rs
//! checks the values of all six.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

fn dicechess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .expect("run dicechess")
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SIDE_BY_SIDE: &str = "8/8/8/3k4/3K4/8/8/8 w - - 0 1";

#[test]
fn build_probe_verify_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = dicechess(&["tablebase", "build", "--dir", d, "--tables", "kk"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["table"], "KvK");
    assert_eq!(lines[0]["positions"], 8064);
    assert_eq!(lines[0]["converged"], true);
    assert_eq!(lines[0]["bytes"], 16_416);
    assert_eq!(
        std::fs::metadata(dir.path().join("KvK.dctb"))
            .unwrap()
            .len(),
        16_416
    );

    let again = dicechess(&["tablebase", "build", "--dir", d, "--tables", "KvK"]);
    assert_eq!(json_lines(&again)[0]["kept"], true);

    let p = dicechess(&["tablebase", "probe", "--dir", d, SIDE_BY_SIDE]);
    assert!(p.status.success(), "{}", stderr(&p));
    let v = &json_lines(&p)[0];
    assert_eq!(v["table"], "KvK");
    assert_eq!(v["sideToMove"], "w");
    let exact = (91.0 + 62.5 * 1.99) / (216.0 + 125.0 * 0.99);
    assert!((v["value"].as_f64().unwrap() - exact).abs() < 2e-5, "{v}");
    // A position no table holds: nulls, not an error.
    let none = dicechess(&[
        "tablebase",
        "probe",
        "--dir",
        d,
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    ]);
    assert!(none.status.success());
    let n = &json_lines(&none)[0];
    assert_eq!(
        (n["table"].clone(), n["value"].clone()),
        ("KQvK".into(), serde_json::Value::Null)
    );

    let ver = dicechess(&["tablebase", "verify", "--dir", d, "--samples", "300"]);
    assert!(ver.status.success(), "{}", stderr(&ver));
    let r = &json_lines(&ver)[0];
    assert_eq!(r["checked"], 300);
    assert!(r["maxError"].as_f64().unwrap() <= 3.1e-5, "{r}");
}

#[test]
fn bad_input_is_named_with_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tablebase", "build", "--dir", d, "--tables", "kk,kppkp"],
            "unknown table \"kppkp\"",
        ),
        (
            vec!["tablebase", "build", "--dir", d, "--discount", "1.5"],
            "--discount 1.5 is outside (0, 1)",
        ),
        (
            vec!["tablebase", "probe", "--dir", d, SIDE_BY_SIDE],
            "no table files",
        ),
        (
            vec![
                "bestmove",
                "8/8/8/3k4/3K4/8/8/8 w - - 0 1 KPN",
                "--tablebases",
                d,
            ],
            "--tablebases",
        ),
        (
            vec![
                "arena",
                "--white",
                "best",
                "--black",
                "best",
                "--black-tablebases",
                d,
            ],
            "no table files",
        ),
    ];
    for (args, want) in cases {
        let o = dicechess(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // A damaged table is named, checksum and all.
    assert!(
        dicechess(&["tablebase", "build", "--dir", d, "--tables", "kk"])
            .status
            .success()
    );
    let path = dir.path().join("KvK.dctb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let o = dicechess(&["tablebase", "probe", "--dir", d, SIDE_BY_SIDE]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("KvK.dctb") && stderr(&o).contains("checksum"),
        "{}",
        stderr(&o)
    );
    let b = dicechess(&["tablebase", "build", "--dir", d, "--tables", "kk"]);
    assert_eq!(b.status.code(), Some(1));
    assert!(stderr(&b).contains("checksum"), "{}", stderr(&b));
}

#[test]
fn bots_take_the_tables_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert!(
        dicechess(&["tablebase", "build", "--dir", d, "--tables", "kk"])
            .status
            .success()
    );
    // Kings side by side, a king die: the capture, with or without tables.
    let o = dicechess(&[
        "bestmove",
        "8/8/8/3k4/3K4/8/8/8 w - - 0 1 KPN",
        "--bot",
        "best",
        "--tablebases",
        d,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_lines(&o)[0]["moves"], serde_json::json!(["d4d5"]));
    // The arena shows the side with tables under its own id.
    let a = dicechess(&[
        "arena",
        "--white",
        "expectimax",
        "--black",
        "expectimax",
        "--tablebases",
        d,
        "--games",
        "1",
        "--dfen",
        "8/8/8/3k4/8/3K4/8/8 w - - 0 1",
        "--quiet",
    ]);
    assert!(a.status.success(), "{}", stderr(&a));
    let out = String::from_utf8(a.stdout).unwrap();
    assert!(out.contains("expectimax[tables]"), "{out}");
}
