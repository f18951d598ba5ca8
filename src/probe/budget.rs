//! Budgeted queries (docs/search.md §7): turn paths, the first king
//! capture and the king-capture roll count under one shared work budget.

use crate::board::Position;
pub use crate::rules::{Budget, Budgeted};
use crate::rules::{TurnGenerator, TurnPath};
use dicechess_kernels::Color;

/// The legal turn paths (docs/rules.md §5) under `budget`: one unit per move-generation call and
/// per examined micro-move.
pub fn budgeted_legal_paths(pos: &Position, budget: &mut Budget) -> Budgeted<Vec<TurnPath>> {
    let mut out = Vec::new();
    match TurnGenerator::new().legal_paths_budgeted(pos, budget, &mut out) {
        Budgeted::Complete((), used) => Budgeted::Complete(out, used),
        Budgeted::Incomplete(used) => Budgeted::Incomplete(used),
    }
}

/// The first king-capturing legal path in rule order, under `budget`.
pub fn budgeted_first_king_capture(
    pos: &Position,
    budget: &mut Budget,
) -> Budgeted<Option<TurnPath>> {
    TurnGenerator::new().first_king_capture_budgeted(pos, budget)
}

/// The king-capture roll count (out of 216) for `defender`, under `budget`: one unit per
/// move-generation call and per examined micro-move of the shared traversal.
pub fn budgeted_king_capture_rolls(
    pos: &Position,
    defender: Color,
    budget: &mut Budget,
) -> Budgeted<u32> {
    super::king_capture::king_capture_rolls_metered(pos, defender, budget)
}
