//! What a self-play run is asked to do, and what it reports back.

use super::shards::{Counts, Slice};
use super::{GameLimits, SelfPlayError};
use crate::board::Position;
use crate::bots::{bot_by_id, Bot, BotOptions};
use crate::eval::features::FeatureSchema;
use serde_json::json;
use std::path::PathBuf;

/// One side's bot: its registry id and options.
#[derive(Clone, Debug)]
pub struct SelfPlayBot {
    /// Registry id, e.g. `greedy`.
    pub id: String,
    /// How to build it.
    pub options: BotOptions,
}

impl SelfPlayBot {
    /// The configuration recorded with each game and in the manifest.
    pub fn config_json(&self) -> serde_json::Value {
        let mut v = json!({ "id": self.id.to_ascii_lowercase() });
        let o = &self.options;
        if let Some(m) = &o.model {
            v["model"] = json!(m.display().to_string());
        }
        if let Some(b) = &o.book {
            v["book"] = json!(b.display().to_string());
        }
        if let Some(c) = o.candidate_limit {
            v["candidateLimit"] = json!(c);
        }
        if let Some(t) = o.table_mb {
            v["tableMb"] = json!(t);
        }
        if let Some(m) = o.d3_replies {
            v["d3Replies"] = json!(m);
        }
        if let Some(k) = o.d3_candidates {
            v["d3Candidates"] = json!(k);
        }
        v
    }

    /// Build the bot.
    pub fn build(&self) -> Result<Box<dyn Bot>, SelfPlayError> {
        bot_by_id(&self.id, &self.options).map_err(|error| SelfPlayError::Bot {
            id: self.id.clone(),
            error,
        })
    }
}

/// A self-play run.
#[derive(Clone)]
pub struct SelfPlayConfig {
    /// Games in the whole run.
    pub games: u64,
    /// Output folder.
    pub out: PathBuf,
    /// White's bot.
    pub white: SelfPlayBot,
    /// Black's bot.
    pub black: SelfPlayBot,
    /// Run seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// The slice of shards to run.
    pub slice: Slice,
    /// Feature schema of the rows files.
    pub schema: &'static dyn FeatureSchema,
    /// Draw adjudication.
    pub limits: GameLimits,
    /// Games per shard.
    pub shard_games: u64,
    /// The start position (dice ignored).
    pub start: Position,
}

/// What the run did.
#[derive(Clone, Debug, Default)]
pub struct SelfPlaySummary {
    /// Shards of this slice.
    pub shards: u64,
    /// Shards found finished and verified.
    pub resumed_shards: u64,
    /// Totals over every finished shard of the slice (resumed ones included).
    pub totals: Counts,
    /// Games played now.
    pub played_games: u64,
    /// Positions of the games played now.
    pub played_positions: u64,
}

/// Where a run stands after each finished game: games and positions played so far in this
/// run, games to play.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlayProgress {
    /// Games finished.
    pub games: u64,
    /// Positions of those games.
    pub positions: u64,
    /// Games this run plays in all.
    pub total: u64,
    /// Shards resumed (found finished).
    pub resumed_shards: u64,
}
