//! Chance-node expansion: the rolls (or ADEP classes) of a node, heaviest first.

use crate::board::{Dice, Position};
use crate::probe::partitions_for;
use crate::rules::ROLLS;
use std::sync::OnceLock;

/// How a chance node is expanded. Both give the same values (ADEP merges rolls that allow
/// exactly the same turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChanceMode {
    /// The 56 roll multisets.
    Rolls,
    /// The ADEP classes of the mover (usually far fewer), each expanded on its own.
    Adep,
    /// All rolls from one shared expansion (`rules::expand_all_rolls`), grouped by answer
    /// (`RollSets::classes`: ADEP classes and more — every king-capturing roll is one class);
    /// at the last ply every leaf of the node is scored in one evaluator call.
    #[default]
    Shared,
}

/// One outcome of a chance node: the pool and its weight out of 216.
pub type ChanceOutcome = (Dice, u16);

/// The 56 multisets by weight descending, lexicographic within a weight (`byWeightDescending`).
pub fn rolls_by_weight() -> &'static [ChanceOutcome] {
    static ROLLS_DESC: OnceLock<Vec<ChanceOutcome>> = OnceLock::new();
    ROLLS_DESC.get_or_init(|| {
        let mut v: Vec<ChanceOutcome> = ROLLS.iter().map(|r| (r.dice(), r.weight as u16)).collect();
        v.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        v
    })
}

/// The outcomes of `pos`'s side to move rolling, heaviest first, into `out` (cleared); the
/// ADEP classes for `Shared` (which the search expands through `RollSets` instead).
pub fn outcomes(pos: &Position, mode: ChanceMode, out: &mut Vec<ChanceOutcome>) {
    out.clear();
    match mode {
        ChanceMode::Rolls => out.extend_from_slice(rolls_by_weight()),
        ChanceMode::Adep | ChanceMode::Shared => {
            out.extend(partitions_for(pos).iter().map(|c| (c.dice, c.weight)))
        }
    }
}
