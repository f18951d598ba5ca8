//! Arbitrary bytes as `dicechess eval` input: single lines never panic, and the streaming
//! reader accounts for every record (good rows + bad lines) whatever the chunking.
#![no_main]

use dicechess::files::{parse_input_line, PositionReader};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines().take(64) {
            if let Ok(Some(p)) = parse_input_line(line) {
                // An accepted line writes a DFEN that parses back to the same row.
                assert_eq!(dicechess::board::Position::from_dfen(&p.to_dfen()).ok(), Some(p));
            }
        }
    }
    let chunk = 1 + data.first().map_or(0, |b| (*b % 7) as usize);
    let mut reader = PositionReader::from_lines(Box::new(Cursor::new(data.to_vec())), "fuzz".into(), None, chunk);
    let mut chunks = 0;
    while let Ok(Some(_)) = reader.next_chunk() {
        chunks += 1;
        assert!(chunks <= data.len() + 1, "the reader must make progress");
    }
});
