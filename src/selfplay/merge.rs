//! Merging the output folders of `selfplay --shard i/n` slices (or of partial runs) into
//! one folder: what `dicechess merge` and the Python package's `dicechess.merge` do.
//!
//! Nothing in a manifest is trusted as a path: [`RunManifest::read`] accepts only the file
//! names the engine writes for each shard index and checks every index, first game and game
//! count against the run; each file must be a regular file, and its digest is computed over
//! the very bytes copied (a file changed between a check and the copy cannot slip through).

use super::shards::{merge_manifests, RunManifest};
use super::SelfPlayError;
use std::path::{Path, PathBuf};

/// Merge the self-play folders `dirs` (slices of one run, each with a `manifest.json`) into
/// `out`, which must not hold a run yet; returns the merged manifest (also written to
/// `out`). Refusals (a folder without manifest, runs that differ, a shard held twice, a
/// digest mismatch, `out` locked or holding a run) are refusals
/// ([`SelfPlayError::is_refusal`]); I/O failures on `out` are [`SelfPlayError::Io`], or,
/// for a shard's copy, a [`SelfPlayError::ShardCopy`] holding
/// [`ManifestError::Write`](super::ManifestError::Write) (not a refusal either). The
/// manifest is written last: until it is there, `out` holds no run, and rerunning the same
/// merge (after space is freed, say) copies every shard again.
pub fn merge_runs(dirs: &[PathBuf], out: &Path) -> Result<RunManifest, SelfPlayError> {
    let mut parts = Vec::new();
    for d in dirs {
        let m =
            RunManifest::read(d)?.ok_or_else(|| SelfPlayError::NoManifest { dir: d.clone() })?;
        parts.push((d.clone(), m));
    }
    let mut merged = merge_manifests(&parts)?;
    std::fs::create_dir_all(out).map_err(SelfPlayError::io(out))?;
    let _lock = crate::files::lock_dir(out)?;
    if RunManifest::path(out).symlink_metadata().is_ok() {
        return Err(SelfPlayError::OutHoldsRun {
            dir: out.to_owned(),
        });
    }
    for (dir, m) in &parts {
        for s in &m.shards {
            s.copy_verified(dir, out)
                .map_err(|error| SelfPlayError::ShardCopy {
                    dir: dir.clone(),
                    index: s.index,
                    error: Box::new(error),
                })?;
        }
    }
    // The error names the manifest itself, not the folder (a full disk, say).
    merged
        .write(out)
        .map_err(SelfPlayError::io(&RunManifest::path(out)))?;
    Ok(merged)
}
