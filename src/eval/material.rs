//! The material evaluator (docs/rules.md §1 centipawns).

use super::{check_len, BatchEvaluator, EvalError, UPPER_SCORE_BOUND_CP};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::probe::MATERIAL_VALUES;
use dicechess_kernels::columns::{material_balance, material_side_to_move, to_side_to_move};
use dicechess_kernels::{Color, PieceType};
use rayon::prelude::*;
use std::sync::OnceLock;

/// Material in centipawns from the side to move's view: Σ own − Σ opponent with P 100,
/// N 300, B 300, R 500, Q 900, K 10000 (`evaluateMaterial`, kings included), clamped to
/// ±[`UPPER_SCORE_BOUND_CP`], the axis bound. Why the clamp: promotions can put up to nine
/// queens on the board, and a position whose opponent king is already gone counts the own
/// king's 10000 too, so the raw sum reaches 20000 and more, above the search's win value
/// (10001): an unclamped leaf would outrank a real king capture.
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
        s.clamp(-UPPER_SCORE_BOUND_CP, UPPER_SCORE_BOUND_CP)
    }

    /// Integer scores of a batch, side-to-move view, written over the columns.
    pub fn scores(batch: &PositionBatch, out: &mut [i32]) {
        let by_type = batch.by_type();
        material_balance(
            by_type,
            batch.by_color()[0],
            batch.by_color()[1],
            &MATERIAL_VALUES.prices(),
            out,
        );
        to_side_to_move(batch.side(), out);
        for v in out.iter_mut() {
            *v = (*v).clamp(-UPPER_SCORE_BOUND_CP, UPPER_SCORE_BOUND_CP);
        }
    }
}

/// A material column kernel: [`material_side_to_move`]'s signature.
pub type MaterialKernel = fn([&[u64]; 6], &[u64], &[u64], &[u8], &[i32; 6], &mut [f32]);

/// `material_side_to_move_vpopcnt`, callable only through [`material_kernels`], which hands it
/// out after detecting the features.
#[cfg(target_arch = "x86_64")]
fn vpopcnt_detected(t: [&[u64]; 6], w: &[u64], b: &[u64], s: &[u8], v: &[i32; 6], o: &mut [f32]) {
    // SAFETY: this function is reachable only through `material_kernels`, which returns it
    // after detecting every feature the kernel is compiled for. Why: 2.2× the row loop and
    // 3.1× the portable kernel (numbers at `material_kernels`).
    unsafe { dicechess_kernels::columns::material_side_to_move_vpopcnt(t, w, b, s, v, o) }
}

/// `material_side_to_move_avx2`, handed out by [`material_kernels`] after detection.
#[cfg(target_arch = "x86_64")]
fn avx2_detected(t: [&[u64]; 6], w: &[u64], b: &[u64], s: &[u8], v: &[i32; 6], o: &mut [f32]) {
    // SAFETY: as for `vpopcnt_detected`, for AVX2 and POPCNT. Why: 1.36× the portable kernel,
    // whose 128-bit vector popcounts are slower than scalar ones.
    unsafe { dicechess_kernels::columns::material_side_to_move_avx2(t, w, b, s, v, o) }
}

/// The forms of [`material_side_to_move`] this CPU runs, fastest first, by name
/// (`vpopcnt`, `avx2`, `portable`); features detected once. [`Material`] uses the first.
/// One core of the 2-core AVX-512 Xeon we measure on (`cargo bench --bench material`,
/// 65,536 rows): `vpopcntq` 403 M rows/s, AVX2 176 M, the portable build (SSE4.2) 129 M, a
/// row-at-a-time loop over `Position` 184 M.
pub fn material_kernels() -> &'static [(&'static str, MaterialKernel)] {
    static KERNELS: OnceLock<Vec<(&'static str, MaterialKernel)>> = OnceLock::new();
    KERNELS.get_or_init(|| {
        let mut out: Vec<(&'static str, MaterialKernel)> = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx512vpopcntdq") {
                out.push(("vpopcnt", vpopcnt_detected));
            }
            if has!("avx2") && has!("popcnt") {
                out.push(("avx2", avx2_detected));
            }
        }
        out.push(("portable", material_side_to_move));
        out
    })
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
                let by_type = std::array::from_fn(|t| &batch.by_type()[t][lo..hi]);
                let (white, black) = (&batch.by_color()[0][lo..hi], &batch.by_color()[1][lo..hi]);
                let side = &batch.side()[lo..hi];
                (material_kernels()[0].1)(
                    by_type,
                    white,
                    black,
                    side,
                    &MATERIAL_VALUES.prices(),
                    chunk,
                );
                let limit = UPPER_SCORE_BOUND_CP as f32;
                for v in chunk.iter_mut() {
                    *v = v.clamp(-limit, limit);
                }
            });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{UPPER_SCORE_BOUND, WIN_VALUE};

    /// Nine white queens, and Black's king already captured: the raw sum is far above the
    /// win value.
    const NINE_QUEENS: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ";

    fn raw(pos: &Position, color: Color) -> i32 {
        PieceType::ALL
            .iter()
            .map(|&t| {
                MATERIAL_VALUES.price(t)
                    * (pos.piece_bb(color, t).count() as i32
                        - pos.piece_bb(color.opponent(), t).count() as i32)
            })
            .sum()
    }

    #[test]
    fn extra_queens_never_score_above_the_win_value() {
        let white = Position::from_dfen(NINE_QUEENS).unwrap();
        let black = Position::from_dfen(&NINE_QUEENS.replace(" w ", " b ")).unwrap();
        assert!(
            raw(&white, Color::White) as f64 > WIN_VALUE,
            "the probe lost its point"
        );
        let batch = PositionBatch::from_positions(&[white, black]);
        let mut out = [0.0f32; 2];
        Material.evaluate(&batch, &mut out).unwrap();
        assert_eq!(out, [UPPER_SCORE_BOUND as f32, -UPPER_SCORE_BOUND as f32]);
        let mut ints = [0i32; 2];
        Material::scores(&batch, &mut ints);
        assert_eq!(ints, [UPPER_SCORE_BOUND_CP, -UPPER_SCORE_BOUND_CP]);
        assert_eq!(Material::score(&white, Color::White), UPPER_SCORE_BOUND_CP);
        assert_eq!(Material::score(&white, Color::Black), -UPPER_SCORE_BOUND_CP);
        assert!((UPPER_SCORE_BOUND_CP as f64) < WIN_VALUE);
        // Ordinary positions are untouched.
        let start =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1 PPN")
                .unwrap();
        assert_eq!(Material::score(&start, Color::White), -100);
    }
}
