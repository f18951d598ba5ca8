//! Self-play output in shards: shard names, the run's `manifest.json`, digests, slices
//! (`--shard i/n`) and merging the manifests of slices.
//!
//! A run of `games` games is cut into shards of `shard_games` games each; shard `k` holds
//! games `k·shard_games ..` and is written as `shard-<k>.games.jsonl` and
//! `shard-<k>.rows.parquet` (5-digit `k`). The manifest lists every finished shard with
//! the SHA-256 of its files, so a rerun verifies and skips them.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The manifest's `format` value.
pub const MANIFEST_FORMAT: &str = "dicechess-selfplay-v1";

/// The manifest's file name inside the output folder.
pub const MANIFEST_NAME: &str = "manifest.json";

/// The rule set written into the manifest and the Parquet footer (`ruleset`).
pub const RULESET: &str = "dicechess-rules-v1";

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

/// Lower-case hex SHA-256 of a file.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// One deterministic slice of a run: shard `k` belongs to it iff `k % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// This slice, `0..count`.
    pub index: u64,
    /// Number of slices.
    pub count: u64,
}

impl Slice {
    /// The whole run.
    pub const ALL: Slice = Slice { index: 0, count: 1 };

    /// Parse `i/n` (`0 <= i < n`).
    pub fn parse(text: &str) -> Result<Slice, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?}: expected i/n, e.g. 0/4"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: {i:?} is not a number"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: {n:?} is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("{text:?}: need 0 <= i < n"));
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
    /// Whether every file is in `dir` with the recorded digest.
    pub fn verify(&self, dir: &Path) -> Result<(), String> {
        if self.files.is_empty() {
            return Err(format!("shard {} lists no files", self.index));
        }
        for (name, want) in &self.files {
            let p = dir.join(name);
            match sha256_file(&p) {
                Ok(got) if &got == want => {}
                Ok(got) => {
                    return Err(format!(
                        "{}: SHA-256 {got} differs from the manifest's {want}",
                        p.display()
                    ))
                }
                Err(e) => return Err(format!("{}: {e}", p.display())),
            }
        }
        Ok(())
    }
}

/// `manifest.json` of a self-play output folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// The engine version that wrote it.
    pub engine_version: String,
    /// [`RULESET`].
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

impl Manifest {
    /// The path of the manifest in `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(MANIFEST_NAME)
    }

    /// Read `dir`'s manifest; `Ok(None)` when there is none.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, String> {
        let p = Manifest::path(dir);
        let text = match std::fs::read_to_string(&p) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", p.display())),
        };
        let m: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        if m.format != MANIFEST_FORMAT {
            return Err(format!(
                "{}: format {:?}, expected {MANIFEST_FORMAT:?}",
                p.display(),
                m.format
            ));
        }
        Ok(Some(m))
    }

    /// Write the manifest into `dir` atomically (shards sorted by index).
    #[cfg(feature = "files")]
    pub fn write(&mut self, dir: &Path) -> std::io::Result<()> {
        self.shards.sort_by_key(|s| s.index);
        let mut text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        text.push('\n');
        crate::files::atomic::write_bytes(&Manifest::path(dir), text.as_bytes())
    }

    /// Games of shard `k` in this run.
    pub fn games_in_shard(&self, k: u64) -> u64 {
        let first = k * self.shard_games;
        self.games.saturating_sub(first).min(self.shard_games)
    }

    /// The first difference in what defines the run (everything but the games count, the
    /// slice and the shards), or `None` when `other` continues the same run.
    pub fn run_difference(&self, other: &Manifest) -> Option<String> {
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

/// Combine the manifests of slices (or partial runs) of one run: they must agree on the run
/// (games count included) and hold no shard twice. The result holds every shard, with no
/// slice label.
pub fn merge_manifests(parts: &[(PathBuf, Manifest)]) -> Result<Manifest, String> {
    let Some((first_dir, first)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    let mut out = first.clone();
    out.slice = None;
    out.shards.clear();
    let mut owner: BTreeMap<u64, &Path> = BTreeMap::new();
    for (dir, m) in parts {
        if let Some(d) = first.run_difference(m) {
            return Err(format!(
                "{} and {} are different runs: {d}",
                first_dir.display(),
                dir.display()
            ));
        }
        if m.games != first.games {
            return Err(format!(
                "{} and {} are different runs: games {} vs {}",
                first_dir.display(),
                dir.display(),
                first.games,
                m.games
            ));
        }
        for s in &m.shards {
            if let Some(prev) = owner.insert(s.index, dir) {
                return Err(format!(
                    "shard {} is in both {} and {}",
                    s.index,
                    prev.display(),
                    dir.display()
                ));
            }
            out.shards.push(s.clone());
        }
    }
    out.shards.sort_by_key(|s| s.index);
    Ok(out)
}
