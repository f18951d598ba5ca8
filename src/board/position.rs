//! `Position`: one row of the engine, a `bytemuck::Pod` value.

use super::{zobrist, Castling, Dice};
use bytemuck::{Pod, Zeroable};
use dicechess_kernels::{attackers_of, Bitboard, Color, Occupancy, PieceType, Square};

/// One position — a flat, 96-byte, `#[repr(C)]` row (docs/architecture.md "Data model").
///
/// Copy-make: every micro-move returns a new row; there is no unmake and no heap. The
/// Zobrist key is kept up to date incrementally by every method that changes the row.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Pod, Zeroable)]
pub struct Position {
    pub(crate) by_type: [u64; 6],
    pub(crate) by_color: [u64; 2],
    pub(crate) ep: u64,
    pub(crate) key: u64,
    pub(crate) fullmove: u32,
    pub(crate) side: u8,
    pub(crate) castling: u8,
    pub(crate) halfmove: u8,
    pub(crate) dice: [u8; 3],
    pub(crate) _pad: [u8; 6],
}

impl Default for Position {
    fn default() -> Self {
        Position::empty()
    }
}

impl Position {
    /// An empty board, White to move, no rights, clocks 0 and 1, no dice.
    pub fn empty() -> Position {
        let mut p = Position {
            by_type: [0; 6],
            by_color: [0; 2],
            ep: 0,
            key: 0,
            fullmove: 1,
            side: 0,
            castling: 0,
            halfmove: 0,
            dice: [0; 3],
            _pad: [0; 6],
        };
        p.key = p.compute_key();
        p
    }

    /// The standard initial position, no dice.
    pub fn startpos() -> Position {
        super::dfen::parse(super::dfen::START_FEN).expect("the start FEN is valid")
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        Color::from_index(self.side as usize)
    }

    /// Pieces of a type, both colours.
    #[inline]
    pub fn pieces(&self, piece: PieceType) -> Bitboard {
        Bitboard(self.by_type[piece.index()])
    }

    /// Pieces of a colour.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    /// Pieces of a colour and type.
    #[inline]
    pub fn piece_bb(&self, color: Color, piece: PieceType) -> Bitboard {
        Bitboard(self.by_color[color.index()] & self.by_type[piece.index()])
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
    }

    /// The six type bitboards and two colour bitboards, for attack queries.
    #[inline]
    pub fn occupancy(&self) -> Occupancy<'_> {
        Occupancy {
            by_type: &self.by_type,
            by_color: &self.by_color,
        }
    }

    /// What stands on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, PieceType)> {
        let bit = 1u64 << sq.index();
        let color = if self.by_color[0] & bit != 0 {
            Color::White
        } else if self.by_color[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let t = self.by_type.iter().position(|&b| b & bit != 0)?;
        Some((color, PieceType::from_index(t)?))
    }

    /// The type on `sq`, if any (colour not checked).
    #[inline]
    pub fn type_at(&self, sq: Square) -> Option<PieceType> {
        let bit = 1u64 << sq.index();
        PieceType::from_index(self.by_type.iter().position(|&b| b & bit != 0)?)
    }

    /// Castling rights.
    #[inline]
    pub fn castling(&self) -> Castling {
        Castling(self.castling)
    }

    /// The e.p. target set (docs/rules.md §4: a set, not one square).
    #[inline]
    pub fn ep_targets(&self) -> Bitboard {
        Bitboard(self.ep)
    }

    /// The Zobrist key (docs/rules.md §7).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The half-move clock (micro-moves since a pawn move or capture, saturating at 127).
    #[inline]
    pub fn halfmove(&self) -> u8 {
        self.halfmove
    }

    /// The full-move number.
    #[inline]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The dice pool still to spend this turn.
    #[inline]
    pub fn dice(&self) -> Dice {
        // Every constructor and copy-make step keeps the slots canonical, so no re-check
        // here: re-validating on each call cost ~35 % of turn enumeration (perf, Kiwipete).
        Dice::from_canonical_slots(self.dice)
    }

    /// The same position with another dice pool (the key follows).
    #[inline]
    pub fn with_dice(mut self, dice: Dice) -> Position {
        self.set_dice(dice);
        self
    }

    /// Replace the dice pool in place (key updated).
    #[inline]
    pub(crate) fn set_dice(&mut self, dice: Dice) {
        // Most calls keep the pool (an empty one at the end of a turn, or a die the pool does
        // not hold in a shared walk): the two table lookups cost 11 % of `expand_all_rolls`
        // (callgrind, start position) when done anyway.
        if dice.slots() == self.dice {
            return;
        }
        self.key ^= zobrist::dice(self.dice()) ^ zobrist::dice(dice);
        self.dice = dice.slots();
    }

    /// The same position with `color` to move (the key follows); nothing else changes — no
    /// end of turn. For analysis "as if `color` were to move".
    #[inline]
    pub fn with_side_to_move(mut self, color: Color) -> Position {
        self.set_side(color);
        self
    }

    /// The pieces of `attacker` that attack `target` (geometric; docs/rules.md §6).
    #[inline]
    pub fn attackers(&self, target: Square, attacker: Color) -> Bitboard {
        attackers_of(self.occupancy(), target, attacker)
    }

    /// The Zobrist key recomputed from scratch (docs/rules.md §7); equals [`Position::key`].
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for color in Color::ALL {
            for piece in PieceType::ALL {
                for sq in self.piece_bb(color, piece) {
                    k ^= zobrist::piece(color, piece, sq);
                }
            }
        }
        if self.side_to_move() == Color::Black {
            k ^= zobrist::side();
        }
        k ^ zobrist::castling(self.castling)
            ^ zobrist::ep_set(self.ep_targets())
            ^ zobrist::dice(self.dice())
    }

    /// Put a piece on an empty square (key updated). Callers guarantee `sq` is empty.
    #[inline]
    pub(crate) fn put(&mut self, color: Color, piece: PieceType, sq: Square) {
        let bit = 1u64 << sq.index();
        self.by_color[color.index()] |= bit;
        self.by_type[piece.index()] |= bit;
        self.key ^= zobrist::piece(color, piece, sq);
    }

    /// Remove a known piece from `sq` (key updated).
    #[inline]
    pub(crate) fn remove(&mut self, color: Color, piece: PieceType, sq: Square) {
        let bit = 1u64 << sq.index();
        self.by_color[color.index()] &= !bit;
        self.by_type[piece.index()] &= !bit;
        self.key ^= zobrist::piece(color, piece, sq);
    }

    /// Replace the e.p. set (key updated).
    #[inline]
    pub(crate) fn set_ep(&mut self, ep: u64) {
        let changed = self.ep ^ ep;
        if changed != 0 {
            self.key ^= zobrist::ep_set(Bitboard(changed));
            self.ep = ep;
        }
    }

    /// Replace the castling rights (key updated).
    #[inline]
    pub(crate) fn set_castling(&mut self, rights: u8) {
        if rights != self.castling {
            self.key ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
            self.castling = rights;
        }
    }

    /// Replace the side to move (key updated).
    #[inline]
    pub(crate) fn set_side(&mut self, color: Color) {
        if color.index() as u8 != self.side {
            self.key ^= zobrist::side();
            self.side = color.index() as u8;
        }
    }
}
