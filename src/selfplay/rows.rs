//! Training rows of self-play games: one row per position before each turn (the rolled
//! position), with the game's result from the mover's view and the features of a schema.
//!
//! Parquet columns: `game_id` (Utf8), `ply` (UInt32, the turn index from 0), `dfen` (Utf8,
//! canonical DFEN with the dice), `dice` (Utf8, the DFEN dice letters), `side` (Utf8, `w`
//! or `b`), `result` (Float32: 1 the mover won, 0.5 draw, 0 the mover lost), then one Float32
//! column per feature of the schema (from the mover's view); footer metadata
//! `feature_schema`, `engine_version`, `ruleset`, `perspective`.

use super::GameRecord;
use crate::board::{DfenError, Dice, Position};
use crate::eval::features::FeatureSchema;
use dicechess_kernels::Color;

/// Rows of one or more games, column-wise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowBatch {
    /// Game id of each row.
    pub game_id: Vec<String>,
    /// Turn index from 0.
    pub ply: Vec<u32>,
    /// Canonical DFEN of the rolled position.
    pub dfen: Vec<String>,
    /// The dice letters of the DFEN.
    pub dice: Vec<String>,
    /// `w` or `b`.
    pub side: Vec<String>,
    /// The game's result from the mover's view (1, 0.5, 0).
    pub result: Vec<f32>,
    /// Row-major features, `width` per row.
    pub features: Vec<f32>,
}

impl RowBatch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ply.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ply.is_empty()
    }

    /// Append another batch.
    pub fn append(&mut self, mut o: RowBatch) {
        self.game_id.append(&mut o.game_id);
        self.ply.append(&mut o.ply);
        self.dfen.append(&mut o.dfen);
        self.dice.append(&mut o.dice);
        self.side.append(&mut o.side);
        self.result.append(&mut o.result);
        self.features.append(&mut o.features);
    }

    /// The rows of one game: the positions are rebuilt from the record (`initialDfen`, each
    /// turn's dice and `fenAfter`).
    pub fn of_game(game: &GameRecord, schema: &dyn FeatureSchema) -> Result<RowBatch, DfenError> {
        let w = schema.width();
        let n = game.turns.len();
        let mut b = RowBatch {
            game_id: Vec::with_capacity(n),
            ply: Vec::with_capacity(n),
            dfen: Vec::with_capacity(n),
            dice: Vec::with_capacity(n),
            side: Vec::with_capacity(n),
            result: Vec::with_capacity(n),
            features: vec![0.0; n * w],
        };
        let mut pos = Position::from_dfen(&game.initial_dfen)?;
        for (i, t) in game.turns.iter().enumerate() {
            let rolled = pos.with_dice(Dice::from_faces(&t.dice).unwrap_or(Dice::EMPTY));
            let mover = rolled.side_to_move();
            let dfen = rolled.to_dfen();
            b.dice
                .push(dfen.split_whitespace().nth(6).unwrap_or("").to_owned());
            b.dfen.push(dfen);
            b.game_id.push(game.game_id.clone());
            b.ply.push(i as u32);
            b.side.push(mover.letter().to_string());
            let white_view = match game.result {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            b.result.push(if mover == Color::White {
                white_view
            } else {
                1.0 - white_view
            });
            schema.extract_row(&rolled, mover, &mut b.features[i * w..(i + 1) * w]);
            pos = Position::from_dfen(&t.fen_after)?;
        }
        Ok(b)
    }
}

/// Write `rows` as a Parquet file at `dest` (temporary name + rename), one row group.
#[cfg(feature = "files")]
pub fn write_rows_parquet(
    dest: &std::path::Path,
    rows: &RowBatch,
    schema: &dyn FeatureSchema,
) -> Result<(), crate::files::OutputError> {
    use crate::files::atomic::AtomicFile;
    use crate::files::{OutputError, ENGINE_VERSION};
    use arrow_array::{ArrayRef, Float32Array, RecordBatch, StringArray, UInt32Array};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Compression;
    use parquet::file::metadata::KeyValue;
    use parquet::file::properties::WriterProperties;
    use parquet::schema::types::ColumnPath;
    use std::sync::Arc;

    let w = schema.width();
    let n = rows.len();
    let mut fields = vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("dfen", DataType::Utf8, false),
        Field::new("dice", DataType::Utf8, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("result", DataType::Float32, false),
    ];
    fields.extend(
        schema
            .columns()
            .iter()
            .map(|c| Field::new(*c, DataType::Float32, false)),
    );
    let arrow = Arc::new(Schema::new(fields));
    let mut cols: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(&rows.game_id)),
        Arc::new(UInt32Array::from(rows.ply.clone())),
        Arc::new(StringArray::from_iter_values(&rows.dfen)),
        Arc::new(StringArray::from_iter_values(&rows.dice)),
        Arc::new(StringArray::from_iter_values(&rows.side)),
        Arc::new(Float32Array::from(rows.result.clone())),
    ];
    for c in 0..w {
        cols.push(Arc::new(Float32Array::from_iter_values(
            (0..n).map(|r| rows.features[r * w + c]),
        )));
    }
    let meta = [
        ("feature_schema", schema.id()),
        ("engine_version", ENGINE_VERSION),
        ("ruleset", super::shards::RULESET),
        ("perspective", "side-to-move"),
    ];
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("dicechess {ENGINE_VERSION}"))
        .set_column_dictionary_enabled(ColumnPath::from("dfen"), false)
        .set_key_value_metadata(Some(
            meta.iter()
                .map(|(k, v)| KeyValue::new((*k).to_owned(), (*v).to_owned()))
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
