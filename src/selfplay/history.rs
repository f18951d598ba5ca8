//! The play server's game history (`GET /games/{id}/history` of `fortemate/dicechess-play-api`,
//! its REST reference "Get game history (replay)"), read and replayed against the rules.
//!
//! Its shape, in the server's words: `gameId`, `players`, `rated`, `timeControl`, `result`
//! (White's view: 1, −1, 0), `termination` (`king_captured`, `timeout`, `resign`,
//! `draw_agreement`, `aborted`), `finishedAt`, `initialDfen`, `turns[{turnNumber,
//! activeColor ("White"/"Black"), dice (faces), moves (UCI), fenAfter}]` and `fairness`. Every
//! field but `finishedAt` is required: a document of another shape is refused naming the
//! field it lacks. Unlike our own records (`GameRecord`), a history can end by the clock, a
//! resignation, an agreed draw or an abort, so only a king capture is checked against the
//! moves; `fenAfter` is compared as a position, not as text.

use super::record::{Termination, TurnRecord};
use super::replay::{replay_turn, ReplayError, ReplaySummary};
use crate::board::{Dice, Position};
use dicechess_kernels::Color;
use serde::{Deserialize, Serialize};

/// How a served game ended (the history's `termination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerTermination {
    /// A king was captured: the capturer won.
    KingCaptured,
    /// A clock ran out.
    Timeout,
    /// A player resigned.
    Resign,
    /// The players agreed a draw.
    DrawAgreement,
    /// The game was aborted.
    Aborted,
}

/// One turn of a history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerTurn {
    /// 1-based.
    pub turn_number: u32,
    /// `White` or `Black`.
    pub active_color: String,
    /// The rolled faces, 1..=6.
    pub dice: Vec<u8>,
    /// The micro-moves played, UCI; empty for a pass.
    pub moves: Vec<String>,
    /// The position after the turn.
    pub fen_after: String,
}

/// A finished game as the play server's history endpoint gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerHistory {
    /// The server's game id.
    pub game_id: String,
    /// Both seats' public faces (`{"white": {...}, "black": {...}}`), kept as given.
    pub players: serde_json::Value,
    /// Whether the game was rated (`null` when the server does not say).
    pub rated: Option<bool>,
    /// The time control, the server's ADT (`{"Fischer": {...}}`), kept as given.
    pub time_control: serde_json::Value,
    /// White's view: 1 White won, −1 Black won, 0 drawn.
    pub result: i8,
    /// How it ended.
    pub termination: ServerTermination,
    /// When it ended (ISO 8601), if given.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// The start position, without dice.
    pub initial_dfen: String,
    /// Every turn, passes included.
    pub turns: Vec<ServerTurn>,
    /// The dice-fairness reveal (`commit`, `seed`, `clientSeeds`), kept as given.
    pub fairness: serde_json::Value,
}

impl ServerHistory {
    /// Read one history document; a document of another shape is refused naming the
    /// field it lacks or mistypes (the JSON reader's own words).
    pub fn parse(text: &str) -> Result<ServerHistory, ReplayError> {
        serde_json::from_str(text).map_err(|e| ReplayError {
            game_id: serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.get("gameId").and_then(|g| g.as_str()).map(str::to_owned)),
            turn: None,
            message: format!("not a game history: {e}"),
        })
    }

    /// This history's turns in our record's terms (`w`/`b`, canonical `fenAfter`): what the
    /// replay and the analysis read. A turn whose colour or `fenAfter` cannot be read is
    /// refused with its number.
    pub fn turn_records(&self) -> Result<Vec<TurnRecord>, ReplayError> {
        let id = self.game_id.as_str();
        self.turns
            .iter()
            .map(|t| {
                let fault = |message: String| ReplayError {
                    game_id: Some(id.to_owned()),
                    turn: Some(t.turn_number),
                    message,
                };
                let color = match t.active_color.as_str() {
                    "White" => Color::White,
                    "Black" => Color::Black,
                    other => {
                        return Err(fault(format!(
                            "activeColor {other:?} is not \"White\" or \"Black\""
                        )))
                    }
                };
                let after = Position::from_dfen(&t.fen_after).map_err(|e| {
                    fault(format!("fenAfter {:?} is not a position: {e}", t.fen_after))
                })?;
                Ok(TurnRecord {
                    turn_number: t.turn_number,
                    active_color: color.letter().to_string(),
                    dice: t.dice.clone(),
                    moves: t.moves.clone(),
                    fen_after: after.with_dice(Dice::EMPTY).to_dfen(),
                })
            })
            .collect()
    }

    /// Replay every turn against the rules (each must be one of its roll's legal paths and
    /// reach `fenAfter`; none may follow a king capture) and check the ending: a
    /// `king_captured` game ends with the winner's capture, any other ending has none; an
    /// agreed draw scores 0, a timeout or resignation does not. The first fault is reported
    /// with the game id and turn number. Never panics.
    pub fn validate(&self) -> Result<ReplaySummary, ReplayError> {
        let id = self.game_id.as_str();
        let record = |message: String| ReplayError {
            game_id: Some(id.to_owned()),
            turn: None,
            message,
        };
        let start = Position::from_dfen(&self.initial_dfen).map_err(|e| {
            record(format!(
                "initialDfen {:?} is not a DFEN: {e}",
                self.initial_dfen
            ))
        })?;
        if !(-1..=1).contains(&self.result) {
            return Err(record(format!("result {} is not 1, 0 or -1", self.result)));
        }
        let turns = self.turn_records()?;
        let mut pos = start.with_dice(Dice::EMPTY);
        let mut captured: Option<(i8, Termination, u32)> = None;
        let mut passes = 0;
        for (i, t) in turns.iter().enumerate() {
            let mover = pos.side_to_move();
            let (next, king) = replay_turn(id, &pos, t, i as u64 + 1, captured)?;
            passes += usize::from(t.moves.is_empty());
            if king {
                let r = if mover == Color::White { 1 } else { -1 };
                captured = Some((r, Termination::KingCapture, t.turn_number));
            }
            pos = next;
        }
        let consistent = match (self.termination, captured) {
            (ServerTermination::KingCaptured, Some((r, _, _))) => r == self.result,
            (ServerTermination::KingCaptured, None) => false,
            (_, Some(_)) => false,
            (ServerTermination::DrawAgreement, None) => self.result == 0,
            (ServerTermination::Timeout | ServerTermination::Resign, None) => self.result != 0,
            (ServerTermination::Aborted, None) => true,
        };
        if !consistent {
            let by_moves = match captured {
                Some((r, _, n)) => format!("the moves capture a king at turn {n} ({r:+})"),
                None => "the moves capture no king".to_owned(),
            };
            return Err(record(format!(
                "recorded result {} ({:?}) but {by_moves}",
                self.result, self.termination
            )));
        }
        Ok(ReplaySummary {
            game_id: self.game_id.clone(),
            turns: turns.len(),
            passes,
            result: self.result,
        })
    }
}

/// Read and validate one history document. Never panics.
pub fn validate_history_json(text: &str) -> Result<ReplaySummary, ReplayError> {
    ServerHistory::parse(text)?.validate()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_are_the_servers_words() {
        for (t, word) in [
            (ServerTermination::KingCaptured, "king_captured"),
            (ServerTermination::Timeout, "timeout"),
            (ServerTermination::Resign, "resign"),
            (ServerTermination::DrawAgreement, "draw_agreement"),
            (ServerTermination::Aborted, "aborted"),
        ] {
            assert_eq!(serde_json::to_value(t).ok(), Some(serde_json::json!(word)));
        }
    }
}
