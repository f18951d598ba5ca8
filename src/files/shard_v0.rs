//! The training pipeline's shard schema v0 (`fortemate/dicechess-training`,
//! docs/data-formats.md): six base columns, then Float32 feature columns, with the footer
//! keys its readers check, written both as Parquet key-value metadata and on the embedded
//! Arrow schema.
//!
//! Why both places: arrow-rs embeds the Arrow schema (`ARROW:schema`) in every file it
//! writes, and pyarrow takes a table's metadata from that embedded schema; keys only in the
//! Parquet footer are invisible to `pq.read_table(...).schema.metadata`, and the pipeline
//! then rejects the shard as schema version `''`. Keys on the schema alone would hide them
//! from `pq.read_metadata`, which the pipeline's dataset export reads for `engine_version`.
//!
//! | column    | Arrow type | meaning                                                      |
//! |-----------|------------|--------------------------------------------------------------|
//! | `game_id` | Utf8       | the game, unit of the train/holdout split                    |
//! | `ply`     | Int32      | turn number within the game, from 1                          |
//! | `fen`     | Utf8       | six-field FEN of the position before the turn (no dice)      |
//! | `dice`    | Utf8       | the three rolled dice, upper case for both sides (`NQK`)     |
//! | `side`    | Utf8       | `w` or `b`, the side to move (equals the FEN's active color) |
//! | `result`  | Float32    | 1 the mover won, 0.5 draw, 0 the mover lost                  |
//!
//! None of the columns is nullable. Feature columns follow directly (the pipeline's enriched
//! reader requires exactly the schema's columns after the six base columns). The rows of a
//! shard are [`BaseRows`] (the base columns) beside a row-major feature matrix
//! ([`ShardRows`]); `files::write_v0_shard` writes them as one file.

use arrow_array::{ArrayRef, Float32Array, Int32Array, StringArray};
use arrow_schema::{DataType, Field, Schema};
use dicechess_kernels::Color;
use std::collections::HashMap;
use std::sync::Arc;

/// The footer key of the schema marker.
pub const SCHEMA_KEY: &str = "dicechess_training_schema";

/// The marker of a base shard (self-play rows; the pipeline's `read_shard` requires it).
pub const SCHEMA_V0: &str = "v0";

/// The marker of an enriched shard (what the pipeline's own enrichment step writes; `eval`
/// writes it when its input is a v0 shard).
pub const SCHEMA_V0_ENRICHED: &str = "v0-enriched";

/// The rule set name the pipeline requires (`ruleset`), written into the Parquet footer and
/// the self-play manifest: standard Dice Chess.
pub const RULESET: &str = "standard-dicechess-v1";

/// The only perspective (`perspective`): features and `result` are the mover's.
pub const PERSPECTIVE: &str = "side-to-move";

/// The six base columns, in order.
pub const BASE_COLUMNS: [&str; 6] = ["game_id", "ply", "fen", "dice", "side", "result"];

/// The Arrow fields of the base columns.
pub fn base_fields() -> Vec<Field> {
    vec![
        Field::new("game_id", DataType::Utf8, false),
        Field::new("ply", DataType::Int32, false),
        Field::new("fen", DataType::Utf8, false),
        Field::new("dice", DataType::Utf8, false),
        Field::new("side", DataType::Utf8, false),
        Field::new("result", DataType::Float32, false),
    ]
}

/// The footer keys of a shard: the schema `marker`, `feature_schema`, `engine_version`
/// (this engine's own version), `ruleset`, `perspective` and `columns` (the feature column
/// names, comma-separated).
pub fn footer<S: AsRef<str>>(
    marker: &str,
    feature_schema: &str,
    features: &[S],
) -> Vec<(String, String)> {
    [
        (SCHEMA_KEY, marker.to_owned()),
        ("feature_schema", feature_schema.to_owned()),
        ("engine_version", super::ENGINE_VERSION.to_owned()),
        ("ruleset", RULESET.to_owned()),
        ("perspective", PERSPECTIVE.to_owned()),
        (
            "columns",
            features
                .iter()
                .map(|f| f.as_ref())
                .collect::<Vec<_>>()
                .join(","),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// `schema` with `metadata` on it (the embedded Arrow schema's copy of the footer keys).
pub fn with_metadata(schema: Schema, metadata: &[(String, String)]) -> Schema {
    let map: HashMap<String, String> = metadata.iter().cloned().collect();
    schema.with_metadata(map)
}

/// The six base columns of `rows` as Arrow arrays, in [`BASE_COLUMNS`] order.
pub fn base_arrays(rows: &BaseRows) -> Vec<ArrayRef> {
    vec![
        Arc::new(StringArray::from_iter_values(&rows.game_id)),
        Arc::new(Int32Array::from(rows.ply.clone())),
        Arc::new(StringArray::from_iter_values(&rows.fen)),
        Arc::new(StringArray::from_iter_values(&rows.dice)),
        Arc::new(StringArray::from_iter_values(
            rows.side.iter().map(|c| c.letter().to_string()),
        )),
        Arc::new(Float32Array::from(rows.result.clone())),
    ]
}

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
    /// The side to move (written `w` or `b`).
    pub side: Vec<Color>,
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
    /// The side to move (written `w` or `b`).
    pub side: Color,
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

    /// Row `i` (panics when `i >= len()`).
    pub fn row(&self, i: usize) -> BaseRow {
        BaseRow {
            game_id: self.game_id[i].clone(),
            ply: self.ply[i],
            fen: self.fen[i].clone(),
            dice: self.dice[i].clone(),
            side: self.side[i],
            result: self.result[i],
        }
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

/// The rows of a v0 shard: the base columns and, row-major, the Float32 features of one
/// schema (`features.len() == base.len() × width`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShardRows {
    /// The base columns.
    pub base: BaseRows,
    /// Row-major features.
    pub features: Vec<f32>,
}

impl ShardRows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// Append another batch's rows.
    pub fn append(&mut self, mut o: ShardRows) {
        self.base.append(o.base);
        self.features.append(&mut o.features);
    }
}
