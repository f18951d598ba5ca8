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

/// The tables `wanted` needs, itself included, in solving order ([`Material::ALL`]): each
/// table's [`Material::reads`] (a captured piece leaves a smaller ending, a promoted pawn a
/// piece ending), and theirs in turn.
pub fn with_dependencies(wanted: &[Material]) -> Vec<Material> {
    let mut need = [false; Material::ALL.len()];
    let mut stack: Vec<Material> = wanted.to_vec();
    while let Some(m) = stack.pop() {
        if !std::mem::replace(&mut need[m.code() as usize], true) {
            stack.extend(m.reads());
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
