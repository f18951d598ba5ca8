//! The engine against every conformance vector in `tests/data`.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::*;
use dicechess::board::{dice_key, normalized_fen, Position};
use dicechess::kernels::PieceType;
use dicechess::rules::{legal_first_moves, legal_paths, perft_single_die};
use std::collections::BTreeSet;

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).unwrap_or_else(|e| panic!("{dfen}: {e}"))
}

#[test]
fn turn_paths_counts_ends_sha_and_lists() {
    let v = load("turn_paths");
    assert_eq!(cases(&v).len(), 100);
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let p = pos(dfen);
        let paths = legal_paths(&p);
        assert_eq!(paths.len() as u64, u(c, "paths"), "path count of {dfen}");
        let lines: Vec<String> = paths.iter().map(|p| p.uci()).collect();
        assert_eq!(paths_sha256(&lines), s(c, "sha256"), "sha256 of {dfen}");
        let ends: BTreeSet<String> = paths.iter().map(|t| t.end_position(&p).to_dfen()).collect();
        assert_eq!(ends.len() as u64, u(c, "ends"), "distinct ends of {dfen}");
        if let Some(legal) = c.get("legal") {
            let mut want = strings(legal);
            want.sort();
            let mut got = lines.clone();
            got.sort();
            assert_eq!(got, want, "paths of {dfen}");
        }
    }
}

#[test]
fn first_moves() {
    let v = load("first_moves");
    assert_eq!(cases(&v).len(), 40);
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let mut got: Vec<String> = legal_first_moves(&pos(dfen))
            .iter()
            .map(|m| m.uci())
            .collect();
        got.sort();
        assert_eq!(got, strings(&c["first_moves"]), "first moves of {dfen}");
    }
}

#[test]
fn perft_single_die_vectors() {
    let v = load("perft_single_die");
    assert_eq!(cases(&v).len(), 14);
    for c in cases(&v) {
        let fen = s(c, "fen");
        let piece = PieceType::from_face(u(c, "die") as u8).expect("die 1..=6");
        let nodes = perft_single_die(&pos(fen), piece, u(c, "depth") as u32);
        assert_eq!(nodes, u(c, "nodes"), "perft {c}");
    }
}

#[test]
fn dfen_rejected_name_their_field_and_accepted_write_canonically() {
    let v = load("dfen");
    let rejected = v["rejected"].as_array().expect("rejected");
    assert_eq!(rejected.len(), 35);
    for c in rejected {
        let text = s(c, "dfen");
        let err = Position::from_dfen(text).expect_err(text);
        assert_eq!(err.field(), s(c, "error_field"), "{text:?}: {err}");
        assert!(err.to_string().starts_with(s(c, "error_field")), "{err}");
    }
    let accepted = v["accepted"].as_array().expect("accepted");
    assert_eq!(accepted.len(), 9);
    for c in accepted {
        let p = pos(s(c, "dfen"));
        assert_eq!(p.to_dfen(), s(c, "canonical"));
        assert_eq!(pos(&p.to_dfen()), p);
    }
}

#[test]
fn position_keys_normalised_fen_and_dice_key() {
    let v = load("position_keys");
    assert_eq!(cases(&v).len(), 640);
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let p = pos(dfen);
        let want: i64 = s(c, "zobrist").parse().expect("i64");
        assert_eq!(p.key() as i64, want, "zobrist of {dfen}");
        assert_eq!(format!("{:016x}", p.key()), s(c, "zobrist_hex"));
        assert_eq!(p.compute_key(), p.key());
        assert_eq!(
            normalized_fen(&p),
            s(c, "normalized_fen"),
            "normalised FEN of {dfen}"
        );
        assert_eq!(dice_key(&p), s(c, "dice_key"), "dice key of {dfen}");
    }
}

#[test]
fn start_position_key_matches_the_ecosystem() {
    assert_eq!(Position::startpos().key() as i64, 147_143_207_481_438_466);
}
