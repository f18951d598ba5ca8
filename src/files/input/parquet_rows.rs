//! The Parquet input shared by the column and the v0 shard readers: the file opened, the
//! chosen columns read batch by batch, one row at a time; string cells and column lists.

use super::error::InputError;
use super::record::{Location, RawRecord};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A Parquet file's chosen columns, row by row.
pub(super) struct ParquetRows {
    reader: ParquetRecordBatchReader,
    /// The last row read (1-based; 0 before the first).
    row: u64,
    batch: Option<RecordBatch>,
    /// The next row of `batch`.
    offset: usize,
    path: PathBuf,
}

/// A Parquet library error on `path`.
fn parquet_error(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> InputError + '_ {
    move |e| InputError::Parquet {
        path: path.to_owned(),
        reason: e.to_string(),
    }
}

/// Open `path` as Parquet: the reader's builder (schema and footer) and the file's size.
pub(super) fn open(
    path: &Path,
) -> Result<(ParquetRecordBatchReaderBuilder<File>, Option<u64>), InputError> {
    let file = File::open(path).map_err(|source| InputError::Open {
        path: path.to_owned(),
        source,
    })?;
    let size = file.metadata().ok().map(|m| m.len());
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(parquet_error(path))?;
    check_chunk_ranges(builder.metadata(), size).map_err(|reason| InputError::Parquet {
        path: path.to_owned(),
        reason,
    })?;
    Ok((builder, size))
}

/// Refuse a footer whose column chunks lie outside the file: the Parquet library asserts
/// that their offsets and sizes are not negative and panicked on such a file (found by the
/// `label_input` fuzz target: a v0 shard with one footer byte changed).
fn check_chunk_ranges(
    meta: &parquet::file::metadata::ParquetMetaData,
    size: Option<u64>,
) -> Result<(), String> {
    for (r, group) in meta.row_groups().iter().enumerate() {
        for (c, column) in group.columns().iter().enumerate() {
            let start = column
                .dictionary_page_offset()
                .unwrap_or(column.data_page_offset());
            let len = column.compressed_size();
            let past_end = size.is_some_and(|n| {
                u64::try_from(start)
                    .ok()
                    .zip(u64::try_from(len).ok())
                    .is_some_and(|(s, l)| s.saturating_add(l) > n)
            });
            if start < 0 || len < 0 || past_end {
                return Err(format!(
                    "a corrupt footer: row group {r}, column {c} claims {len} bytes at offset \
                     {start}{}",
                    size.map(|n| format!(" of a {n}-byte file"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    Ok(())
}

impl ParquetRows {
    /// The root columns `indices` of the file behind `builder`, in batches of up to
    /// `chunk_rows` rows (at most 8192).
    pub(super) fn new(
        builder: ParquetRecordBatchReaderBuilder<File>,
        indices: Vec<usize>,
        chunk_rows: usize,
        path: &Path,
    ) -> Result<ParquetRows, InputError> {
        let mask = ProjectionMask::roots(builder.parquet_schema(), indices);
        let reader = builder
            .with_projection(mask)
            .with_batch_size(chunk_rows.clamp(1, 8192))
            .build()
            .map_err(parquet_error(path))?;
        Ok(ParquetRows {
            reader,
            row: 0,
            batch: None,
            offset: 0,
            path: path.to_owned(),
        })
    }

    /// The next row as a record (`record` reads row `i` of a batch), or `None` at the end.
    pub(super) fn next_record(
        &mut self,
        record: fn(&RecordBatch, usize, Location) -> RawRecord,
    ) -> Result<Option<RawRecord>, InputError> {
        loop {
            if let Some(b) = self.batch.as_ref() {
                if self.offset < b.num_rows() {
                    let i = self.offset;
                    self.offset += 1;
                    self.row += 1;
                    return Ok(Some(record(b, i, Location::Row(self.row))));
                }
            }
            // The Parquet library panics on some corrupt pages (a division by zero in its
            // byte-array decoder, found by the `label_input` fuzz target): such a page is
            // this file's error, never a crash of the run.
            let next =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.reader.next()))
                    .unwrap_or_else(|panic| {
                        let why = panic
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_owned())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        Some(Err(arrow_schema::ArrowError::ParquetError(format!(
                            "a corrupt page: the Parquet reader failed ({why})"
                        ))))
                    });
            match next {
                None => return Ok(None),
                Some(Ok(rb)) => {
                    self.batch = Some(rb);
                    self.offset = 0;
                }
                Some(Err(e)) => {
                    return Err(InputError::Parquet {
                        path: self.path.clone(),
                        reason: e.to_string(),
                    })
                }
            }
        }
    }
}

/// Whether an Arrow type is a string type the reader takes.
pub(super) fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

/// The columns of a schema, comma-separated (for messages).
pub(super) fn column_list(schema: &arrow_schema::Schema) -> String {
    schema
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Row `i` of a string column, `None` when null.
pub(super) fn string_at(a: &ArrayRef, i: usize) -> Option<&str> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().value(i),
        DataType::LargeUtf8 => a.as_string::<i64>().value(i),
        _ => a.as_string_view().value(i),
    })
}
