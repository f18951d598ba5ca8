//! King- and queen-capture probability and king threat (rules.md §6), by one traversal over
//! all dice at once.
//!
//! Instead of 56 searches (one per roll multiset), one depth-first walk from the pre-roll
//! position plays dice-free micro-moves and records the dice each line has spent (a
//! sub-multiset of at most three faces; castling spends King and Rook). A line that can land
//! on a target with the next die of type `t` covers every roll containing `spent + t`; the
//! covered rolls are a 56-bit mask. The walk
//! * checks "which types attack a target now" with one attack query per node instead of
//!   playing the capturing moves, and stops there on the third die;
//! * only generates moves of types whose die would still add an uncovered roll, and skips a
//!   move as soon as `spent + its dice` has no uncovered superset;
//! * stops when all 56 rolls are covered.

use super::dice_math::{weight_of, ALL_ROLLS};
use crate::board::{Dice, Position};
use crate::rules::{generate, Budget, Budgeted, Meter, MoveKind, Unmetered, ROLLS};
use dicechess_kernels::{Bitboard, Color, PieceType, Square};
use std::ops::ControlFlow;

/// What a capture search lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureTarget {
    /// The defender's king(s); a line ends when it captures one.
    King,
    /// The defender's queen(s); lines continue through king captures (so this may
    /// overestimate the true chance, as rules.md §6 specifies).
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

struct Cover<'a, M: Meter> {
    targets: Bitboard,
    covered: u64,
    meter: &'a mut M,
}

impl<M: Meter> Cover<'_, M> {
    /// `Break(true)`: all rolls covered; `Break(false)`: the meter ran out.
    fn visit(&mut self, pos: &Position, spent: Dice, actions_left: u8) -> ControlFlow<bool> {
        let us = pos.side_to_move();
        let direct = types_attacking(pos, self.targets, us);
        for p in PieceType::ALL {
            if direct & p.mask_bit() != 0 {
                self.covered |= rolls_adding(spent, p.face());
            }
        }
        if self.covered == ALL_ROLLS {
            return ControlFlow::Break(true);
        }
        if spent.len() >= 2 || actions_left <= 1 {
            return ControlFlow::Continue(());
        }
        // Types whose die could still cover a new roll, and castling (King + Rook dice).
        let mut useful = 0u8;
        for p in PieceType::ALL {
            if rolls_adding(spent, p.face()) & !self.covered != 0 {
                useful |= p.mask_bit();
            }
        }
        let castle = spent.is_empty()
            && rolls_containing(
                spent
                    .plus(PieceType::King.face())
                    .and_then(|d| d.plus(PieceType::Rook.face()))
                    .unwrap_or(Dice::EMPTY),
            ) & !self.covered
                != 0;
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
        list.try_for_each(pos, |m| {
            if !self.meter.charge(1) {
                return ControlFlow::Break(false);
            }
            if self.targets.contains(m.to) {
                // Already counted by the attack check above.
                return ControlFlow::Continue(());
            }
            let mut next_spent = spent.plus(m.piece.face());
            if m.kind == MoveKind::Castle {
                next_spent = next_spent.and_then(|d| d.plus(PieceType::Rook.face()));
            } else if useful & m.piece.mask_bit() == 0 {
                return ControlFlow::Continue(());
            }
            let Some(next_spent) = next_spent else {
                return ControlFlow::Continue(());
            };
            if rolls_containing(next_spent) & !self.covered == 0 {
                return ControlFlow::Continue(());
            }
            self.visit(&pos.play_unchecked(m), next_spent, actions_left - 1)
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
    let mut cover = Cover {
        targets,
        covered: 0,
        meter,
    };
    match cover.visit(pos, Dice::EMPTY, max_actions) {
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
/// `pos` as it stands, can capture a `target` piece of `defender` (rules.md §6).
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
/// king of `defender` in one turn from `pos` (rules.md §6). 0 if `defender` has no king.
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
