//! A record of the input: where it came from, its text as read, and (for a v0 shard) its base
//! columns as read with the check that makes them a typed [`BaseRow`].

use crate::board::Position;
use crate::files::shard_v0::BaseRow;
use std::fmt;

/// Where a record came from: a 1-based line of a text input or a 1-based row of a Parquet
/// input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    /// Line number in a DFEN text input (blank and comment lines count).
    Line(u64),
    /// Row number in a Parquet input.
    Row(u64),
}

impl Location {
    /// The 1-based number.
    pub fn number(self) -> u64 {
        match self {
            Location::Line(n) | Location::Row(n) => n,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(n) => write!(f, "line {n}"),
            Location::Row(n) => write!(f, "row {n}"),
        }
    }
}

/// A record before parsing: where it is and its text (or why it has no usable text), and
/// its base columns for v0 shard input.
pub(super) type RawRecord = (
    Location,
    Result<String, (&'static str, String)>,
    Option<RawBase>,
);

/// A v0 row's base columns as read, `side` still text (checked against the position by
/// [`check_base`]).
#[derive(Debug)]
pub(crate) struct RawBase {
    /// `game_id` as read.
    pub(super) game_id: String,
    /// `ply` as read.
    pub(super) ply: i32,
    /// `fen` as read.
    pub(super) fen: String,
    /// `dice` as read.
    pub(super) dice: String,
    /// `side` as read (not yet checked).
    pub(super) side: String,
    /// `result` as read (not yet checked).
    pub(super) result: f32,
}

/// The typed base row of a v0 row whose position parsed, or what the pipeline's readers
/// would refuse in it: a `side` that is not the FEN's side to move, a `result` other than
/// 0, 0.5 or 1.
pub(super) fn check_base(b: RawBase, pos: &Position) -> Result<BaseRow, String> {
    let side = pos.side_to_move();
    let to_move = side.letter().to_string();
    if b.side != to_move {
        return Err(format!(
            // The wording of the pipeline's enrichment check (scripts/check_enrichment.py
            // expects the producer's refusal to say "side/FEN mismatch").
            "side/FEN mismatch: side {:?} is not the FEN's side to move {to_move:?}",
            b.side
        ));
    }
    if ![0.0, 0.5, 1.0].contains(&b.result) {
        return Err(format!("result: {} is not 0, 0.5 or 1", b.result));
    }
    Ok(BaseRow {
        game_id: b.game_id,
        ply: b.ply,
        fen: b.fen,
        dice: b.dice,
        side,
        result: b.result,
    })
}
