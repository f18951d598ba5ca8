//! `LeafBatch`: the leaves of one chance node, every roll class at once, as one flat batch.

use super::PositionBatch;
use crate::board::Position;

/// One roll class of a chance node: its weight out of 216 and either the rows of its leaves
/// (`start..end` in the batch) or a king capture (no rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First row of the class's leaves.
    pub start: u32,
    /// One past the last row.
    pub end: u32,
    /// How many of the 216 ordered rolls the class stands for.
    pub weight: u16,
    /// The class captures the king: it has no leaves and its value is a win for the mover.
    pub king_capture: bool,
}

/// The leaves of one chance node in one flat batch: positions, a value per row once
/// evaluated, and the segments that say which rows answer which roll class and with what
/// weight.
///
/// The leaves of a class are contiguous, so a class is a row range (CSR-style offsets), not
/// a `parent` index per row: the reduction of a class (min or max over its leaves) reads one
/// slice, and the index costs 12 bytes per class instead of 6 bytes per leaf (Kiwipete's
/// 56 rolls have about 9,000 leaves in 40-odd classes). The whole node goes to the
/// evaluator in one call ([`LeafBatch::rows_and_values_mut`]).
///
/// The leaves are kept as rows (`Position`s, copied out of the expansion's buckets) and
/// turned into columns only for an evaluator that reads columns
/// ([`LeafBatch::columns_and_values_mut`]): the dice-aware evaluator scores rows, and the
/// scatter into columns and the gather back cost it a sixth of its time (perf, middlegame
/// leaves). The column kernels (material) pay the same scatter as before.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeafBatch {
    rows: Vec<Position>,
    columns: PositionBatch,
    values: Vec<f32>,
    segments: Vec<Segment>,
}

impl LeafBatch {
    /// An empty batch.
    pub fn new() -> LeafBatch {
        LeafBatch::default()
    }

    /// Number of leaf rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no leaf rows (king-capture segments have none).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Remove every row and segment, keeping the capacity.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.values.clear();
        self.segments.clear();
    }

    /// Append a class of `weight` rolls whose leaves are `leaves` (one row each).
    pub fn push_class<'a>(&mut self, weight: u16, leaves: impl IntoIterator<Item = &'a Position>) {
        let start = self.rows.len() as u32;
        self.rows.extend(leaves);
        self.segments.push(Segment {
            start,
            end: self.rows.len() as u32,
            weight,
            king_capture: false,
        });
    }

    /// Append a class of `weight` rolls that capture the king (no leaves).
    pub fn push_king_capture(&mut self, weight: u16) {
        let at = self.rows.len() as u32;
        self.segments.push(Segment {
            start: at,
            end: at,
            weight,
            king_capture: true,
        });
    }

    /// The leaf positions, as rows.
    pub fn rows(&self) -> &[Position] {
        &self.rows
    }

    /// The segments, in the order they were pushed.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The leaf rows and their value column, sized to the rows and zeroed: what a row-wise
    /// evaluator fills in one call (`BatchEvaluator::evaluate_leaves` in `eval`).
    pub fn rows_and_values_mut(&mut self) -> (&[Position], &mut [f32]) {
        self.values.clear();
        self.values.resize(self.rows.len(), 0.0);
        (&self.rows, &mut self.values)
    }

    /// The leaf rows as columns (filled from the rows into a reused batch) and the zeroed
    /// value column: what a column-wise evaluator fills in one call.
    pub fn columns_and_values_mut(&mut self) -> (&PositionBatch, &mut [f32]) {
        self.columns.clear();
        for p in &self.rows {
            self.columns.push(p);
        }
        self.values.clear();
        self.values.resize(self.rows.len(), 0.0);
        (&self.columns, &mut self.values)
    }

    /// The value column as the evaluator left it (one value per row, empty before a call):
    /// for a wrapper that maps an inner evaluator's scores in place.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// The values of one segment's rows (empty before they are filled and for a king
    /// capture).
    pub fn values(&self, segment: &Segment) -> &[f32] {
        self.values
            .get(segment.start as usize..segment.end as usize)
            .unwrap_or(&[])
    }
}
