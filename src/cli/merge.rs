//! `dicechess merge`: combine the output folders of `selfplay --shard i/n` slices (or of
//! partial runs) into one folder, checking every shard's digests.

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
    let mut parts = Vec::new();
    for d in &args.dirs {
        let m = Manifest::read(d)
            .map_err(CliError::Input)?
            .ok_or_else(|| CliError::Input(format!("{}: no manifest.json", d.display())))?;
        for s in &m.shards {
            s.verify(d)
                .map_err(|e| CliError::Input(format!("{}: shard {}: {e}", d.display(), s.index)))?;
        }
        parts.push((d.clone(), m));
    }
    let mut merged = merge_manifests(&parts).map_err(CliError::Input)?;
    if Manifest::path(&args.out).exists() {
        return Err(CliError::Input(format!(
            "--out {}: already holds a self-play run",
            args.out.display()
        )));
    }
    let fail = |p: &std::path::Path, e: std::io::Error| {
        CliError::Other(anyhow::anyhow!("{}: {e}", p.display()))
    };
    std::fs::create_dir_all(&args.out).map_err(|e| fail(&args.out, e))?;
    for (dir, m) in &parts {
        for s in &m.shards {
            for name in s.files.keys() {
                let (src, dst) = (dir.join(name), args.out.join(name));
                let bytes = std::fs::read(&src).map_err(|e| fail(&src, e))?;
                dicechess::files::atomic::write_bytes(&dst, &bytes).map_err(|e| fail(&dst, e))?;
            }
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
