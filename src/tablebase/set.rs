//! The tables a process holds, and the one probe a search or a user calls.

use super::error::TableFileError;
use super::file::table_path;
use super::material::{locate, Material};
use super::table::Table;
use crate::board::Position;
use std::path::Path;

/// A set of solved tables, any subset of [`Material::ALL`]. Cheap to share behind an `Arc`:
/// probes only read.
#[derive(Clone, Debug, PartialEq)]
pub struct Tablebases {
    tables: [Option<Table>; Material::ALL.len()],
    /// The most pieces of a held table (0 when none).
    max_pieces: u32,
}

impl Default for Tablebases {
    /// No tables (the derive stops at arrays of 32).
    fn default() -> Self {
        Tablebases {
            tables: std::array::from_fn(|_| None),
            max_pieces: 0,
        }
    }
}

impl Tablebases {
    /// No tables: every probe misses.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// Add (or replace) a table.
    pub fn insert(&mut self, table: Table) {
        let slot = table.material().code() as usize;
        self.max_pieces = self.max_pieces.max(table.material().pieces());
        self.tables[slot] = Some(table);
    }

    /// The table of `material`, if held.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables[material.code() as usize].as_ref()
    }

    /// The endings held, in [`Material::ALL`] order.
    pub fn materials(&self) -> Vec<Material> {
        Material::ALL
            .into_iter()
            .filter(|&m| self.table(m).is_some())
            .collect()
    }

    /// The most pieces on the board of a held table: a position with more is never found
    /// (0 when no table is held).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Whether no table is held.
    pub fn is_empty(&self) -> bool {
        self.tables.iter().all(Option::is_none)
    }

    /// Every table file present in `dir` (`KQvK.dctb`, …); an absent file is skipped, a
    /// present one that does not read is an error naming it and what is wrong. A missing
    /// folder holds no tables.
    pub fn load_dir(dir: &Path) -> Result<Tablebases, TableFileError> {
        let mut set = Tablebases::new();
        for m in Material::ALL {
            let path = table_path(dir, m);
            if path.is_file() {
                set.insert(Table::read(&path)?);
            }
        }
        Ok(set)
    }

    /// The expected score of `pos`'s side to move before its roll (win 1, draw ½, loss 0), or
    /// `None` when no held table has the position (docs/tablebases.md).
    ///
    /// ```
    /// use dicechess::board::Position;
    /// use dicechess::tablebase::{solve, Material, SolveConfig, Tablebases};
    ///
    /// let mut tables = Tablebases::new();
    /// let (kk, _) = solve(Material::Kk, &tables, &SolveConfig::default(), &|_| {})?;
    /// tables.insert(kk);
    /// // Kings side by side, White to move: a king die (91 of 216 rolls) takes the king.
    /// let pos = Position::from_dfen("8/8/8/3k4/3K4/8/8/8 w - - 0 1")?;
    /// let p = tables.probe(&pos).expect("a KvK position");
    /// assert!(p > 91.0 / 216.0);
    /// assert_eq!(tables.probe(&Position::startpos()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe(&self, pos: &Position) -> Option<f64> {
        let at = locate(pos)?;
        self.table(at.material)?.value_at_located(at.index)
    }
}
