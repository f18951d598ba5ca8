//! `dicechess merge`: combine the output folders of `selfplay --shard i/n` slices (or of
//! partial runs) into one folder.
//!
//! Nothing in a manifest is trusted as a path: [`Manifest::read`] accepts only the file
//! names the engine writes for each shard index (`shard-NNNNN.games.jsonl`,
//! `shard-NNNNN.rows.parquet`) and checks every index, first game and game count against
//! the run; each file must be a regular file, and its digest is computed over the very bytes
//! copied (a file changed between a check and the copy cannot slip through).

use super::CliError;
use dicechess::selfplay::shards::{merge_manifests, Manifest};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Self-play output folders of the same run (each with a manifest.json).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The merged folder (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Run `merge`.
pub fn run(args: Args, _out: &mut impl Write) -> Result<(), CliError> {
    let input = |e: &dyn std::fmt::Display| CliError::Input(e.to_string());
    let mut parts = Vec::new();
    for d in &args.dirs {
        let m = Manifest::read(d)
            .map_err(|e| input(&e))?
            .ok_or_else(|| CliError::Input(format!("{}: no manifest.json", d.display())))?;
        parts.push((d.clone(), m));
    }
    let mut merged = merge_manifests(&parts).map_err(|e| input(&e))?;
    let fail = |p: &std::path::Path, e: std::io::Error| {
        CliError::Other(anyhow::anyhow!("{}: {e}", p.display()))
    };
    std::fs::create_dir_all(&args.out).map_err(|e| fail(&args.out, e))?;
    let _lock = dicechess::files::lock::lock_dir(&args.out).map_err(|e| input(&e))?;
    if Manifest::path(&args.out).symlink_metadata().is_ok() {
        return Err(CliError::Input(format!(
            "--out {}: already holds a self-play run",
            args.out.display()
        )));
    }
    for (dir, m) in &parts {
        for s in &m.shards {
            s.copy_verified(dir, &args.out).map_err(|e| {
                CliError::Input(format!("{}: shard {}: {e}", dir.display(), s.index))
            })?;
        }
    }
    merged.write(&args.out).map_err(|e| fail(&args.out, e))?;
    let t = merged.totals();
    let _ = writeln!(
        std::io::stderr(),
        "merge: {} shard(s) of {} ({} games, {} positions) into {}",
        merged.shards.len(),
        merged.shard_count,
        t.games,
        t.positions,
        args.out.display()
    );
    Ok(())
}
