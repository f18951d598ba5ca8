//! The shared walk: the micro-move tree of a position walked once, level by level, with every
//! piece type payable, each node labelled with the dice multiset its path spent (see the
//! module documentation of `all_rolls`).

use super::footprint::{commuting_targets, footprint, COMMUTES_WITH_NOTHING};
use super::node::Node;
use super::pawn_targets::PawnTargets;
use super::quiet_move::{pawn_ep_delta, victim_delta, QuietMove, PROMOTIONS};
use super::roll_sets::RollSets;
use super::tables::{SPENT_SETS, TABLES};
use crate::board::{zobrist, Dice, Position};
use crate::rules::budget::{Budget, Budgeted, Meter, Unmetered};
use crate::rules::key_set::KeyTable;
use crate::rules::make::{color_rights, corner_right};
use crate::rules::{generate_into, MicroMove, MoveKind, MoveList, PieceMoves};
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

/// For each of the 56 rolls of [`ROLLS`](crate::rules::ROLLS), whether the side to move of
/// `pos` captures the enemy king, passes, or which distinct positions its legal turns end in
/// — the answers [`crate::rules::TurnGenerator::end_states_into`] gives roll by roll, from
/// one shared walk (see the module documentation). The dice of `pos` are ignored. Positions
/// that differ only in their clocks count once; the one kept carries the clocks of one of its
/// paths.
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
        out.pass_all();
        Budgeted::Incomplete(budget.used() - start)
    }
}

/// The walk, then the per-roll answers ([`RollSets::settle`]); `false` when the meter ran out.
fn expand_metered<M: Meter>(pos: &Position, out: &mut RollSets, meter: &mut M) -> bool {
    out.clear();
    let root = pos.with_dice(Dice::EMPTY);
    let mut walk = Walk {
        buckets: &mut out.buckets,
        seen: &mut out.seen,
        end_keys: &mut out.end_keys,
        king_rolls: 0,
        faces: [UNKNOWN_FACES; SPENT_SETS],
        faces_for: 0,
        meter,
        exhausted: false,
    };
    // Level by level (by dice spent), so that every king capture the root and the one-die
    // nodes can make is known before the next level is generated: a roll that captures the
    // king needs no more nodes, and a node generates only the faces some still-open roll
    // could pay for (the two-dice nodes find their captures among their leaves, below).
    walk.mark_king_captures(&root, 0);
    let [level1, level2] = &mut out.levels;
    walk.expand(
        &root,
        0,
        &mut out.lists[0],
        level1,
        level2,
        (0, COMMUTES_WITH_NOTHING),
    );
    for n in level1.iter() {
        walk.mark_king_captures(&n.pos, n.spent as usize);
    }
    for n in level1.iter() {
        let last = (n.last_from, n.last_footprint);
        walk.expand(
            &n.pos,
            n.spent as usize,
            &mut out.lists[0],
            level2,
            &mut Vec::new(),
            last,
        );
    }
    // No attack test on the last level: a king capture from a two-dice node is one of its
    // leaves, which meets the king as a victim and is played in full (`Walk::leaf` marks
    // it). The test there only spared the leaves of rolls that capture the king, and cost
    // about 110 instructions on every two-dice node of every position (callgrind, endgame:
    // 4.7 % of the walk).
    for n in level2.iter() {
        walk.expand_leaves(n, &mut out.lists[0]);
    }
    if walk.exhausted {
        return false;
    }
    let king_rolls = walk.king_rolls;
    out.settle(king_rolls);
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
    /// [`Walk::open_faces`] per spent multiset ([`UNKNOWN_FACES`]: not worked out yet),
    /// for the king-capturing rolls in `faces_for`.
    faces: [u8; SPENT_SETS],
    faces_for: u64,
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
    fn open_faces(&mut self, spent: usize) -> u8 {
        // With no king-capturing roll among them, the rolls containing a multiset of at most
        // two dice hold every face beyond it (the third die can be anything): the loop below
        // cost about 50 instructions per node (callgrind, promotion position).
        if TABLES.rolls_containing[spent] & self.king_rolls == 0 && TABLES.size[spent] < 3 {
            return ALL_FACES;
        }
        // Otherwise the answer depends only on `spent` and `king_rolls`, which changes a few
        // times a walk: kept per multiset until it does. Worked out per node, the loop was
        // 2.2 % of the endgame position's instructions (callgrind, 4.0k per expansion).
        if self.faces_for != self.king_rolls {
            self.faces_for = self.king_rolls;
            self.faces = [UNKNOWN_FACES; SPENT_SETS];
        }
        if self.faces[spent] == UNKNOWN_FACES {
            self.faces[spent] = self.open_faces_of_rolls(spent);
        }
        self.faces[spent]
    }

    /// [`Walk::open_faces`] from the open rolls, one by one.
    #[cold]
    fn open_faces_of_rolls(&self, spent: usize) -> u8 {
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
    /// computed by the caller (cheaply, before the position exists, on the leaf level); the
    /// position is built only when the key is new, as a copy of `base` that `finish` turns
    /// into the end state in its bucket slot (see [`Position::play_in_place_unchecked`]).
    ///
    /// `inline(always)`: left to itself the compiler called it out of line from
    /// `entry_leaves`, and the start position's walk ran 1,169k instead of 1,061k
    /// instructions (callgrind, per expansion).
    #[inline(always)]
    fn keep_end(
        &mut self,
        spent: usize,
        end_key: u64,
        base: &Position,
        finish: impl FnOnce(&mut Position),
    ) {
        if self.end_keys[spent].insert(end_key) {
            let bucket = &mut self.buckets[spent];
            bucket.push(*base);
            let end = bucket.last_mut().expect("a slot was just pushed");
            finish(end);
            debug_assert_eq!(end.key(), end_key);
        }
    }

    /// The last level: every child of `pos` (two dice spent, in `spent`) is a leaf whose
    /// only use is its end state. Most leaves repeat (three orders reach each), so the key is
    /// computed set-wise, straight from the move, and the position is built only for a new
    /// key. The key change of a move is that of its piece leaving and landing, the victim,
    /// and the castling rights the mover and the victim take along (docs/rules.md §4); moves
    /// that touch the e.p. set in other ways (promotions, e.p. captures, capturing a pawn) and
    /// king captures are played in full.
    ///
    /// **Commuting moves.** Most end states are reached in two or three orders (Kiwipete:
    /// 55,352 leaves for 22,214 end states), each a key computed and a probe of the key
    /// table. A leaf `z` of a node first reached by `x` then `y` is skipped when `z` commutes
    /// with `y` — neither is castling or an e.p. capture, and the two touch disjoint squares
    /// ([`footprint`]) — and `z` starts on a lower square than `y`. The node
    /// `x`-then-`z` exists (with disjoint squares `z` is legal before `y`, and `y` after `z`)
    /// and reaches the same end state by its leaf `y`, whose start square is higher; if that
    /// leaf is skipped in turn, the same step applies again with a still higher start square,
    /// so some leaf is kept. Only leaves keyed set-wise are skipped: king captures are marked
    /// from every node before this level, and e.p. captures are played in full.
    ///
    /// Why disjoint squares are enough for pawns too (docs/rules.md §4): a double step adds
    /// its passed square (in its footprint) to the e.p. set; any other pawn move removes the
    /// square behind its origin, which another pawn could add only by a double step *onto*
    /// that origin; a pawn victim takes its own target along. Removals commute, and no
    /// removal meets an addition unless the footprints meet; only e.p. captures read the set.
    /// Measured on Kiwipete: 25,142 of 54,049 leaf moves and 721 of 2,287 second-level
    /// children skipped.
    fn expand_leaves(&mut self, node: &Node, list: &mut MoveList) {
        let (pos, spent) = (&node.pos, node.spent as usize);
        let t = &TABLES;
        let mask = self.open_faces(spent);
        if mask == 0 {
            return;
        }
        // Pawns are walked set-wise below, not as list entries: at the start position they
        // were two thirds of the entries, each an entry's set-up for one or two leaves.
        let pawns = PieceType::Pawn.mask_bit();
        generate_into(pos, mask & !pawns, false, list);
        let us = pos.side_to_move();
        let own_pawns = if mask & pawns != 0 {
            pos.piece_bb(us, PieceType::Pawn)
        } else {
            Bitboard(0)
        };
        let pawn_moves = PawnTargets::new(pos, own_pawns);
        let their_kings = pos.piece_bb(us.opponent(), PieceType::King).0;
        if !self.pay(|| list.count(pos) as u64 + pawn_moves.count(us, their_kings)) {
            return;
        }
        let leaves = Leaves {
            pos,
            base: pos.end_turn_key(),
            their_kings,
            occupied: pos.occupied().0,
            last_from: node.last_from,
            last: node.last_footprint,
        };
        let rights = pos.castling().0;
        let next_spent = t.add[spent][PieceType::Pawn.face() as usize] as usize;
        for from in own_pawns {
            let to = pawn_moves.of(us, from);
            if to != 0 {
                self.entry_leaves(&leaves, PieceType::Pawn, from, to, rights, next_spent);
            }
        }
        for e in list.entries() {
            let next_spent = t.add[spent][e.piece.face() as usize] as usize;
            // What moving this piece does to the castling rights (docs/rules.md §4): the same
            // for every destination, so it is one key change for the whole entry.
            let moved_rights = match e.piece {
                PieceType::King => rights & !color_rights(us),
                // Only a rook leaving one of its own corners (a rook may stand on the
                // other side's corner in an odd position; that right stays).
                PieceType::Rook if (e.from.index() < 8) == (us == Color::White) => {
                    rights & !corner_right(e.from)
                }
                _ => rights,
            };
            self.entry_leaves(&leaves, e.piece, e.from, e.to.0, moved_rights, next_spent);
        }
    }

    /// The leaves of one piece: the moves of the `piece` on `from` to the squares of
    /// `targets`, which leave the castling rights at `moved_rights`, ending in the bucket
    /// of `spent` (see [`Walk::expand_leaves`]). Inlined into both callers, so the pawn
    /// tests fold away for the other pieces.
    #[inline(always)]
    fn entry_leaves(
        &mut self,
        leaves: &Leaves,
        piece: PieceType,
        from: Square,
        targets: u64,
        moved_rights: u8,
        spent: usize,
    ) {
        let Leaves {
            pos,
            base,
            their_kings,
            occupied,
            last_from,
            last,
        } = *leaves;
        let us = pos.side_to_move();
        // Whether some leaf of this piece may commute with the node's last move.
        let f = from.to_u8();
        let may_skip = f < last_from && last & 1u64 << f == 0;
        // The leaves that commute with the node's last move, dropped as a set before any is
        // looked at ([`commuting_targets`]); the per-leaf test below stays for the pawn
        // moves it leaves to the full move or to the leaf-by-leaf path. A piece left with
        // no leaf costs nothing more.
        let kept = if may_skip {
            targets & !commuting_targets(piece, us, from, targets, occupied, their_kings, last)
        } else {
            targets
        };
        if kept == 0 {
            return;
        }
        let rights = pos.castling().0;
        let rights_delta = zobrist::castling(rights) ^ zobrist::castling(moved_rights);
        let base = base ^ rights_delta ^ zobrist::piece(us, piece, from);
        let pawn_may_skip = may_skip && piece == PieceType::Pawn;
        let last_rank = if us == Color::White { 7 } else { 0 };
        for to in Bitboard(kept) {
            let bit = 1u64 << to.index();
            let skip = pawn_may_skip && footprint(f, to.to_u8()) & last == 0;
            // (An odd DFEN may put an e.p. target on the last rank: a diagonal step onto
            // an empty square stays with the full move below.)
            let plain_promotion = piece == PieceType::Pawn
                && to.rank() == last_rank
                && (bit & occupied != 0 || to.file() == from.file());
            if plain_promotion {
                if skip {
                    continue;
                }
                let victim = victim_delta(pos, to, their_kings, moved_rights);
                self.promotion_leaves(pos, from, to, base, victim, spent);
                continue;
            }
            let mut key = base ^ zobrist::piece(us, piece, to);
            let mut ep_toggle = 0u64;
            if piece == PieceType::Pawn {
                match pawn_ep_delta(pos, from, to) {
                    Some(toggle) => {
                        ep_toggle = toggle;
                        if toggle != 0 {
                            key ^= zobrist::ep_set(Bitboard(toggle));
                        }
                    }
                    None => {
                        // Promotions, e.p. captures, odd targets: generate and play.
                        self.leaves_in_full(pos, piece, from, bit, spent);
                        continue;
                    }
                }
            }
            let Some((victim_key, rights_after, victim, ep_clear)) =
                victim_delta(pos, to, their_kings, moved_rights)
            else {
                // A king victim.
                self.leaves_in_full(pos, piece, from, bit, spent);
                continue;
            };
            if skip {
                continue;
            }
            key ^= victim_key;
            let quiet = QuietMove {
                piece,
                landed: piece,
                from,
                to,
                victim,
                rights: rights_after,
                // Distinct squares: a pawn mover toggles a square on its own side of `to`,
                // its victim's target lies beyond it.
                ep_toggle: ep_toggle ^ ep_clear,
                key,
            };
            self.keep_end(spent, key, pos, |p| quiet.play_end_in_place(p));
        }
    }

    /// The four promotions of the pawn on `from` moving to `to` on the last rank, as leaves
    /// keyed set-wise like the quiet moves (`base`: the key after the end of turn with the
    /// pawn lifted off `from`). A promotion touches no e.p. target that survives the end of
    /// turn: the one behind its origin lies on the rank the end of turn clears, and no target
    /// lies on the last rank (a pawn victim there, in an odd position, takes its own target
    /// along like any pawn victim). A king victim goes to the full move. In a walk with a pawn on its seventh rank, promotions were most of the
    /// leaves played in full (60 of them per expansion, 12 % of the instructions of
    /// `k7/4P3/8/8/8/8/8/4K3 w`). `victim` is [`victim_delta`]'s answer for `to`.
    fn promotion_leaves(
        &mut self,
        pos: &Position,
        from: Square,
        to: Square,
        base: u64,
        victim: Option<(u64, u8, Option<PieceType>, u64)>,
        spent: usize,
    ) {
        let us = pos.side_to_move();
        let Some((victim_key, rights_after, victim, ep_clear)) = victim else {
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
                ep_toggle: ep_clear,
                key: base ^ victim_key ^ zobrist::piece(us, t, to),
            };
            self.keep_end(spent, quiet.key, pos, |p| quiet.play_end_in_place(p));
        }
    }

    /// The leaves of the `piece` on `from` onto the squares of `to`, played in full
    /// ([`Walk::leaf`]): the rare leaves the set-wise key leaves out (king victims, e.p.
    /// captures, odd targets).
    ///
    /// Out of line on purpose: inlined into `expand_leaves`, its move encodings were hoisted
    /// out of the leaf loop and worked out for every entry, about 100 instructions each
    /// whether a leaf needed them or not (callgrind, start position: 15 % of the walk).
    #[cold]
    #[inline(never)]
    fn leaves_in_full(
        &mut self,
        pos: &Position,
        piece: PieceType,
        from: Square,
        to: u64,
        spent: usize,
    ) {
        let mut single = MoveList::default();
        single.push_entry(PieceMoves {
            piece,
            from,
            to: Bitboard(to),
            castles: 0,
        });
        single.for_each(pos, |m| self.leaf(pos, m, spent));
    }

    /// One leaf move played in full, in its bucket's slot (dropped again when its end state
    /// is not new).
    #[inline]
    fn leaf(&mut self, pos: &Position, m: MicroMove, spent: usize) {
        if pos.captures_king(m) {
            self.king_rolls |= TABLES.rolls_containing[spent];
            return;
        }
        let bucket = &mut self.buckets[spent];
        bucket.push(*pos);
        let next = bucket.last_mut().expect("a slot was just pushed");
        next.play_in_place_unchecked(m);
        if self.end_keys[spent].insert(next.end_turn_key()) {
            next.end_turn_in_place();
        } else {
            bucket.pop();
        }
    }

    /// Generate the children of `pos` (reached by spending `spent`) that some open roll can
    /// pay for; new inner nodes go to `next1` (one more die spent) or `next2` (castling, two).
    fn expand(
        &mut self,
        pos: &Position,
        spent: usize,
        list: &mut MoveList,
        next1: &mut Vec<Node>,
        next2: &mut Vec<Node>,
        last: (u8, u64),
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
            // A child that commutes with the move into this node and starts on a lower
            // square is the child of that move's node instead (a node one die deep has one
            // path, so its child there is never skipped): the rule of `expand_leaves`.
            let (last_from, last_footprint) = last;
            if m.from.to_u8() < last_from
                && matches!(
                    m.kind,
                    MoveKind::Normal | MoveKind::DoublePush | MoveKind::Promotion(_)
                )
                && footprint(m.from.to_u8(), m.to.to_u8()) & last_footprint == 0
            {
                return;
            }
            if t.size[next_spent] == 3 {
                // Castling from a node with one die spent: the turn is over.
                self.leaf(pos, m, next_spent);
                return;
            }
            // An inner node: keep it (and its end state) the first time this position is
            // reached with these dice spent. Played in its slot of the next level.
            let level = if m.kind == MoveKind::Castle {
                &mut *next2
            } else {
                &mut *next1
            };
            let last_footprint = match m.kind {
                MoveKind::Castle | MoveKind::EnPassant => COMMUTES_WITH_NOTHING,
                _ => footprint(m.from.to_u8(), m.to.to_u8()),
            };
            level.push(Node {
                pos: *pos,
                spent: next_spent as u8,
                last_from: m.from.to_u8(),
                last_footprint,
            });
            let next = &mut level.last_mut().expect("a slot was just pushed").pos;
            next.play_in_place_unchecked(m);
            if !self.seen.insert(next.key() ^ t.salt[next_spent]) {
                level.pop();
                return;
            }
            // End states are distinct by their own key (salted apart from the node keys).
            let next = &level.last().expect("the slot is kept").pos;
            self.keep_end(next_spent, next.end_turn_key(), next, |p| {
                p.end_turn_in_place()
            });
        });
    }
}

/// What every leaf of one two-dice node shares ([`Walk::entry_leaves`]).
#[derive(Clone, Copy)]
struct Leaves<'p> {
    /// The node.
    pos: &'p Position,
    /// The key of the node's position after the end of turn.
    base: u64,
    /// The enemy king(s).
    their_kings: u64,
    occupied: u64,
    /// The start square and footprint of the move into the node (see `expand_leaves`).
    last_from: u8,
    last: u64,
}

/// The type mask of all six faces.
const ALL_FACES: u8 = (1 << 6) - 1;

/// A face mask not worked out yet (no mask of six faces has the top bit).
const UNKNOWN_FACES: u8 = 0x80;

/// The king and rook bits of a type mask.
const CASTLE_MASK: u8 = PieceType::King.mask_bit() | PieceType::Rook.mask_bit();

#[cfg(test)]
mod tests {
    use super::{Walk, SPENT_SETS};
    use crate::rules::budget::Unmetered;
    use crate::rules::RollSets;

    /// The cached face masks equal the ones worked out from the rolls for every multiset,
    /// as the king-capturing rolls grow during a walk (a stale mask would make the walk
    /// generate, and a budget pay for, faces no open roll holds).
    #[test]
    fn open_faces_follow_the_king_capturing_rolls() {
        let mut sets = RollSets::new();
        let mut meter = Unmetered;
        let mut walk = Walk {
            buckets: &mut sets.buckets,
            seen: &mut sets.seen,
            end_keys: &mut sets.end_keys,
            king_rolls: 0,
            faces: [super::UNKNOWN_FACES; SPENT_SETS],
            faces_for: 0,
            meter: &mut meter,
            exhausted: false,
        };
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            for spent in 0..SPENT_SETS {
                assert_eq!(
                    walk.open_faces(spent),
                    walk.open_faces_of_rolls(spent),
                    "multiset {spent}, king rolls {:#x}",
                    walk.king_rolls
                );
            }
            // Grow the set by a few random rolls, as marks and leaves do.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            walk.king_rolls |= 1 << (x % 56) | 1 << ((x >> 8) % 56);
            if walk.king_rolls.count_ones() > 40 {
                walk.king_rolls = 0;
                walk.faces_for = u64::MAX;
            }
        }
    }
}
