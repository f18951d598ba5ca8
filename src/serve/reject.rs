//! Why a delivery was refused: one precise variant per cause for the log, one sanitized
//! `{"error": code}` with its status for the client (the reference runtimes' codes).

use super::auth::AuthError;
use super::wire::ErrorBody;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// What was wrong with a well-formed HTTP request that we could not answer as asked.
#[derive(Debug, thiserror::Error)]
pub enum Rejection {
    /// Not a POST (405).
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The body is over the limit, declared or read (413).
    #[error("body over {limit} bytes")]
    TooLarge {
        /// The limit, bytes.
        limit: usize,
    },
    /// The body did not arrive in time or the connection broke (400).
    #[error("the body could not be read: {0}")]
    BodyRead(&'static str),
    /// Authentication failed (401).
    #[error("unauthorized: {0}")]
    Unauthorized(#[from] AuthError),
    /// Not JSON, or not the shape of its type (400). Only the serde message of an
    /// authenticated body (or of the head of any body) is kept.
    #[error("invalid request: {0}")]
    Invalid(Invalid),
    /// A type or verification version this server does not answer (400).
    #[error("unsupported delivery: {0}")]
    Unsupported(String),
    /// The position is one no game can reach (400).
    #[error("unreachable position: {0}")]
    Unreachable(String),
    /// The same (game, seat, version, type) arrived earlier with other inputs (409).
    #[error("stale context: the same delivery identity with different inputs")]
    StaleContext,
    /// The wait queue or the duplicate cache is full (503).
    #[error("capacity exceeded: {0}")]
    Capacity(&'static str),
    /// The engine failed or panicked (500).
    #[error("strategy failed: {0}")]
    Strategy(String),
}

/// The precise reason a request is invalid.
#[derive(Debug, thiserror::Error)]
pub enum Invalid {
    /// The body is not a JSON object with a string `type`.
    #[error("head: {0}")]
    Head(serde_json::Error),
    /// The body does not decode as its type.
    #[error("{kind}: {error}")]
    Shape {
        /// The delivery type.
        kind: &'static str,
        /// The decoder's message.
        error: serde_json::Error,
    },
    /// A required string is blank.
    #[error("{0} is blank")]
    Blank(&'static str),
    /// The version-less nonce is longer than the cap.
    #[error("nonce longer than {0} bytes")]
    NonceTooLong(usize),
    /// The v2 nonce is not canonical unpadded base64url of at least 16 bytes.
    #[error("nonce is not canonical base64url of at least 16 bytes")]
    NonceNotCanonical,
    /// The seat is not ours to act with, or not a player's seat.
    #[error("seat {seat:?} does not match activeSeat {active:?}")]
    Seat {
        /// The delivery's seat.
        seat: super::wire::Seat,
        /// The state's active seat.
        active: super::wire::Seat,
    },
    /// `dicePending` is not what the type needs.
    #[error("dicePending is {0}, the delivery type needs the opposite")]
    DicePending(bool),
    /// A `drawDecision` without a pending draw offer.
    #[error("drawOffer.pending is not true")]
    NoDrawOffer,
    /// The DFEN does not parse, or has the wrong number of fields for its type.
    #[error("dfen: {0}")]
    Dfen(String),
    /// The DFEN's side to move is not the delivery's seat.
    #[error("the dfen's side to move is not the seat")]
    SideToMove,
}

impl Rejection {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            Rejection::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Rejection::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Rejection::BodyRead(_)
            | Rejection::Invalid(_)
            | Rejection::Unsupported(_)
            | Rejection::Unreachable(_) => StatusCode::BAD_REQUEST,
            Rejection::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Rejection::StaleContext => StatusCode::CONFLICT,
            Rejection::Capacity(_) => StatusCode::SERVICE_UNAVAILABLE,
            Rejection::Strategy(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The sanitized code the client sees.
    pub fn code(&self) -> &'static str {
        match self {
            Rejection::MethodNotAllowed
            | Rejection::TooLarge { .. }
            | Rejection::BodyRead(_)
            | Rejection::Invalid(_) => "invalid_request",
            Rejection::Unsupported(_) => "unsupported_delivery",
            Rejection::Unreachable(_) => "unreachable_position",
            Rejection::Unauthorized(_) => "unauthorized",
            Rejection::StaleContext => "stale_context",
            Rejection::Capacity(_) => "capacity_exceeded",
            Rejection::Strategy(_) => "strategy_failed",
        }
    }
}

impl From<Invalid> for Rejection {
    fn from(e: Invalid) -> Rejection {
        Rejection::Invalid(e)
    }
}

/// A JSON answer with `Cache-Control: no-store` (every answer of this server carries it:
/// a decision is never to be cached by anything between the play server and us).
pub fn json_response(status: StatusCode, body: &impl serde::Serialize) -> Response {
    let bytes =
        serde_json::to_vec(body).unwrap_or_else(|_| b"{\"error\":\"internal_error\"}".to_vec());
    let mut resp = (status, bytes).into_response();
    let headers = resp.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

impl IntoResponse for &Rejection {
    fn into_response(self) -> Response {
        json_response(self.status(), &ErrorBody { error: self.code() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_the_runtime_table() {
        let table = [
            (Rejection::MethodNotAllowed, 405, "invalid_request"),
            (Rejection::TooLarge { limit: 1 }, 413, "invalid_request"),
            (
                Rejection::Unauthorized(AuthError::Mismatch),
                401,
                "unauthorized",
            ),
            (
                Rejection::Unsupported("x".into()),
                400,
                "unsupported_delivery",
            ),
            (Rejection::StaleContext, 409, "stale_context"),
            (Rejection::Capacity("queue"), 503, "capacity_exceeded"),
            (Rejection::Strategy("x".into()), 500, "strategy_failed"),
        ];
        for (r, status, code) in table {
            assert_eq!((r.status().as_u16(), r.code()), (status, code), "{r}");
        }
    }
}
