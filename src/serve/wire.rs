//! The webhook wire format, typed: what the play server POSTs and what it accepts back.
//!
//! The shapes follow the server's own models (`dicechess-play-api`, `core/Protocol.scala`,
//! `server/Webhooks.scala`) as its circe codecs encode them (`wire/Codecs.scala`): case
//! classes are plain objects with camelCase fields, `Option` fields are `null` or absent,
//! simple enums (`Seat`, `Side`, `Termination`, `PlayerKind`) are their case name, and ADTs
//! (`TimeControl`, `GameStatus`, `GameResult`) are discriminated objects such as
//! `{"Fischer":{"initialSeconds":180,"incrementSeconds":2}}` or `{"Unlimited":{}}`. Unknown
//! fields are ignored everywhere, so a server that adds one stays compatible. See
//! `docs/webhook.md`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The first look at a body: its `type` and (verification only) `version`, read before
/// anything else so that unauthenticated bodies are never parsed further.
#[derive(Clone, Debug, Deserialize)]
pub struct Head {
    /// The delivery type (`verification`, `yourTurn`, `drawDecision`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The verification version: absent for the registration / wake handshake, `2` for the
    /// staged activation challenge. `Some(Null)` when sent as `null`.
    #[serde(default, deserialize_with = "present")]
    pub version: Option<serde_json::Value>,
}

/// Keeps `null` apart from absent: `Some(Value::Null)` for an explicit `null`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

/// The delivery types this server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeliveryType {
    /// Ownership handshake (registration, wake probe) or staged activation (version 2).
    Verification,
    /// Our seat must play the pending roll.
    YourTurn,
    /// Pre-roll: the opponent offered a draw.
    DrawDecision,
    /// Extension (stake doubling): may we offer a double?
    DoubleOpportunity,
    /// Extension (stake doubling): do we take the offered double?
    DoubleDecision,
}

impl DeliveryType {
    /// The type of a `type` string; `None` for one this server does not know.
    pub fn parse(kind: &str) -> Option<DeliveryType> {
        Some(match kind {
            "verification" => DeliveryType::Verification,
            "yourTurn" => DeliveryType::YourTurn,
            "drawDecision" => DeliveryType::DrawDecision,
            "doubleOpportunity" => DeliveryType::DoubleOpportunity,
            "doubleDecision" => DeliveryType::DoubleDecision,
            _ => return None,
        })
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryType::Verification => "verification",
            DeliveryType::YourTurn => "yourTurn",
            DeliveryType::DrawDecision => "drawDecision",
            DeliveryType::DoubleOpportunity => "doubleOpportunity",
            DeliveryType::DoubleDecision => "doubleDecision",
        }
    }
}

/// The version-less handshake: `{"type":"verification","nonce":"<hex>"}` (server:
/// `WebhookVerification`); answered `{"nonce": <same>}`.
#[derive(Clone, Debug, Deserialize)]
pub struct LegacyVerification {
    /// 16 random bytes as hex on the server; echoed verbatim.
    pub nonce: String,
}

/// The staged activation challenge (server: `WebhookManagement.verify`), signed with the
/// pending secret; answered `{"nonce", "proof"}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationV2 {
    /// The bot being activated.
    pub bot: BotRef,
    /// `whs_<uuid>`.
    pub setup_id: String,
    /// `whrev_<uuid>`.
    pub revision: String,
    /// 16 random bytes, unpadded base64url.
    pub nonce: String,
}

/// A bot's identity in a v2 challenge.
#[derive(Clone, Debug, Deserialize)]
pub struct BotRef {
    /// Team slug.
    pub team: String,
    /// Bot slug.
    pub name: String,
}

/// The game envelope (server: `WebhookEnvelope(type, gameId, seat, state)`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameEnvelope {
    /// The game.
    pub game_id: String,
    /// The seat this bot holds.
    pub seat: Seat,
    /// The game as every client sees it.
    pub state: PublicGameState,
    /// Extension: a top-level doubling decision id (older test clients); the stake-doubling
    /// contract puts it in `state.doubling.decision.id`.
    #[serde(default)]
    pub decision_id: Option<serde_json::Value>,
}

/// The game envelope as the server writes it (`type` first), for senders such as the
/// arena's webhook client.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeOut<'a> {
    /// The delivery type.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// The game.
    pub game_id: &'a str,
    /// The receiving bot's seat.
    pub seat: Seat,
    /// The game state.
    pub state: &'a PublicGameState,
}

/// A seat at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// White.
    White,
    /// Black.
    Black,
    /// A read-only spectator (never a delivery's seat).
    Spectator,
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// A wire-safe snapshot of a game (server: `PublicGameState`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicGameState {
    /// Monotonic event version: identifies the decision together with game, seat and type.
    pub version: u64,
    /// The position; on a `yourTurn` with the pending dice as its seventh field.
    pub dfen: String,
    /// The seat to act.
    pub active_seat: Seat,
    /// Whether a roll is pending (true on `yourTurn`, false pre-roll).
    pub dice_pending: bool,
    /// `{"Active":{}}` or `{"Ended":{...}}` (always sent by the server).
    #[serde(default)]
    pub status: Option<GameStatus>,
    /// The time control (always sent by the server; absent in some hand-written clients).
    #[serde(default)]
    pub time_control: Option<ServerTimeControl>,
    /// Remaining ms per side; `null` or absent in `Unlimited` games.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    /// SHA-256 of the server's dice seed (hex).
    #[serde(default)]
    pub commit: Option<String>,
    /// The revealed seed, once the game has ended.
    #[serde(default)]
    pub seed: Option<String>,
    /// The clients' dice seeds, once the game has ended.
    #[serde(default)]
    pub client_seeds: Option<ClientSeeds>,
    /// The legal turns of the pending roll; `null` when the server's inline cap (1,000
    /// paths) was exceeded or no roll is pending.
    #[serde(default)]
    pub legal_moves: Option<MoveTree>,
    /// Both seats' public faces.
    #[serde(default)]
    pub players: Option<Players>,
    /// Whether the game is rated (absent: the server does not say).
    #[serde(default)]
    pub rated: Option<bool>,
    /// A draw offer pending for the side to move.
    #[serde(default)]
    pub draw_offer: Option<DrawOffer>,
    /// Whether the side to move may offer a draw this turn.
    #[serde(default)]
    pub may_offer_draw: Option<bool>,
    /// Extension (stake doubling): the doubling state of a doubling delivery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doubling: Option<Doubling>,
}

/// A game's time control (the server's `TimeControl`, named apart from the arena's
/// [`crate::selfplay::TimeControl`]), one discriminated object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerTimeControl {
    /// No clocks (`{"Unlimited":{}}`).
    Unlimited {},
    /// One clock per side, no increment.
    #[serde(rename_all = "camelCase")]
    SuddenDeath {
        /// Starting time, seconds.
        initial_seconds: u32,
    },
    /// One clock per side plus an increment per turn.
    #[serde(rename_all = "camelCase")]
    Fischer {
        /// Starting time, seconds.
        initial_seconds: u32,
        /// Added after each turn, seconds.
        increment_seconds: u32,
    },
    /// A fixed allowance per turn.
    #[serde(rename_all = "camelCase")]
    PerMove {
        /// The allowance, seconds.
        seconds_per_move: u32,
    },
}

/// Remaining time per side, milliseconds (server: `Clocks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// White's clock, ms.
    pub white: u64,
    /// Black's clock, ms.
    pub black: u64,
}

/// Whether the game runs (server: `GameStatus`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameStatus {
    /// The game is on (`{"Active":{}}`).
    Active {},
    /// The game is over.
    Ended {
        /// How.
        over: GameOver,
    },
}

/// How a game ended (server: `GameOver`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOver {
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
}

/// A game's result (server: `GameResult`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// One side won.
    Win {
        /// The winner.
        side: Side,
    },
    /// A draw (`{"Draw":{}}`).
    Draw {},
}

/// Why a game ended (server: `Termination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Termination {
    /// A king was captured.
    KingCaptured,
    /// A side resigned.
    Resign,
    /// Agreed draw.
    Draw,
    /// Server-side abort.
    Aborted,
    /// The side to move ran out of time.
    Timeout,
}

/// The revealed client dice seeds (server: `ClientSeeds`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientSeeds {
    /// White's seed.
    pub white: String,
    /// Black's seed.
    pub black: String,
}

/// Both seats' public faces (server: `Players`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Players {
    /// White.
    pub white: PublicPlayer,
    /// Black.
    pub black: PublicPlayer,
}

/// A participant's public face (server: `PublicPlayer`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicPlayer {
    /// Human or bot.
    pub kind: PlayerKind,
    /// Display name; `null` for an anonymous human.
    #[serde(default)]
    pub name: Option<String>,
    /// Settled rating, when the server says.
    #[serde(default)]
    pub rating: Option<f64>,
}

/// Human or bot (server: `PlayerKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerKind {
    /// A human.
    Human,
    /// A bot.
    Bot,
}

/// A draw offer pending for the side to move (server: `DrawOffer(pending = true)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawOffer {
    /// Whether it is pending.
    #[serde(default = "yes")]
    pub pending: bool,
}

fn yes() -> bool {
    true
}

/// The legal turns of a roll as a prefix tree of UCI micro-moves (server: `MoveTree`):
/// `{"e2e4":{"g1f3":{}}}`; a node without children ends a legal turn, and the empty tree
/// is a forced pass. Kept sorted, as the server encodes it, so equal trees compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MoveTree(pub BTreeMap<String, MoveTree>);

impl MoveTree {
    /// Whether `moves` walks from the root to a leaf (the empty list only in the empty tree).
    pub fn has_path(&self, moves: &[String]) -> bool {
        let mut node = self;
        for m in moves {
            match node.0.get(m) {
                Some(child) => node = child,
                None => return false,
            }
        }
        node.0.is_empty()
    }

    /// The first root-to-leaf path in key order (empty for the empty tree).
    pub fn first_path(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut node = self;
        while let Some((m, child)) = node.0.iter().next() {
            out.push(m.clone());
            node = child;
        }
        out
    }

    /// Number of leaves (legal turns).
    #[cfg(test)]
    pub fn leaves(&self) -> usize {
        if self.0.is_empty() {
            return 1;
        }
        self.0.values().map(MoveTree::leaves).sum()
    }
}

/// Extension (stake doubling contract v1): the doubling state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Doubling {
    /// The decision asked for.
    #[serde(default)]
    pub decision: Option<DoublingDecision>,
}

/// Extension: the decision a doubling delivery asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoublingDecision {
    /// Echoed back as `decisionId`.
    pub id: String,
}

/// The answer to a `yourTurn` (server: `BotMove`): the micro-moves, and a draw offer only
/// when one is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnAnswer {
    /// The turn in UCI; empty for a forced pass.
    pub moves: Vec<String>,
    /// `true` to offer a draw with the turn (only sent when `mayOfferDraw` was `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_draw: Option<bool>,
}

/// The answer to a `drawDecision`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DrawAnswer {
    /// Accept the offered draw?
    pub accept_draw: bool,
}

/// The answer to a version-less verification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NonceEcho {
    /// The nonce, verbatim.
    pub nonce: String,
}

/// The answer to a v2 verification: exactly these two keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationProof {
    /// The nonce, verbatim.
    pub nonce: String,
    /// Lower-case hex HMAC-SHA256 under the pending secret (see `auth::proof`).
    pub proof: String,
}

/// Extension: the answer to a `doubleOpportunity`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DoubleOfferAnswer {
    /// The decision id, echoed.
    pub decision_id: serde_json::Value,
    /// Offer the double?
    pub offer_double: bool,
    /// Resign instead (`true` only; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<bool>,
}

/// Extension: the answer to a `doubleDecision`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DoubleResponseAnswer {
    /// The decision id, echoed.
    pub decision_id: serde_json::Value,
    /// Take the double?
    pub accept_double: bool,
    /// Resign instead (`true` only; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<bool>,
}

/// An error answer: `{"error": code}`, nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorBody {
    /// The sanitized code.
    pub error: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn time_controls_are_discriminated_objects() {
        let cases = [
            (json!({"Unlimited": {}}), ServerTimeControl::Unlimited {}),
            (
                json!({"SuddenDeath": {"initialSeconds": 300}}),
                ServerTimeControl::SuddenDeath {
                    initial_seconds: 300,
                },
            ),
            (
                json!({"Fischer": {"initialSeconds": 180, "incrementSeconds": 2}}),
                ServerTimeControl::Fischer {
                    initial_seconds: 180,
                    increment_seconds: 2,
                },
            ),
            (
                json!({"PerMove": {"secondsPerMove": 5}}),
                ServerTimeControl::PerMove {
                    seconds_per_move: 5,
                },
            ),
        ];
        for (v, tc) in cases {
            assert_eq!(
                serde_json::from_value::<ServerTimeControl>(v.clone()).unwrap(),
                tc
            );
            assert_eq!(serde_json::to_value(tc).unwrap(), v);
        }
        // The invented shape is refused.
        assert!(serde_json::from_value::<ServerTimeControl>(json!({"type": "Fischer"})).is_err());
        assert!(serde_json::from_value::<ServerTimeControl>(json!("Unlimited")).is_err());
    }

    #[test]
    fn status_and_results_decode_as_the_server_encodes_them() {
        let s: GameStatus = serde_json::from_value(json!({"Active": {}})).unwrap();
        assert_eq!(s, GameStatus::Active {});
        let s: GameStatus = serde_json::from_value(json!({"Ended": {"over": {
            "result": {"Win": {"side": "Black"}}, "termination": "KingCaptured"}}}))
        .unwrap();
        assert_eq!(
            s,
            GameStatus::Ended {
                over: GameOver {
                    result: GameResult::Win { side: Side::Black },
                    termination: Termination::KingCaptured
                }
            }
        );
    }

    #[test]
    fn trees_walk_and_compare_sorted() {
        let t: MoveTree =
            serde_json::from_value(json!({"e2e4": {"g1f3": {}, "d2d4": {}}, "a2a3": {}})).unwrap();
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(t.has_path(&p(&["e2e4", "d2d4"])));
        assert!(!t.has_path(&p(&["e2e4"])));
        assert!(!t.has_path(&p(&["h2h3"])));
        assert_eq!(t.first_path(), p(&["a2a3"]));
        assert_eq!(t.leaves(), 3);
        assert!(MoveTree::default().has_path(&[]));
        assert!(serde_json::from_value::<MoveTree>(json!({"e2e4": 3})).is_err());
    }

    #[test]
    fn head_keeps_null_apart_from_absent() {
        let h: Head = serde_json::from_str(r#"{"type":"verification","nonce":"n"}"#).unwrap();
        assert_eq!(h.version, None);
        let h: Head = serde_json::from_str(r#"{"type":"verification","version":null}"#).unwrap();
        assert_eq!(h.version, Some(serde_json::Value::Null));
        let h: Head = serde_json::from_str(r#"{"version":2,"type":"verification"}"#).unwrap();
        assert_eq!(h.version, Some(json!(2)));
    }
}
