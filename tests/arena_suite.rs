//! `dicechess arena --suite` (docs/suites.md): the JVM arena's real scenario catalog read
//! field for field, our own suites' expected turns legal by our rules, scenario scoring and
//! the comparison of two bots; the JVM arena's endgame benchmark format read field for field,
//! its attacker and defender bookkeeping, our endgame suite's king distances; and every
//! refusal of a malformed suite naming its field.
#![allow(clippy::unwrap_used)]

mod common;

use common::temp_dir;
use dicechess::board::Position;
use dicechess::bots::BotOptions;
use dicechess::kernels::Color;
use dicechess::rules::legal_paths;
use dicechess::selfplay::{
    compare_decisions, compute_category_summaries, compute_position_summary, game_seed, load_suite,
    parse_suite, play, run_endgames, run_scenarios, ArenaBot, Comparison, EndgamePositionReport,
    EndgameSettings, EndgameSuite, Expectation, GameLimits, MatchResult, ScenarioCategory,
    ScenarioSuite, Suite, SuiteBot, SuiteDecision, SuiteError, SuiteProblem, TimeControl,
};
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn file(rel: &str) -> std::path::PathBuf {
    Path::new(ROOT).join(rel)
}

fn scenarios(suite: Suite) -> ScenarioSuite {
    match suite {
        Suite::Scenarios(s) => s,
        Suite::Endgames(_) => panic!("an endgame suite"),
    }
}

fn uci_turns(pos: &Position) -> Vec<Vec<String>> {
    legal_paths(pos)
        .iter()
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .collect()
}

fn turns(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter()
        .map(|t| t.iter().map(|m| m.to_string()).collect())
        .collect()
}

fn bot(id: &str) -> ArenaBot {
    ArenaBot::new(
        id,
        BotOptions {
            table_mb: Some(1),
            ..BotOptions::default()
        },
    )
}

#[test]
fn the_jvm_arenas_core_catalog_reads_field_for_field() {
    let s = scenarios(load_suite(&file("tests/fixtures/suites/jvm/core-v1.json")).unwrap());
    assert_eq!(s.id, "core-search-v1");
    assert_eq!(
        s.description,
        "Deterministic tactical, defensive, endgame, and forced-pass decisions for search comparisons"
    );
    assert_eq!(s.seed_set.id, "stable-0-7-42-v1");
    assert_eq!(s.seed_set.values, vec![0, 7, 42]);
    assert_eq!(s.scenarios.len(), 12);
    let first = &s.scenarios[0];
    assert_eq!(first.id, "tactical-immediate-rook-capture");
    assert_eq!(first.category, ScenarioCategory::Tactical);
    assert_eq!(
        first.description,
        "Take an exposed king with the only usable die while two pawn dice stay unusable"
    );
    assert_eq!(first.dfen, "k7/8/8/8/8/8/8/R3K3 w - - 0 1 PPR");
    assert_eq!(first.position, Position::from_dfen(&first.dfen).unwrap());
    assert_eq!(first.expectation, Expectation::Turns(turns(&[&["a1a8"]])));
    let king = s
        .scenarios
        .iter()
        .find(|x| x.id == "defensive-king-leaves-rook-file")
        .unwrap();
    assert_eq!(king.category, ScenarioCategory::Defensive);
    assert_eq!(
        king.expectation,
        Expectation::Turns(turns(&[&["e1d1"], &["e1f1"], &["e1d2"], &["e1f2"]]))
    );
    let promotion = &s.scenarios[8];
    assert_eq!(promotion.id, "endgame-black-queen-promotion");
    assert_eq!(promotion.category, ScenarioCategory::Endgame);
    assert_eq!(promotion.dfen, "k7/8/8/8/8/8/7p/K7 b - - 0 1 p");
    assert_eq!(
        promotion.expectation,
        Expectation::Turns(turns(&[&["h2h1q"]]))
    );
    let pass = &s.scenarios[11];
    assert_eq!(pass.id, "forced-pass-no-black-knights");
    assert_eq!(pass.category, ScenarioCategory::ForcedPass);
    assert_eq!(pass.expectation, Expectation::Pass);
    let categories: Vec<&str> = s.scenarios.iter().map(|x| x.category.id()).collect();
    assert_eq!(
        categories,
        [
            "tactical",
            "tactical",
            "tactical",
            "tactical",
            "defensive",
            "defensive",
            "defensive",
            "endgame",
            "endgame",
            "endgame",
            "forced-pass",
            "forced-pass"
        ]
    );
}

#[test]
fn every_expected_turn_of_our_suites_is_legal() {
    for rel in [
        "suites/scenarios-v1.json",
        "tests/fixtures/suites/jvm/core-v1.json",
    ] {
        let s = scenarios(load_suite(&file(rel)).unwrap());
        assert!(s.scenarios.len() >= 12, "{rel}");
        for x in &s.scenarios {
            let legal = uci_turns(&x.position);
            match &x.expectation {
                Expectation::Pass => assert!(legal.is_empty(), "{rel} {}", x.id),
                Expectation::Turns(allowed) => {
                    for t in allowed {
                        assert!(legal.contains(t), "{rel} {}: {t:?} is not legal", x.id);
                    }
                }
            }
        }
    }
    assert!(
        scenarios(load_suite(&file("suites/scenarios-v1.json")).unwrap())
            .scenarios
            .len()
            >= 20
    );
}

/// A suite whose answers are forced: king captures and a pass.
const FORCED: &str = r#"{
  "schemaVersion": 1,
  "id": "forced",
  "description": "forced answers",
  "seedSet": {"id": "s", "values": [1, 2]},
  "scenarios": [
    {"id": "rook", "category": "tactical", "description": "rook takes king",
     "dfen": "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 R", "expectedTurns": [["e1e8"]]},
    {"id": "knight", "category": "tactical", "description": "knight takes king",
     "dfen": "8/8/8/8/8/2k5/8/1N4K1 w - - 0 1 N", "expectedTurns": [["b1c3"]]},
    {"id": "pass", "category": "forced-pass", "description": "no queen",
     "dfen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1 QQQ", "expectPass": true}
  ]
}"#;

#[test]
fn a_forced_suite_scores_best_fully_and_a_random_bot_consistently() {
    let suite = scenarios(parse_suite(FORCED.as_bytes()).unwrap());
    let report = run_scenarios(&suite, &bot("best"), &bot("random"), None, &|_| {}).unwrap();
    let m = report.summary;
    assert_eq!(m.runs, 6);
    assert_eq!(m.candidate_expectation_hits, 6, "{report:#?}");
    assert_eq!(m.candidate_illegal + m.baseline_illegal, 0);
    // The random bot's hits are exactly its decisions among the expected turns.
    let recount = report
        .results
        .iter()
        .filter(|r| {
            let s = suite
                .scenarios
                .iter()
                .find(|s| s.id == r.scenario_id)
                .unwrap();
            let d = &r.baseline.decision;
            s.expectation
                .matches((!d.passed).then_some(&d.moves[..]), d.legal)
        })
        .count();
    assert_eq!(m.baseline_expectation_hits, recount);
    assert_eq!(m.candidate_regressions, 0);
    assert_eq!(m.candidate_improvements, 6 - recount);
    assert_eq!(m.both_matched, recount);
    // The pass is forced for both.
    assert!(report
        .results
        .iter()
        .filter(|r| r.scenario_id == "pass")
        .all(|r| r.comparison == Comparison::BothMatched && r.same_decision));
    // The same seeds give the same report, whatever the thread count.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let again = one
        .install(|| run_scenarios(&suite, &bot("best"), &bot("random"), None, &|_| {}))
        .unwrap();
    assert_eq!(
        serde_json::to_value(&report.results).unwrap(),
        serde_json::to_value(&again.results).unwrap()
    );
}

fn decision(moves: &[&str]) -> SuiteDecision {
    SuiteDecision {
        passed: moves.is_empty(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        score: None,
        legal: true,
    }
}

#[test]
fn improvements_and_regressions_of_two_bots() {
    let suite = scenarios(parse_suite(FORCED.as_bytes()).unwrap());
    let who = |id: &str| SuiteBot {
        id: id.into(),
        name: id.into(),
    };
    // Runs in order: rook/1, rook/2, knight/1, knight/2, pass/1, pass/2.
    let baseline = vec![
        decision(&["e1e8"]), // hit
        decision(&["e1e2"]), // miss
        decision(&["b1c3"]), // hit
        decision(&["b1a3"]), // miss
        decision(&[]),       // hit
        SuiteDecision {
            legal: false,
            ..decision(&["e1e2"])
        }, // illegal: miss
    ];
    let candidate = vec![
        decision(&["e1e2"]), // regressed
        decision(&["e1e8"]), // improved
        decision(&["b1c3"]), // both matched
        decision(&["b1d2"]), // both missed
        decision(&[]),       // both matched
        decision(&[]),       // improved
    ];
    let r = compare_decisions(&suite, who("base"), who("cand"), baseline, candidate);
    let kinds: Vec<Comparison> = r.results.iter().map(|x| x.comparison).collect();
    assert_eq!(
        kinds,
        [
            Comparison::CandidateRegressed,
            Comparison::CandidateImproved,
            Comparison::BothMatched,
            Comparison::BothMissed,
            Comparison::BothMatched,
            Comparison::CandidateImproved,
        ]
    );
    let m = r.summary;
    assert_eq!(
        (m.runs, m.candidate_improvements, m.candidate_regressions),
        (6, 2, 1)
    );
    assert_eq!((m.both_matched, m.both_missed), (2, 1));
    assert_eq!(
        (m.baseline_expectation_hits, m.candidate_expectation_hits),
        (3, 4)
    );
    assert_eq!((m.same_decisions, m.different_decisions), (2, 4));
    assert_eq!((m.baseline_illegal, m.candidate_illegal), (1, 0));
    let seeds: Vec<i64> = r.results.iter().map(|x| x.seed).collect();
    assert_eq!(seeds, [1, 2, 1, 2, 1, 2]);
    // The JSON report is the JVM arena's `search_evaluation` shape.
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["kind"], "search_evaluation");
    assert_eq!(json["summary"]["candidateImprovements"], 2);
    assert_eq!(json["results"][0]["comparison"], "candidate_regressed");
    assert_eq!(json["results"][0]["candidate"]["matchedExpectation"], false);
    assert_eq!(json["results"][4]["expectation"]["kind"], "pass");
    assert_eq!(json["results"][0]["expectation"]["allowed"][0][0], "e1e8");
}

fn problem(text: &str) -> SuiteProblem {
    parse_suite(text.as_bytes()).unwrap_err()
}

fn field_of(p: &SuiteProblem) -> (Option<usize>, &str) {
    match p {
        SuiteProblem::Field { case, field, .. } => (*case, field.as_str()),
        SuiteProblem::Json(j) => panic!("a JSON error: {j}"),
    }
}

/// `FORCED` with `from` replaced by `to` once.
fn forced_with(from: &str, to: &str) -> String {
    assert!(FORCED.contains(from), "{from}");
    FORCED.replacen(from, to, 1)
}

#[test]
fn a_malformed_suite_is_refused_naming_the_case_and_field() {
    let cases: Vec<(String, Option<usize>, &str, &str)> = vec![
        (
            forced_with(r#""dfen": "8/8/8/8/8/2k5/8/1N4K1 w - - 0 1 N", "#, ""),
            Some(1),
            "scenarios[1].dfen",
            "is required",
        ),
        (
            forced_with(r#""id": "knight","#, r#""id": "knight", "avoid": [],"#),
            Some(1),
            "scenarios[1]",
            "unknown fields: avoid",
        ),
        (
            forced_with(r#""id": "knight","#, r#""id": "knight", "id": "k2","#),
            Some(1),
            "scenarios[1]",
            "duplicate fields: id",
        ),
        (
            forced_with(r#"[["b1c3"]]"#, r#"[["b1b2"]]"#),
            Some(1),
            "scenarios[1].expectedTurns",
            "illegal turns: [b1b2]",
        ),
        (
            forced_with(r#"[["b1c3"]]"#, r#"[["b1c3", 7]]"#),
            Some(1),
            "scenarios[1].expectedTurns[0][1]",
            "must be a string",
        ),
        (
            forced_with(r#""expectPass": true"#, r#""expectPass": false"#),
            Some(2),
            "scenarios[2].expectPass",
            "must be true",
        ),
        (
            forced_with(r#"QQQ","#, r#"QQQ", "expectedTurns": [["e1e2"]],"#),
            Some(2),
            "scenarios[2]",
            "exactly one of expectedTurns or expectPass",
        ),
        (
            forced_with(r#"1N4K1 w - - 0 1 N"#, r#"1N4K1 w - - 0 1"#),
            Some(1),
            "scenarios[1].dfen",
            "non-empty dice pool",
        ),
        (
            forced_with(r#"1N4K1 w - - 0 1 N"#, r#"1N4K1 w - - 0 1 X"#),
            Some(1),
            "scenarios[1].dfen",
            "is invalid",
        ),
        (
            forced_with(
                r#""category": "tactical", "description": "knight"#,
                r#""category": "tricky", "description": "knight"#,
            ),
            Some(1),
            "scenarios[1].category",
            "unknown category",
        ),
        (
            forced_with(r#""id": "knight""#, r#""id": "rook""#),
            Some(1),
            "scenarios[1].id",
            "duplicate id",
        ),
        (
            forced_with(r#""schemaVersion": 1"#, r#""schemaVersion": 2"#),
            None,
            "root.schemaVersion",
            "unsupported schemaVersion 2",
        ),
        (
            forced_with(r#""values": [1, 2]"#, r#""values": [1, 1]"#),
            None,
            "seedSet.values",
            "duplicates",
        ),
        (
            forced_with(r#""values": [1, 2]"#, r#""values": [1, 2.5]"#),
            None,
            "seedSet.values[1]",
            "must be an integer",
        ),
    ];
    for (text, case, field, reason) in cases {
        let p = problem(&text);
        assert_eq!(field_of(&p), (case, field), "{p}");
        assert!(p.to_string().contains(reason), "{p}");
        assert!(p.to_string().starts_with(field), "{p}");
    }
    assert!(matches!(
        problem("{\"schemaVersion\": "),
        SuiteProblem::Json(_)
    ));
    assert_eq!(field_of(&problem("[1]")), (None, "root"));
    assert_eq!(field_of(&problem("{}")), (None, "root.schemaVersion"));
    // A file's error names the file.
    let dir = temp_dir("suite-error");
    let path = dir.path().join("bad-suite.json");
    std::fs::write(&path, forced_with(r#"[["b1c3"]]"#, r#"[["b1b2"]]"#)).unwrap();
    let e = load_suite(&path).unwrap_err();
    assert!(matches!(e, SuiteError::Invalid { .. }));
    let text = e.to_string();
    assert!(
        text.contains("bad-suite.json") && text.contains("scenarios[1].expectedTurns"),
        "{text}"
    );
    assert!(matches!(
        load_suite(&dir.path().join("missing.json")),
        Err(SuiteError::Read { .. })
    ));
}

#[test]
fn the_arena_command_runs_a_suite_and_writes_its_report() {
    let dir = temp_dir("suite-cli");
    let suite = dir.path().join("forced.json");
    std::fs::write(&suite, FORCED).unwrap();
    let json = dir.path().join("report.json");
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["arena", "--quiet", "--threads", "1", "--table-mb", "1"])
        .args(["--suite", suite.to_str().unwrap(), "--bot", "greedy"])
        .args(["--baseline", "random", "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("Search evaluation: greedy vs random"),
        "{table}"
    );
    assert!(table.contains("Expectation hits: candidate 6/6"), "{table}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(report["kind"], "search_evaluation");
    assert_eq!(report["candidate"]["id"], "greedy");
    assert_eq!(report["summary"]["runs"], 6);
    // A bad suite: exit status 2, the file and the field named.
    std::fs::write(&suite, forced_with(r#"[["b1c3"]]"#, r#"[["b1b2"]]"#)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["arena", "--quiet", "--suite", suite.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("forced.json") && err.contains("scenarios[1].expectedTurns"),
        "{err}"
    );
}

/// The JVM arena's `EndgameBenchmarkCatalogSpec` example with the right king distances
/// (their test gives 1 and 1 to show the refusal).
const THEIR_EXAMPLE: &str = r#"{
  "schemaVersion": 1,
  "id": "bad-dist",
  "description": "test",
  "positions": [
    {
      "id": "bad-pos",
      "category": "lone-king-vs-kq",
      "name": "Bad Pos",
      "description": "Wrong distance",
      "fen": "8/8/8/4k3/8/8/4K3/3Q4 w - - 0 1",
      "attackerColor": "white",
      "defenderColor": "black",
      "kingChebyshevDistance": 3,
      "kingManhattanDistance": 3,
      "theoreticalOutcome": "attacker-win"
    }
  ]
}"#;

fn endgames(suite: Suite) -> EndgameSuite {
    match suite {
        Suite::Endgames(s) => s,
        Suite::Scenarios(_) => panic!("a scenario suite"),
    }
}

/// `THEIR_EXAMPLE` with `from` replaced by `to` once.
fn example_with(from: &str, to: &str) -> String {
    assert!(THEIR_EXAMPLE.contains(from), "{from}");
    THEIR_EXAMPLE.replacen(from, to, 1)
}

#[test]
fn the_jvm_arenas_endgame_format_reads_field_for_field() {
    let s = endgames(parse_suite(THEIR_EXAMPLE.as_bytes()).unwrap());
    assert_eq!(
        (s.schema_version, s.id.as_str(), s.description.as_str()),
        (1, "bad-dist", "test")
    );
    assert_eq!(s.positions.len(), 1);
    let p = &s.positions[0];
    assert_eq!(p.id, "bad-pos");
    assert_eq!(p.category, "lone-king-vs-kq");
    assert_eq!(p.name, "Bad Pos");
    assert_eq!(p.description, "Wrong distance");
    assert_eq!(p.fen, "8/8/8/4k3/8/8/4K3/3Q4 w - - 0 1");
    assert_eq!(p.position, Position::from_dfen(&p.fen).unwrap());
    assert_eq!(
        (p.attacker_color, p.defender_color),
        (Color::White, Color::Black)
    );
    assert_eq!(
        (p.king_chebyshev_distance, p.king_manhattan_distance),
        (3, 3)
    );
    assert_eq!(p.theoretical_outcome, "attacker-win");
    // Colours are case-insensitive and may be one letter.
    let s = endgames(
        parse_suite(
            example_with(r#""attackerColor": "white""#, r#""attackerColor": "W""#)
                .replacen(r#""defenderColor": "black""#, r#""defenderColor": "b""#, 1)
                .as_bytes(),
        )
        .unwrap(),
    );
    assert_eq!(s.positions[0].attacker_color, Color::White);
    assert_eq!(s.positions[0].defender_color, Color::Black);
    // A category filter, case-insensitive.
    assert_eq!(
        s.with_category("LONE-KING-VS-KQ").unwrap().positions.len(),
        1
    );
    assert!(s.with_category("kp-vs-k").is_none());
}

#[test]
fn a_malformed_endgame_suite_is_refused_naming_the_position_and_field() {
    let cases: Vec<(String, Option<usize>, &str, &str)> = vec![
        // Their spec's example as written: the distances are 3 and 3, not 1 and 1.
        (
            example_with(
                r#""kingChebyshevDistance": 3"#,
                r#""kingChebyshevDistance": 1"#,
            ),
            Some(0),
            "positions[0].kingChebyshevDistance",
            "1 does not match actual board distance 3",
        ),
        (
            example_with(
                r#""kingManhattanDistance": 3"#,
                r#""kingManhattanDistance": 4"#,
            ),
            Some(0),
            "positions[0].kingManhattanDistance",
            "4 does not match actual board distance 3",
        ),
        (
            example_with(r#""defenderColor": "black""#, r#""defenderColor": "WHITE""#),
            Some(0),
            "positions[0]",
            "attackerColor and defenderColor must be opposite",
        ),
        (
            example_with(r#""attackerColor": "white""#, r#""attackerColor": "red""#),
            Some(0),
            "positions[0].attackerColor",
            "must be 'white' or 'black', got 'red'",
        ),
        (
            example_with(
                r#""name": "Bad Pos","#,
                r#""name": "Bad Pos", "turnLimit": 40,"#,
            ),
            Some(0),
            "positions[0]",
            "contains unknown fields: turnLimit",
        ),
        (
            example_with(
                r#""name": "Bad Pos","#,
                r#""name": "Bad Pos", "name": "Again","#,
            ),
            Some(0),
            "positions[0]",
            "contains duplicate fields: name",
        ),
        (
            example_with(
                r#""theoreticalOutcome": "attacker-win""#,
                r#""theoreticalOutcome": """#,
            ),
            Some(0),
            "positions[0].theoreticalOutcome",
            "must not be empty",
        ),
        (
            example_with(r#""kingManhattanDistance": 3,"#, ""),
            Some(0),
            "positions[0].kingManhattanDistance",
            "is required",
        ),
        (
            example_with(
                r#""kingManhattanDistance": 3"#,
                r#""kingManhattanDistance": "3""#,
            ),
            Some(0),
            "positions[0].kingManhattanDistance",
            "must be an integer",
        ),
        (
            example_with(
                r#""kingManhattanDistance": 3"#,
                r#""kingManhattanDistance": 4294967299"#,
            ),
            Some(0),
            "positions[0].kingManhattanDistance",
            "out of range for an integer",
        ),
        (
            example_with("4K3/3Q4 w - - 0 1", "8/3Q4 w - - 0 1"),
            Some(0),
            "positions[0].fen",
            "missing white king",
        ),
        (
            example_with("4k3/8/8/4K3", "8/8/8/4K3"),
            Some(0),
            "positions[0].fen",
            "missing black king",
        ),
        (
            example_with("3Q4 w - - 0 1", "3Q4 w - - 0 1 QQ"),
            Some(0),
            "positions[0].fen",
            "without dice",
        ),
        (
            example_with("3Q4 w - - 0 1", "3Q4 x - - 0 1"),
            Some(0),
            "positions[0].fen",
            "is invalid",
        ),
        (
            example_with(
                r#""description": "test","#,
                r#""description": "test", "seedSet": {},"#,
            ),
            None,
            "root",
            "contains unknown fields: seedSet",
        ),
        (
            example_with(r#""schemaVersion": 1"#, r#""schemaVersion": 2"#),
            None,
            "root.schemaVersion",
            "unsupported schemaVersion 2 (expected 1)",
        ),
        (
            r#"{"schemaVersion": 2, "id": "test", "description": "d", "positions": []}"#.into(),
            None,
            "root.schemaVersion",
            "unsupported schemaVersion 2",
        ),
        (
            r#"{"schemaVersion": 1, "id": "test", "description": "d", "positions": []}"#.into(),
            None,
            "root.positions",
            "must not be empty",
        ),
        (
            r#"{"schemaVersion": 1, "id": "test", "description": "d", "positions": {}}"#.into(),
            None,
            "root.positions",
            "must be an array",
        ),
        (
            example_with(r#""id": "bad-dist","#, r#""id": "","#),
            None,
            "root.id",
            "must not be empty",
        ),
        (
            example_with(
                r#""id": "bad-dist","#,
                r#""id": "bad-dist", "scenarios": [],"#,
            ),
            None,
            "root",
            "not both",
        ),
    ];
    for (text, case, field, reason) in cases {
        let p = problem(&text);
        assert_eq!(field_of(&p), (case, field), "{p}");
        assert!(p.to_string().contains(reason), "{p}");
        assert!(p.to_string().starts_with(field), "{p}");
    }
    // Duplicate ids.
    let position =
        &THEIR_EXAMPLE[THEIR_EXAMPLE.find("    {").unwrap()..THEIR_EXAMPLE.rfind('}').unwrap()];
    let position = position.trim_end().trim_end_matches(']').trim_end();
    let two = THEIR_EXAMPLE.replacen(position, &format!("{position},\n{position}"), 1);
    let p = problem(&two);
    assert_eq!(field_of(&p), (Some(1), "positions[1].id"), "{p}");
    assert!(p.to_string().contains("position ids must be unique"), "{p}");
    // Not JSON (their spec's "not json").
    assert!(matches!(problem("not json"), SuiteProblem::Json(_)));
}

/// The kings' (chebyshev, manhattan) distance read off the FEN's board field alone.
fn fen_king_distances(fen: &str) -> (i32, i32) {
    let mut kings = [None, None];
    for (row, text) in fen.split(' ').next().unwrap().split('/').enumerate() {
        let mut file = 0;
        for c in text.chars() {
            match c {
                '1'..='8' => file += c.to_digit(10).unwrap() as i32,
                _ => {
                    match c {
                        'K' => kings[0] = Some((file, 7 - row as i32)),
                        'k' => kings[1] = Some((file, 7 - row as i32)),
                        _ => {}
                    }
                    file += 1;
                }
            }
        }
    }
    let ((wf, wr), (bf, br)) = (kings[0].unwrap(), kings[1].unwrap());
    let (dx, dy) = ((wf - bf).abs(), (wr - br).abs());
    (dx.max(dy), dx + dy)
}

#[test]
fn our_endgame_suite_reads_and_every_king_distance_is_right() {
    let s = endgames(load_suite(&file("suites/endgames-v1.json")).unwrap());
    assert_eq!(s.id, "dicechess-rs-endgames-v1");
    assert!(s.description.contains("MIT OR Apache-2.0"));
    assert!((15..=17).contains(&s.positions.len()));
    let mut categories: Vec<&str> = s.positions.iter().map(|p| p.category.as_str()).collect();
    categories.sort_unstable();
    categories.dedup();
    assert_eq!(
        categories,
        [
            "kbn-vs-k",
            "kp-vs-k",
            "lone-king-vs-k2p",
            "lone-king-vs-kq",
            "lone-king-vs-kr"
        ]
    );
    for p in &s.positions {
        assert_eq!(
            (p.king_chebyshev_distance, p.king_manhattan_distance),
            fen_king_distances(&p.fen),
            "{}",
            p.id
        );
        assert!((1..=7).contains(&p.king_chebyshev_distance), "{}", p.id);
        assert_ne!(p.attacker_color, p.defender_color);
        assert!(p.position.dice().is_empty());
        assert_eq!(p.theoretical_outcome, "attacker-win");
    }
    // Attackers of both colours in every category, several distances.
    for c in &categories {
        for color in [Color::White, Color::Black] {
            assert!(
                s.positions
                    .iter()
                    .any(|p| p.category == *c && p.attacker_color == color),
                "{c}"
            );
        }
    }
    let mut distances: Vec<i32> = s
        .positions
        .iter()
        .map(|p| p.king_chebyshev_distance)
        .collect();
    distances.sort_unstable();
    distances.dedup();
    assert!(distances.len() >= 4, "{distances:?}");
}

fn match_result(w: [u64; 3], b: [u64; 3]) -> MatchResult {
    // [wins, losses, draws] of the candidate as White, then as Black.
    MatchResult {
        total_games: w.iter().chain(&b).sum(),
        wins_as_white: w[0],
        losses_as_white: w[1],
        draws_as_white: w[2],
        wins_as_black: b[0],
        losses_as_black: b[1],
        draws_as_black: b[2],
        duration_ms: 100,
    }
}

#[test]
fn the_attacker_and_defender_bookkeeping_follows_the_attackers_colour() {
    // Their spec: the candidate won 2 as White and lost 2 as Black.
    let res = match_result([2, 0, 0], [0, 2, 0]);
    let white = compute_position_summary(Color::White, &res);
    assert_eq!((white.candidate_wins(), white.baseline_wins()), (2, 2));
    assert_eq!(
        (white.cand_wins_as_attacker, white.cand_losses_as_attacker),
        (2, 0)
    );
    assert_eq!(white.cand_attacker_win_rate(), 100.0);
    assert_eq!(
        (white.cand_wins_as_defender, white.cand_losses_as_defender),
        (0, 2)
    );
    assert_eq!(white.cand_defender_win_rate(), 0.0);
    assert_eq!(white.base_attacker_win_rate(), 100.0);
    assert_eq!(white.base_defender_win_rate(), 0.0);
    // The same match on a position Black attacks: the roles swap.
    let black = compute_position_summary(Color::Black, &res);
    assert_eq!(
        (black.cand_wins_as_attacker, black.cand_losses_as_attacker),
        (0, 2)
    );
    assert_eq!(black.cand_attacker_win_rate(), 0.0);
    assert_eq!(
        (black.cand_wins_as_defender, black.cand_losses_as_defender),
        (2, 0)
    );
    assert_eq!(black.cand_defender_win_rate(), 100.0);
    assert_eq!(black.base_attacker_win_rate(), 0.0);
    assert_eq!(black.base_defender_win_rate(), 100.0);
    // Draws and uneven counts.
    let mixed = compute_position_summary(Color::Black, &match_result([1, 1, 2], [3, 0, 1]));
    assert_eq!((mixed.games_as_attacker, mixed.games_as_defender), (4, 4));
    assert_eq!(mixed.cand_draws_as_attacker, 1);
    assert_eq!(mixed.cand_draws_as_defender, 2);
    assert_eq!(mixed.cand_attacker_win_rate(), 75.0);
    assert_eq!(mixed.cand_defender_win_rate(), 25.0);
    assert_eq!(mixed.base_attacker_win_rate(), 25.0);
    assert_eq!(mixed.base_defender_win_rate(), 0.0);
    // Their category spec: two positions of one category, 1-0 as White and 0-1 as Black each.
    let s = endgames(parse_suite(THEIR_EXAMPLE.as_bytes()).unwrap());
    let r = match_result([1, 0, 0], [0, 1, 0]);
    let reports: Vec<EndgamePositionReport> = (0..2)
        .map(|_| {
            EndgamePositionReport::of(&s.positions[0], compute_position_summary(Color::White, &r))
        })
        .collect();
    let cats = compute_category_summaries(&reports);
    assert_eq!(cats.len(), 1);
    let c = &cats[0];
    assert_eq!(c.category, "lone-king-vs-kq");
    assert_eq!((c.position_count, c.total_games), (2, 4));
    assert_eq!((c.candidate_wins, c.baseline_wins, c.draws), (2, 2, 0));
    assert_eq!(
        (c.cand_attacker_win_rate, c.cand_defender_win_rate),
        (100.0, 0.0)
    );
}

/// Two positions, one attacked by each colour.
const TWO_POSITIONS: &str = r#"{
  "schemaVersion": 1,
  "id": "two",
  "description": "two endings",
  "positions": [
    {"id": "kqk", "category": "lone-king-vs-kq", "name": "KQvK", "description": "White attacks",
     "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "attackerColor": "white", "defenderColor": "black",
     "kingChebyshevDistance": 7, "kingManhattanDistance": 7, "theoreticalOutcome": "attacker-win"},
    {"id": "krrk", "category": "krr-vs-k", "name": "KRRvK", "description": "Black attacks",
     "fen": "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1", "attackerColor": "black", "defenderColor": "white",
     "kingChebyshevDistance": 7, "kingManhattanDistance": 7, "theoreticalOutcome": "attacker-win"}
  ]
}"#;

#[test]
fn an_endgame_suite_plays_each_colour_on_seeded_dice_and_tallies_by_hand() {
    let suite = endgames(parse_suite(TWO_POSITIONS.as_bytes()).unwrap());
    let settings = EndgameSettings {
        games_per_color: 2,
        seed: 42,
        limits: GameLimits {
            halfmove: 100,
            turns: 60,
        },
        time: TimeControl::Untimed,
    };
    let (candidate, baseline) = (bot("greedy"), bot("random"));
    let run = || run_endgames(&suite, &candidate, &baseline, &settings, &|_| {}).unwrap();
    let r = run();
    assert_eq!((r.schema_version, r.suite_id.as_str()), (1, "two"));
    assert_eq!(
        (r.candidate_id.as_str(), r.baseline_id.as_str()),
        ("greedy", "random")
    );
    assert_eq!((r.games_per_color, r.seed), (2, 42));
    // By hand: game i of each colour on the dice of game_seed(42, i).
    let (c, b) = (candidate.build().unwrap(), baseline.build().unwrap());
    let mut all = [0u64; 3];
    for (k, pos) in suite.positions.iter().enumerate() {
        let (mut atk, mut def) = ([0u64; 3], [0u64; 3]); // candidate's [wins, losses, draws]
        for i in 0..2 {
            let seed = game_seed(42, i);
            let white = play(
                &pos.position,
                c.as_ref(),
                b.as_ref(),
                seed,
                settings.limits,
                settings.time,
            )
            .unwrap()
            .result;
            let black = play(
                &pos.position,
                b.as_ref(),
                c.as_ref(),
                seed,
                settings.limits,
                settings.time,
            )
            .unwrap()
            .result;
            // The candidate's [wins, losses, draws] slot of a result from White's view.
            let slot = |r: i8, cand_white: bool| match (r, cand_white) {
                (0, _) => 2,
                (1, true) | (-1, false) => 0,
                _ => 1,
            };
            let (as_white, as_black) = (slot(white, true), slot(black, false));
            if pos.attacker_color == Color::White {
                atk[as_white] += 1;
                def[as_black] += 1;
            } else {
                atk[as_black] += 1;
                def[as_white] += 1;
            }
        }
        let p = &r.positions[k];
        assert_eq!(p.id, pos.id);
        assert_eq!((p.chebyshev_distance, p.manhattan_distance), (7, 7));
        assert_eq!(p.summary.cand_wins_as_attacker, atk[0], "{}", pos.id);
        assert_eq!(p.summary.cand_losses_as_attacker, atk[1], "{}", pos.id);
        assert_eq!(p.summary.cand_draws_as_attacker, atk[2], "{}", pos.id);
        assert_eq!(p.summary.cand_wins_as_defender, def[0], "{}", pos.id);
        assert_eq!(p.summary.cand_losses_as_defender, def[1], "{}", pos.id);
        assert_eq!(p.summary.cand_draws_as_defender, def[2], "{}", pos.id);
        assert_eq!(p.candidate_wins, atk[0] + def[0]);
        assert_eq!(p.baseline_wins, atk[1] + def[1]);
        assert_eq!(p.draws, atk[2] + def[2]);
        assert_eq!(p.cand_attacker_win_rate, atk[0] as f64 / 2.0 * 100.0);
        assert_eq!(p.cand_defender_win_rate, def[0] as f64 / 2.0 * 100.0);
        assert_eq!(p.base_attacker_win_rate, def[1] as f64 / 2.0 * 100.0);
        assert_eq!(p.base_defender_win_rate, atk[1] as f64 / 2.0 * 100.0);
        for (t, n) in all
            .iter_mut()
            .zip([p.candidate_wins, p.baseline_wins, p.draws])
        {
            *t += n;
        }
    }
    // Categories sorted by name: krr-vs-k before lone-king-vs-kq.
    let names: Vec<&str> = r.categories.iter().map(|c| c.category.as_str()).collect();
    assert_eq!(names, ["krr-vs-k", "lone-king-vs-kq"]);
    assert_eq!(
        r.categories[1].candidate_wins,
        r.positions[0].candidate_wins
    );
    let m = &r.summary;
    assert_eq!((m.total_positions, m.total_games), (2, 8));
    assert_eq!(
        [m.total_candidate_wins, m.total_baseline_wins, m.total_draws],
        all
    );
    // Deterministic for the seed, whatever the thread count (all but the times).
    let zero = |mut r: dicechess::selfplay::EndgameReport| {
        for p in &mut r.positions {
            p.duration_ms = 0;
            p.summary.match_result.duration_ms = 0;
        }
        r.summary.duration_ms = 0;
        r
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(zero(one.install(run)), zero(r));
}

#[test]
fn the_arena_command_runs_an_endgame_suite_and_writes_their_report() {
    let dir = temp_dir("suite-endgame-cli");
    let suite = dir.path().join("two.json");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let json = dir.path().join("report.json");
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["arena", "--quiet", "--threads", "1", "--table-mb", "1"])
        .args(["--suite", suite.to_str().unwrap(), "--bot", "greedy"])
        .args(["--baseline", "random", "--games", "1", "--seed", "7"])
        .args(["--turn-limit", "60", "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    for text in [
        "Endgame benchmark: greedy vs random",
        "Cand W/D/L",
        "Category breakdown",
        "Total games     : 4",
    ] {
        assert!(table.contains(text), "{table}");
    }
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object().unwrap().keys().cloned().collect::<Vec<_>>()
    };
    let sorted = |k: &[&str]| {
        let mut k: Vec<String> = k.iter().map(|s| s.to_string()).collect();
        k.sort();
        k
    };
    let mut root = keys(&report);
    root.sort();
    assert_eq!(
        root,
        sorted(&[
            "schemaVersion",
            "suiteId",
            "candidateId",
            "baselineId",
            "gamesPerColor",
            "seed",
            "positions",
            "categories",
            "summary"
        ])
    );
    assert_eq!(report["schemaVersion"], 1);
    assert_eq!(report["suiteId"], "two");
    assert_eq!(report["candidateId"], "greedy");
    assert_eq!(report["baselineId"], "random");
    assert_eq!(report["gamesPerColor"], 1);
    assert_eq!(report["seed"], 7);
    let positions = report["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2);
    for p in positions {
        let mut k = keys(p);
        k.sort();
        assert_eq!(
            k,
            sorted(&[
                "id",
                "category",
                "fen",
                "chebyshevDistance",
                "manhattanDistance",
                "candidateWins",
                "baselineWins",
                "draws",
                "candAttackerWinRate",
                "candDefenderWinRate",
                "baseAttackerWinRate",
                "baseDefenderWinRate",
                "durationMs"
            ])
        );
        let games = ["candidateWins", "baselineWins", "draws"].map(|f| p[f].as_u64().unwrap());
        assert_eq!(games.iter().sum::<u64>(), 2);
    }
    assert_eq!(positions[1]["fen"], "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(positions[1]["chebyshevDistance"], 7);
    let categories = report["categories"].as_array().unwrap();
    assert_eq!(categories.len(), 2);
    for c in categories {
        let mut k = keys(c);
        k.sort();
        assert_eq!(
            k,
            sorted(&[
                "category",
                "positionCount",
                "totalGames",
                "candidateWins",
                "baselineWins",
                "draws",
                "candAttackerWinRate",
                "candDefenderWinRate"
            ])
        );
    }
    let mut k = keys(&report["summary"]);
    k.sort();
    assert_eq!(
        k,
        sorted(&[
            "totalPositions",
            "totalGames",
            "totalCandidateWins",
            "totalBaselineWins",
            "totalDraws",
            "candAttackerWinRate",
            "candDefenderWinRate"
        ])
    );
    assert_eq!(report["summary"]["totalGames"], 4);
    // A category filter, and one that matches nothing (exit status 2).
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_dicechess"))
            .args(["arena", "--quiet", "--threads", "1", "--table-mb", "1"])
            .args(["--suite", suite.to_str().unwrap(), "--turn-limit", "20"])
            .args(["--bot", "random", "--baseline", "random"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--games", "1", "--category", "KRR-VS-K"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Total positions : 1"));
    let out = run(&["--games", "1", "--category", "kp-vs-k"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("No positions matched category filter 'kp-vs-k'"));
    let out = run(&["--games", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--games must be at least 1"));
}
