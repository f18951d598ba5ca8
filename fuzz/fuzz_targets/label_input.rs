//! Arbitrary bytes as a `dicechess label` (and `eval`) input file: a Parquet file with a
//! `dfen`/`fen` column or a v0 training shard, or DFEN lines, chosen by the first byte.
//!
//! The seeds (`corpus/label_input/seed-*`) are real small files: a v0 shard written by
//! `dicechess selfplay`, a Parquet `dfen` column and DFEN lines, so that the mutations reach
//! past the Parquet footer into the row groups and the column checks.
//!
//! Checked: opening and reading never panic; the reader makes progress (at most one chunk per
//! record plus one); every position it accepts writes a DFEN that parses back to itself; a
//! refusal names its input.
#![no_main]

use dicechess::board::Position;
use dicechess::files::PositionReader;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

/// Removes the scratch file when the input is done, however it ends.
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fuzz_target!(|data: &[u8]| {
    // The reader turns the Parquet library's panics on corrupt pages into errors
    // (catch_unwind); libFuzzer's panic hook would abort on those caught panics, so it is
    // replaced by a silent one. A panic that escapes the reader still fails the input: the
    // harness aborts when the target unwinds.
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    // One scratch file per process, rewritten for each input and removed after it (a
    // campaign must not leave a file behind per process).
    let ext = if mode & 1 == 0 { "parquet" } else { "dfen" };
    let path = std::env::temp_dir().join(format!(
        "dicechess-fuzz-label-input-{}.{ext}",
        std::process::id()
    ));
    {
        let mut f = std::fs::File::create(&path).expect("the scratch file");
        f.write_all(body).expect("the scratch file");
    }
    let _scratch = Scratch(path.clone());
    let chunk = 1 + (mode as usize >> 1) % 7;
    let name = path.to_string_lossy().into_owned();
    let opened = if ext == "parquet" {
        PositionReader::open_parquet(&path, chunk)
    } else {
        PositionReader::open(&name, chunk)
    };
    let mut reader = match opened {
        Ok(r) => r,
        Err(e) => {
            let shown = e.to_string();
            assert!(!shown.is_empty(), "an empty refusal");
            return;
        }
    };
    let mut chunks = 0usize;
    loop {
        match reader.next_chunk() {
            Ok(Some(c)) => {
                chunks += 1;
                assert!(chunks <= body.len() + 1, "the reader must make progress");
                assert_eq!(
                    c.positions.len() + c.bad.len(),
                    c.records as usize,
                    "every record is a position or a named bad record"
                );
                for p in &c.positions {
                    assert_eq!(Position::from_dfen(&p.to_dfen()).ok(), Some(*p));
                }
            }
            Ok(None) => break,
            Err(e) => {
                assert!(!e.to_string().is_empty(), "an empty refusal");
                break;
            }
        }
    }
});
