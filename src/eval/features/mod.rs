//! Feature schemas (docs/features.md): frozen, versioned column layouts shared with the training
//! pipeline. A schema never changes once published; a change is a new id.
//!
//! The eight schemas ([`SCHEMA_IDS`], [`all_schemas`], [`schema`]) are unit structs, one file
//! per family: [`Material7`] (material.rs); [`Rich9`], [`RichPdi11`] (rich.rs); [`Kcp13`],
//! [`KcpMobility27`], [`KcpMobilityPawns31`] (kcp.rs); [`RawBoard768`] (raw_board.rs);
//! [`DiceTerms20`] (dice_terms.rs: the dice-aware terms, a flat row). A
//! wider schema's row function fills the narrower one's columns by calling it, and its
//! column names are built from the narrower one's, so prefixes agree by construction.
//! Row functions (`extract_row`) do not allocate. `material-7-v1`, `rich-9-v1`,
//! `rich-pdi-11-v1` and `raw-board-768-v1` override `extract` with a chunk-wise path over
//! the batch columns (material popcounts straight from the type and colour columns); the
//! capture-probability schemas, whose cost is the search, use the default row-parallel one.

use crate::batch::PositionBatch;
use crate::board::Position;
use dicechess_kernels::Color;
use ndarray::Array2;
use rayon::prelude::*;

/// Whose view a row's features are computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// Each row's side to move (mover-canonical; what `dicechess eval` writes).
    SideToMove,
    /// Always this colour.
    Fixed(Color),
}

impl Perspective {
    /// The colour for a position.
    #[inline]
    pub fn color_for(self, pos: &Position) -> Color {
        match self {
            Perspective::SideToMove => pos.side_to_move(),
            Perspective::Fixed(c) => c,
        }
    }

    /// The name written into file metadata: `side-to-move`, `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Perspective::SideToMove => "side-to-move",
            Perspective::Fixed(Color::White) => "white",
            Perspective::Fixed(Color::Black) => "black",
        }
    }
}

/// A feature schema: `extract(state, color) → float32[width]`, dice-free (docs/features.md §1).
pub trait FeatureSchema: Send + Sync {
    /// The frozen id, e.g. `rich-9-v1`.
    fn id(&self) -> &'static str;

    /// Column names in order.
    fn columns(&self) -> &'static [&'static str];

    /// Number of columns.
    fn width(&self) -> usize {
        self.columns().len()
    }

    /// Features of one position from `color`'s view into `out` (`out.len() == width`).
    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]);

    /// Features of every row, `[rows, width]`, rows filled in parallel (rayon).
    fn extract(&self, batch: &PositionBatch, perspective: Perspective) -> Array2<f32> {
        let w = self.width();
        let mut out = Array2::<f32>::zeros((batch.len(), w));
        if let Some(slice) = out.as_slice_mut() {
            slice
                .par_chunks_mut(w.max(1))
                .with_min_len(256)
                .enumerate()
                .for_each(|(i, row)| {
                    let p = batch.get(i);
                    self.extract_row(&p, perspective.color_for(&p), row);
                });
        }
        out
    }
}

/// A schema's `id` and `columns` (the two methods every [`FeatureSchema`] impl spells the
/// same way): `schema_names!(Rich9::ID, &RICH_9_COLUMNS);` inside the impl.
macro_rules! schema_names {
    ($id:expr, $columns:expr) => {
        fn id(&self) -> &'static str {
            $id
        }

        fn columns(&self) -> &'static [&'static str] {
            $columns
        }
    };
}

/// `extract` by [`extract_chunks`] (the chunk-wise path of a schema that is also a
/// [`ChunkFill`]): `chunked_extract!(Rich9);` inside the [`FeatureSchema`] impl.
macro_rules! chunked_extract {
    ($t:ty) => {
        fn extract(&self, batch: &PositionBatch, perspective: Perspective) -> Array2<f32> {
            extract_chunks::<$t>(batch, perspective)
        }
    };
}

/// `impl ChunkFill for T` of width `W` whose `fill_chunk` is the closure-like body:
/// `chunk_fill!(T, W, |batch, perspective, first, chunk| body);` (inlined always, so that
/// [`fill_popcnt`] compiles it for `popcnt`).
macro_rules! chunk_fill {
    ($t:ty, $width:expr, |$batch:ident, $perspective:ident, $first:ident, $chunk:ident| $body:expr) => {
        impl ChunkFill for $t {
            const WIDTH: usize = $width;

            #[inline(always)]
            fn fill_chunk(
                $batch: &PositionBatch,
                $perspective: Perspective,
                $first: usize,
                $chunk: &mut [f32],
            ) {
                $body
            }
        }
    };
}

mod dice_terms;
mod golden;
mod kcp;
mod material;
mod raw_board;
mod rich;

pub use dice_terms::DiceTerms20;
pub use golden::{
    parse_probes_tsv, pipeline_golden_path, pipeline_probes, probe_position, EngineIdentity,
    GoldenCorpus, GoldenError, GoldenProbe, GoldenRow,
};
pub use kcp::{roll_probability, Kcp13, KcpMobility27, KcpMobilityPawns31};
pub use material::Material7;
pub use raw_board::{raw_board_column, RawBoard768};
pub use rich::{Rich9, RichPdi11};

/// The ids of every schema, narrowest first: the order of [`all_schemas`].
pub const SCHEMA_IDS: [&str; 8] = [
    Material7::ID,
    Rich9::ID,
    RichPdi11::ID,
    Kcp13::ID,
    KcpMobility27::ID,
    KcpMobilityPawns31::ID,
    RawBoard768::ID,
    DiceTerms20::ID,
];

static SCHEMAS: [&dyn FeatureSchema; 8] = [
    &Material7,
    &Rich9,
    &RichPdi11,
    &Kcp13,
    &KcpMobility27,
    &KcpMobilityPawns31,
    &RawBoard768,
    &DiceTerms20,
];

/// Every schema, in the order of [`SCHEMA_IDS`].
pub fn all_schemas() -> &'static [&'static dyn FeatureSchema] {
    &SCHEMAS
}

/// The schema with this frozen id, if there is one (ids are exact: no aliases, no case
/// folding).
pub fn schema(id: &str) -> Option<&'static dyn FeatureSchema> {
    SCHEMAS.iter().copied().find(|s| s.id() == id)
}

/// No schema has this id; the message names the known ones:
/// `unknown feature schema "x" (known: material-7-v1, ...)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown feature schema {id:?} (known: {})", SCHEMA_IDS.join(", "))]
pub struct UnknownSchema {
    /// The id asked for.
    pub id: String,
}

/// The schema with this id, or the error naming the known ones.
pub fn schema_or_err(id: &str) -> Result<&'static dyn FeatureSchema, UnknownSchema> {
    schema(id).ok_or_else(|| UnknownSchema { id: id.into() })
}

/// Rows per parallel work item of the column-wise extractors.
const CHUNK_ROWS: usize = 512;

/// A schema with a column-wise batch path: it fills whole chunks of rows straight from the
/// batch columns.
trait ChunkFill {
    /// Values per row.
    const WIDTH: usize;

    /// Fill `chunk` (whole rows of [`ChunkFill::WIDTH`] values, all of them) with rows
    /// `first..` of `batch`. Implementations are `#[inline(always)]`, so that
    /// [`fill_popcnt`] compiles them for `popcnt`.
    fn fill_chunk(batch: &PositionBatch, perspective: Perspective, first: usize, chunk: &mut [f32]);
}

/// `[rows, F::WIDTH]` by [`ChunkFill::fill_chunk`] over chunks of [`CHUNK_ROWS`] rows, in
/// parallel (rayon, in the current pool).
fn extract_chunks<F: ChunkFill>(batch: &PositionBatch, perspective: Perspective) -> Array2<f32> {
    let mut out = Array2::<f32>::zeros((batch.len(), F::WIDTH));
    if let Some(slice) = out.as_slice_mut() {
        slice
            .par_chunks_mut(CHUNK_ROWS * F::WIDTH)
            .enumerate()
            .for_each(|(k, chunk)| fill_fast::<F>(batch, perspective, k * CHUNK_ROWS, chunk));
    }
    out
}

/// [`ChunkFill::fill_chunk`], compiled with the `popcnt` instruction where the CPU has it
/// (the baseline x86-64 target counts bits with a dozen shifts and masks). Same results
/// either way: only the instruction selection differs. Only what gets inlined here (the
/// material kernel) gains; out-of-line callees such as `probe::mobility` keep the baseline
/// build.
#[inline(always)]
fn fill_fast<F: ChunkFill>(
    batch: &PositionBatch,
    perspective: Perspective,
    first: usize,
    chunk: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, checked just above.
        unsafe { fill_popcnt::<F>(batch, perspective, first, chunk) };
        return;
    }
    F::fill_chunk(batch, perspective, first, chunk)
}

/// [`fill_fast`]'s `popcnt` build.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn fill_popcnt<F: ChunkFill>(
    batch: &PositionBatch,
    perspective: Perspective,
    first: usize,
    chunk: &mut [f32],
) {
    F::fill_chunk(batch, perspective, first, chunk)
}

/// `a` followed by `b` (`N == A + B`, checked at compile time where used in a `static`): how a
/// wider schema's column names extend the narrower schema's, so prefixes are equal by
/// construction.
const fn concat_names<const A: usize, const B: usize, const N: usize>(
    a: &[&'static str; A],
    b: &[&'static str; B],
) -> [&'static str; N] {
    assert!(A + B == N, "column counts do not add up");
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// The first `N` values of `out` as an array (the prefix a narrower schema fills). Panics
/// when `out` is shorter — the caller broke `out.len() == width`.
#[inline(always)]
fn prefix<const N: usize>(out: &mut [f32]) -> &mut [f32; N] {
    (&mut out[..N])
        .try_into()
        .expect("the slice was cut to N values")
}

/// The perspective colour of row `i` of `batch` as an index (0 White, 1 Black), without
/// building the row.
#[inline]
fn color_index(batch: &PositionBatch, perspective: Perspective, i: usize) -> usize {
    match perspective {
        Perspective::SideToMove => (batch.side()[i] & 1) as usize,
        Perspective::Fixed(c) => c.index(),
    }
}
