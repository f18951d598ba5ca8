//! What one request may cost before it is authenticated: its body size and read time, and
//! the longest nonce an unsigned handshake may have echoed.
//!
//! Measured against the build before these limits, on 127.0.0.1: 150 unsigned connections
//! with ~1 MiB bodies each raised the server's RSS from 7 MB to 165 MB, because bodies were
//! buffered to 1 MiB before the signature check. Now a declared length over the limit is
//! refused before a byte of the body is read, an undeclared one is read only up to the
//! limit, and a body that trickles is cut at [`BODY_READ_TIMEOUT`].

use super::reject::Rejection;
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap};
use http_body_util::{BodyExt, Limited};
use std::time::Duration;

/// Largest accepted body, bytes (larger: 413).
///
/// Sized from real trees. The server inlines `legalMoves` only up to 1,000 paths; a path
/// is at most three micro-moves, and a node costs at most 11 bytes (`"a7a8q":{}` plus a
/// comma), so an inline tree is at most 33,002 bytes however little its paths share
/// (`tests/serve.rs` checks the bound on real positions). The rest of a `yourTurn`
/// envelope (players, seeds, commit) is under 2 KB. 128 KiB leaves room for that worst
/// case nearly four times over, and would even hold Kiwipete's complete BNQ tree (82,628 bytes,
/// which the server never inlines).
pub const MAX_BODY_BYTES: usize = 128 * 1024;

/// The most the longest inline tree can take, bytes: 1,000 paths × 3 nodes × 11 bytes, plus
/// the root's braces.
pub const MAX_INLINE_TREE_BYTES: usize = 1000 * 3 * 11 + 2;

// The longest inline tree and 2 KB of envelope fit the limit.
const _: () = assert!(MAX_INLINE_TREE_BYTES + 2048 < MAX_BODY_BYTES);

/// Longest version-less nonce echoed, bytes (the server sends 32 hex digits).
pub const MAX_LEGACY_NONCE_BYTES: usize = 256;

/// A client must send its whole header within this time, or the connection is closed
/// (a client sending half its headers used to hold its connection forever).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A client must send its whole body within this time after its headers.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Deliveries waiting for a search slot by default (more: 503 `capacity_exceeded`). Each
/// holds at most one body and its parsed state, so 128 bound that to about 32 MiB; the
/// wait itself never outlasts the delivery's deadline.
pub const DEFAULT_MAX_QUEUE: usize = 128;

/// Connections served at once by default; later ones wait in the kernel's accept queue.
/// Each costs at most [`MAX_BODY_BYTES`] of buffered body, so 256 bound that to 32 MiB.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// Read the body: refused (413) at once when its declared length is over
/// [`MAX_BODY_BYTES`], read to at most that many bytes otherwise, within
/// [`BODY_READ_TIMEOUT`].
pub async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, Rejection> {
    let too_large = Rejection::TooLarge {
        limit: MAX_BODY_BYTES,
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large);
    }
    let limited = Limited::new(body, MAX_BODY_BYTES);
    match tokio::time::timeout(BODY_READ_TIMEOUT, limited.collect()).await {
        Err(_) => Err(Rejection::BodyRead("timed out")),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large),
        Ok(Err(_)) => Err(Rejection::BodyRead("the connection broke")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bodies_are_read_up_to_the_limit() {
        let ok = read_body(&HeaderMap::new(), Body::from(vec![b'x'; MAX_BODY_BYTES]))
            .await
            .unwrap();
        assert_eq!(ok.len(), MAX_BODY_BYTES);
        let big = read_body(
            &HeaderMap::new(),
            Body::from(vec![b'x'; MAX_BODY_BYTES + 1]),
        )
        .await;
        assert!(matches!(big, Err(Rejection::TooLarge { .. })));
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_LENGTH, "1048576".parse().unwrap());
        let declared = read_body(&h, Body::empty()).await;
        assert!(matches!(declared, Err(Rejection::TooLarge { .. })));
    }
}
