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
/// evaluator in one call ([`LeafBatch::evaluate`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeafBatch {
    positions: PositionBatch,
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
        self.positions.len()
    }

    /// Whether there are no leaf rows (king-capture segments have none).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Remove every row and segment, keeping the capacity.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.values.clear();
        self.segments.clear();
    }

    /// Append a class of `weight` rolls whose leaves are `leaves` (one row each).
    pub fn push_class<'a>(&mut self, weight: u16, leaves: impl IntoIterator<Item = &'a Position>) {
        let start = self.positions.len() as u32;
        for p in leaves {
            self.positions.push(p);
        }
        self.segments.push(Segment {
            start,
            end: self.positions.len() as u32,
            weight,
            king_capture: false,
        });
    }

    /// Append a class of `weight` rolls that capture the king (no leaves).
    pub fn push_king_capture(&mut self, weight: u16) {
        let at = self.positions.len() as u32;
        self.segments.push(Segment {
            start: at,
            end: at,
            weight,
            king_capture: true,
        });
    }

    /// The leaf positions as columns (what an evaluator reads).
    pub fn positions(&self) -> &PositionBatch {
        &self.positions
    }

    /// The segments, in the order they were pushed.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Score every row with `eval` in one call; values are from each row's side to move.
    /// Returns whether the evaluator was called (not for a batch without rows).
    pub fn evaluate(
        &mut self,
        eval: &dyn crate::eval::BatchEvaluator,
    ) -> Result<bool, crate::eval::EvalError> {
        self.values.clear();
        self.values.resize(self.positions.len(), 0.0);
        if self.positions.is_empty() {
            return Ok(false);
        }
        eval.evaluate(&self.positions, &mut self.values)?;
        Ok(true)
    }

    /// The values of one segment's rows (empty before [`LeafBatch::evaluate`] and for a king
    /// capture).
    pub fn values(&self, segment: &Segment) -> &[f32] {
        self.values
            .get(segment.start as usize..segment.end as usize)
            .unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::LeafBatch;
    use crate::board::Position;
    use crate::eval::{BatchEvaluator, Material};

    #[test]
    fn segments_hold_their_rows_and_their_values() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
        ];
        let ps: Vec<Position> = fens
            .iter()
            .map(|f| Position::from_dfen(f).expect("valid FEN"))
            .collect();
        let mut b = LeafBatch::new();
        b.push_class(6, &ps[..2]);
        b.push_king_capture(3);
        b.push_class(1, &ps[2..]);
        assert_eq!(b.len(), 4);
        let segs = b.segments().to_vec();
        assert_eq!(
            segs.iter()
                .map(|s| (s.start, s.end, s.weight, s.king_capture))
                .collect::<Vec<_>>(),
            [(0, 2, 6, false), (2, 2, 3, true), (2, 4, 1, false)]
        );
        assert!(b.values(&segs[0]).is_empty(), "no values before evaluate");
        assert!(b.evaluate(&Material).expect("material"));
        let mut rows = vec![0f32; 4];
        Material
            .evaluate(&crate::batch::PositionBatch::from_positions(&ps), &mut rows)
            .expect("material");
        assert_eq!(b.values(&segs[0]), &rows[..2]);
        assert!(b.values(&segs[1]).is_empty());
        assert_eq!(b.values(&segs[2]), &rows[2..]);
        b.clear();
        assert!(b.is_empty() && b.segments().is_empty());
        assert!(
            !b.evaluate(&Material).expect("empty batch"),
            "no call for no rows"
        );
    }
}
