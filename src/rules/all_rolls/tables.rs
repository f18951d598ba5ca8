//! The dice multisets a path can have spent, as tables built at compile time: the 84
//! multisets of at most three dice, which rolls contain each, and how spending one more die
//! moves between them.

use crate::rules::ROLLS;

/// The number of dice multisets of size 0 to 3 over six faces: 1 + 6 + 21 + 56.
pub(super) const SPENT_SETS: usize = 84;

/// The multisets of at most three dice, their sizes, the rolls containing them, and how
/// adding a face moves between them: built once, at compile time (84 entries; 3.5 KiB).
pub(super) struct SpentTables {
    /// Faces of each multiset, ascending, zero-padded at the end.
    faces: [[u8; 3]; SPENT_SETS],
    pub(super) size: [u8; SPENT_SETS],
    /// `add[s][f]`: the multiset `s ∪ {f}` (`u8::MAX` when `s` already holds three dice).
    pub(super) add: [[u8; 7]; SPENT_SETS],
    /// Bit `r` set when roll `ROLLS[r]` contains the multiset.
    pub(super) rolls_containing: [u64; SPENT_SETS],
    /// `rest_mask[s][r]`: the type mask of the faces roll `r` holds beyond multiset `s`
    /// (0 when `r` does not contain `s`).
    pub(super) rest_mask: [[u8; 56]; SPENT_SETS],
    /// `by_size[r][k]`: the distinct multisets of `3 - k` dice roll `r` contains, ascending
    /// by index (`by_size_len[r][k]` of them): what the maximum dice rule looks up, largest
    /// first.
    pub(super) by_size: [[[u8; 3]; 3]; 56],
    /// How many entries of `by_size` are used.
    pub(super) by_size_len: [[u8; 3]; 56],
    /// A random salt per multiset, XORed into node keys so that one key set serves all.
    pub(super) salt: [u64; SPENT_SETS],
}

/// Sort key: ascending faces with zeros last (7 stands in for 0).
const fn k(x: u8) -> u8 {
    if x == 0 {
        7
    } else {
        x
    }
}

const fn sort3(mut f: [u8; 3]) -> [u8; 3] {
    if k(f[0]) > k(f[1]) {
        let t = f[0];
        f[0] = f[1];
        f[1] = t;
    }
    if k(f[1]) > k(f[2]) {
        let t = f[1];
        f[1] = f[2];
        f[2] = t;
    }
    if k(f[0]) > k(f[1]) {
        let t = f[0];
        f[0] = f[1];
        f[1] = t;
    }
    f
}

const fn same(a: [u8; 3], b: [u8; 3]) -> bool {
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2]
}

/// Whether multiset `small` (zero-padded) is contained in the full roll `roll`.
const fn contained(small: [u8; 3], roll: [u8; 3]) -> bool {
    let mut used = [false; 3];
    let mut i = 0;
    while i < 3 {
        if small[i] != 0 {
            let mut j = 0;
            let mut found = false;
            while j < 3 {
                if !used[j] && roll[j] == small[i] {
                    used[j] = true;
                    found = true;
                    break;
                }
                j += 1;
            }
            if !found {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// The type mask of the faces of `roll` left after removing the multiset `small` from it.
const fn rest_mask(small: [u8; 3], roll: [u8; 3]) -> u8 {
    let mut used = [false; 3];
    let mut i = 0;
    while i < 3 {
        if small[i] != 0 {
            let mut j = 0;
            while j < 3 {
                if !used[j] && roll[j] == small[i] {
                    used[j] = true;
                    break;
                }
                j += 1;
            }
        }
        i += 1;
    }
    let mut mask = 0u8;
    let mut j = 0;
    while j < 3 {
        if !used[j] {
            mask |= 1 << (roll[j] - 1);
        }
        j += 1;
    }
    mask
}

const fn build_tables() -> SpentTables {
    let mut t = SpentTables {
        faces: [[0; 3]; SPENT_SETS],
        size: [0; SPENT_SETS],
        add: [[u8::MAX; 7]; SPENT_SETS],
        rolls_containing: [0; SPENT_SETS],
        rest_mask: [[0; 56]; SPENT_SETS],
        by_size: [[[0; 3]; 3]; 56],
        by_size_len: [[0; 3]; 56],
        salt: [0; SPENT_SETS],
    };
    // Enumerate by size: {}, the 6 singles, the 21 pairs, the 56 triples.
    let mut n = 1;
    let mut a = 1u8;
    while a <= 6 {
        t.faces[n] = [a, 0, 0];
        t.size[n] = 1;
        n += 1;
        a += 1;
    }
    a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            t.faces[n] = [a, b, 0];
            t.size[n] = 2;
            n += 1;
            b += 1;
        }
        a += 1;
    }
    a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            let mut c = b;
            while c <= 6 {
                t.faces[n] = [a, b, c];
                t.size[n] = 3;
                n += 1;
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    let mut s = 0;
    let mut z = 0x6a09_e667_f3bc_c908u64;
    while s < SPENT_SETS {
        // SplitMix64 salts.
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = z;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        t.salt[s] = x ^ (x >> 31);
        let mut r = 0;
        while r < 56 {
            if contained(t.faces[s], ROLLS[r].faces) {
                t.rolls_containing[s] |= 1 << r;
                t.rest_mask[s][r] = rest_mask(t.faces[s], ROLLS[r].faces);
                if s > 0 {
                    let k = 3 - t.size[s] as usize;
                    let len = t.by_size_len[r][k] as usize;
                    t.by_size[r][k][len] = s as u8;
                    t.by_size_len[r][k] += 1;
                }
            }
            r += 1;
        }
        if t.size[s] < 3 {
            let mut f = 1u8;
            while f <= 6 {
                let mut grown = t.faces[s];
                grown[t.size[s] as usize] = f;
                let grown = sort3(grown);
                let mut k = 0;
                while k < SPENT_SETS {
                    if same(t.faces[k], grown) {
                        t.add[s][f as usize] = k as u8;
                    }
                    k += 1;
                }
                f += 1;
            }
        }
        s += 1;
    }
    t
}

/// The tables, built at compile time.
pub(super) static TABLES: SpentTables = build_tables();
