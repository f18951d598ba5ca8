//! What the benches share (each bench includes it with `mod common;`): the five benchmark
//! positions, criterion settings, thread pools, the two chance-node modes and a timed run
//! for the report lines.
#![allow(dead_code)] // each bench uses its own few

use criterion::Criterion;
use dicechess::search::ChanceMode;
use rayon::ThreadPool;
use std::time::{Duration, Instant};

/// The five benchmark positions: (name, FEN without a dice field).
pub const POSITIONS: [(&str, &str); 5] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "castling",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    ),
    ("promotion", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"),
];

/// The benchmark positions with a value each, given by name in [`POSITIONS`] order:
/// (name, FEN, value). Panics when a name is not the position's.
pub fn positions_with<T>(values: [(&'static str, T); 5]) -> [(&'static str, &'static str, T); 5] {
    let mut at = POSITIONS.iter();
    values.map(|(named, value)| {
        let &(name, fen) = at.next().expect("five positions");
        assert_eq!(named, name, "values given out of POSITIONS order");
        (name, fen, value)
    })
}

/// Criterion with this warm-up, measurement time and sample count.
pub fn criterion(warm_up: Duration, measurement: Duration, samples: usize) -> Criterion {
    Criterion::default()
        .warm_up_time(warm_up)
        .measurement_time(measurement)
        .sample_size(samples)
}

/// A rayon pool of `threads` threads.
pub fn pool(threads: usize) -> ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon pool")
}

/// The pools the benches compare, with their thread counts: 1 and 2 threads.
pub fn pools() -> [(usize, ThreadPool); 2] {
    [1, 2].map(|threads| (threads, pool(threads)))
}

/// The chance-node modes compared: roll by roll (ADEP classes, `per-roll`) and in one
/// shared walk (`shared`, the default).
pub const CHANCE_MODES: [(&str, ChanceMode); 2] = [
    ("per-roll", ChanceMode::Adep),
    ("shared", ChanceMode::Shared),
];

/// What `f` returns, and the seconds it took (one run, for a report line).
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let value = f();
    (value, t.elapsed().as_secs_f64())
}
