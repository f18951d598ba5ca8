//! `dicechess equity-lost` end to end: `build` draws and values decisions into a set the
//! library reads, resumes after SIGKILL to the bytes of an uninterrupted run; `score` plays
//! a set with a bot, resumes from its log, refuses a log of another run, a tampered set and
//! bad arguments, each named; `compare` pairs runs and names a file of another set.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use common::temp_dir;
use dicechess::analysis::DecisionSet;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn dicechess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn refused(o: &Output, expected: &str) {
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(expected), "{e} lacks {expected}");
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `tests/data/{name}.txt`'s first `n` positions written to a file of `dir`.
fn sample(dir: &Path, name: &str, n: usize) -> std::path::PathBuf {
    let path = dir.join(format!("{name}.dfen"));
    let lines = common::dfen_list(name);
    std::fs::write(&path, lines[..n].join("\n") + "\n").unwrap();
    path
}

/// The judged decisions of a `--json` report without their thinking times.
fn decisions_of(path: &Path) -> Vec<Value> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.as_object_mut().unwrap().remove("thinkMs");
            d
        })
        .collect()
}

#[test]
fn a_set_is_built_scored_and_resumed() {
    let dir = temp_dir("equity-lost-score");
    let input = sample(&dir, "sample_endgame", 12);
    let set = dir.join("set.jsonl");
    let o = dicechess(&[
        "equity-lost",
        "build",
        p(&input),
        "--out",
        p(&set),
        "--decisions",
        "8",
        "--seed",
        "3",
    ]);
    assert!(ok(&o).contains("8 decisions from 12 positions"));
    assert!(!dir.join("set.jsonl.log").exists());
    let parsed = DecisionSet::parse(&std::fs::read_to_string(&set).unwrap()).unwrap();
    assert_eq!(parsed.decisions.len(), 8);
    assert!(parsed
        .header
        .source
        .starts_with("sample_endgame.dfen sha256:"));

    // A whole run, then the same in two steps through a log: the same judgements.
    let whole = dir.join("whole.json");
    let text = ok(&dicechess(&[
        "equity-lost",
        "score",
        p(&set),
        "--bot",
        "greedy",
        "--json",
        p(&whole),
    ]));
    assert!(text.contains("greedy (untimed): equity lost"), "{text}");
    assert!(text.contains("over 8 decisions"), "{text}");
    let log = dir.join("greedy.log");
    let first = ok(&dicechess(&[
        "equity-lost",
        "score",
        p(&set),
        "--bot",
        "greedy",
        "--log",
        p(&log),
        "--limit",
        "3",
    ]));
    assert!(first.contains("(first 3 of 8)"), "{first}");
    let stepped = dir.join("stepped.json");
    let o = dicechess(&[
        "equity-lost",
        "score",
        p(&set),
        "--bot",
        "greedy",
        "--log",
        p(&log),
        "--json",
        p(&stepped),
    ]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("resuming: 3 decisions"));
    assert_eq!(decisions_of(&whole), decisions_of(&stepped));

    // A teacher cache: the first run fills it with the off-list values, a second run reads
    // them (the file does not grow) and judges the same.
    let cache = dir.join("teacher.cache");
    let cached = dir.join("cached.json");
    for _ in 0..2 {
        ok(&dicechess(&[
            "equity-lost",
            "score",
            p(&set),
            "--bot",
            "greedy",
            "--teacher-cache",
            p(&cache),
            "--json",
            p(&cached),
        ]));
        assert_eq!(decisions_of(&cached), decisions_of(&whole));
    }
    let off_list = decisions_of(&whole)
        .iter()
        .filter(|d| d["offList"] == true)
        .count();
    assert!(off_list > 0);
    let cache_lines = std::fs::read_to_string(&cache).unwrap().lines().count();
    assert!(
        cache_lines > 1 && cache_lines <= off_list + 1,
        "{cache_lines} for {off_list}"
    );

    // The log of another bot's run is refused, naming both runs.
    let o = dicechess(&[
        "equity-lost",
        "score",
        p(&set),
        "--bot",
        "random",
        "--log",
        p(&log),
    ]);
    refused(&o, "written by another run");

    // A tampered set is named by its line; so is an unknown bot.
    let tampered = dir.join("tampered.jsonl");
    let t = std::fs::read_to_string(&set)
        .unwrap()
        .replacen("\"index\":1,", "\"index\":7,", 1);
    std::fs::write(&tampered, t).unwrap();
    refused(
        &dicechess(&["equity-lost", "score", p(&tampered)]),
        "line 3: index 7 where 1 was expected",
    );
    refused(
        &dicechess(&["equity-lost", "score", p(&set), "--bot", "nobody"]),
        "--bot",
    );
    refused(
        &dicechess(&[
            "equity-lost",
            "build",
            p(&dir.join("missing.dfen")),
            "--out",
            p(&set),
        ]),
        "missing.dfen",
    );
    refused(
        &dicechess(&[
            "equity-lost",
            "build",
            p(&input),
            "--out",
            p(&set),
            "--shortlist",
            "0",
        ]),
        "--shortlist",
    );

    // Runs compared: a run against itself differs by nothing and plays the same turns;
    // another bot's run is paired with it; files of another set or not of a run are named.
    let random = dir.join("random.json");
    ok(&dicechess(&[
        "equity-lost",
        "score",
        p(&set),
        "--bot",
        "random",
        "--json",
        p(&random),
    ]));
    let text = ok(&dicechess(&[
        "equity-lost",
        "compare",
        p(&whole),
        p(&cached),
        p(&random),
    ]));
    assert!(
        text.starts_with("8 decisions judged by every run"),
        "{text}"
    );
    let same = text.lines().nth(3).unwrap();
    assert!(same.starts_with("greedy (untimed)"), "{text}");
    assert!(
        same.contains("+0.00 ± 0.00") && same.ends_with(" 8"),
        "{text}"
    );
    assert!(text.lines().nth(4).unwrap().starts_with("random (untimed)"));
    let other_set = dir.join("other-set.json");
    let t = std::fs::read_to_string(&random).unwrap();
    let sha = serde_json::from_str::<Value>(&t).unwrap()["setSha256"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(&other_set, t.replace(&sha, &"0".repeat(64))).unwrap();
    refused(
        &dicechess(&["equity-lost", "compare", p(&whole), p(&other_set)]),
        "set checksums differ",
    );
    refused(
        &dicechess(&["equity-lost", "compare", p(&whole), p(&set)]),
        "set.jsonl: not an `equity-lost score --json` file",
    );
    refused(
        &dicechess(&["equity-lost", "compare", p(&whole)]),
        "compare",
    );
}

#[test]
fn a_killed_build_resumes_to_the_bytes_of_an_uninterrupted_one() {
    let dir = temp_dir("equity-lost-kill");
    let input = sample(&dir, "sample_middlegame", 8);
    let whole = dir.join("whole.jsonl");
    let args = |out: &Path| -> Vec<String> {
        [
            "equity-lost",
            "build",
            p(&input),
            "--out",
            p(out),
            "--decisions",
            "4",
            "--shortlist",
            "1",
            "--threads",
            "1",
        ]
        .map(String::from)
        .to_vec()
    };
    ok(&Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args(&whole))
        .output()
        .unwrap());
    let killed = dir.join("killed.jsonl");
    let log = dir.join("killed.jsonl.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args(&killed))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a decision is logged (the header and one line).
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&log).map_or(0, |t| t.lines().count());
        if lines >= 2 || start.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.exists(), "the kill came too late to test a resume");
    let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args(&killed))
        .output()
        .unwrap();
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("resuming:"));
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert!(!log.exists());
}

/// The committed score files (`suites/equity-lost/`, README "Equity lost per decision") are
/// runs of the committed set: its checksum, every one of its decisions, and `compare`
/// pairs them as the README reports them, so a new bot can be compared with them instead
/// of rerunning them.
#[test]
fn the_committed_score_files_are_runs_of_the_committed_set() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let set = std::fs::read(root.join("suites/decisions-v1.jsonl")).unwrap();
    let sha = dicechess::digest::sha256_hex(&set);
    let runs =
        ["best-200ms.json", "best-net-200ms.json"].map(|f| root.join("suites/equity-lost").join(f));
    for run in &runs {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(run).unwrap()).unwrap();
        assert_eq!(v["setSha256"], sha.as_str(), "{}", run.display());
        assert_eq!(v["decisions"].as_array().unwrap().len(), 2000);
        assert_eq!(v["timeMs"], 200);
    }
    let text = ok(&dicechess(&[
        "equity-lost",
        "compare",
        p(&runs[0]),
        p(&runs[1]),
    ]));
    assert!(
        text.starts_with("2000 decisions judged by every run"),
        "{text}"
    );
    let net = text.lines().nth(3).unwrap();
    assert!(
        net.starts_with("best-net (200 ms)") && net.contains("+0.25 ± 0.62"),
        "{text}"
    );
}
