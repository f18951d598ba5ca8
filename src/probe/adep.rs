//! Active-dice partitions (ADEP, docs/rules.md §6): the 216 rolls grouped into classes that allow
//! exactly the same turns, so a chance node expands a handful of classes instead of 56 rolls.

use super::diversity::presence_mask;
use crate::board::{Dice, Position};
use crate::rules::ROLLS;
use dicechess_kernels::{Bitboard, Color, PieceType};
use std::sync::OnceLock;

/// When dice of types the mover lacks still matter: a pawn that can promote within the roll
/// and hand its remaining dice to the new piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromotionMode {
    /// No own pawn on its 6th or 7th rank.
    None,
    /// An own pawn on its 7th rank: with at least one Pawn die every N, B, R, Q die is kept.
    Seventh,
    /// An own pawn on its 6th rank (none on the 7th): with at least two Pawn dice every N, B,
    /// R, Q die is kept.
    Sixth,
}

impl PromotionMode {
    const ALL: [PromotionMode; 3] = [
        PromotionMode::None,
        PromotionMode::Seventh,
        PromotionMode::Sixth,
    ];

    fn index(self) -> usize {
        match self {
            PromotionMode::None => 0,
            PromotionMode::Seventh => 1,
            PromotionMode::Sixth => 2,
        }
    }
}

/// One class: the retained dice (the usable faces of its rolls, with multiplicity) and how
/// many of the 216 ordered rolls fall into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdepClass {
    /// The retained pool; empty = a forced pass (the class keeps its mass).
    pub dice: Dice,
    /// Ordered rolls out of 216 (positive).
    pub weight: u16,
    /// The rolls of the class as a 56-bit mask over [`ROLLS`].
    pub rolls: u64,
}

impl AdepClass {
    /// `pos` with this class's pool as its roll (only the dice and the key change).
    #[inline]
    pub fn apply(&self, pos: &Position) -> Position {
        pos.with_dice(self.dice)
    }
}

/// The partition of the 216 rolls for one presence mask and promotion mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The mover's piece types present (6-bit, bit = face − 1).
    pub presence: u8,
    /// The promotion mode.
    pub mode: PromotionMode,
    /// Classes ordered by weight descending, then retained-dice count descending, then
    /// faces lexicographically; weights sum to 216.
    pub classes: Vec<AdepClass>,
}

fn retained(faces: [u8; 3], presence: u8, mode: PromotionMode) -> Dice {
    let pawn_dice = faces
        .iter()
        .filter(|&&f| f == PieceType::Pawn.face())
        .count();
    let promotes = match mode {
        PromotionMode::None => false,
        PromotionMode::Seventh => pawn_dice >= 1,
        PromotionMode::Sixth => pawn_dice >= 2,
    };
    let keep = |f: u8| presence & (1 << (f - 1)) != 0 || (promotes && (2..=5).contains(&f));
    let kept: Vec<u8> = faces.iter().copied().filter(|&f| keep(f)).collect();
    Dice::from_faces(&kept).unwrap_or(Dice::EMPTY)
}

fn build(presence: u8, mode: PromotionMode) -> Partition {
    let mut classes: Vec<AdepClass> = Vec::new();
    for (i, roll) in ROLLS.iter().enumerate() {
        let dice = retained(roll.faces, presence, mode);
        match classes.iter_mut().find(|c| c.dice == dice) {
            Some(c) => {
                c.weight += roll.weight as u16;
                c.rolls |= 1 << i;
            }
            None => classes.push(AdepClass {
                dice,
                weight: roll.weight as u16,
                rolls: 1 << i,
            }),
        }
    }
    classes.sort_by(|a, b| {
        b.weight
            .cmp(&a.weight)
            .then(b.dice.len().cmp(&a.dice.len()))
            .then(a.dice.faces().cmp(b.dice.faces()))
    });
    Partition {
        presence,
        mode,
        classes,
    }
}

/// All 192 partitions (64 presence masks × 3 modes), built once on first use (about 10 µs;
/// 192 × ≤ 56 classes, under 20 KiB).
pub fn all_partitions() -> &'static [Partition] {
    static TABLE: OnceLock<Vec<Partition>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = Vec::with_capacity(192);
        for mode in PromotionMode::ALL {
            for presence in 0..64u8 {
                v.push(build(presence, mode));
            }
        }
        v
    })
}

/// The partition for a presence mask and mode.
pub fn partition(presence: u8, mode: PromotionMode) -> &'static Partition {
    &all_partitions()[mode.index() * 64 + (presence & 63) as usize]
}

/// The promotion mode of `color`'s pawns in `pos`.
pub fn promotion_mode(pos: &Position, color: Color) -> PromotionMode {
    let pawns = pos.piece_bb(color, PieceType::Pawn);
    let (seventh, sixth) = match color {
        Color::White => (6, 5),
        Color::Black => (1, 2),
    };
    if (pawns & Bitboard::rank(seventh)).any() {
        PromotionMode::Seventh
    } else if (pawns & Bitboard::rank(sixth)).any() {
        PromotionMode::Sixth
    } else {
        PromotionMode::None
    }
}

/// The ADEP classes for the side to move of `pos` (its current pool is ignored): a reusable
/// static slice.
pub fn partitions_for(pos: &Position) -> &'static [AdepClass] {
    let us = pos.side_to_move();
    &partition(presence_mask(pos, us), promotion_mode(pos, us)).classes
}
