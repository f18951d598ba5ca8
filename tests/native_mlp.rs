//! The native MLP forward (`eval::onnx::NativeModel`) against an independent float64
//! forward of the same weights and against ONNX Runtime on the same package bytes: equal
//! within 10⁻⁵ on every row. The MLPs have random weights and the graph
//! `python -m dicechess.train` exports (Gemm, Relu, …, Gemm, Sigmoid), written by
//! `MlpGraph::to_onnx`; the committed fixture linear-material7 (Gemm + Sigmoid, written by
//! the Python `onnx` package) is read too.
//!
//! The ORT comparisons need the ONNX Runtime library (as tests/onnx.rs: they fail, never
//! skip, when it is missing; `bash .ci/install-onnxruntime`).
#![allow(clippy::unwrap_used)]

use dicechess::batch::{LeafBatch, PositionBatch};
use dicechess::board::{Dice, Position};
use dicechess::eval::onnx::{sha256_hex, Dense, MlpGraph, ModelPackage, NativeModel, Role};
use dicechess::eval::BatchEvaluator;
use dicechess::rules::{legal_paths, roll_faces};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;

/// Layer `k`: `(weights [in × out] row-major, bias [out])`.
type Layer = (Vec<f32>, Vec<f32>);

/// `input [N, sizes[0]] → Gemm, Relu, … Gemm, Sigmoid → output [N, 1]` as ONNX bytes,
/// written by `MlpGraph::to_onnx` (ORT reading them back is part of what is checked).
fn mlp_onnx(sizes: &[usize], layers: &[Layer], input: &str, output: &str) -> Vec<u8> {
    let last = layers.len() - 1;
    MlpGraph {
        layers: layers
            .iter()
            .enumerate()
            .map(|(k, (w, b))| Dense {
                inputs: sizes[k],
                outputs: sizes[k + 1],
                weights: w.clone(),
                bias: b.clone(),
                relu: k < last,
            })
            .collect(),
        sigmoid: true,
    }
    .to_onnx(input, output)
}

fn random_layers(sizes: &[usize], rng: &mut Xoshiro256PlusPlus) -> Vec<Layer> {
    let mut uniform =
        |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
    sizes
        .windows(2)
        .map(|p| {
            let scale = (2.0 / p[0] as f32).sqrt();
            let w = (0..p[0] * p[1]).map(|_| uniform(scale)).collect();
            let b = (0..p[1]).map(|_| uniform(0.1)).collect();
            (w, b)
        })
        .collect()
}

/// The same network in float64, written independently of the engine's forward.
fn reference(layers: &[Layer], sizes: &[usize], x: &[f32]) -> f64 {
    let mut h: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for (k, (w, b)) in layers.iter().enumerate() {
        let (n_in, n_out) = (sizes[k], sizes[k + 1]);
        let mut z: Vec<f64> = (0..n_out).map(|j| f64::from(b[j])).collect();
        for (j, zj) in z.iter_mut().enumerate() {
            for (i, hi) in h.iter().enumerate().take(n_in) {
                *zj += hi * f64::from(w[i * n_out + j]);
            }
        }
        if k + 1 < layers.len() {
            for v in z.iter_mut() {
                *v = v.max(0.0);
            }
        }
        h = z;
    }
    1.0 / (1.0 + (-h[0]).exp())
}

fn package(schema: &str, width: usize, model: Vec<u8>) -> ModelPackage {
    let manifest = serde_json::json!({
        "manifestVersion": "1.0.0",
        "modelId": format!("native-test-{schema}"),
        "featureSchema": schema,
        "featureCount": width,
        "inputName": "features",
        "outputName": "value",
        "modelSha256": sha256_hex(&model),
        "engineCompatibility": ">=0.1.0 <1.0.0",
    });
    ModelPackage::from_bytes(
        model,
        manifest.to_string().as_bytes(),
        Role::PositionValue,
        dicechess::ENGINE_VERSION,
    )
    .unwrap()
}

/// Positions from seeded random play: every phase, both sides to move.
fn positions(n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..80 {
            let rolled = pos.with_dice(Dice::from_faces(&roll_faces(&mut rng)).unwrap());
            let paths = legal_paths(&rolled);
            if paths.is_empty() {
                pos = rolled.end_turn();
                continue;
            }
            let p = paths[(rng.next_u64() % paths.len() as u64) as usize];
            if p.captures_king() {
                break;
            }
            pos = p.end_position(&rolled);
            out.push(pos);
        }
    }
    out.truncate(n);
    out
}

const SCHEMAS: [(&str, usize); 3] = [("kcp-13", 13), ("rich-9-v1", 9), ("kcp-mobility-27-v1", 27)];

#[test]
fn native_forward_equals_a_float64_forward_of_the_same_weights() {
    let rows = positions(600);
    let batch = PositionBatch::from_positions(&rows);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for (schema, width) in SCHEMAS {
        let sizes = [width, 32, 16, 1];
        let layers = random_layers(&sizes, &mut rng);
        let model = NativeModel::from_package(package(
            schema,
            width,
            mlp_onnx(&sizes, &layers, "features", "value"),
        ))
        .unwrap();
        assert_eq!(model.graph().layers.len(), 3);
        let features = dicechess::eval::features::schema(schema)
            .unwrap()
            .extract(&batch, dicechess::eval::features::Perspective::SideToMove);
        let got = model.predict(&batch).unwrap();
        for (i, row) in features.rows().into_iter().enumerate() {
            let x: Vec<f32> = row.to_vec();
            let want = reference(&layers, &sizes, &x);
            assert!(
                (f64::from(got[i]) - want).abs() <= 1e-5,
                "{schema} row {i}: {} vs {want}",
                got[i]
            );
        }
    }
}

#[test]
fn native_forward_equals_onnx_runtime_within_1e_5() {
    let rows = positions(2000);
    let batch = PositionBatch::from_positions(&rows);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    for (schema, width) in SCHEMAS {
        let sizes = [width, 64, 32, 1];
        let layers = random_layers(&sizes, &mut rng);
        let bytes = mlp_onnx(&sizes, &layers, "features", "value");
        let native = NativeModel::from_package(package(schema, width, bytes.clone())).unwrap();
        let ort = dicechess::eval::onnx::FeatureModel::from_package(package(schema, width, bytes))
            .unwrap_or_else(|e| panic!("{e} (run `bash .ci/install-onnxruntime`)"));
        let a = native.predict(&batch).unwrap();
        let b = ort.predict(&batch).unwrap();
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max);
        assert!(worst <= 1e-5, "{schema}: largest |native − ORT| {worst}");
        // And as evaluators, on the shared score axis.
        let (mut sa, mut sb) = (vec![0.0; rows.len()], vec![0.0; rows.len()]);
        native.evaluate(&batch, &mut sa).unwrap();
        ort.evaluate(&batch, &mut sb).unwrap();
        let worst = sa
            .iter()
            .zip(&sb)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max);
        assert!(
            worst <= 20_000.0 * 1e-5,
            "{schema}: scores differ by {worst}"
        );
    }
    // The committed fixtures: Gemm + Sigmoid (linear-material7) read natively too.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/models/linear-material7");
    let native = NativeModel::load(&dir).unwrap();
    let ort = dicechess::eval::onnx::FeatureModel::load(&dir).unwrap();
    let a = native.predict(&batch).unwrap();
    let b = ort.predict(&batch).unwrap();
    assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-5));
}

#[test]
fn graphs_the_native_forward_cannot_run_are_refused_with_the_reason() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let sizes = [13, 8, 1];
    let layers = random_layers(&sizes, &mut rng);
    // The graph's width against the manifest's.
    let e = NativeModel::from_package(package("kcp-13", 13, {
        let s = [9, 8, 1];
        mlp_onnx(&s, &random_layers(&s, &mut rng), "features", "value")
    }))
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(e.contains("takes 9 features") && e.contains("13"), "{e}");
    // An output the chain does not reach.
    let e = NativeModel::from_package(package(
        "kcp-13",
        13,
        mlp_onnx(&sizes, &layers, "features", "other"),
    ))
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(e.contains("not a plain MLP"), "{e}");
    // Weights kept in model.onnx.data (the committed fixture ORT runs): refused by name.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/models");
    let e = NativeModel::load(&dir.join("external-material7"))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("model.onnx.data"), "external-material7: {e}");
    // Garbage bytes: a wire error, never a panic.
    let e = NativeModel::from_package(package("kcp-13", 13, vec![0x0a, 0xff, 0xff]))
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not a valid ONNX protobuf") || e.contains("graphs"),
        "{e}"
    );
}

/// The row-wise leaf path (`NativeModel::evaluate_leaves`) gives the batch path's scores,
/// bit for bit, on every schema, king-capture classes left as they are.
#[test]
fn leaves_scored_in_place_equal_the_batch_path() {
    let rows = positions(300);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for (schema, width) in SCHEMAS.into_iter().chain([("dice-terms-v1", 20)]) {
        let sizes = [width, 32, 1];
        let layers = random_layers(&sizes, &mut rng);
        let native = NativeModel::from_package(package(
            schema,
            width,
            mlp_onnx(&sizes, &layers, "features", "value"),
        ))
        .unwrap();
        let mut leaves = LeafBatch::new();
        assert!(
            !native.evaluate_leaves(&mut leaves).unwrap(),
            "no rows, no call"
        );
        for (k, chunk) in rows.chunks(37).enumerate() {
            leaves.push_class(1 + k as u16, chunk);
            leaves.push_king_capture(2);
        }
        assert!(native.evaluate_leaves(&mut leaves).unwrap());
        let mut want = vec![0f32; leaves.rows().len()];
        native
            .evaluate(&PositionBatch::from_positions(leaves.rows()), &mut want)
            .unwrap();
        let got = leaves.values_mut();
        assert_eq!(got.len(), rows.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.to_bits(), w.to_bits(), "{schema} row {i}: {g} vs {w}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The forward pass this CPU dispatches to (AVX where present, AVX-512 blocks of rows) gives
    /// the same bits as the baseline build's form, on nets of any width: no fused multiply-add, no reordered sum
    /// (the wasm32 build runs the baseline form, and `best-net` must play the same there).
    #[test]
    fn the_dispatched_forward_gives_the_portable_bits(
        seed in proptest::prelude::any::<u64>(),
        widths in proptest::collection::vec(1usize..70, 1..4),
        input in 1usize..40,
    ) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut sizes = vec![input];
        sizes.extend(&widths);
        sizes.push(1);
        let layers = random_layers(&sizes, &mut rng);
        let last = layers.len() - 1;
        let graph = MlpGraph {
            layers: layers
                .iter()
                .enumerate()
                .map(|(k, (w, b))| Dense {
                    inputs: sizes[k],
                    outputs: sizes[k + 1],
                    weights: w.clone(),
                    bias: b.clone(),
                    relu: k < last,
                })
                .collect(),
            sigmoid: seed % 2 == 0,
        };
        let mut scratch = [Vec::new(), Vec::new()];
        for _ in 0..8 {
            let x: Vec<f32> = (0..input)
                .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 20) as f32 - 8.0)
                .collect();
            let fast = graph.forward(&x, &mut scratch);
            let portable = graph.forward_portable(&x, &mut scratch);
            proptest::prop_assert_eq!(fast.to_bits(), portable.to_bits(), "{:?} on {:?}", sizes, x);
        }
        // Several rows at once (blocks of four on AVX-512, the rest one by one): each row
        // the portable bits.
        let n = (seed % 11) as usize;
        let xs: Vec<f32> = (0..n * input)
            .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 20) as f32 - 8.0)
            .collect();
        let mut out = vec![f32::NAN; n];
        graph.forward_rows(&xs, &mut out, &mut scratch);
        for (r, (x, y)) in xs.chunks_exact(input).zip(&out).enumerate() {
            let portable = graph.forward_portable(x, &mut scratch);
            proptest::prop_assert_eq!(y.to_bits(), portable.to_bits(), "{:?} row {} of {}", sizes, r, n);
        }
    }
}
