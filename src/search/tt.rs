//! A lockless transposition table shared by all search workers (docs/architecture.md "Contracts").
//!
//! Each bucket holds two entries — one for exact values, one for bounds, so a bound never
//! evicts an exact value of the same position — and each entry is three `AtomicU64` written
//! Hyatt-style: `(key ^ value ^ meta, value, meta)`, the value a full `f64` so that a table
//! hit returns exactly what the search computed. A reader accepts an entry only when the
//! words XOR to the key, so a torn write (another thread's half-written entry) reads as a
//! miss, never as another position's value. No locks, no `unsafe`.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored value means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The true value is at most this (a fail-low / Star cut).
    Upper,
    /// The true value is at least this.
    Lower,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The stored value.
    pub value: f64,
    /// What the value means.
    pub bound: Bound,
    /// Remaining plies the value was searched with.
    pub depth: u8,
    /// Some roll of the node leads to the loss of our king.
    pub loss_tainted: bool,
}

impl Entry {
    /// The meta word: bound (2 bits, never 0 for a stored entry), depth, loss taint.
    fn meta(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Upper => 2,
            Bound::Lower => 3,
        };
        bound | (self.depth as u64) << 2 | (self.loss_tainted as u64) << 10
    }

    fn unpack(value: u64, meta: u64) -> Option<Entry> {
        let bound = match meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Upper,
            3 => Bound::Lower,
            _ => return None,
        };
        Some(Entry {
            value: f64::from_bits(value),
            bound,
            depth: (meta >> 2) as u8,
            loss_tainted: (meta >> 10) & 1 != 0,
        })
    }
}

/// Counters, read with [`TranspositionTable::stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Probes made.
    pub probes: u64,
    /// Probes that found an entry of the key.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Writes that replaced another key's entry.
    pub collisions: u64,
}

impl TableStats {
    /// hits / probes (0 when nothing was probed).
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

/// The table: `2^k` buckets of two entries (48 bytes a bucket).
pub struct TranspositionTable {
    slots: Vec<AtomicU64>,
    mask: usize,
    probes: AtomicU64,
    hits: AtomicU64,
    stores: AtomicU64,
    collisions: AtomicU64,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &(self.mask + 1))
            .field("stats", &self.stats())
            .finish()
    }
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets; at least
    /// 1,024 buckets).
    pub fn with_megabytes(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / 48).max(1024);
        TranspositionTable::with_buckets(1 << (usize::BITS - 1 - buckets.leading_zeros()))
    }

    /// A table of exactly `buckets` buckets (must be a power of two; rounded up otherwise).
    pub fn with_buckets(buckets: usize) -> TranspositionTable {
        let buckets = buckets.max(1).next_power_of_two();
        TranspositionTable {
            slots: (0..buckets * 6).map(|_| AtomicU64::new(0)).collect(),
            mask: buckets - 1,
            probes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            stores: AtomicU64::new(0),
            collisions: AtomicU64::new(0),
        }
    }

    /// Number of buckets.
    pub fn buckets(&self) -> usize {
        self.mask + 1
    }

    #[inline]
    fn base(&self, key: u64, bound: Bound) -> usize {
        let bucket = (key as usize) & self.mask;
        bucket * 6 + if bound == Bound::Exact { 0 } else { 3 }
    }

    #[inline]
    fn read(&self, at: usize, key: u64) -> Option<Entry> {
        let check = self.slots[at].load(Relaxed);
        let value = self.slots[at + 1].load(Relaxed);
        let meta = self.slots[at + 2].load(Relaxed);
        if meta != 0 && check ^ value ^ meta == key {
            Entry::unpack(value, meta)
        } else {
            None
        }
    }

    /// The exact entry and the bound entry stored for `key`, each if present.
    pub fn probe(&self, key: u64) -> (Option<Entry>, Option<Entry>) {
        self.probes.fetch_add(1, Relaxed);
        let exact = self.read(self.base(key, Bound::Exact), key);
        let bound = self.read(self.base(key, Bound::Upper), key);
        if exact.is_some() || bound.is_some() {
            self.hits.fetch_add(1, Relaxed);
        }
        (exact, bound)
    }

    /// Store an entry for `key`. Replacement: an empty slot or the same key is overwritten
    /// when the new depth is at least the old one; another key's entry only by a deeper or
    /// equal-depth entry.
    pub fn store(&self, key: u64, entry: Entry) {
        let at = self.base(key, entry.bound);
        let old_value = self.slots[at + 1].load(Relaxed);
        let old_meta = self.slots[at + 2].load(Relaxed);
        let old_key = self.slots[at].load(Relaxed) ^ old_value ^ old_meta;
        if let Some(old) = Entry::unpack(old_value, old_meta) {
            if entry.depth < old.depth {
                return;
            }
            if old_key != key {
                self.collisions.fetch_add(1, Relaxed);
            }
        }
        let (value, meta) = (entry.value.to_bits(), entry.meta());
        self.slots[at].store(key ^ value ^ meta, Relaxed);
        self.slots[at + 1].store(value, Relaxed);
        self.slots[at + 2].store(meta, Relaxed);
        self.stores.fetch_add(1, Relaxed);
    }

    /// Counters so far.
    pub fn stats(&self) -> TableStats {
        TableStats {
            probes: self.probes.load(Relaxed),
            hits: self.hits.load(Relaxed),
            stores: self.stores.load(Relaxed),
            collisions: self.collisions.load(Relaxed),
        }
    }

    /// Empty every slot and reset the counters.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Relaxed);
        }
        for c in [&self.probes, &self.hits, &self.stores, &self.collisions] {
            c.store(0, Relaxed);
        }
    }
}
