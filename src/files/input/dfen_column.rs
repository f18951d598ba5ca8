//! A Parquet file's `dfen` column (else `fen`): one DFEN string per row.

use super::error::InputError;
use super::parquet_rows::{column_list, is_string, string_at};
use super::record::{Location, RawRecord};
use arrow_array::RecordBatch;
use arrow_schema::Schema;
use std::path::Path;

/// The root index of the position column, `dfen` else `fen`, checking that it holds strings.
pub(super) fn position_column(path: &Path, schema: &Schema) -> Result<usize, InputError> {
    let idx = ["dfen", "fen"]
        .iter()
        .find_map(|name| schema.index_of(name).ok())
        .ok_or_else(|| InputError::NoColumn {
            path: path.to_owned(),
            columns: column_list(schema),
        })?;
    let field = schema.field(idx);
    if !is_string(field.data_type()) {
        return Err(InputError::ColumnType {
            path: path.to_owned(),
            column: field.name().clone(),
            found: field.data_type().to_string(),
        });
    }
    Ok(idx)
}

/// Row `i` of a batch holding the position column alone, as a record.
pub(super) fn record(batch: &RecordBatch, i: usize, location: Location) -> RawRecord {
    match string_at(batch.column(0), i) {
        None => (location, Err(("null value", String::new())), None),
        Some(s) => (location, Ok(s.trim().to_owned()), None),
    }
}
