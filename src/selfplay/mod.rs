//! Games between bots: the game loop and its record (the community's game-history shape),
//! self-play data generation, the arena and record replay.

pub mod arena;
mod clock;
mod game;
mod record;
pub mod replay;
pub mod sprt;
pub mod think;

pub use arena::{run_match, ArenaBot, ArenaConfig, ArenaReport, TimeControl};
pub use clock::GameClock;
pub use game::{game_seed, play, play_game, Ending, GameLimits, PlayedGame};
pub use record::{GameRecord, Termination, TurnRecord};
pub use replay::{validate_record, validate_record_line, ReplayError, ReplaySummary};
pub use sprt::{SprtDecision, SprtParams};

#[cfg(feature = "files")]
mod config;
#[cfg(feature = "files")]
mod error;
#[cfg(feature = "files")]
mod merge;
#[cfg(feature = "files")]
pub mod request;
pub mod rows;
#[cfg(feature = "files")]
mod run;
pub mod shards;
#[cfg(feature = "files")]
mod writer;

#[cfg(feature = "files")]
pub use merge::merge_runs;
#[cfg(feature = "files")]
pub use request::SelfPlayRequest;

#[cfg(feature = "files")]
pub use config::{SelfPlayBot, SelfPlayConfig, SelfPlayProgress, SelfPlaySummary};
#[cfg(feature = "files")]
pub use error::SelfPlayError;
#[cfg(feature = "files")]
pub use run::run_selfplay;
