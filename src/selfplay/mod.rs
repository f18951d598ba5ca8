//! Games between bots: the game loop and its record (the community's game-history shape),
//! self-play data generation, the arena and record replay.

mod game;
mod record;

pub use game::{game_seed, play_game, GameLimits};
pub use record::{GameRecord, Termination, TurnRecord};
