//! A set of Zobrist keys for one expansion: open addressing with linear probing, emptied by
//! a generation counter instead of a wipe.
//!
//! Keys are already uniformly mixed, so the low bits index the table directly. In
//! `expand_all_rolls` an insert is the most frequent operation after move generation (one
//! per leaf, most of them repeats); `std::collections::HashSet` with an identity hasher cost
//! 13 % of the castling position's instructions (callgrind), this table about a third of that, and wiping
//! its slots between expansions cost 5 % of a small position's expansion (promotion).

/// A set of `u64` keys, emptied in constant time: each slot carries the generation that
/// filled it, and a slot of an older generation is empty.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    slots: Vec<Slot>,
    len: usize,
    generation: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    generation: u32,
}

impl Default for KeyTable {
    fn default() -> Self {
        KeyTable {
            slots: vec![Slot::default(); 1024],
            len: 0,
            generation: 1,
        }
    }
}

impl KeyTable {
    /// An empty table with `slots` slots (a power of two; it grows as needed).
    pub(crate) fn with_capacity(slots: usize) -> KeyTable {
        KeyTable {
            slots: vec![Slot::default(); slots.next_power_of_two().max(2)],
            len: 0,
            generation: 1,
        }
    }

    /// Insert `key`; `true` when it was not there yet. Inlined: the call itself cost a
    /// quarter of an insert (callgrind, castling position).
    #[inline(always)]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        // Keep the load at most one half, so probes stay short.
        if self.len * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let s = &mut self.slots[i];
            if s.generation != self.generation {
                *s = Slot {
                    key,
                    generation: self.generation,
                };
                self.len += 1;
                return true;
            }
            if s.key == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Empty the set (keeps the capacity): a new generation, so every slot reads as empty.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 clears, stale slots could match again: wipe them once.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let live = self.generation;
        let bigger = vec![Slot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        self.generation = 1;
        for s in old.into_iter().filter(|s| s.generation == live) {
            self.insert(s.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KeyTable;
    use std::collections::HashSet;

    #[test]
    fn behaves_as_a_set_through_growth_and_clears() {
        let mut t = KeyTable::default();
        let mut reference = HashSet::new();
        let mut x = 0x1234_5678_9abc_def1u64;
        for round in 0..4 {
            for i in 0..5000u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Repeats, the zero key and keys that share low bits all occur.
                let key = match i % 7 {
                    0 => 0,
                    1 => x & !0xffff,
                    2 => i / 3,
                    _ => x,
                };
                assert_eq!(
                    t.insert(key),
                    reference.insert(key),
                    "round {round} key {key}"
                );
            }
            t.clear();
            reference.clear();
        }
    }
}

/// Hashes a Zobrist key by itself (it is already uniformly mixed): the hasher of the
/// standard sets and maps keyed by position keys, here and in the search.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A set of Zobrist keys.
pub(crate) type KeySet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<KeyHasher>>;

/// A map keyed by Zobrist keys.
pub(crate) type KeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;
