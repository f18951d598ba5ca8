//! `material-7-v1` (docs/features.md §2): piece-count differences and material with the "ONNX"
//! values P 1, N 3, B 3, R 5, Q 9 (docs/rules.md §1); kings are not counted.

use super::{color_index, extract_chunks, prefix, ChunkFill, FeatureSchema, Perspective};
use crate::batch::PositionBatch;
use crate::board::Position;
use dicechess_kernels::{Color, PieceType};
use ndarray::Array2;

/// The "ONNX" piece values of P, N, B, R, Q (docs/rules.md §1), in die-face order.
pub(super) const ONNX_VALUES: [i32; 5] = [1, 3, 3, 5, 9];

pub(super) static COLUMNS: [&str; 7] = [
    "p_diff",
    "n_diff",
    "b_diff",
    "r_diff",
    "q_diff",
    "material_diff",
    "total_material",
];

/// `material-7-v1` (`OnnxFeatures`), 7 columns: `p_diff`, `n_diff`, `b_diff`, `r_diff`,
/// `q_diff` (own − opponent piece counts), `material_diff` (own − opponent material, values
/// 1/3/3/5/9) and `total_material` (own + opponent material; 78 in the start position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material7;

impl Material7 {
    /// The frozen schema id.
    pub const ID: &'static str = "material-7-v1";

    /// The seven values from the five non-king type bitboards (die-face order) and the two
    /// colour bitboards of one row; the only arithmetic of this schema, shared by the row
    /// and the column-wise paths.
    #[inline(always)]
    pub(super) fn kernel(types: [u64; 5], own: u64, opp: u64, out: &mut [f32; 7]) {
        let (mut own_material, mut opp_material) = (0i32, 0i32);
        for t in 0..5 {
            let o = (types[t] & own).count_ones() as i32;
            let p = (types[t] & opp).count_ones() as i32;
            out[t] = (o - p) as f32;
            own_material += ONNX_VALUES[t] * o;
            opp_material += ONNX_VALUES[t] * p;
        }
        out[5] = (own_material - opp_material) as f32;
        out[6] = (own_material + opp_material) as f32;
    }

    /// [`Material7::kernel`] for one position.
    #[inline(always)]
    pub(super) fn fill(pos: &Position, color: Color, out: &mut [f32; 7]) {
        let types = [
            pos.pieces(PieceType::Pawn).0,
            pos.pieces(PieceType::Knight).0,
            pos.pieces(PieceType::Bishop).0,
            pos.pieces(PieceType::Rook).0,
            pos.pieces(PieceType::Queen).0,
        ];
        let own = pos.color(color).0;
        let opp = pos.color(color.opponent()).0;
        Material7::kernel(types, own, opp, out);
    }

    /// The seven values of rows `first..` of `batch` into `chunk` (whole rows of `width`
    /// values, this schema's columns first), straight from the columns: no row is gathered.
    #[inline(always)]
    pub(super) fn fill_columns(
        batch: &PositionBatch,
        perspective: Perspective,
        first: usize,
        chunk: &mut [f32],
        width: usize,
    ) {
        let n = chunk.len() / width;
        let types: [&[u64]; 5] = std::array::from_fn(|t| &batch.by_type()[t][first..first + n]);
        let colors = [
            &batch.by_color()[0][first..first + n],
            &batch.by_color()[1][first..first + n],
        ];
        for (k, row) in chunk.chunks_exact_mut(width).enumerate() {
            let c = color_index(batch, perspective, first + k);
            Material7::kernel(
                [
                    types[0][k],
                    types[1][k],
                    types[2][k],
                    types[3][k],
                    types[4][k],
                ],
                colors[c][k],
                colors[c ^ 1][k],
                prefix::<7>(row),
            );
        }
    }
}

impl FeatureSchema for Material7 {
    schema_names!(Material7::ID, &COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        Material7::fill(pos, color, prefix::<7>(out));
    }

    // Column-wise: popcounts over the batch's type and colour columns, rows filled in
    // parallel chunks; equal to [`FeatureSchema::extract_row`] row by row.
    chunked_extract!(Material7);
}

chunk_fill!(Material7, 7, |batch, perspective, first, chunk| {
    Material7::fill_columns(batch, perspective, first, chunk, 7)
});
