//! `raw-board-768-v1` (docs/features.md §8): twelve 64-square occupancy planes from the mover's
//! view.

use super::{color_index, extract_chunks, ChunkFill, FeatureSchema, Perspective};
use crate::batch::PositionBatch;
use crate::board::Position;
use dicechess_kernels::{Color, PieceType, Square};
use ndarray::Array2;

/// Planes × squares.
const WIDTH: usize = 12 * 64;

/// Longest column name (`own_p_63`); names are stored in fixed 8-byte slots.
const SLOT: usize = 8;

/// `own_p_0 … own_k_63, opp_p_0 … opp_k_63` in fixed slots, with each name's length.
const fn name_bytes() -> ([u8; WIDTH * SLOT], [usize; WIDTH]) {
    let letters = *b"pnbrqk";
    let mut bytes = [0u8; WIDTH * SLOT];
    let mut lens = [0usize; WIDTH];
    let mut col = 0;
    while col < WIDTH {
        let (plane, sq) = (col / 64, col % 64);
        let side: &[u8; 3] = if plane < 6 { b"own" } else { b"opp" };
        let at = col * SLOT;
        bytes[at] = side[0];
        bytes[at + 1] = side[1];
        bytes[at + 2] = side[2];
        bytes[at + 3] = b'_';
        bytes[at + 4] = letters[plane % 6];
        bytes[at + 5] = b'_';
        if sq < 10 {
            bytes[at + 6] = b'0' + sq as u8;
            lens[col] = 7;
        } else {
            bytes[at + 6] = b'0' + (sq / 10) as u8;
            bytes[at + 7] = b'0' + (sq % 10) as u8;
            lens[col] = 8;
        }
        col += 1;
    }
    (bytes, lens)
}

const NAMES: ([u8; WIDTH * SLOT], [usize; WIDTH]) = name_bytes();
static NAME_BYTES: [u8; WIDTH * SLOT] = NAMES.0;

const fn names() -> [&'static str; WIDTH] {
    let mut out = [""; WIDTH];
    let mut col = 0;
    while col < WIDTH {
        let (_, rest) = NAME_BYTES.split_at(col * SLOT);
        let (name, _) = rest.split_at(NAMES.1[col]);
        out[col] = match std::str::from_utf8(name) {
            Ok(s) => s,
            Err(_) => panic!("column names are ASCII"),
        };
        col += 1;
    }
    out
}

static COLUMNS: [&str; WIDTH] = names();

/// The column of a piece in `raw-board-768-v1` from `color`'s view: plane = type index
/// (P..K = 0..5) for `color`'s own pieces, 6 + type index for the opponent's; square from
/// the mover = `sq` for White, the rank mirrored (`((7 − sq/8)·8) | (sq mod 8)`, i.e.
/// `sq ^ 56`) for Black; column = plane·64 + square.
#[inline(always)]
pub fn raw_board_column(color: Color, own: bool, piece: PieceType, sq: Square) -> usize {
    let plane = piece.index() + if own { 0 } else { 6 };
    let mirror = match color {
        Color::White => 0,
        Color::Black => 56,
    };
    plane * 64 + (sq.index() ^ mirror)
}

/// `raw-board-768-v1` (`RawBoardFeatures`), 768 columns: planes 0–5 the mover's (`color`'s)
/// P, N, B, R, Q, K, planes 6–11 the opponent's; column = plane·64 + square from the mover
/// (see [`raw_board_column`]); 1.0 where occupied, else 0.0. Names `own_p_0 … opp_k_63`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawBoard768;

impl RawBoard768 {
    /// The frozen schema id.
    pub const ID: &'static str = "raw-board-768-v1";

    /// Set the occupied columns to 1.0 (the others are left as they are).
    #[inline(always)]
    fn set_ones(pos: &Position, color: Color, out: &mut [f32; WIDTH]) {
        for (own, side) in [(true, color), (false, color.opponent())] {
            for piece in PieceType::ALL {
                for sq in pos.piece_bb(side, piece) {
                    out[raw_board_column(color, own, piece, sq)] = 1.0;
                }
            }
        }
    }
}

impl FeatureSchema for RawBoard768 {
    schema_names!(RawBoard768::ID, &COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        let out = super::prefix::<WIDTH>(out);
        out.fill(0.0);
        RawBoard768::set_ones(pos, color, out);
    }

    // Rows in parallel chunks; the output starts zeroed, so only occupied squares are
    // written. Equal to [`FeatureSchema::extract_row`] row by row.
    chunked_extract!(RawBoard768);
}

chunk_fill!(RawBoard768, WIDTH, |batch, perspective, first, chunk| {
    for (k, row) in chunk.chunks_exact_mut(WIDTH).enumerate() {
        let i = first + k;
        let pos = batch.get(i);
        let color = Color::from_index(color_index(batch, perspective, i));
        RawBoard768::set_ones(&pos, color, super::prefix::<WIDTH>(row));
    }
});
