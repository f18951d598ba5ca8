//! The analytics database's training export (`ExportTrainingDataApp` of
//! `dicechess-analytics`: `training_data.csv.gz`, RFC 4180 CSV in gzip, header first): one row
//! per completed turn, read as a v0 training row so that `eval` writes a shard the training
//! pipeline's readers take and `label` labels it.
//!
//! Columns are found by name in the header (their enricher does the same, so a reordered
//! export still reads); the six used are `game_id`, `turn_number`, `fen` (the normalised FEN,
//! four fields), `dice` (sorted piece letters cased by the mover, or on a small legacy slice the
//! digits 1–6), `side` (`w`/`b`) and `result` (White's view: `1`, `0`, `-1`). The other columns
//! (`moves`, `termination`, `mode`, `source`, ratings, player types) are not needed for a
//! position and are ignored. Each row becomes a base row: `ply` = `turn_number`, `fen` as
//! written, `dice` in upper-case letters, `result` from the mover's view (`1` → 1, `0` → 0.5,
//! `-1` → 0 for White; flipped for Black). A row whose fields do not read is a bad record; the
//! FEN and side are checked like a v0 shard's ([`super::record::check_base`]).

use super::error::{cut, InputError};
use super::record::{Location, RawBase, RawRecord};
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The columns a row needs, in the order [`Columns`] keeps them.
const NEEDED: [&str; 6] = ["game_id", "turn_number", "fen", "dice", "side", "result"];

/// Where the needed columns are in a row.
#[derive(Clone, Copy, Debug)]
struct Columns([usize; 6]);

/// Counts the bytes read from the file (the compressed bytes, for progress).
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The rows of a training export.
pub(super) struct AnalyticsRows {
    reader: csv::Reader<Box<dyn Read + Send>>,
    columns: Columns,
    record: csv::StringRecord,
    /// Data rows read so far.
    row: u64,
    what: String,
    read_bytes: Arc<AtomicU64>,
}

impl AnalyticsRows {
    /// Read an export from `raw` (gzip when it starts with the gzip magic, else plain CSV);
    /// `what` names it in errors. Fails when the header lacks a needed column.
    pub(super) fn new(
        raw: Box<dyn Read + Send>,
        what: String,
    ) -> Result<AnalyticsRows, InputError> {
        let read_bytes = Arc::new(AtomicU64::new(0));
        let mut buffered = BufReader::with_capacity(
            1 << 20,
            Counting {
                inner: raw,
                count: Arc::clone(&read_bytes),
            },
        );
        let gz = buffered
            .fill_buf()
            .map_err(|source| InputError::Read {
                what: what.clone(),
                source,
            })?
            .starts_with(&[0x1f, 0x8b]);
        let text: Box<dyn Read + Send> = if gz {
            // Multi-member: `cat a.csv.gz b.csv.gz` is one valid gzip stream too.
            Box::new(flate2::read::MultiGzDecoder::new(buffered))
        } else {
            Box::new(buffered)
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(text);
        let header = reader.headers().map_err(|e| csv_error(&what, e))?.clone();
        let mut idx = [0usize; 6];
        for (slot, name) in idx.iter_mut().zip(NEEDED) {
            *slot = header
                .iter()
                .position(|h| h.trim() == name)
                .ok_or_else(|| InputError::CsvHeader {
                    what: what.clone(),
                    column: name,
                    header: cut(&header.iter().collect::<Vec<_>>().join(",")),
                })?;
        }
        Ok(AnalyticsRows {
            reader,
            columns: Columns(idx),
            record: csv::StringRecord::new(),
            row: 0,
            what,
            read_bytes,
        })
    }

    /// Bytes of the file read so far (compressed bytes for a gzip file).
    pub(super) fn bytes_read(&self) -> u64 {
        self.read_bytes.load(Ordering::Relaxed)
    }

    /// The next row as a record, `None` at the end. A row that does not read as CSV (a
    /// broken quote, bytes that are not UTF-8) is a bad record; a failing file is an error.
    pub(super) fn next_record(&mut self) -> Result<Option<RawRecord>, InputError> {
        match self.reader.read_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => {
                self.row += 1;
                Ok(Some(row_record(
                    &self.record,
                    self.columns,
                    Location::Row(self.row),
                )))
            }
            Err(e) => match e.kind() {
                csv::ErrorKind::Io(_) => Err(csv_error(&self.what, e)),
                _ => {
                    self.row += 1;
                    Ok(Some((
                        Location::Row(self.row),
                        Err(("not a CSV row", cut(&e.to_string()))),
                        None,
                    )))
                }
            },
        }
    }
}

/// A CSV reader's failure as an input error.
fn csv_error(what: &str, e: csv::Error) -> InputError {
    let source = match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        other => std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{other:?}")),
    };
    InputError::Read {
        what: what.to_owned(),
        source,
    }
}

/// One export row as a record: the DFEN `fen` (four fields padded with `0 1`) + the dice in
/// upper-case letters, and its base columns.
fn row_record(r: &csv::StringRecord, c: Columns, location: Location) -> RawRecord {
    let field = |i: usize| r.get(c.0[i]).map(str::trim);
    let (Some(game_id), Some(turn), Some(fen), Some(dice), Some(side), Some(result)) =
        (field(0), field(1), field(2), field(3), field(4), field(5))
    else {
        return (
            location,
            Err((
                "row has fewer fields than the header",
                cut(&r.iter().collect::<Vec<_>>().join(",")),
            )),
            None,
        );
    };
    let bad = |what: &'static str, text: &str| (location, Err((what, cut(text))), None);
    let Ok(ply) = turn.parse::<i32>() else {
        return bad("turn_number: not an integer", turn);
    };
    if game_id.is_empty() {
        return bad("game_id: empty", game_id);
    }
    let Some(letters) = dice_letters(dice) else {
        return bad(
            "dice: expected three piece letters (PNBRQK, either case) or digits 1-6",
            dice,
        );
    };
    let white = match result {
        "1" => 1.0,
        "0" => 0.5,
        "-1" => 0.0,
        _ => return bad("result: expected 1, 0 or -1 (White's view)", result),
    };
    let mover = match side {
        "w" => white,
        "b" => 1.0 - white,
        _ => return bad("side: expected w or b", side),
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let six = match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        6 => fields.join(" "),
        _ => return bad("fen: expected 4 or 6 fields", fen),
    };
    let base = RawBase {
        game_id: game_id.to_owned(),
        ply,
        fen: fen.to_owned(),
        dice: letters.clone(),
        side: side.to_owned(),
        result: mover,
    };
    (location, Ok(format!("{six} {letters}")), Some(base))
}

/// Three dice as upper-case piece letters: letters of `PNBRQK` in either case (the export
/// cases them by the mover), or the legacy digits `1`–`6` (1 pawn … 6 king).
fn dice_letters(dice: &str) -> Option<String> {
    const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];
    if dice.chars().count() != 3 {
        return None;
    }
    dice.chars()
        .map(|ch| match ch {
            '1'..='6' => Some(LETTERS[ch as usize - '1' as usize]),
            _ => {
                let up = ch.to_ascii_uppercase();
                LETTERS.contains(&up).then_some(up)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_in_every_spelling_the_export_uses() {
        assert_eq!(dice_letters("BPQ").as_deref(), Some("BPQ"));
        assert_eq!(dice_letters("bpq").as_deref(), Some("BPQ"));
        assert_eq!(dice_letters("135").as_deref(), Some("PBQ"));
        assert_eq!(dice_letters("PP"), None);
        assert_eq!(dice_letters("PPX"), None);
        assert_eq!(dice_letters("170"), None);
    }
}
