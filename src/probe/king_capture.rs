//! King- and queen-capture probability and king threat (docs/rules.md §6), by one traversal over
//! all dice at once.
//!
//! Instead of 56 searches (one per roll multiset), one depth-first walk from the pre-roll
//! position plays dice-free micro-moves and records the dice each line has spent (a
//! sub-multiset of at most three faces; castling spends King and Rook). A line that can land
//! on a target with the next die of type `t` covers every roll containing `spent + t`; the
//! covered rolls are a 56-bit mask. The walk
//! * checks "which types attack a target" with one attack query at the root, and after each
//!   move only for the attackers the move creates (the moved piece, lines it opens) — a few
//!   table lookups instead of playing the move — so the third die is never played;
//! * only generates moves of types whose die would still add an uncovered roll, and skips a
//!   move as soon as `spent + its dice` has no uncovered superset;
//! * stops when all 56 rolls are covered;
//! * before generating a node's moves, asks the empty-board reach table
//!   ([`dicechess_kernels::reach`]) which pieces could still land on a target with the
//!   micro-moves left, and generates only the types whose first move can start such a line
//!   (none at all: the subtree is skipped); see `capture_reach::ReachRule::first_moves`.
//!   Measured (`cargo bench --bench features -- kcp-13-row`, this 2-core Xeon): a whole
//!   `kcp-13` row of two bare kings 2.0 µs → 0.13 µs, and over random play 33 k → 39 k
//!   rows/s on one thread. With the per-walk reach sets and the cheaper new-attacker test,
//!   the four counts of Kiwipete take 28 % fewer instructions (valgrind), the start
//!   position's 18 % fewer.

use super::capture_reach::ReachRule;
use super::dice_math::{weight_of, ALL_ROLLS};
use crate::board::{Dice, Position};
use crate::rules::{
    generate, Budget, Budgeted, Meter, MicroMove, MoveKind, MoveList, PieceMoves, Unmetered, ROLLS,
};
use dicechess_kernels::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    Bitboard, Color, PieceType, Square,
};
use std::ops::ControlFlow;

/// What a capture search lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureTarget {
    /// The defender's king(s); a line ends when it captures one.
    King,
    /// The defender's queen(s); lines continue through king captures (so this may
    /// overestimate the true chance, as docs/rules.md §6 specifies).
    Queen,
}

const fn build_supersets() -> [u64; 343] {
    let mut out = [0u64; 343];
    let mut code = 0;
    while code < 343 {
        let digits = [code / 49, (code / 7) % 7, code % 7];
        let mut need = [0u8; 7];
        let mut k = 0;
        while k < 3 {
            need[digits[k]] += 1;
            k += 1;
        }
        let mut i = 0;
        while i < 56 {
            let faces = ROLLS[i].faces;
            let mut have = [0u8; 7];
            let mut j = 0;
            while j < 3 {
                have[faces[j] as usize] += 1;
                j += 1;
            }
            let mut ok = true;
            let mut f = 1;
            while f <= 6 {
                if need[f] > have[f] {
                    ok = false;
                }
                f += 1;
            }
            if ok {
                out[code] |= 1 << i;
            }
            i += 1;
        }
        code += 1;
    }
    out
}

/// `SUPERSETS[d.zobrist_index()]`: the rolls (56-bit mask over [`ROLLS`]) that contain the
/// sub-multiset `d`. 343 entries, 2.7 KiB, built at compile time.
static SUPERSETS: [u64; 343] = build_supersets();

#[inline]
fn rolls_containing(d: Dice) -> u64 {
    SUPERSETS[d.zobrist_index()]
}

/// `rolls_containing(spent + face)`, or nothing when `spent` already holds three dice.
#[inline]
fn rolls_adding(spent: Dice, face: u8) -> u64 {
    match spent.plus(face) {
        Some(d) => rolls_containing(d),
        None => 0,
    }
}

/// The types (6-bit mask) of `attacker`'s pieces attacking any of `targets`.
#[inline]
fn types_attacking(pos: &Position, targets: Bitboard, attacker: Color) -> u8 {
    let mut att = Bitboard::EMPTY;
    for t in targets {
        att |= pos.attackers(t, attacker);
    }
    let mut mask = 0u8;
    if att.any() {
        for p in PieceType::ALL {
            if (att & pos.pieces(p)).any() {
                mask |= p.mask_bit();
            }
        }
    }
    mask
}

/// The types of the mover's pieces that attack one of `targets` after `m` but not through
/// pieces that already attacked before it: the moved piece from its new square (as its new
/// type), and sliders whose line through a vacated square (origin, e.p. victim, castling
/// rook) opens. Attackers that were there before `m` were counted with fewer dice, so they
/// add nothing. `seen` = the squares the targets see (queen-wise) in `pos`; a move vacating
/// none of them opens no line. Costs a few table lookups instead of playing the move.
#[inline]
fn new_attacker_types(pos: &Position, m: MicroMove, targets: Bitboard, seen: Bitboard) -> u8 {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let mut vacated = Bitboard::from_square(m.from);
    let mut occ2 = (occ & !vacated) | Bitboard::from_square(m.to);
    let landed = match m.kind {
        MoveKind::Promotion(t) => t,
        _ => m.piece,
    };
    // The castled rook, when there is one.
    let mut rook = None;
    match m.kind {
        MoveKind::EnPassant => {
            let victim = match us {
                Color::White => m.to.to_u8().wrapping_sub(8),
                Color::Black => m.to.to_u8() + 8,
            };
            let v = Bitboard::from_square(Square::from_index_masked(victim as u32));
            vacated |= v;
            occ2 &= !v;
        }
        MoveKind::Castle => {
            let base = m.from.to_u8() & 56;
            let (rf, rt) = if m.to.file() == 6 {
                (base + 7, base + 5)
            } else {
                (base, base + 3)
            };
            let (rf, rt) = (
                Square::from_index_masked(rf as u32),
                Square::from_index_masked(rt as u32),
            );
            vacated |= Bitboard::from_square(rf);
            occ2 = (occ2 & !Bitboard::from_square(rf)) | Bitboard::from_square(rt);
            rook = Some(rt);
        }
        _ => {}
    }
    let attacks = |piece: PieceType, sq: Square| match piece {
        PieceType::Pawn => pawn_attacks(us, sq),
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occ2),
        PieceType::Rook => rook_attacks(sq, occ2),
        PieceType::Queen => queen_attacks(sq, occ2),
        PieceType::King => king_attacks(sq),
    };
    let mut new = 0u8;
    // The moved piece (and castled rook) from its new square, against all targets at once.
    if (attacks(landed, m.to) & targets).any() {
        new |= landed.mask_bit();
    }
    if let Some(rt) = rook {
        if (attacks(PieceType::Rook, rt) & targets).any() {
            new |= PieceType::Rook.mask_bit();
        }
    }
    // A vacated square that a target sees may open a line to one of our sliders.
    let own = pos.color(us) & !vacated;
    let diag = own & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen));
    let orth = own & (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen));
    if (seen & vacated).any() {
        for t in targets {
            if (queen_attacks(t, occ) & vacated).any() {
                let hits = (bishop_attacks(t, occ2) & diag) | (rook_attacks(t, occ2) & orth);
                for piece in [PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
                    if (hits & pos.pieces(piece)).any() {
                        new |= piece.mask_bit();
                    }
                }
            }
        }
    }
    new
}

struct Cover<'a, M: Meter> {
    targets: Bitboard,
    covered: u64,
    rule: ReachRule,
    meter: &'a mut M,
}

impl<M: Meter> Cover<'_, M> {
    /// Cover `spent + t` for every type `t` in `types`.
    #[inline]
    fn cover(&mut self, spent: Dice, types: u8) {
        for p in PieceType::ALL {
            if types & p.mask_bit() != 0 {
                self.covered |= rolls_adding(spent, p.face());
            }
        }
    }

    /// Expand the moves of a node whose line has spent `spent` (at most one die) and may still
    /// make a move and then capture (`actions_left ≥ 2`). The node's own attackers are already
    /// covered. `Break(true)`: all rolls covered; `Break(false)`: the meter ran out.
    fn expand(&mut self, pos: &Position, spent: Dice, actions_left: u8) -> ControlFlow<bool> {
        // Every move spends a die: no more moves than dice left.
        let actions = actions_left.min(3 - spent.len() as u8);
        let first = self.rule.first_moves(pos, actions);
        // Types whose die could still cover a new roll and whose piece can still get there,
        // and castling (King + Rook dice).
        let mut useful = 0u8;
        for p in PieceType::ALL {
            if first.types & p.mask_bit() != 0 && rolls_adding(spent, p.face()) & !self.covered != 0
            {
                useful |= p.mask_bit();
            }
        }
        let king_rook = Dice::EMPTY
            .plus(PieceType::King.face())
            .and_then(|d| d.plus(PieceType::Rook.face()))
            .unwrap_or(Dice::EMPTY);
        let castle =
            first.castle && spent.is_empty() && rolls_containing(king_rook) & !self.covered != 0;
        let mask = useful
            | if castle {
                PieceType::King.mask_bit()
            } else {
                0
            };
        if mask == 0 {
            return ControlFlow::Continue(());
        }
        if !self.meter.charge(1) {
            return ControlFlow::Break(false);
        }
        let list = generate(pos, mask, castle);
        let leaf = !spent.is_empty() || actions_left <= 2;
        if leaf {
            return self.expand_leaf(pos, &list, spent, useful);
        }
        // The squares the targets see: a move vacating none of them discovers nothing.
        let occ = pos.occupied();
        let mut seen = Bitboard::EMPTY;
        for t in self.targets {
            seen |= queen_attacks(t, occ);
        }
        list.try_for_each(pos, |m| {
            let Some(next) = self.examine(pos, m, spent, useful, seen)? else {
                return ControlFlow::Continue(());
            };
            if next.len() <= 1 && actions_left > 2 && rolls_containing(next) & !self.covered != 0 {
                self.expand(&pos.play_unchecked(m), next, actions_left - 1)?;
            }
            ControlFlow::Continue(())
        })
    }

    /// Charge and judge one move: cover the rolls its new attackers reach (`seen`: the
    /// squares the targets see in `pos`). Returns the dice spent after it when the move can
    /// still matter (for a deeper look), `None` when it cannot; `Break(true)` when every roll
    /// is covered, `Break(false)` when the meter ran out.
    fn examine(
        &mut self,
        pos: &Position,
        m: MicroMove,
        spent: Dice,
        useful: u8,
        seen: Bitboard,
    ) -> ControlFlow<bool, Option<Dice>> {
        if !self.meter.charge(1) {
            return ControlFlow::Break(false);
        }
        if self.targets.contains(m.to) {
            // A capture by a piece that already attacks: covered with fewer dice.
            return ControlFlow::Continue(None);
        }
        let next = if m.kind == MoveKind::Castle {
            spent
                .plus(PieceType::King.face())
                .and_then(|d| d.plus(PieceType::Rook.face()))
        } else if useful & m.piece.mask_bit() != 0 {
            spent.plus(m.piece.face())
        } else {
            None
        };
        let Some(next) = next.filter(|&n| rolls_containing(n) & !self.covered != 0) else {
            return ControlFlow::Continue(None);
        };
        self.cover(next, new_attacker_types(pos, m, self.targets, seen));
        if self.covered == ALL_ROLLS {
            return ControlFlow::Break(true);
        }
        ControlFlow::Continue(Some(next))
    }

    /// The moves of a node whose children cannot move again: only the attackers each move
    /// creates matter. Most moves are judged set-wise per piece: when the origin is not on a
    /// line from a target (nothing can be discovered) and the move is plain, the new attacker
    /// can only be the piece itself from a square in its "hits a target" set.
    fn expand_leaf(
        &mut self,
        pos: &Position,
        list: &MoveList,
        spent: Dice,
        useful: u8,
    ) -> ControlFlow<bool> {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let e = Bitboard::EMPTY;
        let (mut diag, mut orth, mut knight, mut king, mut pawn) = (e, e, e, e, e);
        for t in self.targets {
            diag |= bishop_attacks(t, occ);
            orth |= rook_attacks(t, occ);
            knight |= knight_attacks(t);
            king |= king_attacks(t);
            pawn |= pawn_attacks(us.opponent(), t);
        }
        let visible = diag | orth;
        let special = Bitboard::rank(us.promotion_rank()) | pos.ep_targets();
        for e in list.entries() {
            let p = e.piece;
            let plain = !visible.contains(e.from)
                && e.castles == 0
                && (p != PieceType::Pawn || (e.to & special).is_empty());
            if !plain {
                self.expand_moves(pos, e, spent, useful, visible)?;
                continue;
            }
            if useful & p.mask_bit() == 0 {
                continue;
            }
            if !self.meter.charge(e.to.count() as u64) {
                return ControlFlow::Break(false);
            }
            let hits = match p {
                PieceType::Pawn => pawn,
                PieceType::Knight => knight,
                PieceType::Bishop => diag,
                PieceType::Rook => orth,
                PieceType::Queen => diag | orth,
                PieceType::King => king,
            };
            if (e.to & hits & !self.targets).any() {
                if let Some(next) = spent.plus(p.face()) {
                    self.cover(next, p.mask_bit());
                    if self.covered == ALL_ROLLS {
                        return ControlFlow::Break(true);
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// One piece's moves judged one by one (discoveries, promotions, e.p., castling);
    /// `seen`: the squares the targets see in `pos`.
    fn expand_moves(
        &mut self,
        pos: &Position,
        e: &PieceMoves,
        spent: Dice,
        useful: u8,
        seen: Bitboard,
    ) -> ControlFlow<bool> {
        let mut single = MoveList::default();
        single.push_entry(*e);
        single.try_for_each(pos, |m| {
            self.examine(pos, m, spent, useful, seen)?;
            ControlFlow::Continue(())
        })
    }
}

/// The 56-bit mask of rolls (over [`ROLLS`]) with which the side to move of `pos` can land on
/// one of `targets` within `max_actions` micro-moves and three dice; `None` if the meter ran
/// out.
fn capture_mask<M: Meter>(
    pos: &Position,
    targets: Bitboard,
    max_actions: u8,
    meter: &mut M,
) -> Option<u64> {
    if targets.is_empty() {
        return Some(0);
    }
    // The root's own attackers cover every roll showing their face.
    let attacking = types_attacking(pos, targets, pos.side_to_move());
    let mut covered = 0;
    for p in PieceType::ALL {
        if attacking & p.mask_bit() != 0 {
            covered |= rolls_adding(Dice::EMPTY, p.face());
        }
    }
    if covered == ALL_ROLLS || max_actions < 2 {
        return Some(covered);
    }
    let mut cover = Cover {
        targets,
        covered,
        rule: ReachRule::new(pos, targets),
        meter,
    };
    match cover.expand(pos, Dice::EMPTY, max_actions) {
        ControlFlow::Break(false) => None,
        _ => Some(cover.covered),
    }
}

/// `pos` with `attacker` to move and everything else as it is (rights, e.p. targets).
fn attacker_to_move(pos: &Position, attacker: Color) -> Position {
    let mut p = pos.with_dice(Dice::EMPTY);
    p.set_side(attacker);
    p
}

fn targets_of(pos: &Position, defender: Color, target: CaptureTarget) -> Bitboard {
    let piece = match target {
        CaptureTarget::King => PieceType::King,
        CaptureTarget::Queen => PieceType::Queen,
    };
    pos.piece_bb(defender, piece)
}

/// The rolls (56-bit mask over [`ROLLS`]) with which `defender`'s opponent, moving from
/// `pos` as it stands, can capture a `target` piece of `defender` (docs/rules.md §6).
pub fn capture_roll_mask(pos: &Position, defender: Color, target: CaptureTarget) -> u64 {
    let root = attacker_to_move(pos, defender.opponent());
    let targets = targets_of(pos, defender, target);
    let actions = match target {
        CaptureTarget::King => 3,
        // Lines through a king capture continue: the same walk, as targets are queens only.
        CaptureTarget::Queen => 3,
    };
    capture_mask(&root, targets, actions, &mut Unmetered).unwrap_or(0)
}

/// The exact number of the 216 ordered rolls with which `defender`'s opponent can capture a
/// king of `defender` in one turn from `pos` (docs/rules.md §6). 0 if `defender` has no king.
pub fn king_capture_rolls(pos: &Position, defender: Color) -> u32 {
    weight_of(capture_roll_mask(pos, defender, CaptureTarget::King))
}

/// The queen variant of [`king_capture_rolls`]: rolls with which some dice-payable sequence
/// of at most three dice lands on a queen of `defender` (king captures do not end a line).
pub fn queen_capture_rolls(pos: &Position, defender: Color) -> u32 {
    weight_of(capture_roll_mask(pos, defender, CaptureTarget::Queen))
}

/// [`king_capture_rolls`] / 216.
pub fn king_capture_probability(pos: &Position, defender: Color) -> f64 {
    king_capture_rolls(pos, defender) as f64 / 216.0
}

/// [`queen_capture_rolls`] / 216.
pub fn queen_capture_probability(pos: &Position, defender: Color) -> f64 {
    queen_capture_rolls(pos, defender) as f64 / 216.0
}

/// Weight (out of 216) of the rolls that let the side to move capture the king standing on
/// `target` within `actions` micro-moves (1..=3; castling is one micro-move spending two
/// dice), in one traversal. 0 if no enemy king stands on `target`. With `actions = 3` and the
/// defender's only king this equals [`king_capture_rolls`].
pub fn king_threat(pos: &Position, target: Square, actions: u8) -> u32 {
    let them = pos.side_to_move().opponent();
    if !pos.piece_bb(them, PieceType::King).contains(target) || actions == 0 {
        return 0;
    }
    let root = pos.with_dice(Dice::EMPTY);
    let mask = capture_mask(
        &root,
        Bitboard::from_square(target),
        actions.min(3),
        &mut Unmetered,
    );
    weight_of(mask.unwrap_or(0))
}

/// [`king_capture_rolls`] under a work budget (one unit per move-generation call and per
/// examined micro-move).
pub(crate) fn king_capture_rolls_metered(
    pos: &Position,
    defender: Color,
    budget: &mut Budget,
) -> Budgeted<u32> {
    let start = budget.used();
    let root = attacker_to_move(pos, defender.opponent());
    let targets = targets_of(pos, defender, CaptureTarget::King);
    match capture_mask(&root, targets, 3, budget) {
        Some(mask) => Budgeted::Complete(weight_of(mask), budget.used() - start),
        None => Budgeted::Incomplete(budget.used() - start),
    }
}
