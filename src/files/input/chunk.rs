//! A chunk of input records: as read ([`RawChunk`]), then parsed in parallel ([`Chunk`]).

use super::error::{cut, InputError};
use super::record::check_base;
use super::record::{Location, RawRecord};
use crate::board::Position;
use crate::files::shard_v0::{BaseRow, BaseRows};
use rayon::prelude::*;

/// One chunk of input records.
#[derive(Debug, Default)]
pub struct Chunk {
    /// The chunk's number, from 0.
    pub index: u64,
    /// The good positions, in input order.
    pub positions: Vec<Position>,
    /// Where each good position came from.
    pub sources: Vec<Location>,
    /// Each good position's text as read (trimmed).
    pub texts: Vec<String>,
    /// The bad records ([`InputError::Bad`]), in input order.
    pub bad: Vec<InputError>,
    /// Records in the chunk (good + bad).
    pub records: u64,
    /// The base columns of the good positions (v0 shard input only), aligned with
    /// [`Chunk::positions`].
    pub base: Option<BaseRows>,
}

/// One chunk of records as read, not yet parsed ([`PositionReader::next_raw_chunk`]).
#[derive(Debug)]
pub struct RawChunk {
    pub(super) index: u64,
    pub(super) records: Vec<RawRecord>,
}

impl RawChunk {
    /// The chunk's number, from 0.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Records in the chunk.
    pub fn records(&self) -> u64 {
        self.records.len() as u64
    }

    /// Parse the records in parallel (rayon, the current pool).
    pub fn parse(self) -> Chunk {
        let n = self.records.len() as u64;
        let v0 = self.records.iter().any(|r| r.2.is_some());
        type Parsed = Result<(Location, String, Position, Option<BaseRow>), InputError>;
        let parsed: Vec<Parsed> = self
            .records
            .into_par_iter()
            .with_min_len(1024)
            .map(|(location, text, base)| match text {
                Ok(t) => match Position::from_dfen(&t) {
                    Ok(p) => match base.map(|b| check_base(b, &p)) {
                        Some(Err(reason)) => Err(InputError::Bad {
                            location,
                            reason,
                            text: cut(&t),
                        }),
                        Some(Ok(b)) => Ok((location, t, p, Some(b))),
                        None => Ok((location, t, p, None)),
                    },
                    Err(e) => Err(InputError::Bad {
                        location,
                        reason: e.to_string(),
                        text: cut(&t),
                    }),
                },
                Err((reason, text)) => Err(InputError::Bad {
                    location,
                    reason: reason.to_owned(),
                    text,
                }),
            })
            .collect();
        let mut chunk = Chunk {
            index: self.index,
            records: n,
            base: v0.then(BaseRows::default),
            ..Chunk::default()
        };
        chunk.positions.reserve(parsed.len());
        chunk.sources.reserve(parsed.len());
        chunk.texts.reserve(parsed.len());
        for r in parsed {
            match r {
                Ok((l, t, p, b)) => {
                    chunk.sources.push(l);
                    chunk.texts.push(t);
                    chunk.positions.push(p);
                    if let (Some(rows), Some(b)) = (chunk.base.as_mut(), b) {
                        rows.push(b);
                    }
                }
                Err(e) => chunk.bad.push(e),
            }
        }
        chunk
    }
}
