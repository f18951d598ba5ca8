//! `LeafBatch`: positions plus the index columns of a search level.

use super::{PositionBatch, RowId};
use crate::board::Position;

/// A batch of leaf rows: positions, the parent each came from, the roll weight (out of 216)
/// that leads to it, and its value once evaluated. The search tree is a few of these flat
/// batches linked by `parent`, never a graph of boxed nodes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeafBatch {
    /// The positions.
    pub positions: PositionBatch,
    /// Index of the parent row in the level above.
    pub parent: Vec<u32>,
    /// Roll weight out of 216.
    pub weight: Vec<u16>,
    /// Value from the row's side-to-move perspective (filled by an evaluator).
    pub value: Vec<f32>,
}

impl LeafBatch {
    /// An empty batch.
    pub fn new() -> LeafBatch {
        LeafBatch::default()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Append a leaf; its value starts at 0.
    pub fn push(&mut self, pos: &Position, parent: u32, weight: u16) -> RowId {
        self.parent.push(parent);
        self.weight.push(weight);
        self.value.push(0.0);
        self.positions.push(pos)
    }

    /// Remove every row, keeping the capacity.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.parent.clear();
        self.weight.clear();
        self.value.clear();
    }
}
