//! Endgame tables at the leaves: any evaluator, with every leaf a table holds scored by the
//! table instead (docs/tablebases.md "In the search").

use super::score::win_probability_to_score;
use super::{check_len, BatchEvaluator, EvalError};
use crate::batch::{LeafBatch, PositionBatch};
use crate::board::Position;
use crate::tablebase::Tablebases;
use std::sync::Arc;

/// `inner`'s scores, except on positions a table holds: there the table's expected score
/// `p` of the side to move, on the shared axis as a win probability
/// ([`win_probability_to_score`]: `20000 · (p − ½)`). A leaf with more pieces than the
/// largest held table costs one popcount on top of `inner`.
///
/// Why the probability scale: in a table ending every leaf is a table leaf, so the scale
/// only has to rank them, and it does exactly (it is affine); where a capture enters a
/// table ending, a sure table win (p near 1, score near 10,000) ranks above any material
/// lead, as it should, and an even one (p = ½) scores 0, as a level material count would.
pub struct TablebaseLeaves {
    inner: Arc<dyn BatchEvaluator>,
    tables: Arc<Tablebases>,
}

impl TablebaseLeaves {
    /// `inner` with `tables` at the leaves.
    pub fn new(inner: Arc<dyn BatchEvaluator>, tables: Arc<Tablebases>) -> TablebaseLeaves {
        TablebaseLeaves { inner, tables }
    }

    /// The tables' score of `pos`, if a table holds it.
    #[inline]
    fn table_score(&self, pos: &Position) -> Option<f32> {
        if pos.occupied().count() > self.tables.max_pieces() {
            return None;
        }
        self.tables
            .probe(pos)
            .map(|p| win_probability_to_score(p as f32))
    }
}

impl BatchEvaluator for TablebaseLeaves {
    fn id(&self) -> String {
        format!("{}+tables", self.inner.id())
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        check_len(batch, out)?;
        self.inner.evaluate(batch, out)?;
        let [white, black] = batch.by_color();
        for (i, v) in out.iter_mut().enumerate() {
            if (white[i] | black[i]).count_ones() <= self.tables.max_pieces() {
                if let Some(s) = self.table_score(&batch.get(i)) {
                    *v = s;
                }
            }
        }
        Ok(())
    }

    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        if !self.inner.evaluate_leaves(leaves)? {
            return Ok(false);
        }
        // Table leaves are few (none before the last captures): collect them from the rows,
        // then overwrite their values (an empty `Vec` does not allocate).
        let hits: Vec<(usize, f32)> = leaves
            .rows()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| self.table_score(p).map(|s| (i, s)))
            .collect();
        let values = leaves.values_mut();
        for (i, s) in hits {
            values[i] = s;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Material;
    use crate::tablebase::{solve, Material as Ending, SolveConfig};

    #[test]
    fn table_positions_take_the_table_score_and_others_keep_the_inner_one() {
        let mut tables = Tablebases::new();
        let (kk, _) =
            solve(Ending::Kk, &tables, &SolveConfig::default(), &|_| {}).expect("KvK solves");
        tables.insert(kk);
        let tables = Arc::new(tables);
        let eval = TablebaseLeaves::new(Arc::new(Material), tables.clone());
        let rows = [
            Position::from_dfen("8/8/8/3k4/3K4/8/8/8 w - - 0 1").expect("valid"),
            Position::from_dfen("8/8/8/3k4/3K4/8/8/8 b - - 0 1").expect("valid"),
            Position::startpos(),
            // Three pieces, but KQvK is not held: the inner score stays.
            Position::from_dfen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("valid"),
        ];
        let batch = PositionBatch::from_positions(&rows);
        let mut out = vec![0.0; rows.len()];
        eval.evaluate(&batch, &mut out).expect("scores");
        let mut inner = vec![0.0; rows.len()];
        Material.evaluate(&batch, &mut inner).expect("scores");
        let p = tables.probe(&rows[0]).expect("held") as f32;
        assert_eq!(out[0], win_probability_to_score(p));
        assert!(out[0] > 2000.0, "{}", out[0]);
        assert_eq!(out[1], out[0], "the flip of d4/d5 is d4/d5");
        assert_eq!(out[2..], inner[2..]);

        let mut leaves = LeafBatch::new();
        leaves.push_class(6, rows.iter());
        assert!(eval.evaluate_leaves(&mut leaves).expect("scores"));
        assert_eq!(leaves.values_mut(), &out[..]);
        assert_eq!(eval.id(), "material+tables");
    }
}
