//! Which endings have a table, how a position of one maps to its table's index, and back.
//!
//! A table covers one material balance with the lone extra piece (if any) on White's side:
//! a position where Black holds it is read colour-flipped (docs/rules.md §7: the flip keeps
//! every turn and so every value for the side to move). The index packs the side to move and
//! the squares — `stm · 2^(6n) + white king · 2^(6(n−1)) + black king · 2^(6(n−2)) + piece` —
//! with no symmetry folding: a 3-piece table is 2^19 entries, 1 MiB at two bytes each, small
//! enough that the simpler index is worth more than the 8× a file mirror would save.

use crate::board::Position;
use dicechess_kernels::{Color, PieceType, Square};

/// The endings with a table: the bare kings and every 3-piece ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Material {
    /// King against king.
    Kk,
    /// King and queen against king.
    Kqk,
    /// King and rook against king.
    Krk,
    /// King and bishop against king.
    Kbk,
    /// King and knight against king.
    Knk,
    /// King and pawn against king.
    Kpk,
}

impl Material {
    /// Every table, in the order they are solved: a table reads only tables before it (a
    /// captured piece leaves the bare kings, a promoted pawn one of the four piece endings).
    pub const ALL: [Material; 6] = [
        Material::Kk,
        Material::Kqk,
        Material::Krk,
        Material::Kbk,
        Material::Knk,
        Material::Kpk,
    ];

    /// The table's name: `KvK`, `KQvK`, …, as the ending is written.
    pub fn name(self) -> &'static str {
        match self {
            Material::Kk => "KvK",
            Material::Kqk => "KQvK",
            Material::Krk => "KRvK",
            Material::Kbk => "KBvK",
            Material::Knk => "KNvK",
            Material::Kpk => "KPvK",
        }
    }

    /// The table named `name` (any case, `v` optional: `kqk`, `KQvK`).
    pub fn from_name(name: &str) -> Option<Material> {
        let n: String = name.to_ascii_lowercase().replace('v', "");
        Material::ALL
            .into_iter()
            .find(|m| m.name().to_ascii_lowercase().replace('v', "") == n)
    }

    /// The code of this table in a file header (docs/tablebases.md).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The table of header code `code`.
    pub fn from_code(code: u8) -> Option<Material> {
        Material::ALL.get(code as usize).copied()
    }

    /// White's extra piece, `None` for the bare kings.
    pub fn extra(self) -> Option<PieceType> {
        match self {
            Material::Kk => None,
            Material::Kqk => Some(PieceType::Queen),
            Material::Krk => Some(PieceType::Rook),
            Material::Kbk => Some(PieceType::Bishop),
            Material::Knk => Some(PieceType::Knight),
            Material::Kpk => Some(PieceType::Pawn),
        }
    }

    /// The table of the extra piece `piece` (`None` for a king).
    fn with_extra(piece: Option<PieceType>) -> Option<Material> {
        Some(match piece {
            None => Material::Kk,
            Some(PieceType::Queen) => Material::Kqk,
            Some(PieceType::Rook) => Material::Krk,
            Some(PieceType::Bishop) => Material::Kbk,
            Some(PieceType::Knight) => Material::Knk,
            Some(PieceType::Pawn) => Material::Kpk,
            Some(PieceType::King) => return None,
        })
    }

    /// Squares per entry beyond the side to move.
    fn pieces(self) -> u32 {
        if self == Material::Kk {
            2
        } else {
            3
        }
    }

    /// Entries of the table (valid or not): `2 · 64^pieces`.
    pub fn entries(self) -> usize {
        2usize << (6 * self.pieces())
    }

    /// The position of entry `index`, or `None` when the entry stands for no position (two
    /// pieces on one square, a pawn on its first or last rank). White's pieces are
    /// White's; the position has no rights, no e.p. targets, no dice and zero clocks.
    pub fn position(self, index: usize) -> Option<Position> {
        if index >= self.entries() {
            return None;
        }
        let n = self.pieces();
        let sq = |k: u32| Square::from_index_masked((index >> (6 * (n - 1 - k))) as u32);
        let side = if index >> (6 * n) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (wk, bk) = (sq(0), sq(1));
        if wk == bk {
            return None;
        }
        let mut p = Position::empty();
        p.put(Color::White, PieceType::King, wk);
        p.put(Color::Black, PieceType::King, bk);
        if let Some(piece) = self.extra() {
            let x = sq(2);
            if x == wk || x == bk {
                return None;
            }
            if piece == PieceType::Pawn && matches!(x.index() / 8, 0 | 7) {
                return None;
            }
            p.put(Color::White, piece, x);
        }
        p.set_side(side);
        Some(p)
    }
}

/// Where a position is found: its table and entry. `flipped` says the position was read
/// colour-flipped (its extra piece is Black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locator {
    /// The table.
    pub material: Material,
    /// The entry in the table.
    pub index: usize,
    /// Whether the entry is the colour flip of the position.
    pub flipped: bool,
}

/// The table entry of `pos`, or `None` when no table holds it: more than three pieces, a
/// side without its king, castling rights left (a castling turn is not in the tables), or
/// a pawn on its first or last rank. E.p. targets, dice and clocks are ignored: no table has
/// a pawn that could capture en passant, the tables value a position before its roll, and
/// the half-move clock is not modelled (docs/tablebases.md, "What a value means").
pub fn locate(pos: &Position) -> Option<Locator> {
    let occupied = pos.occupied();
    if occupied.count() > 3 || pos.castling().0 != 0 {
        return None;
    }
    let kings = pos.pieces(PieceType::King);
    let white = pos.color(Color::White);
    let black = pos.color(Color::Black);
    if (kings & white).count() != 1 || (kings & black).count() != 1 {
        return None;
    }
    let (oriented, flipped) = if black.count() > white.count() {
        (pos.flip_colors(), true)
    } else {
        (*pos, false)
    };
    let white = oriented.color(Color::White);
    let kings = oriented.pieces(PieceType::King);
    let wk = (kings & white).first()?;
    let bk = (kings & oriented.color(Color::Black)).first()?;
    let extra = (white & !kings).first();
    let piece = match extra {
        Some(sq) => Some(oriented.type_at(sq)?),
        None => None,
    };
    let material = Material::with_extra(piece)?;
    let n = material.pieces();
    let stm = usize::from(oriented.side_to_move() == Color::Black);
    let mut index = (stm << (6 * n)) | wk.index() << (6 * (n - 1));
    index |= bk.index() << (6 * (n - 2));
    if let Some(sq) = extra {
        if piece == Some(PieceType::Pawn) && matches!(sq.index() / 8, 0 | 7) {
            return None;
        }
        index |= sq.index();
    }
    Some(Locator {
        material,
        index,
        flipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_valid_entry_locates_back_to_itself() {
        for m in Material::ALL {
            let mut valid = 0usize;
            for i in 0..m.entries() {
                if let Some(p) = m.position(i) {
                    valid += 1;
                    let l = locate(&p).expect("a table position locates");
                    assert_eq!((l.material, l.index, l.flipped), (m, i, false));
                    let f = locate(&p.flip_colors()).expect("its flip locates");
                    assert_eq!(f.material, m);
                    if m != Material::Kk {
                        // The flip of the bare kings is another entry of the same table.
                        assert_eq!((f.index, f.flipped), (i, true));
                    }
                }
            }
            let expected = match m {
                Material::Kk => 2 * 64 * 63,
                Material::Kpk => 2 * 48 * 63 * 62,
                _ => 2 * 64 * 63 * 62,
            };
            assert_eq!(valid, expected, "{}", m.name());
        }
    }

    #[test]
    fn names_and_codes_round_trip() {
        for m in Material::ALL {
            assert_eq!(Material::from_name(m.name()), Some(m));
            assert_eq!(Material::from_code(m.code()), Some(m));
        }
        assert_eq!(Material::from_name("kqk"), Some(Material::Kqk));
        assert_eq!(Material::from_name("KRRvK"), None);
        assert_eq!(Material::from_code(6), None);
    }

    #[test]
    fn positions_outside_the_tables_are_not_located() {
        let cases = [
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            "4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        ];
        let located: Vec<bool> = cases
            .iter()
            .map(|d| locate(&Position::from_dfen(d).expect("valid DFEN")).is_some())
            .collect();
        assert_eq!(located, [false, false, false, true]);
    }
}
