//! One v0 training shard written whole ([`write_v0_shard`]): the base columns and features
//! of [`ShardRows`] through the one Parquet writer ([`ParquetRowsWriter`]) of every other
//! output, under a temporary name renamed into place.

use super::parquet_out::{Layout, ParquetRowsWriter, Rows};
use super::shard_v0::{footer, ShardRows, SCHEMA_V0};
use super::{AtomicFile, OutputError};
use std::path::Path;

/// Write `rows` as a v0 shard at `dest` (one row group): the footer keys of
/// [`footer`]`(v0, feature_schema, columns)`, the six base columns, then one Float32 column
/// per name in `columns` (`rows.features` row-major, `columns.len()` per row).
pub fn write_v0_shard<S: AsRef<str>>(
    dest: &Path,
    rows: &ShardRows,
    feature_schema: &str,
    columns: &[S],
) -> Result<(), OutputError> {
    let layout = Layout::with_base(columns, false)?;
    let meta = footer(SCHEMA_V0, feature_schema, columns);
    let mut file = AtomicFile::create(dest).map_err(OutputError::io(dest))?;
    let mut writer = ParquetRowsWriter::new(file.writer(), &layout, &meta, dest)?;
    writer.write(Rows {
        dfens: &[],
        fen_hashes: &[],
        base: Some(&rows.base),
        texts: &[],
        features: &rows.features,
        scores: None,
    })?;
    writer.finish()?;
    file.commit().map_err(OutputError::io(dest))
}
