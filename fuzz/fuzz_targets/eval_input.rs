//! Arbitrary bytes as `dicechess eval` input: single lines never panic, and the streaming
//! reader accounts for every record (good rows + bad lines) whatever the chunking; the same
//! bytes as the analytics training export (plain CSV, and gzip-wrapped) and as a golden probe
//! list (`dicechess golden --probes`).
#![no_main]

use dicechess::files::{parse_input_line, PositionReader};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

/// `data` as one gzip member.
fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = gz.write_all(data);
    gz.finish().unwrap_or_default()
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines().take(64) {
            if let Ok(Some(p)) = parse_input_line(line) {
                // An accepted line writes a DFEN that parses back to the same row.
                assert_eq!(
                    dicechess::board::Position::from_dfen(&p.to_dfen()).ok(),
                    Some(p)
                );
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(probes) = dicechess::eval::features::parse_probes_tsv(text) {
            assert!(!probes.is_empty());
            for p in &probes {
                let _ = dicechess::eval::features::probe_position(p);
            }
        }
    }
    let chunk = 1 + data.first().map_or(0, |b| (*b % 7) as usize);
    for bytes in [data.to_vec(), gzip(data)] {
        if let Ok(mut reader) = PositionReader::from_analytics_csv(
            Box::new(Cursor::new(bytes)),
            "fuzz".into(),
            None,
            chunk,
        ) {
            let mut seen = 0u64;
            loop {
                match reader.next_chunk() {
                    Ok(Some(c)) => {
                        // Every good row carries its v0 base columns.
                        let base = c.base.as_ref().map_or(0, |b| b.game_id.len());
                        assert_eq!(base, c.positions.len());
                        seen += c.records;
                        assert!(
                            seen <= data.len() as u64 + 1,
                            "the reader must make progress"
                        );
                    }
                    Ok(None) | Err(_) => break,
                }
            }
        }
    }
    let mut reader = PositionReader::from_lines(
        Box::new(Cursor::new(data.to_vec())),
        "fuzz".into(),
        None,
        chunk,
    );
    let mut chunks = 0;
    while let Ok(Some(_)) = reader.next_chunk() {
        chunks += 1;
        assert!(chunks <= data.len() + 1, "the reader must make progress");
    }
});
