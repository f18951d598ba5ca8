//! Webhook signatures: HMAC-SHA256 over `timestamp + "." + raw body`, checked in constant
//! time under the active or the pending secret.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

type HmacSha256 = Hmac<Sha256>;

/// Largest accepted difference between a delivery's timestamp and our clock, seconds.
pub const MAX_SKEW_S: u64 = 300;

/// The prefix line of the v2 activation proof.
pub const PROOF_PREFIX: &[u8] = b"dicechess-webhook-activate-v2\n";

/// Which secret a delivery was signed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignedWith {
    /// The active secret.
    Active,
    /// The pending next secret (key rotation).
    Next,
}

/// Raw HMAC-SHA256 of the concatenated `parts` under `key`.
pub fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC accepts keys of any length");
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// Lower-case hex HMAC-SHA256 of `timestamp + "." + body` under `key` (what a sender puts
/// in `X-DiceChess-Signature`).
pub fn sign(key: &[u8], timestamp: &str, body: &[u8]) -> String {
    hex::encode(hmac_sha256(key, &[timestamp.as_bytes(), b".", body]))
}

/// The v2 activation proof: hex HMAC-SHA256 under the pending secret over
/// `dicechess-webhook-activate-v2\n` followed by the raw body.
pub fn proof(next_secret: &[u8], body: &[u8]) -> String {
    hex::encode(hmac_sha256(next_secret, &[PROOF_PREFIX, body]))
}

/// Check a delivery's signature: the timestamp (Unix seconds) within [`MAX_SKEW_S`] of
/// `now_s`, the hex signature equal (constant time) to the HMAC under `active` or `next`.
pub fn verify(
    active: &[u8],
    next: Option<&[u8]>,
    timestamp: &str,
    signature: &str,
    body: &[u8],
    now_s: u64,
) -> Result<SignedWith, &'static str> {
    let ts: u64 = timestamp
        .trim()
        .parse()
        .map_err(|_| "bad X-DiceChess-Timestamp")?;
    if ts.abs_diff(now_s) > MAX_SKEW_S {
        return Err("stale or future timestamp");
    }
    let given = hex::decode(signature.trim()).map_err(|_| "bad signature")?;
    let check = |key: &[u8]| -> bool {
        let want = hmac_sha256(key, &[timestamp.as_bytes(), b".", body]);
        bool::from(want.as_slice().ct_eq(given.as_slice()))
    };
    // Check both keys whatever the first gives, so timing says nothing about which matched.
    let active_ok = check(active);
    let next_ok = next.map(check).unwrap_or(false);
    if active_ok {
        Ok(SignedWith::Active)
    } else if next_ok {
        Ok(SignedWith::Next)
    } else {
        Err("bad signature")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_round_trip_under_either_key() {
        let body = br#"{"type":"verification","nonce":"n"}"#;
        let sig = sign(b"a", "1000", body);
        assert_eq!(
            verify(b"a", Some(b"b"), "1000", &sig, body, 1000),
            Ok(SignedWith::Active)
        );
        let sig = sign(b"b", "1000", body);
        assert_eq!(
            verify(b"a", Some(b"b"), "1000", &sig, body, 1100),
            Ok(SignedWith::Next)
        );
        assert!(verify(b"a", None, "1000", &sig, body, 1000).is_err());
        assert!(verify(b"b", None, "1000", &sig, body, 1301).is_err());
        assert!(verify(b"b", None, "1000", &sig, b"x", 1000).is_err());
    }
}
