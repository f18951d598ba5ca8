//! [`PositionReader`]: an input opened as the reader of its kind, read chunk by chunk.

use super::analytics_csv::AnalyticsRows;
use super::chunk::{Chunk, RawChunk};
use super::dfen_column;
use super::error::InputError;
use super::lines::DfenLines;
use super::parquet_rows::{self, ParquetRows};
use super::record::RawRecord;
use super::v0_shard;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The reader of the input's kind.
enum Source {
    /// DFEN lines.
    Lines(DfenLines),
    /// A Parquet file's `dfen` or `fen` column.
    Column(ParquetRows),
    /// A v0 training shard's base columns.
    Shard(ParquetRows),
    /// The analytics database's training export (CSV, gzip or plain).
    Analytics(AnalyticsRows),
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
    Ok(&read_magic(path)? == b"PAR1")
}

/// Whether a file starts with the gzip magic (the training export, `training_data.csv.gz`).
fn has_gzip_magic(path: &Path) -> Result<bool, InputError> {
    Ok(read_magic(path)?.starts_with(&[0x1f, 0x8b]))
}

/// A file's first four bytes (fewer when it is shorter: the rest zero).
fn read_magic(path: &Path) -> Result<[u8; 4], InputError> {
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
    Ok(magic)
}

/// Whether a file name says CSV: `.csv`, `.csv.gz` or `.gz` (any case).
fn csv_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".csv") || name.ends_with(".gz")
}

impl PositionReader {
    /// Open `path` (`-` is standard input) with chunks of `chunk_rows` records (at least 1).
    /// A file is read as Parquet when its name ends in `.parquet` or it is a regular file
    /// starting with `PAR1`; as the analytics training export when its name ends in `.csv`,
    /// `.csv.gz` or `.gz` or it is a regular file starting with the gzip magic; else as DFEN
    /// lines (a pipe is read as lines, never sniffed).
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
        if csv_name(p) || (regular && has_gzip_magic(p)?) {
            return PositionReader::from_analytics_csv(
                Box::new(file),
                p.display().to_string(),
                size,
                chunk_rows,
            );
        }
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
        PositionReader::text(
            Source::Lines(DfenLines::new(reader)),
            what,
            total_bytes,
            chunk_rows,
        )
    }

    /// A reader of a text source (no row count, no Parquet column), at its start.
    fn text(
        source: Source,
        what: String,
        total_bytes: Option<u64>,
        chunk_rows: usize,
    ) -> PositionReader {
        PositionReader {
            source,
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

    /// Read the analytics database's training export (gzip or plain CSV, header first) from
    /// any reader; `what` names it in errors, `total_bytes` (if known, the file's size)
    /// drives [`PositionReader::total_bytes`]. Fails when the header lacks a needed column.
    pub fn from_analytics_csv(
        reader: Box<dyn Read + Send>,
        what: String,
        total_bytes: Option<u64>,
        chunk_rows: usize,
    ) -> Result<PositionReader, InputError> {
        let rows = AnalyticsRows::new(reader, what.clone())?;
        Ok(PositionReader::text(
            Source::Analytics(rows),
            what,
            total_bytes,
            chunk_rows,
        ))
    }

    /// Read a Parquet file: a v0 training shard's base columns when it is one (the
    /// `dicechess_training_schema` key says `v0…` and the six base columns are there), else
    /// its `dfen` column (else `fen`).
    pub fn open_parquet(path: &Path, chunk_rows: usize) -> Result<PositionReader, InputError> {
        let (builder, size) = parquet_rows::open(path)?;
        let schema = builder.schema().clone();
        let v0 = v0_shard::is_v0(&builder);
        let (indices, column) = if v0 {
            (v0_shard::base_columns(path, &schema)?, "v0".to_owned())
        } else {
            let idx = dfen_column::position_column(path, &schema)?;
            (vec![idx], schema.field(idx).name().clone())
        };
        let total_rows = builder.metadata().file_metadata().num_rows().max(0) as u64;
        let rows = ParquetRows::new(builder, indices, chunk_rows, path)?;
        Ok(PositionReader {
            source: if v0 {
                Source::Shard(rows)
            } else {
                Source::Column(rows)
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
        matches!(self.source, Source::Shard(_))
    }

    /// Whether each record carries a v0 row's base columns: a v0 training shard or the
    /// analytics training export.
    pub fn has_base_rows(&self) -> bool {
        matches!(self.source, Source::Shard(_) | Source::Analytics(_))
    }

    /// What kind of input this is, as a resumed run records it: `dfen-lines`,
    /// `parquet:dfen`, `parquet:fen`, `parquet:v0` or `analytics-csv`.
    pub fn kind(&self) -> String {
        match (&self.source, &self.column) {
            (Source::Analytics(_), _) => "analytics-csv".into(),
            (_, Some(c)) => format!("parquet:{c}"),
            (_, None) => "dfen-lines".into(),
        }
    }

    /// What one record of this input is called in messages: `line` for DFEN lines, `row`
    /// otherwise.
    pub fn noun(&self) -> &'static str {
        match self.source {
            Source::Lines(_) => "line",
            _ => "row",
        }
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
            Source::Lines(_) | Source::Analytics(_) => self.total_bytes,
            Source::Column(_) | Source::Shard(_) => None,
        }
    }

    /// Bytes of text input consumed so far (of the file as stored: compressed bytes for a
    /// gzip export).
    pub fn bytes_read(&self) -> u64 {
        match &self.source {
            Source::Analytics(rows) => rows.bytes_read(),
            _ => self.bytes_read,
        }
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
                Source::Lines(lines) => lines
                    .next_record(&mut self.bytes_read, out.is_some())
                    .map_err(|source| InputError::Read {
                        what: self.what.clone(),
                        source,
                    })?,
                Source::Column(rows) => rows.next_record(dfen_column::record)?,
                Source::Shard(rows) => rows.next_record(v0_shard::record)?,
                Source::Analytics(rows) => rows.next_record()?,
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
