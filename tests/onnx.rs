//! ONNX model packages and models (docs/model-packages.md): the manifest rules field by
//! field, the package checks, the graph check, and the models' outputs against values
//! computed by hand from the weights in tests/fixtures/models/generate.py.
//!
//! These tests need the ONNX Runtime library; they fail (never skip) when it is missing.
//! Install it with `bash .ci/install-onnxruntime` (or point ORT_DYLIB_PATH at it). The
//! manifest and package rules need no runtime and also run without the `onnx` feature.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use dicechess::eval::features;
use dicechess::eval::onnx::{
    sha256_hex, Manifest, ManifestVersion, ModelError, ModelPackage, Role,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/models")
        .join(name)
}

fn assert_names(msg: &str, words: &[&str]) {
    for w in words {
        assert!(msg.contains(w), "{msg:?} does not name {w:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Manifest parser: every field rule (no runtime needed).

const SHA: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

fn base_manifest() -> serde_json::Map<String, Value> {
    let v = json!({
        "manifestVersion": "1.1.0",
        "modelId": "m",
        "modelSha256": SHA,
        "modelRole": "position-value",
        "featureSchema": "material-7-v1",
        "featureCount": 7,
        "perspective": "side-to-move",
        "engineCompatibility": ">=0.1.0 <1.0.0",
    });
    v.as_object().unwrap().clone()
}

fn parse_with(
    edit: impl FnOnce(&mut serde_json::Map<String, Value>),
) -> Result<Manifest, ModelError> {
    let mut m = base_manifest();
    edit(&mut m);
    Manifest::parse_for_engine(&serde_json::to_vec(&m).unwrap(), "0.1.0")
}

fn err_with(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
    match parse_with(edit) {
        Ok(m) => panic!("accepted: {m:?}"),
        Err(e) => e.to_string(),
    }
}

fn set(key: &'static str, v: Value) -> impl FnOnce(&mut serde_json::Map<String, Value>) {
    move |m| {
        m.insert(key.into(), v);
    }
}

fn remove(key: &'static str) -> impl FnOnce(&mut serde_json::Map<String, Value>) {
    move |m| {
        m.remove(key);
    }
}

#[test]
fn manifest_base_case_and_defaults() {
    let m = parse_with(|_| {}).unwrap();
    assert_eq!(m.manifest_version, ManifestVersion::V1_1_0);
    assert_eq!(m.model_id, "m");
    assert_eq!(m.model_sha256, SHA);
    assert_eq!(m.model_role, Role::PositionValue);
    assert_eq!(m.feature_schema, "material-7-v1");
    assert_eq!(m.schema().id(), "material-7-v1");
    assert_eq!(m.feature_count, 7);
    assert_eq!(
        (m.input_name.as_str(), m.output_name.as_str()),
        ("input", "output")
    );
    assert_eq!(m.engine_compatibility.text, ">=0.1.0 <1.0.0");
    assert_eq!(m.engine_compatibility.clauses.len(), 2);
    assert!(m.evaluation_profile.is_none() && m.calibration.is_none() && m.provenance.is_empty());
    // The host's own version is admitted by the fixtures' requirement.
    Manifest::parse(&serde_json::to_vec(&base_manifest()).unwrap()).unwrap();
}

#[test]
fn manifest_json_and_version() {
    for bad in [
        &b""[..],
        b"not json",
        b"[1,2]",
        b"\"text\"",
        b"null",
        b"\xff\xfe{}",
    ] {
        let e = Manifest::parse(bad).unwrap_err();
        assert!(matches!(e, ModelError::ManifestJson(_)), "{e}");
        assert!(e.to_string().contains("manifest.json"), "{e}");
    }
    assert_names(
        &err_with(remove("manifestVersion")),
        &["manifestVersion", "required"],
    );
    assert_names(
        &err_with(set("manifestVersion", json!("2.0.0"))),
        &["manifestVersion", "2.0.0"],
    );
    assert_names(
        &err_with(set("manifestVersion", json!("1.1"))),
        &["manifestVersion"],
    );
    assert_names(
        &err_with(set("manifestVersion", json!(1.1))),
        &["manifestVersion", "1.1"],
    );
}

#[test]
fn manifest_model_id() {
    assert_names(&err_with(remove("modelId")), &["modelId", "required"]);
    assert_names(
        &err_with(set("modelId", json!("  "))),
        &["modelId", "blank"],
    );
    assert_names(
        &err_with(set("modelId", json!(7))),
        &["modelId", "string", "7"],
    );
    assert_names(
        &err_with(set("modelId", Value::Null)),
        &["modelId", "required"],
    );
}

#[test]
fn manifest_sha256() {
    assert_names(
        &err_with(remove("modelSha256")),
        &["modelSha256", "required"],
    );
    assert_names(
        &err_with(set("modelSha256", json!(&SHA[1..]))),
        &["modelSha256", "64"],
    );
    let non_hex = format!("g{}", &SHA[1..]);
    assert_names(
        &err_with(set("modelSha256", json!(non_hex))),
        &["modelSha256", "hexadecimal"],
    );
    let upper = parse_with(set("modelSha256", json!(SHA.to_uppercase()))).unwrap();
    assert_eq!(upper.model_sha256, SHA);
}

#[test]
fn manifest_role() {
    for role in Role::ALL {
        let m = parse_with(set("modelRole", json!(role.as_str()))).unwrap();
        assert_eq!(m.model_role, role);
    }
    assert_names(&err_with(remove("modelRole")), &["modelRole", "required"]);
    assert_names(
        &err_with(set("modelRole", json!("value"))),
        &["modelRole", "\"value\"", "unknown"],
    );
    assert_names(
        &err_with(set("modelRole", json!(1))),
        &["modelRole", "string"],
    );
    // 1.0.0: absent => position-value; present => refused.
    let legacy = |m: &mut serde_json::Map<String, Value>| {
        m.insert("manifestVersion".into(), json!("1.0.0"));
        m.remove("perspective");
    };
    let m = parse_with(|m| {
        legacy(m);
        m.remove("modelRole");
    })
    .unwrap();
    assert_eq!(m.manifest_version, ManifestVersion::V1_0_0);
    assert_eq!(m.model_role, Role::PositionValue);
    assert_names(&err_with(legacy), &["modelRole", "1.0.0"]);
}

#[test]
fn manifest_feature_schema_and_count() {
    for id in features::SCHEMA_IDS {
        let width = features::schema(id).unwrap().width();
        let m = parse_with(|m| {
            m.insert("featureSchema".into(), json!(id));
            m.insert("featureCount".into(), json!(width));
        })
        .unwrap();
        assert_eq!((m.feature_schema.as_str(), m.feature_count), (id, width));
    }
    assert_names(
        &err_with(remove("featureSchema")),
        &["featureSchema", "required"],
    );
    assert_names(
        &err_with(set("featureSchema", json!("kcp-14"))),
        &["featureSchema", "kcp-14"],
    );
    assert_names(
        &err_with(set("featureSchema", json!("Material-7-v1"))),
        &["featureSchema"],
    );
    assert_eq!(
        parse_with(set("featureCount", json!(7.0)))
            .unwrap()
            .feature_count,
        7
    );
    assert_names(
        &err_with(remove("featureCount")),
        &["featureCount", "required"],
    );
    for bad in [json!(7.5), json!("7"), json!(-7), json!(true), json!([7])] {
        assert_names(
            &err_with(set("featureCount", bad)),
            &["featureCount", "whole number"],
        );
    }
    assert_names(
        &err_with(set("featureCount", json!(9))),
        &["featureCount", "9", "width 7", "material-7-v1"],
    );
    assert_names(
        &err_with(set("featureCount", json!(1e300))),
        &["featureCount"],
    );
}

#[test]
fn manifest_tensor_names() {
    let m = parse_with(|m| {
        m.insert("inputName".into(), json!("x"));
        m.insert("outputName".into(), json!("y"));
    })
    .unwrap();
    assert_eq!((m.input_name.as_str(), m.output_name.as_str()), ("x", "y"));
    assert_names(
        &err_with(set("inputName", json!(""))),
        &["inputName", "blank"],
    );
    assert_names(
        &err_with(set("outputName", json!(3))),
        &["outputName", "string"],
    );
    let m = parse_with(set("inputName", Value::Null)).unwrap();
    assert_eq!(m.input_name, "input");
}

#[test]
fn manifest_perspective() {
    assert_names(
        &err_with(remove("perspective")),
        &["perspective", "required"],
    );
    assert_names(
        &err_with(set("perspective", json!("white"))),
        &["perspective", "white", "side-to-move"],
    );
    assert_names(
        &err_with(set("perspective", json!(0))),
        &["perspective", "string"],
    );
    // 1.0.0: optional, but checked when present.
    let legacy = |p: Option<&str>| {
        let p = p.map(|s| json!(s));
        parse_with(move |m| {
            m.insert("manifestVersion".into(), json!("1.0.0"));
            m.remove("modelRole");
            match p {
                Some(v) => m.insert("perspective".into(), v),
                None => m.remove("perspective"),
            };
        })
    };
    legacy(None).unwrap();
    legacy(Some("side-to-move")).unwrap();
    assert!(matches!(
        legacy(Some("black")),
        Err(ModelError::Perspective { .. })
    ));
}

#[test]
fn manifest_engine_compatibility() {
    let ok = |req: &str, version: &str| {
        let mut m = base_manifest();
        m.insert("engineCompatibility".into(), json!(req));
        Manifest::parse_for_engine(&serde_json::to_vec(&m).unwrap(), version)
    };
    for (req, v) in [
        (">=0.1.0 <1.0.0", "0.1.0"),
        ("0.1.0", "0.1.0"),
        ("=0.1.0", "0.1.0"),
        (">0.0.9", "0.1.0"),
        ("<=0.1.0", "0.1.0"),
        ("<0.1.1  >=0.0.0", "0.1.0"),
        (">=0.12.0 <1.0.0", "0.12.3"),
        (">=1.0.0 <2.0.0", "1.2.3"),
    ] {
        ok(req, v).unwrap_or_else(|e| panic!("{req} / {v}: {e}"));
    }
    for (req, v) in [
        (">=0.2.0", "0.1.0"),
        ("<0.1.0", "0.1.0"),
        ("0.1.1", "0.1.0"),
        (">=0.1.0 <0.1.0", "0.1.0"),
        (">=0.12.0 <1.0.0", "0.9.0"),
    ] {
        let e = ok(req, v).unwrap_err();
        assert!(
            matches!(e, ModelError::EngineIncompatible { .. }),
            "{req}: {e}"
        );
        assert_names(&e.to_string(), &["engineCompatibility", req, v]);
    }
    for req in [
        ">=0.1",
        "~0.1.0",
        "^0.1.0",
        ">=0.1.0-beta",
        ">= 0.1.0",
        "=>0.1.0",
        "v0.1.0",
        "0.1.0.0",
        "0..1",
        "\u{0661}.1.0",
        "0.1.0,<1.0.0",
        ">=99999999999999999999.0.0",
        "<",
    ] {
        let e = ok(req, "0.1.0").unwrap_err();
        assert!(
            matches!(e, ModelError::EngineCompatibilitySyntax { .. }),
            "{req:?}: {e}"
        );
        assert!(e.to_string().contains("engineCompatibility"), "{e}");
    }
    assert_names(
        &err_with(remove("engineCompatibility")),
        &["engineCompatibility", "required"],
    );
    assert_names(
        &err_with(set("engineCompatibility", json!(" "))),
        &["engineCompatibility", "blank"],
    );
}

#[test]
fn manifest_optional_fields_are_recorded() {
    let m = parse_with(|m| {
        m.insert("evaluationProfile".into(), json!("p1"));
        m.insert(
            "calibration".into(),
            json!({"brierScore": 0.2, "logLoss": 0.6, "calibratedOn": "set-a"}),
        );
        m.insert(
            "provenance".into(),
            json!({"trainer": "x", "rows": 49000, "shuffled": true, "lr": 0.5}),
        );
        m.insert("somethingNew".into(), json!({"ignored": [1, 2]}));
    })
    .unwrap();
    assert_eq!(m.evaluation_profile.as_deref(), Some("p1"));
    let c = m.calibration.unwrap();
    assert_eq!(c.temperature, 1.0);
    assert_eq!((c.brier_score, c.log_loss), (Some(0.2), Some(0.6)));
    assert_eq!(c.calibrated_on.as_deref(), Some("set-a"));
    assert_eq!(m.provenance["rows"], "49000");
    assert_eq!(m.provenance["shuffled"], "true");
    assert_eq!(m.provenance["lr"], "0.5");
    assert_eq!(m.provenance["trainer"], "x");
    let m = parse_with(set("evaluationProfile", json!({"k": 1}))).unwrap();
    assert_eq!(m.evaluation_profile.as_deref(), Some("{\"k\":1}"));
    assert_names(
        &err_with(set("calibration", json!(1))),
        &["calibration", "object"],
    );
    assert_names(
        &err_with(set("calibration", json!({"temperature": "hot"}))),
        &["calibration.temperature", "number"],
    );
    assert_names(
        &err_with(set("provenance", json!({"nested": {"a": 1}}))),
        &["provenance.nested"],
    );
    assert_names(&err_with(set("provenance", json!("text"))), &["provenance"]);
}

#[test]
fn manifest_checks_run_in_the_documented_order() {
    // Version before everything.
    let e = err_with(|m| {
        m.insert("manifestVersion".into(), json!("9.9.9"));
        m.remove("modelId");
    });
    assert!(e.contains("manifestVersion"), "{e}");
    // Presence/type of every field before role and schema resolution.
    let e = err_with(|m| {
        m.insert("featureSchema".into(), json!("nope"));
        m.remove("engineCompatibility");
    });
    assert!(e.contains("engineCompatibility"), "{e}");
    // Role before schema.
    let e = err_with(|m| {
        m.insert("modelRole".into(), json!("nope"));
        m.insert("featureSchema".into(), json!("nope"));
    });
    assert!(e.contains("modelRole"), "{e}");
    // Schema and count before perspective.
    let e = err_with(|m| {
        m.insert("featureCount".into(), json!(8));
        m.insert("perspective".into(), json!("white"));
    });
    assert!(e.contains("featureCount"), "{e}");
    // Perspective before engine compatibility.
    let e = err_with(|m| {
        m.insert("perspective".into(), json!("white"));
        m.insert("engineCompatibility".into(), json!("~1"));
    });
    assert!(e.contains("perspective"), "{e}");
    // Engine compatibility before the optional fields.
    let e = err_with(|m| {
        m.insert("engineCompatibility".into(), json!(">=9.0.0"));
        m.insert("calibration".into(), json!(1));
    });
    assert!(e.contains("engineCompatibility"), "{e}");
    // Package: role before digest.
    let manifest = serde_json::to_vec(&base_manifest()).unwrap();
    let e = ModelPackage::from_bytes(b"x".to_vec(), &manifest, Role::ChanceCollapse, "0.1.0")
        .unwrap_err();
    assert!(matches!(e, ModelError::RoleMismatch { .. }), "{e}");
    let e = ModelPackage::from_bytes(b"x".to_vec(), &manifest, Role::PositionValue, "0.1.0")
        .unwrap_err();
    assert!(matches!(e, ModelError::Digest { .. }), "{e}");
    let mut m = base_manifest();
    m.insert("modelSha256".into(), json!(sha256_hex(b"x")));
    ModelPackage::from_bytes(
        b"x".to_vec(),
        &serde_json::to_vec(&m).unwrap(),
        Role::PositionValue,
        "0.1.0",
    )
    .unwrap();
}

#[test]
fn manifest_parse_never_panics_on_odd_input() {
    let deep = "[".repeat(100_000);
    let deep_obj = "{\"a\":".repeat(10_000);
    let long = format!("{{\"manifestVersion\":\"{}\"}}", "x".repeat(1_000_000));
    let inputs: Vec<Vec<u8>> = vec![
        deep.into_bytes(),
        deep_obj.into_bytes(),
        long.into_bytes(),
        b"{\"manifestVersion\":\"1.1.0\",\"featureCount\":1e400}".to_vec(),
        b"{\"manifestVersion\":\"1.1.0\",\"modelSha256\":\"\xc3\xa9\"}".to_vec(),
        vec![0u8; 64],
        (0..=255u8).collect(),
    ];
    for input in inputs {
        assert!(Manifest::parse(&input).is_err());
    }
    // Every single-byte truncation of a valid manifest is handled.
    let good = serde_json::to_vec(&base_manifest()).unwrap();
    for n in 0..good.len() {
        let _ = Manifest::parse(&good[..n]);
    }
}

#[test]
fn fixture_manifests_carry_the_real_digests() {
    for name in [
        "linear-material7",
        "linear-kcp13",
        "collapse-rich9",
        "broken/fixed-batch",
        "broken/output-width",
        "broken/double-input",
        "broken/two-inputs",
        "broken/width-mismatch",
    ] {
        let dir = fixture(name);
        let bytes = std::fs::read(dir.join("model.onnx")).unwrap();
        let m = Manifest::parse(&std::fs::read(dir.join("manifest.json")).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.model_sha256, sha256_hex(&bytes), "{name}");
        ModelPackage::load(&dir, m.model_role).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

// ---------------------------------------------------------------------------------------
// Models (need the runtime).

#[cfg(feature = "onnx")]
mod models {
    use super::*;
    use crate::common::{temp_dir, Scratch};
    use dicechess::batch::PositionBatch;
    use dicechess::board::Position;
    use dicechess::eval::features::Perspective;
    use dicechess::eval::onnx::{CollapseModel, FeatureModel};
    use dicechess::eval::win_probability_to_score;
    use dicechess::eval::BatchEvaluator;
    use dicechess::kernels::{Color, PieceType};

    // ---------------------------------------------------------------------------------------
    // Fixtures and hand computation.

    /// Weights of linear-material7: output = sigmoid(x · W + B).
    const MATERIAL7_W: [f64; 7] = [0.125, 0.25, 0.25, 0.5, 1.0, 0.0625, -0.0078125];
    const MATERIAL7_B: f64 = 0.5;
    /// Weights of linear-kcp13: output = x · W + B.
    const KCP13_W: [f64; 13] = [
        0.015625,
        0.015625,
        0.015625,
        0.015625,
        0.015625,
        0.0078125,
        0.0,
        0.0009765625,
        0.000030517578125,
        0.25,
        -0.25,
        0.125,
        -0.125,
    ];
    const KCP13_B: f64 = 0.5;
    /// Weights of collapse-rich9: output = x · W + B.
    const RICH9_W: [f64; 9] = [0.5, 1.5, 1.5, 2.5, 4.5, 0.25, 0.0, 0.125, 0.0009765625];
    const RICH9_B: f64 = -0.25;

    /// Unwrap a model load, turning a missing runtime into a failure that says how to fix it.
    fn loaded<T>(r: Result<T, ModelError>) -> T {
        r.unwrap_or_else(|e| {
            panic!("{e}\n(the ONNX tests need the runtime: run `bash .ci/install-onnxruntime`)")
        })
    }

    fn material7() -> FeatureModel {
        loaded(FeatureModel::load(&fixture("linear-material7")))
    }

    /// Material-7 features counted by hand: own − opponent counts of P, N, B, R, Q, then the
    /// 1/3/3/5/9 material difference and total.
    fn material7_by_hand(pos: &Position, me: Color) -> [f64; 7] {
        let them = me.opponent();
        let count = |c: Color, t: PieceType| pos.piece_bb(c, t).count() as f64;
        let types = [
            PieceType::Pawn,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ];
        let values = [1.0, 3.0, 3.0, 5.0, 9.0];
        let mut x = [0.0; 7];
        for (i, t) in types.into_iter().enumerate() {
            x[i] = count(me, t) - count(them, t);
            x[5] += values[i] * (count(me, t) - count(them, t));
            x[6] += values[i] * (count(me, t) + count(them, t));
        }
        x
    }

    fn dot(x: &[f64], w: &[f64], b: f64) -> f64 {
        assert_eq!(x.len(), w.len());
        x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>() + b
    }

    fn sigmoid(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    fn material7_expected(pos: &Position) -> f64 {
        sigmoid(dot(
            &material7_by_hand(pos, pos.side_to_move()),
            &MATERIAL7_W,
            MATERIAL7_B,
        ))
    }

    fn schema_row(id: &str, pos: &Position, color: Color) -> Vec<f64> {
        let s = features::schema(id).expect("schema");
        let mut row = vec![0.0f32; s.width()];
        s.extract_row(pos, color, &mut row);
        row.into_iter().map(f64::from).collect()
    }

    const FENS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "k7/4P3/8/8/8/8/8/4K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "1k6/8/8/8/8/8/QQQQQQQQ/4K3 b - - 0 1",
    ];

    /// `n` varied positions: the fixed ones, then start positions thinned out by a fixed
    /// pseudo-random sequence (kings kept), both sides to move
    /// ([`crate::common::random_thinned_starts`]).
    fn positions(n: usize) -> Vec<Position> {
        let mut out: Vec<Position> = FENS
            .iter()
            .map(|f| Position::from_dfen(f).expect("test FEN"))
            .collect();
        out.extend(crate::common::random_thinned_starts(
            n.saturating_sub(out.len()),
        ));
        out.truncate(n);
        out
    }

    fn batch(n: usize) -> PositionBatch {
        PositionBatch::from_positions(&positions(n))
    }

    fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("rayon pool")
            .install(f)
    }

    // ---------------------------------------------------------------------------------------
    // Models against hand-computed values.

    #[test]
    fn material7_outputs_equal_hand_computation_at_every_batch_and_chunk_size() {
        let base = material7();
        assert_eq!(base.chunk_size(), 4096);
        // Known vector: the start position is [0, 0, 0, 0, 0, 0, 78].
        let start = Position::startpos();
        assert_eq!(
            material7_by_hand(&start, Color::White),
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 78.0]
        );
        assert_eq!(
            schema_row("material-7-v1", &start, Color::White),
            material7_by_hand(&start, Color::White)
        );
        for chunk in [1, 7, 64, 4096] {
            let model = material7().with_chunk_size(chunk);
            for n in [1, 2, 7, 64, 300, 1025, 4097] {
                if chunk == 1 && n > 1025 {
                    continue;
                }
                let rows = positions(n);
                let b = PositionBatch::from_positions(&rows);
                let p = model.predict(&b).expect("predict");
                assert_eq!(p.len(), n);
                let mut scores = vec![f32::NAN; n];
                model.evaluate(&b, &mut scores).expect("evaluate");
                for (i, pos) in rows.iter().enumerate() {
                    let want = material7_expected(pos);
                    assert!(
                        (f64::from(p[i]) - want).abs() < 1e-6,
                        "chunk {chunk} n {n} row {i}: model {} hand {want}",
                        p[i]
                    );
                    // evaluate is the linear map of predict.
                    assert_eq!(scores[i], 20000.0 * (p[i] - 0.5), "row {i}");
                    assert_eq!(scores[i], win_probability_to_score(p[i]));
                    assert!((f64::from(scores[i]) - 20000.0 * (want - 0.5)).abs() < 0.02);
                }
            }
        }
    }

    #[test]
    fn batch_results_equal_row_by_row_results_on_one_and_two_threads() {
        let model = material7().with_chunk_size(100);
        let rows = positions(1000);
        let b = PositionBatch::from_positions(&rows);
        let single: Vec<f32> = rows
            .iter()
            .map(|p| {
                model
                    .predict(&PositionBatch::from_positions(&[*p]))
                    .unwrap()[0]
            })
            .collect();
        for threads in [1, 2] {
            let (p, s) = with_threads(threads, || {
                let mut s = vec![0.0; b.len()];
                model.evaluate(&b, &mut s).unwrap();
                (model.predict(&b).unwrap(), s)
            });
            assert_eq!(
                p, single,
                "{threads} threads: batch differs from row by row"
            );
            let mapped: Vec<f32> = single
                .iter()
                .map(|&v| win_probability_to_score(v))
                .collect();
            assert_eq!(s, mapped, "{threads} threads");
        }
        // Other chunk sizes give bit-identical results.
        for chunk in [1, 3, 999, 4096] {
            let other = material7().with_chunk_size(chunk);
            assert_eq!(other.predict(&b).unwrap(), single, "chunk {chunk}");
        }
    }

    #[test]
    fn concurrent_callers_get_sessions_of_their_own() {
        let model = material7();
        let b = batch(64);
        let want = model.predict(&b).unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..50 {
                        assert_eq!(model.predict(&b).unwrap(), want);
                    }
                });
            }
        });
        assert!(model.idle_sessions() >= 1);
    }

    #[test]
    fn empty_batch_and_wrong_output_length() {
        let model = material7();
        let empty = PositionBatch::new();
        assert!(model.predict(&empty).unwrap().is_empty());
        model.evaluate(&empty, &mut []).unwrap();
        let b = batch(3);
        let err = model.evaluate(&b, &mut [0.0; 2]).unwrap_err();
        assert!(err.to_string().contains("2 slots for 3 rows"), "{err}");
        assert_eq!(model.id(), "linear-material7");
    }

    #[test]
    fn kcp13_legacy_manifest_with_custom_names() {
        let model = loaded(FeatureModel::load(&fixture("linear-kcp13")));
        let m = model.manifest();
        assert_eq!(m.manifest_version, ManifestVersion::V1_0_0);
        assert_eq!(m.model_role, Role::PositionValue);
        assert_eq!(m.feature_count, 13);
        assert_eq!(
            (m.input_name.as_str(), m.output_name.as_str()),
            ("features", "value")
        );
        assert_eq!(model.schema().id(), "kcp-13");
        let rows = positions(40);
        let p = model
            .with_chunk_size(16)
            .predict(&PositionBatch::from_positions(&rows))
            .unwrap();
        for (i, pos) in rows.iter().enumerate() {
            let x = schema_row("kcp-13", pos, pos.side_to_move());
            let want = dot(&x, &KCP13_W, KCP13_B);
            assert!(
                (f64::from(p[i]) - want).abs() < 1e-6,
                "row {i}: model {} hand {want} (features {x:?})",
                p[i]
            );
        }
    }

    #[test]
    fn collapse_model_predicts_raw_expectations_from_the_given_perspective() {
        let model = loaded(CollapseModel::load(&fixture("collapse-rich9")));
        assert_eq!(model.manifest().model_role, Role::ChanceCollapse);
        assert_eq!(model.id(), "collapse-rich9");
        let rows = positions(50);
        let b = PositionBatch::from_positions(&rows);
        for perspective in [
            Perspective::SideToMove,
            Perspective::Fixed(Color::White),
            Perspective::Fixed(Color::Black),
        ] {
            let p = model.predict(&b, perspective).unwrap();
            for (i, pos) in rows.iter().enumerate() {
                let x = schema_row("rich-9-v1", pos, perspective.color_for(pos));
                let want = dot(&x, &RICH9_W, RICH9_B);
                assert!(
                    (f64::from(p[i]) - want).abs() < 1e-6 * want.abs().max(1.0),
                    "{perspective:?} row {i}: model {} hand {want}",
                    p[i]
                );
            }
        }
        // The raw feature-matrix entry point agrees.
        let x = features::schema("rich-9-v1")
            .unwrap()
            .extract(&b, Perspective::SideToMove);
        assert_eq!(
            model.predict_features(x.view()).unwrap(),
            model.predict(&b, Perspective::SideToMove).unwrap()
        );
    }

    #[test]
    fn feature_matrix_of_the_wrong_width_is_refused() {
        let model = material7();
        let x = ndarray::Array2::<f32>::zeros((4, 9));
        let err = model.predict_features(x.view()).unwrap_err().to_string();
        assert!(
            err.contains("9 columns") && err.contains("takes 7"),
            "{err}"
        );
        let x = ndarray::Array2::<f32>::zeros((4, 7));
        let p = model.predict_features(x.view()).unwrap();
        assert!(p
            .iter()
            .all(|&v| (f64::from(v) - sigmoid(0.5)).abs() < 1e-6));
    }

    // ---------------------------------------------------------------------------------------
    // Broken packages: each refused with a message naming the field.

    /// A copy of a fixture package in a fresh temp folder, its manifest edited by `edit` and
    /// its model bytes by `edit_model`.
    fn variant(
        base: &str,
        edit: impl FnOnce(&mut serde_json::Map<String, Value>),
        edit_model: impl FnOnce(&mut Vec<u8>),
    ) -> Scratch {
        let dir = temp_dir("onnx-variant");
        let mut model = std::fs::read(fixture(base).join("model.onnx")).unwrap();
        edit_model(&mut model);
        let mut manifest: Value =
            serde_json::from_slice(&std::fs::read(fixture(base).join("manifest.json")).unwrap())
                .unwrap();
        edit(manifest.as_object_mut().unwrap());
        std::fs::write(dir.join("model.onnx"), model).unwrap();
        std::fs::write(
            dir.join("manifest.json"),
            serde_json::to_vec_pretty(&manifest).unwrap(),
        )
        .unwrap();
        dir
    }

    fn refused_feature(dir: &Path) -> String {
        match FeatureModel::load(dir) {
            Ok(_) => panic!("{} was accepted", dir.display()),
            Err(e) => {
                assert!(
                    !matches!(e, ModelError::RuntimeMissing { .. }),
                    "{e}\n(run `bash .ci/install-onnxruntime`)"
                );
                e.to_string()
            }
        }
    }

    #[test]
    fn wrong_digest_is_refused() {
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("modelSha256".into(), json!("ab".repeat(32)));
            },
            |_| {},
        );
        assert_names(
            &refused_feature(&dir),
            &["modelSha256", "digest", &"ab".repeat(32)],
        );
        // A changed model file under the original manifest.
        let dir = variant("linear-material7", |_| {}, |b| b.push(0));
        let msg = refused_feature(&dir);
        assert_names(&msg, &["modelSha256", "digest"]);
        assert!(matches!(
            ModelPackage::load(&dir, Role::PositionValue),
            Err(ModelError::Digest { .. })
        ));
    }

    #[test]
    fn wrong_role_is_refused_by_each_seam() {
        let msg = refused_feature(&fixture("collapse-rich9"));
        assert_names(&msg, &["modelRole", "chance-collapse", "position-value"]);
        let err = CollapseModel::load(&fixture("linear-material7"))
            .err()
            .unwrap();
        assert_names(
            &err.to_string(),
            &["modelRole", "position-value", "chance-collapse"],
        );
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("modelRole".into(), json!("move-prerank"));
            },
            |_| {},
        );
        assert_names(&refused_feature(&dir), &["modelRole", "move-prerank"]);
        // A package of the right role loaded through from_package with another role is refused.
        let pkg = ModelPackage::load(&fixture("collapse-rich9"), Role::ChanceCollapse).unwrap();
        let err = FeatureModel::from_package(pkg).err().unwrap();
        assert!(matches!(err, ModelError::RoleMismatch { .. }), "{err}");
    }

    #[test]
    fn wrong_feature_count_or_width_is_refused() {
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("featureCount".into(), json!(9));
            },
            |_| {},
        );
        assert_names(
            &refused_feature(&dir),
            &["featureCount", "9", "7", "material-7-v1"],
        );
        // Manifest consistent (rich-9-v1, 9) but the graph takes 7 columns.
        let msg = refused_feature(&fixture("broken/width-mismatch"));
        assert_names(&msg, &["featureCount", "[-1, 7]", "9"]);
    }

    #[test]
    fn wrong_input_or_output_name_is_refused() {
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("inputName".into(), json!("features"));
            },
            |_| {},
        );
        assert_names(
            &refused_feature(&dir),
            &["inputName", "\"features\"", "\"input\""],
        );
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("outputName".into(), json!("variable"));
            },
            |_| {},
        );
        assert_names(
            &refused_feature(&dir),
            &["outputName", "\"variable\"", "\"output\""],
        );
    }

    #[test]
    fn unknown_feature_schema_is_refused() {
        let dir = variant(
            "linear-material7",
            |m| {
                m.insert("featureSchema".into(), json!("material-8-v9"));
            },
            |_| {},
        );
        assert_names(&refused_feature(&dir), &["featureSchema", "material-8-v9"]);
    }

    #[test]
    fn fixed_batch_dimension_is_refused() {
        let msg = refused_feature(&fixture("broken/fixed-batch"));
        assert_names(&msg, &["batch dimension", "fixed", "1"]);
    }

    #[test]
    fn other_graph_contract_breaks_are_refused() {
        assert_names(
            &refused_feature(&fixture("broken/output-width")),
            &["output width", "[-1, 2]"],
        );
        assert_names(
            &refused_feature(&fixture("broken/double-input")),
            &["input type", "Float64", "FLOAT"],
        );
        assert_names(
            &refused_feature(&fixture("broken/two-inputs")),
            &["input count", "2 inputs", "\"extra\""],
        );
    }

    #[test]
    fn missing_files_are_named() {
        let dir = variant("linear-material7", |_| {}, |_| {});
        std::fs::remove_file(dir.join("model.onnx")).unwrap();
        assert_names(&refused_feature(&dir), &["missing", "model.onnx"]);
        let dir = variant("linear-material7", |_| {}, |_| {});
        std::fs::remove_file(dir.join("manifest.json")).unwrap();
        assert_names(&refused_feature(&dir), &["missing", "manifest.json"]);
        let msg = refused_feature(Path::new("/nonexistent/package"));
        assert_names(&msg, &["/nonexistent/package/model.onnx"]);
    }

    #[test]
    fn garbage_model_bytes_are_refused_by_the_runtime() {
        // Not protobuf at all: refused by the external-data walk, before the runtime.
        // Valid protobuf but no model (only an ir_version): refused by the runtime.
        for (garbage, words) in [
            (
                b"this is not an onnx model".to_vec(),
                "not a valid ONNX protobuf",
            ),
            (vec![0x08, 0x01], "could not open the model"),
        ] {
            let digest = sha256_hex(&garbage);
            let dir = variant(
                "linear-material7",
                |m| {
                    m.insert("modelSha256".into(), json!(digest));
                },
                |b| *b = garbage,
            );
            let msg = refused_feature(&dir);
            assert!(msg.contains(words), "{msg}");
        }
    }

    #[test]
    fn models_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<FeatureModel>();
        check::<CollapseModel>();
        check::<ModelPackage>();
        let _: &dyn BatchEvaluator = &material7();
    }
}
