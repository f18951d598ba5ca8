//! `dicechess arena`'s per-side options: each side's model, pre-ranker and candidate limit
//! reach that side and no other, and a bad one is refused before the match starts.
#![allow(clippy::unwrap_used)]

mod common;

use common::temp_dir;
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .arg("arena")
        .args(["--quiet", "--threads", "1", "--table-mb", "0"])
        .args(args)
        .output()
        .unwrap()
}

fn report(args: &[&str], name: &str) -> serde_json::Value {
    let dir = temp_dir(name);
    let json = dir.path().join("report.json");
    let out = arena(&[args, &["--json", json.to_str().unwrap()]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

#[test]
fn a_sides_candidate_limit_reaches_that_side_only() {
    // The same two bots with the limit on the other side: colour-mirrored pairs on shared
    // dice are the same games with the colours' roles swapped, so the scores complement each
    // other exactly and the pentanomials are reversed.
    let base = [
        "--white",
        "expectimax",
        "--black",
        "expectimax",
        "--games",
        "3",
    ];
    let a = report(
        &[&base[..], &["--white-candidates", "1"]].concat(),
        "arena-k-a",
    );
    let b = report(
        &[&base[..], &["--black-candidates", "1"]].concat(),
        "arena-k-b",
    );
    assert_eq!(a["bot"], "expectimax[k=1]");
    assert_eq!(a["opponent"], "expectimax");
    assert_eq!(b["bot"], "expectimax");
    assert_eq!(b["opponent"], "expectimax[k=1]");
    let (sa, sb) = (a["score"].as_f64().unwrap(), b["score"].as_f64().unwrap());
    assert!((sa + sb - 1.0).abs() < 1e-9, "{sa} + {sb}");
    let pa: Vec<u64> = serde_json::from_value(a["pentanomial"].clone()).unwrap();
    let mut pb: Vec<u64> = serde_json::from_value(b["pentanomial"].clone()).unwrap();
    pb.reverse();
    assert_eq!(pa, pb);
    // One candidate is a real handicap: the limited side does not win the match.
    assert!(sa <= 0.5, "expectimax with one candidate scored {sa}");

    // Without per-side flags the ids (and so old reports) are unchanged.
    let plain = report(&base, "arena-k-plain");
    assert_eq!(plain["bot"], "expectimax");
    assert_eq!(plain["opponent"], "expectimax");
}

#[test]
fn a_bad_side_option_is_refused_before_the_match() {
    let dir = temp_dir("arena-bad-model");
    let missing = dir.path().join("no-such-package");
    let out = arena(&[
        "--white",
        "greedy",
        "--black",
        "expectimax-model",
        "--black-model",
        missing.to_str().unwrap(),
        "--games",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-package"), "{err}");
    assert!(
        err.contains("expectimax-model[model=no-such-package]"),
        "{err}"
    );

    let out = arena(&["--white", "greedy", "--white-candidates", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 1"));
}

#[test]
fn several_time_controls_play_one_match_each() {
    let dir = temp_dir("arena-tcs");
    let json = dir.path().join("report.json");
    let out = arena(&[
        "--white",
        "aggressive",
        "--black",
        "greedy",
        "--games",
        "2",
        "--tc",
        "0.05+0, 0.1+1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("time control 0.05+0:"), "{table}");
    assert!(table.contains("time control 0.1+1:"), "{table}");
    let reports: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(reports.len(), 2);
    let clocks: Vec<(u64, u64)> = reports
        .iter()
        .map(|r| {
            let tc = &r["timeControl"];
            assert_eq!(tc["kind"], "clock", "{r}");
            (
                tc["base_ms"].as_u64().unwrap(),
                tc["increment_ms"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(clocks, [(3_000, 0), (6_000, 1_000)]);
    for r in &reports {
        assert_eq!(r["games"], 4, "{r}");
    }

    let out = arena(&["--white", "greedy", "--tc", "1+0,x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"x\""));
}

/// A report without its clock readings (the wall time and the bots' thinking times, which
/// differ from run to run; everything else is decided by the seeds).
fn without_wall(mut r: serde_json::Value) -> serde_json::Value {
    let o = r.as_object_mut().unwrap();
    for k in ["wallS", "thinkBot", "thinkOpponent"] {
        assert!(o.remove(k).is_some(), "no {k} in the report");
    }
    r
}

#[test]
fn an_interrupted_match_resumes_to_the_same_report() {
    let dir = temp_dir("arena-resume");
    let journal = dir.path().join("pairs.jsonl");
    let j = journal.to_str().unwrap();
    let base = [
        "--white",
        "expectimax",
        "--black",
        "greedy",
        "--games",
        "6",
        "--seed",
        "4",
    ];
    let whole = without_wall(report(&base, "arena-resume-whole"));

    let first = without_wall(report(
        &[&base[..], &["--resume", j]].concat(),
        "arena-resume-1",
    ));
    assert_eq!(first, whole, "a journaled match is the same match");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 6);

    // Every line names the machine that played it.
    let host = dicechess::selfplay::host_description();
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["host"], host.as_str(), "{l}");
    }

    // Killed after two pairs, in the middle of writing the third line; the first line as a
    // journal written before hosts were recorded has it (no `host`).
    let lines: Vec<&str> = text.lines().collect();
    let mut old_line: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    old_line.as_object_mut().unwrap().remove("host").unwrap();
    let cut = format!(
        "{}\n{}\n{}",
        old_line,
        lines[1],
        &lines[2][..lines[2].len() / 2]
    );
    std::fs::write(&journal, cut).unwrap();
    let out = arena(
        &[
            &base[..],
            &[
                "--resume",
                j,
                "--json",
                dir.path().join("r.json").to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(without_wall(resumed), whole);
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(
        text.lines().count(),
        6,
        "the cut line is dropped, four pairs added"
    );
    let mut indices: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["pair"]["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2, 3, 4, 5]);
    let hosts: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["host"].clone())
        .collect();
    assert!(hosts[0].is_null(), "the old line is kept as it was");
    assert!(hosts[1..].iter().all(|h| *h == host.as_str()), "{hosts:?}");

    // Another match (another seed) in the same journal plays its own pairs.
    let other = without_wall(report(
        &[
            "--white",
            "expectimax",
            "--black",
            "greedy",
            "--games",
            "6",
            "--seed",
            "5",
            "--resume",
            j,
        ],
        "arena-resume-other",
    ));
    assert_ne!(other["pentanomial"], serde_json::Value::Null);
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        12
    );

    // A recorded pair is not played again: a journal entry altered by hand shows in the
    // report (the test's proof that the journal, not a replay, supplied it).
    let text = std::fs::read_to_string(&journal).unwrap();
    let first_line: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut altered = first_line.clone();
    let old = altered["pair"]["firstWhite"]["result"].as_i64().unwrap();
    altered["pair"]["firstWhite"]["result"] = serde_json::json!(if old == 1 { -1 } else { 1 });
    let rest: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&journal, format!("{altered}\n{}\n", rest.join("\n"))).unwrap();
    let changed = without_wall(report(
        &[&base[..], &["--resume", j]].concat(),
        "arena-resume-2",
    ));
    assert_ne!(changed["wins"], whole["wins"]);

    // A bad line is named.
    std::fs::write(&journal, format!("{first_line}\nnot json\n")).unwrap();
    let out = arena(&[&base[..], &["--resume", j]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("pairs.jsonl") && err.contains("line 2"),
        "{err}"
    );
}
