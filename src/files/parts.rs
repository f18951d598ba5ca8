//! Resumable chunked runs: each finished chunk of a run writing `OUT` is a Parquet part file
//! `part-NNNNNNNN.parquet` in the folder `OUT.parts/`, written atomically, next to a
//! `run.json` record of everything the parts depend on (input identity, schema, evaluator,
//! perspective, chunk size, engine version). A rerun of the same command finds the folder,
//! checks the record, reuses the finished parts, computes the rest, merges all parts into
//! `OUT` (atomically) and removes the folder. An interrupted run therefore loses at most the
//! chunk in progress.
//!
//! Part files carry their own counts in the footer key `dicechess.part` (JSON: `index`,
//! `rows`, `records`, `bad`), so a part is finished exactly when its file exists.

use super::atomic::{self, AtomicFile};
use super::npy_out::NpyWriter;
use super::parquet_out::{read_footer, Layout, ParquetConcat, ParquetRowsWriter, Rows};
use super::OutputError;
use arrow_array::cast::AsArray;
use arrow_array::types::Float32Type;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The record format written into `run.json`.
pub const RUN_FORMAT: &str = "dicechess-eval-parts-1";

/// Footer key of a part's counts.
pub const PART_KEY: &str = "dicechess.part";

/// Bytes hashed at each end of an input file for its fingerprint.
const FINGERPRINT_BYTES: u64 = 1 << 20;

/// Everything a run's parts depend on; two runs may share parts only when their records are
/// equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Always [`RUN_FORMAT`].
    pub format: String,
    /// The input: an absolute path, or `-` for standard input.
    pub input: String,
    /// How the input is read: `dfen-lines` or `parquet:<column>`.
    pub input_kind: String,
    /// The input's size in bytes (files only).
    pub input_size: Option<u64>,
    /// SHA-256 of the input's first and last MiB (regular files only), see [`fingerprint`];
    /// without it (a stream) the run cannot be resumed.
    pub input_sha256: Option<String>,
    /// The feature schema id, if features are extracted.
    pub features: Option<String>,
    /// The evaluator id, if scoring.
    pub evaluator: Option<String>,
    /// The feature perspective's name.
    pub perspective: String,
    /// Records per chunk.
    pub chunk_rows: u64,
    /// The output format: `parquet` or `npy`.
    pub output: String,
    /// The engine version that wrote the parts.
    pub engine_version: String,
}

impl RunRecord {
    /// The first field that differs from `other`, as `name was A, now B`.
    pub fn difference(&self, now: &RunRecord) -> Option<String> {
        let (a, b) = (
            serde_json::to_value(self).ok()?,
            serde_json::to_value(now).ok()?,
        );
        let (a, b) = (a.as_object()?, b.as_object()?);
        a.iter().find_map(|(k, va)| {
            let vb = b.get(k).unwrap_or(&serde_json::Value::Null);
            (va != vb).then(|| format!("{k} was {va}, now {vb}"))
        })
    }
}

/// SHA-256 (hex) of a file's first and last MiB (the whole file when it is smaller than
/// 2 MiB) followed by its size: cheap, and it changes when the file is replaced, edited at
/// either end, truncated or extended.
pub fn fingerprint(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = File::open(path)?;
    let size = f.metadata()?.len();
    let mut h = Sha256::new();
    let mut buf = Vec::new();
    (&mut f).take(FINGERPRINT_BYTES).read_to_end(&mut buf)?;
    h.update(&buf);
    if size > FINGERPRINT_BYTES {
        let start = size
            .saturating_sub(FINGERPRINT_BYTES)
            .max(FINGERPRINT_BYTES);
        f.seek(SeekFrom::Start(start))?;
        buf.clear();
        f.take(FINGERPRINT_BYTES).read_to_end(&mut buf)?;
        h.update(&buf);
    }
    h.update(size.to_le_bytes());
    let hex = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((size, hex))
}

/// The counts of one finished part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartInfo {
    /// The chunk number.
    pub index: u64,
    /// Rows written (good records).
    pub rows: u64,
    /// Records read (good and bad).
    pub records: u64,
    /// Bad records skipped.
    pub bad: u64,
}

/// The parts folder of one output file.
#[derive(Debug)]
pub struct PartsDir {
    dir: PathBuf,
}

/// The parts folder for `out`: `<out>.parts`.
pub fn parts_dir_for(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".parts");
    PathBuf::from(name)
}

fn record_path(dir: &Path) -> PathBuf {
    dir.join("run.json")
}

/// The record of an existing parts folder for `out`, if there is one and it is readable.
pub fn read_record(out: &Path) -> Option<RunRecord> {
    let bytes = std::fs::read(record_path(&parts_dir_for(out))).ok()?;
    serde_json::from_slice(&bytes).ok()
}

impl PartsDir {
    /// Open the parts folder for `out`: create it (writing `record`) when absent or when
    /// `restart` is set (discarding what is there), else check that its record equals
    /// `record` and return the finished parts, by chunk number.
    ///
    /// Refuses ([`OutputError::PartsMismatch`]) a folder recorded for other settings or other
    /// input, and ([`OutputError::CannotResume`]) one whose run read a stream (no
    /// `input_sha256`).
    pub fn open(
        out: &Path,
        record: &RunRecord,
        restart: bool,
    ) -> Result<(PartsDir, BTreeMap<u64, PartInfo>), OutputError> {
        let dir = parts_dir_for(out);
        if restart && dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(OutputError::io(&dir))?;
        }
        let rec_path = record_path(&dir);
        if dir.is_dir() {
            let parts = list_parts(&dir)?;
            match std::fs::read(&rec_path) {
                Ok(bytes) => {
                    let old: RunRecord =
                        serde_json::from_slice(&bytes).map_err(|e| OutputError::PartsMismatch {
                            dir: dir.clone(),
                            reason: format!("its run.json is unreadable ({e})"),
                        })?;
                    if old.input_sha256.is_none() && !parts.is_empty() {
                        return Err(OutputError::CannotResume {
                            dir,
                            reason: "the interrupted run read a stream (standard input or a \
                                     pipe), which cannot be checked against this one"
                                .into(),
                        });
                    }
                    if let Some(diff) = old.difference(record) {
                        return Err(OutputError::PartsMismatch { dir, reason: diff });
                    }
                }
                Err(_) if parts.is_empty() => write_record(&rec_path, record)?,
                Err(e) => {
                    return Err(OutputError::PartsMismatch {
                        dir,
                        reason: format!("it has parts but no readable run.json ({e})"),
                    })
                }
            }
            remove_temporaries(&dir)?;
            remove_stale_output_temporaries(out)?;
            let mut finished = BTreeMap::new();
            for (index, path) in parts {
                match read_part_info(&path) {
                    Some(info) if info.index == index => {
                        finished.insert(index, info);
                    }
                    // A damaged part is computed again.
                    _ => std::fs::remove_file(&path).map_err(OutputError::io(&path))?,
                }
            }
            return Ok((PartsDir { dir }, finished));
        }
        std::fs::create_dir_all(&dir).map_err(OutputError::io(&dir))?;
        write_record(&rec_path, record)?;
        Ok((PartsDir { dir }, BTreeMap::new()))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The file of part `index`.
    pub fn part_path(&self, index: u64) -> PathBuf {
        self.dir.join(format!("part-{index:08}.parquet"))
    }

    /// Write part `info.index` atomically with `rows` (which must have `info.rows` rows).
    pub fn write_part(
        &self,
        info: PartInfo,
        layout: &Layout,
        rows: Rows<'_>,
    ) -> Result<(), OutputError> {
        let path = self.part_path(info.index);
        let meta = [(
            PART_KEY.to_owned(),
            serde_json::to_string(&info).unwrap_or_default(),
        )];
        let mut f = AtomicFile::create(&path).map_err(OutputError::io(&path))?;
        let mut w = ParquetRowsWriter::new(f.writer(), layout, &meta, &path)?;
        w.write(rows)?;
        w.finish()?;
        f.commit().map_err(OutputError::io(&path))
    }

    /// Merge parts `0..count` into the Parquet file `out` (atomically) with `metadata` in
    /// its footer; returns the rows written.
    pub fn merge_parquet(
        &self,
        count: u64,
        layout: &Layout,
        metadata: &[(String, String)],
        out: &Path,
    ) -> Result<u64, OutputError> {
        let mut f = AtomicFile::create(out).map_err(OutputError::io(out))?;
        let mut w = ParquetConcat::new(f.writer(), layout, metadata, out)?;
        for i in 0..count {
            w.append(&self.part_path(i))?;
        }
        let rows = w.finish()?;
        f.commit().map_err(OutputError::io(out))?;
        Ok(rows)
    }

    /// Merge parts `0..count` into the NPY file `out` (atomically): the feature columns, then
    /// the score when the layout has one; returns the rows written.
    pub fn merge_npy(&self, count: u64, layout: &Layout, out: &Path) -> Result<u64, OutputError> {
        let mut f = AtomicFile::create(out).map_err(OutputError::io(out))?;
        let mut w = NpyWriter::new(f.writer(), layout.matrix_width(), out)?;
        let mut row = Vec::new();
        for i in 0..count {
            let path = self.part_path(i);
            let file = File::open(&path).map_err(OutputError::io(&path))?;
            let fmt = OutputError::format(&path);
            let b = ParquetRecordBatchReaderBuilder::try_new(file).map_err(fmt)?;
            // Every column but `dfen` (root 0), in file order: features then score.
            let n_roots = b.parquet_schema().root_schema().get_fields().len();
            if n_roots != layout.matrix_width() + 1 {
                return Err(OutputError::Format {
                    path,
                    reason: "its columns differ from the output's".into(),
                });
            }
            let mask = ProjectionMask::roots(b.parquet_schema(), 1..n_roots);
            let reader = b
                .with_projection(mask)
                .with_batch_size(8192)
                .build()
                .map_err(OutputError::format(&path))?;
            for batch in reader {
                let batch = batch.map_err(OutputError::format(&path))?;
                let cols = batch
                    .columns()
                    .iter()
                    .map(|c| c.as_primitive_opt::<Float32Type>().map(|a| a.values()))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| OutputError::Format {
                        path: path.clone(),
                        reason: "a value column is not Float32".into(),
                    })?;
                row.clear();
                for r in 0..batch.num_rows() {
                    row.extend(cols.iter().map(|c| c[r]));
                }
                w.write_rows(&row)?;
            }
        }
        let rows = w.finish()?;
        f.commit().map_err(OutputError::io(out))?;
        Ok(rows)
    }

    /// Remove the folder and everything in it (after a successful merge).
    pub fn remove(self) -> Result<(), OutputError> {
        std::fs::remove_dir_all(&self.dir).map_err(OutputError::io(&self.dir))
    }
}

fn write_record(path: &Path, record: &RunRecord) -> Result<(), OutputError> {
    let mut text = serde_json::to_string_pretty(record).unwrap_or_default();
    text.push('\n');
    atomic::write_bytes(path, text.as_bytes()).map_err(OutputError::io(path))
}

/// The part files in `dir` by chunk number.
fn list_parts(dir: &Path) -> Result<BTreeMap<u64, PathBuf>, OutputError> {
    let mut parts = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(OutputError::io(dir))? {
        let entry = entry.map_err(OutputError::io(dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(num) = name
            .strip_prefix("part-")
            .and_then(|r| r.strip_suffix(".parquet"))
        {
            if let Ok(i) = num.parse::<u64>() {
                parts.insert(i, entry.path());
            }
        }
    }
    Ok(parts)
}

/// Remove temporary files an interrupted run left in `dir`.
fn remove_temporaries(dir: &Path) -> Result<(), OutputError> {
    for entry in std::fs::read_dir(dir).map_err(OutputError::io(dir))? {
        let entry = entry.map_err(OutputError::io(dir))?;
        if entry.file_name().to_str().is_some_and(atomic::is_temp_name) {
            let p = entry.path();
            std::fs::remove_file(&p).map_err(OutputError::io(&p))?;
        }
    }
    Ok(())
}

/// Remove `<out>.tmp-<pid>` files of other processes: an interrupted merge's leftovers
/// (only looked for when resuming, so a concurrent run's file is never at risk unless two
/// runs write the same output, which is an error anyway).
fn remove_stale_output_temporaries(out: &Path) -> Result<(), OutputError> {
    let Some(name) = out.file_name().and_then(|n| n.to_str()) else {
        return Ok(());
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Ok(());
    };
    let prefix = format!("{name}.tmp-");
    let own = std::process::id().to_string();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(n) = file_name.to_str() else {
            continue;
        };
        if let Some(pid) = n.strip_prefix(&prefix) {
            if pid != own && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) {
                let p = entry.path();
                std::fs::remove_file(&p).map_err(OutputError::io(&p))?;
            }
        }
    }
    Ok(())
}

/// A part's counts from its footer, `None` when the file is unreadable.
fn read_part_info(path: &Path) -> Option<PartInfo> {
    let (kv, rows) = read_footer(path).ok()?;
    let (_, v) = kv.iter().find(|(k, _)| k == PART_KEY)?;
    let info: PartInfo = serde_json::from_str(v).ok()?;
    (info.rows == rows).then_some(info)
}
