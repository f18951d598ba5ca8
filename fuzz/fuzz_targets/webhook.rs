//! Arbitrary request bodies and headers against the webhook handler (the real router,
//! called in-process): it never crashes, only answers with a documented status
//! (docs/webhook.md) and never lets an answer be cached. Inputs
//! are sent unsigned, correctly signed (so the body reaches the JSON and game logic), or
//! with arbitrary header bytes.
#![no_main]

use axum::body::Body;
use axum::http::Request;
use dicechess::serve::{router, sign, ServeConfig};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};
use tower::ServiceExt;

const SECRET: &[u8] = b"fuzz-secret";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

fn app() -> &'static axum::Router {
    static APP: OnceLock<axum::Router> = OnceLock::new();
    APP.get_or_init(|| {
        let mut config = ServeConfig::new("greedy", SECRET);
        config.next_secret = Some(b"fuzz-next".to_vec());
        config.log_requests = false;
        config.max_think_ms = 50;
        config.threads = Some(1);
        router(config).expect("router")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
        .to_string();
    let mut req = Request::post("/api/webhook");
    let body = match mode % 3 {
        0 => rest.to_vec(),
        1 => {
            let sig = sign(SECRET, &now, rest);
            req = req
                .header("X-DiceChess-Timestamp", now.as_str())
                .header("X-DiceChess-Signature", sig.as_str());
            rest.to_vec()
        }
        _ => {
            // The first bytes become header values (invalid header bytes are skipped).
            let split = rest.len().min(rest.first().map_or(0, |&b| b as usize % 48));
            let (head, body) = rest.split_at(split);
            let half = head.len() / 2;
            if let Ok(v) = axum::http::HeaderValue::from_bytes(&head[..half]) {
                req = req.header("X-DiceChess-Timestamp", v);
            }
            if let Ok(v) = axum::http::HeaderValue::from_bytes(&head[half..]) {
                req = req.header("X-DiceChess-Signature", v);
            }
            body.to_vec()
        }
    };
    let Ok(request) = req.body(Body::from(body)) else {
        return;
    };
    let response = runtime()
        .block_on(app().clone().oneshot(request))
        .expect("the router is infallible");
    let status = response.status().as_u16();
    assert!(
        matches!(status, 200 | 400 | 401 | 409 | 413 | 500 | 503 | 504),
        "undocumented status {status}"
    );
    // Every answer is JSON and never cached.
    assert_eq!(
        response
            .headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
});
