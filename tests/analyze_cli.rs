//! `dicechess analyze` end to end: self-play folders and the play server's history (its
//! documented example, whose one turn is a placeholder, is refused naming the game and the
//! turn while the rest of the file is analysed), JSON lines equal to the library's analysis,
//! the HTML report, resume after SIGKILL byte for byte, and settings that must match.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use common::temp_dir;
use dicechess::analysis::{AnalysisConfig, Analyzer, Game};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};

fn dicechess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A self-play folder of `games` games between fast bots.
fn selfplay(dir: &Path, games: u32, seed: u64) -> std::path::PathBuf {
    let out = dir.join(format!("sp-{seed}"));
    ok(&dicechess(&[
        "selfplay",
        "--games",
        &games.to_string(),
        "--white",
        "greedy",
        "--black",
        "random",
        "--seed",
        &seed.to_string(),
        "--out",
        p(&out),
    ]));
    out
}

/// The games of a self-play folder, as JSON values.
fn games_of(folder: &Path) -> Vec<Value> {
    let mut games = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.to_string_lossy().ends_with(".games.jsonl"))
        .collect();
    files.sort();
    for f in files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            games.push(serde_json::from_str(line).unwrap());
        }
    }
    games
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_selfplay_folder_is_analysed_into_the_librarys_records_and_a_report() {
    let dir = temp_dir("analyze-folder");
    let sp = selfplay(&dir, 3, 5);
    let (json_out, html) = (dir.join("a.jsonl"), dir.join("report.html"));
    let o = dicechess(&[
        "analyze",
        p(&sp),
        "--depth",
        "1",
        "--json",
        p(&json_out),
        "--out",
        p(&html),
    ]);
    ok(&o);
    let games = games_of(&sp);
    let analyzer = Analyzer::for_bot(
        "best",
        AnalysisConfig {
            depth: 1,
            time_ms: None,
        },
    )
    .unwrap();
    let mut expected = Vec::new();
    for g in &games {
        let a = analyzer
            .analyze_game(&Game::from_value(g.clone()).unwrap(), &|| ())
            .unwrap();
        expected.extend(a.turns.iter().map(|t| serde_json::to_value(t).unwrap()));
    }
    let got = lines(&json_out);
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        for (k, v) in e.as_object().unwrap() {
            assert_eq!(&g[k], v, "{k} of {} turn {}", e["gameId"], e["turnNumber"]);
        }
    }
    let fields = [
        "gameId",
        "turnNumber",
        "activeColor",
        "dice",
        "moves",
        "equityBefore",
        "equityAfterRoll",
        "luck",
        "bestMoves",
        "bestEquity",
        "playedEquity",
        "error",
        "class",
    ];
    for r in &got {
        for f in fields {
            assert!(r.get(f).is_some(), "{f} missing in {r}");
        }
        let e = r["error"].as_f64().unwrap();
        assert!(e >= 0.0 && r["bestEquity"].as_f64() >= r["playedEquity"].as_f64());
    }
    // One summary line per game on standard output.
    let stdout = String::from_utf8(o.stdout).unwrap();
    let summaries: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(summaries.len(), games.len());
    assert_eq!(summaries[0]["gameId"], games[0]["gameId"]);
    let report = std::fs::read_to_string(&html).unwrap();
    assert!(report.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        report.matches("class=\"equity-graph\"").count(),
        games.len()
    );
    // Self-contained: no script, no stylesheet or image fetched from anywhere.
    assert!(!report.contains("<script") && !report.contains("src=") && !report.contains("<link"));
    assert!(!dir.join("a.jsonl.parts").exists());
}

/// A real game (greedy against random) in the play server's history shape.
fn history_of(record: &Value) -> Value {
    let turns: Vec<Value> = record["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({
                "turnNumber": t["turnNumber"],
                "activeColor": if t["activeColor"] == "w" { "White" } else { "Black" },
                "dice": t["dice"], "moves": t["moves"], "fenAfter": t["fenAfter"],
            })
        })
        .collect();
    json!({
        "gameId": format!("served-{}", record["gameId"].as_str().unwrap()),
        "players": {"white": {"kind": "Bot", "name": "house greedy"}, "black": {"kind": "Bot", "name": "house random"}},
        "rated": true,
        "timeControl": {"Fischer": {"initialSeconds": 300, "incrementSeconds": 3}},
        "result": record["result"],
        "termination": if record["termination"] == "king-capture" { "king_captured" } else { "aborted" },
        "finishedAt": "2026-07-30T21:05:00Z",
        "initialDfen": record["initialDfen"],
        "turns": turns,
        "fairness": {"commit": "sha256-hex", "seed": "server-seed-hex", "clientSeeds": {"white": "...", "black": "..."}},
    })
}

/// The REST reference's example of `GET /games/{id}/history` (`fortemate/dicechess-play-api`,
/// docs/src/content/docs/reference/rest.md), verbatim: its one turn (`e2e4` on dice 1, 1, 4,
/// `fenAfter` `"..."`) is a placeholder, refused at its `fenAfter`.
const DOCUMENTED_EXAMPLE: &str = r#"{
  "gameId": "game-uuid",
  "players": { "white": { "kind": "Bot", "name": "house greedy" }, "black": { "kind": "Human", "name": null } },
  "rated": true,
  "timeControl": { "Fischer": { "initialSeconds": 300, "incrementSeconds": 3 } },
  "result": 1,
  "termination": "king_captured",
  "finishedAt": "2026-07-30T21:05:00Z",
  "initialDfen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  "turns": [{ "turnNumber": 1, "activeColor": "White", "dice": [1, 1, 4], "moves": ["e2e4"], "fenAfter": "..." }],
  "fairness": { "commit": "sha256-hex", "seed": "server-seed-hex", "clientSeeds": { "white": "...", "black": "..." } }
}"#;

#[test]
fn server_histories_are_analysed_and_a_bad_game_is_named_while_the_rest_go_on() {
    let dir = temp_dir("analyze-history");
    let sp = selfplay(&dir, 2, 9);
    let games = games_of(&sp);
    let example: Value = serde_json::from_str(DOCUMENTED_EXAMPLE).unwrap();
    // An array document, as a client saving several histories would write it.
    let doc = json!([example, history_of(&games[0]), history_of(&games[1])]);
    let file = dir.join("histories.json");
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let out = dir.join("h.jsonl");
    let o = dicechess(&["analyze", p(&file), "--depth", "1", "--json", p(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "histories.json:1: game game-uuid turn 1: fenAfter \"...\" is not a position"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 3 games could not be analysed"),
        "{stderr}"
    );
    let got = lines(&out);
    let turns = |g: &Value| g["turns"].as_array().unwrap().len();
    assert_eq!(got.len(), turns(&games[0]) + turns(&games[1]));
    assert_eq!(
        got[0]["gameId"],
        json!(format!("served-{}", games[0]["gameId"].as_str().unwrap()))
    );
    // The same game read from our record gives the same figures.
    let ours = dir.join("ours.jsonl");
    ok(&dicechess(&[
        "analyze",
        p(&sp),
        "--depth",
        "1",
        "--json",
        p(&ours),
    ]));
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("gameId");
        v
    };
    let ours = lines(&ours);
    for (a, b) in got.iter().zip(&ours) {
        assert_eq!(strip(a.clone()), strip(b.clone()));
    }
    // A history without its turns is refused naming the field.
    let mut cut = history_of(&games[0]);
    cut.as_object_mut().unwrap().remove("turns");
    std::fs::write(dir.join("cut.json"), cut.to_string()).unwrap();
    let o = dicechess(&["analyze", p(&dir.join("cut.json"))]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing field `turns`"));
}

#[test]
fn a_run_killed_mid_way_resumes_to_the_same_bytes() {
    let dir = temp_dir("analyze-kill");
    let sp = selfplay(&dir, 8, 3);
    let run = |json_out: &Path, html: &Path| {
        vec![
            "analyze".to_owned(),
            p(&sp).to_owned(),
            "--threads".into(),
            "1".into(),
            "--json".into(),
            p(json_out).to_owned(),
            "--out".into(),
            p(html).to_owned(),
        ]
    };
    let (whole, whole_html) = (dir.join("whole.jsonl"), dir.join("whole.html"));
    ok(&dicechess(
        &run(&whole, &whole_html)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    ));
    let (killed, killed_html) = (dir.join("killed.jsonl"), dir.join("killed.html"));
    let parts = dir.join("killed.jsonl.parts");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(run(&killed, &killed_html))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        let done = std::fs::read_dir(&parts)
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("game-"))
                })
                .count()
            })
            .unwrap_or(0);
        if done >= 2 || started.elapsed().as_secs() > 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !killed.exists() && !killed_html.exists(),
        "killed before the outputs"
    );
    assert!(parts.is_dir());
    let o = dicechess(
        &run(&killed, &killed_html)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    ok(&o);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("resuming"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert_eq!(
        std::fs::read(&killed_html).unwrap(),
        std::fs::read(&whole_html).unwrap()
    );
    assert!(!parts.exists());
}

#[test]
fn a_resume_with_other_settings_is_refused_and_bad_arguments_are_named() {
    let dir = temp_dir("analyze-settings");
    let sp = selfplay(&dir, 1, 4);
    let out = dir.join("a.jsonl");
    // Finished games of a depth-1 run are kept ...
    std::fs::create_dir_all(dir.join("a.jsonl.parts")).unwrap();
    ok(&dicechess(&[
        "analyze",
        p(&sp),
        "--depth",
        "1",
        "--json",
        p(&out),
    ]));
    let parts = dir.join("a.jsonl.parts");
    std::fs::create_dir_all(&parts).unwrap();
    std::fs::write(
        parts.join("run.json"),
        r#"{"format":"dicechess-analyze-parts-1","inputsSha256":"x","games":1,"evaluator":"e","depth":1,"timeMs":null,"engineVersion":"0"}"#,
    )
    .unwrap();
    // ... and a run whose record differs is refused, naming what differs.
    let o = dicechess(&["analyze", p(&sp), "--json", p(&out)]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("another run (inputsSha256 was \"x\"") && e.contains("--restart"),
        "{e}"
    );
    ok(&dicechess(&[
        "analyze",
        p(&sp),
        "--json",
        p(&out),
        "--restart",
    ]));
    let o = dicechess(&["analyze", p(&sp), "--bot", "random"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("best, best-v1, expectimax"));
    let o = dicechess(&["analyze", p(&sp), "--depth", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("depth 4 is not 1 or 2"));
    let o = dicechess(&["analyze", p(&dir.join("missing.jsonl"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.jsonl"));
}
