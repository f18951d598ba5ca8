//! Self-play runs: many games between two bots on all cores, written in shards by a single
//! writer thread, resumable (see [`super::shards`]).
//!
//! Game `i` is seeded by [`game_seed`]`(seed, i)` and played by freshly built bots, so it is
//! the same whatever the thread count or the order games are scheduled in; the writer puts
//! each shard's games in index order, so shard files are byte-identical across thread
//! counts.

use super::rows::{write_rows_parquet, RowBatch};
use super::shards::{
    games_file, rows_file, Counts, Manifest, ShardEntry, Slice, MANIFEST_FORMAT, RULESET,
};
use super::{game_seed, play_game, GameLimits, GameRecord};
use crate::board::Position;
use crate::eval::features::FeatureSchema;
use crate::files::ENGINE_VERSION;
use crate::search::bots::{bot_by_id, Bot, BotOptions};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One side's bot: its registry id and options.
#[derive(Clone, Debug)]
pub struct SelfPlayBot {
    /// Registry id, e.g. `greedy`.
    pub id: String,
    /// How to build it.
    pub options: BotOptions,
}

impl SelfPlayBot {
    /// The configuration recorded with each game and in the manifest.
    pub fn config_json(&self) -> serde_json::Value {
        let mut v = json!({ "id": self.id.to_ascii_lowercase() });
        let o = &self.options;
        if let Some(m) = &o.model {
            v["model"] = json!(m.display().to_string());
        }
        if let Some(b) = &o.book {
            v["book"] = json!(b.display().to_string());
        }
        if let Some(c) = o.candidate_limit {
            v["candidateLimit"] = json!(c);
        }
        if let Some(t) = o.table_mb {
            v["tableMb"] = json!(t);
        }
        v
    }

    /// Build the bot.
    pub fn build(&self) -> Result<Box<dyn Bot>, SelfPlayError> {
        bot_by_id(&self.id, &self.options)
            .map_err(|e| SelfPlayError::Input(format!("bot {:?}: {e}", self.id)))
    }
}

/// A self-play run.
#[derive(Clone)]
pub struct SelfPlayConfig {
    /// Games in the whole run.
    pub games: u64,
    /// Output folder.
    pub out: PathBuf,
    /// White's bot.
    pub white: SelfPlayBot,
    /// Black's bot.
    pub black: SelfPlayBot,
    /// Run seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// The slice of shards to run.
    pub slice: Slice,
    /// Feature schema of the rows files.
    pub schema: &'static dyn FeatureSchema,
    /// Draw adjudication.
    pub limits: GameLimits,
    /// Games per shard.
    pub shard_games: u64,
    /// The start position (dice ignored).
    pub start: Position,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    /// Bad arguments or an output folder of another run.
    #[error("{0}")]
    Input(String),
    /// The output folder's manifest (or a shard file it lists) is refused.
    #[error("{0}")]
    Manifest(#[from] super::shards::ManifestError),
    /// Another run holds the output folder.
    #[error("{0}")]
    Locked(#[from] crate::files::lock::LockError),
    /// Anything else (I/O, a search error).
    #[error("{0}")]
    Other(String),
}

/// What the run did.
#[derive(Clone, Debug, Default)]
pub struct SelfPlaySummary {
    /// Shards of this slice.
    pub shards: u64,
    /// Shards found finished and verified.
    pub resumed_shards: u64,
    /// Totals over every finished shard of the slice (resumed ones included).
    pub totals: Counts,
    /// Games played now.
    pub played_games: u64,
    /// Positions of the games played now.
    pub played_positions: u64,
}

/// SelfPlayProgress after each finished game: games and positions played so far in this run, games
/// to play.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlayProgress {
    /// Games finished.
    pub games: u64,
    /// Positions of those games.
    pub positions: u64,
    /// Games this run plays in all.
    pub total: u64,
    /// Shards resumed (found finished).
    pub resumed_shards: u64,
}

/// A finished game, ready to write.
struct Done {
    index: u64,
    line: String,
    record: GameRecord,
    rows: RowBatch,
}

/// Run (or resume) self-play; `progress` is called by the writer thread after each game.
pub fn run_selfplay(
    cfg: &SelfPlayConfig,
    progress: &(dyn Fn(SelfPlayProgress) + Sync),
) -> Result<SelfPlaySummary, SelfPlayError> {
    if cfg.shard_games == 0 {
        return Err(SelfPlayError::Input(
            "--shard-games: must be at least 1".into(),
        ));
    }
    // Refuse unbuildable bots before touching the folder.
    cfg.white.build()?;
    cfg.black.build()?;
    let out = &cfg.out;
    std::fs::create_dir_all(out)
        .map_err(|e| SelfPlayError::Other(format!("{}: {e}", out.display())))?;
    // Held until the run returns: a second run on this folder refuses instead of
    // overwriting this one's shards and manifest.
    let _lock = crate::files::lock::lock_dir(out)?;
    let shard_count = cfg.games.div_ceil(cfg.shard_games);
    let mut manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        engine_version: ENGINE_VERSION.into(),
        ruleset: RULESET.into(),
        seed: cfg.seed,
        games: cfg.games,
        shard_games: cfg.shard_games,
        shard_count,
        slice: cfg.slice.label(),
        white: cfg.white.config_json(),
        black: cfg.black.config_json(),
        start: cfg.start.with_dice(crate::board::Dice::EMPTY).to_dfen(),
        limits: json!({ "halfmove": cfg.limits.halfmove, "turns": cfg.limits.turns }),
        feature_schema: cfg.schema.id().into(),
        perspective: "side-to-move".into(),
        shards: Vec::new(),
    };
    // Resume: keep the verified shards of the same run.
    let mut summary = SelfPlaySummary::default();
    if let Some(old) = Manifest::read(out)? {
        if let Some(d) = old.run_difference(&manifest) {
            return Err(SelfPlayError::Input(format!(
                "{} holds a different self-play run ({d}); use another --out",
                out.display()
            )));
        }
        if old.slice != manifest.slice {
            return Err(SelfPlayError::Input(format!(
                "{} holds slice {} of this run, not {}",
                out.display(),
                old.slice.as_deref().unwrap_or("all"),
                manifest.slice.as_deref().unwrap_or("all")
            )));
        }
        for s in old.shards {
            let keep = s.index < shard_count
                && cfg.slice.holds(s.index)
                && s.counts.games == manifest.games_in_shard(s.index)
                && s.verify(out).is_ok();
            if keep {
                manifest.shards.push(s);
            } else {
                // The names passed `Manifest::check`: they are this shard's own files in
                // `out`, never a path elsewhere.
                for name in s.files.keys() {
                    let _ = std::fs::remove_file(out.join(name));
                }
            }
        }
    }
    // Temporary files of a killed run are left alone: they are hidden, never read, and
    // only their creator removes them (no guessing whose they are).
    summary.resumed_shards = manifest.shards.len() as u64;
    manifest.write(out).map_err(io_err(out))?;

    let done_shards: std::collections::BTreeSet<u64> =
        manifest.shards.iter().map(|s| s.index).collect();
    let pending: Vec<u64> = (0..shard_count)
        .filter(|&k| cfg.slice.holds(k) && !done_shards.contains(&k))
        .collect();
    summary.shards = (0..shard_count).filter(|&k| cfg.slice.holds(k)).count() as u64;
    let games: Vec<u64> = pending
        .iter()
        .flat_map(|&k| {
            let first = k * cfg.shard_games;
            first..first + manifest.games_in_shard(k)
        })
        .collect();
    let total = games.len() as u64;

    let mut pool = rayon::ThreadPoolBuilder::new();
    if cfg.threads > 0 {
        pool = pool.num_threads(cfg.threads);
    }
    let pool = pool
        .build()
        .map_err(|e| SelfPlayError::Other(format!("starting worker threads: {e}")))?;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Bounded: workers wait when the writer falls behind, so memory stays flat.
    let (tx, rx) = crossbeam_channel::bounded::<Result<Done, SelfPlayError>>(1024);
    let resumed_shards = summary.resumed_shards;

    let writer_result = std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let mut w = Writer {
                cfg,
                manifest: &mut manifest,
                buffers: BTreeMap::new(),
                games: 0,
                positions: 0,
            };
            for msg in rx {
                let done = match msg {
                    Ok(d) => d,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                };
                if let Err(e) = w.accept(done) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                progress(SelfPlayProgress {
                    games: w.games,
                    positions: w.positions,
                    total,
                    resumed_shards,
                });
            }
            Ok((w.games, w.positions))
        });
        pool.broadcast(|_| {
            let tx = tx.clone();
            loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(&index) = games.get(i) else { break };
                let r = play_one(cfg, index);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    break;
                }
            }
        });
        drop(tx);
        writer
            .join()
            .unwrap_or_else(|_| Err(SelfPlayError::Other("the writer thread panicked".into())))
    });
    let (g, p) = writer_result?;
    summary.played_games = g;
    summary.played_positions = p;
    summary.totals = manifest.totals();
    Ok(summary)
}

fn io_err(p: &Path) -> impl FnOnce(std::io::Error) -> SelfPlayError + '_ {
    move |e| SelfPlayError::Other(format!("{}: {e}", p.display()))
}

/// Play game `index` and build its record line and rows.
fn play_one(cfg: &SelfPlayConfig, index: u64) -> Result<Done, SelfPlayError> {
    let white = cfg.white.build()?;
    let black = cfg.black.build()?;
    let record = play_game(
        &cfg.start,
        white.as_ref(),
        black.as_ref(),
        game_seed(cfg.seed, index),
        cfg.limits,
        format!("{}-{index}", cfg.seed),
        (cfg.white.config_json(), cfg.black.config_json()),
    )
    .map_err(|e| SelfPlayError::Other(format!("game {index}: {e}")))?;
    let line = serde_json::to_string(&record).map_err(|e| SelfPlayError::Other(e.to_string()))?;
    let rows = RowBatch::of_game(&record, cfg.schema)
        .map_err(|e| SelfPlayError::Other(format!("game {index}: rows: {e}")))?;
    Ok(Done {
        index,
        line,
        record,
        rows,
    })
}

/// The writer thread's state: games buffered per shard until the shard is complete.
struct Writer<'a> {
    cfg: &'a SelfPlayConfig,
    manifest: &'a mut Manifest,
    buffers: BTreeMap<u64, BTreeMap<u64, Done>>,
    games: u64,
    positions: u64,
}

impl Writer<'_> {
    fn accept(&mut self, d: Done) -> Result<(), SelfPlayError> {
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

    fn write_shard(&mut self, k: u64, games: BTreeMap<u64, Done>) -> Result<(), SelfPlayError> {
        let out = &self.cfg.out;
        let mut counts = Counts::default();
        let mut rows = RowBatch::default();
        let gpath = out.join(games_file(k));
        let mut gfile = crate::files::atomic::AtomicFile::create(&gpath).map_err(io_err(&gpath))?;
        for d in games.into_values() {
            counts.add_game(&d.record);
            let w = gfile.writer();
            w.write_all(d.line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .map_err(io_err(&gpath))?;
            rows.append(d.rows);
        }
        gfile.commit().map_err(io_err(&gpath))?;
        let rpath = out.join(rows_file(k));
        write_rows_parquet(&rpath, &rows, self.cfg.schema)
            .map_err(|e| SelfPlayError::Other(e.to_string()))?;
        let mut files = BTreeMap::new();
        for p in [&gpath, &rpath] {
            let sha = super::shards::sha256_file(p).map_err(io_err(p))?;
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
        self.manifest.write(out).map_err(io_err(out))
    }
}
