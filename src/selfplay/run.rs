//! Self-play runs: many games between two bots on all cores, written in shards by a single
//! writer thread, resumable (see [`super::shards`]).
//!
//! Game `i` is seeded by [`game_seed`]`(seed, i)` and played by freshly built bots, so it is
//! the same whatever the thread count or the order games are scheduled in; the writer puts
//! each shard's games in index order, so shard files are byte-identical across thread
//! counts.

use super::rows::game_rows;
use super::shards::{RunManifest, MANIFEST_FORMAT};
use super::writer::{Done, Writer};
use super::{
    game_seed, play, SelfPlayConfig, SelfPlayError, SelfPlayProgress, SelfPlaySummary, TimeControl,
};
use crate::files::RULESET;
use crate::ENGINE_VERSION;
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Run (or resume) self-play; `progress` is called by the writer thread after each game.
pub fn run_selfplay(
    cfg: &SelfPlayConfig,
    progress: &(dyn Fn(SelfPlayProgress) + Sync),
) -> Result<SelfPlaySummary, SelfPlayError> {
    if cfg.shard_games == 0 {
        return Err(SelfPlayError::Zero {
            flag: "--shard-games",
        });
    }
    // Refuse unbuildable bots before touching the folder.
    cfg.white.build()?;
    cfg.black.build()?;
    let out = &cfg.out;
    std::fs::create_dir_all(out).map_err(SelfPlayError::io(out))?;
    // Held until the run returns: a second run on this folder refuses instead of
    // overwriting this one's shards and manifest.
    let _lock = crate::files::lock_dir(out)?;
    let mut summary = SelfPlaySummary::default();
    let mut manifest = resume(cfg, &mut summary)?;
    manifest
        .write(out)
        .map_err(SelfPlayError::io(&RunManifest::path(out)))?;

    let done_shards: std::collections::BTreeSet<u64> =
        manifest.shards.iter().map(|s| s.index).collect();
    let pending: Vec<u64> = (0..manifest.shard_count)
        .filter(|&k| cfg.slice.holds(k) && !done_shards.contains(&k))
        .collect();
    summary.shards = (0..manifest.shard_count)
        .filter(|&k| cfg.slice.holds(k))
        .count() as u64;
    let games: Vec<u64> = pending
        .iter()
        .flat_map(|&k| {
            let first = k * cfg.shard_games;
            first..first + manifest.games_in_shard(k)
        })
        .collect();
    let (g, p) = play_all(cfg, &mut manifest, &games, summary.resumed_shards, progress)?;
    summary.played_games = g;
    summary.played_positions = p;
    summary.totals = manifest.totals();
    Ok(summary)
}

/// This run's manifest, holding the verified shards of an earlier run of the same settings
/// in the output folder (the others' files are removed); refuses a folder of another run or
/// another slice.
fn resume(
    cfg: &SelfPlayConfig,
    summary: &mut SelfPlaySummary,
) -> Result<RunManifest, SelfPlayError> {
    let out = &cfg.out;
    let shard_count = cfg.games.div_ceil(cfg.shard_games);
    let mut manifest = RunManifest {
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
    if let Some(old) = RunManifest::read(out)? {
        if let Some(difference) = old.run_difference(&manifest) {
            return Err(SelfPlayError::OtherRun {
                dir: out.clone(),
                difference,
            });
        }
        if old.slice != manifest.slice {
            return Err(SelfPlayError::OtherSlice {
                dir: out.clone(),
                found: old.slice.as_deref().unwrap_or("all").into(),
                wanted: manifest.slice.as_deref().unwrap_or("all").into(),
            });
        }
        for s in old.shards {
            let keep = s.index < shard_count
                && cfg.slice.holds(s.index)
                && s.counts.games == manifest.games_in_shard(s.index)
                && s.verify(out).is_ok();
            if keep {
                manifest.shards.push(s);
            } else {
                // The names passed `RunManifest::check`: they are this shard's own files in
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
    Ok(manifest)
}

/// Play `games` on the run's pool, the writer thread writing each shard as it completes;
/// returns the games and positions played.
fn play_all(
    cfg: &SelfPlayConfig,
    manifest: &mut RunManifest,
    games: &[u64],
    resumed_shards: u64,
    progress: &(dyn Fn(SelfPlayProgress) + Sync),
) -> Result<(u64, u64), SelfPlayError> {
    let total = games.len() as u64;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if cfg.threads > 0 {
        pool = pool.num_threads(cfg.threads);
    }
    let pool = pool.build().map_err(SelfPlayError::Threads)?;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // Bounded: workers wait when the writer falls behind, so memory stays flat.
    let (tx, rx) = crossbeam_channel::bounded::<Result<Done, SelfPlayError>>(1024);

    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let mut w = Writer {
                cfg,
                manifest,
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
        writer.join().unwrap_or(Err(SelfPlayError::WriterPanicked))
    })
}

/// Play game `index` and build its record line and rows.
fn play_one(cfg: &SelfPlayConfig, index: u64) -> Result<Done, SelfPlayError> {
    let white = cfg.white.build()?;
    let black = cfg.black.build()?;
    let seed = game_seed(cfg.seed, index);
    let mut game = play(
        &cfg.start,
        white.as_ref(),
        black.as_ref(),
        seed,
        cfg.limits,
        TimeControl::Untimed,
    )
    .map_err(|error| SelfPlayError::Game { index, error })?;
    let rolled = std::mem::take(&mut game.rolled);
    let record = game.into_record(
        &cfg.start,
        seed,
        cfg.limits,
        format!("{}-{index}", cfg.seed),
        (cfg.white.config_json(), cfg.black.config_json()),
    );
    let line = serde_json::to_string(&record).map_err(SelfPlayError::Record)?;
    let rows = game_rows(&record, &rolled, cfg.schema);
    Ok(Done {
        index,
        line,
        record,
        rows,
    })
}
