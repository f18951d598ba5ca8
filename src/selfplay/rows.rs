//! Training rows of a self-play game: one row per turn, the rolled position before the turn
//! (as the game loop played it, never parsed back from the record), with the game's result
//! from the mover's view and the features of a schema.
//!
//! The rows of a shard are a training shard of the pipeline's schema v0
//! (`files::shard_v0`, docs/data-formats.md), written by `files::write_v0_shard`. The
//! features come from the schema's batch path ([`FeatureSchema::extract`] over a
//! [`PositionBatch`] of the game's rolled positions), the same kernels `eval` runs.

use super::GameRecord;
use crate::batch::PositionBatch;
use crate::board::{Dice, Position};
use crate::eval::features::{FeatureSchema, Perspective};
use crate::files::{BaseRow, BaseRows, ShardRows};
use dicechess_kernels::Color;

/// The rows of one game: `rolled[i]` is the position before turn `i` of `record` with the
/// dice rolled for it (the game loop's [`super::PlayedGame::rolled`]).
pub fn game_rows(
    record: &GameRecord,
    rolled: &[Position],
    schema: &dyn FeatureSchema,
) -> ShardRows {
    let n = rolled.len().min(record.turns.len());
    let mut base = BaseRows {
        game_id: Vec::with_capacity(n),
        ply: Vec::with_capacity(n),
        fen: Vec::with_capacity(n),
        dice: Vec::with_capacity(n),
        side: Vec::with_capacity(n),
        result: Vec::with_capacity(n),
    };
    let white_view = match record.result {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    };
    for (i, pos) in rolled[..n].iter().enumerate() {
        let mover = pos.side_to_move();
        base.push(BaseRow {
            game_id: record.game_id.clone(),
            // The pipeline counts turns from 1 ("as recorded"); a game longer than
            // i32::MAX turns cannot be played (the turn cap is far lower).
            ply: i32::try_from(i + 1).unwrap_or(i32::MAX),
            fen: pos.with_dice(Dice::EMPTY).to_dfen(),
            dice: pos.dice().letters(true),
            side: mover,
            result: if mover == Color::White {
                white_view
            } else {
                1.0 - white_view
            },
        });
    }
    let features = schema
        .extract(
            &PositionBatch::from_positions(&rolled[..n]),
            Perspective::SideToMove,
        )
        .into_iter()
        .collect();
    ShardRows { base, features }
}
