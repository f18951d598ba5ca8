//! DFEN — FEN plus dice (docs/rules.md §3): parse, canonical write, normalised FEN.

use super::{ep_capture_rank, Castling, Dice, Position};
use dicechess_kernels::{Bitboard, Color, PieceType, Square};
use std::fmt::Write as _;

/// The standard initial position without dice.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Longest input echoed back inside an error message; longer text is cut with `…`.
const ECHO_LIMIT: usize = 80;

/// Why a DFEN was rejected. Every variant names its field (see [`DfenError::field`]) and
/// carries the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DfenError {
    /// Not 4 to 7 fields separated by single spaces.
    #[error(
        "fields: expected 4 to 7 fields separated by single spaces, found {found} in {text:?}"
    )]
    Fields {
        /// Number of fields found (an empty field between two spaces counts).
        found: usize,
        /// The whole input.
        text: String,
    },
    /// Bad piece placement.
    #[error("placement: {reason} in {text:?}")]
    Placement {
        /// What is wrong.
        reason: &'static str,
        /// The placement field.
        text: String,
    },
    /// Side to move is not `w` or `b`.
    #[error("side: expected 'w' or 'b', found {text:?}")]
    Side {
        /// The side field.
        text: String,
    },
    /// Bad castling field.
    #[error("castling: {reason} in {text:?}")]
    Castling {
        /// What is wrong.
        reason: &'static str,
        /// The castling field.
        text: String,
    },
    /// Bad en-passant field.
    #[error("en_passant: {reason} in {text:?}")]
    EnPassant {
        /// What is wrong.
        reason: &'static str,
        /// The e.p. field.
        text: String,
    },
    /// Half-move clock not a decimal in 0..=127.
    #[error("halfmove: expected a decimal 0..=127, found {text:?}")]
    Halfmove {
        /// The half-move field.
        text: String,
    },
    /// Full-move number not a decimal in 1..=2147483647.
    #[error("fullmove: expected a decimal 1..=2147483647, found {text:?}")]
    Fullmove {
        /// The full-move field.
        text: String,
    },
    /// Bad dice field.
    #[error("dice: {reason} in {text:?}")]
    Dice {
        /// What is wrong.
        reason: &'static str,
        /// The dice field.
        text: String,
    },
    /// No dice field where a rolled position is needed ([`Position::from_rolled_dfen`]).
    #[error(
        "dice: this command needs the rolled dice as field 7 (e.g. \"{canonical} PNB\"), \
         found none in {text:?}"
    )]
    Unrolled {
        /// The position's canonical DFEN (without dice).
        canonical: String,
        /// The whole input.
        text: String,
    },
}

impl DfenError {
    /// The field the error is about: `fields`, `placement`, `side`, `castling`,
    /// `en_passant`, `halfmove`, `fullmove` or `dice`.
    pub fn field(&self) -> &'static str {
        match self {
            DfenError::Fields { .. } => "fields",
            DfenError::Placement { .. } => "placement",
            DfenError::Side { .. } => "side",
            DfenError::Castling { .. } => "castling",
            DfenError::EnPassant { .. } => "en_passant",
            DfenError::Halfmove { .. } => "halfmove",
            DfenError::Fullmove { .. } => "fullmove",
            DfenError::Dice { .. } | DfenError::Unrolled { .. } => "dice",
        }
    }
}

fn echo(s: &str) -> String {
    if s.len() <= ECHO_LIMIT {
        return s.to_owned();
    }
    let mut end = ECHO_LIMIT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// Parse a DFEN (docs/rules.md §3). Never panics, whatever the input.
pub fn parse(text: &str) -> Result<Position, DfenError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if !(4..=7).contains(&fields.len()) || fields.iter().any(|f| f.is_empty()) {
        return Err(DfenError::Fields {
            found: fields.len(),
            text: echo(text),
        });
    }
    let mut pos = Position::empty();
    parse_placement(fields[0], &mut pos)?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(DfenError::Side { text: echo(other) }),
    };
    pos.set_side(side);
    pos.set_castling(parse_castling(fields[2])?);
    pos.set_ep(parse_ep(fields[3])?);
    if let Some(h) = fields.get(4) {
        pos.halfmove =
            parse_decimal(h, 127).ok_or_else(|| DfenError::Halfmove { text: echo(h) })? as u8;
    }
    if let Some(f) = fields.get(5) {
        pos.fullmove = parse_decimal(f, 2_147_483_647)
            .filter(|&v| v >= 1)
            .ok_or_else(|| DfenError::Fullmove { text: echo(f) })?;
    }
    if let Some(d) = fields.get(6) {
        let dice = parse_dice(d)?;
        pos = pos.with_dice(dice);
    }
    debug_assert_eq!(pos.key, pos.compute_key());
    Ok(pos)
}

fn parse_placement(field: &str, pos: &mut Position) -> Result<(), DfenError> {
    let err = |reason| DfenError::Placement {
        reason,
        text: echo(field),
    };
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(err("expected 8 ranks separated by '/'"));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(err("a digit outside 1-8"));
                }
                file += d as u8;
            } else if let Some(piece) = PieceType::from_letter(c).filter(|_| c.is_ascii()) {
                if file >= 8 {
                    return Err(err("a rank wider than 8 files"));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = Square::from_coords(file, rank)
                    .ok_or_else(|| err("a rank wider than 8 files"))?;
                pos.put(color, piece, sq);
                file += 1;
            } else {
                return Err(err("an unknown piece letter"));
            }
            if file > 8 {
                return Err(err("a rank wider than 8 files"));
            }
        }
        if file != 8 {
            return Err(err("a rank narrower than 8 files"));
        }
    }
    Ok(())
}

fn parse_castling(field: &str) -> Result<u8, DfenError> {
    if field == "-" {
        return Ok(0);
    }
    let err = |reason| DfenError::Castling {
        reason,
        text: echo(field),
    };
    if field.len() > 4 {
        return Err(err("more than 4 letters"));
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let bit = match c {
            'K' => Castling::WHITE_KING,
            'Q' => Castling::WHITE_QUEEN,
            'k' => Castling::BLACK_KING,
            'q' => Castling::BLACK_QUEEN,
            _ => return Err(err("a letter outside KQkq")),
        };
        if rights & bit != 0 {
            return Err(err("a repeated letter"));
        }
        rights |= bit;
    }
    Ok(rights)
}

fn parse_ep(field: &str) -> Result<u64, DfenError> {
    if field == "-" {
        return Ok(0);
    }
    let err = |reason| DfenError::EnPassant {
        reason,
        text: echo(field),
    };
    let bytes = field.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(err("squares must be letter-digit pairs"));
    }
    let mut set = 0u64;
    for pair in bytes.chunks(2) {
        let sq = Square::from_name(pair).ok_or_else(|| err("a malformed square"))?;
        if set & (1 << sq.index()) != 0 {
            return Err(err("a repeated square"));
        }
        set |= 1 << sq.index();
    }
    Ok(set)
}

fn parse_decimal(text: &str, max: u32) -> Option<u32> {
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: u64 = text.parse().ok()?;
    (v <= max as u64).then_some(v as u32)
}

fn parse_dice(field: &str) -> Result<Dice, DfenError> {
    if field == "-" {
        return Ok(Dice::EMPTY);
    }
    let err = |reason| DfenError::Dice {
        reason,
        text: echo(field),
    };
    let mut faces = Vec::with_capacity(3);
    for c in field.chars() {
        if c.is_ascii_digit() {
            return Err(err("digits are not dice; use the letters pnbrqk"));
        }
        let p = PieceType::from_letter(c)
            .filter(|_| c.is_ascii())
            .ok_or_else(|| err("a letter outside pnbrqk"))?;
        faces.push(p.face());
        if faces.len() > 3 {
            return Err(err("more than 3 dice"));
        }
    }
    Dice::from_faces(&faces).ok_or_else(|| err("more than 3 dice"))
}

fn write_placement(pos: &Position, out: &mut String) {
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("file and rank below 8");
            match pos.piece_at(sq) {
                None => empty += 1,
                Some((color, piece)) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let c = piece.letter();
                    out.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

fn write_ep(set: Bitboard, out: &mut String) {
    if set.is_empty() {
        out.push('-');
    }
    for sq in set {
        let _ = write!(out, "{sq}");
    }
}

/// The canonical DFEN of a position: clocks always written, dice omitted when empty.
pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    write_placement(pos, &mut out);
    let side = pos.side_to_move();
    let _ = write!(out, " {} {} ", side.letter(), pos.castling().fen());
    write_ep(pos.ep_targets(), &mut out);
    let _ = write!(out, " {} {}", pos.halfmove(), pos.fullmove());
    let dice = pos.dice();
    if !dice.is_empty() {
        out.push(' ');
        out.push_str(&dice.letters(side == Color::White));
    }
    out
}

/// The e.p. targets the side to move could capture now: on rank 6 (White) or 3 (Black),
/// empty, with an own pawn diagonally behind (docs/rules.md §3, "Normalised FEN").
pub fn capturable_ep(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let own_pawns = pos.piece_bb(us, PieceType::Pawn);
    let candidates = pos.ep_targets() & ep_capture_rank(us) & !pos.occupied();
    let mut out = Bitboard::EMPTY;
    for t in candidates {
        // An own pawn that attacks `t` stands diagonally behind it.
        if (dicechess_kernels::pawn_attacks(us.opponent(), t) & own_pawns).any() {
            out = out.with(t);
        }
    }
    out
}

/// The normalised FEN (the ecosystem's position key): placement, side, castling and the
/// capturable e.p. targets; no clocks, no dice.
pub fn normalized_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(80);
    write_placement(pos, &mut out);
    let _ = write!(
        out,
        " {} {} ",
        pos.side_to_move().letter(),
        pos.castling().fen()
    );
    write_ep(capturable_ep(pos), &mut out);
    out
}

/// The opening-book / analytics dice key: letters sorted alphabetically, cased by the mover;
/// empty when there are no dice.
pub fn dice_key(pos: &Position) -> String {
    pos.dice()
        .alphabetical_key(pos.side_to_move() == Color::White)
}

impl Position {
    /// Parse a DFEN (docs/rules.md §3); see `dfen::parse`.
    pub fn from_dfen(text: &str) -> Result<Position, DfenError> {
        parse(text)
    }

    /// Parse a DFEN that must carry a rolled dice pool (field 7), as every command about
    /// the turn being played needs; a position without dice is [`DfenError::Unrolled`].
    ///
    /// ```
    /// use dicechess::board::Position;
    ///
    /// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// assert!(Position::from_rolled_dfen(&format!("{start} PNB")).is_ok());
    /// let e = Position::from_rolled_dfen(start).unwrap_err();
    /// assert_eq!(e.field(), "dice");
    /// assert!(e.to_string().starts_with("dice: this command needs the rolled dice as field 7"));
    /// ```
    pub fn from_rolled_dfen(text: &str) -> Result<Position, DfenError> {
        let pos = parse(text)?;
        if pos.dice().is_empty() {
            return Err(DfenError::Unrolled {
                canonical: pos.to_dfen(),
                text: text.to_owned(),
            });
        }
        Ok(pos)
    }

    /// The canonical DFEN; see `dfen::write`.
    pub fn to_dfen(&self) -> String {
        write(self)
    }
}

impl std::str::FromStr for Position {
    type Err = DfenError;
    fn from_str(s: &str) -> Result<Position, DfenError> {
        parse(s)
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write(self))
    }
}
