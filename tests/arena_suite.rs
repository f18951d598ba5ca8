//! `dicechess arena --suite` (docs/suites.md): the JVM arena's real scenario catalog read
//! field for field, our own suites' expected turns legal by our rules, scenario scoring and
//! the comparison of two bots, endgame conversion and defence counts, and every refusal of a
//! malformed suite naming its field.
#![allow(clippy::unwrap_used)]

mod common;

use common::temp_dir;
use dicechess::board::Position;
use dicechess::bots::BotOptions;
use dicechess::kernels::Color;
use dicechess::rules::legal_paths;
use dicechess::selfplay::{
    compare_decisions, load_suite, parse_suite, run_endgames, run_scenarios, ArenaBot, Comparison,
    EndgameRates, Expectation, GameLimits, GameOutcome, ScenarioCategory, ScenarioSuite, Suite,
    SuiteBot, SuiteDecision, SuiteError, SuiteProblem, TimeControl,
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
    let Suite::Endgames(e) = load_suite(&file("suites/endgames-v1.json")).unwrap() else {
        panic!("suites/endgames-v1.json is not an endgame suite");
    };
    assert!(e.endgames.len() >= 4);
    for g in &e.endgames {
        assert!(g.position.dice().is_empty(), "{}", g.id);
        assert!(!legal_paths(
            &g.position
                .with_dice(dicechess::board::Dice::from_faces(&[6]).unwrap())
        )
        .is_empty());
    }
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

fn outcome(result: i8) -> GameOutcome {
    GameOutcome {
        result,
        termination: "king-capture",
        turns: 9,
    }
}

#[test]
fn endgame_rates_count_wins_from_the_winning_side_and_holds_from_the_losing_side() {
    use Color::{Black, White};
    let attacking = [
        (White, outcome(1)),  // converted
        (White, outcome(0)),  // drawn
        (Black, outcome(-1)), // converted
        (Black, outcome(1)),  // lost
    ];
    let defending = [
        (White, outcome(1)),  // lost
        (White, outcome(-1)), // held and won
        (Black, outcome(0)),  // held
    ];
    let r = EndgameRates::of(&attacking, &defending);
    assert_eq!((r.conversions, r.attacking_games), (2, 4));
    assert_eq!(r.conversion_rate, 0.5);
    assert_eq!((r.defences, r.defending_games, r.defending_wins), (2, 3, 1));
    assert!((r.defence_rate - 2.0 / 3.0).abs() < 1e-12);
}

const TWO_ENDGAMES: &str = r#"{
  "schemaVersion": 1,
  "id": "two",
  "description": "two endings",
  "seedSet": {"id": "s", "values": [3, 4]},
  "endgames": [
    {"id": "kqk", "description": "KQvK", "dfen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
     "winningSide": "white", "turnLimit": 40},
    {"id": "krrk", "description": "KRRvK for Black", "dfen": "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1",
     "winningSide": "black", "turnLimit": 40}
  ]
}"#;

#[test]
fn an_endgame_suite_counts_conversions_and_defences_at_a_fixed_seed() {
    let Suite::Endgames(suite) = parse_suite(TWO_ENDGAMES.as_bytes()).unwrap() else {
        panic!("not an endgame suite");
    };
    let limits = GameLimits::default();
    let run = || {
        run_endgames(
            &suite,
            &bot("greedy"),
            &bot("random"),
            limits,
            TimeControl::Untimed,
            &|_| {},
        )
        .unwrap()
    };
    let r = run();
    assert_eq!(r.results.len(), 4);
    assert_eq!(r.kind, "endgame_evaluation");
    let won = |side: &str, g: &GameOutcome| match side {
        "white" => g.result == 1,
        _ => g.result == -1,
    };
    let conversions = r
        .results
        .iter()
        .filter(|x| won(x.winning_side, &x.candidate_attacking))
        .count();
    let baseline_conversions = r
        .results
        .iter()
        .filter(|x| won(x.winning_side, &x.candidate_defending))
        .count();
    let c = r.summary.candidate;
    assert_eq!((c.conversions, c.attacking_games), (conversions, 4));
    assert_eq!(
        (c.defences, c.defending_games),
        (4 - baseline_conversions, 4)
    );
    let b = r.summary.baseline;
    assert_eq!(
        (b.conversions, b.defences),
        (baseline_conversions, 4 - conversions)
    );
    assert!(r
        .results
        .iter()
        .all(|x| x.candidate_attacking.turns <= 40 && x.candidate_defending.turns <= 40));
    // Deterministic for the seeds, whatever the thread count.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(one.install(run).results, r.results);
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
        (
            TWO_ENDGAMES.replacen(r#""winningSide": "black""#, r#""winningSide": "red""#, 1),
            Some(1),
            "endgames[1].winningSide",
            "\"white\" or \"black\"",
        ),
        (
            TWO_ENDGAMES.replacen("3QK3 w - - 0 1", "3QK3 w - - 0 1 QQ", 1),
            Some(0),
            "endgames[0].dfen",
            "must not include dice",
        ),
        (
            TWO_ENDGAMES.replacen(r#""turnLimit": 40}"#, r#""turnLimit": 0}"#, 1),
            Some(0),
            "endgames[0].turnLimit",
            "must be from 1",
        ),
        (
            TWO_ENDGAMES.replacen(r#""id": "two","#, r#""id": "two", "scenarios": [],"#, 1),
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
