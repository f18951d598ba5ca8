//! A training shard of schema v0 (`files/shard_v0.rs`): its marker, its six base columns, and
//! a row as a record — the position (`fen` padded to six fields, then `dice`) with its base
//! columns (checked in `record.rs`).

use super::error::{cut, InputError};
use super::parquet_rows::{column_list, is_string, string_at};
use super::record::{Location, RawBase, RawRecord};
use crate::files::shard_v0::{BASE_COLUMNS, SCHEMA_KEY};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::fs::File;
use std::path::Path;

/// Whether the file is a v0 shard: its `dicechess_training_schema` key (on the embedded Arrow
/// schema, else in the Parquet footer) says `v0…`.
pub(super) fn is_v0(builder: &ParquetRecordBatchReaderBuilder<File>) -> bool {
    let marker = builder
        .schema()
        .metadata()
        .get(SCHEMA_KEY)
        .cloned()
        .or_else(|| {
            builder
                .metadata()
                .file_metadata()
                .key_value_metadata()?
                .iter()
                .find(|kv| kv.key == SCHEMA_KEY)?
                .value
                .clone()
        });
    marker.is_some_and(|m| m.starts_with("v0"))
}

/// The root indices of a v0 shard's six base columns, checking their types.
pub(super) fn base_columns(path: &Path, schema: &Schema) -> Result<Vec<usize>, InputError> {
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

/// Row `i` of a v0 shard batch as a record: the DFEN `fen` (padded to six fields) + `dice`,
/// and its base columns.
pub(super) fn record(batch: &RecordBatch, i: usize, location: Location) -> RawRecord {
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
    let base = RawBase {
        game_id: game_id.to_owned(),
        ply,
        fen: fen.to_owned(),
        dice: dice.to_owned(),
        side: side.to_owned(),
        result,
    };
    (location, Ok(text), Some(base))
}
