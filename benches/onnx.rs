//! `FeatureModel::evaluate` throughput (rows/s) on the linear-material7 fixture at batch
//! sizes 1, 64, 1024 and 4096, on 1 and 2 rayon threads. Each configuration's scores are
//! first checked against the values computed by hand from the fixture's weights
//! (tests/fixtures/models/generate.py). Needs the ONNX Runtime: `bash .ci/install-onnxruntime`.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::Perspective;
use dicechess::eval::onnx::FeatureModel;
use dicechess::eval::BatchEvaluator;
use dicechess::kernels::{Color, PieceType};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// linear-material7: P(win) = sigmoid(x · W + B) over the material-7-v1 columns.
const W: [f64; 7] = [0.125, 0.25, 0.25, 0.5, 1.0, 0.0625, -0.0078125];
const B: f64 = 0.5;

const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "k7/4P3/8/8/8/8/8/4K3 b - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "1k6/8/8/8/8/8/QQQQQQQQ/4K3 b - - 0 1",
];

/// The expected score of a position, by hand: material counts, the linear map, the
/// sigmoid, then `20000 · (p − 0.5)`.
fn expected_score(pos: &Position) -> f64 {
    let me = pos.side_to_move();
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
        x[5] += values[i] * x[i];
        x[6] += values[i] * (count(me, t) + count(them, t));
    }
    let z: f64 = x.iter().zip(W).map(|(a, w)| a * w).sum::<f64>() + B;
    20000.0 * (1.0 / (1.0 + (-z).exp()) - 0.5)
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/models/linear-material7");
    let model = FeatureModel::load(&dir).unwrap_or_else(|e| {
        panic!("{e}\n(the ONNX bench needs the runtime: run `bash .ci/install-onnxruntime`)")
    });
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_dfen(f).expect("bench FEN"))
        .collect();
    for (threads, pool) in common::pools() {
        let mut g = c.benchmark_group(format!("onnx/feature_model/{threads}_threads"));
        for rows in [1usize, 64, 1024, 4096] {
            let chosen: Vec<Position> = (0..rows).map(|i| positions[i % positions.len()]).collect();
            let batch = PositionBatch::from_positions(&chosen);
            let mut out = vec![0.0f32; rows];
            pool.install(|| model.evaluate(&batch, &mut out))
                .expect("evaluate");
            for (i, pos) in chosen.iter().enumerate() {
                let want = expected_score(pos);
                assert!(
                    (f64::from(out[i]) - want).abs() < 0.02,
                    "row {i}: {} vs hand {want}",
                    out[i]
                );
            }
            g.throughput(Throughput::Elements(rows as u64));
            g.bench_with_input(BenchmarkId::new("evaluate", rows), &batch, |b, batch| {
                pool.install(|| {
                    b.iter(|| {
                        model
                            .evaluate(black_box(batch), black_box(&mut out))
                            .expect("evaluate")
                    })
                })
            });
            // The share of the runtime: inference alone on features extracted beforehand.
            let features = model.schema().extract(&batch, Perspective::SideToMove);
            g.bench_with_input(
                BenchmarkId::new("inference_only", rows),
                &features,
                |b, features| {
                    pool.install(|| {
                        b.iter(|| {
                            model
                                .predict_features(black_box(features.view()))
                                .expect("predict")
                        })
                    })
                },
            );
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_millis(500), Duration::from_secs(2), 20);
    targets = bench
}
criterion_main!(benches);
