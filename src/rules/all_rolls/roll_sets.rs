//! The answers of one all-roll expansion: where each of the 56 rolls reads its end states,
//! and the rolls grouped into classes by answer.

use super::node::Node;
use super::tables::{SPENT_SETS, TABLES};
use crate::board::Position;
use crate::rules::key_set::KeyTable;
use crate::rules::{MoveList, ROLLS};

/// What one roll's legal turns lead to (see [`RollSets::roll`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollOutcome<'a> {
    /// Some legal turn captures the enemy king.
    KingCapture,
    /// No legal turn: the roll is a pass.
    Pass,
    /// The distinct positions after the end of turn (distinct by Zobrist key).
    Moves(&'a [Position]),
}

/// Where one roll's answer lives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Slot {
    #[default]
    Pass,
    KingCapture,
    /// The bucket of one spent multiset, read in place.
    Bucket(u8),
    /// `merged[start..end]`.
    Merged(u32, u32),
}

/// The answers of [`expand_all_rolls`](super::expand_all_rolls) for the 56 rolls of one
/// position, in [`ROLLS`] order. Reuse one `RollSets` across positions: its buffers keep
/// their capacity, so a warmed-up expansion allocates nothing.
pub struct RollSets {
    slots: [Slot; 56],
    /// The end states of each spent multiset (the walk fills them).
    pub(super) buckets: Vec<Vec<Position>>,
    merged: Vec<Position>,
    /// The merged copies made so far in [`RollSets::settle`], by the buckets they join
    /// (kept here so a warmed-up expansion allocates nothing).
    merged_by_parts: Vec<(([u8; 3], usize), Slot)>,
    /// The walk's inner nodes seen, then the keys of one merged copy.
    pub(super) seen: KeyTable,
    /// One end-key table per spent multiset: a node's leaves fall into a few buckets, and
    /// small per-bucket tables stay in cache where one table for all leaves did not
    /// (Kiwipete: 4 MB of slots probed at random, 1.3× the per-roll time instead of 3×).
    pub(super) end_keys: Vec<KeyTable>,
    pub(super) lists: [MoveList; 1],
    /// Inner nodes with one and with two dice spent.
    pub(super) levels: [Vec<Node>; 2],
}

impl Default for RollSets {
    fn default() -> Self {
        RollSets::new()
    }
}

impl std::fmt::Debug for RollSets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..56).map(|i| self.roll(i)))
            .finish()
    }
}

impl RollSets {
    /// Empty sets (every roll a pass until [`expand_all_rolls`](super::expand_all_rolls)
    /// fills them).
    pub fn new() -> RollSets {
        RollSets {
            slots: [Slot::Pass; 56],
            buckets: (0..SPENT_SETS).map(|_| Vec::new()).collect(),
            merged: Vec::new(),
            merged_by_parts: Vec::new(),
            seen: KeyTable::default(),
            end_keys: (0..SPENT_SETS)
                .map(|_| KeyTable::with_capacity(64))
                .collect(),
            lists: [MoveList::default(); 1],
            levels: [Vec::new(), Vec::new()],
        }
    }

    /// The rolls grouped by answer — all king-capturing rolls form one class, all passes
    /// another, and rolls that read the same end states another — as (the first roll of the
    /// class, its weight out of 216), heaviest first (ties by first roll). Classes hold the
    /// ADEP classes of docs/rules.md §6 and more: a chance node evaluates each once.
    pub fn classes(&self, out: &mut Vec<(usize, u16)>) {
        out.clear();
        let mut slots: Vec<Slot> = Vec::with_capacity(8);
        for (r, roll) in ROLLS.iter().enumerate() {
            let slot = self.slots[r];
            match slots.iter().position(|&s| s == slot) {
                Some(c) => out[c].1 += roll.weight as u16,
                None => {
                    slots.push(slot);
                    out.push((r, roll.weight as u16));
                }
            }
        }
        out.sort_by_key(|&(r, w)| (std::cmp::Reverse(w), r));
    }

    /// The outcome of roll `ROLLS[i]`. Panics when `i >= 56`.
    pub fn roll(&self, i: usize) -> RollOutcome<'_> {
        match self.slots[i] {
            Slot::Pass => RollOutcome::Pass,
            Slot::KingCapture => RollOutcome::KingCapture,
            Slot::Bucket(s) => RollOutcome::Moves(&self.buckets[s as usize]),
            Slot::Merged(a, b) => RollOutcome::Moves(&self.merged[a as usize..b as usize]),
        }
    }

    /// Empty every buffer for a new walk; the buffers keep their capacity.
    pub(super) fn clear(&mut self) {
        for b in &mut self.buckets {
            // Empty buckets cost a length check; the filled ones were the last call's.
            b.clear();
        }
        self.merged.clear();
        self.seen.clear();
        for t in &mut self.end_keys {
            t.clear();
        }
        for level in &mut self.levels {
            level.clear();
        }
    }

    /// Every roll a pass (what an exhausted budget leaves).
    pub(super) fn pass_all(&mut self) {
        self.slots = [Slot::Pass; 56];
    }

    /// Each roll's answer from what the walk found — `king_rolls`, the rolls in which some
    /// payable line captures the king — and the end states in the buckets: the maximum dice
    /// rule (module documentation) picks the buckets a roll reads.
    ///
    /// A multiset is spent by some non-capturing line exactly when its bucket holds an end
    /// state: the first line to spend it always finds its end key new in that multiset's
    /// own table. So the walk no longer marks the multisets it reaches (a 128-bit OR per
    /// leaf entry, 2 % of the endgame position's instructions, callgrind), and each roll
    /// looks up its own few sub-multisets, largest first, instead of scanning a 128-bit set
    /// (the scan was 4 % of the promotion position's instructions).
    pub(super) fn settle(&mut self, king_rolls: u64) {
        let t = &TABLES;
        let mut merged_by_parts = std::mem::take(&mut self.merged_by_parts);
        merged_by_parts.clear();
        for r in 0..ROLLS.len() {
            let bit = 1u64 << r;
            if king_rolls & bit != 0 {
                self.slots[r] = Slot::KingCapture;
                continue;
            }
            // D*(R) and the reached multisets of that size inside R, largest size first.
            let mut parts = [0u8; 3];
            let mut n = 0;
            for k in 0..3 {
                let len = t.by_size_len[r][k] as usize;
                for &s in &t.by_size[r][k][..len] {
                    if !self.buckets[s as usize].is_empty() {
                        parts[n] = s;
                        n += 1;
                    }
                }
                if n > 0 {
                    break;
                }
            }
            self.slots[r] = match n {
                0 => Slot::Pass,
                1 => Slot::Bucket(parts[0]),
                _ => {
                    // Rolls that draw on the same buckets share one merged copy.
                    let key = (parts, n);
                    match merged_by_parts.iter().find(|(k, _)| *k == key) {
                        Some(&(_, slot)) => slot,
                        None => {
                            let start = self.merged.len();
                            self.seen.clear();
                            for &s in &parts[..n] {
                                for p in &self.buckets[s as usize] {
                                    if self.seen.insert(p.key()) {
                                        self.merged.push(*p);
                                    }
                                }
                            }
                            let slot = Slot::Merged(start as u32, self.merged.len() as u32);
                            merged_by_parts.push((key, slot));
                            slot
                        }
                    }
                }
            };
        }
        self.merged_by_parts = merged_by_parts;
    }
}
