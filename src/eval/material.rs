//! The material evaluator (docs/rules.md §1 centipawns).

use super::{check_len, BatchEvaluator, EvalError};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::probe::MATERIAL_VALUES;
use dicechess_kernels::columns::{material_balance, material_side_to_move, to_side_to_move};
use dicechess_kernels::{Color, PieceType};
use rayon::prelude::*;
use std::sync::OnceLock;

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
                let by_type = std::array::from_fn(|t| &batch.by_type[t][lo..hi]);
                let (white, black) = (&batch.by_color[0][lo..hi], &batch.by_color[1][lo..hi]);
                let side = &batch.side[lo..hi];
                (material_kernels()[0].1)(
                    by_type,
                    white,
                    black,
                    side,
                    &MATERIAL_VALUES.prices(),
                    chunk,
                );
            });
        Ok(())
    }
}
