//! Self-play output in shards: shard names, the run's `manifest.json`, digests, slices
//! (`--shard i/n`) and merging the manifests of slices.
//!
//! A run of `games` games is cut into shards of `shard_games` games each; shard `k` holds
//! games `k·shard_games ..` and is written as `shard-<k>.games.jsonl` and
//! `shard-<k>.rows.parquet` (5-digit `k`). The manifest lists every finished shard with
//! the SHA-256 of its files, so a rerun verifies and skips them.

use crate::digest::sha256_stream;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The manifest's `format` value.
pub const MANIFEST_FORMAT: &str = "dicechess-selfplay-v1";

/// The manifest's file name inside the output folder.
pub const MANIFEST_NAME: &str = "manifest.json";

/// Largest `manifest.json` read (a run of a million shards fits in a few hundred MiB; the
/// bound only stops a planted endless file).
const MAX_MANIFEST_BYTES: u64 = 1 << 30;

/// The file stem of shard `k`: `shard-00042`.
pub fn shard_stem(k: u64) -> String {
    format!("shard-{k:05}")
}

/// The games file of shard `k`.
pub fn games_file(k: u64) -> String {
    format!("{}.games.jsonl", shard_stem(k))
}

/// The training-rows file of shard `k`.
pub fn rows_file(k: u64) -> String {
    format!("{}.rows.parquet", shard_stem(k))
}

/// Why a manifest, or a shard file it lists, is refused.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// A file could not be read, written or renamed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// `manifest.json` is not a manifest (bad JSON or missing fields).
    #[error("{path}: not a self-play manifest: {reason}")]
    Json {
        /// The manifest.
        path: PathBuf,
        /// The parser's message.
        reason: String,
    },
    /// `format` names another format.
    #[error("{path}: format {found:?}, expected {MANIFEST_FORMAT:?}")]
    Format {
        /// The manifest.
        path: PathBuf,
        /// The value found.
        found: String,
    },
    /// The run's own numbers disagree (games, games per shard, shard count, slice).
    #[error("{path}: {reason}")]
    Inconsistent {
        /// The manifest.
        path: PathBuf,
        /// What disagrees.
        reason: String,
    },
    /// A shard entry lists a file name the engine does not write for that shard.
    #[error("{path}: shard {index} lists the file {name:?}; a shard's files are exactly {games:?} and {rows:?}")]
    FileName {
        /// The manifest.
        path: PathBuf,
        /// The shard index.
        index: u64,
        /// The name found.
        name: String,
        /// The games file the engine writes for this shard.
        games: String,
        /// The rows file the engine writes for this shard.
        rows: String,
    },
    /// A shard entry's index, first game or game count does not fit the run.
    #[error("{path}: shard {index}: {reason}")]
    Shard {
        /// The manifest.
        path: PathBuf,
        /// The shard index.
        index: u64,
        /// What is wrong.
        reason: String,
    },
    /// A listed file is a symlink, device, pipe or folder, not a regular file.
    #[error("{path}: not a regular file (symlinks, devices and folders are refused)")]
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// A listed file's bytes do not have the recorded SHA-256.
    #[error("{path}: SHA-256 {actual} differs from the manifest's {expected}")]
    Digest {
        /// The file.
        path: PathBuf,
        /// The manifest's digest.
        expected: String,
        /// The file's digest.
        actual: String,
    },
    /// Two folders hold different runs.
    #[error("{a} and {b} are different runs: {difference}")]
    DifferentRuns {
        /// The first folder.
        a: PathBuf,
        /// The other folder.
        b: PathBuf,
        /// The first difference.
        difference: String,
    },
    /// Two folders hold the same shard.
    #[error("shard {index} is in both {a} and {b}")]
    DuplicateShard {
        /// The shard index.
        index: u64,
        /// The first folder.
        a: PathBuf,
        /// The other folder.
        b: PathBuf,
    },
    /// No folders given.
    #[error("nothing to merge")]
    Empty,
    /// Writing the copy of a listed file failed (a full disk, say): the output's failure,
    /// not a refusal of the manifest.
    #[error("{path}: {source}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl ManifestError {
    /// Whether this refuses what was read (a manifest, a listed file) rather than reporting
    /// a failure to write the output ([`ManifestError::Write`]).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, ManifestError::Write { .. })
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ManifestError + '_ {
    move |source| ManifestError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Open `path` for reading only if it is a regular file: a symlink (checked without
/// following it), device, pipe or folder is refused, and the opened handle is checked
/// again, so a file swapped in between is refused too.
pub fn open_regular(path: &Path) -> Result<std::fs::File, ManifestError> {
    let meta = std::fs::symlink_metadata(path).map_err(io_error(path))?;
    if !meta.file_type().is_file() {
        return Err(ManifestError::NotRegular {
            path: path.to_owned(),
        });
    }
    let f = std::fs::File::open(path).map_err(io_error(path))?;
    if !f.metadata().map_err(io_error(path))?.is_file() {
        return Err(ManifestError::NotRegular {
            path: path.to_owned(),
        });
    }
    Ok(f)
}

#[cfg(feature = "files")]
/// Lower-case hex SHA-256 of a file the engine just wrote.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    Ok(sha256_stream(&mut std::fs::File::open(path)?, |_| Ok(()))?.1)
}

/// One deterministic slice of a run: shard `k` belongs to it iff `k % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// This slice, `0..count`.
    pub index: u64,
    /// Number of slices.
    pub count: u64,
}

/// Why a slice `i/n` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SliceError {
    /// No `/`.
    #[error("{text:?}: expected i/n, e.g. 0/4")]
    Shape {
        /// The text given.
        text: String,
    },
    /// `i` or `n` is not a number.
    #[error("{text:?}: {part:?} is not a number")]
    NotANumber {
        /// The text given.
        text: String,
        /// The part that is not a number.
        part: String,
    },
    /// `0 <= i < n` does not hold.
    #[error("{text:?}: need 0 <= i < n")]
    Range {
        /// The text given.
        text: String,
    },
}

impl Slice {
    /// The whole run.
    pub const ALL: Slice = Slice { index: 0, count: 1 };

    /// Parse `i/n` (`0 <= i < n`).
    pub fn parse(text: &str) -> Result<Slice, SliceError> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| SliceError::Shape { text: text.into() })?;
        let number = |part: &str| {
            part.trim()
                .parse::<u64>()
                .map_err(|_| SliceError::NotANumber {
                    text: text.into(),
                    part: part.into(),
                })
        };
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 || index >= count {
            return Err(SliceError::Range { text: text.into() });
        }
        Ok(Slice { index, count })
    }

    /// Whether shard `k` belongs to this slice.
    pub fn holds(self, k: u64) -> bool {
        k % self.count == self.index
    }

    /// `None` for the whole run, else `i/n` (the manifest's `slice`).
    pub fn label(self) -> Option<String> {
        (self.count > 1).then(|| format!("{}/{}", self.index, self.count))
    }
}

/// Counts of one shard (or of a whole run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// Training rows (positions before each turn).
    pub positions: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Drawn (adjudicated) games.
    pub draws: u64,
    /// Turns passed (no legal move).
    pub passes: u64,
    /// Games adjudicated by the half-move clock.
    pub halfmove_adjudications: u64,
    /// Games adjudicated by the turn cap.
    pub turn_adjudications: u64,
    /// Turns played in all games.
    pub turns: u64,
}

impl Counts {
    /// Add another count.
    pub fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.positions += o.positions;
        self.white_wins += o.white_wins;
        self.black_wins += o.black_wins;
        self.draws += o.draws;
        self.passes += o.passes;
        self.halfmove_adjudications += o.halfmove_adjudications;
        self.turn_adjudications += o.turn_adjudications;
        self.turns += o.turns;
    }

    /// Count one game.
    pub fn add_game(&mut self, g: &super::GameRecord) {
        use super::Termination;
        self.games += 1;
        self.positions += g.turns.len() as u64;
        self.turns += g.turns.len() as u64;
        self.passes += g.turns.iter().filter(|t| t.moves.is_empty()).count() as u64;
        match g.result {
            1 => self.white_wins += 1,
            -1 => self.black_wins += 1,
            _ => self.draws += 1,
        }
        match g.termination {
            Termination::HalfmoveLimit => self.halfmove_adjudications += 1,
            Termination::TurnLimit => self.turn_adjudications += 1,
            Termination::KingCapture => {}
        }
    }
}

/// A finished shard in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardEntry {
    /// Shard index `k`.
    pub index: u64,
    /// Index of its first game.
    pub first_game: u64,
    /// Its counts.
    pub counts: Counts,
    /// File name → lower-case hex SHA-256.
    pub files: BTreeMap<String, String>,
}

impl ShardEntry {
    /// Check that the entry's file names are exactly the ones the engine writes for its
    /// index and that each digest is 64 lower-case hex digits. `manifest` names the file in
    /// errors.
    pub fn check_names(&self, manifest: &Path) -> Result<(), ManifestError> {
        let (games, rows) = (games_file(self.index), rows_file(self.index));
        for (name, digest) in &self.files {
            if *name != games && *name != rows {
                return Err(ManifestError::FileName {
                    path: manifest.to_owned(),
                    index: self.index,
                    name: name.clone(),
                    games,
                    rows,
                });
            }
            if digest.len() != 64
                || !digest
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            {
                return Err(ManifestError::Shard {
                    path: manifest.to_owned(),
                    index: self.index,
                    reason: format!("the SHA-256 of {name} is not 64 lower-case hex digits"),
                });
            }
        }
        if self.files.len() != 2 {
            return Err(ManifestError::Shard {
                path: manifest.to_owned(),
                index: self.index,
                reason: format!(
                    "lists {} file(s); a shard has {games} and {rows}",
                    self.files.len()
                ),
            });
        }
        Ok(())
    }

    /// Whether every file is a regular file in `dir` with the recorded digest. Call only on
    /// entries whose names passed [`ShardEntry::check_names`] (every read manifest's do).
    pub fn verify(&self, dir: &Path) -> Result<(), ManifestError> {
        for (name, want) in &self.files {
            let p = dir.join(name);
            let got = sha256_stream(&mut open_regular(&p)?, |_| Ok(()))
                .map_err(io_error(&p))?
                .1;
            if &got != want {
                return Err(ManifestError::Digest {
                    path: p,
                    expected: want.clone(),
                    actual: got,
                });
            }
        }
        Ok(())
    }

    /// Copy the shard's files from `from` into `to`, hashing the very bytes copied: each file
    /// is written to a temporary name and renamed into place only when its digest matches. A
    /// failed write (a full disk) is [`ManifestError::Write`], naming the copy, and leaves no
    /// file under the copy's name.
    #[cfg(feature = "files")]
    pub fn copy_verified(&self, from: &Path, to: &Path) -> Result<(), ManifestError> {
        use std::io::Write;
        for (name, want) in &self.files {
            let (src, dst) = (from.join(name), to.join(name));
            let mut input = open_regular(&src)?;
            let write = |source| ManifestError::Write {
                path: dst.clone(),
                source,
            };
            let mut out = crate::files::AtomicFile::create(&dst).map_err(write)?;
            // Which side failed: a read names the source, a write (a full disk) the copy.
            let mut write_failed = false;
            let got = sha256_stream(&mut input, |b| {
                out.writer()
                    .write_all(b)
                    .inspect_err(|_| write_failed = true)
            })
            .map_err(|source| match write_failed {
                true => write(source),
                false => ManifestError::Io {
                    path: src.clone(),
                    source,
                },
            })?
            .1;
            if &got != want {
                // Dropping `out` removes the temporary file.
                return Err(ManifestError::Digest {
                    path: src,
                    expected: want.clone(),
                    actual: got,
                });
            }
            out.commit().map_err(write)?;
        }
        Ok(())
    }
}

/// `manifest.json` of a self-play output folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunManifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// The engine version that wrote it.
    pub engine_version: String,
    /// The rule set (`files::RULESET`).
    pub ruleset: String,
    /// The run seed.
    pub seed: u64,
    /// Games in the whole run.
    pub games: u64,
    /// Games per shard.
    pub shard_games: u64,
    /// Shards in the whole run.
    pub shard_count: u64,
    /// `i/n` when this folder holds one slice, else absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<String>,
    /// White's bot configuration.
    pub white: serde_json::Value,
    /// Black's bot configuration.
    pub black: serde_json::Value,
    /// Canonical DFEN of the start position (no dice).
    pub start: String,
    /// Adjudication limits `{"halfmove", "turns"}`.
    pub limits: serde_json::Value,
    /// The feature schema id of the rows files.
    pub feature_schema: String,
    /// Perspective of the rows' features and results (`side-to-move`).
    pub perspective: String,
    /// Finished shards, by index.
    pub shards: Vec<ShardEntry>,
}

impl RunManifest {
    /// The path of the manifest in `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(MANIFEST_NAME)
    }

    /// Read `dir`'s manifest; `Ok(None)` when there is none. The manifest is checked
    /// ([`RunManifest::check`]) before it is returned, so every file name in it is one the
    /// engine writes.
    pub fn read(dir: &Path) -> Result<Option<RunManifest>, ManifestError> {
        let p = RunManifest::path(dir);
        let file = match open_regular(&p) {
            Ok(f) => f,
            Err(ManifestError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(None)
            }
            Err(e) => return Err(e),
        };
        let mut text = String::new();
        file.take(MAX_MANIFEST_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io_error(&p))?;
        if text.len() as u64 > MAX_MANIFEST_BYTES {
            return Err(ManifestError::Inconsistent {
                path: p,
                reason: format!("larger than {MAX_MANIFEST_BYTES} bytes"),
            });
        }
        let m: RunManifest = serde_json::from_str(&text).map_err(|e| ManifestError::Json {
            path: p.clone(),
            reason: e.to_string(),
        })?;
        m.check(&p)?;
        Ok(Some(m))
    }

    /// Check what a manifest read from `path` claims: its format, that games, games per
    /// shard and shard count agree, that every shard index is in the run (and in the
    /// slice), once, with the right first game and game count, and that every file name is
    /// exactly the one the engine writes for that shard.
    pub fn check(&self, path: &Path) -> Result<(), ManifestError> {
        let bad = |reason: String| ManifestError::Inconsistent {
            path: path.to_owned(),
            reason,
        };
        if self.format != MANIFEST_FORMAT {
            return Err(ManifestError::Format {
                path: path.to_owned(),
                found: self.format.clone(),
            });
        }
        if self.shard_games == 0 {
            return Err(bad("shardGames is 0".into()));
        }
        if self.shard_count != self.games.div_ceil(self.shard_games) {
            return Err(bad(format!(
                "shardCount {} does not match {} games in shards of {}",
                self.shard_count, self.games, self.shard_games
            )));
        }
        let slice = match &self.slice {
            None => Slice::ALL,
            Some(text) => Slice::parse(text).map_err(|e| bad(format!("slice {e}")))?,
        };
        let mut seen = std::collections::BTreeSet::new();
        for s in &self.shards {
            let shard = |reason: String| ManifestError::Shard {
                path: path.to_owned(),
                index: s.index,
                reason,
            };
            if s.index >= self.shard_count {
                return Err(shard(format!(
                    "the run has only {} shard(s)",
                    self.shard_count
                )));
            }
            if !slice.holds(s.index) {
                return Err(shard(format!(
                    "not in slice {}",
                    self.slice.as_deref().unwrap_or("all")
                )));
            }
            if !seen.insert(s.index) {
                return Err(shard("listed twice".into()));
            }
            if s.first_game != s.index * self.shard_games {
                return Err(shard(format!(
                    "firstGame {} should be {}",
                    s.first_game,
                    s.index * self.shard_games
                )));
            }
            if s.counts.games != self.games_in_shard(s.index) {
                return Err(shard(format!(
                    "holds {} game(s), the run puts {} there",
                    s.counts.games,
                    self.games_in_shard(s.index)
                )));
            }
            s.check_names(path)?;
        }
        Ok(())
    }

    /// Write the manifest into `dir` atomically (shards sorted by index).
    #[cfg(feature = "files")]
    pub fn write(&mut self, dir: &Path) -> std::io::Result<()> {
        self.shards.sort_by_key(|s| s.index);
        let mut text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        text.push('\n');
        crate::files::write_bytes(&RunManifest::path(dir), text.as_bytes())
    }

    /// Games of shard `k` in this run.
    pub fn games_in_shard(&self, k: u64) -> u64 {
        let first = k * self.shard_games;
        self.games.saturating_sub(first).min(self.shard_games)
    }

    /// The first difference in what defines the run (everything but the games count, the
    /// slice and the shards), or `None` when `other` continues the same run.
    pub fn run_difference(&self, other: &RunManifest) -> Option<String> {
        let pairs: [(&str, String, String); 9] = [
            (
                "engine version",
                self.engine_version.clone(),
                other.engine_version.clone(),
            ),
            ("ruleset", self.ruleset.clone(), other.ruleset.clone()),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            (
                "games per shard",
                self.shard_games.to_string(),
                other.shard_games.to_string(),
            ),
            ("white", self.white.to_string(), other.white.to_string()),
            ("black", self.black.to_string(), other.black.to_string()),
            ("start", self.start.clone(), other.start.clone()),
            ("limits", self.limits.to_string(), other.limits.to_string()),
            (
                "feature schema",
                self.feature_schema.clone(),
                other.feature_schema.clone(),
            ),
        ];
        pairs
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(what, a, b)| format!("{what} {a} vs {b}"))
    }

    /// Totals over the finished shards.
    pub fn totals(&self) -> Counts {
        let mut c = Counts::default();
        for s in &self.shards {
            c.add(&s.counts);
        }
        c
    }
}

#[cfg(feature = "files")]
/// Combine the manifests of slices (or partial runs) of one run: they must agree on the run
/// (games count included), each must pass [`RunManifest::check`], and no shard may be held
/// twice. The result holds every shard, with no slice label.
pub fn merge_manifests(parts: &[(PathBuf, RunManifest)]) -> Result<RunManifest, ManifestError> {
    let Some((first_dir, first)) = parts.first() else {
        return Err(ManifestError::Empty);
    };
    let mut out = first.clone();
    out.slice = None;
    out.shards.clear();
    let mut owner: BTreeMap<u64, &Path> = BTreeMap::new();
    for (dir, m) in parts {
        m.check(&RunManifest::path(dir))?;
        let difference = first.run_difference(m).or_else(|| {
            (m.games != first.games).then(|| format!("games {} vs {}", first.games, m.games))
        });
        if let Some(difference) = difference {
            return Err(ManifestError::DifferentRuns {
                a: first_dir.clone(),
                b: dir.clone(),
                difference,
            });
        }
        for s in &m.shards {
            if let Some(prev) = owner.insert(s.index, dir) {
                return Err(ManifestError::DuplicateShard {
                    index: s.index,
                    a: prev.to_owned(),
                    b: dir.clone(),
                });
            }
            out.shards.push(s.clone());
        }
    }
    out.shards.sort_by_key(|s| s.index);
    out.check(&RunManifest::path(first_dir))?;
    Ok(out)
}
