//! The REST bodies of the play server's Bot API (`server/BotRoutes.scala`, `docs/.../rest.md`),
//! field for field: what we send and what we read back.

use super::events::Principal;
use crate::serve::{Clocks, MoveTree, Seat, ServerTimeControl};
use serde::{Deserialize, Serialize};

/// `GET /bot/account` (server: `BotAccount`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAccount {
    /// The bot's team.
    pub team: String,
    /// The bot's name.
    pub name: String,
    /// Its external id (`bot:team:<team>:<name>`).
    pub id: String,
}

/// A pending challenge (server: `Challenge`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// The challenge id.
    pub id: String,
    /// Who challenges.
    pub challenger: Principal,
    /// Whom (absent in the documented example; always sent by the server).
    #[serde(default)]
    pub target: Option<Principal>,
    /// The offered time control (the server's default: `Unlimited`).
    #[serde(default = "unlimited")]
    pub time_control: ServerTimeControl,
    /// Whether the offer is rated (default `false`).
    #[serde(default)]
    pub rated: bool,
}

fn unlimited() -> ServerTimeControl {
    ServerTimeControl::Unlimited {}
}

/// `GET /bot/challenges` (server: `BotChallenges`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotChallenges {
    /// Addressed to us.
    #[serde(rename = "in", default)]
    pub incoming: Vec<Challenge>,
    /// Ours, pending.
    #[serde(default)]
    pub out: Vec<Challenge>,
}

/// `POST /bot/challenge/{id}/accept` → `201` (server: `BotGame`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BotGame {
    /// The new game.
    pub game_id: String,
}

/// A live game we are seated in (server: `BotActiveGame`; the newer fields optional).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BotActiveGame {
    /// The game.
    pub game_id: String,
    /// Our seat.
    pub seat: Seat,
    /// The seat to act.
    pub active_seat: Seat,
    /// Whether a roll is pending.
    pub dice_pending: bool,
    /// The time control.
    pub time_control: ServerTimeControl,
    /// Remaining ms per side.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    /// The game's version.
    pub version: u64,
    /// A decision pending before the roll (`{"kind":"drawResponse"}`), if any.
    #[serde(default)]
    pub decision: Option<serde_json::Value>,
}

/// `GET /bot/games` (server: `BotGames`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BotGames {
    /// Every live game we are seated in.
    pub games: Vec<BotActiveGame>,
}

/// `GET`/`POST /bot/capacity` (server: `Capacity`): how many games the server may seat us in
/// at once (registered bots only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Capacity {
    /// The declaration, 1–32.
    pub max_concurrent_games: u32,
    /// Whether we are in the human catalog.
    #[serde(default)]
    pub open_to_humans: bool,
    /// How much of the declaration the rating ladder may take.
    #[serde(default)]
    pub ladder_allowance: u32,
    /// Games being played now.
    #[serde(default)]
    pub active_games: u32,
}

/// `GET /games/{id}/moves` (server: `GameMoves`): the full tree of the pending roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameMoves {
    /// The version the tree answers.
    pub version: u64,
    /// The position with its dice.
    pub dfen: String,
    /// Whether a roll is pending.
    pub dice_pending: bool,
    /// The legal turns (`{}`: none pending, or a forced pass).
    pub legal_moves: MoveTree,
}

/// `POST /bot/game/{id}/move` (server: `BotMove`). `resign` (newer servers) takes precedence
/// over everything else; it is sent only when set, so older servers read the same body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveBody {
    /// The turn's micro-moves in UCI (empty for a forced pass).
    pub moves: Vec<String>,
    /// Offer a draw with the turn.
    pub offer_draw: bool,
    /// Resign instead of moving.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resign: bool,
}

/// `POST /bot/game/{id}/seed` (server: `BotSeed`): 16–256 characters of entropy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedBody {
    /// The seed.
    pub seed: String,
}

/// The verdict on a move, draw answer or resignation (server: `MoveOutcome`): `200`
/// applied, `409` refused with the reason the stream's `Rejected` carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveOutcome {
    /// Whether it was applied.
    pub applied: bool,
    /// The resulting version.
    #[serde(default)]
    pub version: Option<u64>,
    /// Why it was refused.
    #[serde(default)]
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_bodies_are_the_servers_shape() {
        let plain = MoveBody {
            moves: vec!["e2e4".into()],
            offer_draw: false,
            resign: false,
        };
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"moves":["e2e4"],"offerDraw":false}"#
        );
        let resign = MoveBody {
            resign: true,
            ..MoveBody::default()
        };
        assert_eq!(
            serde_json::to_string(&resign).unwrap(),
            r#"{"moves":[],"offerDraw":false,"resign":true}"#
        );
    }
}
