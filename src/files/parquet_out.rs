//! Parquet output: a `dfen` Utf8 column (or, for a layout with base columns, the six base
//! columns of a v0 training shard, see [`super::shard_v0`]), one Float32 column per feature
//! column and an optional Float32 `score` column, with key-value metadata in the footer and
//! on the embedded Arrow schema (where pyarrow looks for it). [`ParquetRowsWriter`] writes one
//! row group per [`ParquetRowsWriter::write`] call; [`ParquetConcat`] builds a file from the
//! row groups of finished part files by copying their encoded bytes (no decoding).

use super::shard_v0::{base_arrays, base_fields, with_metadata, BaseRows, BASE_COLUMNS};
use super::OutputError;
use arrow_array::{ArrayRef, Float32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::{KeyValue, PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The column layout of an output file: feature columns in order and whether a score follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    features: Vec<String>,
    score: bool,
    base: bool,
    /// Utf8 columns between the leading columns and the features.
    texts: Vec<String>,
}

impl Layout {
    /// A layout; refuses duplicate names and feature columns called `dfen` or `score`.
    pub fn new<S: AsRef<str>>(features: &[S], score: bool) -> Result<Layout, OutputError> {
        Layout::build(features, score, false)
    }

    /// A layout whose rows start with the six base columns of a v0 training shard instead
    /// of `dfen`; also refuses feature columns named like a base column.
    pub fn with_base<S: AsRef<str>>(features: &[S], score: bool) -> Result<Layout, OutputError> {
        Layout::build(features, score, true)
    }

    fn build<S: AsRef<str>>(
        features: &[S],
        score: bool,
        base: bool,
    ) -> Result<Layout, OutputError> {
        let features: Vec<String> = features.iter().map(|s| s.as_ref().to_owned()).collect();
        for (i, name) in features.iter().enumerate() {
            if name == "dfen"
                || name == "fen_hash"
                || name == "score"
                || BASE_COLUMNS.contains(&name.as_str())
            {
                return Err(OutputError::Layout(format!(
                    "feature column {i} is named {name:?}, which the file layout reserves"
                )));
            }
            if features[..i].contains(name) {
                return Err(OutputError::Layout(format!(
                    "feature column {name:?} appears twice"
                )));
            }
        }
        Ok(Layout {
            features,
            score,
            base,
            texts: Vec::new(),
        })
    }

    /// The same layout with Utf8 columns `texts` after the leading columns (before the
    /// features); refuses names the layout already has or reserves.
    pub fn with_texts<S: AsRef<str>>(mut self, texts: &[S]) -> Result<Layout, OutputError> {
        for t in texts {
            let name = t.as_ref();
            let taken = name == "dfen"
                || name == "fen_hash"
                || name == "score"
                || BASE_COLUMNS.contains(&name)
                || self.features.iter().any(|f| f == name)
                || self.texts.iter().any(|f| f == name);
            if taken {
                return Err(OutputError::Layout(format!(
                    "text column {name:?} is reserved or appears twice"
                )));
            }
            self.texts.push(name.to_owned());
        }
        Ok(self)
    }

    /// The same layout without its `score` column (a shard whose scores go to a file
    /// beside it).
    pub fn without_score(&self) -> Layout {
        Layout {
            score: false,
            ..self.clone()
        }
    }

    /// The Utf8 columns after the leading ones.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// Whether rows start with the six base columns (else with `dfen` and `fen_hash`).
    pub fn has_base(&self) -> bool {
        self.base
    }

    /// Columns before the features: 6 base columns or `dfen` and `fen_hash`, then the text
    /// columns.
    pub fn leading_columns(&self) -> usize {
        let lead = if self.base { BASE_COLUMNS.len() } else { 2 };
        lead + self.texts.len()
    }

    /// The feature column names.
    pub fn features(&self) -> &[String] {
        &self.features
    }

    /// Number of feature columns.
    pub fn width(&self) -> usize {
        self.features.len()
    }

    /// Whether a `score` column follows the features.
    pub fn has_score(&self) -> bool {
        self.score
    }

    /// Columns of the NPY matrix: the features, plus one for the score.
    pub fn matrix_width(&self) -> usize {
        self.features.len() + usize::from(self.score)
    }

    /// The Arrow schema: `dfen` (Utf8) and `fen_hash` (Int64, the analytics database's
    /// position key, [`crate::board::fen_hash`]) or the base columns, the text columns
    /// (Utf8), the features (Float32), then `score` (Float32).
    ///
    /// Why no `fen_hash` beside base columns: the training pipeline's enriched reader takes
    /// every column after the base six as features; a shard's scores file carries it instead
    /// (`scores_csv.rs`).
    pub fn arrow_schema(&self) -> SchemaRef {
        let mut fields = if self.base {
            base_fields()
        } else {
            vec![
                Field::new("dfen", DataType::Utf8, false),
                Field::new("fen_hash", DataType::Int64, false),
            ]
        };
        fields.extend(
            self.texts
                .iter()
                .map(|n| Field::new(n, DataType::Utf8, false)),
        );
        fields.extend(
            self.features
                .iter()
                .map(|n| Field::new(n, DataType::Float32, false)),
        );
        if self.score {
            fields.push(Field::new("score", DataType::Float32, false));
        }
        Arc::new(Schema::new(fields))
    }
}

/// Rows to write: `dfens[i]` and `fen_hashes[i]` (or the base columns' row `i`) with features
/// `features[i·width .. (i+1)·width]` (row-major) and `scores[i]` when the layout has a score.
#[derive(Clone, Copy, Debug)]
pub struct Rows<'a> {
    /// Canonical DFEN of each row (unused, and may be empty, for a layout with base columns).
    pub dfens: &'a [String],
    /// The `fen_hash` of each row's position, aligned with `dfens` (unused, and may be
    /// empty, for a layout with base columns).
    pub fen_hashes: &'a [i64],
    /// The base columns, for a layout with them.
    pub base: Option<&'a BaseRows>,
    /// One column of text per [`Layout::texts`] name, each with a value per row.
    pub texts: &'a [Vec<String>],
    /// Row-major features, `dfens.len() × width` values.
    pub features: &'a [f32],
    /// One score per row, when scoring.
    pub scores: Option<&'a [f32]>,
}

impl Rows<'_> {
    /// Check the shapes against `layout`.
    pub fn check(&self, layout: &Layout) -> Result<(), OutputError> {
        let n = self.len(layout);
        match (layout.has_base(), self.base) {
            (true, Some(b)) if b.is_rectangular() => {}
            (true, Some(_)) => return Err(OutputError::Layout("ragged base columns".into())),
            (true, None) => {
                return Err(OutputError::Layout(
                    "no base columns given for a layout with them".into(),
                ))
            }
            (false, Some(_)) => {
                return Err(OutputError::Layout(
                    "base columns given for a layout without them".into(),
                ))
            }
            (false, None) if self.fen_hashes.len() == n => {}
            (false, None) => {
                return Err(OutputError::Layout(format!(
                    "{} fen_hash values for {n} rows",
                    self.fen_hashes.len()
                )))
            }
        }
        if self.texts.len() != layout.texts().len() || self.texts.iter().any(|t| t.len() != n) {
            return Err(OutputError::Layout(format!(
                "{} text columns for {} in the layout, or not {n} values each",
                self.texts.len(),
                layout.texts().len()
            )));
        }
        if self.features.len() != n * layout.width() {
            return Err(OutputError::Layout(format!(
                "{} feature values for {n} rows of width {}",
                self.features.len(),
                layout.width()
            )));
        }
        match (self.scores, layout.has_score()) {
            (Some(s), true) if s.len() == n => Ok(()),
            (None, false) => Ok(()),
            (Some(s), true) => Err(OutputError::Layout(format!(
                "{} scores for {n} rows",
                s.len()
            ))),
            (Some(_), false) => Err(OutputError::Layout(
                "scores given for a layout without a score column".into(),
            )),
            (None, true) => Err(OutputError::Layout(
                "no scores given for a layout with a score column".into(),
            )),
        }
    }
}

impl Rows<'_> {
    /// Number of rows under `layout`.
    pub fn len(&self, layout: &Layout) -> usize {
        match (layout.has_base(), self.base) {
            (true, Some(b)) => b.len(),
            _ => self.dfens.len(),
        }
    }
}

/// Footer key-value metadata from `(key, value)` pairs.
fn key_values(metadata: &[(String, String)]) -> Vec<KeyValue> {
    metadata
        .iter()
        .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
        .collect()
}

/// Writer properties shared by parts and final files: Snappy, no dictionary for `dfen` or
/// `fen` (nearly every value is distinct), the metadata in the footer.
fn properties(metadata: &[(String, String)]) -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("dicechess {}", super::ENGINE_VERSION))
        .set_column_dictionary_enabled(ColumnPath::from("dfen"), false)
        .set_column_dictionary_enabled(ColumnPath::from("fen"), false)
        .set_key_value_metadata(Some(key_values(metadata)))
        .build()
}

/// A writer of a file of `layout`'s schema with `metadata` in the footer, on `sink` (`path`
/// names it in errors), and the schema it writes.
fn arrow_writer<W: Write + Send>(
    sink: W,
    layout: &Layout,
    metadata: &[(String, String)],
    path: &Path,
) -> Result<(ArrowWriter<W>, SchemaRef), OutputError> {
    let schema = Arc::new(with_metadata(
        layout.arrow_schema().as_ref().clone(),
        metadata,
    ));
    let writer = ArrowWriter::try_new(sink, schema.clone(), Some(properties(metadata)))
        .map_err(OutputError::format(path))?;
    Ok((writer, schema))
}

/// Streams rows into a Parquet file, one row group per [`ParquetRowsWriter::write`].
pub struct ParquetRowsWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    layout: Layout,
    schema: SchemaRef,
    rows: u64,
    path: PathBuf,
}

impl<W: Write + Send> ParquetRowsWriter<W> {
    /// Start a file on `sink`; `path` names it in errors; `metadata` goes into the footer.
    pub fn new(
        sink: W,
        layout: &Layout,
        metadata: &[(String, String)],
        path: &Path,
    ) -> Result<Self, OutputError> {
        let (writer, schema) = arrow_writer(sink, layout, metadata, path)?;
        Ok(ParquetRowsWriter {
            writer,
            layout: layout.clone(),
            schema,
            rows: 0,
            path: path.to_owned(),
        })
    }

    /// Write `rows` as one row group (nothing for zero rows).
    pub fn write(&mut self, rows: Rows<'_>) -> Result<(), OutputError> {
        rows.check(&self.layout)?;
        let n = rows.len(&self.layout);
        if n == 0 {
            return Ok(());
        }
        let w = self.layout.width();
        let mut cols: Vec<ArrayRef> = Vec::with_capacity(w + 7 + rows.texts.len());
        match rows.base {
            Some(b) => cols.extend(base_arrays(b)),
            None => {
                cols.push(Arc::new(StringArray::from_iter_values(rows.dfens)));
                cols.push(Arc::new(Int64Array::from(rows.fen_hashes.to_vec())));
            }
        }
        for t in rows.texts {
            cols.push(Arc::new(StringArray::from_iter_values(t)));
        }
        for c in 0..w {
            cols.push(Arc::new(Float32Array::from_iter_values(
                (0..n).map(|r| rows.features[r * w + c]),
            )));
        }
        if let Some(s) = rows.scores {
            cols.push(Arc::new(Float32Array::from(s.to_vec())));
        }
        let batch = RecordBatch::try_new(self.schema.clone(), cols)
            .map_err(OutputError::format(&self.path))?;
        self.writer
            .write(&batch)
            .map_err(OutputError::format(&self.path))?;
        self.writer
            .flush()
            .map_err(OutputError::format(&self.path))?;
        self.rows += n as u64;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Write the footer; returns the row count.
    pub fn finish(self) -> Result<u64, OutputError> {
        finish_file(self.writer, &self.path, self.rows)
    }
}

/// Builds a Parquet file from the row groups of other files of the same layout, copying the
/// encoded column chunks byte for byte.
pub struct ParquetConcat<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    rows: u64,
    path: PathBuf,
}

impl<W: Write + Send> ParquetConcat<W> {
    /// Start a file on `sink` with `layout`'s schema and `metadata` in the footer.
    pub fn new(
        sink: W,
        layout: &Layout,
        metadata: &[(String, String)],
        path: &Path,
    ) -> Result<Self, OutputError> {
        let (arrow, _) = arrow_writer(sink, layout, metadata, path)?;
        let (writer, _) = arrow
            .into_serialized_writer()
            .map_err(OutputError::format(path))?;
        Ok(ParquetConcat {
            writer,
            rows: 0,
            path: path.to_owned(),
        })
    }

    /// Append the columns `keep` (root column indices, in this file's order; `None`: all) of
    /// every row group of `part`; the kept columns must be this file's columns. Their encoded
    /// chunks are copied byte for byte, so leaving a column out costs nothing.
    pub fn append_columns(
        &mut self,
        part: &Path,
        keep: Option<&[usize]>,
    ) -> Result<u64, OutputError> {
        let file = File::open(part).map_err(OutputError::io(part))?;
        let meta = read_metadata(&file, part)?;
        let theirs = meta
            .file_metadata()
            .schema_descr()
            .root_schema()
            .get_fields();
        let ours = self.writer.schema_descr().root_schema().get_fields();
        let all: Vec<usize> = (0..theirs.len()).collect();
        let keep = keep.unwrap_or(&all);
        let same = keep.len() == ours.len()
            && keep
                .iter()
                .zip(ours)
                .all(|(&k, f)| theirs.get(k).is_some_and(|t| t == f));
        if !same {
            return Err(OutputError::Format {
                path: part.to_owned(),
                reason: "its columns differ from the output's".into(),
            });
        }
        let page_index = meta.page_index();
        let mut rows = 0u64;
        for (g, rg) in meta.row_groups().iter().enumerate() {
            let mut out = self
                .writer
                .next_row_group()
                .map_err(OutputError::format(&self.path))?;
            for &c in keep {
                let column = rg.columns().get(c).ok_or_else(|| OutputError::Format {
                    path: part.to_owned(),
                    reason: "a row group lacks a column of its schema".into(),
                })?;
                let result = ColumnCloseResult {
                    bytes_written: column.compressed_size() as u64,
                    rows_written: rg.num_rows() as u64,
                    metadata: column.clone(),
                    bloom_filter: None,
                    column_index: page_index.and_then(|pi| pi.column_index(g, c)).cloned(),
                    offset_index: page_index.and_then(|pi| pi.offset_index(g, c)).cloned(),
                };
                out.append_column(&file, result)
                    .map_err(OutputError::format(part))?;
            }
            out.close().map_err(OutputError::format(&self.path))?;
            rows += rg.num_rows().max(0) as u64;
        }
        self.rows += rows;
        Ok(rows)
    }

    /// Write the footer; returns the row count.
    pub fn finish(self) -> Result<u64, OutputError> {
        finish_file(self.writer, &self.path, self.rows)
    }
}

/// The two Parquet writers of this file, which write the footer when closed.
trait CloseFile {
    fn close_file(self) -> parquet::errors::Result<()>;
}

impl<W: Write + Send> CloseFile for ArrowWriter<W> {
    fn close_file(self) -> parquet::errors::Result<()> {
        self.close().map(drop)
    }
}

impl<W: Write + Send> CloseFile for SerializedFileWriter<W> {
    fn close_file(self) -> parquet::errors::Result<()> {
        self.close().map(drop)
    }
}

/// Close `writer` (the footer of the file `path`, which holds `rows` rows); returns `rows`.
fn finish_file(writer: impl CloseFile, path: &Path, rows: u64) -> Result<u64, OutputError> {
    writer.close_file().map_err(OutputError::format(path))?;
    Ok(rows)
}

/// Read a Parquet footer (with page indexes when present).
fn read_metadata(file: &File, path: &Path) -> Result<ParquetMetaData, OutputError> {
    ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Optional)
        .parse_and_finish(file)
        .map_err(OutputError::format(path))
}

/// The footer key-value metadata of a Parquet file and its row count.
pub fn read_footer(path: &Path) -> Result<(Vec<(String, String)>, u64), OutputError> {
    let file = File::open(path).map_err(OutputError::io(path))?;
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&file)
        .map_err(OutputError::format(path))?;
    let fm = meta.file_metadata();
    let kv = fm
        .key_value_metadata()
        .map(|kvs| {
            kvs.iter()
                .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    Ok((kv, fm.num_rows().max(0) as u64))
}
