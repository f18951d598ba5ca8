//! The `chance-collapse` role reachable from the bots (`BotOptions::collapse`, the
//! `--collapse` flag of `bestmove`, `arena` and `serve`): each root candidate's chance node
//! is one batched model call, so the bot plays the candidate whose model value is highest.
//!
//! Needs the ONNX Runtime library (fails, never skips, when it is missing: `bash
//! .ci/install-onnxruntime` or ORT_DYLIB_PATH). The fixture `collapse-rich9`
//! (tests/fixtures/models/generate.py) is a linear model of the rich-9 features.
#![cfg(feature = "onnx")]
#![allow(clippy::unwrap_used)]

use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotBuildError, BotOptions, Turn};
use dicechess::eval::features::Perspective;
use dicechess::eval::onnx::CollapseModel;
use dicechess::rules::legal_paths;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models")
        .join(name)
}

const POSITIONS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4 NBQ",
];

#[test]
fn a_collapsing_bot_plays_the_candidate_the_model_values_most() {
    let model = CollapseModel::load(&fixture("collapse-rich9")).unwrap();
    let opts = BotOptions {
        collapse: Some(fixture("collapse-rich9")),
        // Every distinct afterstate is a candidate, so the answer is the model's argmax.
        candidate_limit: Some(100_000),
        table_mb: Some(0),
        ..BotOptions::default()
    };
    let bot = bot_by_id("expectimax", &opts).unwrap();
    assert!(bot
        .info()
        .description
        .contains("collapsed by collapse-rich9"));
    for dfen in POSITIONS {
        let pos = Position::from_dfen(dfen).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut turn = Turn {
            rng: &mut rng,
            deadline: None,
        };
        let c = bot.choose(&pos, &mut turn).unwrap();
        let stats = c.stats.unwrap();
        assert_eq!(stats.leaves, 0, "{dfen}: nothing is searched");
        assert!(stats.candidates_collapsed > 0, "{dfen}");

        // The reference: the model on every distinct afterstate, features from the side about
        // to roll (the afterstate's side to move).
        let mut seen = HashSet::new();
        let afters: Vec<Position> = legal_paths(&pos)
            .iter()
            .map(|p| p.end_position(&pos))
            .filter(|a| seen.insert(a.key()))
            .collect();
        let values = model
            .predict(
                &PositionBatch::from_positions(&afters),
                Perspective::SideToMove,
            )
            .unwrap();
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let chosen = c.path.unwrap().end_position(&pos);
        let i = afters.iter().position(|a| a.key() == chosen.key()).unwrap();
        assert!(
            (values[i] - best).abs() < 1e-4,
            "{dfen}: played {} valued {}, best {best}",
            c.path.unwrap(),
            values[i]
        );
        assert!(
            (c.score - best as f64).abs() < 1e-3,
            "{dfen}: {} vs {best}",
            c.score
        );
    }
}

/// `dicechess bestmove` of the first position by `expectimax` collapsed by a fixture.
fn bestmove_collapsed_by(package: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args([
            "bestmove",
            POSITIONS[0],
            "--bot",
            "expectimax",
            "--collapse",
        ])
        .arg(fixture(package))
        .output()
        .unwrap()
}

#[test]
fn a_wrong_role_is_refused_by_the_bots_and_the_cli() {
    let bad = BotOptions {
        collapse: Some(fixture("linear-material7")),
        ..BotOptions::default()
    };
    match bot_by_id("best", &bad) {
        Err(BotBuildError::Model(e)) => assert!(e.to_string().contains("position-value"), "{e}"),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a position-value package was taken as a collapse model"),
    }
    let out = bestmove_collapsed_by("linear-material7");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("chance-collapse"));
    let out = bestmove_collapsed_by("collapse-rich9");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["stats"]["candidates_collapsed"].as_u64().unwrap() > 0);
}
