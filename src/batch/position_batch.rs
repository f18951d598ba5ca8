//! `PositionBatch`: the fields of [`Position`] as columns.

use crate::board::Position;
use dicechess_kernels::{Bitboard, Color, PieceType};
use ndarray::ArrayView2;
use rayon::prelude::*;

/// Positions stored column-wise: one `Vec` per bitboard and per small field, all of the same
/// length. Kernels take the column slices, so loops run across rows and vectorise. The
/// columns are private, so every column keeps the batch's length; readers get slices.
/// Rows are indexed by `usize`, like the slices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionBatch {
    /// Pieces by type, die-face order: `by_type[t][row]`.
    by_type: [Vec<u64>; 6],
    /// Pieces by colour, White first: `by_color[c][row]`.
    by_color: [Vec<u64>; 2],
    /// E.p. target sets.
    ep: Vec<u64>,
    /// Zobrist keys.
    key: Vec<u64>,
    /// Full-move numbers.
    fullmove: Vec<u32>,
    /// Side to move (0 White, 1 Black).
    side: Vec<u8>,
    /// Castling rights (K = 1, Q = 2, k = 4, q = 8).
    castling: Vec<u8>,
    /// Half-move clocks.
    halfmove: Vec<u8>,
    /// Dice pools (faces ascending, 0 = empty slot).
    dice: Vec<[u8; 3]>,
}

impl PositionBatch {
    /// An empty batch.
    pub fn new() -> PositionBatch {
        PositionBatch::default()
    }

    /// An empty batch with room for `n` rows in every column.
    pub fn with_capacity(n: usize) -> PositionBatch {
        let v64 = || Vec::with_capacity(n);
        PositionBatch {
            by_type: [v64(), v64(), v64(), v64(), v64(), v64()],
            by_color: [v64(), v64()],
            ep: v64(),
            key: v64(),
            fullmove: Vec::with_capacity(n),
            side: Vec::with_capacity(n),
            castling: Vec::with_capacity(n),
            halfmove: Vec::with_capacity(n),
            dice: Vec::with_capacity(n),
        }
    }

    /// Number of rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.key.len()
    }

    /// Whether there are no rows.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.key.is_empty()
    }

    /// Remove every row, keeping the capacity.
    pub fn clear(&mut self) {
        self.by_type.iter_mut().for_each(Vec::clear);
        self.by_color.iter_mut().for_each(Vec::clear);
        self.ep.clear();
        self.key.clear();
        self.fullmove.clear();
        self.side.clear();
        self.castling.clear();
        self.halfmove.clear();
        self.dice.clear();
    }

    /// Append a row; returns its index.
    pub fn push(&mut self, p: &Position) -> usize {
        let id = self.len();
        for (col, &b) in self.by_type.iter_mut().zip(p.by_type.iter()) {
            col.push(b);
        }
        for (col, &b) in self.by_color.iter_mut().zip(p.by_color.iter()) {
            col.push(b);
        }
        self.ep.push(p.ep);
        self.key.push(p.key);
        self.fullmove.push(p.fullmove);
        self.side.push(p.side);
        self.castling.push(p.castling);
        self.halfmove.push(p.halfmove);
        self.dice.push(p.dice);
        id
    }

    /// Row `i` as a [`Position`] (a gather across the columns).
    #[inline]
    pub fn get(&self, i: usize) -> Position {
        Position {
            by_type: std::array::from_fn(|t| self.by_type[t][i]),
            by_color: [self.by_color[0][i], self.by_color[1][i]],
            ep: self.ep[i],
            key: self.key[i],
            fullmove: self.fullmove[i],
            side: self.side[i],
            castling: self.castling[i],
            halfmove: self.halfmove[i],
            dice: self.dice[i],
            _pad: [0; 6],
        }
    }

    /// Every row as a [`Position`], in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Position> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// A batch of the given rows (any order, repeats allowed).
    pub fn gather(&self, rows: &[usize]) -> PositionBatch {
        let pick64 = |col: &Vec<u64>| rows.iter().map(|&r| col[r]).collect::<Vec<_>>();
        PositionBatch {
            by_type: std::array::from_fn(|t| pick64(&self.by_type[t])),
            by_color: [pick64(&self.by_color[0]), pick64(&self.by_color[1])],
            ep: pick64(&self.ep),
            key: pick64(&self.key),
            fullmove: rows.iter().map(|&r| self.fullmove[r]).collect(),
            side: rows.iter().map(|&r| self.side[r]).collect(),
            castling: rows.iter().map(|&r| self.castling[r]).collect(),
            halfmove: rows.iter().map(|&r| self.halfmove[r]).collect(),
            dice: rows.iter().map(|&r| self.dice[r]).collect(),
        }
    }

    /// A batch from rows, the columns filled in parallel (rayon).
    pub fn from_positions(rows: &[Position]) -> PositionBatch {
        fn col<T: Send>(rows: &[Position], f: impl Fn(&Position) -> T + Sync + Send) -> Vec<T> {
            rows.par_iter().with_min_len(4096).map(f).collect()
        }
        let mut b = PositionBatch::default();
        // Twelve independent columns: fill the wide ones in parallel with each other too.
        rayon::scope(|s| {
            let (types, rest) = (&mut b.by_type, &mut b.by_color);
            s.spawn(|_| {
                for (t, c) in types.iter_mut().enumerate() {
                    *c = col(rows, |p| p.by_type[t]);
                }
            });
            s.spawn(|_| {
                for (i, c) in rest.iter_mut().enumerate() {
                    *c = col(rows, |p| p.by_color[i]);
                }
            });
            s.spawn(|_| b.ep = col(rows, |p| p.ep));
            s.spawn(|_| b.key = col(rows, |p| p.key));
            s.spawn(|_| b.fullmove = col(rows, |p| p.fullmove));
            s.spawn(|_| b.side = col(rows, |p| p.side));
            s.spawn(|_| b.castling = col(rows, |p| p.castling));
            s.spawn(|_| b.halfmove = col(rows, |p| p.halfmove));
            s.spawn(|_| b.dice = col(rows, |p| p.dice));
        });
        b
    }

    /// Pieces by type, die-face order: `by_type()[t][row]`.
    #[inline]
    pub fn by_type(&self) -> [&[u64]; 6] {
        std::array::from_fn(|t| self.by_type[t].as_slice())
    }

    /// Pieces by colour, White first: `by_color()[c][row]`.
    #[inline]
    pub fn by_color(&self) -> [&[u64]; 2] {
        [&self.by_color[0], &self.by_color[1]]
    }

    /// E.p. target sets.
    #[inline]
    pub fn ep(&self) -> &[u64] {
        &self.ep
    }

    /// Zobrist keys.
    #[inline]
    pub fn key(&self) -> &[u64] {
        &self.key
    }

    /// Full-move numbers.
    #[inline]
    pub fn fullmove(&self) -> &[u32] {
        &self.fullmove
    }

    /// Side to move (0 White, 1 Black).
    #[inline]
    pub fn side(&self) -> &[u8] {
        &self.side
    }

    /// Castling rights (K = 1, Q = 2, k = 4, q = 8).
    #[inline]
    pub fn castling(&self) -> &[u8] {
        &self.castling
    }

    /// Half-move clocks.
    #[inline]
    pub fn halfmove(&self) -> &[u8] {
        &self.halfmove
    }

    /// Dice pools (faces ascending, 0 = empty slot).
    #[inline]
    pub fn dice(&self) -> &[[u8; 3]] {
        &self.dice
    }

    /// Bitboard of colour `c` and type `t` in row `i`.
    #[inline]
    pub fn piece_bb(&self, i: usize, c: Color, t: PieceType) -> Bitboard {
        Bitboard(self.by_color[c.index()][i] & self.by_type[t.index()][i])
    }

    /// Side to move of row `i`.
    #[inline]
    pub fn side_to_move(&self, i: usize) -> Color {
        Color::from_index(self.side[i] as usize)
    }
}

/// Rows of [`Position`]s as a `[rows, 12]` matrix of `u64` words without copying: a
/// `Position` is exactly 96 bytes (12 words: 6 type, 2 colour, e.p., key bitboards, then the
/// packed small fields).
pub fn rows_as_words(rows: &[Position]) -> ArrayView2<'_, u64> {
    let words: &[u64] = bytemuck::cast_slice(rows);
    ArrayView2::from_shape((rows.len(), 12), words).expect("96-byte rows are 12 words")
}

const _: () = assert!(std::mem::size_of::<Position>() == 96);
