//! Zobrist keys compatible with the ecosystem's engine (docs/rules.md §7).
//!
//! 1,192 keys (9.3 KiB) generated at compile time from SplitMix64 seeded with
//! `0x32a4b892f1c6d7e0`, drawn in the order pieces (12 × 64), side (1), castling (16),
//! e.p. (64), dice (343).

use crate::board::Dice;
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

const SEED: u64 = 0x32a4_b892_f1c6_d7e0;
const PIECES: usize = 12 * 64;
const SIDE: usize = PIECES;
const CASTLING: usize = SIDE + 1;
const EP: usize = CASTLING + 16;
const DICE: usize = EP + 64;
const TOTAL: usize = DICE + 343;

const fn splitmix_keys() -> [u64; TOTAL] {
    let mut keys = [0u64; TOTAL];
    let mut state = SEED;
    let mut i = 0;
    while i < TOTAL {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
}

static KEYS: [u64; TOTAL] = splitmix_keys();

/// Key of a piece of `color` and `piece` on `sq`.
#[inline]
pub fn piece(color: Color, piece: PieceType, sq: Square) -> u64 {
    KEYS[(color.index() * 6 + piece.index()) * 64 + sq.index()]
}

/// Key XORed in when Black is to move.
#[inline]
pub fn side() -> u64 {
    KEYS[SIDE]
}

/// Key of a castling-rights value (K = 1, Q = 2, k = 4, q = 8); always part of the key.
#[inline]
pub fn castling(rights: u8) -> u64 {
    KEYS[CASTLING + (rights & 15) as usize]
}

/// Key of one e.p. target.
#[inline]
pub fn ep(sq: Square) -> u64 {
    KEYS[EP + sq.index()]
}

/// XOR of the keys of every e.p. target in `set`.
#[inline]
pub fn ep_set(set: Bitboard) -> u64 {
    set.iter().fold(0, |k, sq| k ^ ep(sq))
}

/// Key of a dice pool; always part of the key (the empty pool has its own key).
#[inline]
pub fn dice(d: Dice) -> u64 {
    KEYS[DICE + d.zobrist_index()]
}
