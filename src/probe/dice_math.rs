//! Exact dice arithmetic: counts out of 216, probabilities only at the end (docs/rules.md §6).

use crate::rules::{ROLLS, ROLL_DENOMINATOR};

/// Ordered rolls of three dice (out of 216) showing at least one of `k` given faces:
/// `216 − (6 − k)³` = 0, 91, 152, 189, 208, 215, 216 for k = 0..=6 (k above 6 counts as 6).
#[inline]
pub const fn rolls_showing_any_of(k: u32) -> u32 {
    let miss = 6 - if k > 6 { 6 } else { k };
    ROLL_DENOMINATOR - miss * miss * miss
}

/// [`rolls_showing_any_of`] as a probability.
#[inline]
pub fn probability_of_any_of(k: u32) -> f64 {
    rolls_showing_any_of(k) as f64 / ROLL_DENOMINATOR as f64
}

/// The 56-bit mask of every roll multiset (bit = index into [`ROLLS`]).
pub const ALL_ROLLS: u64 = (1u64 << 56) - 1;

/// Weight (out of 216) of the rolls in a 56-bit roll mask.
#[inline]
pub fn weight_of(mask: u64) -> u32 {
    // Rolls are grouped by weight in three constant masks, so this is three popcounts.
    let m = mask & ALL_ROLLS;
    (m & WEIGHT_1).count_ones() + 3 * (m & WEIGHT_3).count_ones() + 6 * (m & WEIGHT_6).count_ones()
}

const fn weight_mask(w: u8) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 56 {
        if ROLLS[i].weight == w {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

const WEIGHT_1: u64 = weight_mask(1);
const WEIGHT_3: u64 = weight_mask(3);
const WEIGHT_6: u64 = weight_mask(6);
