//! `rich-9-v1` (docs/features.md §3) and `rich-pdi-11-v1` (§4): material-7 plus the mobility and
//! king-safety differences, then the two colours' piece diversity.

use super::{
    color_index, concat_names, extract_chunks, prefix, ChunkFill, FeatureSchema, Material7,
    Perspective,
};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::eval::king_safety;
use crate::probe::{all_moves_count, piece_diversity};
use dicechess_kernels::Color;
use ndarray::Array2;

pub(super) static RICH_9_COLUMNS: [&str; 9] = concat_names(
    &super::material::COLUMNS,
    &["mobility_diff", "king_safety_diff"],
);

static RICH_PDI_11_COLUMNS: [&str; 11] =
    concat_names(&RICH_9_COLUMNS, &["own_pdi", "opponent_pdi"]);

/// `rich-9-v1` (`RichFeatures`), 9 columns: [`Material7`]'s seven, then `mobility_diff` —
/// all pseudo-legal moves of `color` as if it were to move (castling counted) minus the
/// opponent's ([`all_moves_count`]) — and `king_safety_diff` = `king_safety(color) −
/// king_safety(opponent)` ∈ {−2000, 0, 2000} ([`king_safety`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rich9;

impl Rich9 {
    /// The frozen schema id.
    pub const ID: &'static str = "rich-9-v1";

    /// Columns 7 and 8 (`mobility_diff`, `king_safety_diff`).
    #[inline(always)]
    fn fill_tail(pos: &Position, color: Color, out: &mut [f32; 9]) {
        let opp = color.opponent();
        out[7] = (all_moves_count(pos, color) as i32 - all_moves_count(pos, opp) as i32) as f32;
        out[8] = (king_safety(pos, color) - king_safety(pos, opp)) as f32;
    }

    /// The nine values of one position.
    #[inline(always)]
    pub(super) fn fill(pos: &Position, color: Color, out: &mut [f32; 9]) {
        Material7::fill(pos, color, prefix::<7>(out));
        Rich9::fill_tail(pos, color, out);
    }

    /// Rows `first..` of `batch` into `chunk` (whole rows of `width` ≥ 9 values, these nine
    /// first): material from the columns, then per gathered row the move-generation columns
    /// and `more(pos, color, row)` (a wider schema's further columns).
    #[inline(always)]
    fn fill_columns(
        batch: &PositionBatch,
        perspective: Perspective,
        first: usize,
        chunk: &mut [f32],
        width: usize,
        more: impl Fn(&Position, Color, &mut [f32]),
    ) {
        Material7::fill_columns(batch, perspective, first, chunk, width);
        for (k, row) in chunk.chunks_exact_mut(width).enumerate() {
            let i = first + k;
            let pos = batch.get(i);
            let color = Color::from_index(color_index(batch, perspective, i));
            Rich9::fill_tail(&pos, color, prefix::<9>(row));
            more(&pos, color, row);
        }
    }
}

impl FeatureSchema for Rich9 {
    schema_names!(Rich9::ID, &RICH_9_COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        Rich9::fill(pos, color, prefix::<9>(out));
    }

    // Chunk-wise: the material columns column-wise, then mobility and king safety per row;
    // equal to [`FeatureSchema::extract_row`] row by row.
    chunked_extract!(Rich9);
}

chunk_fill!(Rich9, 9, |batch, perspective, first, chunk| {
    Rich9::fill_columns(batch, perspective, first, chunk, 9, |_, _, _| {})
});

/// PDI(`color`) / 5 as `f32`: 0, 0.2, 0.4, 0.6, 0.8 or 1 (the correctly rounded `f32`
/// quotients, equal to those literals).
#[inline(always)]
pub(super) fn pdi_value(pos: &Position, color: Color) -> f32 {
    piece_diversity(pos, color) as f32 / 5.0
}

/// `rich-pdi-11-v1` (`RichPdiFeatures`), 11 columns: [`Rich9`]'s nine, then `own_pdi` =
/// PDI(color)/5 and `opponent_pdi` = PDI(opponent)/5, PDI = number of non-king piece types
/// present ([`piece_diversity`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RichPdi11;

impl RichPdi11 {
    /// The frozen schema id.
    pub const ID: &'static str = "rich-pdi-11-v1";
}

impl FeatureSchema for RichPdi11 {
    schema_names!(RichPdi11::ID, &RICH_PDI_11_COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        let out = prefix::<11>(out);
        Rich9::fill(pos, color, prefix::<9>(out));
        RichPdi11::fill_tail(pos, color, out);
    }

    // Chunk-wise like [`Rich9`], then the PDI columns per row; equal to
    // [`FeatureSchema::extract_row`] row by row.
    chunked_extract!(RichPdi11);
}

impl RichPdi11 {
    /// Columns 9 and 10 (`own_pdi`, `opponent_pdi`).
    #[inline(always)]
    fn fill_tail(pos: &Position, color: Color, out: &mut [f32; 11]) {
        out[9] = pdi_value(pos, color);
        out[10] = pdi_value(pos, color.opponent());
    }
}

chunk_fill!(RichPdi11, 11, |batch, perspective, first, chunk| {
    Rich9::fill_columns(batch, perspective, first, chunk, 11, |pos, color, row| {
        RichPdi11::fill_tail(pos, color, prefix::<11>(row))
    });
});
