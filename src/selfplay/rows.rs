//! Training rows of self-play games: one row per position before each turn (the rolled
//! position), with the game's result from the mover's view and the features of a schema.
//!
//! The rows file of a shard is a shard of the training pipeline's schema v0
//! (`src/files/shard_v0.rs`, docs/data-formats.md): `game_id`, `ply` (Int32, the turn
//! number from 1), `fen` (six-field FEN without dice), `dice` (upper case), `side`, `result`
//! (Float32: 1 the mover won, 0.5 draw, 0 the mover lost), then one Float32 column per
//! feature of the schema (from the mover's view); footer keys `dicechess_training_schema`
//! (`v0`), `feature_schema`, `engine_version`, `ruleset`, `perspective`, `columns`, on the
//! Parquet footer and on the embedded Arrow schema.

#[cfg(feature = "files")]
use super::GameRecord;
#[cfg(feature = "files")]
use crate::board::{DfenError, Dice, Position};
#[cfg(feature = "files")]
use crate::eval::features::FeatureSchema;
#[cfg(feature = "files")]
use dicechess_kernels::Color;

/// The six base columns of shard rows (schema v0), column-wise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BaseRows {
    /// Game id of each row.
    pub game_id: Vec<String>,
    /// Turn number within the game, from 1.
    pub ply: Vec<i32>,
    /// Six-field FEN of the position before the turn (no dice).
    pub fen: Vec<String>,
    /// The rolled dice, upper case for both sides.
    pub dice: Vec<String>,
    /// `w` or `b`: the side to move.
    pub side: Vec<String>,
    /// The game's result from the mover's view (1, 0.5, 0).
    pub result: Vec<f32>,
}

/// One row of [`BaseRows`].
#[derive(Clone, Debug, PartialEq)]
pub struct BaseRow {
    /// The game's id.
    pub game_id: String,
    /// Turn number within the game, from 1.
    pub ply: i32,
    /// Six-field FEN of the position before the turn (no dice).
    pub fen: String,
    /// The rolled dice, upper case for both sides.
    pub dice: String,
    /// `w` or `b`: the side to move.
    pub side: String,
    /// The game's result from the mover's view (1, 0.5, 0).
    pub result: f32,
}

impl BaseRows {
    /// Append one row.
    pub fn push(&mut self, row: BaseRow) {
        self.game_id.push(row.game_id);
        self.ply.push(row.ply);
        self.fen.push(row.fen);
        self.dice.push(row.dice);
        self.side.push(row.side);
        self.result.push(row.result);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ply.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ply.is_empty()
    }

    /// Append another batch's rows.
    pub fn append(&mut self, mut o: BaseRows) {
        self.game_id.append(&mut o.game_id);
        self.ply.append(&mut o.ply);
        self.fen.append(&mut o.fen);
        self.dice.append(&mut o.dice);
        self.side.append(&mut o.side);
        self.result.append(&mut o.result);
    }

    /// Whether every column has the same length.
    pub fn is_rectangular(&self) -> bool {
        let n = self.len();
        [
            self.game_id.len(),
            self.fen.len(),
            self.dice.len(),
            self.side.len(),
            self.result.len(),
        ]
        .iter()
        .all(|&l| l == n)
    }
}

#[cfg(feature = "files")]
/// Rows of one or more games, column-wise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowBatch {
    /// The base columns.
    pub base: BaseRows,
    /// Row-major features, `width` per row.
    pub features: Vec<f32>,
}

#[cfg(feature = "files")]
impl RowBatch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Append another batch.
    pub fn append(&mut self, mut o: RowBatch) {
        self.base.append(o.base);
        self.features.append(&mut o.features);
    }

    /// The rows of one game: the positions are rebuilt from the record (`initialDfen`, each
    /// turn's dice and `fenAfter`).
    pub fn of_game(game: &GameRecord, schema: &dyn FeatureSchema) -> Result<RowBatch, DfenError> {
        let w = schema.width();
        let n = game.turns.len();
        let mut b = RowBatch {
            base: BaseRows {
                game_id: Vec::with_capacity(n),
                ply: Vec::with_capacity(n),
                fen: Vec::with_capacity(n),
                dice: Vec::with_capacity(n),
                side: Vec::with_capacity(n),
                result: Vec::with_capacity(n),
            },
            features: vec![0.0; n * w],
        };
        let white_view = match game.result {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        };
        let mut pos = Position::from_dfen(&game.initial_dfen)?;
        for (i, t) in game.turns.iter().enumerate() {
            let dice = Dice::from_faces(&t.dice).unwrap_or(Dice::EMPTY);
            let rolled = pos.with_dice(dice);
            let mover = rolled.side_to_move();
            b.base.push(BaseRow {
                game_id: game.game_id.clone(),
                // The pipeline counts turns from 1 ("as recorded"); a game longer than
                // i32::MAX turns cannot be played (the turn cap is far lower).
                ply: i32::try_from(i + 1).unwrap_or(i32::MAX),
                fen: rolled.with_dice(Dice::EMPTY).to_dfen(),
                dice: dice.letters(true),
                side: mover.letter().to_string(),
                result: if mover == Color::White {
                    white_view
                } else {
                    1.0 - white_view
                },
            });
            schema.extract_row(&rolled, mover, &mut b.features[i * w..(i + 1) * w]);
            pos = Position::from_dfen(&t.fen_after)?;
        }
        Ok(b)
    }
}

/// Write `rows` as a v0 Parquet shard at `dest` (temporary name + rename), one row group.
#[cfg(feature = "files")]
pub fn write_rows_parquet(
    dest: &std::path::Path,
    rows: &RowBatch,
    schema: &dyn FeatureSchema,
) -> Result<(), crate::files::OutputError> {
    use crate::files::AtomicFile;
    use crate::files::{base_arrays, base_fields, footer, with_metadata, SCHEMA_V0};
    use crate::files::{OutputError, ENGINE_VERSION};
    use arrow_array::{ArrayRef, Float32Array, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Compression;
    use parquet::file::metadata::KeyValue;
    use parquet::file::properties::WriterProperties;
    use parquet::schema::types::ColumnPath;
    use std::sync::Arc;

    let w = schema.width();
    let n = rows.len();
    if !rows.base.is_rectangular() || rows.features.len() != n * w {
        return Err(OutputError::Layout(format!(
            "{n} rows with ragged base columns or {} feature values for width {w}",
            rows.features.len()
        )));
    }
    let meta = footer(SCHEMA_V0, schema.id(), schema.columns());
    let mut fields = base_fields();
    fields.extend(
        schema
            .columns()
            .iter()
            .map(|c| Field::new(*c, DataType::Float32, false)),
    );
    let arrow = Arc::new(with_metadata(Schema::new(fields), &meta));
    let mut cols: Vec<ArrayRef> = base_arrays(&rows.base);
    for c in 0..w {
        cols.push(Arc::new(Float32Array::from_iter_values(
            (0..n).map(|r| rows.features[r * w + c]),
        )));
    }
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("dicechess {ENGINE_VERSION}"))
        .set_column_dictionary_enabled(ColumnPath::from("fen"), false)
        .set_key_value_metadata(Some(
            meta.iter()
                .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                .collect(),
        ))
        .build();
    let batch = RecordBatch::try_new(arrow.clone(), cols).map_err(OutputError::format(dest))?;
    let mut file = AtomicFile::create(dest).map_err(OutputError::io(dest))?;
    {
        let mut writer = ArrowWriter::try_new(file.writer(), arrow, Some(props))
            .map_err(OutputError::format(dest))?;
        if n > 0 {
            writer.write(&batch).map_err(OutputError::format(dest))?;
        }
        writer.close().map_err(OutputError::format(dest))?;
    }
    file.commit().map_err(OutputError::io(dest))
}
