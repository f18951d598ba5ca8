//! Which endings have a table, how a position of one maps to its table's index, and back.
//!
//! A table covers one material balance, oriented so that White holds more pieces, or, with
//! one piece each, the stronger one (queen, rook, bishop, knight, pawn): a position the
//! other way round is read colour-flipped (docs/rules.md §7: the flip keeps every turn and
//! so every value for the side to move).
//!
//! **Up to three pieces** the index packs the side to move and the squares —
//! `stm · 2^(6n) + white king · 2^(6(n−1)) + black king · 2^(6(n−2)) + piece` — with no
//! symmetry folding: a 3-piece table is 2^19 entries, 1 MiB at two bytes each, small enough
//! that the simpler index is worth more than the 8× a fold would save.
//!
//! **Four pieces (no pawn)** are folded by the board's eight symmetries (rotations and
//! reflections keep every move of a king, queen, rook, bishop and knight, and a pawnless
//! table position has no castling rights): the white king stands in the triangle
//! a1–d1–d4 (10 squares), so the index is
//! `stm · 10 · 2^18 + triangle(white king) · 2^18 + black king · 2^12 + a · 2^6 + b`, with `a`
//! and `b` the two other pieces (White's stronger then weaker, or White's then Black's).
//! Of the symmetric images of a position, the one with the smallest index is its entry
//! (the others, and an image with the pieces `a`, `b` swapped when they are alike, stand for
//! no position). 5.2 M entries instead of 33.5 M: the turn graph of a 4-piece table fits in
//! this machine's memory (docs/tablebases.md has the sizes).
//!
//! **Four pieces with a pawn** keep only the file mirror (a pawn moves up the board, so no
//! rotation or rank reflection keeps its moves): the white king stands on the a–d files
//! (32 squares), so the index is
//! `stm · 32 · 2^18 + half(white king) · 2^18 + black king · 2^12 + a · 2^6 + b`, 16.8 M
//! entries, and a position is mirrored when its white king stands on the e–h files. The
//! mirror never fixes a position (no square is its own image), so each entry stands for
//! exactly two. With pawns of one side no e.p. capture can happen, so those tables ignore
//! e.p. targets.
//!
//! **KPvKP** is the one table where an e.p. capture can happen: after a double step, the
//! other side's pawn may take it during its whole next turn, even with a later die (it may
//! first walk up beside it). Its index doubles the pawn index with one bit, `ep ·
//! 2 · 32 · 2^18 + …`: set when the side to move's opponent has just double-stepped, so that
//! its pawn stands on its fourth rank and the square behind it, empty, is an e.p. target.
//! That bit is all the e.p. state a turn start can hold in this ending: targets expire at
//! the end of the turn after the one that made them, a side has one pawn, and a pawn that
//! moves on or is taken takes its target with it (docs/rules.md §4). A target whose square
//! is occupied (the king stepped onto it) cannot be used before it expires: bit 0.

use crate::board::Position;
use dicechess_kernels::{Color, PieceType, Square};

/// The endings with a table: the bare kings, every 3-piece ending and every 4-piece ending.
/// Names read White's pieces, then Black's: `Kqkr` is KQvKR.
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
    /// KQvKQ.
    Kqkq,
    /// KQvKR.
    Kqkr,
    /// KQvKB.
    Kqkb,
    /// KQvKN.
    Kqkn,
    /// KRvKR.
    Krkr,
    /// KRvKB.
    Krkb,
    /// KRvKN.
    Krkn,
    /// KBvKB.
    Kbkb,
    /// KBvKN.
    Kbkn,
    /// KNvKN.
    Knkn,
    /// KQQvK.
    Kqqk,
    /// KQRvK.
    Kqrk,
    /// KQBvK.
    Kqbk,
    /// KQNvK.
    Kqnk,
    /// KRRvK.
    Krrk,
    /// KRBvK.
    Krbk,
    /// KRNvK.
    Krnk,
    /// KBBvK.
    Kbbk,
    /// KBNvK.
    Kbnk,
    /// KNNvK.
    Knnk,
    /// KQvKP.
    Kqkp,
    /// KRvKP.
    Krkp,
    /// KBvKP.
    Kbkp,
    /// KNvKP.
    Knkp,
    /// KQPvK.
    Kqpk,
    /// KRPvK.
    Krpk,
    /// KBPvK.
    Kbpk,
    /// KNPvK.
    Knpk,
    /// KPPvK.
    Kppk,
    /// KPvKP: the one table that models e.p. targets (module documentation).
    Kpkp,
}

use PieceType::{Bishop as B, Knight as N, Pawn as P, Queen as Q, Rook as R};

/// Name, White's pieces besides the king (stronger first), Black's piece, by code.
const SPECS: [(&str, &[PieceType], Option<PieceType>); 36] = [
    ("KvK", &[], None),
    ("KQvK", &[Q], None),
    ("KRvK", &[R], None),
    ("KBvK", &[B], None),
    ("KNvK", &[N], None),
    ("KPvK", &[P], None),
    ("KQvKQ", &[Q], Some(Q)),
    ("KQvKR", &[Q], Some(R)),
    ("KQvKB", &[Q], Some(B)),
    ("KQvKN", &[Q], Some(N)),
    ("KRvKR", &[R], Some(R)),
    ("KRvKB", &[R], Some(B)),
    ("KRvKN", &[R], Some(N)),
    ("KBvKB", &[B], Some(B)),
    ("KBvKN", &[B], Some(N)),
    ("KNvKN", &[N], Some(N)),
    ("KQQvK", &[Q, Q], None),
    ("KQRvK", &[Q, R], None),
    ("KQBvK", &[Q, B], None),
    ("KQNvK", &[Q, N], None),
    ("KRRvK", &[R, R], None),
    ("KRBvK", &[R, B], None),
    ("KRNvK", &[R, N], None),
    ("KBBvK", &[B, B], None),
    ("KBNvK", &[B, N], None),
    ("KNNvK", &[N, N], None),
    ("KQvKP", &[Q], Some(P)),
    ("KRvKP", &[R], Some(P)),
    ("KBvKP", &[B], Some(P)),
    ("KNvKP", &[N], Some(P)),
    ("KQPvK", &[Q, P], None),
    ("KRPvK", &[R, P], None),
    ("KBPvK", &[B, P], None),
    ("KNPvK", &[N, P], None),
    ("KPPvK", &[P, P], None),
    ("KPvKP", &[P], Some(P)),
];

/// A piece's strength in the orientation rule: queen 4 down to pawn 0 (king 5, never asked).
const fn strength(p: PieceType) -> u8 {
    match p {
        PieceType::Queen => 4,
        PieceType::Rook => 3,
        PieceType::Bishop => 2,
        PieceType::Knight => 1,
        PieceType::Pawn => 0,
        PieceType::King => 5,
    }
}

/// `strength + 1` of a piece (0: none), as a lookup slot.
const fn slot(p: PieceType) -> usize {
    strength(p) as usize + 1
}

/// Material code by White's pieces (stronger, weaker) and Black's, as slots `w0 · 49 + w1 ·
/// 7 + b`; 255 where no table has the balance. Built from [`SPECS`], so the two agree.
const BY_PIECES: [u8; 343] = {
    let mut t = [255u8; 343];
    let mut code = 0;
    while code < SPECS.len() {
        let (_, white, black) = SPECS[code];
        let w0 = if !white.is_empty() { slot(white[0]) } else { 0 };
        let w1 = if white.len() > 1 { slot(white[1]) } else { 0 };
        let b = match black {
            Some(p) => slot(p),
            None => 0,
        };
        t[w0 * 49 + w1 * 7 + b] = code as u8;
        code += 1;
    }
    t
};

/// The squares of the white king's triangle a1–d1–d4, by triangle index.
const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// `square → triangle index`, 255 off the triangle.
const TRIANGLE_OF: [u8; 64] = {
    let mut t = [255u8; 64];
    let mut i = 0;
    while i < 10 {
        t[TRIANGLE[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Entries of a folded (4-piece) table.
const FOLDED_ENTRIES: usize = (2 * 10) << 18;

/// Square `sq` under symmetry `t` of the eight: bit 0 mirrors the files, bit 1 the ranks,
/// bit 2 then swaps file and rank (the a1–h8 diagonal).
#[inline]
const fn transform(sq: u8, t: u8) -> u8 {
    let (mut f, mut r) = (sq & 7, sq >> 3);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        (f << 3) | r
    } else {
        (r << 3) | f
    }
}

/// The entry of a 4-piece position: the smallest index over its symmetric images (and the
/// swap of `a` and `b` when `alike`). Squares: white king, black king, `a`, `b`.
fn folded_index(black_to_move: bool, [wk, bk, a, b]: [u8; 4], alike: bool) -> usize {
    let mut best = usize::MAX;
    for t in 0..8 {
        let k = TRIANGLE_OF[transform(wk, t) as usize];
        if k == 255 {
            continue;
        }
        let base = (usize::from(black_to_move) * 10 + k as usize) << 18
            | (transform(bk, t) as usize) << 12;
        let (ta, tb) = (transform(a, t) as usize, transform(b, t) as usize);
        best = best.min(base | ta << 6 | tb);
        if alike {
            best = best.min(base | tb << 6 | ta);
        }
    }
    best
}

/// Entries of a mirror-folded (4-piece, pawn) table.
const MIRROR_ENTRIES: usize = (2 * 32) << 18;

/// The entry of a 4-piece position with a pawn: mirrored across the board's middle file
/// when the white king stands on the e–h files, so that it stands on a–d; then the smaller
/// of the two orders of `a`, `b` when they are `alike`. Squares: white king, black king,
/// `a`, `b`.
fn mirror_index(black_to_move: bool, [wk, bk, a, b]: [u8; 4], alike: bool) -> usize {
    let t = u8::from(wk & 7 >= 4);
    let wk = transform(wk, t);
    let half = (wk >> 3) * 4 + (wk & 7);
    let base =
        (usize::from(black_to_move) * 32 + half as usize) << 18 | (transform(bk, t) as usize) << 12;
    let (ta, tb) = (transform(a, t) as usize, transform(b, t) as usize);
    let index = base | ta << 6 | tb;
    if alike {
        index.min(base | tb << 6 | ta)
    } else {
        index
    }
}

/// The side and squares of mirror-folded entry `index`, or `None` when it stands for no
/// position: out of range, two pieces on a square, a pawn (`pawns`: whether `a`, `b` are
/// pawns) on its first or last rank, or, with `alike` pieces, the larger of the two orders.
fn mirror_entry(index: usize, alike: bool, pawns: [bool; 2]) -> Option<(bool, [u8; 4])> {
    if index >= MIRROR_ENTRIES {
        return None;
    }
    let black = index >= MIRROR_ENTRIES / 2;
    let rest = index % (MIRROR_ENTRIES / 2);
    let half = (rest >> 18) as u8;
    let sq = [
        (half / 4) * 8 + half % 4,
        ((rest >> 12) & 63) as u8,
        ((rest >> 6) & 63) as u8,
        (rest & 63) as u8,
    ];
    let distinct = (0..4).all(|i| (i + 1..4).all(|j| sq[i] != sq[j]));
    let pawns_ok = !pawn_on_edge(pawns, sq[2], sq[3]);
    (distinct && pawns_ok && (!alike || sq[2] < sq[3])).then_some((black, sq))
}

/// Whether a pawn among `a`, `b` (`pawns` says which are pawns) stands on its first or last
/// rank, where no table position has one.
fn pawn_on_edge(pawns: [bool; 2], a: u8, b: u8) -> bool {
    let on_edge = |s: u8| matches!(s >> 3, 0 | 7);
    pawns[0] && on_edge(a) || pawns[1] && on_edge(b)
}

/// The square behind the pawn of the side *not* to move when that pawn stands on its fourth
/// rank (White's pawn `a` on rank 4 with Black to move, Black's `b` on rank 5 with White to
/// move): where a KPvKP turn start's e.p. target can be, occupied or not.
fn behind_double_step(black_to_move: bool, a: u8, b: u8) -> Option<u8> {
    if black_to_move {
        (a >> 3 == 3).then(|| a - 8)
    } else {
        (b >> 3 == 4).then(|| b + 8)
    }
}

/// The e.p. target a KPvKP turn start can hold (module documentation): the square
/// [`behind_double_step`] when nothing stands on it; `None` otherwise. Squares: white king,
/// black king, `a`, `b`.
fn fresh_target(black_to_move: bool, [wk, bk, a, b]: [u8; 4]) -> Option<u8> {
    let target = behind_double_step(black_to_move, a, b)?;
    (![wk, bk, a, b].contains(&target)).then_some(target)
}

/// The side and squares (white king, black king, `a`, `b`) of folded entry `index`, or
/// `None` when it stands for no position: out of range, two pieces on a square, or not the
/// smallest index of its position.
fn folded_entry(index: usize, alike: bool) -> Option<(bool, [u8; 4])> {
    if index >= FOLDED_ENTRIES {
        return None;
    }
    let black = index >= FOLDED_ENTRIES / 2;
    let rest = index % (FOLDED_ENTRIES / 2);
    let sq = [
        TRIANGLE[rest >> 18],
        ((rest >> 12) & 63) as u8,
        ((rest >> 6) & 63) as u8,
        (rest & 63) as u8,
    ];
    let distinct = (0..4).all(|i| (i + 1..4).all(|j| sq[i] != sq[j]));
    (distinct && folded_index(black, sq, alike) == index).then_some((black, sq))
}

impl Material {
    /// Every table, in the order they are solved: a table reads only tables before it (a
    /// captured piece leaves a smaller ending, a promoted pawn one of the piece endings).
    pub const ALL: [Material; 36] = [
        Material::Kk,
        Material::Kqk,
        Material::Krk,
        Material::Kbk,
        Material::Knk,
        Material::Kpk,
        Material::Kqkq,
        Material::Kqkr,
        Material::Kqkb,
        Material::Kqkn,
        Material::Krkr,
        Material::Krkb,
        Material::Krkn,
        Material::Kbkb,
        Material::Kbkn,
        Material::Knkn,
        Material::Kqqk,
        Material::Kqrk,
        Material::Kqbk,
        Material::Kqnk,
        Material::Krrk,
        Material::Krbk,
        Material::Krnk,
        Material::Kbbk,
        Material::Kbnk,
        Material::Knnk,
        Material::Kqkp,
        Material::Krkp,
        Material::Kbkp,
        Material::Knkp,
        Material::Kqpk,
        Material::Krpk,
        Material::Kbpk,
        Material::Knpk,
        Material::Kppk,
        Material::Kpkp,
    ];

    /// The tables of up to three pieces: a build of all six takes under a minute here.
    pub const UP_TO_THREE: [Material; 6] = [
        Material::Kk,
        Material::Kqk,
        Material::Krk,
        Material::Kbk,
        Material::Knk,
        Material::Kpk,
    ];

    /// The table's name: `KvK`, `KQvK`, `KQvKR`, …, as the ending is written.
    pub fn name(self) -> &'static str {
        SPECS[self as usize].0
    }

    /// The table named `name` (any case, `v` optional: `kqk`, `KQvK`, `kqkr`).
    pub fn from_name(name: &str) -> Option<Material> {
        let n: String = name.to_ascii_lowercase().replace('v', "");
        Material::ALL
            .into_iter()
            .find(|m| m.name().to_ascii_lowercase().replace('v', "") == n)
    }

    /// The tables a list names: comma-separated table names, `3` (every table of up to
    /// three pieces), `4` (every 4-piece table without a pawn), `4p` (every 4-piece table
    /// with a pawn) or `all`. The error names the first word that is none of these.
    pub fn parse_list(list: &str) -> Result<Vec<Material>, String> {
        let mut out = Vec::new();
        for word in list.split(',').map(str::trim) {
            match word {
                "all" => out.extend(Material::ALL),
                "3" => out.extend(Material::UP_TO_THREE),
                "4" => out.extend(
                    Material::ALL
                        .into_iter()
                        .filter(|m| m.pieces() == 4 && !m.has_pawn()),
                ),
                "4p" => out.extend(
                    Material::ALL
                        .into_iter()
                        .filter(|m| m.pieces() == 4 && m.has_pawn()),
                ),
                _ => out.push(Material::from_name(word).ok_or_else(|| {
                    format!(
                        "unknown table {word:?} (a name such as kqk or KRvKN, 3 for every \
                         table up to three pieces, 4 for every 4-piece table without a pawn, \
                         4p for every one with a pawn, or all)"
                    )
                })?),
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// The code of this table in a file header (docs/tablebases.md).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The table of header code `code`.
    pub fn from_code(code: u8) -> Option<Material> {
        Material::ALL.get(code as usize).copied()
    }

    /// White's pieces besides the king, the stronger first.
    pub fn white_pieces(self) -> &'static [PieceType] {
        SPECS[self as usize].1
    }

    /// Black's piece besides the king.
    pub fn black_piece(self) -> Option<PieceType> {
        SPECS[self as usize].2
    }

    /// White's extra piece of a table of up to three pieces, `None` for the bare kings (and
    /// the first of White's pieces in a 4-piece table).
    pub fn extra(self) -> Option<PieceType> {
        self.white_pieces().first().copied()
    }

    /// Pieces on the board, kings included: 2, 3 or 4.
    pub fn pieces(self) -> u32 {
        2 + self.white_pieces().len() as u32 + u32::from(self.black_piece().is_some())
    }

    /// Whether the index is folded by a symmetry of the board (the 4-piece tables).
    fn folded(self) -> bool {
        self.pieces() == 4
    }

    /// Whether the table has a pawn: its 4-piece index folds only the file mirror.
    pub fn has_pawn(self) -> bool {
        self.white_pieces().contains(&P) || self.black_piece() == Some(P)
    }

    /// Whether the pieces `a` and `b` of a 4-piece entry are pawns.
    fn pawns(self) -> [bool; 2] {
        let w = self.white_pieces();
        let b = self.black_piece().or(w.get(1).copied());
        [w.first() == Some(&P), b == Some(P)]
    }

    /// Whether the index carries the e.p. bit (KPvKP, module documentation).
    fn has_ep_bit(self) -> bool {
        self == Material::Kpkp
    }

    /// The side and squares (white king, black king, `a`, `b`) of 4-piece entry `index`,
    /// and the e.p. target of a KPvKP entry with its bit set.
    fn folded_entry(self, index: usize) -> Option<(bool, [u8; 4], Option<u8>)> {
        if self.has_ep_bit() {
            let (bit, rest) = (index / MIRROR_ENTRIES, index % MIRROR_ENTRIES);
            let (black, sq) = mirror_entry(rest, false, self.pawns())?;
            return match bit {
                0 => Some((black, sq, None)),
                1 => Some((black, sq, Some(fresh_target(black, sq)?))),
                _ => None,
            };
        }
        let entry = if self.has_pawn() {
            mirror_entry(index, self.alike(), self.pawns())
        } else {
            folded_entry(index, self.alike())
        };
        entry.map(|(black, sq)| (black, sq, None))
    }

    /// Whether the two non-king pieces of a 4-piece table are alike (KQQvK): then the
    /// entry does not tell them apart.
    fn alike(self) -> bool {
        matches!(self.white_pieces(), [x, y] if x == y)
    }

    /// The table of this material balance, oriented as the tables are (module
    /// documentation), and whether that took a colour flip; `None` when no table has it.
    pub fn of_pieces(white: &[PieceType], black: &[PieceType]) -> Option<(Material, bool)> {
        let best = |s: &[PieceType]| s.iter().map(|&p| slot(p)).max().unwrap_or(0);
        let flipped =
            black.len() > white.len() || (black.len() == white.len() && best(black) > best(white));
        let (w, b) = if flipped {
            (black, white)
        } else {
            (white, black)
        };
        let (mut w0, mut w1) = match w {
            [] => (0, 0),
            [x] => (slot(*x), 0),
            [x, y] => (slot(*x), slot(*y)),
            _ => return None,
        };
        if w1 > w0 {
            std::mem::swap(&mut w0, &mut w1);
        }
        let b = match b {
            [] => 0,
            [x] => slot(*x),
            _ => return None,
        };
        let code = BY_PIECES.get(w0 * 49 + w1 * 7 + b).copied()?;
        Material::from_code(code).map(|m| (m, flipped))
    }

    /// The tables this one reads while it is solved: the endings a capture leaves and those
    /// a promotion makes (each before this one in [`Material::ALL`]).
    pub fn reads(self) -> Vec<Material> {
        let white = self.white_pieces();
        let black: Vec<PieceType> = self.black_piece().into_iter().collect();
        let mut out = Vec::new();
        for i in 0..white.len() {
            let mut w = white.to_vec();
            let p = w.remove(i);
            out.extend(Material::of_pieces(&w, &black).map(|(m, _)| m));
            if p == PieceType::Pawn {
                for promoted in [Q, R, B, N] {
                    w.insert(i, promoted);
                    out.extend(Material::of_pieces(&w, &black).map(|(m, _)| m));
                    w.remove(i);
                }
            }
        }
        if !black.is_empty() {
            out.extend(Material::of_pieces(white, &[]).map(|(m, _)| m));
        }
        if black == [P] {
            for promoted in [Q, R, B, N] {
                out.extend(Material::of_pieces(white, &[promoted]).map(|(m, _)| m));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Entries of the table (valid or not): `2 · 64^pieces` up to three pieces,
    /// `2 · 10 · 64³` for a 4-piece table without a pawn, `2 · 32 · 64³` with one, twice
    /// that for KPvKP (its e.p. bit).
    pub fn entries(self) -> usize {
        if self.has_ep_bit() {
            2 * MIRROR_ENTRIES
        } else if self.folded() && self.has_pawn() {
            MIRROR_ENTRIES
        } else if self.folded() {
            FOLDED_ENTRIES
        } else {
            2usize << (6 * self.pieces())
        }
    }

    /// Whether entry `index` stands for a position (the checks of [`Material::position`]
    /// without building it).
    pub fn is_entry(self, index: usize) -> bool {
        if self.folded() {
            return self.folded_entry(index).is_some();
        }
        if index >= self.entries() {
            return false;
        }
        let n = self.pieces();
        let sq = |k: u32| (index >> (6 * (n - 1 - k))) & 63;
        if sq(0) == sq(1) {
            return false;
        }
        match self.extra() {
            None => true,
            Some(piece) => {
                let x = sq(2);
                x != sq(0) && x != sq(1) && !(piece == PieceType::Pawn && matches!(x / 8, 0 | 7))
            }
        }
    }

    /// The position of entry `index`, or `None` when the entry stands for no position (two
    /// pieces on one square, a pawn on its first or last rank, a folded entry that is not
    /// its position's smallest, a KPvKP e.p. bit without its double step). The position has
    /// no rights, no dice and zero clocks, and no e.p. targets but a KPvKP entry's.
    pub fn position(self, index: usize) -> Option<Position> {
        if !self.is_entry(index) {
            return None;
        }
        let mut p = Position::empty();
        let sq = |i: u8| Square::from_index_masked(u32::from(i));
        let black_to_move = if self.folded() {
            let (black, [wk, bk, a, b], target) = self.folded_entry(index)?;
            if let Some(t) = target {
                p.set_ep(1u64 << t);
            }
            p.put(Color::White, PieceType::King, sq(wk));
            p.put(Color::Black, PieceType::King, sq(bk));
            let white = self.white_pieces();
            p.put(Color::White, white[0], sq(a));
            match self.black_piece() {
                Some(piece) => p.put(Color::Black, piece, sq(b)),
                None => p.put(Color::White, white[1], sq(b)),
            }
            black
        } else {
            let n = self.pieces();
            let at = |k: u32| ((index >> (6 * (n - 1 - k))) & 63) as u8;
            p.put(Color::White, PieceType::King, sq(at(0)));
            p.put(Color::Black, PieceType::King, sq(at(1)));
            if let Some(piece) = self.extra() {
                p.put(Color::White, piece, sq(at(2)));
            }
            index >> (6 * n) != 0
        };
        p.set_side(if black_to_move {
            Color::Black
        } else {
            Color::White
        });
        Some(p)
    }
}

/// Where a position is found: its table and entry. `flipped` says the position was read
/// colour-flipped (its stronger side is Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Locator {
    /// The table.
    pub material: Material,
    /// The entry in the table.
    pub index: usize,
    /// Whether the entry is the colour flip of the position.
    pub flipped: bool,
}

/// The table entry of `pos`, or `None` when no table holds it: more than four pieces, a
/// side without its king, castling rights left (a castling turn is not in the tables), a
/// pawn on its first or last rank, or, in KPvKP, an e.p. set that no turn start of the game
/// holds (a target other than the one behind the opponent's fresh double step). Elsewhere
/// e.p. targets are ignored, as no other table has pawns on both sides; dice and clocks are
/// ignored everywhere: the tables value a position before its roll, and the half-move clock
/// is not modelled (docs/tablebases.md, "What a value means").
pub fn locate(pos: &Position) -> Option<Locator> {
    let occupied = pos.occupied();
    let count = occupied.count();
    if count > 4 || pos.castling().0 != 0 {
        return None;
    }
    let kings = pos.pieces(PieceType::King);
    if (kings & pos.color(Color::White)).count() != 1
        || (kings & pos.color(Color::Black)).count() != 1
    {
        return None;
    }
    let mut types = [[PieceType::King; 2]; 2];
    let mut counts = [0usize; 2];
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for sq in pos.color(color) & !kings {
            types[c][counts[c]] = pos.type_at(sq)?;
            counts[c] += 1;
        }
    }
    let (material, flipped) = Material::of_pieces(&types[0][..counts[0]], &types[1][..counts[1]])?;
    let oriented = if flipped { pos.flip_colors() } else { *pos };
    let white = oriented.color(Color::White);
    let black = oriented.color(Color::Black);
    let kings = oriented.pieces(PieceType::King);
    let wk = (kings & white).first()?.index();
    let bk = (kings & black).first()?.index();
    let black_to_move = oriented.side_to_move() == Color::Black;
    if material.folded() {
        // `a`: White's (stronger) piece; `b`: Black's piece or White's other one.
        let pieces = material.white_pieces();
        let strong = oriented.pieces(pieces[0]) & white;
        let a = strong.first()?;
        let b = match material.black_piece() {
            Some(_) => (black & !kings).first()?,
            None => (white & !kings).without(a).first()?,
        };
        let squares = [wk as u8, bk as u8, a.to_u8(), b.to_u8()];
        let index = if material.has_pawn() {
            if pawn_on_edge(material.pawns(), squares[2], squares[3]) {
                return None;
            }
            let index = mirror_index(black_to_move, squares, material.alike());
            if material.has_ep_bit() {
                index + MIRROR_ENTRIES * ep_bit(&oriented, black_to_move, squares)?
            } else {
                index
            }
        } else {
            folded_index(black_to_move, squares, material.alike())
        };
        return Some(Locator {
            material,
            index,
            flipped,
        });
    }
    let n = material.pieces();
    let mut index = (usize::from(black_to_move) << (6 * n)) | wk << (6 * (n - 1));
    index |= bk << (6 * (n - 2));
    if let Some(sq) = (white & !kings).first() {
        if material == Material::Kpk && matches!(sq.index() / 8, 0 | 7) {
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

/// The e.p. bit of a KPvKP position (oriented; squares: white king, black king, white pawn,
/// black pawn): 1 when its only target is the usable one behind the opponent's fresh double
/// step, 0 when it has none or that target is occupied, `None` for any other set.
fn ep_bit(pos: &Position, black_to_move: bool, [wk, bk, a, b]: [u8; 4]) -> Option<usize> {
    let set = pos.ep_targets().0;
    if set == 0 {
        return Some(0);
    }
    // The target behind the double step, usable (empty) or not.
    let behind = behind_double_step(black_to_move, a, b)?;
    if set != 1u64 << behind {
        return None;
    }
    Some(usize::from(
        fresh_target(black_to_move, [wk, bk, a, b]).is_some(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pos` under symmetry `t`, built piece by piece (not through the index).
    fn image(pos: &Position, t: u8) -> Position {
        let mut p = Position::empty();
        for color in [Color::White, Color::Black] {
            for sq in pos.color(color) {
                let to = Square::from_index_masked(u32::from(transform(sq.to_u8(), t)));
                p.put(color, pos.type_at(sq).expect("occupied"), to);
            }
        }
        let ep = pos.ep_targets().into_iter();
        p.set_ep(ep.fold(0, |set, sq| set | 1u64 << transform(sq.to_u8(), t)));
        p.set_side(pos.side_to_move());
        p
    }

    #[test]
    fn every_valid_entry_locates_back_to_itself() {
        for m in Material::UP_TO_THREE {
            let mut valid = 0usize;
            for i in 0..m.entries() {
                assert_eq!(m.is_entry(i), m.position(i).is_some());
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

    /// A folded table holds each position exactly once: every symmetric image (and the
    /// colour flip) of an entry's position locates to that entry, and the orbits of the
    /// entries, counted image by image, add up to every placement of the pieces.
    #[test]
    fn folded_entries_are_the_orbits_of_the_board_symmetries() {
        for m in [Material::Kqkr, Material::Kqqk, Material::Knkn] {
            let mut placements = 0usize;
            for i in 0..m.entries() {
                assert_eq!(m.is_entry(i), m.position(i).is_some());
                let Some(p) = m.position(i) else { continue };
                let mut orbit: Vec<Position> = (0..8).map(|t| image(&p, t)).collect();
                orbit.sort_by_key(|q| q.key());
                orbit.dedup();
                placements += orbit.len();
                for q in &orbit {
                    let l = locate(q).expect("an image locates");
                    assert_eq!(
                        (l.material, l.index, l.flipped),
                        (m, i, false),
                        "{}",
                        m.name()
                    );
                }
                let f = locate(&image(&p.flip_colors(), 5)).expect("the flip locates");
                assert_eq!(f.material, m);
                if m != Material::Knkn {
                    assert_eq!((f.index, f.flipped), (i, true));
                }
            }
            // Sides to move × king squares × the other two pieces' squares.
            let mut expected = 2 * 64 * 63 * 62 * 61;
            if m.alike() {
                expected /= 2;
            }
            assert_eq!(placements, expected, "{}", m.name());
        }
    }

    /// A pawn table folds only the file mirror: an entry's position and its mirror image
    /// (and the colour flip) locate to that entry, and the entries, two positions each, add
    /// up to every placement with the pawns off their first and last ranks (and, in KPvKP,
    /// to every fresh double step with its target).
    #[test]
    fn mirror_entries_pair_each_position_with_its_mirror_image() {
        for m in [Material::Kqkp, Material::Kppk, Material::Kpkp] {
            let mut placements = 0usize;
            for i in 0..m.entries() {
                assert_eq!(m.is_entry(i), m.position(i).is_some());
                let Some(p) = m.position(i) else { continue };
                let mirror = image(&p, 1);
                assert_ne!(mirror.key(), p.key(), "a king is never on the mirror line");
                placements += 2;
                for q in [p, mirror] {
                    let l = locate(&q).expect("an image locates");
                    assert_eq!(
                        (l.material, l.index, l.flipped),
                        (m, i, false),
                        "{}",
                        m.name()
                    );
                    let flip = q.flip_colors();
                    let f = locate(&flip).expect("the flip locates");
                    if m == Material::Kpkp {
                        // Its own colour flip: another entry, holding the flip or its mirror.
                        assert_eq!((f.material, f.flipped), (m, false));
                        let at = m.position(f.index).expect("a valid entry").key();
                        assert!(at == flip.key() || at == image(&flip, 1).key());
                    } else {
                        assert_eq!(
                            (f.material, f.index, f.flipped),
                            (m, i, true),
                            "{}",
                            m.name()
                        );
                    }
                }
            }
            // Sides to move × pawn squares (ranks 2–7) × the other pieces' squares; KPvKP's
            // double steps: sides × the pawn on its fourth rank × the other pawn off it and
            // the target × the kings off the three.
            let expected = match m {
                Material::Kppk => 2 * (48 * 47 / 2) * 62 * 61,
                Material::Kpkp => 2 * 48 * 47 * 62 * 61 + 2 * 8 * 46 * 61 * 60,
                _ => 2 * 48 * 63 * 62 * 61,
            };
            assert_eq!(placements, expected, "{}", m.name());
        }
        // A pawn on its last rank is in no table.
        let pos = Position::from_dfen("4k3/8/8/8/8/8/8/3QK2p w - - 0 1").expect("valid DFEN");
        assert_eq!(locate(&pos), None);
    }

    #[test]
    fn names_and_codes_round_trip() {
        for m in Material::ALL {
            assert_eq!(Material::from_name(m.name()), Some(m));
            assert_eq!(Material::from_code(m.code()), Some(m));
            assert!(
                m.reads().iter().all(|&r| r < m),
                "{} reads a later table",
                m.name()
            );
        }
        assert_eq!(Material::from_name("kqk"), Some(Material::Kqk));
        assert_eq!(Material::from_name("KRRvK"), Some(Material::Krrk));
        assert_eq!(Material::from_name("KRvKQ"), None);
        assert_eq!(Material::from_name("KPvKP"), Some(Material::Kpkp));
        assert_eq!(Material::from_name("KPPvKP"), None);
        assert_eq!(Material::from_code(36), None);
        assert_eq!(Material::Kpk.reads(), Material::UP_TO_THREE[..5].to_vec());
        assert_eq!(Material::Kqkr.reads(), vec![Material::Kqk, Material::Krk]);
        assert_eq!(Material::Krnk.reads(), vec![Material::Krk, Material::Knk]);
        assert_eq!(
            Material::parse_list("3, krkn,KRvKN").expect("valid"),
            [&Material::UP_TO_THREE[..], &[Material::Krkn]].concat()
        );
        assert_eq!(Material::parse_list("4").expect("valid").len(), 20);
        assert_eq!(Material::parse_list("4p").expect("valid").len(), 10);
        assert_eq!(Material::parse_list("all").expect("valid").len(), 36);
        let e = Material::parse_list("kqk,kppkp").expect_err("no 5-piece table");
        assert!(e.contains("\"kppkp\""), "{e}");
        assert_eq!(
            Material::Kpkp.reads(),
            vec![
                Material::Kpk,
                Material::Kqkp,
                Material::Krkp,
                Material::Kbkp,
                Material::Knkp
            ]
        );
        assert_eq!(
            Material::Knkp.reads(),
            vec![
                Material::Knk,
                Material::Kpk,
                Material::Kqkn,
                Material::Krkn,
                Material::Kbkn,
                Material::Knkn
            ]
        );
        assert_eq!(
            Material::Kppk.reads(),
            vec![
                Material::Kpk,
                Material::Kqpk,
                Material::Krpk,
                Material::Kbpk,
                Material::Knpk
            ]
        );
    }

    #[test]
    fn positions_outside_the_tables_are_not_located() {
        let cases = [
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", None),
            ("4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1", Some(Material::Kqrk)),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", None),
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", Some(Material::Krk)),
            ("4k3/8/8/8/8/8/P7/RQ2K3 w - - 0 1", None),
            ("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", Some(Material::Krkp)),
            ("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", Some(Material::Kpkp)),
            ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", Some(Material::Kpkp)),
            // A target no turn start holds: not the one behind White's fresh double step.
            ("4k3/8/8/8/3Pp3/8/8/4K3 b - e3 0 1", None),
            ("4k3/8/8/8/3Pp3/8/8/4K3 w - d3 0 1", None),
            ("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1", Some(Material::Kpk)),
            ("4k3/8/8/8/8/8/PP6/4K3 b - - 0 1", Some(Material::Kppk)),
            ("4k3/8/8/8/8/8/1P6/4K2N w - - 0 1", Some(Material::Knpk)),
            ("4k3/8/8/8/8/8/1p6/4K2N w - - 0 1", Some(Material::Knkp)),
            ("3qk3/8/8/8/8/8/8/R3K3 b - - 0 1", Some(Material::Kqkr)),
        ];
        for (dfen, want) in cases {
            let pos = Position::from_dfen(dfen).expect("valid DFEN");
            assert_eq!(locate(&pos).map(|l| l.material), want, "{dfen}");
        }
    }

    /// KPvKP's e.p. bit: set by a usable target behind a fresh double step, clear with none
    /// or with the king standing on it (the same entry as no target), and the entry's
    /// position carries the target back.
    #[test]
    fn kpkp_entries_carry_the_fresh_double_step() {
        let at = |dfen: &str| {
            let pos = Position::from_dfen(dfen).expect("valid DFEN");
            locate(&pos).expect("a KPvKP position").index
        };
        let with = at("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
        let without = at("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1");
        assert_eq!(with, without + MIRROR_ENTRIES);
        let p = Material::Kpkp.position(with).expect("a valid entry");
        // The entry's position is the mirror image (its white king on the a–d files).
        assert_eq!(p.to_dfen(), "3k4/8/8/8/3pP3/8/8/3K4 b - e3 0 1");
        assert_eq!(
            at("4k3/8/8/8/3Pp3/3K4/8/8 b - d3 0 1"),
            at("4k3/8/8/8/3Pp3/3K4/8/8 b - - 0 1")
        );
        // Black's fresh double step, White to move, mirrored (white king on the h file).
        let black_step = at("4k3/8/8/3pP3/8/8/8/7K w - d6 0 1");
        assert!(black_step >= MIRROR_ENTRIES);
        let p = Material::Kpkp.position(black_step).expect("a valid entry");
        assert_eq!(p.to_dfen(), "3k4/8/8/3Pp3/8/8/8/K7 w - e6 0 1");
    }
}
