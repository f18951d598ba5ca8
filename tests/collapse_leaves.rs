//! A `chance-collapse` package served natively, at the leaves (`--model`) and at the root
//! (`--collapse`): P(the side that just moved wins), the expectation of the opponent's roll
//! that follows, from the features of the side about to roll (docs/search.md §4.6).
//!
//! The reference is ONNX Runtime on the same package bytes: equal within 10⁻⁵ of the
//! probability on every row; and the same network as a `position-value` model
//! (linear-material7), whose leaf scores are exactly the negation. Needs the ONNX Runtime library (as
//! tests/onnx.rs: fails, never skips, when it is missing; `bash .ci/install-onnxruntime`).
//! The fixture `collapse-material7` (tests/fixtures/models/generate.py) is linear-material7's
//! network under the `chance-collapse` role.
#![cfg(feature = "onnx")]
#![allow(clippy::unwrap_used)]

mod common;

use dicechess::batch::{LeafBatch, PositionBatch};
use dicechess::board::Position;
use dicechess::bots::{bot_by_id, BotBuildError, BotOptions, Turn};
use dicechess::eval::features::Perspective;
use dicechess::eval::onnx::{CollapseModel, NativeModel, Role};
use dicechess::eval::{win_probability_to_score, BatchEvaluator, ChanceCollapse};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models")
        .join(name)
}

/// After-states of seeded random play from the shared starts, either colour having just
/// moved, every phase.
fn after_states(n: u64) -> Vec<Position> {
    (0..n)
        .map(|seed| common::random_play(seed, 1 + (seed % 40) as usize))
        .collect()
}

#[test]
fn at_a_leaf_the_score_is_the_complement_of_the_just_moved_sides_probability() {
    let native = NativeModel::load_leaf_model(&fixture("collapse-material7")).unwrap();
    assert_eq!(native.role(), Role::ChanceCollapse);
    let ort = CollapseModel::load(&fixture("collapse-material7")).unwrap();
    // The same network as a position-value model: its leaves are the mirror image.
    let twin = NativeModel::load_leaf_model(&fixture("linear-material7")).unwrap();
    assert_eq!(twin.role(), Role::PositionValue);
    let rows = after_states(400);
    let batch = PositionBatch::from_positions(&rows);
    let p_ort = ort.predict(&batch, Perspective::SideToMove).unwrap();
    let p_native = native.predict(&batch).unwrap();
    let mut scores = vec![0f32; rows.len()];
    native.evaluate(&batch, &mut scores).unwrap();
    let mut mirror = vec![0f32; rows.len()];
    twin.evaluate(&batch, &mut mirror).unwrap();
    let mut leaves = LeafBatch::new();
    leaves.push_class(1, &rows);
    assert!(native.evaluate_leaves(&mut leaves).unwrap());
    let mut lopsided = 0;
    for (i, pos) in rows.iter().enumerate() {
        assert!(
            (p_native[i] - p_ort[i]).abs() < 1e-5,
            "{}: {} vs {}",
            pos.to_dfen(),
            p_native[i],
            p_ort[i]
        );
        // From the side to move: the just-moved side's chance, negated on the score axis.
        let want = -win_probability_to_score(p_ort[i]);
        assert!((scores[i] - want).abs() < 0.5, "{}", pos.to_dfen());
        assert_eq!(scores[i].to_bits(), (-mirror[i]).to_bits());
        assert_eq!(leaves.values_mut()[i].to_bits(), scores[i].to_bits());
        lopsided += usize::from((p_ort[i] - 0.5).abs() > 0.05);
    }
    // Material is not level in most of these positions: the sign is tested where it shows.
    assert!(lopsided > 100, "{lopsided}");
}

#[test]
fn at_the_root_the_expectation_is_the_root_movers_probability_on_the_score_axis() {
    let native = NativeModel::load_leaf_model(&fixture("collapse-material7")).unwrap();
    let ort = CollapseModel::load(&fixture("collapse-material7")).unwrap();
    let rows = after_states(200);
    for color in [
        dicechess_kernels::Color::White,
        dicechess_kernels::Color::Black,
    ] {
        // After-states the root mover `color` just played: the opponent rolls next.
        let mine: Vec<Position> = rows
            .iter()
            .copied()
            .filter(|p| p.side_to_move() != color)
            .collect();
        assert!(!mine.is_empty());
        let batch = PositionBatch::from_positions(&mine);
        let got = native.expectations(&batch, color).unwrap();
        let raw = ort.expectations(&batch, color).unwrap();
        for (g, p) in got.iter().zip(&raw) {
            let want = f64::from(win_probability_to_score(*p as f32));
            assert!((g - want).abs() < 0.5, "{g} vs {want}");
        }
    }
}

#[test]
fn the_bots_take_a_collapse_package_at_their_leaves_and_at_their_root() {
    let dfen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ";
    let pos = Position::from_dfen(dfen).unwrap();
    let leaves = BotOptions {
        model: Some(fixture("collapse-material7")),
        table_mb: Some(0),
        ..BotOptions::default()
    };
    let bot = bot_by_id("expectimax-model", &leaves).unwrap();
    assert!(bot.info().description.contains("collapse-material7"));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut turn = Turn {
        rng: &mut rng,
        deadline: None,
    };
    let c = bot.choose(&pos, &mut turn).unwrap();
    let stats = c.stats.unwrap();
    assert!(stats.leaves > 0 && stats.candidates_collapsed == 0);

    let root = BotOptions {
        collapse: Some(fixture("collapse-material7")),
        table_mb: Some(0),
        ..BotOptions::default()
    };
    let bot = bot_by_id("expectimax", &root).unwrap();
    let c = bot.choose(&pos, &mut turn).unwrap();
    let stats = c.stats.unwrap();
    assert!(stats.candidates_collapsed > 0 && stats.leaves == 0);
    // On the score axis, within its bounds (a raw probability would sit in [0, 1]).
    assert!(
        c.score.abs() > 1.0 && c.score.abs() < 10_000.0,
        "{}",
        c.score
    );
}

#[test]
fn a_collapse_graph_without_a_sigmoid_is_refused_at_the_leaves_by_name() {
    let opts = BotOptions {
        model: Some(fixture("collapse-rich9")),
        ..BotOptions::default()
    };
    match bot_by_id("expectimax-model", &opts) {
        Err(e @ BotBuildError::LeafModel { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("collapse-rich9") && msg.contains("Sigmoid"),
                "{msg}"
            );
        }
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a score-valued collapse graph was served at the leaves"),
    }
    // A pre-ranker is neither: refused naming its role.
    let opts = BotOptions {
        model: Some(fixture("prerank-material7")),
        ..BotOptions::default()
    };
    let msg = bot_by_id("expectimax-model", &opts)
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("move-prerank") && msg.contains("position-value or chance-collapse"),
        "{msg}"
    );
    // The other leaf seams read the package through the same loader.
    let dir = fixture("prerank-material7");
    for msg in [
        NativeModel::load_leaf_model(&dir)
            .err()
            .unwrap()
            .to_string(),
        dicechess::pipeline::LabelEvaluator::model(&dir)
            .err()
            .unwrap()
            .to_string(),
    ] {
        assert!(
            msg.contains("move-prerank") && msg.contains("position-value or chance-collapse"),
            "{msg}"
        );
    }
}
