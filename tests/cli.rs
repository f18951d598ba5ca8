//! The `dicechess` binary end to end: output format, exit statuses and error lines.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod reference;

use std::process::{Command, Output};

fn dicechess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .expect("run dicechess")
}

fn stdout_lines(o: &Output) -> Vec<String> {
    String::from_utf8(o.stdout.clone())
        .expect("utf-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

const KIWIPETE_PNB: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB";

#[test]
fn turns_prints_the_reference_paths_in_rule_order() {
    let o = dicechess(&["turns", KIWIPETE_PNB]);
    assert!(o.status.success());
    let want: Vec<String> = reference::legal_paths(KIWIPETE_PNB)
        .iter()
        .map(|p| p.join(","))
        .collect();
    assert_eq!(stdout_lines(&o), want);
    let count = dicechess(&["turns", KIWIPETE_PNB, "--count"]);
    assert_eq!(stdout_lines(&count), vec![want.len().to_string()]);
}

#[test]
fn turns_tree_is_json_keyed_by_uci_with_a_leaf_per_path() {
    let dfen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1 PPK";
    let o = dicechess(&["turns", dfen, "--tree"]);
    assert!(o.status.success());
    let tree: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    fn leaves(v: &serde_json::Value, prefix: &mut Vec<String>, out: &mut Vec<String>) {
        let map = v.as_object().expect("object");
        if map.is_empty() {
            out.push(prefix.join(","));
        }
        for (k, child) in map {
            prefix.push(k.clone());
            leaves(child, prefix, out);
            prefix.pop();
        }
    }
    let mut got = Vec::new();
    leaves(&tree, &mut Vec::new(), &mut got);
    got.sort();
    let mut want: Vec<String> = reference::legal_paths(dfen)
        .iter()
        .map(|p| p.join(","))
        .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn moves_and_playable() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNN";
    let o = dicechess(&["moves", start]);
    let mut got = stdout_lines(&o);
    got.sort();
    let mut want: Vec<String> = reference::legal_paths(start)
        .iter()
        .map(|p| p[0].clone())
        .collect();
    want.sort();
    want.dedup();
    assert_eq!(got, want);
    let o = dicechess(&["playable", start, "--prefix", "g1f3"]);
    assert_eq!(stdout_lines(&o), vec!["PN"]);
    let o = dicechess(&["playable", start, "--prefix", "g1f3,f3g1,a2a3"]);
    assert_eq!(stdout_lines(&o), vec!["-"]);
    let o = dicechess(&["playable", start, "--prefix", "e2e4,e4e5"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn perft_matches_the_single_die_vector() {
    let o = dicechess(&[
        "perft",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "--die",
        "1",
        "--depth",
        "2",
    ]);
    assert_eq!(stdout_lines(&o), vec!["63"]);
}

#[test]
fn bad_dfen_exits_2_with_one_line_naming_field_and_text() {
    let o = dicechess(&[
        "turns",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1 P",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).expect("utf-8");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("en_passant") && err.contains("\"e9\""),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn dfen_without_dice_asks_for_them() {
    let o = dicechess(&[
        "turns",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).expect("utf-8");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("dice") && err.contains("field 7"), "{err}");
}

#[test]
fn a_forced_pass_prints_no_path() {
    let o = dicechess(&["turns", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 R"]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let o = dicechess(&["turns", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 R", "--count"]);
    assert_eq!(stdout_lines(&o), vec!["0"]);
}

#[test]
fn probe_reports_both_colours_as_json() {
    // docs/features.md golden value: 42.13 % = 91/216 for the defender not to move.
    let o = dicechess(&[
        "probe",
        "rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["black"]["king_capture_rolls"], 91);
    assert_eq!(v["white"]["king_capture_rolls"], 0);
    assert_eq!(v["black"]["kings"][0]["attacker_types"], "B");
    assert_eq!(v["white"]["hanging"], serde_json::json!(["f7"]));
    let classes = v["adep"]["classes"].as_array().expect("classes");
    let total: u64 = classes
        .iter()
        .map(|c| c["weight"].as_u64().expect("weight"))
        .sum();
    assert_eq!(total, 216);
}

#[test]
fn turns_tree_is_the_play_servers_move_tree_byte_for_byte() {
    // The webhook fixtures carry the server's inline `legalMoves` as its encoder writes it
    // (children sorted by UCI, compact): `turns --tree` prints the same bytes.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/webhook");
    let mut compared = 0;
    for name in [
        "your-turn-fischer-inline.json",
        "your-turn-sudden-death-inline.json",
        "your-turn-per-move-inline.json",
        "your-turn-unlimited-inline.json",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let delivery: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tree = serde_json::to_string(&delivery["state"]["legalMoves"]).unwrap();
        assert!(
            text.contains(&tree),
            "{name}: the tree is written as in the file"
        );
        let dfen = delivery["state"]["dfen"].as_str().unwrap();
        let o = dicechess(&["turns", dfen, "--tree"]);
        assert!(o.status.success(), "{name}");
        assert_eq!(
            String::from_utf8(o.stdout).unwrap().trim_end(),
            tree,
            "{name}"
        );
        compared += 1;
    }
    assert_eq!(compared, 4);
}
