//! The single writer of a self-play run: games arrive in any order, each shard is written
//! (games in index order, so its files do not depend on the thread count) as soon as all of
//! its games are in, and the manifest is rewritten after each shard.

use super::shards::{games_file, rows_file, sha256_file, Counts, RunManifest, ShardEntry};
use super::{GameRecord, SelfPlayConfig, SelfPlayError};
use crate::files::{write_v0_shard, ShardRows};
use std::collections::BTreeMap;
use std::io::Write;

/// A finished game, ready to write.
pub(super) struct Done {
    pub(super) index: u64,
    pub(super) line: String,
    pub(super) record: GameRecord,
    pub(super) rows: ShardRows,
}

/// The writer thread's state: games buffered per shard until the shard is complete.
pub(super) struct Writer<'a> {
    pub(super) cfg: &'a SelfPlayConfig,
    pub(super) manifest: &'a mut RunManifest,
    pub(super) buffers: BTreeMap<u64, BTreeMap<u64, Done>>,
    /// Games written or buffered by this run.
    pub(super) games: u64,
    /// Positions of those games.
    pub(super) positions: u64,
}

impl Writer<'_> {
    /// Take a finished game; write its shard once every game of the shard is in.
    pub(super) fn accept(&mut self, d: Done) -> Result<(), SelfPlayError> {
        self.games += 1;
        self.positions += d.rows.len() as u64;
        let k = d.index / self.cfg.shard_games;
        let buf = self.buffers.entry(k).or_default();
        buf.insert(d.index, d);
        if buf.len() as u64 == self.manifest.games_in_shard(k) {
            let buf = self.buffers.remove(&k).unwrap_or_default();
            self.write_shard(k, buf)?;
        }
        Ok(())
    }

    /// Write shard `k` (games file, rows file, digests) and the manifest that lists it.
    fn write_shard(&mut self, k: u64, games: BTreeMap<u64, Done>) -> Result<(), SelfPlayError> {
        let out = &self.cfg.out;
        let mut counts = Counts::default();
        let mut rows = ShardRows::default();
        let gpath = out.join(games_file(k));
        let mut gfile =
            crate::files::AtomicFile::create(&gpath).map_err(SelfPlayError::io(&gpath))?;
        for d in games.into_values() {
            counts.add_game(&d.record);
            let w = gfile.writer();
            w.write_all(d.line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .map_err(SelfPlayError::io(&gpath))?;
            rows.append(d.rows);
        }
        gfile.commit().map_err(SelfPlayError::io(&gpath))?;
        let rpath = out.join(rows_file(k));
        let schema = self.cfg.schema;
        write_v0_shard(&rpath, &rows, schema.id(), schema.columns())
            .map_err(SelfPlayError::Output)?;
        let mut files = BTreeMap::new();
        for p in [&gpath, &rpath] {
            let sha = sha256_file(p).map_err(SelfPlayError::io(p))?;
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.insert(name, sha);
        }
        self.manifest.shards.push(ShardEntry {
            index: k,
            first_game: k * self.cfg.shard_games,
            counts,
            files,
        });
        self.manifest
            .write(out)
            .map_err(SelfPlayError::io(&RunManifest::path(out)))
    }
}
