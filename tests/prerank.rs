//! The `move-prerank` role: a pre-rank package loads only at its own seam, scores what its
//! weights say, and reorders the root candidates the search keeps before its candidate limit.
//!
//! Needs the ONNX Runtime library (fails, never skips, when it is missing: `bash
//! .ci/install-onnxruntime` or ORT_DYLIB_PATH). The fixture `prerank-material7`
//! (tests/fixtures/models/generate.py) scores −material_diff / 128: it prefers *less*
//! material for its side to move, the reverse of material pre-ranking.
#![cfg(feature = "onnx")]

use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotBuildError, BotOptions};
use dicechess::eval::onnx::{FeatureModel, PrerankModel};
use dicechess::eval::{BatchEvaluator, Material};
use dicechess::search::{Expectimax, SearchConfig};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models")
        .join(name)
}

/// Kiwipete with bishop, knight and queen to roll: many captures of different values.
const KIWIPETE_BNQ: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ";

#[test]
fn a_prerank_package_loads_only_at_its_own_seam() {
    let model = PrerankModel::load(&fixture("prerank-material7")).unwrap();
    assert_eq!(model.id(), "prerank-material7");
    let wrong = PrerankModel::load(&fixture("linear-material7"))
        .err()
        .expect("a position-value package is refused");
    assert!(wrong.to_string().contains("position-value"), "{wrong}");
    let wrong = FeatureModel::load(&fixture("prerank-material7"))
        .err()
        .expect("a move-prerank package is refused as a value model");
    assert!(wrong.to_string().contains("move-prerank"), "{wrong}");
}

#[test]
fn the_prerank_score_is_the_fixtures_weights() {
    let model = PrerankModel::load(&fixture("prerank-material7")).unwrap();
    let ps: Vec<Position> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/K3R3 w - - 0 1",
        "4k3/8/8/8/8/8/8/K3R3 b - - 0 1",
    ]
    .iter()
    .map(|d| Position::from_dfen(d).unwrap())
    .collect();
    let mut out = vec![0f32; ps.len()];
    model
        .evaluate(&PositionBatch::from_positions(&ps), &mut out)
        .unwrap();
    // material-7's material_diff is in pawns (a rook is 5): −5/128 and +5/128.
    assert_eq!(out, [0.0, -5.0 / 128.0, 5.0 / 128.0]);
}

fn root_material(pos: &Position, path: &dicechess::rules::TurnPath) -> i32 {
    Material::score(&path.end_position(pos), pos.side_to_move())
}

#[test]
fn prerank_changes_which_candidates_are_searched() {
    let pos = Position::from_dfen(KIWIPETE_BNQ).unwrap();
    let config = SearchConfig {
        candidate_limit: 4,
        parallel: false,
        ..SearchConfig::default()
    };
    let plain = Expectimax::new(config, Arc::new(Material)).unwrap();
    let model: Arc<dyn BatchEvaluator> =
        Arc::new(PrerankModel::load(&fixture("prerank-material7")).unwrap());
    let ranked = Expectimax::new(config, Arc::new(Material))
        .unwrap()
        .with_prerank(model);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let a = plain.search(&pos, None, &mut rng).unwrap();
    let b = ranked.search(&pos, None, &mut rng).unwrap();
    let mat = |r: &dicechess::search::SearchResult| -> Vec<i32> {
        r.candidates
            .iter()
            .map(|c| root_material(&pos, &c.path))
            .collect()
    };
    let (ma, mb) = (mat(&a), mat(&b));
    assert_eq!((ma.len(), mb.len()), (4, 4));
    // Material pre-ranking keeps the most material first; the reversed model the least.
    assert!(ma.windows(2).all(|w| w[0] >= w[1]), "{ma:?}");
    assert!(mb.windows(2).all(|w| w[0] <= w[1]), "{mb:?}");
    assert!(ma[0] > mb[0], "material {ma:?} vs prerank {mb:?}");
    // Both still play a legal turn of the position.
    let legal = dicechess::rules::legal_paths(&pos);
    for r in [&a, &b] {
        assert!(legal.contains(&r.path.unwrap()));
    }
}

#[test]
fn bots_take_a_prerank_package_and_refuse_a_wrong_role() {
    let ok = BotOptions {
        prerank: Some(fixture("prerank-material7")),
        table_mb: Some(0),
        ..BotOptions::default()
    };
    assert!(bot_by_id("expectimax", &ok).is_ok());
    assert!(bot_by_id("best", &ok).is_ok());
    let bad = BotOptions {
        prerank: Some(fixture("linear-material7")),
        ..ok
    };
    match bot_by_id("expectimax", &bad) {
        Err(BotBuildError::Model(e)) => {
            let m = e.to_string();
            assert!(m.contains("position-value"), "{m}")
        }
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a position-value package was taken as a pre-ranker"),
    }
}
