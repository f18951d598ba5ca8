//! One solved table in memory: a value per entry, quantised to 16 bits.

use super::material::{locate, Material};
use crate::board::Position;

/// The largest quantised value: `p = q / QUANT_MAX`.
pub const QUANT_MAX: f64 = 65_535.0;

/// One ending's values: for each entry, the expected score of the side to move before its
/// roll (win 1, draw ½, loss 0) under best play by both sides, quantised to `q / 65535`
/// (a step of 1.5·10⁻⁵). Invalid entries hold 0 and are never read.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    material: Material,
    discount: f64,
    values: Vec<u16>,
}

impl Table {
    /// A table from its quantised values; `None` when `values` does not have one entry per
    /// index of `material`.
    pub fn from_quantised(material: Material, discount: f64, values: Vec<u16>) -> Option<Table> {
        (values.len() == material.entries()).then_some(Table {
            material,
            discount,
            values,
        })
    }

    /// A table from exact values (clamped to `[0, 1]`, then quantised).
    pub fn from_values(material: Material, discount: f64, values: &[f64]) -> Option<Table> {
        let q = values
            .iter()
            .map(|&v| (v.clamp(0.0, 1.0) * QUANT_MAX).round() as u16)
            .collect();
        Table::from_quantised(material, discount, q)
    }

    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The per-turn discount toward a draw the table was solved with (docs/tablebases.md).
    pub fn discount(&self) -> f64 {
        self.discount
    }

    /// The quantised values, entry by entry.
    pub fn quantised(&self) -> &[u16] {
        &self.values
    }

    /// The value of entry `index` for its side to move; `None` for an index that is out of
    /// range or stands for no position.
    pub fn value_at(&self, index: usize) -> Option<f64> {
        if !self.material.is_entry(index) {
            return None;
        }
        Some(f64::from(self.values[index]) / QUANT_MAX)
    }

    /// The value of entry `index`, which [`locate`] gave for this table (so it stands for a
    /// position): no check of the index beyond the bounds. The probe's path: a folded
    /// index would otherwise be recomputed over the eight symmetries just to be confirmed.
    pub(crate) fn value_at_located(&self, index: usize) -> Option<f64> {
        self.values.get(index).map(|&q| f64::from(q) / QUANT_MAX)
    }

    /// The value of `pos` for its side to move, `None` when the position is not this table's
    /// ending (see [`locate`]).
    pub fn probe(&self, pos: &Position) -> Option<f64> {
        let l = locate(pos)?;
        if l.material != self.material {
            return None;
        }
        self.value_at_located(l.index)
    }
}
