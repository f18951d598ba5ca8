//! Material over `PositionBatch` columns versus a row-at-a-time loop over `Position`s, on 1
//! and 2 threads: the evaluator (best kernel for the CPU: AVX-512 `vpopcntq`, AVX2, else
//! portable), every kernel form the CPU runs alone on one thread, and the row loop.
//! Asserts equal results before timing.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::{material_kernels, BatchEvaluator, Material};
use dicechess::rules::{legal_paths, ROLLS};
use std::hint::black_box;
use std::time::Duration;

/// 65,536 positions from seeded random play.
fn positions() -> Vec<Position> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let start = Position::startpos();
    let mut out = Vec::with_capacity(65_536);
    let mut p = start;
    while out.len() < 65_536 {
        let rolled = p.with_dice(ROLLS[(next() % 56) as usize].dice());
        let paths = legal_paths(&rolled);
        p = match paths.len() {
            0 => rolled.end_turn(),
            n => paths[(next() % n as u64) as usize].end_position(&rolled),
        };
        out.push(p);
        if paths.iter().any(|t| t.captures_king()) || out.len() % 60 == 0 {
            p = start;
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let rows = positions();
    let batch = PositionBatch::from_positions(&rows);
    let mut batch_out = vec![0f32; rows.len()];
    Material.evaluate(&batch, &mut batch_out).expect("material");
    let row_out: Vec<f32> = rows
        .iter()
        .map(|p| Material::score(p, p.side_to_move()) as f32)
        .collect();
    assert_eq!(
        batch_out, row_out,
        "batch and row-at-a-time material must agree"
    );

    let mut g = c.benchmark_group("material");
    g.throughput(Throughput::Elements(rows.len() as u64));
    for (threads, pool) in common::pools() {
        g.bench_function(BenchmarkId::new("batch_columns", threads), |b| {
            b.iter(|| pool.install(|| Material.evaluate(black_box(&batch), &mut batch_out)))
        });
    }
    // Each kernel form this CPU runs, alone on this thread (a CPU without AVX-512 runs the
    // next one down).
    let by_type = batch.by_type();
    let values = dicechess::probe::MATERIAL_VALUES.prices();
    let mut kernel_out = vec![0f32; rows.len()];
    for &(name, kernel) in material_kernels() {
        let (white, black) = (batch.by_color()[0], &batch.by_color()[1]);
        let run = |out: &mut [f32]| kernel(by_type, white, black, batch.side(), &values, out);
        run(&mut kernel_out);
        assert_eq!(kernel_out, row_out, "{name} kernel and rows must agree");
        g.bench_function(BenchmarkId::new(format!("batch_columns_{name}"), 1), |b| {
            b.iter(|| run(black_box(&mut kernel_out)))
        });
    }
    let mut out = vec![0i32; rows.len()];
    g.bench_function(BenchmarkId::new("row_at_a_time", 1), |b| {
        b.iter(|| {
            for (o, p) in out.iter_mut().zip(black_box(&rows)) {
                *o = Material::score(p, p.side_to_move());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_millis(500), Duration::from_secs(2), 20);
    targets = bench
}
criterion_main!(benches);
