//! Checking a table against the rules, position by position: the table's value of a position
//! must equal one step of the game from it, computed with the per-roll turn generator (a
//! different code path from the all-roll walk the solver read) and the tables' values of
//! where each turn ends.

use super::set::Tablebases;
use crate::board::Position;
use crate::rules::{EndStates, TurnGenerator, ROLLS, ROLL_DENOMINATOR};

/// One position's check: what the table says and what one step of play says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backup {
    /// The table's value of the position (side to move).
    pub table: f64,
    /// `Σ_rolls w/216 · u` with `u = 1` for a king capture, else `½ + γ(max(1 − V(t)) − ½)`
    /// over the roll's end states `t`, each valued by the tables (docs/tablebases.md).
    pub backup: f64,
    /// The probability that the roll lets the side to move capture the king at once.
    pub capture: f64,
}

impl Backup {
    /// `|table − backup|`.
    pub fn error(&self) -> f64 {
        (self.table - self.backup).abs()
    }
}

/// The check of `pos` (any dice are ignored), or `None` when a table it needs is not held.
pub fn backup(tables: &Tablebases, pos: &Position, gen: &mut TurnGenerator) -> Option<Backup> {
    let table = tables.probe(pos)?;
    let at = super::material::locate(pos)?;
    let gamma = tables.table(at.material)?.discount();
    let mut ends = Vec::new();
    let (mut sum, mut capture) = (0.0f64, 0.0f64);
    for roll in ROLLS.iter() {
        let w = f64::from(roll.weight) / f64::from(ROLL_DENOMINATOR);
        ends.clear();
        let rolled = pos.with_dice(roll.dice());
        let m = match gen.end_states_into(&rolled, &mut ends) {
            EndStates::KingCapture => {
                capture += w;
                sum += w;
                continue;
            }
            EndStates::Pass => 1.0 - tables.probe(&pos.end_turn())?,
            EndStates::Moves(_) => {
                let mut m = f64::NEG_INFINITY;
                for e in &ends {
                    m = m.max(1.0 - tables.probe(e)?);
                }
                m
            }
        };
        sum += w * (0.5 + gamma * (m - 0.5));
    }
    Some(Backup {
        table,
        backup: sum,
        capture,
    })
}
