//! The Bot API over HTTP(S): one authenticated call per method, bodies read with a size cap,
//! and every failure an [`ApiError`] that names the route and the cause.

use super::ndjson::NdjsonLines;
use super::rest::{
    BotAccount, BotChallenges, BotGame, BotGames, Capacity, GameMoves, MoveBody, MoveOutcome,
    SeedBody,
};
use std::io::Read;
use std::time::Duration;

/// The most bytes read from a REST answer (a full move tree of a wild middlegame is a few
/// hundred KiB).
pub const MAX_BODY_BYTES: u64 = 16 * 1024 * 1024;

/// How long a silent event stream is trusted: the server sends a keep-alive every 25 s, so
/// 60 s without a byte means the connection is dead (and is reconnected).
pub const STREAM_IDLE: Duration = Duration::from_secs(60);

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The server URL is not `http(s)://host[:port][/prefix]`.
    #[error("server URL {0:?}: expected http://host[:port] or https://host[:port]")]
    Url(String),
    /// Connecting, sending or reading failed (DNS, refused, reset, timeout, TLS).
    #[error("{route}: {reason}")]
    Transport {
        /// The route.
        route: String,
        /// What failed.
        reason: String,
    },
    /// The token was refused (401/403).
    #[error("{route}: the server refused the bot token (HTTP {status})")]
    Unauthorized {
        /// The route.
        route: String,
        /// The status.
        status: u16,
    },
    /// Any other unexpected status.
    #[error("{route}: HTTP {status}{}", if body.is_empty() { String::new() } else { format!(": {body}") })]
    Status {
        /// The route.
        route: String,
        /// The status.
        status: u16,
        /// The start of the answer's body.
        body: String,
        /// The server's `Retry-After`, seconds.
        retry_after: Option<u64>,
    },
    /// The answer is not the documented JSON.
    #[error("{route}: unexpected answer: {reason}")]
    Decode {
        /// The route.
        route: String,
        /// What is wrong.
        reason: String,
    },
}

impl ApiError {
    /// Whether retrying later can help (transport failures, 5xx, 429); a refused token or
    /// a bad URL cannot.
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Transport { .. } => true,
            ApiError::Status { status, .. } => *status >= 500 || *status == 429,
            ApiError::Url(_) | ApiError::Unauthorized { .. } | ApiError::Decode { .. } => false,
        }
    }

    /// The server's `Retry-After`, if it sent one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ApiError::Status { retry_after, .. } => retry_after.map(Duration::from_secs),
            _ => None,
        }
    }
}

/// What accepting a challenge did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// A game was seated.
    Game(String),
    /// `409`: a side is at its concurrent-game limit; the challenge stays pending.
    Busy,
    /// `404`: the challenge is gone (expired, withdrawn or taken).
    Gone,
}

/// The verdict on a command: `200` with the outcome, `409` refused with its reason, or `202`
/// (the server gave no verdict in time; watch the stream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Applied (200).
    Applied(MoveOutcome),
    /// Refused (409), with the server's reason.
    Refused(String),
    /// No verdict (202).
    Pending,
}

/// A Bot API client: the server's base URL and the bot's token.
pub struct Api {
    base: String,
    token: String,
    agent: ureq::Agent,
    stream_agent: ureq::Agent,
}

impl std::fmt::Debug for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Api")
            .field("base", &self.base)
            .field("token", &"<redacted>")
            .finish_non_exhaustive()
    }
}

impl Api {
    /// A client of the server at `base` (`https://api.fortemate.com`, or `http://` for a
    /// local server), authenticating with `token`. REST calls time out after `timeout`;
    /// streams after [`STREAM_IDLE`] without a byte.
    pub fn new(base: &str, token: &str, timeout: Duration) -> Result<Api, ApiError> {
        let trimmed = base.trim_end_matches('/');
        let rest = trimmed
            .strip_prefix("https://")
            .or_else(|| trimmed.strip_prefix("http://"))
            .ok_or_else(|| ApiError::Url(base.to_owned()))?;
        if rest.is_empty() || rest.contains(char::is_whitespace) || rest.contains(['?', '#']) {
            return Err(ApiError::Url(base.to_owned()));
        }
        let agent = |read: Duration, global: Option<Duration>| -> ureq::Agent {
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_connect(Some(timeout))
                .timeout_per_read(Some(read))
                .timeout_global(global)
                .user_agent(concat!("dicechess/", env!("CARGO_PKG_VERSION")))
                .build()
                .into()
        };
        Ok(Api {
            base: trimmed.to_owned(),
            token: token.to_owned(),
            agent: agent(timeout, Some(timeout)),
            stream_agent: agent(STREAM_IDLE, None),
        })
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `GET /bot/account`: who the token is.
    pub fn account(&self) -> Result<BotAccount, ApiError> {
        self.get_json("/bot/account")
    }

    /// `GET /bot/challenges`.
    pub fn challenges(&self) -> Result<BotChallenges, ApiError> {
        self.get_json("/bot/challenges")
    }

    /// `GET /bot/games`: every live game we are seated in.
    pub fn games(&self) -> Result<BotGames, ApiError> {
        self.get_json("/bot/games")
    }

    /// `POST /bot/capacity`: declare how many games the server may seat us in at once.
    /// `Ok(None)`: the server keeps no declaration for this identity (`403`: an anonymous or
    /// house bot, unbounded).
    pub fn declare_capacity(&self, max_games: u32) -> Result<Option<Capacity>, ApiError> {
        let route = "/bot/capacity";
        let body = format!("{{\"maxConcurrentGames\":{max_games}}}");
        let (status, text, retry) = self.post(route, Some(&body))?;
        match status {
            200 => decode(route, &text).map(Some),
            403 => Ok(None),
            _ => Err(status_error(route, status, &text, retry)),
        }
    }

    /// `GET /games/{id}/moves`: the full tree of the pending roll.
    pub fn moves(&self, game: &str) -> Result<GameMoves, ApiError> {
        self.get_json(&format!("/games/{}/moves", segment(game)))
    }

    /// `POST /bot/challenge/{id}/accept`.
    pub fn accept(&self, challenge: &str) -> Result<Accepted, ApiError> {
        let route = format!("/bot/challenge/{}/accept", segment(challenge));
        let (status, body, retry) = self.post(&route, None)?;
        match status {
            200 | 201 => Ok(Accepted::Game(decode::<BotGame>(&route, &body)?.game_id)),
            404 => Ok(Accepted::Gone),
            409 => Ok(Accepted::Busy),
            _ => Err(status_error(&route, status, &body, retry)),
        }
    }

    /// `POST /bot/challenge/{id}/decline` (a challenge already gone is not an error).
    pub fn decline(&self, challenge: &str) -> Result<(), ApiError> {
        let route = format!("/bot/challenge/{}/decline", segment(challenge));
        let (status, body, retry) = self.post(&route, None)?;
        match status {
            200..=299 | 404 => Ok(()),
            _ => Err(status_error(&route, status, &body, retry)),
        }
    }

    /// `POST /bot/game/{id}/seed` (fire and forget: `202`).
    pub fn seed(&self, game: &str, seed: &str) -> Result<(), ApiError> {
        let route = format!("/bot/game/{}/seed", segment(game));
        let body = serde_json::to_string(&SeedBody {
            seed: seed.to_owned(),
        })
        .expect("a seed serialises");
        let (status, text, retry) = self.post(&route, Some(&body))?;
        match status {
            200..=299 => Ok(()),
            _ => Err(status_error(&route, status, &text, retry)),
        }
    }

    /// `POST /bot/game/{id}/move`.
    pub fn play(&self, game: &str, body: &MoveBody) -> Result<Verdict, ApiError> {
        let route = format!("/bot/game/{}/move", segment(game));
        let json = serde_json::to_string(body).expect("a move body serialises");
        self.command(&route, Some(&json))
    }

    /// `POST /bot/game/{id}/draw/accept` or `/draw/decline`.
    pub fn answer_draw(&self, game: &str, accept: bool) -> Result<Verdict, ApiError> {
        let verb = if accept { "accept" } else { "decline" };
        self.command(&format!("/bot/game/{}/draw/{verb}", segment(game)), None)
    }

    /// `POST /bot/game/{id}/resign`.
    pub fn resign(&self, game: &str) -> Result<Verdict, ApiError> {
        self.command(&format!("/bot/game/{}/resign", segment(game)), None)
    }

    /// `GET /bot/stream/event`: the account stream's lines.
    pub fn account_stream(&self) -> Result<NdjsonLines<Box<dyn Read + Send>>, ApiError> {
        self.stream("/bot/stream/event")
    }

    /// `GET /bot/game/stream/{id}`: one game's lines.
    pub fn game_stream(&self, game: &str) -> Result<NdjsonLines<Box<dyn Read + Send>>, ApiError> {
        self.stream(&format!("/bot/game/stream/{}", segment(game)))
    }

    fn stream(&self, route: &str) -> Result<NdjsonLines<Box<dyn Read + Send>>, ApiError> {
        let resp = self
            .stream_agent
            .get(format!("{}{route}", self.base))
            .header("Authorization", format!("Bearer {}", self.token))
            .header("Accept", "application/x-ndjson")
            .call()
            .map_err(|e| transport(route, e))?;
        let status = resp.status().as_u16();
        let retry = retry_after(&resp);
        if status != 200 {
            let body = read_body(route, resp).unwrap_or_default();
            return Err(status_error(route, status, &body, retry));
        }
        let reader: Box<dyn Read + Send> = Box::new(resp.into_body().into_reader());
        Ok(NdjsonLines::new(route.to_owned(), reader))
    }

    fn command(&self, route: &str, body: Option<&str>) -> Result<Verdict, ApiError> {
        let (status, text, retry) = self.post(route, body)?;
        match status {
            200 | 201 => Ok(Verdict::Applied(if text.trim().is_empty() {
                MoveOutcome {
                    applied: true,
                    ..MoveOutcome::default()
                }
            } else {
                decode(route, &text)?
            })),
            202 => Ok(Verdict::Pending),
            409 => {
                let reason = serde_json::from_str::<MoveOutcome>(&text)
                    .ok()
                    .and_then(|o| o.reason)
                    .unwrap_or_else(|| text.trim().to_owned());
                Ok(Verdict::Refused(reason))
            }
            _ => Err(status_error(route, status, &text, retry)),
        }
    }

    fn get_json<T: serde::de::DeserializeOwned>(&self, route: &str) -> Result<T, ApiError> {
        let resp = self
            .agent
            .get(format!("{}{route}", self.base))
            .header("Authorization", format!("Bearer {}", self.token))
            .call()
            .map_err(|e| transport(route, e))?;
        let status = resp.status().as_u16();
        let retry = retry_after(&resp);
        let body = read_body(route, resp)?;
        if status != 200 {
            return Err(status_error(route, status, &body, retry));
        }
        decode(route, &body)
    }

    fn post(
        &self,
        route: &str,
        body: Option<&str>,
    ) -> Result<(u16, String, Option<u64>), ApiError> {
        let req = self
            .agent
            .post(format!("{}{route}", self.base))
            .header("Authorization", format!("Bearer {}", self.token));
        let resp = match body {
            Some(b) => req.content_type("application/json").send(b),
            None => req.send_empty(),
        }
        .map_err(|e| transport(route, e))?;
        let status = resp.status().as_u16();
        let retry = retry_after(&resp);
        Ok((status, read_body(route, resp)?, retry))
    }
}

/// A path segment: ids are the server's (UUIDs, `challenge-7`), but one holding `/`, `?`,
/// `#` or dots (`..`) must not change the route.
fn segment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"-_~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn retry_after(resp: &ureq::http::Response<ureq::Body>) -> Option<u64> {
    resp.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

fn read_body(route: &str, resp: ureq::http::Response<ureq::Body>) -> Result<String, ApiError> {
    resp.into_body()
        .into_with_config()
        .limit(MAX_BODY_BYTES)
        .read_to_string()
        .map_err(|e| transport(route, e))
}

fn transport(route: &str, e: ureq::Error) -> ApiError {
    ApiError::Transport {
        route: route.to_owned(),
        reason: e.to_string(),
    }
}

fn status_error(route: &str, status: u16, body: &str, retry_after: Option<u64>) -> ApiError {
    if status == 401 || status == 403 {
        return ApiError::Unauthorized {
            route: route.to_owned(),
            status,
        };
    }
    let mut body = body.trim().to_owned();
    if body.len() > 200 {
        let cut = (0..=200)
            .rev()
            .find(|&i| body.is_char_boundary(i))
            .unwrap_or(0);
        body.truncate(cut);
        body.push('…');
    }
    ApiError::Status {
        route: route.to_owned(),
        status,
        body,
        retry_after,
    }
}

fn decode<T: serde::de::DeserializeOwned>(route: &str, body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| ApiError::Decode {
        route: route.to_owned(),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked_and_ids_cannot_change_the_route() {
        let t = Duration::from_secs(1);
        assert!(Api::new("https://api.fortemate.com/", "t", t).is_ok());
        assert!(Api::new("http://127.0.0.1:9000", "t", t).is_ok());
        for bad in [
            "api.fortemate.com",
            "ftp://x",
            "http://",
            "http://a b",
            "http://x?y",
        ] {
            assert!(
                matches!(Api::new(bad, "t", t), Err(ApiError::Url(_))),
                "{bad}"
            );
        }
        assert_eq!(segment("game-uuid"), "game-uuid");
        assert_eq!(segment("../a/b?c#d"), "%2E%2E%2Fa%2Fb%3Fc%23d");
    }

    #[test]
    fn status_errors_say_whether_a_retry_helps() {
        assert!(status_error("/r", 503, "", Some(3)).is_transient());
        assert_eq!(
            status_error("/r", 503, "", Some(3)).retry_after(),
            Some(Duration::from_secs(3))
        );
        assert!(status_error("/r", 429, "", None).is_transient());
        assert!(!status_error("/r", 401, "", None).is_transient());
        assert!(!status_error("/r", 400, "bad", None).is_transient());
        let long = "é".repeat(300);
        let shown = status_error("/r", 500, &long, None).to_string();
        assert!(shown.ends_with('…') && shown.len() < 260, "{shown}");
    }
}
