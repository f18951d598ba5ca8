//! The scores of a scored shard, in a file beside it.
//!
//! A v0-enriched shard must hold exactly the six base columns and then the feature columns:
//! the training pipeline's enriched reader (`schema.py`, `_validate_feature_columns`) takes
//! every column after the base six as the feature layout, so a `score` column there makes it
//! refuse the shard. When `eval` scores a shard, the shard therefore keeps its layout and the
//! scores go to `NAME.scores.csv` beside `NAME.parquet` ([`scores_path`]): the header
//! `game_id,ply,fen_hash,score`, then one line per shard row in the shard's order — the row's
//! game and ply (the shard's join key), its position's `fen_hash` (the analytics database's
//! key, [`crate::board::fen_hash`]) and the score. CSV, not Parquet, so that a folder of
//! shards globbed as `*.parquet` (the pipeline's `read_enriched_shards`) never picks it up.

use super::atomic::AtomicFile;
use super::OutputError;
use crate::board::{fen_hash, Position};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file of a shard's scores: `x.parquet` → `x.scores.csv` (any other name gets
/// `.scores.csv` appended).
///
/// ```
/// use dicechess::files::scores_path;
/// use std::path::Path;
///
/// assert_eq!(scores_path(Path::new("out/rows.parquet")), Path::new("out/rows.scores.csv"));
/// ```
pub fn scores_path(shard: &Path) -> PathBuf {
    let name = shard
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".parquet")
        .or_else(|| name.strip_suffix(".PARQUET"))
        .unwrap_or(&name);
    shard.with_file_name(format!("{stem}.scores.csv"))
}

/// Write the scores of the shard layout's `parts` (in order) to `out`, atomically; returns
/// the rows written.
pub(super) fn write(parts: &[PathBuf], out: &Path) -> Result<u64, OutputError> {
    let mut f = AtomicFile::create(out).map_err(OutputError::io(out))?;
    let mut rows = 0u64;
    {
        let w = f.writer();
        w.write_all(b"game_id,ply,fen_hash,score\n")
            .map_err(OutputError::io(out))?;
        for part in parts {
            let file = File::open(part).map_err(OutputError::io(part))?;
            let b = ParquetRecordBatchReaderBuilder::try_new(file)
                .map_err(OutputError::format(part))?;
            let names = ["game_id", "ply", "fen", "score"];
            let roots: Vec<usize> = names
                .iter()
                .map(|n| b.schema().index_of(n))
                .collect::<Result<_, _>>()
                .map_err(OutputError::format(part))?;
            let mask = ProjectionMask::roots(b.parquet_schema(), roots);
            let reader = b
                .with_projection(mask)
                .with_batch_size(8192)
                .build()
                .map_err(OutputError::format(part))?;
            for batch in reader {
                let batch = batch.map_err(OutputError::format(part))?;
                rows += write_batch(&batch, w, part, out)?;
            }
        }
    }
    f.commit().map_err(OutputError::io(out))?;
    Ok(rows)
}

/// One batch's lines; `part` names the input, `out` the output in errors.
fn write_batch(
    batch: &RecordBatch,
    w: &mut impl Write,
    part: &Path,
    out: &Path,
) -> Result<u64, OutputError> {
    let bad = |reason: &str| OutputError::Format {
        path: part.to_owned(),
        reason: reason.to_owned(),
    };
    let col = |n: &str| {
        batch
            .column_by_name(n)
            .ok_or_else(|| bad("a column is missing"))
    };
    let (g, p, fen, s) = (col("game_id")?, col("ply")?, col("fen")?, col("score")?);
    let (Some(g), Some(p), Some(fen), Some(s)) = (
        g.as_string_opt::<i32>(),
        p.as_primitive_opt::<Int32Type>(),
        fen.as_string_opt::<i32>(),
        s.as_primitive_opt::<Float32Type>(),
    ) else {
        return Err(bad("game_id, ply, fen or score has an unexpected type"));
    };
    let mut line = String::with_capacity(96);
    for i in 0..batch.num_rows() {
        if g.is_null(i) || p.is_null(i) || fen.is_null(i) || s.is_null(i) {
            return Err(bad("a null value in game_id, ply, fen or score"));
        }
        let text = fen.value(i);
        let padded = match text.split_whitespace().count() {
            4 => format!("{} 0 1", text.trim()),
            _ => text.trim().to_owned(),
        };
        let pos = Position::from_dfen(&padded).map_err(|e| bad(&format!("row fen: {e}")))?;
        line.clear();
        csv_field(g.value(i), &mut line);
        use std::fmt::Write as _;
        let _ = writeln!(line, ",{},{},{}", p.value(i), fen_hash(&pos), s.value(i));
        w.write_all(line.as_bytes()).map_err(OutputError::io(out))?;
    }
    Ok(batch.num_rows() as u64)
}

/// `value` as an RFC 4180 field: quoted (inner quotes doubled) only when it holds a comma, a
/// quote or a line break.
fn csv_field(value: &str, out: &mut String) {
    if value.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&value.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(value);
    }
}
