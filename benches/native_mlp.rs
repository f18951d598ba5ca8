//! Leaves per second of a learned evaluator, per feature schema, one core (the timing loop
//! runs inside the one-thread pool, as the search's evaluations do: handing each call to the
//! pool from outside cost about 55 µs here, more than a 1024-leaf material batch): the schema's
//! feature extraction alone, then the whole evaluation (features + forward) by the native
//! MLP forward and by ONNX Runtime, on the same package (a 32-unit hidden layer, the
//! `python -m dicechess.train` default, random weights), at batch sizes 64 (a small chance
//! node) and 1024. Before timing, native and ORT scores are checked equal within
//! 20000 · 10⁻⁵ on every row (the probability within 10⁻⁵).
//!
//! The leaves: the distinct end positions of every roll of Kiwipete after 1. e4-like
//! moves (`expand_all_rolls` of the benchmark positions), the rows a chance node scores.
//! The hand-written evaluators `best` and `expectimax` use (dice-aware, material) are timed
//! on the same batches first, as the yardstick a learned leaf has to pay for.
//! Needs the ONNX Runtime: `bash .ci/install-onnxruntime`.
#![allow(clippy::unwrap_used)]

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::{schema, Perspective};
use dicechess::eval::onnx::{
    sha256_hex, Dense, FeatureModel, MlpGraph, ModelPackage, NativeModel, Role,
};
use dicechess::eval::{BatchEvaluator, DiceAware, Material};
use dicechess::rules::{expand_all_rolls, RollOutcome, RollSets};
use std::hint::black_box;
use std::time::Duration;

const SCHEMAS: [&str; 5] = [
    "material-7-v1",
    "rich-9-v1",
    "kcp-13",
    "kcp-mobility-27-v1",
    "dice-terms-v1",
];

/// Leaves of the benchmark positions' chance nodes, deduplicated per node.
fn leaves() -> Vec<Position> {
    let mut sets = RollSets::new();
    let mut out = Vec::new();
    for (_, fen) in common::POSITIONS {
        let pos = Position::from_dfen(fen).unwrap();
        expand_all_rolls(&pos, &mut sets);
        for r in 0..56 {
            if let RollOutcome::Moves(ps) = sets.roll(r) {
                out.extend_from_slice(ps);
            }
        }
    }
    out
}

fn package(schema_id: &str, width: usize) -> (NativeModel, FeatureModel) {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        ((seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * 0.3
    };
    let dense = |inputs: usize, outputs: usize, relu: bool, next: &mut dyn FnMut() -> f32| Dense {
        inputs,
        outputs,
        weights: (0..inputs * outputs).map(|_| next()).collect(),
        bias: (0..outputs).map(|_| next()).collect(),
        relu,
    };
    let graph = MlpGraph {
        layers: vec![
            dense(width, 32, true, &mut next),
            dense(32, 1, false, &mut next),
        ],
        sigmoid: true,
    };
    let bytes = graph.to_onnx("features", "value");
    let manifest = serde_json::json!({
        "manifestVersion": "1.0.0",
        "modelId": format!("bench-{schema_id}"),
        "featureSchema": schema_id,
        "featureCount": width,
        "inputName": "features",
        "outputName": "value",
        "modelSha256": sha256_hex(&bytes),
        "engineCompatibility": ">=0.1.0 <1.0.0",
    })
    .to_string();
    let pkg = |b: Vec<u8>| {
        ModelPackage::from_bytes(
            b,
            manifest.as_bytes(),
            Role::PositionValue,
            dicechess::ENGINE_VERSION,
        )
        .unwrap()
    };
    (
        NativeModel::from_package(pkg(bytes.clone())).unwrap(),
        FeatureModel::from_package(pkg(bytes))
            .unwrap_or_else(|e| panic!("{e} (bash .ci/install-onnxruntime)")),
    )
}

fn bench(c: &mut Criterion) {
    let all = leaves();
    let pool = common::pool(1);
    eprintln!("{} leaves from the benchmark positions", all.len());
    let hand: [(&str, Box<dyn BatchEvaluator>); 2] = [
        ("dice-aware", Box::new(DiceAware::default())),
        ("material", Box::new(Material)),
    ];
    for (name, eval) in &hand {
        let mut group = c.benchmark_group(format!("leaves/{name}"));
        for n in [64usize, 1024] {
            let batch = PositionBatch::from_positions(&all[..n.min(all.len())]);
            let mut out = vec![f32::NAN; batch.len()];
            pool.install(|| eval.evaluate(&batch, &mut out)).unwrap();
            assert!(
                out.iter().all(|v| v.is_finite()),
                "{name}: a leaf without a score"
            );
            group.throughput(Throughput::Elements(batch.len() as u64));
            group.bench_function(BenchmarkId::new("evaluate", n), |bn| {
                pool.install(|| bn.iter(|| eval.evaluate(black_box(&batch), &mut out)))
            });
        }
        group.finish();
    }
    for id in SCHEMAS {
        let width = schema(id).unwrap().width();
        let (native, ort) = package(id, width);
        let mut group = c.benchmark_group(format!("leaves/{id}"));
        for n in [64usize, 1024] {
            let batch = PositionBatch::from_positions(&all[..n.min(all.len())]);
            let (mut a, mut b) = (vec![0.0; batch.len()], vec![0.0; batch.len()]);
            pool.install(|| native.evaluate(&batch, &mut a)).unwrap();
            pool.install(|| ort.evaluate(&batch, &mut b)).unwrap();
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                assert!((x - y).abs() <= 0.2, "{id} row {i}: native {x} ORT {y}");
            }
            group.throughput(Throughput::Elements(batch.len() as u64));
            group.bench_function(BenchmarkId::new("features", n), |bn| {
                pool.install(|| {
                    bn.iter(|| {
                        schema(id)
                            .unwrap()
                            .extract(black_box(&batch), Perspective::SideToMove)
                    })
                })
            });
            group.bench_function(BenchmarkId::new("native", n), |bn| {
                pool.install(|| bn.iter(|| native.evaluate(black_box(&batch), &mut a)))
            });
            group.bench_function(BenchmarkId::new("ort", n), |bn| {
                pool.install(|| bn.iter(|| ort.evaluate(black_box(&batch), &mut b)))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_millis(300), Duration::from_secs(2), 20);
    targets = bench
}
criterion_main!(benches);
