//! SHA-256 digests as 64 lower-case hex digits: of model files, of run inputs (resuming) and
//! of shard files (manifests). One helper, so every digest the engine writes or checks is
//! spelled the same way.

use sha2::{Digest, Sha256};
use std::io::Read;

/// SHA-256 of `bytes` as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes).as_slice())
}

/// Bytes read and the lower-case hex SHA-256 of everything `r` yields, read as a stream in
/// 1 MiB blocks (bounded memory), each block also passed to `sink`.
pub fn sha256_stream(
    r: &mut impl Read,
    mut sink: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<(u64, String)> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        h.update(&buf[..n]);
        sink(&buf[..n])?;
        size += n as u64;
    }
    Ok((size, hex(h.finalize().as_slice())))
}

/// Lower-case hex of a digest's bytes.
fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_and_bytes_agree_with_the_known_digest() {
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assert_eq!(sha256_hex(b""), empty);
        let mut seen = Vec::new();
        let (size, hex) = sha256_stream(&mut &b"abc"[..], |b| {
            seen.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        assert_eq!(size, 3);
        assert_eq!(seen, b"abc");
        assert_eq!(
            hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex, sha256_hex(b"abc"));
    }
}
