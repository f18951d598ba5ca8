//! A game to analyse, read from either shape the ecosystem writes: our `games.jsonl` record
//! ([`GameRecord`], it has `limits`) or the play server's history ([`ServerHistory`],
//! `GET /games/{id}/history`). Either is replayed against the rules first (the `replay`
//! validator's checks and messages), so the analysis only ever walks legal turns.

use crate::selfplay::{GameRecord, ReplayError, ServerHistory, ServerTermination, TurnRecord};

/// A validated game: its start, its turns in our record's terms and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The record's or the server's game id.
    pub game_id: String,
    /// The start position (DFEN, no dice).
    pub initial_dfen: String,
    /// Every turn, passes included (`w`/`b`, canonical `fenAfter`).
    pub turns: Vec<TurnRecord>,
    /// White's view: 1 White won, −1 Black won, 0 drawn; `None` for an aborted game.
    pub result: Option<i8>,
    /// How it ended, in the source's words (`king-capture`, `timeout`, …).
    pub termination: String,
    /// White's name: the bot id of a record, the player's name in a history.
    pub white: String,
    /// Black's name.
    pub black: String,
}

impl Game {
    /// A self-play record, validated by [`crate::selfplay::validate_record`].
    pub fn from_record(record: &GameRecord) -> Result<Game, ReplayError> {
        crate::selfplay::validate_record(record)?;
        let termination = serde_json::to_value(record.termination)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        Ok(Game {
            game_id: record.game_id.clone(),
            initial_dfen: record.initial_dfen.clone(),
            turns: record.turns.clone(),
            result: Some(record.result),
            termination,
            white: bot_name(&record.white),
            black: bot_name(&record.black),
        })
    }

    /// A served game's history, validated by [`ServerHistory::validate`].
    pub fn from_history(history: &ServerHistory) -> Result<Game, ReplayError> {
        history.validate()?;
        let termination = serde_json::to_value(history.termination)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let name = |seat: &str| {
            let p = &history.players[seat];
            p.get("name")
                .and_then(|n| n.as_str())
                .map(str::to_owned)
                .or_else(|| p.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
                .unwrap_or_else(|| seat.to_owned())
        };
        Ok(Game {
            game_id: history.game_id.clone(),
            initial_dfen: history.initial_dfen.clone(),
            turns: history.turn_records()?,
            result: (history.termination != ServerTermination::Aborted).then_some(history.result),
            termination,
            white: name("white"),
            black: name("black"),
        })
    }

    /// One game as JSON text, in whichever shape: a record when it has `limits`, else a
    /// history (a document of neither shape is refused naming the history field it lacks).
    pub fn from_json(text: &str) -> Result<Game, ReplayError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ReplayError {
            game_id: None,
            turn: None,
            message: format!("not JSON: {e}"),
        })?;
        Game::from_value(value)
    }

    /// [`Game::from_json`] of a parsed document.
    pub fn from_value(value: serde_json::Value) -> Result<Game, ReplayError> {
        let game_id = value
            .get("gameId")
            .and_then(|g| g.as_str())
            .map(str::to_owned);
        let shape_error = |what: &str, e: serde_json::Error| ReplayError {
            game_id: game_id.clone(),
            turn: None,
            message: format!("not a {what}: {e}"),
        };
        if value.get("limits").is_some() {
            let record: GameRecord =
                serde_json::from_value(value).map_err(|e| shape_error("game record", e))?;
            Game::from_record(&record)
        } else {
            let history: ServerHistory =
                serde_json::from_value(value).map_err(|e| shape_error("game history", e))?;
            Game::from_history(&history)
        }
    }
}

/// A record's bot configuration as a name: its `id`, or the JSON as written.
fn bot_name(config: &serde_json::Value) -> String {
    match config {
        serde_json::Value::String(s) => s.clone(),
        v => v
            .get("id")
            .and_then(|i| i.as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string()),
    }
}
