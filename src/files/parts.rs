//! Resumable chunked runs: each finished chunk of a run writing `OUT` is a Parquet part file
//! `part-NNNNNNNN.parquet` in the folder `OUT.parts/`, written atomically, next to a
//! `run.json` record of everything the parts depend on (input identity, schema, evaluator,
//! perspective, chunk size, engine version). A rerun of the same command finds the folder,
//! checks the record, reuses the finished parts, computes the rest, merges all parts into
//! `OUT` (atomically) and removes the folder. An interrupted run therefore loses at most the
//! chunk in progress.
//!
//! Part files carry their own counts in the footer key `dicechess.part` (JSON: `index`,
//! `rows`, `records`, `bad`). Each part is followed by a checksum file
//! `part-NNNNNNNN.sha256` (the part's SHA-256, written atomically after the part), so a part
//! is finished exactly when both files exist and the part's bytes still hash to the
//! checksum; anything else is computed again. The input's identity in `run.json` is the
//! SHA-256 of its whole content (streamed), so any edit anywhere in it refuses the resume.
//!
//! The folder is locked ([`super::lock`]) while a run uses it, so two runs writing one
//! output refuse instead of mixing their parts.

use super::atomic::{self, AtomicFile};
use super::lock::{lock_dir, DirLock};
use super::npy_out::NpyWriter;
use super::parquet_out::{read_footer, Layout, ParquetConcat, ParquetRowsWriter, Rows};
use super::OutputError;
use arrow_array::cast::AsArray;
use arrow_array::types::Float32Type;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The record format written into `run.json` (2: whole-input digest, part checksums; 3: the
/// `fen_hash` column beside `dfen`, so parts of a 2 run are not reused).
pub const RUN_FORMAT: &str = "dicechess-eval-parts-3";

/// Footer key of a part's counts.
pub const PART_KEY: &str = "dicechess.part";

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
    /// SHA-256 of the input's whole content (regular files only), see [`fingerprint`];
    /// without it (a stream) the run cannot be resumed.
    pub input_sha256: Option<String>,
    /// The feature schema id, if features are extracted.
    pub features: Option<String>,
    /// The evaluator id, if scoring.
    pub evaluator: Option<String>,
    /// Whatever else the job's parts depend on (a label job's kind and settings); absent
    /// for `eval`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
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
    /// The first field that differs from `other`, as `name was A, now B`. The input's path
    /// does not count when both records identify it by content (the same SHA-256): the same
    /// bytes under another name (a copy on another machine, a moved file) resume, which is how
    /// a run's slices computed elsewhere are merged.
    pub fn difference(&self, now: &RunRecord) -> Option<String> {
        let (a, b) = (
            serde_json::to_value(self).ok()?,
            serde_json::to_value(now).ok()?,
        );
        let (a, b) = (a.as_object()?, b.as_object()?);
        let same_content = self.input_sha256.is_some() && self.input_sha256 == now.input_sha256;
        a.iter()
            .filter(|(k, _)| !(same_content && *k == "input"))
            .find_map(|(k, va)| {
                let vb = b.get(k).unwrap_or(&serde_json::Value::Null);
                (va != vb).then(|| format!("{k} was {va}, now {vb}"))
            })
    }
}

/// The size and SHA-256 (hex) of a file's whole content, read as a stream in 1 MiB blocks
/// (bounded memory). Hashing everything costs one sequential read of the input (about a
/// second per GB), and it is the only identity that changes with any edit: a fingerprint of
/// a few samples let a same-size edit in the middle reuse stale parts.
pub fn fingerprint(path: &Path) -> std::io::Result<(u64, String)> {
    let mut f = File::open(path)?;
    crate::digest::sha256_stream(&mut f, |_| Ok(()))
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

/// The parts folder of one output file, locked while this value lives.
#[derive(Debug)]
pub struct PartsDir {
    dir: PathBuf,
    _lock: DirLock,
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
        let fresh = !dir.is_dir();
        if fresh {
            std::fs::create_dir_all(&dir).map_err(OutputError::io(&dir))?;
        }
        // Locked before anything in it is read or removed.
        let lock = lock_dir(&dir).map_err(|e| OutputError::Locked(e.to_string()))?;
        let rec_path = record_path(&dir);
        if restart && !fresh {
            clear_dir(&dir)?;
        }
        if fresh || restart {
            write_record(&rec_path, record)?;
            return Ok((PartsDir { dir, _lock: lock }, BTreeMap::new()));
        }
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
        let mut finished = BTreeMap::new();
        for (index, path) in parts {
            match read_part_info(&path).filter(|_| checksum_matches(&path)) {
                Some(info) if info.index == index => {
                    finished.insert(index, info);
                }
                // A damaged or unchecked part is computed again.
                _ => {
                    std::fs::remove_file(&path).map_err(OutputError::io(&path))?;
                    let sum = checksum_path(&path);
                    if sum.exists() {
                        std::fs::remove_file(&sum).map_err(OutputError::io(&sum))?;
                    }
                }
            }
        }
        Ok((PartsDir { dir, _lock: lock }, finished))
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
        f.commit().map_err(OutputError::io(&path))?;
        // The checksum last: a part without one (a crash in between) is computed again.
        let (_, sum) = fingerprint(&path).map_err(OutputError::io(&path))?;
        let sum_path = checksum_path(&path);
        atomic::write_bytes(&sum_path, format!("{sum}\n").as_bytes())
            .map_err(OutputError::io(&sum_path))
    }

    /// Merge parts `0..count` into the Parquet file `out` (atomically) with `metadata` in
    /// its footer; returns the rows written. With `keep`, only those root columns of the
    /// parts (the columns of `layout`, in its order) are copied.
    pub fn merge_parquet(
        &self,
        count: u64,
        layout: &Layout,
        metadata: &[(String, String)],
        out: &Path,
        keep: Option<&[usize]>,
    ) -> Result<u64, OutputError> {
        let mut f = AtomicFile::create(out).map_err(OutputError::io(out))?;
        let mut w = ParquetConcat::new(f.writer(), layout, metadata, out)?;
        for i in 0..count {
            w.append_columns(&self.part_path(i), keep)?;
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
            // Every column but `dfen` or the base columns, in file order: features then
            // score.
            let lead = layout.leading_columns();
            let n_roots = b.parquet_schema().root_schema().get_fields().len();
            if n_roots != layout.matrix_width() + lead {
                return Err(OutputError::Format {
                    path,
                    reason: "its columns differ from the output's".into(),
                });
            }
            let mask = ProjectionMask::roots(b.parquet_schema(), lead..n_roots);
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

    /// Write the scores of parts `0..count` (parts of a shard layout with a score) to the
    /// CSV file `out` (atomically): `game_id,ply,fen_hash,score`, one line per row in the
    /// shard's order; returns the rows written. See [`super::scores_csv`].
    pub fn write_scores_csv(&self, count: u64, out: &Path) -> Result<u64, OutputError> {
        let parts: Vec<PathBuf> = (0..count).map(|i| self.part_path(i)).collect();
        super::scores_csv::write(&parts, out)
    }

    /// Remove the folder and everything in it (after a successful merge): the parts and
    /// checksums first, `run.json` last, then the folder.
    ///
    /// Why the order: a run killed while removing must leave a folder a rerun can read.
    /// `remove_dir_all` goes in directory order, which on ext4 is a hash order (run.json came
    /// 22nd of a 51-entry folder); killed after it but before the parts, the folder held parts
    /// without a record, which the rerun refuses ("it has parts but no readable run.json").
    /// Removed last, a killed removal leaves a record with fewer parts: the rerun resumes and
    /// writes the same bytes.
    pub fn remove(self) -> Result<(), OutputError> {
        let record = record_path(&self.dir);
        for entry in std::fs::read_dir(&self.dir).map_err(OutputError::io(&self.dir))? {
            let path = entry.map_err(OutputError::io(&self.dir))?.path();
            if path != record {
                remove_entry(&path)?;
            }
        }
        remove_entry(&record)?;
        std::fs::remove_dir_all(&self.dir).map_err(OutputError::io(&self.dir))
    }
}

/// Remove a file or folder of a parts folder; one already gone is fine.
fn remove_entry(path: &Path) -> Result<(), OutputError> {
    let gone = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(e) => Err(e),
    };
    match gone {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(OutputError::io(path)(e)),
        _ => Ok(()),
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

/// The checksum file of a part: `part-NNNNNNNN.sha256`.
fn checksum_path(part: &Path) -> PathBuf {
    part.with_extension("sha256")
}

/// Whether `part`'s bytes hash to the SHA-256 in its checksum file.
fn checksum_matches(part: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(checksum_path(part)) else {
        return false;
    };
    fingerprint(part).is_ok_and(|(_, sum)| sum == text.trim())
}

/// Remove the parts, checksums and record of a parts folder (`--restart`), keeping the
/// folder (and so the lock on it). Only the names this module writes are removed.
fn clear_dir(dir: &Path) -> Result<(), OutputError> {
    for entry in std::fs::read_dir(dir).map_err(OutputError::io(dir))? {
        let entry = entry.map_err(OutputError::io(dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = name == "run.json"
            || (name.starts_with("part-")
                && (name.ends_with(".parquet") || name.ends_with(".sha256")));
        if ours {
            let p = entry.path();
            std::fs::remove_file(&p).map_err(OutputError::io(&p))?;
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
