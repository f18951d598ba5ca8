//! The time manager against docs/search.md §6's worked examples, and the transposition
//! table under concurrent writers.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::search::{budget, Bound, ClockState, Entry, TimePolicy, TranspositionTable};
use std::sync::Arc;

fn clock(remaining_ms: u64, increment_ms: u64, move_number: u32) -> ClockState {
    ClockState {
        remaining_ms,
        increment_ms,
        move_number,
        moves_to_go: None,
    }
}

#[test]
fn empirical_policy_matches_the_worked_examples() {
    // (remaining, increment, move, target, hard cap) from docs/search.md §6.
    let table = [
        (60_000, 0, 1, 7_582, 12_000),
        (30_000, 0, 10, 5_549, 6_000),
        (10_000, 0, 20, 1_535, 2_000),
        (4_000, 0, 30, 419, 800),
        (2_000, 0, 40, 141, 400),
        (500, 0, 50, 20, 100),
        (180_000, 2_000, 1, 24_748, 36_000),
        (600_000, 10_000, 1, 85_828, 120_000),
        (400_000, 10_000, 10, 80_000, 80_000),
        (20_000, 10_000, 40, 4_000, 4_000),
        (1_500, 10_000, 60, 200, 300),
    ];
    for (remaining, inc, mv, target, cap) in table {
        let b = budget(&clock(remaining, inc, mv), TimePolicy::EmpiricalV1);
        assert_eq!(
            (b.target_ms, b.hard_cap_ms),
            (target, cap),
            "{remaining} +{inc} move {mv}"
        );
    }
    let interpolated = [
        (2, 6.767),
        (4, 5.744),
        (6, 5.373),
        (7, 5.274),
        (9, 5.156),
        (12, 5.254),
        (25, 7.5075),
        (35, 10.44),
        (90, 12.05),
    ];
    for (mv, want) in interpolated {
        let got = TimePolicy::EmpiricalV1.moves_to_go(mv);
        assert!((got - want).abs() < 1e-3, "move {mv}: {got} vs {want}");
    }
    // The docs' legacy table: 1+0 at 60 000 ms → 1 965 ms.
    assert_eq!(
        budget(&clock(60_000, 0, 1), TimePolicy::LegacyLinearV1).target_ms,
        1_965
    );
}

/// Keys as the search makes them: 64-bit Zobrist values (here SplitMix64 of an index).
fn zobrist_like(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A value determined by the key but unrelated to its bits (a search value is a score,
/// never a function of the key's bit pattern), so any hit can be verified.
fn value_of(key: u64) -> f64 {
    (zobrist_like(key) >> 11) as f64
}

#[test]
fn concurrent_writers_never_make_a_probe_return_another_keys_value() {
    // A small table so that threads fight over the same buckets all the time.
    let tt = Arc::new(TranspositionTable::with_buckets(64));
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            let tt = Arc::clone(&tt);
            std::thread::spawn(move || {
                let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ t;
                let mut checked = 0u64;
                for _ in 0..200_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let key = zobrist_like(x % 4096);
                    // Each key's value is a function of the key, so any hit can be verified.
                    let value = value_of(key);
                    let bound = if key.is_multiple_of(3) {
                        Bound::Upper
                    } else {
                        Bound::Exact
                    };
                    tt.store(
                        key,
                        Entry {
                            value,
                            bound,
                            depth: (key % 4) as u8,
                            loss_tainted: key.is_multiple_of(5),
                        },
                    );
                    let probe = zobrist_like((x >> 20) % 4096);
                    let (exact, bounded) = tt.probe(probe);
                    for e in [exact, bounded].into_iter().flatten() {
                        assert_eq!(e.value, value_of(probe), "key {probe}");
                        assert_eq!(e.depth, (probe % 4) as u8);
                        assert_eq!(e.loss_tainted, probe.is_multiple_of(5));
                        checked += 1;
                    }
                }
                checked
            })
        })
        .collect();
    let checked: u64 = threads
        .into_iter()
        .map(|h| h.join().expect("no panic"))
        .sum();
    assert!(
        checked > 1000,
        "the stress test must actually hit entries ({checked})"
    );
    let stats = tt.stats();
    assert!(stats.hit_rate() > 0.0 && stats.stores > 0);
}

#[test]
fn exact_and_bound_entries_are_kept_apart() {
    let tt = TranspositionTable::with_buckets(1024);
    let key = 0xdead_beef;
    tt.store(
        key,
        Entry {
            value: 3.0,
            bound: Bound::Exact,
            depth: 1,
            loss_tainted: false,
        },
    );
    tt.store(
        key,
        Entry {
            value: -7.0,
            bound: Bound::Upper,
            depth: 1,
            loss_tainted: true,
        },
    );
    let (exact, bound) = tt.probe(key);
    assert_eq!(exact.map(|e| e.value), Some(3.0));
    assert_eq!(
        bound.map(|e| (e.value, e.bound, e.loss_tainted)),
        Some((-7.0, Bound::Upper, true))
    );
    assert_eq!(tt.probe(key ^ 1), (None, None));
    // A shallower entry never replaces a deeper one.
    tt.store(
        key,
        Entry {
            value: 9.0,
            bound: Bound::Exact,
            depth: 0,
            loss_tainted: false,
        },
    );
    assert_eq!(tt.probe(key).0.map(|e| e.value), Some(3.0));
}
