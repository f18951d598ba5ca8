//! Streaming position input: DFEN lines (a file or standard input), the `dfen`/`fen` string
//! column of a Parquet file, or a training shard of schema v0 (the pipeline's
//! `dicechess_training_schema` marker and its six base columns), read in chunks of a bounded
//! number of records.
//!
//! A v0 shard's position is its `fen` (four fields padded with `0 1`, as the pipeline's
//! enricher does) with its `dice`, and its base columns travel with the record
//! ([`Chunk::base`]) so that `eval` can write them through: a row whose `side` is not the
//! FEN's side to move, or whose `result` is not 0, 0.5 or 1, is a bad record.
//!
//! A *record* is one non-blank, non-comment line (lines whose first non-blank character is `#`
//! are comments) or one Parquet row. Chunk `k` holds records `k·N … k·N + N − 1` whatever they
//! contain, so chunk boundaries depend only on the input and the chunk size: a resumed run
//! finds the same chunks again ([`PositionReader::skip_chunk`]).
//!
//! Bad records do not stop the reader: each becomes an [`InputError::Bad`] in
//! [`Chunk::bad`] carrying its 1-based line (or row) number and the reason; the caller decides
//! whether to stop or skip.

use super::shard_v0::{BaseRow, BaseRows, BASE_COLUMNS, SCHEMA_KEY};
use crate::board::{DfenError, Position};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use rayon::prelude::*;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Longest accepted input line in bytes; a longer line is a bad record (and is not kept in
/// memory), so a file without newlines cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

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

/// Why input could not be read, or why one record of it is bad.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// [`parse_input_line`] rejected the text (no location known there).
    #[error("{0}")]
    Dfen(#[from] DfenError),
    /// One bad record: its location, the reason (a [`DfenError`]'s text, which starts with
    /// the field name, or e.g. `not UTF-8 text`) and the offending text.
    #[error("{location}: {reason}")]
    Bad {
        /// Where the record is.
        location: Location,
        /// What is wrong.
        reason: String,
        /// The record's text (lossy UTF-8, cut to 200 bytes).
        text: String,
    },
    /// The input file could not be opened.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Reading failed part way.
    #[error("reading {what}: {source}")]
    Read {
        /// The input (`standard input` or a path).
        what: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The Parquet file could not be read.
    #[error("{path}: not a readable Parquet file: {reason}")]
    Parquet {
        /// The file.
        path: PathBuf,
        /// The reader's message.
        reason: String,
    },
    /// The Parquet file has no position column.
    #[error("{path}: no `dfen` or `fen` column (columns: {columns})")]
    NoColumn {
        /// The file.
        path: PathBuf,
        /// The columns it has, comma-separated.
        columns: String,
    },
    /// The position column does not hold strings.
    #[error("{path}: column `{column}` has type {found}, expected strings (Utf8)")]
    ColumnType {
        /// The file.
        path: PathBuf,
        /// The column.
        column: String,
        /// Its Arrow type.
        found: String,
    },
}

impl InputError {
    /// The location of a bad record ([`InputError::Bad`]), `None` for other errors.
    pub fn location(&self) -> Option<Location> {
        match self {
            InputError::Bad { location, .. } => Some(*location),
            _ => None,
        }
    }
}

/// Parse one input line: `Ok(None)` for a blank line or a `#` comment, `Ok(Some(position))`
/// for a DFEN (surrounding whitespace, including a trailing `\r`, is ignored), and
/// [`InputError::Dfen`] naming the field otherwise. Never panics, whatever the input.
pub fn parse_input_line(line: &str) -> Result<Option<Position>, InputError> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    Ok(Some(Position::from_dfen(t)?))
}

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

/// A record before parsing: where it is and its text (or why it has no usable text), and
/// its base columns for v0 shard input.
type RawRecord = (
    Location,
    Result<String, (&'static str, String)>,
    Option<BaseRow>,
);

/// One chunk of records as read, not yet parsed ([`PositionReader::next_raw_chunk`]).
#[derive(Debug)]
pub struct RawChunk {
    index: u64,
    records: Vec<RawRecord>,
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
                    Ok(p) => match base.as_ref().map(|b| check_base(b, &p)) {
                        Some(Err(reason)) => Err(InputError::Bad {
                            location,
                            reason,
                            text: cut(&t),
                        }),
                        _ => Ok((location, t, p, base)),
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

/// What the pipeline's readers would refuse in a v0 row whose position parsed.
fn check_base(b: &BaseRow, pos: &Position) -> Result<(), String> {
    let to_move = pos.side_to_move().letter().to_string();
    if b.side != to_move {
        return Err(format!(
            "side: {:?} is not the FEN's side to move {to_move:?}",
            b.side
        ));
    }
    if ![0.0, 0.5, 1.0].contains(&b.result) {
        return Err(format!("result: {} is not 0, 0.5 or 1", b.result));
    }
    Ok(())
}

enum Source {
    Lines {
        reader: Box<dyn BufRead + Send>,
        line: u64,
        buf: Vec<u8>,
    },
    Parquet {
        reader: ParquetRecordBatchReader,
        row: u64,
        batch: Option<RecordBatch>,
        offset: usize,
        path: PathBuf,
        v0: bool,
    },
}

/// Reads positions chunk by chunk from DFEN lines or a Parquet column; see the module docs.
pub struct PositionReader {
    source: Source,
    what: String,
    chunk_rows: usize,
    next_index: u64,
    done: bool,
    bytes_read: u64,
    total_bytes: Option<u64>,
    total_rows: Option<u64>,
    column: Option<String>,
}

impl fmt::Debug for PositionReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionReader")
            .field("input", &self.what)
            .field("chunk_rows", &self.chunk_rows)
            .field("next_index", &self.next_index)
            .finish_non_exhaustive()
    }
}

/// Whether a file starts with the Parquet magic `PAR1`.
fn has_parquet_magic(path: &Path) -> Result<bool, InputError> {
    let mut f = File::open(path).map_err(|source| InputError::Open {
        path: path.to_owned(),
        source,
    })?;
    let mut magic = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match f.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // A folder, for instance: it cannot be opened as input.
            Err(source) => {
                return Err(InputError::Open {
                    path: path.to_owned(),
                    source,
                })
            }
        }
    }
    Ok(got == 4 && &magic == b"PAR1")
}

impl PositionReader {
    /// Open `path` (`-` is standard input) with chunks of `chunk_rows` records (at least 1).
    /// A file is read as Parquet when its name ends in `.parquet` or it is a regular file
    /// starting with `PAR1`, else as DFEN lines (a pipe is read as lines, never sniffed).
    pub fn open(path: &str, chunk_rows: usize) -> Result<PositionReader, InputError> {
        if path == "-" {
            return Ok(PositionReader::from_lines(
                Box::new(BufReader::with_capacity(1 << 20, std::io::stdin())),
                "standard input".into(),
                None,
                chunk_rows,
            ));
        }
        let p = Path::new(path);
        let meta = std::fs::metadata(p).map_err(|source| InputError::Open {
            path: p.to_owned(),
            source,
        })?;
        if meta.is_dir() {
            return Err(InputError::Open {
                path: p.to_owned(),
                source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "a folder"),
            });
        }
        // Sniff only regular files: reading a pipe (`<(zcat …)`) would consume its bytes.
        let regular = meta.is_file();
        let is_parquet = p
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
            || (regular && has_parquet_magic(p)?);
        if is_parquet {
            return PositionReader::open_parquet(p, chunk_rows);
        }
        let file = File::open(p).map_err(|source| InputError::Open {
            path: p.to_owned(),
            source,
        })?;
        let size = file
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len());
        Ok(PositionReader::from_lines(
            Box::new(BufReader::with_capacity(1 << 20, file)),
            p.display().to_string(),
            size,
            chunk_rows,
        ))
    }

    /// Read DFEN lines from any buffered reader; `what` names it in errors, `total_bytes` (if
    /// known) drives [`PositionReader::total_bytes`].
    pub fn from_lines(
        reader: Box<dyn BufRead + Send>,
        what: String,
        total_bytes: Option<u64>,
        chunk_rows: usize,
    ) -> PositionReader {
        PositionReader {
            source: Source::Lines {
                reader,
                line: 0,
                buf: Vec::new(),
            },
            what,
            chunk_rows: chunk_rows.max(1),
            next_index: 0,
            done: false,
            bytes_read: 0,
            total_bytes,
            total_rows: None,
            column: None,
        }
    }

    /// Read a Parquet file: a v0 training shard's base columns when it is one (the
    /// `dicechess_training_schema` key says `v0…` and the six base columns are there), else
    /// its `dfen` column (else `fen`).
    pub fn open_parquet(path: &Path, chunk_rows: usize) -> Result<PositionReader, InputError> {
        let pq = |e: parquet::errors::ParquetError| InputError::Parquet {
            path: path.to_owned(),
            reason: e.to_string(),
        };
        let file = File::open(path).map_err(|source| InputError::Open {
            path: path.to_owned(),
            source,
        })?;
        let size = file.metadata().ok().map(|m| m.len());
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(pq)?;
        let schema = builder.schema().clone();
        let marker = schema.metadata().get(SCHEMA_KEY).cloned().or_else(|| {
            builder
                .metadata()
                .file_metadata()
                .key_value_metadata()?
                .iter()
                .find(|kv| kv.key == SCHEMA_KEY)?
                .value
                .clone()
        });
        let v0 = marker.is_some_and(|m| m.starts_with("v0"));
        let indices: Vec<usize> = if v0 {
            check_base_columns(path, &schema)?
        } else {
            let idx = ["dfen", "fen"]
                .iter()
                .find_map(|name| schema.index_of(name).ok())
                .ok_or_else(|| InputError::NoColumn {
                    path: path.to_owned(),
                    columns: column_list(&schema),
                })?;
            let field = schema.field(idx);
            if !is_string(field.data_type()) {
                return Err(InputError::ColumnType {
                    path: path.to_owned(),
                    column: field.name().clone(),
                    found: field.data_type().to_string(),
                });
            }
            vec![idx]
        };
        let column = if v0 {
            "v0".to_owned()
        } else {
            schema.field(indices[0]).name().clone()
        };
        let total_rows = builder.metadata().file_metadata().num_rows().max(0) as u64;
        let mask = ProjectionMask::roots(builder.parquet_schema(), indices);
        let reader = builder
            .with_projection(mask)
            .with_batch_size(chunk_rows.clamp(1, 8192))
            .build()
            .map_err(pq)?;
        Ok(PositionReader {
            source: Source::Parquet {
                reader,
                row: 0,
                batch: None,
                offset: 0,
                path: path.to_owned(),
                v0,
            },
            what: path.display().to_string(),
            chunk_rows: chunk_rows.max(1),
            next_index: 0,
            done: false,
            bytes_read: 0,
            total_bytes: size,
            total_rows: Some(total_rows),
            column: Some(column),
        })
    }

    /// Whether the input is a v0 training shard (its base columns travel with the records).
    pub fn is_v0_shard(&self) -> bool {
        matches!(self.source, Source::Parquet { v0: true, .. })
    }

    /// The input's name in messages (`standard input` or the path).
    pub fn name(&self) -> &str {
        &self.what
    }

    /// The Parquet column read (`dfen` or `fen`, or `v0` for a training shard's base
    /// columns), `None` for text input.
    pub fn column(&self) -> Option<&str> {
        self.column.as_deref()
    }

    /// Records per chunk.
    pub fn chunk_rows(&self) -> usize {
        self.chunk_rows
    }

    /// Size of a text input in bytes, when known (not for standard input).
    pub fn total_bytes(&self) -> Option<u64> {
        match self.source {
            Source::Lines { .. } => self.total_bytes,
            Source::Parquet { .. } => None,
        }
    }

    /// Bytes of text input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Rows of a Parquet input (from its footer); `None` for text input.
    pub fn total_rows(&self) -> Option<u64> {
        self.total_rows
    }

    /// Read the next chunk, parsing its records in parallel (rayon); `None` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<Chunk>, InputError> {
        Ok(self.next_raw_chunk()?.map(RawChunk::parse))
    }

    /// Read the next chunk's records without parsing them (cheap, sequential), so that the
    /// parsing ([`RawChunk::parse`]) can run elsewhere; `None` at the end.
    pub fn next_raw_chunk(&mut self) -> Result<Option<RawChunk>, InputError> {
        let index = self.next_index;
        let mut records = Vec::with_capacity(self.chunk_rows.min(1 << 16));
        let n = self.read_raw(Some(&mut records))?;
        Ok((n > 0).then_some(RawChunk { index, records }))
    }

    /// Skip the next chunk without parsing it (its part is already finished); returns the
    /// number of records skipped, 0 at the end.
    pub fn skip_chunk(&mut self) -> Result<u64, InputError> {
        Ok(self.read_raw(None)? as u64)
    }

    /// Read up to one chunk of records, keeping them in `out` when given; returns how many
    /// were read (0 at the end) and advances the chunk counter when any were.
    fn read_raw(&mut self, mut out: Option<&mut Vec<RawRecord>>) -> Result<usize, InputError> {
        if self.done {
            return Ok(0);
        }
        let mut n = 0;
        while n < self.chunk_rows {
            let rec = match &mut self.source {
                Source::Lines { reader, line, buf } => {
                    next_line_record(reader, line, buf, &mut self.bytes_read, out.is_some())
                        .map_err(|source| InputError::Read {
                            what: self.what.clone(),
                            source,
                        })?
                }
                Source::Parquet {
                    reader,
                    row,
                    batch,
                    offset,
                    path,
                    v0,
                } => next_parquet_record(reader, row, batch, offset, path, *v0)?,
            };
            match rec {
                None => {
                    self.done = true;
                    break;
                }
                Some(r) => {
                    n += 1;
                    if let Some(o) = out.as_deref_mut() {
                        o.push(r);
                    }
                }
            }
        }
        if n > 0 {
            self.next_index += 1;
        }
        Ok(n)
    }
}

/// The next record of a text input (skipping blank and comment lines), or `None` at the end.
/// With `keep` false the text is not decoded (skipping a finished chunk).
fn next_line_record(
    reader: &mut Box<dyn BufRead + Send>,
    line: &mut u64,
    buf: &mut Vec<u8>,
    bytes_read: &mut u64,
    keep: bool,
) -> std::io::Result<Option<RawRecord>> {
    loop {
        buf.clear();
        let (consumed, too_long) = read_line_bounded(reader, buf, MAX_LINE_BYTES)?;
        if consumed == 0 {
            return Ok(None);
        }
        *bytes_read += consumed as u64;
        *line += 1;
        let location = Location::Line(*line);
        if too_long {
            let text = cut(&String::from_utf8_lossy(buf));
            return Ok(Some((
                location,
                Err(("line too long (over 64 KiB), not a DFEN", text)),
                None,
            )));
        }
        let t = buf.trim_ascii();
        if t.is_empty() || t[0] == b'#' {
            continue;
        }
        if !keep {
            return Ok(Some((location, Ok(String::new()), None)));
        }
        return Ok(Some(match std::str::from_utf8(t) {
            Ok(s) => (location, Ok(s.to_owned()), None),
            Err(_) => (
                location,
                Err(("not UTF-8 text", cut(&String::from_utf8_lossy(t)))),
                None,
            ),
        }));
    }
}

/// Read one line (through `\n`) into `buf`, keeping at most `limit` bytes of it; returns
/// the bytes consumed (0 at the end) and whether the line was longer than `limit`.
fn read_line_bounded(
    reader: &mut Box<dyn BufRead + Send>,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok((consumed, too_long));
        }
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let room = limit.saturating_sub(buf.len());
        if take > room {
            too_long = too_long || avail[..take].iter().filter(|&&b| b != b'\n').count() > room;
        }
        buf.extend_from_slice(&avail[..take.min(room)]);
        reader.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, too_long));
        }
    }
}

/// Whether an Arrow type is a string type the reader takes.
fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// The columns of a schema, comma-separated (for messages).
fn column_list(schema: &arrow_schema::Schema) -> String {
    schema
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The root indices of a v0 shard's six base columns, checking their types.
fn check_base_columns(
    path: &Path,
    schema: &arrow_schema::Schema,
) -> Result<Vec<usize>, InputError> {
    BASE_COLUMNS
        .iter()
        .map(|name| {
            let idx = schema.index_of(name).map_err(|_| InputError::NoColumn {
                path: path.to_owned(),
                columns: column_list(schema),
            })?;
            let t = schema.field(idx).data_type();
            let ok = match *name {
                "ply" => *t == DataType::Int32,
                "result" => *t == DataType::Float32,
                _ => is_string(t),
            };
            if !ok {
                return Err(InputError::ColumnType {
                    path: path.to_owned(),
                    column: (*name).to_owned(),
                    found: t.to_string(),
                });
            }
            Ok(idx)
        })
        .collect()
}

/// Row `i` of a string column, `None` when null.
fn string_at(a: &ArrayRef, i: usize) -> Option<&str> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().value(i),
        DataType::LargeUtf8 => a.as_string::<i64>().value(i),
        _ => a.as_string_view().value(i),
    })
}

/// Row `i` of a v0 shard batch as a record: the DFEN `fen` (padded to six fields) + `dice`,
/// and its base columns.
fn v0_record(batch: &RecordBatch, i: usize, location: Location) -> RawRecord {
    let col = |name: &str| batch.column_by_name(name).cloned();
    let (Some(g), Some(p), Some(f), Some(d), Some(s), Some(r)) = (
        col("game_id"),
        col("ply"),
        col("fen"),
        col("dice"),
        col("side"),
        col("result"),
    ) else {
        return (location, Err(("missing base column", String::new())), None);
    };
    let strings = (
        string_at(&g, i),
        string_at(&f, i),
        string_at(&d, i),
        string_at(&s, i),
    );
    let (Some(game_id), Some(fen), Some(dice), Some(side)) = strings else {
        return (
            location,
            Err(("null value in a base column", String::new())),
            None,
        );
    };
    if p.is_null(i) || r.is_null(i) {
        return (
            location,
            Err(("null value in a base column", String::new())),
            None,
        );
    }
    let ply = p.as_primitive::<Int32Type>().value(i);
    let result = r.as_primitive::<Float32Type>().value(i);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let six = match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        6 => fields.join(" "),
        n => {
            return (
                location,
                Err((
                    "fen: expected 4 or 6 fields",
                    format!("{n} fields: {}", cut(fen)),
                )),
                None,
            )
        }
    };
    let text = format!("{six} {}", dice.trim());
    let base = BaseRow {
        game_id: game_id.to_owned(),
        ply,
        fen: fen.to_owned(),
        dice: dice.to_owned(),
        side: side.to_owned(),
        result,
    };
    (location, Ok(text), Some(base))
}

/// The next record of a Parquet input, or `None` at the end.
fn next_parquet_record(
    reader: &mut ParquetRecordBatchReader,
    row: &mut u64,
    batch: &mut Option<RecordBatch>,
    offset: &mut usize,
    path: &Path,
    v0: bool,
) -> Result<Option<RawRecord>, InputError> {
    loop {
        if let Some(b) = batch.as_ref() {
            if *offset < b.num_rows() {
                let i = *offset;
                *offset += 1;
                *row += 1;
                let location = Location::Row(*row);
                if v0 {
                    return Ok(Some(v0_record(b, i, location)));
                }
                return Ok(Some(match string_at(b.column(0), i) {
                    None => (location, Err(("null value", String::new())), None),
                    Some(s) => (location, Ok(s.trim().to_owned()), None),
                }));
            }
        }
        match reader.next() {
            None => return Ok(None),
            Some(Ok(rb)) => {
                *batch = Some(rb);
                *offset = 0;
            }
            Some(Err(e)) => {
                return Err(InputError::Parquet {
                    path: path.to_owned(),
                    reason: e.to_string(),
                })
            }
        }
    }
}

/// Cut echoed text to 200 bytes (on a character boundary).
fn cut(s: &str) -> String {
    const LIMIT: usize = 200;
    if s.len() <= LIMIT {
        return s.to_owned();
    }
    let mut end = LIMIT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
