//! The play server's side of the protocol: a [`Bot`] that asks a webhook for its moves, so
//! the arena can measure a served bot (`dicechess arena --white http://host:port/api/webhook`).
//! It sends exactly what the play server sends (a signed `yourTurn` envelope carrying a
//! `PublicGameState`, the tree inline up to the server's 1,000-path cap) and, like the
//! server, reads at most 64 KiB of answer.

use super::auth::sign;
use super::wire::{
    EnvelopeOut, GameStatus, MoveTree, PlayerKind, Players, PublicGameState, PublicPlayer, Seat,
    ServerTimeControl, TurnAnswer,
};
use crate::board::Position;
use crate::bots::{Bot, BotError, BotInfo, Choice, Turn};
use crate::rules::legal_paths;
use dicechess_kernels::Color;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The server's inline cap: trees of more paths are sent as `null`.
pub const INLINE_PATHS: usize = 1000;

/// The most answer bytes read (the server's `MaxResponseBytes`); longer answers are refused.
pub const MAX_ANSWER_BYTES: usize = 65_536;

/// Room for the status line and headers on top of [`MAX_ANSWER_BYTES`].
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Why a webhook bot could not be built or did not answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The URL is not `http://host[:port][/path]`.
    #[error(
        "webhook URL {0:?}: only http://host[:port][/path] is supported (TLS belongs to the host)"
    )]
    Url(String),
    /// No shared secret.
    #[error("a webhook bot needs the shared secret (DICECHESS_WEBHOOK_SECRET)")]
    NoSecret,
    /// Connecting, writing or reading failed.
    #[error("{url}: {source}")]
    Io {
        /// The webhook.
        url: String,
        /// The failure.
        source: std::io::Error,
    },
    /// The answer is not an HTTP response.
    #[error("{0}: no HTTP response")]
    NoResponse(String),
    /// The answer is longer than [`MAX_ANSWER_BYTES`].
    #[error("{0}: answer over {MAX_ANSWER_BYTES} bytes")]
    Oversized(String),
    /// A status other than 200.
    #[error("{url} answered HTTP {status}")]
    Status {
        /// The webhook.
        url: String,
        /// The status.
        status: u16,
    },
    /// The body is not `{"moves":[...]}`.
    #[error("{url}: bad answer: {source}")]
    Answer {
        /// The webhook.
        url: String,
        /// The decoder's message.
        source: serde_json::Error,
    },
    /// The moves are not a legal turn.
    #[error("{url} answered an illegal turn {moves:?} at {dfen}")]
    Illegal {
        /// The webhook.
        url: String,
        /// The moves answered.
        moves: Vec<String>,
        /// The position.
        dfen: String,
    },
}

/// A bot played by a webhook: every decision is one signed `yourTurn` delivery (plain
/// HTTP/1.1, as behind the host's TLS terminator), its answer checked against the rules.
/// `Debug` never prints the secret.
#[derive(Clone)]
pub struct WebhookBot {
    url: String,
    host: String,
    path: String,
    secret: Vec<u8>,
    timeout: Duration,
    version: Arc<AtomicU64>,
}

impl std::fmt::Debug for WebhookBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookBot")
            .field("url", &self.url)
            .field("secret", &"<redacted>")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

fn seat_of(c: Color) -> Seat {
    match c {
        Color::White => Seat::White,
        Color::Black => Seat::Black,
    }
}

impl WebhookBot {
    /// A bot for `url` (`http://host:port/path`) signing with `secret`.
    pub fn new(url: &str, secret: &[u8]) -> Result<WebhookBot, ClientError> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| ClientError::Url(url.to_owned()))?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/api/webhook"),
        };
        if host.is_empty() {
            return Err(ClientError::Url(url.to_owned()));
        }
        if secret.is_empty() {
            return Err(ClientError::NoSecret);
        }
        Ok(WebhookBot {
            url: url.to_owned(),
            host: host.to_owned(),
            path: path.to_owned(),
            secret: secret.to_vec(),
            timeout: Duration::from_secs(60),
            version: Arc::new(AtomicU64::new(1)),
        })
    }

    fn io(&self, source: std::io::Error) -> ClientError {
        ClientError::Io {
            url: self.url.clone(),
            source,
        }
    }

    /// The `yourTurn` body the play server would send for `pos`.
    pub fn delivery(&self, pos: &Position) -> Vec<u8> {
        let paths = legal_paths(pos);
        let legal_moves = (paths.len() <= INLINE_PATHS).then(|| {
            let mut root = MoveTree::default();
            for p in &paths {
                let mut node = &mut root;
                for m in p.moves() {
                    node = node.0.entry(m.uci()).or_default();
                }
            }
            root
        });
        let seat = seat_of(pos.side_to_move());
        let bot = |name: &str| PublicPlayer {
            kind: PlayerKind::Bot,
            name: Some(name.to_owned()),
            rating: None,
        };
        let state = PublicGameState {
            version: self.version.fetch_add(1, Ordering::Relaxed),
            dfen: pos.to_dfen(),
            active_seat: seat,
            dice_pending: true,
            status: Some(GameStatus::Active {}),
            time_control: Some(ServerTimeControl::Unlimited {}),
            clocks: None,
            commit: Some(format!("{:064x}", pos.key())),
            seed: None,
            client_seeds: None,
            legal_moves,
            players: Some(Players {
                white: bot("arena white"),
                black: bot("arena black"),
            }),
            rated: Some(false),
            draw_offer: None,
            may_offer_draw: Some(false),
            doubling: None,
        };
        let game_id = format!("arena-{:016x}", pos.key());
        let envelope = EnvelopeOut {
            kind: "yourTurn",
            game_id: &game_id,
            seat,
            state: &state,
        };
        // A struct of strings, numbers and maps: encoding cannot fail.
        serde_json::to_vec(&envelope).unwrap_or_default()
    }

    /// POST a signed body; the status and the body (at most [`MAX_ANSWER_BYTES`]).
    fn deliver(&self, body: &[u8]) -> Result<(u16, Vec<u8>), ClientError> {
        let ts = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
            .to_string();
        let sig = sign(&self.secret, &ts, body);
        let mut stream = TcpStream::connect(&self.host).map_err(|e| self.io(e))?;
        stream
            .set_read_timeout(Some(self.timeout))
            .and_then(|_| stream.set_write_timeout(Some(self.timeout)))
            .map_err(|e| self.io(e))?;
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             X-DiceChess-Timestamp: {ts}\r\nX-DiceChess-Signature: {sig}\r\nConnection: close\r\n\r\n",
            self.path,
            self.host,
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .and_then(|_| stream.write_all(body))
            .map_err(|e| self.io(e))?;
        let cap = MAX_ANSWER_BYTES + MAX_HEAD_BYTES;
        let mut raw = Vec::new();
        (&mut stream)
            .take(cap as u64 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| self.io(e))?;
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| ClientError::NoResponse(self.url.clone()))?;
        let payload = raw[split + 4..].to_vec();
        if raw.len() > cap || payload.len() > MAX_ANSWER_BYTES {
            return Err(ClientError::Oversized(self.url.clone()));
        }
        let status = std::str::from_utf8(&raw[..split])
            .ok()
            .and_then(|h| h.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| ClientError::NoResponse(self.url.clone()))?;
        Ok((status, payload))
    }

    /// One turn over the webhook: the answer, checked against the legal paths.
    fn ask(&self, pos: &Position) -> Result<Choice, ClientError> {
        let paths = legal_paths(pos);
        if paths.is_empty() {
            return Ok(Choice::pass());
        }
        let (status, body) = self.deliver(&self.delivery(pos))?;
        if status != 200 {
            return Err(ClientError::Status {
                url: self.url.clone(),
                status,
            });
        }
        let answer: TurnAnswer =
            serde_json::from_slice(&body).map_err(|source| ClientError::Answer {
                url: self.url.clone(),
                source,
            })?;
        let path = paths
            .iter()
            .find(|p| {
                p.moves()
                    .iter()
                    .map(|m| m.uci())
                    .eq(answer.moves.iter().cloned())
            })
            .copied()
            .ok_or_else(|| ClientError::Illegal {
                url: self.url.clone(),
                moves: answer.moves.clone(),
                dfen: pos.to_dfen(),
            })?;
        Ok(Choice {
            path: Some(path),
            score: 0.0,
            stats: None,
        })
    }
}

impl Bot for WebhookBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            id: self.url.clone(),
            name: format!("webhook {}", self.url),
            difficulty: 0,
            description: "a bot served over the webhook protocol".into(),
        }
    }

    fn choose(&self, pos: &Position, _turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        self.ask(pos).map_err(|e| BotError::Remote(Box::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_prints_the_secret() {
        let b = WebhookBot::new("http://127.0.0.1:1/api/webhook", b"s3cr3t-value").unwrap();
        let shown = format!("{b:?}");
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert!(matches!(
            WebhookBot::new("https://x/api", b"k"),
            Err(ClientError::Url(_))
        ));
        assert!(matches!(
            WebhookBot::new("http://x/api", b""),
            Err(ClientError::NoSecret)
        ));
    }

    #[test]
    fn deliveries_have_the_servers_shape() {
        let b = WebhookBot::new("http://127.0.0.1:1/api/webhook", b"k").unwrap();
        let big =
            Position::from_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PPN")
                .unwrap();
        // 2,540 paths: over the inline cap, sent as null.
        let v: serde_json::Value = serde_json::from_slice(&b.delivery(&big)).unwrap();
        assert!(v["state"]["legalMoves"].is_null());
        let pos = Position::from_dfen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 NBK",
        )
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&b.delivery(&pos)).unwrap();
        assert_eq!(v["type"], "yourTurn");
        assert_eq!(v["seat"], "White");
        let s = &v["state"];
        assert_eq!(s["timeControl"], serde_json::json!({"Unlimited": {}}));
        assert_eq!(s["status"], serde_json::json!({"Active": {}}));
        assert!(s["clocks"].is_null());
        assert_eq!(s["dicePending"], true);
        assert!(s["legalMoves"].is_object());
        // Round trip through the server's model.
        let env: super::super::wire::GameEnvelope = serde_json::from_value(v).unwrap();
        assert_eq!(
            env.state.legal_moves.unwrap().leaves(),
            legal_paths(&pos).len()
        );
    }
}
