//! The arena's resume journal (`arena --resume FILE`), an untrusted file: any bytes are read
//! without a panic, either as pairs or as an error naming what is wrong; every pair read
//! back is written as the same line again and reads back equal.
#![no_main]

use dicechess::selfplay::{journal_line, recorded_pairs};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The key is the first line; the journal the rest (so the corpus can reach both a match
    // and a skipped line of another).
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let key = String::from_utf8_lossy(&data[..split]).into_owned();
    let body = data.get(split + 1..).unwrap_or(&[]);
    match recorded_pairs(body, &key) {
        Ok(pairs) => {
            for p in pairs {
                let line = journal_line(&key, Some("fuzz host"), &p).expect("a pair serialises");
                let again = recorded_pairs(line.as_bytes(), &key).expect("its own line reads");
                assert_eq!(again, vec![p]);
            }
        }
        Err(reason) => assert!(!reason.is_empty()),
    }
});
