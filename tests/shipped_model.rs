//! The value net compiled into `best-net` (`bots::shipped_model`, package `models/dt1-p1`):
//! the embedded bytes are the committed package's, the package passes the same checks as
//! one loaded from disk, its training report agrees with its manifest, the native forward
//! pass equals ONNX Runtime on it within 10⁻⁵ (ORT needed, as in tests/onnx.rs: the test
//! fails, never skips, without it; `bash .ci/install-onnxruntime`), and `best-net` plays
//! only legal turns.
#![allow(clippy::unwrap_used)]

use dicechess::batch::PositionBatch;
use dicechess::board::{Dice, Position};
use dicechess::bots::{
    bot_by_id, shipped_model, shipped_package, BotOptions, Turn, SHIPPED_MODEL_DIR,
};
use dicechess::eval::onnx::{sha256_hex, ModelPackage, Role};
use dicechess::eval::BatchEvaluator;
use dicechess::rules::{legal_paths, roll_faces};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;

fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(SHIPPED_MODEL_DIR)
}

mod common;

/// Positions from seeded random play (tests/common), both sides to move.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    (0..n as u64)
        .map(|i| common::random_play(seed * 1_000 + i, (i % 40) as usize))
        .collect()
}

#[test]
fn the_embedded_package_is_the_committed_one() {
    let embedded = shipped_package().unwrap();
    let on_disk = ModelPackage::load(&package_dir(), Role::PositionValue).unwrap();
    assert_eq!(embedded.model_bytes(), on_disk.model_bytes());
    assert_eq!(
        embedded.manifest().model_sha256,
        on_disk.manifest().model_sha256
    );
    let m = embedded.manifest();
    assert_eq!(m.model_id, "dt1-p1");
    assert_eq!(m.feature_schema, "dice-terms-v1");
    assert_eq!(m.feature_count, 20);
    assert_eq!(sha256_hex(embedded.model_bytes()), m.model_sha256);
}

#[test]
fn the_training_report_matches_the_manifest() {
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(package_dir().join("train-report.json")).unwrap())
            .unwrap();
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(package_dir().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(report["schema"], manifest["featureSchema"]);
    assert_eq!(report["role"], manifest["modelRole"]);
    assert_eq!(
        report["holdout_loss"],
        manifest["provenance"]["holdoutLoss"]
    );
    assert_eq!(report["label_kind"], "p1");
    let (holdout, baseline) = (
        report["holdout_loss"].as_f64().unwrap(),
        report["baseline_holdout_loss"].as_f64().unwrap(),
    );
    assert!(holdout < baseline, "{holdout} vs {baseline}");
    let epochs = report["epoch_losses"].as_array().unwrap();
    assert_eq!(epochs.len() as u64, report["epochs"].as_u64().unwrap());
    let best = epochs
        .iter()
        .map(|e| e["holdout"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(best, holdout, "the kept epoch is the best holdout one");
}

#[cfg(feature = "onnx")]
#[test]
fn native_forward_equals_onnx_runtime_on_the_shipped_net() {
    let rows = positions(2000, 4);
    let batch = PositionBatch::from_positions(&rows);
    let native = shipped_model().unwrap();
    let ort = dicechess::eval::onnx::FeatureModel::from_package(shipped_package().unwrap())
        .unwrap_or_else(|e| panic!("{e} (run `bash .ci/install-onnxruntime`)"));
    let (a, b) = (
        native.predict(&batch).unwrap(),
        ort.predict(&batch).unwrap(),
    );
    assert_eq!(a.len(), rows.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert!((x - y).abs() <= 1e-5, "row {i}: {x} vs {y}");
        assert!((0.0..=1.0).contains(x), "row {i}: {x}");
    }
    // The leaves' scores are the same probabilities on the score axis.
    let mut scores = vec![0f32; rows.len()];
    native.evaluate(&batch, &mut scores).unwrap();
    for (s, p) in scores.iter().zip(&a) {
        assert!((s - dicechess::eval::win_probability_to_score(*p)).abs() <= 1e-2);
    }
}

#[test]
fn best_net_plays_only_legal_turns() {
    let bot = bot_by_id(
        "best-net",
        &BotOptions {
            table_mb: Some(1),
            ..BotOptions::default()
        },
    )
    .unwrap();
    assert_eq!(bot.info().id, "best-net");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for pos in positions(24, 12) {
        let rolled = pos.with_dice(Dice::from_faces(&roll_faces(&mut rng)).unwrap());
        let legal = legal_paths(&rolled);
        let mut turn = Turn {
            rng: &mut rng,
            deadline: None,
        };
        let c = bot.choose(&rolled, &mut turn).unwrap();
        match c.path {
            Some(p) => assert!(legal.contains(&p), "{}", rolled.to_dfen()),
            None => assert!(legal.is_empty(), "{}", rolled.to_dfen()),
        }
    }
}

/// `best-net` widens its selective depth 3 under a clock to `BEST_NET_D3_WIDEST` replies by
/// default (its gates: README "Generations against `best-v1`"); `--d3-widest` still rules,
/// and `best` keeps its own default (no widening).
#[test]
fn best_net_widens_its_depth_3_by_default() {
    let describe = |id: &str, d3_widest: Option<usize>| {
        let opts = BotOptions {
            table_mb: Some(1),
            d3_widest,
            ..BotOptions::default()
        };
        bot_by_id(id, &opts).unwrap().info().description
    };
    let widened = format!(
        "widened to {} under a clock",
        dicechess::bots::BEST_NET_D3_WIDEST
    );
    let d = describe("best-net", None);
    assert!(d.contains(&widened), "{d}");
    let d = describe("best-net", Some(1));
    assert!(!d.contains("widened"), "{d}");
    let d = describe("best-net", Some(4));
    assert!(d.contains("widened to 4 under a clock"), "{d}");
    let d = describe("best", None);
    assert!(!d.contains("widened"), "{d}");
}
