//! Endgame tables (docs/tablebases.md): for every position of the bare kings and of every
//! 3-piece ending (KQvK, KRvK, KBvK, KNvK, KPvK, either colour strong), the expected score of
//! the side to move before its roll under best play by both sides, solved by value
//! iteration over the exact turns of the rules, stored in checksummed files, probed in O(1).
//!
//! ```no_run
//! use dicechess::board::Position;
//! use dicechess::tablebase::Tablebases;
//!
//! let tables = Tablebases::load_dir(std::path::Path::new("tables"))?;
//! let pos = Position::from_dfen("8/8/8/4k3/8/8/8/Q3K3 w - - 0 1")?;
//! println!("{:?}", tables.probe(&pos));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod error;
mod file;
mod material;
mod set;
mod solve;
mod table;
mod verify;

pub use build::{build_dir, with_dependencies, BuildStep};
pub use error::{BuildError, SolveError, TableFileError};
pub use file::{file_name, table_path, FORMAT_VERSION, MAGIC};
pub use material::{locate, Locator, Material};
pub use set::Tablebases;
pub use solve::{solve, SolveConfig, SolveProgress, SolveReport};
pub use table::{Table, QUANT_MAX};
pub use verify::{backup, Backup};
