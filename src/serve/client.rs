//! The play server's side of the protocol: a [`Bot`] that asks a webhook for its moves, so
//! the arena can measure a served bot (`dicechess arena --white http://host:port/api/webhook`).

use super::auth::sign;
use crate::board::Position;
use crate::rules::{legal_paths, TurnTree};
use crate::search::bots::{Bot, BotInfo, Choice, Turn};
use crate::search::SearchError;
use dicechess_kernels::Color;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A bot played by a webhook: every decision is one signed `yourTurn` delivery (plain
/// HTTP/1.1, as behind the host's TLS terminator), its answer checked against the rules.
#[derive(Clone, Debug)]
pub struct WebhookBot {
    url: String,
    host: String,
    path: String,
    secret: Vec<u8>,
    timeout: Duration,
}

impl WebhookBot {
    /// A bot for `url` (`http://host:port/path`) signing with `secret`.
    pub fn new(url: &str, secret: &[u8]) -> Result<WebhookBot, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            format!("webhook URL {url:?}: only http:// is supported (TLS belongs to the host)")
        })?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/api/webhook"),
        };
        if host.is_empty() {
            return Err(format!("webhook URL {url:?}: no host"));
        }
        if secret.is_empty() {
            return Err("a webhook bot needs the shared secret (DICECHESS_WEBHOOK_SECRET)".into());
        }
        Ok(WebhookBot {
            url: url.to_owned(),
            host: host.to_owned(),
            path: path.to_owned(),
            secret: secret.to_vec(),
            timeout: Duration::from_secs(60),
        })
    }

    /// POST a signed body; the status and the JSON answer.
    fn deliver(&self, body: &[u8]) -> Result<(u16, Value), String> {
        let ts = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
            .to_string();
        let sig = sign(&self.secret, &ts, body);
        let mut stream =
            TcpStream::connect(&self.host).map_err(|e| format!("{}: {e}", self.url))?;
        stream
            .set_read_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
        stream
            .set_write_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
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
            .map_err(|e| format!("{}: {e}", self.url))?;
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .map_err(|e| format!("{}: {e}", self.url))?;
        let text = String::from_utf8_lossy(&raw);
        let (head, payload) = text
            .split_once("\r\n\r\n")
            .ok_or_else(|| format!("{}: no HTTP response", self.url))?;
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{}: bad status line", self.url))?;
        let value = serde_json::from_str(payload.trim()).unwrap_or(Value::Null);
        Ok((status, value))
    }
}

fn seat(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
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

    fn choose(&self, pos: &Position, _turn: &mut Turn<'_>) -> Result<Choice, SearchError> {
        let paths = legal_paths(pos);
        if paths.is_empty() {
            return Ok(Choice {
                path: None,
                score: 0.0,
                stats: None,
            });
        }
        let us = pos.side_to_move();
        let body = json!({
            "type": "yourTurn",
            "gameId": format!("arena-{:016x}", pos.key()),
            "seat": seat(us),
            "state": {
                "dfen": pos.to_dfen(),
                "activeSeat": seat(us),
                "clocks": null,
                "timeControl": "Unlimited",
            },
            "legalMoves": TurnTree::new(pos).to_json(),
        });
        let (status, answer) = self
            .deliver(body.to_string().as_bytes())
            .map_err(SearchError::Remote)?;
        if status != 200 {
            return Err(SearchError::Remote(format!(
                "{} answered {status}: {answer}",
                self.url
            )));
        }
        let moves: Vec<String> = answer["moves"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|m| m.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let path = paths
            .iter()
            .find(|p| p.moves().iter().map(|m| m.uci()).eq(moves.iter().cloned()))
            .copied()
            .ok_or_else(|| {
                SearchError::Remote(format!(
                    "{} answered an illegal turn {moves:?} at {pos}",
                    self.url
                ))
            })?;
        Ok(Choice {
            path: Some(path),
            score: 0.0,
            stats: None,
        })
    }
}
