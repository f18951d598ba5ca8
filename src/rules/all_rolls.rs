//! Every roll's end-of-turn positions in one shared walk (docs/rules.md §5–§6).
//!
//! A chance node needs, for each of the 56 rolls, the distinct positions its legal turns end
//! in. Walking each roll from scratch repeats most of the work: the first micro-moves of
//! `{P,N,B}` are those of `{P,N,Q}` too. [`expand_all_rolls`] walks the micro-move tree once,
//! with *every* piece type payable, and labels each node with the multiset `S` of dice its
//! path has spent. A node is reachable under a roll `R` exactly when `S ⊆ R`, so one walk
//! answers all rolls:
//!
//! * `R` is a king capture when some capturing micro-move's `S ∪ {face}` fits in `R`;
//! * otherwise the most dice `R` can spend is `D*(R) = max |S|` over the nodes with `S ⊆ R`
//!   (a deepest node can never be extended, so it is complete), and the legal end states are
//!   those of the nodes with `S ⊆ R` and `|S| = D*(R)` — the maximum dice rule;
//! * `D*(R) = 0` is a pass.
//!
//! Nodes are merged by (position, `S`), so `A,B` and `B,A` are expanded once, and the end
//! states are kept in one bucket per `S` (84 multisets of at most three dice). A roll whose
//! end states come from a single bucket (every roll with `D* = 3`, and the rolls whose other
//! dice are unusable — the ADEP classes of docs/rules.md §6) reads that bucket in place; only
//! a roll that draws on two or three buckets gets a merged copy.

use super::budget::{Budget, Budgeted, Meter, Unmetered};
use super::key_set::KeyTable;
use super::make::{color_rights, corner_right};
use super::{generate_into, MicroMove, MoveKind, MoveList, PieceMoves, ROLLS};
use crate::board::zobrist;
use crate::board::Position;
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

/// The number of dice multisets of size 0 to 3 over six faces: 1 + 6 + 21 + 56.
const SPENT_SETS: usize = 84;

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

/// The multisets of at most three dice, their sizes, the rolls containing them, and how
/// adding a face moves between them: built once, at compile time (84 entries; 3.5 KiB).
struct SpentTables {
    /// Faces of each multiset, ascending, zero-padded at the end.
    faces: [[u8; 3]; SPENT_SETS],
    size: [u8; SPENT_SETS],
    /// `add[s][f]`: the multiset `s ∪ {f}` (`u8::MAX` when `s` already holds three dice).
    add: [[u8; 7]; SPENT_SETS],
    /// Bit `r` set when roll `ROLLS[r]` contains the multiset.
    rolls_containing: [u64; SPENT_SETS],
    /// `rest_mask[s][r]`: the type mask of the faces roll `r` holds beyond multiset `s`
    /// (0 when `r` does not contain `s`).
    rest_mask: [[u8; 56]; SPENT_SETS],
    /// `subsets[r]`: the non-empty multisets roll `r` contains (bit per multiset index).
    subsets: [u128; 56],
    /// A random salt per multiset, XORed into node keys so that one key set serves all.
    salt: [u64; SPENT_SETS],
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
        subsets: [0; 56],
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
                    t.subsets[r] |= 1 << s;
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

static TABLES: SpentTables = build_tables();

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

/// The answers of [`expand_all_rolls`] for the 56 rolls of one position, in [`ROLLS`] order.
/// Reuse one `RollSets` across positions: its buffers keep their capacity, so a warmed-up
/// expansion allocates nothing.
pub struct RollSets {
    slots: [Slot; 56],
    buckets: Vec<Vec<Position>>,
    merged: Vec<Position>,
    seen: KeyTable,
    /// One end-key table per spent multiset: a node's leaves fall into a few buckets, and
    /// small per-bucket tables stay in cache where one table for all leaves did not
    /// (Kiwipete: 4 MB of slots probed at random, 1.3× the per-roll time instead of 3×).
    end_keys: Vec<KeyTable>,
    lists: [MoveList; 1],
    /// Inner nodes (position, spent multiset) with one and with two dice spent.
    levels: [Vec<(Position, u8)>; 2],
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
    /// Empty sets (every roll a pass until [`expand_all_rolls`] fills them).
    pub fn new() -> RollSets {
        RollSets {
            slots: [Slot::Pass; 56],
            buckets: (0..SPENT_SETS).map(|_| Vec::new()).collect(),
            merged: Vec::new(),
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
}

/// For each of the 56 rolls of [`ROLLS`], whether the side to move of `pos` captures the
/// enemy king, passes, or which distinct positions its legal turns end in — the answers
/// [`super::TurnGenerator::end_states_into`] gives roll by roll, from one shared walk (see
/// the module documentation). The dice of `pos` are ignored. Positions that differ only in
/// their clocks count once; the one kept carries the clocks of one of its paths.
pub fn expand_all_rolls(pos: &Position, out: &mut RollSets) {
    expand_metered(pos, out, &mut Unmetered);
}

/// [`expand_all_rolls`] under a work budget: one unit per move-generation call and one per
/// generated micro-move, the units of the per-roll walks. The positions kept grow with the
/// units spent, so the budget bounds memory as well as time. On exhaustion every roll reads
/// as a pass and `Incomplete` says so.
pub fn expand_all_rolls_budgeted(
    pos: &Position,
    budget: &mut Budget,
    out: &mut RollSets,
) -> Budgeted<()> {
    let start = budget.used();
    if expand_metered(pos, out, budget) {
        Budgeted::Complete((), budget.used() - start)
    } else {
        out.slots = [Slot::Pass; 56];
        Budgeted::Incomplete(budget.used() - start)
    }
}

/// The walk and the per-roll answers; `false` when the meter ran out.
fn expand_metered<M: Meter>(pos: &Position, out: &mut RollSets, meter: &mut M) -> bool {
    for b in &mut out.buckets {
        // Empty buckets cost a length check; the filled ones were the last call's.
        b.clear();
    }
    out.merged.clear();
    out.seen.clear();
    for t in &mut out.end_keys {
        t.clear();
    }
    for level in &mut out.levels {
        level.clear();
    }
    let root = pos.with_dice(crate::board::Dice::EMPTY);
    let t = &TABLES;
    let mut walk = Walk {
        buckets: &mut out.buckets,
        seen: &mut out.seen,
        end_keys: &mut out.end_keys,
        king_rolls: 0,
        reached: 0,
        meter,
        exhausted: false,
    };
    // Level by level (by dice spent), so that every king capture one level can make is known
    // before the next level is generated: a roll that captures the king needs no end states,
    // and a node generates only the faces some still-open roll could pay for.
    walk.mark_king_captures(&root, 0);
    let [level1, level2] = &mut out.levels;
    walk.expand(&root, 0, &mut out.lists[0], level1, level2);
    for (p, s) in level1.iter() {
        walk.mark_king_captures(p, *s as usize);
    }
    for (p, s) in level1.iter() {
        walk.expand(p, *s as usize, &mut out.lists[0], level2, &mut Vec::new());
    }
    for (p, s) in level2.iter() {
        walk.mark_king_captures(p, *s as usize);
    }
    for (p, s) in level2.iter() {
        walk.expand_leaves(p, *s as usize, &mut out.lists[0]);
    }
    if walk.exhausted {
        return false;
    }
    let (king_rolls, reached) = (walk.king_rolls, walk.reached);

    let mut merged_by_parts: Vec<(([u8; 3], usize), Slot)> = Vec::new();
    for r in 0..ROLLS.len() {
        let bit = 1u64 << r;
        if king_rolls & bit != 0 {
            out.slots[r] = Slot::KingCapture;
            continue;
        }
        // D*(R) and the reached multisets of that size inside R.
        let mut best = 0u8;
        let mut parts = [0u8; 3];
        let mut n = 0;
        let mut cand = reached & t.subsets[r];
        while cand != 0 {
            let s = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let size = t.size[s];
            if size > best {
                best = size;
                n = 0;
            }
            if size == best && n < 3 {
                parts[n] = s as u8;
                n += 1;
            }
        }
        out.slots[r] = match n {
            0 => Slot::Pass,
            1 => Slot::Bucket(parts[0]),
            _ => {
                // Rolls that draw on the same buckets share one merged copy.
                let key = (parts, n);
                match merged_by_parts.iter().find(|(k, _)| *k == key) {
                    Some(&(_, slot)) => slot,
                    None => {
                        let start = out.merged.len();
                        out.seen.clear();
                        for &s in &parts[..n] {
                            for p in &out.buckets[s as usize] {
                                if out.seen.insert(p.key()) {
                                    out.merged.push(*p);
                                }
                            }
                        }
                        let slot = Slot::Merged(start as u32, out.merged.len() as u32);
                        merged_by_parts.push((key, slot));
                        slot
                    }
                }
            }
        };
    }
    true
}

/// The shared walk's state.
struct Walk<'a, M: Meter> {
    buckets: &'a mut [Vec<Position>],
    seen: &'a mut KeyTable,
    end_keys: &'a mut [KeyTable],
    meter: &'a mut M,
    /// The meter ran out: every later step does nothing.
    exhausted: bool,
    /// Rolls in which some payable line captures the king.
    king_rolls: u64,
    /// Multisets spent by some non-capturing line (bit per multiset index).
    reached: u128,
}

impl<M: Meter> Walk<'_, M> {
    /// Pay for one move-generation call and the `moves` it produced; `false` (for good) when
    /// the meter runs out.
    #[inline]
    fn pay(&mut self, moves: impl FnOnce() -> u64) -> bool {
        if M::UNLIMITED {
            return true;
        }
        if self.exhausted || !self.meter.charge(1 + moves()) {
            self.exhausted = true;
            return false;
        }
        true
    }

    /// The rolls a node that spent `spent` can still matter to: those containing it that do
    /// not capture the king.
    #[inline]
    fn open_rolls(&self, spent: usize) -> u64 {
        TABLES.rolls_containing[spent] & !self.king_rolls
    }

    /// Mark the rolls in which a piece of the side to move captures an enemy king straight
    /// from `pos` (reached by spending `spent`): a capture by type `t` is a move of a piece of
    /// type `t` that attacks the king, payable by every roll containing `spent ∪ {t}`.
    fn mark_king_captures(&mut self, pos: &Position, spent: usize) {
        let t = &TABLES;
        if t.size[spent] >= 3 {
            return;
        }
        let us = pos.side_to_move();
        let mut attackers = dicechess_kernels::Bitboard(0);
        for k in pos.piece_bb(us.opponent(), PieceType::King) {
            attackers |= pos.attackers(k, us);
        }
        if attackers.is_empty() {
            return;
        }
        for piece in PieceType::ALL {
            if !(attackers & pos.pieces(piece)).is_empty() {
                self.king_rolls |= t.rolls_containing[t.add[spent][piece.face() as usize] as usize];
            }
        }
    }

    /// The type mask of the faces the open rolls containing `spent` hold beyond it.
    #[inline]
    fn open_faces(&self, spent: usize) -> u8 {
        let mut mask = 0u8;
        let mut bits = self.open_rolls(spent);
        while bits != 0 {
            let r = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            mask |= TABLES.rest_mask[spent][r];
        }
        mask
    }

    /// Keep an end state: `end_key` is the key of the position after the end of turn,
    /// computed by the caller (cheaply, before the position exists, on the leaf level); `end`
    /// builds that position only when the key is new.
    #[inline]
    fn keep_end(&mut self, spent: usize, end_key: u64, end: impl FnOnce() -> Position) {
        if self.end_keys[spent].insert(end_key) {
            let end = end();
            debug_assert_eq!(end.key(), end_key);
            self.buckets[spent].push(end);
        }
    }

    /// The last level: every child of `pos` (two dice spent, in `spent`) is a leaf whose
    /// only use is its end state. Most leaves repeat (three orders reach each), so the key is
    /// computed set-wise, straight from the move, and the position is built only for a new
    /// key. The key change of a move is that of its piece leaving and landing, the victim,
    /// and the castling rights the mover and the victim take along (docs/rules.md §4); moves
    /// that touch the e.p. set in other ways (promotions, e.p. captures, capturing a pawn) and
    /// king captures are played in full.
    fn expand_leaves(&mut self, pos: &Position, spent: usize, list: &mut MoveList) {
        let t = &TABLES;
        let mask = self.open_faces(spent);
        if mask == 0 {
            return;
        }
        generate_into(pos, mask, false, list);
        if !self.pay(|| list.count(pos) as u64) {
            return;
        }
        let us = pos.side_to_move();
        let end_delta = pos.end_turn_key() ^ pos.key();
        let slow_victims = pos.pieces(PieceType::Pawn).0 | pos.pieces(PieceType::King).0;
        let last_rank = if us == Color::White { 7 } else { 0 };
        let occupied = pos.occupied().0;
        for e in list.entries() {
            let next_spent = t.add[spent][e.piece.face() as usize] as usize;
            self.reached |= 1u128 << next_spent;
            // What moving this piece does to the castling rights (docs/rules.md §4): the same
            // for every destination, so it is one key change for the whole entry.
            let rights = pos.castling().0;
            let moved_rights = match e.piece {
                PieceType::King => rights & !color_rights(us),
                // Only a rook leaving one of its own corners (a rook may stand on the
                // other side's corner in an odd position; that right stays).
                PieceType::Rook if (e.from.index() < 8) == (us == Color::White) => {
                    rights & !corner_right(e.from)
                }
                _ => rights,
            };
            let rights_delta = zobrist::castling(rights) ^ zobrist::castling(moved_rights);
            let base = pos.key() ^ end_delta ^ rights_delta ^ zobrist::piece(us, e.piece, e.from);
            for to in e.to {
                let bit = 1u64 << to.index();
                // (An odd DFEN may put an e.p. target on the last rank: a diagonal step onto
                // an empty square stays with the full move below.)
                let plain_promotion = e.piece == PieceType::Pawn
                    && to.rank() == last_rank
                    && (bit & occupied != 0 || to.file() == e.from.file());
                if plain_promotion {
                    let victim = victim_delta(pos, to, slow_victims, moved_rights);
                    self.promotion_leaves(pos, e.from, to, base, victim, next_spent);
                    continue;
                }
                let mut key = base ^ zobrist::piece(us, e.piece, to);
                let mut ep_toggle = 0u64;
                if e.piece == PieceType::Pawn {
                    match pawn_ep_delta(pos, e.from, to) {
                        Some(toggle) => {
                            ep_toggle = toggle;
                            if toggle != 0 {
                                key ^= zobrist::ep_set(Bitboard(toggle));
                            }
                        }
                        None => {
                            // Promotions, e.p. captures, odd targets: generate and play.
                            let mut single = MoveList::default();
                            single.push_entry(PieceMoves {
                                to: Bitboard(bit),
                                ..*e
                            });
                            single.for_each(pos, |m| self.leaf(pos, m, next_spent));
                            continue;
                        }
                    }
                }
                let Some((victim_key, rights_after, victim)) =
                    victim_delta(pos, to, slow_victims, moved_rights)
                else {
                    let m = MicroMove {
                        piece: e.piece,
                        from: e.from,
                        to,
                        kind: MoveKind::Normal,
                    };
                    self.leaf(pos, m, next_spent);
                    continue;
                };
                key ^= victim_key;
                let quiet = QuietMove {
                    piece: e.piece,
                    landed: e.piece,
                    from: e.from,
                    to,
                    victim,
                    rights: rights_after,
                    ep_toggle,
                    key,
                };
                self.keep_end(next_spent, key, || quiet.end_position(pos));
            }
        }
    }

    /// The four promotions of the pawn on `from` moving to `to` on the last rank, as leaves
    /// keyed set-wise like the quiet moves (`base`: the key after the end of turn with the
    /// pawn lifted off `from`). A promotion touches no e.p. target that survives the end of
    /// turn: the one behind its origin lies on the rank the end of turn clears, and no target
    /// lies on the last rank. A victim that is a king or a pawn (odd positions) goes to the
    /// full move. In a walk with a pawn on its seventh rank, promotions were most of the
    /// leaves played in full (60 of them per expansion, 12 % of the instructions of
    /// `k7/4P3/8/8/8/8/8/4K3 w`). `victim` is [`victim_delta`]'s answer for `to`.
    fn promotion_leaves(
        &mut self,
        pos: &Position,
        from: Square,
        to: Square,
        base: u64,
        victim: Option<(u64, u8, Option<PieceType>)>,
        spent: usize,
    ) {
        let us = pos.side_to_move();
        let Some((victim_key, rights_after, victim)) = victim else {
            for t in PROMOTIONS {
                let m = MicroMove {
                    piece: PieceType::Pawn,
                    from,
                    to,
                    kind: MoveKind::Promotion(t),
                };
                self.leaf(pos, m, spent);
            }
            return;
        };
        for t in PROMOTIONS {
            let quiet = QuietMove {
                piece: PieceType::Pawn,
                landed: t,
                from,
                to,
                victim,
                rights: rights_after,
                ep_toggle: 0,
                key: base ^ victim_key ^ zobrist::piece(us, t, to),
            };
            self.keep_end(spent, quiet.key, || quiet.end_position(pos));
        }
    }

    /// One leaf move played in full.
    #[inline]
    fn leaf(&mut self, pos: &Position, m: MicroMove, spent: usize) {
        if pos.captures_king(m) {
            self.king_rolls |= TABLES.rolls_containing[spent];
            return;
        }
        let next = pos.play_unchecked(m);
        self.keep_end(spent, next.end_turn_key(), || next.end_turn());
    }

    /// Generate the children of `pos` (reached by spending `spent`) that some open roll can
    /// pay for; new inner nodes go to `next1` (one more die spent) or `next2` (castling, two).
    fn expand(
        &mut self,
        pos: &Position,
        spent: usize,
        list: &mut MoveList,
        next1: &mut Vec<(Position, u8)>,
        next2: &mut Vec<(Position, u8)>,
    ) {
        let t = &TABLES;
        // The faces an open roll holds beyond `spent`, and whether one holds K and R too.
        let mask = self.open_faces(spent);
        if mask == 0 {
            return;
        }
        let castle = mask & CASTLE_MASK == CASTLE_MASK
            && t.size[spent] <= 1
            && self.open_rolls(t.add[t.add[spent][6] as usize][4] as usize) != 0;
        generate_into(pos, mask, castle, list);
        if !self.pay(|| list.count(pos) as u64) {
            return;
        }
        let their_kings = pos.piece_bb(pos.side_to_move().opponent(), PieceType::King);
        list.for_each(pos, |m| {
            let mut next_spent = t.add[spent][m.piece.face() as usize] as usize;
            if m.kind == MoveKind::Castle {
                next_spent = t.add[next_spent][PieceType::Rook.face() as usize] as usize;
            }
            if self.open_rolls(next_spent) == 0 {
                return;
            }
            // Castling lands on an empty square, so it never captures a king.
            if their_kings.contains(m.to) && m.kind != MoveKind::Castle {
                // Already marked from the attack test; kept so no capture is ever missed.
                self.king_rolls |= t.rolls_containing[next_spent];
                return;
            }
            self.reached |= 1u128 << next_spent;
            let size = t.size[next_spent];
            let next = pos.play_unchecked(m);
            if size < 3 {
                // An inner node: keep it (and its end state) the first time this position
                // is reached with these dice spent.
                if !self.seen.insert(next.key() ^ t.salt[next_spent]) {
                    return;
                }
                if m.kind == MoveKind::Castle {
                    next2.push((next, next_spent as u8));
                } else {
                    next1.push((next, next_spent as u8));
                }
            }
            // End states are distinct by their own key (salted apart from the node keys).
            self.keep_end(next_spent, next.end_turn_key(), || next.end_turn());
        });
    }
}

/// What taking on `to` adds to a leaf keyed set-wise, for a mover whose move leaves the
/// castling rights at `rights`: the key change, the rights after (a rook taken on its corner
/// takes that corner's right along) and the victim — `(0, rights, None)` when `to` holds no
/// enemy piece. `None` when the victim is in `slow` (the enemy pawns and kings: a pawn's e.p.
/// target goes with it, a king ends the game), which the caller plays in full.
#[inline]
fn victim_delta(
    pos: &Position,
    to: Square,
    slow: u64,
    rights: u8,
) -> Option<(u64, u8, Option<PieceType>)> {
    let bit = 1u64 << to.index();
    let them = pos.side_to_move().opponent();
    if pos.color(them).0 & bit == 0 {
        return Some((0, rights, None));
    }
    if slow & bit != 0 {
        return None;
    }
    let v = pos.type_at(to)?;
    let mut key = zobrist::piece(them, v, to);
    let mut after = rights;
    if v == PieceType::Rook {
        after &= !corner_right(to);
        key ^= zobrist::castling(rights) ^ zobrist::castling(after);
    }
    Some((key, after, Some(v)))
}

/// The e.p. square a plain pawn move `from → to` toggles (a double push adds the square it
/// passes, any other pawn move removes the square behind its origin; docs/rules.md §4) as a
/// bitboard (0 for none), or `None` when the move is not plain — a promotion, an e.p. capture — or
/// touches a target on the rank the end of turn clears (then the move is played in full).
#[inline]
fn pawn_ep_delta(pos: &Position, from: Square, to: Square) -> Option<u64> {
    let us = pos.side_to_move();
    let (step, last_rank, stale_rank): (i32, u8, u8) = match us {
        Color::White => (8, 7, 5),
        Color::Black => (-8, 0, 2),
    };
    if to.rank() == last_rank {
        return None;
    }
    let empty_target = pos.occupied().0 & (1 << to.index()) == 0;
    if empty_target && to.file() != from.file() {
        return None; // e.p. capture
    }
    let ep = pos.ep_targets().0;
    let (sq, add) = if (to.index() as i32 - from.index() as i32).abs() == 16 {
        (to.index() as i32 - step, true)
    } else {
        (from.index() as i32 - step, false)
    };
    if !(0..64).contains(&sq) {
        return None; // a pawn on its own back rank: leave the odd case to the full move
    }
    let sq = Square::from_index_masked(sq as u32);
    if sq.rank() == stale_rank {
        return None;
    }
    let present = ep & (1 << sq.index()) != 0;
    Some(if present != add { 1 << sq.index() } else { 0 })
}

/// A leaf move that touches no e.p. target but its own double push or the one behind its
/// origin, with everything its end position needs already worked out by the set-wise key.
struct QuietMove {
    piece: PieceType,
    /// The type on `to` after the move: `piece`, or what a pawn promotes to.
    landed: PieceType,
    from: Square,
    to: Square,
    victim: Option<PieceType>,
    /// Castling rights after the move.
    rights: u8,
    /// The e.p. square the move adds or removes (0: none).
    ep_toggle: u64,
    /// The key after the end of turn.
    key: u64,
}

impl QuietMove {
    /// `pos.play_unchecked(m).end_turn()` for this move, built directly: copy-make of the
    /// bitboards plus the end of turn (docs/rules.md §2.4), with the key the caller computed.
    /// Two to three times cheaper than the general make followed by `end_turn`, and only new
    /// leaves are built (debug builds check it against the general form).
    #[inline]
    fn end_position(&self, pos: &Position) -> Position {
        let mut p = *pos;
        let us = pos.side_to_move();
        let them = us.opponent();
        let to_bit = 1u64 << self.to.index();
        if let Some(v) = self.victim {
            p.by_type[v.index()] &= !to_bit;
            p.by_color[them.index()] &= !to_bit;
        }
        let path = (1u64 << self.from.index()) | to_bit;
        p.by_type[self.piece.index()] ^= 1u64 << self.from.index();
        p.by_type[self.landed.index()] ^= to_bit;
        p.by_color[us.index()] ^= path;
        let stale_rank = if them == Color::White { 2 } else { 5 };
        p.ep = (pos.ep ^ self.ep_toggle) & !Bitboard::rank(stale_rank).0;
        p.castling = self.rights;
        p.halfmove = if self.piece == PieceType::Pawn || self.victim.is_some() {
            0
        } else {
            pos.halfmove.saturating_add(1).min(127)
        };
        p.side = them.index() as u8;
        if them == Color::White {
            p.fullmove = p.fullmove.saturating_add(1).min(2_147_483_647);
        }
        p.key = self.key;
        debug_assert_eq!(
            p,
            pos.play_unchecked(MicroMove {
                piece: self.piece,
                from: self.from,
                to: self.to,
                kind: if self.landed != self.piece {
                    MoveKind::Promotion(self.landed)
                } else if self.piece == PieceType::Pawn
                    && self.to.index().abs_diff(self.from.index()) == 16
                {
                    MoveKind::DoublePush
                } else {
                    MoveKind::Normal
                },
            })
            .end_turn()
        );
        p
    }
}

/// What a pawn promotes to.
const PROMOTIONS: [PieceType; 4] = [
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
];

/// The king and rook bits of a type mask.
const CASTLE_MASK: u8 = PieceType::King.mask_bit() | PieceType::Rook.mask_bit();

#[cfg(test)]
mod tests {
    use crate::board::Position;

    #[test]
    fn end_turn_key_is_the_key_of_end_turn() {
        for dfen in [
            "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
            "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R b Kkq a3c3e6 0 1 PNB",
            "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R b KQkq c3 0 1 qq",
            "4k3/8/8/8/8/8/8/4K3 w - a3h6 0 1 K",
        ] {
            let p = Position::from_dfen(dfen).expect("valid DFEN");
            assert_eq!(p.end_turn_key(), p.end_turn().key(), "{dfen}");
        }
    }
}
