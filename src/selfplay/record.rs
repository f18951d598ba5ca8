//! The game record: one JSON line per game, in the shape of the community's game history.

use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// A king was captured (the capturing side wins).
    KingCapture,
    /// Adjudicated a draw: the half-move clock reached the limit (docs/rules.md §8).
    HalfmoveLimit,
    /// Adjudicated a draw: the turn cap was hit (docs/rules.md §8).
    TurnLimit,
}

/// One turn of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnRecord {
    /// 1-based turn index in the game.
    pub turn_number: u32,
    /// `w` or `b`.
    pub active_color: String,
    /// The rolled dice as faces 1..=6 in roll order (as drawn).
    pub dice: Vec<u8>,
    /// The micro-moves played, UCI; empty for a pass.
    pub moves: Vec<String>,
    /// Canonical DFEN after the turn (turn ended, no dice).
    pub fen_after: String,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameRecord {
    /// Unique within a run: `<run seed>-<game index>`.
    pub game_id: String,
    /// Canonical DFEN of the start position (no dice).
    pub initial_dfen: String,
    /// Every turn, passes included.
    pub turns: Vec<TurnRecord>,
    /// From White's view: 1 White won, 0 draw, −1 Black won.
    pub result: i8,
    /// How it ended.
    pub termination: Termination,
    /// White's bot configuration (id and options), as JSON.
    pub white: serde_json::Value,
    /// Black's bot configuration, as JSON.
    pub black: serde_json::Value,
    /// The game's seed (dice and bot choices derive from it).
    pub seed: u64,
    /// Adjudication limits used: `{"halfmove": 100, "turns": 300}`.
    pub limits: serde_json::Value,
}
