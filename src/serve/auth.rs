//! Webhook signatures (server: `WebhookSecurity`): `X-DiceChess-Signature` is the lower-case
//! hex HMAC-SHA256 of `timestamp + "." + raw body` under the shared secret (the secret's
//! UTF-8 bytes, even when it looks like hex), `X-DiceChess-Timestamp` the Unix seconds.
//! Checked in constant time under the active and the pending secret; the v2 activation
//! proof and the v2 nonce rule live here too.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

type HmacSha256 = Hmac<Sha256>;

/// The timestamp header (Unix seconds).
pub const TIMESTAMP_HEADER: &str = "x-dicechess-timestamp";
/// The signature header (hex HMAC-SHA256 over `timestamp + "." + body`).
pub const SIGNATURE_HEADER: &str = "x-dicechess-signature";

/// Largest accepted difference between a delivery's timestamp and our clock, seconds
/// (inclusive: the server documents ±5 minutes).
pub const MAX_SKEW_S: u64 = 300;

/// The prefix line of the v2 activation proof.
pub const PROOF_PREFIX: &[u8] = b"dicechess-webhook-activate-v2\n";

/// The fewest random bytes a v2 nonce must carry (the server sends exactly 16).
pub const MIN_NONCE_BYTES: usize = 16;

/// Which secret a delivery was signed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignedWith {
    /// The active secret.
    Active,
    /// The pending next secret (key rotation, staged activation).
    Next,
}

/// Why a signature was refused (logged; the client only sees `unauthorized`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// One of the two headers is missing (or repeated).
    #[error("X-DiceChess-Timestamp and X-DiceChess-Signature are both needed, once each")]
    MissingHeaders,
    /// The timestamp is not a canonical non-negative decimal integer.
    #[error("the timestamp is not canonical decimal Unix seconds")]
    BadTimestamp,
    /// The timestamp is more than [`MAX_SKEW_S`] away from our clock.
    #[error("the timestamp is more than {MAX_SKEW_S} s from our clock")]
    Stale,
    /// The signature is not 64 lower-case hex digits.
    #[error("the signature is not 64 lower-case hex digits")]
    BadSignatureFormat,
    /// No configured secret produces the signature.
    #[error("the signature matches no configured secret")]
    Mismatch,
    /// A v2 verification was not signed with the pending secret (or none is configured).
    #[error("a v2 verification must be signed with the pending secret")]
    NotPending,
}

/// Raw HMAC-SHA256 of the concatenated `parts` under `key`.
pub fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC takes keys of any length (long ones are hashed), so `new_from_slice` cannot
    // fail; the fallback keeps this total without an `expect`.
    let Ok(mut mac) = HmacSha256::new_from_slice(key) else {
        return [0; 32];
    };
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
/// `dicechess-webhook-activate-v2\n` followed by the raw body bytes.
pub fn proof(next_secret: &[u8], body: &[u8]) -> String {
    hex::encode(hmac_sha256(next_secret, &[PROOF_PREFIX, body]))
}

/// Whether `nonce` is canonical unpadded base64url of at least [`MIN_NONCE_BYTES`] bytes
/// (decoding and re-encoding gives it back: no padding, no stray trailing bits).
pub fn nonce_is_canonical(nonce: &str) -> bool {
    match URL_SAFE_NO_PAD.decode(nonce) {
        Ok(bytes) => bytes.len() >= MIN_NONCE_BYTES && URL_SAFE_NO_PAD.encode(&bytes) == nonce,
        Err(_) => false,
    }
}

fn parse_timestamp(timestamp: &str) -> Result<u64, AuthError> {
    let canonical = !timestamp.is_empty()
        && timestamp.bytes().all(|b| b.is_ascii_digit())
        && (timestamp == "0" || !timestamp.starts_with('0'));
    if !canonical {
        return Err(AuthError::BadTimestamp);
    }
    timestamp.parse().map_err(|_| AuthError::BadTimestamp)
}

fn parse_signature(signature: &str) -> Result<[u8; 32], AuthError> {
    let lower_hex = signature.len() == 64
        && signature
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if !lower_hex {
        return Err(AuthError::BadSignatureFormat);
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(signature, &mut out).map_err(|_| AuthError::BadSignatureFormat)?;
    Ok(out)
}

/// Check a delivery's signature: the timestamp (canonical Unix seconds) within
/// [`MAX_SKEW_S`] of `now_s`, the signature (64 lower-case hex digits) equal, in constant
/// time, to the HMAC under `active` or `next`. Both keys are always tried, so the timing
/// says nothing about which matched.
pub fn verify(
    active: &[u8],
    next: Option<&[u8]>,
    timestamp: &str,
    signature: &str,
    body: &[u8],
    now_s: u64,
) -> Result<SignedWith, AuthError> {
    let ts = parse_timestamp(timestamp)?;
    if ts.abs_diff(now_s) > MAX_SKEW_S {
        return Err(AuthError::Stale);
    }
    let given = parse_signature(signature)?;
    let check = |key: &[u8]| -> bool {
        let want = hmac_sha256(key, &[timestamp.as_bytes(), b".", body]);
        bool::from(want.as_slice().ct_eq(given.as_slice()))
    };
    let active_ok = check(active);
    let next_ok = next.map(check).unwrap_or(false);
    if active_ok {
        Ok(SignedWith::Active)
    } else if next_ok {
        Ok(SignedWith::Next)
    } else {
        Err(AuthError::Mismatch)
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
            verify(b"a", Some(b"b"), "1000", &sig, body, 1300),
            Ok(SignedWith::Next)
        );
        assert_eq!(
            verify(b"a", None, "1000", &sig, body, 1000),
            Err(AuthError::Mismatch)
        );
        assert_eq!(
            verify(b"b", None, "1000", &sig, body, 1301),
            Err(AuthError::Stale)
        );
        assert_eq!(
            verify(b"b", None, "1000", &sig, b"x", 1000),
            Err(AuthError::Mismatch)
        );
    }

    #[test]
    fn header_forms_are_strict() {
        let body = b"{}";
        let sig = sign(b"k", "1000", body);
        for ts in ["", "+1000", "01000", "1000.0", "1e3", " 1000", "-1"] {
            assert_eq!(
                verify(b"k", None, ts, &sig, body, 1000),
                Err(AuthError::BadTimestamp),
                "{ts:?}"
            );
        }
        let upper = sig.to_ascii_uppercase();
        for s in [upper.as_str(), &sig[..63], "zz"] {
            assert_eq!(
                verify(b"k", None, "1000", s, body, 1000),
                Err(AuthError::BadSignatureFormat)
            );
        }
    }

    #[test]
    fn nonces_must_be_canonical_base64url_of_16_bytes() {
        assert!(nonce_is_canonical("AQIDBAUGBwgJCgsMDQ4PEA"));
        assert!(!nonce_is_canonical("AQIDBAUGBwgJCgsMDQ4PEA=="));
        // 16 bytes whose last character carries stray bits.
        assert!(!nonce_is_canonical("AQIDBAUGBwgJCgsMDQ4PEB"));
        assert!(!nonce_is_canonical("AQIDBAUGBwgJCgsMDQ4P"));
        assert!(!nonce_is_canonical("AQIDBAUGBwgJCgsMDQ4PE+"));
        assert!(!nonce_is_canonical(""));
    }
}
