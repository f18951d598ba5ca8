//! Slow, obviously-correct reference implementation of the Dice Chess rules
//! (docs/rules.md §1–5 and §7), written square by square on a mailbox
//! board with direction offsets and explicit file/rank bounds checks.
//!
//! It shares no types with the engine: every entry point takes and returns
//! strings (DFEN, UCI), so integration tests can compare the two
//! implementations without one depending on the other. Inputs are assumed
//! valid (tests only): malformed input panics.
//!
//! Findings that docs/rules.md leaves open and that this file settles:
//! * Zobrist dice index (§7): the pool's faces (1..=6) are sorted ascending
//!   and the missing slots of a pool with fewer than 3 dice are filled with 0
//!   at the *front* (the high-order digits), i.e. the index is the base-7
//!   number of the sorted faces read as digits: one die `c` gives index `c`,
//!   two dice `b <= c` give `b*7 + c`, three dice `a <= b <= c` give
//!   `a*49 + b*7 + c`, empty gives 0. Established against the 1- and 2-dice
//!   mid-turn cases of tests/data/position_keys.json (the other
//!   placement, empty slots at the back, fails them).
//! * Two e.p. captures available to the same pawn (possible because the e.p.
//!   field is a set) are generated like ordinary captures: towards h first,
//!   then towards a.
//! * With several kings of one colour, castling moves are listed after the
//!   plain moves of all kings (king-side, then queen-side).
//! * A pawn capturing a king on its last rank stays a pawn on that square.

#![allow(dead_code)]

/// Side colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Color {
    White,
    Black,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Piece type; the die face that moves it is `face()`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Piece {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Piece {
    fn face(self) -> u8 {
        match self {
            Piece::Pawn => 1,
            Piece::Knight => 2,
            Piece::Bishop => 3,
            Piece::Rook => 4,
            Piece::Queen => 5,
            Piece::King => 6,
        }
    }

    fn from_face(face: u8) -> Piece {
        match face {
            1 => Piece::Pawn,
            2 => Piece::Knight,
            3 => Piece::Bishop,
            4 => Piece::Rook,
            5 => Piece::Queen,
            6 => Piece::King,
            _ => panic!("bad face {face}"),
        }
    }

    fn letter(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    fn from_letter(c: char) -> Piece {
        match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => panic!("bad piece letter {c:?}"),
        }
    }
}

/// Castling right indices into `RefPos::castling`.
const WK: usize = 0;
const WQ: usize = 1;
const BK: usize = 2;
const BQ: usize = 3;

/// A position: mailbox board plus the DFEN state fields.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    /// Square index = 8 * rank + file (a1 = 0, h8 = 63).
    pub board: [Option<(Color, Piece)>; 64],
    pub side: Color,
    /// [K, Q, k, q]
    pub castling: [bool; 4],
    /// En-passant target set.
    pub ep: [bool; 64],
    pub halfmove: u32,
    pub fullmove: u64,
    /// Dice pool faces 1..=6, kept sorted ascending.
    pub dice: Vec<u8>,
}

fn file_of(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank_of(sq: usize) -> i32 {
    (sq / 8) as i32
}

/// Square at (file, rank) if on the board.
fn square_at(file: i32, rank: i32) -> Option<usize> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

/// Square displaced by (df, dr) from `sq`, if on the board.
fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    square_at(file_of(sq) + df, rank_of(sq) + dr)
}

fn square_name(sq: usize) -> String {
    let f = (b'a' + (sq % 8) as u8) as char;
    let r = (b'1' + (sq / 8) as u8) as char;
    format!("{f}{r}")
}

fn parse_square(s: &str) -> usize {
    let b = s.as_bytes();
    assert_eq!(b.len(), 2, "bad square {s:?}");
    let f = i32::from(b[0]) - i32::from(b'a');
    let r = i32::from(b[1]) - i32::from(b'1');
    square_at(f, r).unwrap_or_else(|| panic!("bad square {s:?}"))
}

/// Parse a DFEN (docs/rules.md §3; you may assume valid input and panic otherwise — tests only).
pub fn parse(dfen: &str) -> RefPos {
    let fields: Vec<&str> = dfen.split(' ').collect();
    assert!(
        (4..=7).contains(&fields.len()),
        "bad field count in {dfen:?}"
    );

    let mut board: [Option<(Color, Piece)>; 64] = [None; 64];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(ranks.len(), 8, "bad placement {:?}", fields[0]);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as i32;
        let mut file = 0i32;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                assert!((1..=8).contains(&d), "bad digit in placement");
                file += d as i32;
            } else {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = square_at(file, rank).expect("rank too wide");
                board[sq] = Some((color, Piece::from_letter(c)));
                file += 1;
            }
        }
        assert_eq!(file, 8, "bad rank width in {rank_text:?}");
    }

    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => panic!("bad side {other:?}"),
    };

    let mut castling = [false; 4];
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let idx = match c {
                'K' => WK,
                'Q' => WQ,
                'k' => BK,
                'q' => BQ,
                _ => panic!("bad castling {c:?}"),
            };
            assert!(!castling[idx], "duplicate castling letter");
            castling[idx] = true;
        }
    }

    let mut ep = [false; 64];
    if fields[3] != "-" {
        for chunk in fields[3].as_bytes().chunks(2) {
            // parse_square panics on an odd trailing character.
            let sq = parse_square(std::str::from_utf8(chunk).expect("ascii"));
            assert!(!ep[sq], "duplicate e.p. square");
            ep[sq] = true;
        }
    }

    let halfmove: u32 = if fields.len() > 4 {
        fields[4].parse().expect("bad halfmove")
    } else {
        0
    };
    assert!(halfmove <= 127, "halfmove out of range");
    let fullmove: u64 = if fields.len() > 5 {
        fields[5].parse().expect("bad fullmove")
    } else {
        1
    };
    assert!(
        (1..=2_147_483_647).contains(&fullmove),
        "fullmove out of range"
    );

    let mut dice = Vec::new();
    if fields.len() > 6 && fields[6] != "-" {
        for c in fields[6].chars() {
            dice.push(Piece::from_letter(c).face());
        }
        assert!(dice.len() <= 3, "too many dice");
    }
    dice.sort_unstable();

    RefPos {
        board,
        side,
        castling,
        ep,
        halfmove,
        fullmove,
        dice,
    }
}

/// Canonical DFEN of a position (docs/rules.md §3, the "how the engine writes it" column: run-length placement, castling in KQkq order or '-', e.p. squares ascending by index concatenated or '-', halfmove, fullmove, dice omitted when empty else faces ascending P<N<B<R<Q<K, upper-case if White to move, lower-case if Black).
pub fn write(p: &RefPos) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = square_at(file, rank).unwrap();
            match p.board[sq] {
                None => empty += 1,
                Some((color, piece)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = piece.letter();
                    s.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }

    s.push(' ');
    s.push(if p.side == Color::White { 'w' } else { 'b' });

    s.push(' ');
    let mut cast = String::new();
    for (idx, letter) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
        if p.castling[idx] {
            cast.push(letter);
        }
    }
    if cast.is_empty() {
        cast.push('-');
    }
    s.push_str(&cast);

    s.push(' ');
    let mut ep = String::new();
    for (sq, &on) in p.ep.iter().enumerate() {
        if on {
            ep.push_str(&square_name(sq));
        }
    }
    if ep.is_empty() {
        ep.push('-');
    }
    s.push_str(&ep);

    s.push_str(&format!(" {} {}", p.halfmove, p.fullmove));

    if !p.dice.is_empty() {
        let mut faces = p.dice.clone();
        faces.sort_unstable();
        s.push(' ');
        for f in faces {
            let c = Piece::from_face(f).letter();
            s.push(if p.side == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    s
}

/// Kind of a micro-move, as far as applying it differs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Normal,
    DoublePush,
    EnPassant,
    CastleKing,
    CastleQueen,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Move {
    from: usize,
    to: usize,
    promo: Option<Piece>,
    kind: Kind,
}

impl Move {
    fn uci(&self) -> String {
        let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
        if let Some(p) = self.promo {
            s.push(p.letter());
        }
        s
    }

    /// Dice the move spends: castling a King and a Rook die, else one die of
    /// the moving piece's type.
    fn cost(&self) -> usize {
        match self.kind {
            Kind::CastleKing | Kind::CastleQueen => 2,
            _ => 1,
        }
    }
}

const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Destinations of a leaper (knight/king) or slider on `sq`, not holding an
/// own piece, sorted ascending.
fn piece_targets(p: &RefPos, sq: usize, piece: Piece, us: Color) -> Vec<usize> {
    let mut out = Vec::new();
    let leap = |steps: &[(i32, i32)], out: &mut Vec<usize>| {
        for &(df, dr) in steps {
            if let Some(to) = offset(sq, df, dr) {
                match p.board[to] {
                    Some((c, _)) if c == us => {}
                    _ => out.push(to),
                }
            }
        }
    };
    let slide = |dirs: &[(i32, i32)], out: &mut Vec<usize>| {
        for &(df, dr) in dirs {
            let mut cur = sq;
            while let Some(to) = offset(cur, df, dr) {
                match p.board[to] {
                    None => out.push(to),
                    Some((c, _)) => {
                        if c != us {
                            out.push(to);
                        }
                        break;
                    }
                }
                cur = to;
            }
        }
    };
    match piece {
        Piece::Knight => leap(&KNIGHT_STEPS, &mut out),
        Piece::King => leap(&KING_STEPS, &mut out),
        Piece::Bishop => slide(&BISHOP_DIRS, &mut out),
        Piece::Rook => slide(&ROOK_DIRS, &mut out),
        Piece::Queen => {
            slide(&BISHOP_DIRS, &mut out);
            slide(&ROOK_DIRS, &mut out);
        }
        Piece::Pawn => unreachable!(),
    }
    out.sort_unstable();
    out
}

/// Pawn moves of the pawn on `sq`, in docs/rules.md §4 order: push (or its four
/// promotions), double push, captures towards h, captures towards a, then
/// e.p. captures (towards h, then towards a).
fn pawn_moves(p: &RefPos, sq: usize, us: Color, out: &mut Vec<Move>) {
    let (dir, start_rank, last_rank, ep_rank) = match us {
        Color::White => (1, 1, 7, 5),
        Color::Black => (-1, 6, 0, 2),
    };
    let promos = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    // Push, possibly promoting.
    if let Some(to) = offset(sq, 0, dir) {
        if p.board[to].is_none() {
            if rank_of(to) == last_rank {
                for pr in promos {
                    out.push(Move {
                        from: sq,
                        to,
                        promo: Some(pr),
                        kind: Kind::Normal,
                    });
                }
            } else {
                out.push(Move {
                    from: sq,
                    to,
                    promo: None,
                    kind: Kind::Normal,
                });
            }
            // Double push from the start rank through two empty squares.
            if rank_of(sq) == start_rank {
                if let Some(to2) = offset(sq, 0, 2 * dir) {
                    if p.board[to2].is_none() {
                        out.push(Move {
                            from: sq,
                            to: to2,
                            promo: None,
                            kind: Kind::DoublePush,
                        });
                    }
                }
            }
        }
    }

    // Captures: towards h (file + 1), then towards a (file - 1).
    for df in [1, -1] {
        if let Some(to) = offset(sq, df, dir) {
            if let Some((c, victim)) = p.board[to] {
                if c != us {
                    if rank_of(to) == last_rank && victim != Piece::King {
                        for pr in promos {
                            out.push(Move {
                                from: sq,
                                to,
                                promo: Some(pr),
                                kind: Kind::Normal,
                            });
                        }
                    } else {
                        out.push(Move {
                            from: sq,
                            to,
                            promo: None,
                            kind: Kind::Normal,
                        });
                    }
                }
            }
        }
    }

    // En passant: a target in the set, on rank 6 (White) / 3 (Black), empty,
    // diagonally in front.
    for df in [1, -1] {
        if let Some(to) = offset(sq, df, dir) {
            if p.ep[to] && rank_of(to) == ep_rank && p.board[to].is_none() {
                out.push(Move {
                    from: sq,
                    to,
                    promo: None,
                    kind: Kind::EnPassant,
                });
            }
        }
    }
}

/// Castling moves for `us` (king-side, then queen-side), ignoring dice.
fn castling_moves(p: &RefPos, us: Color, out: &mut Vec<Move>) {
    let (base, rk, rq) = match us {
        Color::White => (0usize, WK, WQ),
        Color::Black => (56usize, BK, BQ),
    };
    let own = |sq: usize, piece: Piece| p.board[sq] == Some((us, piece));
    let empty = |sq: usize| p.board[sq].is_none();
    let e = base + 4;
    if p.castling[rk]
        && own(e, Piece::King)
        && own(base + 7, Piece::Rook)
        && empty(base + 5)
        && empty(base + 6)
    {
        out.push(Move {
            from: e,
            to: base + 6,
            promo: None,
            kind: Kind::CastleKing,
        });
    }
    if p.castling[rq]
        && own(e, Piece::King)
        && own(base, Piece::Rook)
        && empty(base + 1)
        && empty(base + 2)
        && empty(base + 3)
    {
        out.push(Move {
            from: e,
            to: base + 2,
            promo: None,
            kind: Kind::CastleQueen,
        });
    }
}

/// Pseudo-legal moves of one piece type for the side to move, in docs/rules.md §4
/// order (pieces by ascending square, destinations ascending; pawns and kings
/// as described there). Castling is appended for the king when `castle`.
fn gen_type(p: &RefPos, piece: Piece, castle: bool) -> Vec<Move> {
    let us = p.side;
    let mut out = Vec::new();
    for sq in 0..64usize {
        if p.board[sq] != Some((us, piece)) {
            continue;
        }
        if piece == Piece::Pawn {
            pawn_moves(p, sq, us, &mut out);
        } else {
            for to in piece_targets(p, sq, piece, us) {
                out.push(Move {
                    from: sq,
                    to,
                    promo: None,
                    kind: Kind::Normal,
                });
            }
        }
    }
    if piece == Piece::King && castle {
        castling_moves(p, us, &mut out);
    }
    out
}

/// Every micro-move payable by the current dice pool: distinct faces in
/// ascending order; castling under the King die when a Rook die is also in
/// the pool.
fn dice_moves(p: &RefPos) -> Vec<Move> {
    let mut faces = p.dice.clone();
    faces.sort_unstable();
    faces.dedup();
    let has_rook = p.dice.contains(&4);
    let mut out = Vec::new();
    for f in faces {
        let piece = Piece::from_face(f);
        out.extend(gen_type(p, piece, piece == Piece::King && has_rook));
    }
    out
}

fn remove_die(p: &mut RefPos, face: u8) {
    if let Some(i) = p.dice.iter().position(|&d| d == face) {
        p.dice.remove(i);
    }
}

/// Play one micro-move on the board (no dice handling). Returns true if it
/// captured a king.
fn apply(p: &mut RefPos, m: &Move) -> bool {
    let us = p.side;
    let (_, mover) = p.board[m.from].expect("no piece on from-square");

    // The captured piece and the square it stood on.
    let cap_sq = if m.kind == Kind::EnPassant {
        match us {
            Color::White => m.to - 8,
            Color::Black => m.to + 8,
        }
    } else {
        m.to
    };
    // Decision (docs/rules.md §4 is silent for boards no game reaches): an e.p. capture removes
    // the square behind the target only when an enemy pawn stands there.
    let captured = if m.kind == Kind::EnPassant {
        p.board[cap_sq].filter(|&(c, piece)| c != us && piece == Piece::Pawn)
    } else {
        p.board[m.to]
    };
    if let Some((c, _)) = captured {
        assert!(c != us, "capturing own piece");
    }

    // E.p. bookkeeping.
    if mover == Piece::Pawn {
        match m.kind {
            Kind::DoublePush => {
                let passed = (m.from + m.to) / 2;
                p.ep[passed] = true;
            }
            _ => {
                let behind = match us {
                    Color::White => offset(m.from, 0, -1),
                    Color::Black => offset(m.from, 0, 1),
                };
                if let Some(b) = behind {
                    p.ep[b] = false;
                }
            }
        }
    }
    if let Some((c, Piece::Pawn)) = captured {
        // The captured pawn's own target lies behind it (from its side).
        let behind = match c {
            Color::White => offset(cap_sq, 0, -1),
            Color::Black => offset(cap_sq, 0, 1),
        };
        if let Some(b) = behind {
            p.ep[b] = false;
        }
    }
    if m.kind == Kind::EnPassant {
        p.ep[m.to] = false;
    }

    // Castling rights.
    if let Some((c, victim)) = captured {
        if victim == Piece::Rook {
            match cap_sq {
                0 => p.castling[WQ] = false,
                7 => p.castling[WK] = false,
                56 => p.castling[BQ] = false,
                63 => p.castling[BK] = false,
                _ => {}
            }
        }
        if victim == Piece::King {
            match c {
                Color::White => {
                    p.castling[WK] = false;
                    p.castling[WQ] = false;
                }
                Color::Black => {
                    p.castling[BK] = false;
                    p.castling[BQ] = false;
                }
            }
        }
    }
    if mover == Piece::King {
        match us {
            Color::White => {
                p.castling[WK] = false;
                p.castling[WQ] = false;
            }
            Color::Black => {
                p.castling[BK] = false;
                p.castling[BQ] = false;
            }
        }
    }
    if mover == Piece::Rook {
        match (us, m.from) {
            (Color::White, 0) => p.castling[WQ] = false,
            (Color::White, 7) => p.castling[WK] = false,
            (Color::Black, 56) => p.castling[BQ] = false,
            (Color::Black, 63) => p.castling[BK] = false,
            _ => {}
        }
    }

    // Board.
    p.board[m.from] = None;
    if captured.is_some() {
        p.board[cap_sq] = None;
    }
    p.board[m.to] = Some((us, m.promo.unwrap_or(mover)));
    match m.kind {
        Kind::CastleKing => {
            let rook_from = m.to + 1;
            let rook_to = m.to - 1;
            p.board[rook_from] = None;
            p.board[rook_to] = Some((us, Piece::Rook));
        }
        Kind::CastleQueen => {
            let rook_from = m.to - 2;
            let rook_to = m.to + 1;
            p.board[rook_from] = None;
            p.board[rook_to] = Some((us, Piece::Rook));
        }
        _ => {}
    }

    // Half-move clock (micro-moves).
    if mover == Piece::Pawn || captured.is_some() {
        p.halfmove = 0;
    } else {
        p.halfmove = (p.halfmove + 1).min(127);
    }

    matches!(captured, Some((_, Piece::King)))
}

/// Play a micro-move and spend its dice (leniently: a die not in the pool is
/// simply not removed). Returns true if it captured a king.
fn play_move(p: &mut RefPos, m: &Move) -> bool {
    let (_, mover) = p.board[m.from].expect("no piece on from-square");
    remove_die(p, mover.face());
    if m.cost() == 2 {
        remove_die(p, Piece::Rook.face());
    }
    apply(p, m)
}

/// Find the pseudo-legal move written `uci` for the side to move (castling
/// allowed regardless of dice).
fn find_move(p: &RefPos, uci: &str) -> Move {
    let from = parse_square(&uci[0..2]);
    let (c, piece) = p.board[from].unwrap_or_else(|| panic!("no piece for {uci}"));
    assert_eq!(c, p.side, "{uci} moves an enemy piece");
    gen_type(p, piece, true)
        .into_iter()
        .find(|m| m.uci() == uci)
        .unwrap_or_else(|| panic!("{uci} is not a pseudo-legal move in {}", write(p)))
}

/// End of turn (docs/rules.md §2.4).
fn end_turn(p: &mut RefPos) {
    let next = p.side.other();
    // Remove the targets the next mover created in its previous turn.
    let stale_rank = match next {
        Color::White => 2,
        Color::Black => 5,
    };
    for file in 0..8 {
        p.ep[square_at(file, stale_rank).unwrap()] = false;
    }
    if p.side == Color::Black {
        p.fullmove += 1;
    }
    p.side = next;
    p.dice.clear();
}

/// A complete path found by the depth-first search.
struct Found {
    path: Vec<String>,
    cost: usize,
    king: bool,
}

fn search(p: &RefPos, path: &mut Vec<String>, cost: usize, out: &mut Vec<Found>) {
    let moves = dice_moves(p);
    if moves.is_empty() {
        if !path.is_empty() {
            out.push(Found {
                path: path.clone(),
                cost,
                king: false,
            });
        }
        return;
    }
    for m in moves {
        let mut next = p.clone();
        let king = play_move(&mut next, &m);
        path.push(m.uci());
        if king {
            out.push(Found {
                path: path.clone(),
                cost: cost + m.cost(),
                king: true,
            });
        } else {
            search(&next, path, cost + m.cost(), out);
        }
        path.pop();
    }
}

/// Every legal turn path of the position's dice pool (docs/rules.md §5), each path a Vec of UCI micro-moves, in the order of docs/rules.md §5 (king-capture paths first, then the others, each in depth-first discovery order following the move-generation order of docs/rules.md §4). Empty result = pass.
pub fn legal_paths(dfen: &str) -> Vec<Vec<String>> {
    let p = parse(dfen);
    let mut found = Vec::new();
    search(&p, &mut Vec::new(), 0, &mut found);
    let d_star = found.iter().map(|f| f.cost).max().unwrap_or(0);
    let mut out = Vec::new();
    for f in &found {
        if f.king {
            out.push(f.path.clone());
        }
    }
    for f in &found {
        if !f.king && f.cost == d_star {
            out.push(f.path.clone());
        }
    }
    out
}

/// Canonical DFEN after playing the UCI micro-moves of `path` and then ending the turn (docs/rules.md §2.4); for an empty path, just end the turn (pass).
pub fn end_of_turn(dfen: &str, path: &[String]) -> String {
    let mut p = parse(dfen);
    for uci in path {
        let m = find_move(&p, uci);
        play_move(&mut p, &m);
    }
    end_turn(&mut p);
    write(&p)
}

/// Canonical DFEN after playing the UCI micro-moves (mid-turn: dice spent, no end of turn).
pub fn play_micro(dfen: &str, path: &[String]) -> String {
    let mut p = parse(dfen);
    for uci in path {
        let m = find_move(&p, uci);
        play_move(&mut p, &m);
    }
    write(&p)
}

/// Pseudo-legal micro-moves (UCI) for one piece type `face` 1..=6 for the side to move, ignoring the dice pool, castling included under face 6 when rights and empty squares allow (as single-die perft does), in docs/rules.md §4 order.
pub fn pseudo_moves(dfen: &str, face: u8) -> Vec<String> {
    let p = parse(dfen);
    let piece = Piece::from_face(face);
    gen_type(&p, piece, piece == Piece::King)
        .iter()
        .map(Move::uci)
        .collect()
}

/// SplitMix64 as docs/rules.md §7 describes it.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

struct Keys {
    pieces: Vec<u64>, // 12 * 64
    side: u64,
    castling: Vec<u64>, // 16
    ep: Vec<u64>,       // 64
    dice: Vec<u64>,     // 343
}

fn keys() -> Keys {
    let mut rng = SplitMix64(0x32a4_b892_f1c6_d7e0);
    let pieces = (0..12 * 64).map(|_| rng.next()).collect();
    let side = rng.next();
    let castling = (0..16).map(|_| rng.next()).collect();
    let ep = (0..64).map(|_| rng.next()).collect();
    let dice = (0..343).map(|_| rng.next()).collect();
    Keys {
        pieces,
        side,
        castling,
        ep,
        dice,
    }
}

/// Zobrist dice index: sorted faces read as base-7 digits, missing slots
/// being leading zeros (see the module comment).
fn dice_index(dice: &[u8]) -> usize {
    let mut faces = dice.to_vec();
    faces.sort_unstable();
    let mut idx = 0usize;
    for f in faces {
        idx = idx * 7 + f as usize;
    }
    idx
}

/// Zobrist key (docs/rules.md §7) computed from scratch.
pub fn zobrist(dfen: &str) -> u64 {
    let p = parse(dfen);
    let k = keys();
    let mut h = 0u64;
    for (sq, cell) in p.board.iter().enumerate() {
        if let Some((c, piece)) = cell {
            let row = (piece.face() as usize - 1) + if *c == Color::Black { 6 } else { 0 };
            h ^= k.pieces[row * 64 + sq];
        }
    }
    if p.side == Color::Black {
        h ^= k.side;
    }
    let mut rights = 0usize;
    for (idx, bit) in [(WK, 1), (WQ, 2), (BK, 4), (BQ, 8)] {
        if p.castling[idx] {
            rights |= bit;
        }
    }
    h ^= k.castling[rights];
    for (sq, &on) in p.ep.iter().enumerate() {
        if on {
            h ^= k.ep[sq];
        }
    }
    h ^= k.dice[dice_index(&p.dice)];
    h
}

/// Colour flip (docs/rules.md §7) as canonical DFEN.
pub fn flip(dfen: &str) -> String {
    let p = parse(dfen);
    let mut q = p.clone();
    for sq in 0..64usize {
        q.board[sq ^ 56] = p.board[sq].map(|(c, piece)| (c.other(), piece));
        q.ep[sq ^ 56] = p.ep[sq];
    }
    q.side = p.side.other();
    q.castling = [
        p.castling[BK],
        p.castling[BQ],
        p.castling[WK],
        p.castling[WQ],
    ];
    write(&q)
}
