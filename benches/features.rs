//! Feature-schema throughput (docs/features.md): rows per second of each schema's batch
//! `extract` on 4096 positions from random play, in rayon pools of 1 and 2 threads
//! (`features/<schema id>/extract/<n>t`, throughput in rows), plus one `kcp-13` row
//! (`extract_row`) on two bare kings (the JVM's "sparse" row, 79 µs there), a few-piece
//! ending, the start position and Kiwipete (17.7 ms there) (`features/kcp-13-row/<position>`).
//!
//! The machine may be shared, so wall-clock rates undercount a core's speed; after the
//! criterion groups each schema's 1-thread rate is printed also per second of the worker's
//! own on-CPU time (`/proc/thread-self/schedstat`, Linux), as `rows/s per core`.
//!
//! Before timing, every schema's batch output (both pools) is checked against row-by-row
//! `extract_row`, and each timed `kcp-13` row's king columns against a plain count over the
//! 56 rolls' legal paths.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::{all_schemas, FeatureSchema, Kcp13, Perspective};
use dicechess::kernels::{Color, PieceType};
use dicechess::rules::{legal_paths, ROLLS};
use rayon::ThreadPool;
use std::hint::black_box;
use std::time::Duration;

const ROWS: usize = 4096;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Every position (after each turn) of random games from the start position — a random roll,
/// then a random legal path — each game ending at a king capture or after 80 turns.
fn random_play_positions(n: usize) -> Vec<Position> {
    let mut x = 0x00fe_a7e5_u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let start = Position::from_dfen(START).expect("start FEN");
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut p = start;
        for _ in 0..80 {
            let rolled = p.with_dice(ROLLS[(next() % 56) as usize].dice());
            let paths = legal_paths(&rolled);
            p = if paths.is_empty() {
                rolled.end_turn()
            } else {
                paths[(next() % paths.len() as u64) as usize].end_position(&rolled)
            };
            out.push(p);
            let kings = |c| p.piece_bb(c, PieceType::King).any();
            if out.len() == n || !kings(Color::White) || !kings(Color::Black) {
                break;
            }
        }
    }
    out
}

/// Rolls out of 216 with which `defender`'s opponent captures a king of `defender`: the
/// 56 rolls' legal paths searched one by one (a king capture ends the turn, so a path
/// capturing the king ends without it).
fn plain_king_rolls(p: &Position, defender: Color) -> u32 {
    let view = p
        .with_dice(dicechess::board::Dice::EMPTY)
        .with_side_to_move(defender.opponent());
    ROLLS
        .iter()
        .filter(|r| {
            let rolled = view.with_dice(r.dice());
            legal_paths(&rolled).iter().any(|path| {
                path.end_position(&rolled)
                    .piece_bb(defender, PieceType::King)
                    .is_empty()
            })
        })
        .map(|r| r.weight as u32)
        .sum()
}

/// Panic unless the batch output in `pool` equals `extract_row` row by row.
fn check(s: &dyn FeatureSchema, positions: &[Position], batch: &PositionBatch, pool: &ThreadPool) {
    let got = pool.install(|| s.extract(batch, Perspective::SideToMove));
    assert_eq!(got.dim(), (positions.len(), s.width()));
    let mut want = vec![0.0f32; s.width()];
    for (i, p) in positions.iter().enumerate() {
        s.extract_row(p, p.side_to_move(), &mut want);
        assert_eq!(
            got.row(i).as_slice().expect("row"),
            &want[..],
            "{} row {i}",
            s.id()
        );
    }
}

/// Nanoseconds the calling thread has run on a CPU (Linux), if known.
fn on_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Rows per second of on-CPU time of `s.extract` in a 1-thread pool, over at least `min`
/// of CPU time.
fn rows_per_cpu_second(
    s: &dyn FeatureSchema,
    batch: &PositionBatch,
    pool: &ThreadPool,
    min: Duration,
) -> Option<f64> {
    pool.install(|| {
        let start = on_cpu_ns()?;
        let mut rows = 0usize;
        loop {
            black_box(s.extract(black_box(batch), Perspective::SideToMove));
            rows += batch.len();
            let used = on_cpu_ns()? - start;
            if used >= min.as_nanos() as u64 {
                return Some(rows as f64 / (used as f64 * 1e-9));
            }
        }
    })
}

fn bench(c: &mut Criterion) {
    let positions = random_play_positions(ROWS);
    let batch = PositionBatch::from_positions(&positions);
    let pools = common::pools();
    for s in all_schemas() {
        for (_, p) in &pools {
            check(*s, &positions, &batch, p);
        }
    }

    for s in all_schemas() {
        let mut g = c.benchmark_group(format!("features/{}", s.id()));
        g.throughput(Throughput::Elements(batch.len() as u64));
        if s.id().starts_with("kcp") {
            // Tens of milliseconds per batch: few, flat samples.
            g.sample_size(10).sampling_mode(SamplingMode::Flat);
        }
        for (threads, p) in &pools {
            g.bench_function(BenchmarkId::new("extract", format!("{threads}t")), |b| {
                b.iter(|| p.install(|| s.extract(black_box(&batch), Perspective::SideToMove)))
            });
        }
        g.finish();
    }

    println!("\nrows/s per core (1 thread, per second of on-CPU time):");
    for s in all_schemas() {
        match rows_per_cpu_second(*s, &batch, &pools[0].1, Duration::from_secs(2)) {
            Some(r) => println!("  {:<26} {:>14.0}", s.id(), r),
            None => println!("  {:<26} (no per-thread CPU clock here)", s.id()),
        }
    }

    let mut g = c.benchmark_group("features/kcp-13-row");
    g.throughput(Throughput::Elements(1));
    let mut out = [0.0f32; 13];
    for (name, fen) in [
        ("sparse", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("ending", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        ("start", START),
        ("kiwipete", KIWIPETE),
    ] {
        let p = Position::from_dfen(fen).expect("FEN");
        Kcp13.extract_row(&p, Color::White, &mut out);
        for (column, defender) in [(9, Color::Black), (10, Color::White)] {
            let want = plain_king_rolls(&p, defender) as f32 / 216.0;
            assert_eq!(out[column], want, "{name}: kcp-13 column {column}");
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                Kcp13.extract_row(black_box(&p), Color::White, &mut out);
                black_box(out[9])
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 100);
    targets = bench
}
criterion_main!(benches);
