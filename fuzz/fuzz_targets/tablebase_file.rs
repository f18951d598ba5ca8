//! An endgame table file (`dicechess tablebase`, `--tablebases DIR`), an untrusted file: any
//! bytes are read without a panic, either as a table or as a refusal naming the field. An
//! accepted table writes back to exactly the bytes read, and every entry it answers for is a
//! position with a value in [0, 1]. Each input is tried twice: as given, and re-sealed with a
//! fresh checksum, so that mutations reach the checks behind the checksum.
#![no_main]

use dicechess::tablebase::Table;
use libfuzzer_sys::fuzz_target;
use std::hash::Hasher;

fn check(data: &[u8]) {
    match Table::from_bytes(data) {
        Ok(table) => {
            assert_eq!(table.to_bytes(), data);
            let m = table.material();
            let step = (m.entries() / 997).max(1);
            for i in (0..m.entries()).step_by(step) {
                if let Some(v) = table.value_at(i) {
                    assert!((0.0..=1.0).contains(&v));
                    assert!(m.position(i).is_some());
                }
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if data.len() >= 32 {
        let mut sealed = data.to_vec();
        let mut h = twox_hash::XxHash64::with_seed(0);
        h.write(&sealed[..24]);
        h.write(&sealed[32..]);
        sealed[24..32].copy_from_slice(&h.finish().to_le_bytes());
        check(&sealed);
    }
});
