//! Pseudo-legal moves of the piece types in a mask, emitted set-wise (docs/rules.md §4).
//!
//! The generator answers exactly the die-face query: "moves of these types" → one
//! [`PieceMoves`] entry per piece (type, origin, destination set) in a fixed-capacity
//! [`MoveList`]; entries are ordered by type (die-face order) then origin square, and
//! [`MoveList::for_each`] expands them into [`MicroMove`]s in the order of docs/rules.md §4.
//! There is no check in Dice Chess, so pseudo-legal moves are the moves.

use super::{MicroMove, MoveKind};
use crate::board::{ep_capture_rank, Castling, Position};
use dicechess_kernels::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    Bitboard, Color, PieceType, Square,
};
use std::mem::MaybeUninit;
use std::ops::ControlFlow;

/// Castling flag of a king entry: king side (king e→g).
pub const CASTLE_KING_SIDE: u8 = 1;
/// Castling flag of a king entry: queen side (king e→c).
pub const CASTLE_QUEEN_SIDE: u8 = 2;

/// The moves of one piece: its type, origin and destination set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The piece's type.
    pub piece: PieceType,
    /// Where it stands.
    pub from: Square,
    /// Where it can go (pawns: pushes, double push, captures and e.p. targets; kings: plain
    /// king moves only — castling is in `castles`).
    pub to: Bitboard,
    /// For a king on its home square: [`CASTLE_KING_SIDE`] | [`CASTLE_QUEEN_SIDE`].
    pub castles: u8,
}

/// Capacity of a [`MoveList`]: one entry per own piece, and there are at most 64 pieces.
pub const MOVE_LIST_CAPACITY: usize = 64;

/// A fixed-capacity list of [`PieceMoves`]; no heap.
///
/// The slots are left uninitialised until pushed: zero-filling 64 entries (1 KiB) on every
/// fresh list cost ~45 ns, more than generating the start position's moves (measured with
/// `benches/movegen.rs`: 121 → 74 ns on the start position).
#[derive(Clone, Copy)]
pub struct MoveList {
    len: usize,
    items: [MaybeUninit<PieceMoves>; MOVE_LIST_CAPACITY],
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.entries()).finish()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; MOVE_LIST_CAPACITY],
        }
    }
}

impl MoveList {
    /// The entries, in generation order.
    #[inline]
    pub fn entries(&self) -> &[PieceMoves] {
        // SAFETY: `push` is the only writer; it initialises `items[len]` before raising
        // `len`, so `items[..len]` are initialised `PieceMoves` (a `Copy` type with no
        // invalid bit patterns among written values), and `MaybeUninit<T>` has `T`'s layout.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<PieceMoves>(), self.len) }
    }

    /// Whether no piece has a move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Append an entry (e.g. to expand one piece's moves on their own); ignored when full.
    #[inline]
    pub fn push_entry(&mut self, e: PieceMoves) {
        self.push(e);
    }

    #[inline]
    fn push(&mut self, e: PieceMoves) {
        // At most one entry per own piece, and a board holds at most 64 pieces.
        debug_assert!(self.len < MOVE_LIST_CAPACITY);
        if self.len < MOVE_LIST_CAPACITY {
            self.items[self.len] = MaybeUninit::new(e);
            self.len += 1;
        }
    }

    /// Number of micro-moves the entries expand to (each promotion counts 4, each castling 1,
    /// a pawn capturing a king on the last rank 1).
    pub fn count(&self, pos: &Position) -> usize {
        let us = pos.side_to_move();
        let last = Bitboard::rank(us.promotion_rank());
        let their_kings = pos.piece_bb(us.opponent(), PieceType::King);
        let mut n = 0usize;
        for e in self.entries() {
            n += e.to.count() as usize + e.castles.count_ones() as usize;
            if e.piece == PieceType::Pawn {
                n += 3 * (e.to & last & !their_kings).count() as usize;
            }
        }
        n
    }

    /// Expand into micro-moves in docs/rules.md §4 order, stopping when `f` breaks.
    #[inline]
    pub fn try_for_each<B>(
        &self,
        pos: &Position,
        mut f: impl FnMut(MicroMove) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        for e in self.entries() {
            if e.piece == PieceType::Pawn {
                pawn_moves(pos, e, &mut f)?;
            } else {
                for to in e.to {
                    f(MicroMove {
                        piece: e.piece,
                        from: e.from,
                        to,
                        kind: MoveKind::Normal,
                    })?;
                }
            }
        }
        // Castling comes after every plain king move (docs/rules.md §4: "for kings the king steps, then
        // king-side, then queen-side castling"); kings are the last type, so this is the end.
        if let Some(e) = self.entries().iter().rev().find(|e| e.castles != 0) {
            castle_moves(e, &mut f)?;
        }
        ControlFlow::Continue(())
    }

    /// Expand into micro-moves in docs/rules.md §4 order.
    #[inline]
    pub fn for_each(&self, pos: &Position, mut f: impl FnMut(MicroMove)) {
        let _ = self.try_for_each::<()>(pos, |m| {
            f(m);
            ControlFlow::Continue(())
        });
    }

    /// The expanded micro-moves as a vector (convenience; the hot paths use `for_each`).
    pub fn to_vec(&self, pos: &Position) -> Vec<MicroMove> {
        let mut v = Vec::with_capacity(self.count(pos));
        self.for_each(pos, |m| v.push(m));
        v
    }
}

fn castle_moves<B>(
    e: &PieceMoves,
    f: &mut impl FnMut(MicroMove) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let rank_base = e.from.to_u8() & 56;
    for (flag, file) in [(CASTLE_KING_SIDE, 6u8), (CASTLE_QUEEN_SIDE, 2u8)] {
        if e.castles & flag != 0 {
            f(MicroMove {
                piece: PieceType::King,
                from: e.from,
                to: Square::from_index_masked((rank_base + file) as u32),
                kind: MoveKind::Castle,
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// A pawn push or capture onto `to`: the four promotions on the last rank (unless it
/// captures a king there), else one plain move.
#[inline(always)]
fn pawn_advance<B>(
    from: Square,
    to: Square,
    promote: bool,
    f: &mut impl FnMut(MicroMove) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mv = |kind| MicroMove {
        piece: PieceType::Pawn,
        from,
        to,
        kind,
    };
    if promote {
        for p in PieceType::PROMOTIONS {
            f(mv(MoveKind::Promotion(p)))?;
        }
        ControlFlow::Continue(())
    } else {
        f(mv(MoveKind::Normal))
    }
}

/// One pawn's moves in docs/rules.md §4 order: push (or its four promotions), double push,
/// capture towards h, capture towards a, then e.p. captures (towards h first).
#[inline]
fn pawn_moves<B>(
    pos: &Position,
    e: &PieceMoves,
    f: &mut impl FnMut(MicroMove) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let us = pos.side_to_move();
    let from = e.from;
    let fwd: i32 = if us == Color::White { 8 } else { -8 };
    let occupied = pos.occupied();
    let promoting =
        Bitboard::rank(us.promotion_rank()) & !pos.piece_bb(us.opponent(), PieceType::King);
    let at = |delta: i32| Square::from_index_masked((from.to_u8() as i32 + delta) as u32);
    // `e.to` only holds on-board squares of this pawn, so a member test needs no bounds
    // check beyond the file edge for diagonals.
    let push = at(fwd);
    let has_push = e.to.contains(push) && push.file() == from.file();
    if has_push {
        pawn_advance(from, push, promoting.contains(push), f)?;
        let double = at(2 * fwd);
        if e.to.contains(double) && double.file() == from.file() {
            f(MicroMove {
                piece: PieceType::Pawn,
                from,
                to: double,
                kind: MoveKind::DoublePush,
            })?;
        }
    }
    let file = from.file();
    let diagonals = [(file < 7, at(fwd + 1)), (file > 0, at(fwd - 1))];
    for (on_board, t) in diagonals {
        if on_board && e.to.contains(t) && occupied.contains(t) {
            pawn_advance(from, t, promoting.contains(t), f)?;
        }
    }
    for (on_board, t) in diagonals {
        if on_board && e.to.contains(t) && !occupied.contains(t) {
            f(MicroMove {
                piece: PieceType::Pawn,
                from,
                to: t,
                kind: MoveKind::EnPassant,
            })?;
        }
    }
    ControlFlow::Continue(())
}

/// Pseudo-legal moves of the side to move for the piece types in `type_mask` (bit
/// `face − 1`). `castling` adds castling flags to a king on its home square when the right
/// is held, the own rook stands in the corner and the squares between are empty (attacked
/// squares do not matter); the turn generator passes "a Rook die is in the pool".
pub fn generate(pos: &Position, type_mask: u8, castling: bool) -> MoveList {
    let mut list = MoveList::default();
    generate_into(pos, type_mask, castling, &mut list);
    list
}

/// [`generate`] into a caller's list (cleared first).
pub fn generate_into(pos: &Position, type_mask: u8, castling: bool, list: &mut MoveList) {
    list.len = 0;
    let us = pos.side_to_move();
    let own = pos.color(us);
    let them = pos.color(us.opponent());
    let occ = own | them;
    if type_mask & PieceType::Pawn.mask_bit() != 0 {
        pawn_entries(pos, us, occ, them, list);
    }
    for piece in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ] {
        if type_mask & piece.mask_bit() == 0 {
            continue;
        }
        for from in pos.piece_bb(us, piece) {
            let (to, castles) = match piece {
                PieceType::Knight => (knight_attacks(from) & !own, 0),
                PieceType::Bishop => (bishop_attacks(from, occ) & !own, 0),
                PieceType::Rook => (rook_attacks(from, occ) & !own, 0),
                PieceType::Queen => (queen_attacks(from, occ) & !own, 0),
                _ => {
                    let c = if castling {
                        castle_flags(pos, us, from, occ)
                    } else {
                        0
                    };
                    (king_attacks(from) & !own, c)
                }
            };
            if to.any() || castles != 0 {
                list.push(PieceMoves {
                    piece,
                    from,
                    to,
                    castles,
                });
            }
        }
    }
}

/// The squares the `pawns` of `us` reach by a single push and by a double push (onto empty
/// squares, a double push from the pawn's second rank over an empty square), set-wise.
#[inline]
pub(crate) fn pawn_pushes(us: Color, pawns: Bitboard, empty: Bitboard) -> (Bitboard, Bitboard) {
    match us {
        Color::White => {
            let single = pawns.north() & empty;
            (single, (single & Bitboard::rank(2)).north() & empty)
        }
        Color::Black => {
            let single = pawns.south() & empty;
            (single, (single & Bitboard::rank(5)).south() & empty)
        }
    }
}

/// The squares a pawn of `us` may capture on: the enemy pieces `them`, and the e.p. targets
/// of `pos` on the rank where `us` can take them (empty squares).
#[inline]
pub(crate) fn pawn_capture_targets(
    pos: &Position,
    us: Color,
    them: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    them | (pos.ep_targets() & ep_capture_rank(us) & empty)
}

/// The targets of the pawn of `us` on `from`, read from the set-wise pushes of all pawns
/// (`single`, `double`, from [`pawn_pushes`]) and the squares pawns may capture on
/// (`captures`, from [`pawn_capture_targets`]).
#[inline(always)]
pub(crate) fn pawn_targets_from(
    us: Color,
    from: Square,
    single: Bitboard,
    double: Bitboard,
    captures: Bitboard,
) -> Bitboard {
    let b = Bitboard::from_square(from);
    let (push, two) = match us {
        Color::White => (b.north(), b.north().north()),
        Color::Black => (b.south(), b.south().south()),
    };
    (single & push) | (double & two) | (pawn_attacks(us, from) & captures)
}

/// Every pawn's entry: pushes and double pushes computed for all pawns at once with shifts,
/// then split per pawn (the list needs one entry per origin).
#[inline]
fn pawn_entries(pos: &Position, us: Color, occ: Bitboard, them: Bitboard, list: &mut MoveList) {
    let pawns = pos.piece_bb(us, PieceType::Pawn);
    let empty = !occ;
    let (single, double) = pawn_pushes(us, pawns, empty);
    let targets = pawn_capture_targets(pos, us, them, empty);
    for from in pawns {
        let to = pawn_targets_from(us, from, single, double, targets);
        if to.any() {
            list.push(PieceMoves {
                piece: PieceType::Pawn,
                from,
                to,
                castles: 0,
            });
        }
    }
}

#[inline]
fn castle_flags(pos: &Position, us: Color, from: Square, occ: Bitboard) -> u8 {
    let base = us.back_rank() * 8;
    if from.to_u8() != base + 4 {
        return 0;
    }
    let rights = pos.castling();
    let (k_bit, q_bit) = match us {
        Color::White => (Castling::WHITE_KING, Castling::WHITE_QUEEN),
        Color::Black => (Castling::BLACK_KING, Castling::BLACK_QUEEN),
    };
    let rooks = pos.piece_bb(us, PieceType::Rook);
    let mut flags = 0;
    if rights.has(k_bit)
        && rooks.0 & (1u64 << (base + 7)) != 0
        && occ.0 & (0b11u64 << (base + 5)) == 0
    {
        flags |= CASTLE_KING_SIDE;
    }
    if rights.has(q_bit) && rooks.0 & (1u64 << base) != 0 && occ.0 & (0b111u64 << (base + 1)) == 0 {
        flags |= CASTLE_QUEEN_SIDE;
    }
    flags
}
