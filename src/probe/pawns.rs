//! Passed pawns (docs/features.md §7): a pawn is passed when no enemy pawn stands on its file or an
//! adjacent file on any square ahead of it (standard chess definition). Front spans are
//! tables computed at compile time.

use crate::board::Position;
use dicechess_kernels::{Bitboard, Color, PieceType, Square};

/// The squares strictly ahead of a pawn of colour `color` on square `sq` (index
/// `color * 64 + sq`), on its file and the adjacent files.
const fn front_span_table() -> [u64; 128] {
    let mut t = [0u64; 128];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let lo = if file > 0 { file - 1 } else { 0 };
        let hi = if file < 7 { file + 1 } else { 7 };
        let mut files = 0u64;
        let mut f = lo;
        while f <= hi {
            files |= 0x0101_0101_0101_0101u64 << f;
            f += 1;
        }
        // Ranks above `rank` (White) and below it (Black).
        let above = if rank < 7 {
            !0u64 << ((rank + 1) * 8)
        } else {
            0
        };
        let below = (1u64 << (rank * 8)) - 1;
        t[sq] = files & above;
        t[64 + sq] = files & below;
        sq += 1;
    }
    t
}

static FRONT_SPANS: [u64; 128] = front_span_table();

/// The squares ahead of a pawn of `color` on `sq`, on its own and the adjacent files: the
/// squares where an enemy pawn stops it from being passed.
#[inline]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(FRONT_SPANS[color.index() * 64 + sq.index()])
}

/// `color`'s passed pawns.
#[inline]
pub fn passed_pawns(pos: &Position, color: Color) -> Bitboard {
    let enemy = pos.piece_bb(color.opponent(), PieceType::Pawn);
    let mut passed = Bitboard::EMPTY;
    for sq in pos.piece_bb(color, PieceType::Pawn) {
        if (front_span(color, sq) & enemy).is_empty() {
            passed = passed.with(sq);
        }
    }
    passed
}

/// A colour's passed pawns in summary (docs/features.md §7 columns 27–30).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PassedPawns {
    /// Number of passed pawns.
    pub count: u32,
    /// Advancement of the most advanced passed pawn from the own back rank — White `r − 1`,
    /// Black `8 − r` for rank `r` = 1..8 (1..6 for pawns on ordinary ranks) — or 0 if none.
    pub max_rank: u32,
    /// Where the passed pawns stand.
    pub squares: Bitboard,
}

impl PassedPawns {
    /// The passed pawns of `color`.
    #[inline]
    pub fn new(pos: &Position, color: Color) -> PassedPawns {
        let squares = passed_pawns(pos, color);
        let max_rank = match (color, squares.0) {
            (_, 0) => 0,
            (Color::White, b) => (63 - b.leading_zeros()) / 8,
            (Color::Black, b) => 7 - b.trailing_zeros() / 8,
        };
        PassedPawns {
            count: squares.count(),
            max_rank,
            squares,
        }
    }
}
