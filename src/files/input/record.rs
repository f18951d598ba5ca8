//! A record of the input: where it came from, and its text as read, before parsing.

use super::v0_shard::RawBase;
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
