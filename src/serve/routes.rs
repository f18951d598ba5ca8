//! The route handlers: `GET /health`, and `/api/webhook` — one delivery read, authenticated,
//! dispatched by type to its answer (`decide.rs`) and logged.

use super::auth::{self, AuthError, SignedWith, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use super::decide;
use super::dedup;
use super::limits;
use super::log::LogFields;
use super::reject::{json_response, Invalid, Rejection};
use super::state::App;
use super::wire::{DeliveryType, Head};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use serde_json::json;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// `GET /health`: liveness, and the bot served.
pub(super) async fn health(State(app): State<Arc<App>>) -> Response {
    json_response(StatusCode::OK, &json!({"status": "ok", "bot": app.bot_id}))
}

/// `/api/webhook`: one delivery answered (only `POST`), and its log line written.
pub(super) async fn webhook(State(app): State<Arc<App>>, req: Request) -> Response {
    let started = Instant::now();
    let (parts, body) = req.into_parts();
    let mut fields = LogFields::default();
    let outcome = if parts.method == Method::POST {
        handle(&app, &parts.headers, body, started, &mut fields).await
    } else {
        Err(Rejection::MethodNotAllowed)
    };
    let (response, status, detail) = match &outcome {
        Ok(bytes) => {
            let mut r = json_response(StatusCode::OK, &serde_json::Value::Null);
            *r.body_mut() = Body::from(bytes.as_ref().clone());
            (r, 200, fields.detail.take())
        }
        Err(rejection) => {
            use axum::response::IntoResponse;
            // The reason's text may quote the body: only for an authenticated one.
            let detail = fields.authenticated.then(|| rejection.to_string());
            (
                rejection.into_response(),
                rejection.status().as_u16(),
                detail,
            )
        }
    };
    if app.config.log_requests {
        fields.print(
            started,
            status,
            outcome.as_ref().err().map(|r| r.code()),
            detail,
        );
    }
    response
}

fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The single value of a header; `None` when absent, repeated, or not visible ASCII.
fn single_header<'a>(headers: &'a HeaderMap, name: &str) -> Option<Option<&'a str>> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (None, _) => Some(None),
        (Some(v), None) => v.to_str().ok().map(Some),
        _ => None,
    }
}

/// Authenticate the raw body against the configured secrets.
fn authenticate(app: &App, headers: &HeaderMap, raw: &[u8]) -> Result<SignedWith, AuthError> {
    let ts = single_header(headers, TIMESTAMP_HEADER).flatten();
    let sig = single_header(headers, SIGNATURE_HEADER).flatten();
    let (Some(ts), Some(sig)) = (ts, sig) else {
        return Err(AuthError::MissingHeaders);
    };
    let config = &app.config;
    auth::verify(
        &config.secret,
        config.next_secret.as_deref(),
        ts,
        sig,
        raw,
        now_s(),
    )
}

/// One delivery: the answer's bytes, or why not.
async fn handle(
    app: &Arc<App>,
    headers: &HeaderMap,
    body: Body,
    started: Instant,
    fields: &mut LogFields,
) -> Result<dedup::Answer, Rejection> {
    let raw = limits::read_body(headers, body).await?;
    let signed = authenticate(app, headers, &raw);
    fields.authenticated = signed.is_ok();
    // Only the head of an unauthenticated body is read (the version-less handshake is
    // answered unsigned: a fresh registration's secret is not ours yet).
    let head: Head = match serde_json::from_slice(&raw) {
        Ok(h) => h,
        Err(e) => {
            return Err(match signed {
                Ok(_) => Invalid::Head(e).into(),
                Err(a) => a.into(),
            })
        }
    };
    let kind = DeliveryType::parse(&head.kind);
    if let Some(k) = kind {
        fields.kind = Some(k.as_str());
    }
    match (kind, head.version) {
        (Some(DeliveryType::Verification), None) => decide::legacy_verification(&raw),
        (Some(DeliveryType::Verification), Some(v)) if v == json!(2) => match signed {
            Ok(SignedWith::Next) if app.config.next_secret.is_some() => {
                decide::verification_v2(app, &raw)
            }
            Ok(_) => Err(AuthError::NotPending.into()),
            Err(e) => Err(e.into()),
        },
        (Some(DeliveryType::Verification), Some(_)) => match signed {
            Ok(_) => Err(Rejection::Unsupported("verification version".into())),
            Err(e) => Err(e.into()),
        },
        (Some(kind), _) => {
            signed?;
            decide::game(app, kind, &raw, started, fields).await
        }
        (None, _) => {
            signed?;
            Err(Rejection::Unsupported(format!("type {:?}", head.kind)))
        }
    }
}
