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

/// The most CPU one fast-path answer costs, ms: `benches/root_budget.rs` `fast_path`
/// measured `best`'s pre-ranked pick at 0.15–0.36 ms on rolled middlegames, 1.0 ms on
/// Kiwipete BNQ and 2.4 ms on the nine queens (its root over budget), one core.
pub const FAST_PATH_MS: u64 = 3;

/// Deliveries waiting for a search slot by default (more: 503 `capacity_exceeded`), from the
/// cores and the think budget.
///
/// A waiting turn never outlasts its deadline: without a slot in time it is answered by the
/// fast path, which every admitted turn starts computing on arrival. So the queue bounds
/// that work: the fast paths of a full queue, `max_queue × FAST_PATH_MS`, must fit in a
/// quarter of the cores' time over one think budget (the rest is the searches'):
///
/// ```text
/// max_queue = cores × max_think_ms / (4 × FAST_PATH_MS), at least cores, at most max_connections
/// ```
///
/// 2 cores at 1,500 ms: 250; at 5,000 ms: 833, so the 256 connections bound it (a waiting
/// delivery holds one connection and at most [`MAX_BODY_BYTES`] of body: 32 MiB in all).
pub fn default_max_queue(cores: usize, max_think_ms: u64, max_connections: usize) -> usize {
    let by_cpu = (cores as u64).saturating_mul(max_think_ms) / (4 * FAST_PATH_MS);
    usize::try_from(by_cpu)
        .unwrap_or(usize::MAX)
        .clamp(cores.min(max_connections), max_connections)
}

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

    #[test]
    fn the_default_queue_follows_the_cores_and_the_budget() {
        assert_eq!(default_max_queue(2, 1500, 256), 250);
        assert_eq!(default_max_queue(2, 5000, 256), 256);
        assert_eq!(default_max_queue(8, 20, 256), 13);
        // Never fewer places than search slots, never more than connections.
        assert_eq!(default_max_queue(4, 1, 256), 4);
        assert_eq!(default_max_queue(4, 1, 2), 2);
    }

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
