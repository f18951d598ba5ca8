//! The material evaluator (rules.md §1 centipawns).

use super::{check_len, BatchEvaluator, EvalError};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::probe::MATERIAL_VALUES;
use dicechess_kernels::columns::{material_balance, to_side_to_move};
use dicechess_kernels::{Color, PieceType};
use rayon::prelude::*;

/// Material in centipawns from the side to move's view: Σ own − Σ opponent with P 100,
/// N 300, B 300, R 500, Q 900, K 10000 (`evaluateMaterial`, kings included).
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Material {
    /// Material of one position from `color`'s view (the row-at-a-time form).
    pub fn score(pos: &Position, color: Color) -> i32 {
        let mut s = 0;
        for t in PieceType::ALL {
            let v = MATERIAL_VALUES.price(t);
            s += v
                * (pos.piece_bb(color, t).count() as i32
                    - pos.piece_bb(color.opponent(), t).count() as i32);
        }
        s
    }

    /// Integer scores of a batch, side-to-move view, written over the columns.
    pub fn scores(batch: &PositionBatch, out: &mut [i32]) {
        let by_type = std::array::from_fn(|t| batch.by_type[t].as_slice());
        material_balance(
            by_type,
            &batch.by_color[0],
            &batch.by_color[1],
            &MATERIAL_VALUES.prices(),
            out,
        );
        to_side_to_move(&batch.side, out);
    }
}

impl BatchEvaluator for Material {
    fn id(&self) -> String {
        "material".into()
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        check_len(batch, out)?;
        // Column kernels over row blocks, blocks in parallel: 16,384 rows (~1.4 MiB of
        // columns) per task keeps each block in L2 and the task overhead under 1 %.
        const BLOCK: usize = 16_384;
        out.par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(k, chunk)| {
                let lo = k * BLOCK;
                let hi = lo + chunk.len();
                let by_type = std::array::from_fn(|t| &batch.by_type[t][lo..hi]);
                let mut ints = [0i32; BLOCK];
                let ints = &mut ints[..chunk.len()];
                material_balance(
                    by_type,
                    &batch.by_color[0][lo..hi],
                    &batch.by_color[1][lo..hi],
                    &MATERIAL_VALUES.prices(),
                    ints,
                );
                to_side_to_move(&batch.side[lo..hi], ints);
                for (o, &v) in chunk.iter_mut().zip(ints.iter()) {
                    *o = v as f32;
                }
            });
        Ok(())
    }
}
