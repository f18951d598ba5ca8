//! The two event streams' messages, in the play server's shape (`core/BotEvent.scala`,
//! `core/Protocol.scala` `GameEvent`, encoded by `wire/Codecs.scala`): one JSON object per
//! line, each a discriminated object `{"Kind":{...}}`, `None` as `null`; a blank line is a
//! keep-alive (about every 25 s).
//!
//! Reading is strict about the events we act on (a `DiceRolled` without its `dice` is an
//! error that names the event and the field) and lenient about the future: an event kind
//! this build does not know is reported as [`Line::Unknown`] and skipped by the client,
//! never a failure, as the server may add kinds.

use crate::serve::{ClientSeeds, Clocks, GameOver, MoveTree, PublicGameState, Seat};
use serde::{Deserialize, Serialize};

/// A participant identity (server: `Principal`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Principal {
    /// A guest (`{"Guest":{"id":...}}`).
    Guest {
        /// The guest's id.
        id: String,
    },
    /// A registered user.
    User {
        /// The user's id.
        id: String,
    },
    /// A bot, by team and name.
    Bot {
        /// The bot's team.
        team: String,
        /// The bot's name.
        name: String,
    },
}

impl std::fmt::Display for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Principal::Guest { id } => write!(f, "guest:{id}"),
            Principal::User { id } => write!(f, "user:{id}"),
            Principal::Bot { team, name } => write!(f, "bot:team:{team}:{name}"),
        }
    }
}

/// An event of the account stream (`GET /bot/stream/event`; server: `BotEvent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all_fields = "camelCase")]
pub enum AccountEvent {
    /// A challenge addressed to us.
    ChallengeReceived {
        /// The challenge id (accept or decline by it).
        id: String,
        /// Who challenges.
        challenger: Principal,
    },
    /// A challenge was declined (ours, by its target).
    ChallengeDeclined {
        /// The challenge id.
        id: String,
    },
    /// A game we are seated in started.
    GameStart {
        /// The game.
        game_id: String,
    },
}

/// One completed turn in a [`GameEvent::Snapshot`] (server: `SnapshotTurn`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotTurn {
    /// Who played it.
    pub seat: Seat,
    /// The roll.
    pub dice: Vec<u8>,
    /// The UCI micro-moves (empty for a forced pass).
    pub moves: Vec<String>,
    /// The position after it (also the next turn's start).
    pub fen_after: String,
}

/// An event of a game stream (`GET /bot/game/stream/{id}`; server: `GameEvent`). Each
/// carries the game's monotonic version `v`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all_fields = "camelCase")]
pub enum GameEvent {
    /// The current state, sent first on every connect.
    Snapshot {
        /// The version.
        v: u64,
        /// The state.
        state: Box<PublicGameState>,
        /// Every completed turn so far.
        #[serde(default)]
        history: Vec<SnapshotTurn>,
    },
    /// A roll for `seat`, with its legal turns.
    DiceRolled {
        /// The version.
        v: u64,
        /// Who rolled.
        seat: Seat,
        /// The three dice, 1..=6.
        dice: Vec<u8>,
        /// The position with the dice as its seventh field.
        dfen: String,
        /// Remaining ms per side (`null` on `Unlimited`).
        #[serde(default)]
        clocks: Option<Clocks>,
        /// The roll's tree: `{}` a forced pass, `null` over the inline cap (fetch
        /// `GET /games/{id}/moves`).
        #[serde(default)]
        legal_moves: Option<MoveTree>,
    },
    /// A turn was played.
    TurnPlayed {
        /// The version.
        v: u64,
        /// Who played.
        seat: Seat,
        /// Its micro-moves.
        moves: Vec<String>,
        /// The position after it.
        fen_after: String,
    },
    /// The previous player offered a draw (broadcast at the start of a turn).
    DrawOffered {
        /// The version.
        v: u64,
        /// Who offered.
        by: Seat,
    },
    /// A pending draw offer was declined.
    DrawDeclined {
        /// The version.
        v: u64,
        /// Who declined.
        by: Seat,
    },
    /// The game is over.
    GameEnded {
        /// The version.
        v: u64,
        /// Result and termination.
        over: GameOver,
        /// The revealed server seed (hex).
        #[serde(default)]
        seed: Option<String>,
        /// The revealed client seeds.
        #[serde(default)]
        client_seeds: Option<ClientSeeds>,
    },
    /// A command of `seat` was refused.
    Rejected {
        /// The version.
        v: u64,
        /// Whose command.
        seat: Seat,
        /// The server's reason (`"illegal turn"`, `"not your turn"`, ...).
        reason: String,
    },
}

impl GameEvent {
    /// The event's version `v`.
    pub fn version(&self) -> u64 {
        match self {
            GameEvent::Snapshot { v, .. }
            | GameEvent::DiceRolled { v, .. }
            | GameEvent::TurnPlayed { v, .. }
            | GameEvent::DrawOffered { v, .. }
            | GameEvent::DrawDeclined { v, .. }
            | GameEvent::GameEnded { v, .. }
            | GameEvent::Rejected { v, .. } => *v,
        }
    }
}

/// One line of an event stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Line<T> {
    /// A blank line: the server's keep-alive.
    KeepAlive,
    /// An event this build reads.
    Event(T),
    /// A well-formed event of a kind this build does not know (its name), skipped.
    Unknown(String),
}

/// Why a stream line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// Not JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// JSON, but not a one-key object `{"Kind":{...}}`.
    #[error("not an event (an object with one key naming the event): {0}")]
    Shape(String),
    /// A known event whose fields are wrong.
    #[error("{kind}: {reason}")]
    Fields {
        /// The event's kind.
        kind: String,
        /// What is wrong (the field and the expected type).
        reason: String,
    },
}

/// The kinds [`AccountEvent`] reads.
const ACCOUNT_KINDS: &[&str] = &["ChallengeReceived", "ChallengeDeclined", "GameStart"];

/// The kinds [`GameEvent`] reads.
const GAME_KINDS: &[&str] = &[
    "Snapshot",
    "DiceRolled",
    "TurnPlayed",
    "DrawOffered",
    "DrawDeclined",
    "GameEnded",
    "Rejected",
];

/// Read one line of the account stream.
pub fn parse_account_line(line: &str) -> Result<Line<AccountEvent>, EventError> {
    parse_line(line, ACCOUNT_KINDS)
}

/// Read one line of a game stream.
pub fn parse_game_line(line: &str) -> Result<Line<GameEvent>, EventError> {
    parse_line(line, GAME_KINDS)
}

fn parse_line<T: serde::de::DeserializeOwned>(
    line: &str,
    known: &[&str],
) -> Result<Line<T>, EventError> {
    if line.trim().is_empty() {
        return Ok(Line::KeepAlive);
    }
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| EventError::Json(e.to_string()))?;
    let kind = match value.as_object() {
        Some(o) if o.len() == 1 => o.keys().next().cloned().unwrap_or_default(),
        Some(o) => {
            return Err(EventError::Shape(format!(
                "an object with {} keys",
                o.len()
            )))
        }
        None => return Err(EventError::Shape(json_kind(&value).to_owned())),
    };
    if !known.contains(&kind.as_str()) {
        return Ok(Line::Unknown(kind));
    }
    serde_json::from_value(value)
        .map(Line::Event)
        .map_err(|e| EventError::Fields {
            kind,
            reason: e.to_string(),
        })
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_are_keep_alives_and_unknown_kinds_are_named() {
        assert_eq!(parse_game_line(""), Ok(Line::KeepAlive));
        assert_eq!(parse_game_line("  \r"), Ok(Line::KeepAlive));
        assert_eq!(
            parse_game_line(r#"{"Teleported":{"v":9}}"#),
            Ok(Line::Unknown("Teleported".into()))
        );
        // An account kind on a game stream is not a game event.
        assert_eq!(
            parse_game_line(r#"{"GameStart":{"gameId":"g"}}"#),
            Ok(Line::Unknown("GameStart".into()))
        );
    }

    #[test]
    fn malformed_lines_name_what_is_wrong() {
        assert!(matches!(parse_game_line("{"), Err(EventError::Json(_))));
        assert_eq!(
            parse_game_line("[1]"),
            Err(EventError::Shape("an array".into()))
        );
        assert_eq!(
            parse_game_line(r#"{"a":{},"b":{}}"#),
            Err(EventError::Shape("an object with 2 keys".into()))
        );
        let e = parse_game_line(r#"{"DiceRolled":{"v":1,"seat":"White","dfen":"x"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("DiceRolled: missing field `dice`"), "{e}");
        let e = parse_account_line(r#"{"GameStart":{"game_id":"g"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("gameId"), "{e}");
    }
}
