//! Empty-board reach: the squares from which a piece can land on a target square within
//! `k` of its own moves, `k = 1..=3`.
//!
//! Occupancy only ever removes moves (a blocker stops a slider, an own piece stops a
//! landing), so the empty-board distance is a lower bound on the number of moves a piece
//! needs to land on a square in *any* position. A search that asks "can anything of mine land
//! on that king within three micro-moves?" prunes a whole subtree with a few table lookups
//! when the answer is no (two bare kings: no walk at all).
//!
//! What counts as a move, superset-wise: pawns push one or two squares from their start rank,
//! capture diagonally onto any square, and on the last rank turn into any of N, B, R, Q and
//! go on moving as that piece; leapers and sliders move as on an empty board. Castling (a
//! king move that also moves a rook) is not in the table; a caller that allows it adds the
//! castled squares itself. Landing *on* the target is a capture, so a pawn reaches it only
//! diagonally.
//!
//! Size and cost: 3 levels × 7 movers × 64 targets `u64` = 10,752 bytes, computed by the
//! compiler (`const fn`), so a lookup is one indexed load.

use crate::attacks::{KING_STEPS, KNIGHT_STEPS};
use crate::{Bitboard, Color, PieceType, Square};

/// Movers of the table: both pawn colours, then knight, bishop, rook, queen, king.
const MOVERS: usize = 7;
const WHITE_PAWN: usize = 0;
const BLACK_PAWN: usize = 1;
const KNIGHT: usize = 2;
const BISHOP: usize = 3;
const ROOK: usize = 4;
const QUEEN: usize = 5;
const KING: usize = 6;

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares reached from `sq` by `steps`, each taken once (`slide = false`) or repeatedly
/// over an empty board (`slide = true`).
const fn stepped(sq: usize, steps: &[(i8, i8)], slide: bool) -> u64 {
    let (f0, r0) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut out = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let (df, dr) = steps[i];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            out |= 1u64 << (r * 8 + f);
            if !slide {
                break;
            }
            f += df;
            r += dr;
        }
        i += 1;
    }
    out
}

/// Empty-board moves of a symmetric mover (knight, bishop, rook, queen, king) from `sq`.
const fn symmetric_moves(mover: usize, sq: usize) -> u64 {
    match mover {
        KNIGHT => stepped(sq, &KNIGHT_STEPS, false),
        BISHOP => stepped(sq, &DIAGONAL, true),
        ROOK => stepped(sq, &ORTHOGONAL, true),
        QUEEN => stepped(sq, &DIAGONAL, true) | stepped(sq, &ORTHOGONAL, true),
        KING => stepped(sq, &KING_STEPS, false),
        _ => 0,
    }
}

/// Squares a pawn (`white` or not) on `sq` can move to: pushes, the double push from its
/// start rank, and both diagonals.
const fn pawn_moves(white: bool, sq: usize) -> u64 {
    let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
    let (dir, start) = if white { (1i8, 1i8) } else { (-1i8, 6i8) };
    let nr = r + dir;
    if nr < 0 || nr > 7 {
        return 0;
    }
    let mut out = 1u64 << (nr * 8 + f);
    if r == start {
        out |= 1u64 << ((nr + dir) * 8 + f);
    }
    if f > 0 {
        out |= 1u64 << (nr * 8 + f - 1);
    }
    if f < 7 {
        out |= 1u64 << (nr * 8 + f + 1);
    }
    out
}

/// Squares from which a pawn lands on `target` in one move: a diagonal capture.
const fn pawn_captures_onto(white: bool, target: usize) -> u64 {
    let (f, r) = ((target % 8) as i8, (target / 8) as i8);
    let from = if white { r - 1 } else { r + 1 };
    if from < 0 || from > 7 {
        return 0;
    }
    let mut out = 0u64;
    if f > 0 {
        out |= 1u64 << (from * 8 + f - 1);
    }
    if f < 7 {
        out |= 1u64 << (from * 8 + f + 1);
    }
    out
}

const fn build() -> [[[u64; 64]; MOVERS]; 3] {
    let mut t = [[[0u64; 64]; MOVERS]; 3];
    // One move: the landing squares are exactly the capture squares.
    let mut target = 0;
    while target < 64 {
        t[0][WHITE_PAWN][target] = pawn_captures_onto(true, target);
        t[0][BLACK_PAWN][target] = pawn_captures_onto(false, target);
        let mut m = KNIGHT;
        while m < MOVERS {
            t[0][m][target] = symmetric_moves(m, target);
            m += 1;
        }
        target += 1;
    }
    // k + 1 moves: a first move onto a square that reaches in k (pawns: as the promoted
    // piece when that square is on the last rank).
    let mut k = 1;
    while k < 3 {
        let mut target = 0;
        while target < 64 {
            let mut m = 0;
            while m < MOVERS {
                let before = t[k - 1][m][target];
                let mut out = before;
                let mut sq = 0;
                while sq < 64 {
                    let bit = 1u64 << sq;
                    if out & bit == 0 {
                        let hit = if m == WHITE_PAWN || m == BLACK_PAWN {
                            let white = m == WHITE_PAWN;
                            let moves = pawn_moves(white, sq);
                            let last = if white { 0xFFu64 << 56 } else { 0xFF };
                            let promoted = t[k - 1][KNIGHT][target]
                                | t[k - 1][BISHOP][target]
                                | t[k - 1][ROOK][target]
                                | t[k - 1][QUEEN][target];
                            (moves & !last & before) | (moves & last & promoted)
                        } else {
                            symmetric_moves(m, sq) & before
                        };
                        if hit != 0 {
                            out |= bit;
                        }
                    }
                    sq += 1;
                }
                t[k][m][target] = out;
                m += 1;
            }
            target += 1;
        }
        k += 1;
    }
    t
}

/// `REACH[k - 1][mover][target]`: squares from which `mover` lands on `target` within `k`
/// of its own moves on an empty board.
static REACH: [[[u64; 64]; MOVERS]; 3] = build();

/// The squares from which a `piece` of `color` can land on `target` (capture it) within
/// `moves` of its own micro-moves, whatever else stands on the board — a superset of the
/// real set, from the empty-board geometry described in the module notes. `moves` is
/// clamped to 1..=3; castling is not included.
#[inline]
pub fn reach(color: Color, piece: PieceType, target: Square, moves: u8) -> Bitboard {
    let mover = match piece {
        PieceType::Pawn => color.index(),
        p => p.index() + 1,
    };
    let level = moves.clamp(1, 3) as usize - 1;
    Bitboard(REACH[level][mover][target.index()])
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// Breadth-first search over (square, mover) states with explicit move lists: the least
    /// number of moves landing on `target` (a pawn only diagonally), or `u8::MAX` beyond three.
    fn bfs_distance(color: Color, piece: PieceType, from: usize, target: usize) -> u8 {
        let mover = |p: PieceType| match p {
            PieceType::Pawn => color.index(),
            p => p.index() + 1,
        };
        let mut frontier: Vec<(usize, usize)> = std::vec![(from, mover(piece))];
        for depth in 1..=3u8 {
            let mut next = Vec::new();
            for &(sq, m) in &frontier {
                let pawn = m <= BLACK_PAWN;
                let moves = if pawn {
                    pawn_moves(m == WHITE_PAWN, sq)
                } else {
                    symmetric_moves(m, sq)
                };
                for to in Bitboard(moves) {
                    let to = to.index();
                    if to == target && (!pawn || to % 8 != sq % 8) {
                        return depth;
                    }
                    if pawn && (to / 8 == 7 || to / 8 == 0) {
                        for p in [
                            PieceType::Knight,
                            PieceType::Bishop,
                            PieceType::Rook,
                            PieceType::Queen,
                        ] {
                            next.push((to, mover(p)));
                        }
                    } else {
                        next.push((to, m));
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            frontier = next;
        }
        u8::MAX
    }

    #[test]
    fn table_matches_breadth_first_search() {
        for color in Color::ALL {
            for piece in PieceType::ALL {
                for target in 0..64 {
                    let sq = Square::from_index_masked(target as u32);
                    for from in 0..64 {
                        let d = bfs_distance(color, piece, from, target);
                        for k in 1..=3u8 {
                            let set = reach(color, piece, sq, k);
                            assert_eq!(
                                set.contains(Square::from_index_masked(from as u32)),
                                d <= k,
                                "{color:?} {piece:?} from {from} to {target} within {k} (bfs {d})"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn known_distances() {
        let sq = |n: &str| Square::from_name(n.as_bytes()).unwrap();
        // Two bare kings on e1 and e8 are seven king moves apart.
        assert!(!reach(Color::White, PieceType::King, sq("e8"), 3).contains(sq("e1")));
        assert!(reach(Color::White, PieceType::King, sq("e4"), 3).contains(sq("e1")));
        // A bishop never leaves its colour; a rook needs at most two moves.
        assert!(!reach(Color::White, PieceType::Bishop, sq("e8"), 3).contains(sq("a1")));
        assert!(reach(Color::White, PieceType::Rook, sq("e8"), 2).contains(sq("a1")));
        // A pawn on b7 promotes on b8 and captures e8 as a rook or queen: two moves.
        assert!(reach(Color::White, PieceType::Pawn, sq("e8"), 2).contains(sq("b7")));
        assert!(!reach(Color::White, PieceType::Pawn, sq("e8"), 1).contains(sq("b7")));
        // A pawn on e2 double-pushes and pushes (e4, e5), then takes on d6 or f6.
        assert!(reach(Color::White, PieceType::Pawn, sq("d6"), 3).contains(sq("e2")));
        assert!(!reach(Color::White, PieceType::Pawn, sq("d7"), 3).contains(sq("e2")));
        // Black pawns run the other way.
        assert!(reach(Color::Black, PieceType::Pawn, sq("d3"), 3).contains(sq("e7")));
        assert!(!reach(Color::Black, PieceType::Pawn, sq("d2"), 3).contains(sq("e7")));
        // ...but a pawn one step from promotion comes back as a queen: e2-e1=Q, Qe1-e6, Qxd6.
        assert!(reach(Color::Black, PieceType::Pawn, sq("d6"), 3).contains(sq("e2")));
    }
}
