//! # dicechess
//!
//! A data-oriented Dice Chess engine: exact rules ([`rules`]), one-row positions
//! ([`board`]) and the vocabulary crate [`dicechess_kernels`] beneath them.
//!
//! ```
//! use dicechess::board::Position;
//! use dicechess::rules::legal_paths;
//!
//! let pos = Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB")?;
//! let paths = legal_paths(&pos);
//! assert!(paths.len() > 0);
//! // Every path spends all three dice: a pawn, a knight and a bishop move.
//! assert!(paths.iter().all(|p| p.cost() == 3));
//! # Ok::<(), dicechess::board::DfenError>(())
//! ```

pub mod analysis;
pub mod batch;
pub mod board;
pub mod bots;
pub mod digest;
pub mod eval;
#[cfg(feature = "files")]
pub mod files;
#[cfg(feature = "files")]
pub mod pipeline;
#[cfg(feature = "play")]
pub mod play;
pub mod probe;
pub mod rules;
pub mod search;
pub mod selfplay;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tablebase;

pub use dicechess_kernels as kernels;

/// This engine's version (`Cargo.toml`): written into file metadata (`engine_version`) and
/// the one a model package's `engineCompatibility` must admit.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
