//! The play server's game history (`GET /games/{id}/history`, `fortemate/dicechess-play-api`
//! `docs/src/content/docs/reference/rest.md`, "Get game history (replay)"): read in its
//! documented shape, replayed against the rules, and by `dicechess replay`.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotOptions};
use dicechess::rules::legal_paths;
use dicechess::selfplay::{play_game, validate_history_json, GameLimits, GameRecord, Termination};
use serde_json::{json, Value};
use std::process::Command;

/// The REST reference's example, verbatim (its one turn, `e2e4` on dice 1, 1, 4, is a
/// placeholder: it spends one die where the rules make two pawn moves and the rook's die
/// spendable, and its `fenAfter` is `"..."`).
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

/// A real game (greedy against random-king-capture), as the server would serve its history.
fn served_history(seed: u64) -> (Value, GameRecord) {
    let white = bot_by_id("greedy", &BotOptions::default()).unwrap();
    let black = bot_by_id("random", &BotOptions::default()).unwrap();
    let record = play_game(
        &Position::startpos(),
        white.as_ref(),
        black.as_ref(),
        seed,
        GameLimits::default(),
        format!("served-{seed}"),
        (json!("greedy"), json!("random")),
    )
    .unwrap();
    let turns: Vec<Value> = record
        .turns
        .iter()
        .map(|t| {
            json!({
                "turnNumber": t.turn_number,
                "activeColor": if t.active_color == "w" { "White" } else { "Black" },
                "dice": t.dice,
                "moves": t.moves,
                "fenAfter": t.fen_after,
            })
        })
        .collect();
    let termination = match record.termination {
        Termination::KingCapture => "king_captured",
        // A game the server adjudicates by neither limit: its clocks end it.
        Termination::HalfmoveLimit | Termination::TurnLimit => "aborted",
    };
    let history = json!({
        "gameId": record.game_id,
        "players": {"white": {"kind": "Bot", "name": "house greedy"}, "black": {"kind": "Bot", "name": "house random"}},
        "rated": false,
        "timeControl": {"Unlimited": {}},
        "result": record.result,
        "termination": termination,
        "finishedAt": "2026-12-03T00:00:00Z",
        "initialDfen": record.initial_dfen,
        "turns": turns,
        "fairness": {"commit": "00", "seed": "11", "clientSeeds": {"white": null, "black": null}},
    });
    (history, record)
}

#[test]
fn the_documented_example_is_read_and_its_placeholder_turn_refused_with_its_place() {
    let err = validate_history_json(DOCUMENTED_EXAMPLE).unwrap_err();
    assert_eq!(err.game_id.as_deref(), Some("game-uuid"));
    // `fenAfter` "..." is read before the moves: refused naming the field and turn 1.
    assert_eq!(err.turn, Some(1), "{err}");
    assert!(err.message.contains("fenAfter"), "{err}");
    // With a real `fenAfter`, the turn itself is refused: one die spent where more can be.
    let mut v: Value = serde_json::from_str(DOCUMENTED_EXAMPLE).unwrap();
    v["turns"][0]["fenAfter"] = json!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let err = validate_history_json(&v.to_string()).unwrap_err();
    assert_eq!(
        (err.game_id.as_deref(), err.turn),
        (Some("game-uuid"), Some(1))
    );
    assert!(
        err.message
            .contains("e2e4 is not a legal turn path for dice [1,1,4]"),
        "{err}"
    );
}

#[test]
fn real_games_in_the_servers_shape_replay_and_a_mutated_turn_is_named() {
    let mut checked = 0;
    for seed in 1..=6 {
        let (history, record) = served_history(seed);
        let summary = validate_history_json(&history.to_string()).unwrap();
        assert_eq!(summary.turns, record.turns.len());
        assert_eq!(summary.result, record.result);
        // Replace one turn with a path that is not legal for its roll (another roll's path,
        // or a pass where paths exist): refused at that turn.
        let k = record.turns.len() / 2;
        let t = &record.turns[k];
        let before = if k == 0 {
            Position::startpos()
        } else {
            Position::from_dfen(&record.turns[k - 1].fen_after).unwrap()
        };
        let rolled = before.with_dice(dicechess::board::Dice::from_faces(&t.dice).unwrap());
        let mut bad = history.clone();
        if legal_paths(&rolled).is_empty() {
            bad["turns"][k]["moves"] = json!(["a1a8"]);
        } else {
            bad["turns"][k]["moves"] = json!([]);
        }
        let err = validate_history_json(&bad.to_string()).unwrap_err();
        assert_eq!(err.turn, Some(t.turn_number), "{err}");
        assert_eq!(err.game_id.as_deref(), Some(record.game_id.as_str()));
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn endings_must_agree_with_the_moves() {
    let (history, record) = (1..50)
        .map(served_history)
        .find(|(_, r)| r.termination == Termination::KingCapture)
        .unwrap();
    validate_history_json(&history.to_string()).unwrap();
    let mut wrong_winner = history.clone();
    wrong_winner["result"] = json!(-record.result);
    let err = validate_history_json(&wrong_winner.to_string()).unwrap_err();
    assert!(err.message.contains("capture a king"), "{err}");
    let mut resigned = history.clone();
    resigned["termination"] = json!("resign");
    assert!(validate_history_json(&resigned.to_string()).is_err());
    // Cut before the capture: a resignation there is a valid ending; a draw must score 0.
    let mut cut = history.clone();
    cut["turns"].as_array_mut().unwrap().pop();
    cut["termination"] = json!("resign");
    validate_history_json(&cut.to_string()).unwrap();
    cut["termination"] = json!("draw_agreement");
    let err = validate_history_json(&cut.to_string()).unwrap_err();
    assert!(err.message.contains("DrawAgreement"), "{err}");
}

#[test]
fn another_shape_is_refused_naming_the_missing_field() {
    for field in ["turns", "initialDfen", "fairness", "termination", "result"] {
        let mut v: Value = serde_json::from_str(DOCUMENTED_EXAMPLE).unwrap();
        v.as_object_mut().unwrap().remove(field);
        let err = validate_history_json(&v.to_string()).unwrap_err();
        assert!(
            err.message.contains(&format!("missing field `{field}`")),
            "{field}: {err}"
        );
        assert_eq!(err.game_id.as_deref(), Some("game-uuid"));
    }
    let mut v: Value = serde_json::from_str(DOCUMENTED_EXAMPLE).unwrap();
    v["termination"] = json!("stalemate");
    let err = validate_history_json(&v.to_string()).unwrap_err();
    assert!(err.message.contains("stalemate"), "{err}");
}

#[test]
fn replay_reads_a_served_history_a_document_an_array_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = served_history(2);
    let (b, _) = served_history(3);
    let pretty = dir.path().join("history.json");
    std::fs::write(&pretty, serde_json::to_string_pretty(&a).unwrap()).unwrap();
    let array = dir.path().join("histories.json");
    std::fs::write(
        &array,
        serde_json::to_string_pretty(&json!([a, b])).unwrap(),
    )
    .unwrap();
    let lines = dir.path().join("histories.jsonl");
    std::fs::write(&lines, format!("{a}\n{b}\n")).unwrap();
    let replay = |path: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_dicechess"))
            .arg("replay")
            .arg(path)
            .output()
            .unwrap()
    };
    for (path, games) in [(&pretty, 1), (&array, 2), (&lines, 2)] {
        let o = replay(path);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}: {out}", path.display());
        assert!(
            out.contains(&format!("{games} games checked, {games} valid")),
            "{out}"
        );
    }
    // The documented example: read, its turn refused with the game id and the turn.
    let doc = dir.path().join("documented.json");
    std::fs::write(&doc, DOCUMENTED_EXAMPLE).unwrap();
    let o = replay(&doc);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("game game-uuid") && out.contains("turn 1"),
        "{out}"
    );
}
