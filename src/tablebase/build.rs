//! Building a folder of tables: the missing ones, in dependency order, each written
//! atomically as soon as it is solved, so an interrupted build loses only the table it was
//! solving.

use super::error::BuildError;
use super::file::table_path;
use super::material::Material;
use super::set::Tablebases;
use super::solve::{solve, SolveConfig, SolveProgress, SolveReport};
use super::table::Table;
use std::path::Path;

/// The tables `wanted` needs, itself included, in solving order: every 3-piece table reads
/// the bare kings (a captured piece), and KPvK reads the four piece tables (a promotion).
pub fn with_dependencies(wanted: &[Material]) -> Vec<Material> {
    let mut need = [false; 6];
    for &m in wanted {
        need[m.code() as usize] = true;
        if m != Material::Kk {
            need[Material::Kk.code() as usize] = true;
        }
        if m == Material::Kpk {
            for d in [Material::Kqk, Material::Krk, Material::Kbk, Material::Knk] {
                need[d.code() as usize] = true;
            }
        }
    }
    Material::ALL
        .into_iter()
        .filter(|m| need[m.code() as usize])
        .collect()
}

/// What [`build_dir`] did with one table.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildStep {
    /// The file was present, read back whole, and solved with the same discount: kept.
    Kept(Material),
    /// Solved and written.
    Solved(SolveReport),
}

/// Build into `dir` every table of `wanted` and what they need ([`with_dependencies`]).
/// A table whose file is already present and reads back (checksum included) with the
/// configured discount is kept; one with another discount is rebuilt only with `force`
/// (else an error says so); a damaged one is an error naming it, never silently replaced.
/// `on_start` hears of each table before it is solved, `progress` of its stages.
pub fn build_dir(
    dir: &Path,
    wanted: &[Material],
    config: &SolveConfig,
    force: bool,
    on_start: &mut dyn FnMut(Material),
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<(Tablebases, Vec<BuildStep>), BuildError> {
    std::fs::create_dir_all(dir).map_err(|source| BuildError::Folder {
        path: dir.to_owned(),
        source,
    })?;
    let mut set = Tablebases::new();
    let mut steps = Vec::new();
    for m in with_dependencies(wanted) {
        let path = table_path(dir, m);
        if path.exists() && !force {
            let table = Table::read(&path)?;
            if table.discount() != config.discount {
                return Err(BuildError::OtherDiscount {
                    path,
                    found: table.discount(),
                    wanted: config.discount,
                });
            }
            set.insert(table);
            steps.push(BuildStep::Kept(m));
            continue;
        }
        on_start(m);
        let (table, report) = solve(m, &set, config, progress)?;
        table.write(&path)?;
        set.insert(table);
        steps.push(BuildStep::Solved(report));
    }
    Ok((set, steps))
}
