//! `dicechess tablebase`: build the endgame tables into a folder, probe a position, check
//! sampled positions against one step of play.

use super::CliError;
use dicechess::board::Position;
use dicechess::rules::TurnGenerator;
use dicechess::tablebase::{
    backup, build_dir, locate, BuildStep, Material, SolveConfig, SolveProgress, Tablebases,
};
use indicatif::{ProgressBar, ProgressStyle};
use rand_core::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `tablebase`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Solve the tables missing from a folder (resumable: a table already written is kept).
    Build(BuildArgs),
    /// Print a position's table value as JSON (`null` when no table holds it).
    Probe(ProbeArgs),
    /// Check random positions of each table against one step of play computed with the
    /// per-roll turn generator and the tables' values; exit status 1 on a mismatch.
    Verify(VerifyArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The tables folder.
    #[arg(long)]
    dir: PathBuf,
    /// Tables to build, comma-separated: names (kk, kqk, …, kpk, kqkr, krrk, kqkp, knpk,
    /// kppk, kpkp, …), `3` (every table up to three pieces, under a minute), `4` (the 20
    /// pawnless 4-piece tables, minutes each and gigabytes of memory: docs/tablebases.md),
    /// `4p` (the 10 4-piece tables with a pawn, larger still) or `all`; the tables they need
    /// are built first.
    #[arg(long, default_value = "3")]
    tables: String,
    /// Per-turn chance that play goes on rather than a draw being declared (docs/tablebases.md).
    #[arg(long, default_value_t = SolveConfig::default().discount)]
    discount: f64,
    /// Rebuild tables that are already present.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// The tables folder.
    #[arg(long)]
    dir: PathBuf,
    /// The position (FEN or DFEN; its dice are ignored).
    dfen: String,
}

#[derive(clap::Args, Debug)]
struct VerifyArgs {
    /// The tables folder.
    #[arg(long)]
    dir: PathBuf,
    /// Random valid positions checked per table.
    #[arg(long, default_value_t = 2000)]
    samples: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Largest accepted |table − backup| (two quantisation steps by default).
    #[arg(long, default_value_t = 3.1e-5)]
    tolerance: f64,
}

/// Run the chosen action.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    match args.action {
        Action::Build(a) => build(a, out),
        Action::Probe(a) => probe(a, out),
        Action::Verify(a) => verify(a, out),
    }
}

fn parse_tables(list: &str) -> Result<Vec<Material>, CliError> {
    Material::parse_list(list).map_err(|e| CliError::Input(format!("--tables: {e}")))
}

fn load(dir: &std::path::Path) -> Result<Tablebases, CliError> {
    let set = Tablebases::load_dir(dir).map_err(|e| CliError::Input(e.to_string()))?;
    if set.is_empty() {
        return Err(CliError::Input(format!(
            "--dir {}: no table files (build them with `dicechess tablebase build --dir {}`)",
            dir.display(),
            dir.display()
        )));
    }
    Ok(set)
}

fn build(a: BuildArgs, out: &mut impl Write) -> Result<(), CliError> {
    let wanted = parse_tables(&a.tables)?;
    if !(a.discount > 0.0 && a.discount < 1.0) {
        return Err(CliError::Input(format!(
            "--discount {} is outside (0, 1)",
            a.discount
        )));
    }
    let config = SolveConfig {
        discount: a.discount,
        ..SolveConfig::default()
    };
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>5} {msg:<24} [{bar:30}] {pos}/{len} {elapsed}")
            .map_err(|e| CliError::Other(e.into()))?
            .progress_chars("=> "),
    );
    let mut on_start = |m: Material| {
        bar.set_prefix(m.name());
        bar.set_message("turn graph");
        bar.set_length(m.entries() as u64);
        bar.set_position(0);
    };
    let progress = |p: SolveProgress| match p {
        SolveProgress::Graph { done, .. } => bar.set_position(done as u64),
        SolveProgress::Sweep { sweep, delta } => {
            bar.set_message(format!("sweep {sweep}, Δ {delta:.1e}"));
        }
    };
    let result = build_dir(&a.dir, &wanted, &config, a.force, &mut on_start, &progress);
    bar.finish_and_clear();
    let (_, steps) = result.map_err(|e| CliError::Other(e.into()))?;
    for step in steps {
        let line = match step {
            BuildStep::Kept(m) => serde_json::json!({"table": m.name(), "kept": true}),
            BuildStep::Solved(r) => serde_json::json!({
                "table": r.material.name(),
                "positions": r.positions,
                "edges": r.edges,
                "sweeps": r.sweeps,
                "lastDelta": r.last_delta,
                "converged": r.converged,
                "graphSecs": (r.graph_secs * 100.0).round() / 100.0,
                "iterateSecs": (r.iterate_secs * 100.0).round() / 100.0,
                "bytes": 32 + 2 * r.material.entries(),
            }),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn probe(a: ProbeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let set = load(&a.dir)?;
    let pos = Position::from_dfen(&a.dfen)?;
    let located = locate(&pos);
    let value = set.probe(&pos);
    let line = serde_json::json!({
        "table": located.map(|l| l.material.name()),
        "sideToMove": if pos.side_to_move() == dicechess::kernels::Color::White { "w" } else { "b" },
        "value": value,
        "score": value.map(|p| dicechess::eval::win_probability_to_score(p as f32)),
    });
    writeln!(out, "{line}")?;
    Ok(())
}

fn verify(a: VerifyArgs, out: &mut impl Write) -> Result<(), CliError> {
    let set = load(&a.dir)?;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(a.seed);
    let mut gen = TurnGenerator::new();
    let mut failed = 0usize;
    for m in set.materials() {
        let (mut checked, mut worst, mut skipped) = (0usize, 0.0f64, 0usize);
        let mut tries = 0usize;
        while checked < a.samples && tries < a.samples * 100 {
            tries += 1;
            let i = (rng.next_u64() % m.entries() as u64) as usize;
            let Some(pos) = m.position(i) else { continue };
            match backup(&set, &pos, &mut gen) {
                Some(b) => {
                    checked += 1;
                    worst = worst.max(b.error());
                    if b.error() > a.tolerance {
                        failed += 1;
                        writeln!(
                            out,
                            "{}",
                            serde_json::json!({"table": m.name(), "dfen": pos.to_dfen(),
                                "table_value": b.table, "backup": b.backup})
                        )?;
                    }
                }
                None => skipped += 1,
            }
        }
        writeln!(
            out,
            "{}",
            serde_json::json!({"table": m.name(), "checked": checked, "skipped": skipped,
                "maxError": worst})
        )?;
    }
    if failed > 0 {
        return Err(CliError::Other(anyhow::anyhow!(
            "{failed} positions differ from one step of play by more than {}",
            a.tolerance
        )));
    }
    Ok(())
}

/// The tables of a bot's `--tablebases DIR` flag: `None` without the flag; with it, every
/// table file in the folder, a folder without any being an input error (a bot silently
/// playing without the tables it was given is worse than a refusal).
pub(super) fn for_bots(
    dir: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<Tablebases>>, CliError> {
    match dir {
        None => Ok(None),
        Some(dir) => Ok(Some(std::sync::Arc::new(load(dir).map_err(|e| {
            CliError::Input(format!("--tablebases: {}", e.message()))
        })?))),
    }
}
