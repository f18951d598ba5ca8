//! DFEN lines, from a file or standard input: one record per non-blank, non-comment line.

use super::error::{cut, InputError};
use super::record::{Location, RawRecord};
use crate::board::Position;
use std::io::BufRead;

/// Longest accepted input line in bytes; a longer line is a bad record (and is not kept in
/// memory), so a file without newlines cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Parse one input line: `Ok(None)` for a blank line or a `#` comment, `Ok(Some(position))`
/// for a DFEN (surrounding whitespace, including a trailing `\r`, is ignored), and
/// [`InputError::Dfen`] naming the field otherwise. Never panics, whatever the input.
pub fn parse_input_line(line: &str) -> Result<Option<Position>, InputError> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    Ok(Some(Position::from_dfen(t)?))
}

/// A text input read line by line.
pub(super) struct DfenLines {
    reader: Box<dyn BufRead + Send>,
    /// The last line read (1-based; 0 before the first).
    line: u64,
    buf: Vec<u8>,
}

impl DfenLines {
    /// Lines from `reader`, from its first line.
    pub(super) fn new(reader: Box<dyn BufRead + Send>) -> DfenLines {
        DfenLines {
            reader,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// The next record (skipping blank and comment lines), or `None` at the end; the bytes
    /// consumed are added to `bytes_read`. With `keep` false the text is not decoded (skipping
    /// a finished chunk).
    pub(super) fn next_record(
        &mut self,
        bytes_read: &mut u64,
        keep: bool,
    ) -> std::io::Result<Option<RawRecord>> {
        let DfenLines { reader, line, buf } = self;
        loop {
            buf.clear();
            let (consumed, too_long) = read_line_bounded(reader, buf, MAX_LINE_BYTES)?;
            if consumed == 0 {
                return Ok(None);
            }
            *bytes_read += consumed as u64;
            *line += 1;
            let location = Location::Line(*line);
            if too_long {
                let text = cut(&String::from_utf8_lossy(buf));
                return Ok(Some((
                    location,
                    Err(("line too long (over 64 KiB), not a DFEN", text)),
                    None,
                )));
            }
            let t = buf.trim_ascii();
            if t.is_empty() || t[0] == b'#' {
                continue;
            }
            if !keep {
                return Ok(Some((location, Ok(String::new()), None)));
            }
            return Ok(Some(match std::str::from_utf8(t) {
                Ok(s) => (location, Ok(s.to_owned()), None),
                Err(_) => (
                    location,
                    Err(("not UTF-8 text", cut(&String::from_utf8_lossy(t)))),
                    None,
                ),
            }));
        }
    }
}

/// Read one line (through `\n`) into `buf`, keeping at most `limit` bytes of it; returns
/// the bytes consumed (0 at the end) and whether the line was longer than `limit`.
fn read_line_bounded(
    reader: &mut Box<dyn BufRead + Send>,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut too_long = false;
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok((consumed, too_long));
        }
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let room = limit.saturating_sub(buf.len());
        if take > room {
            too_long = too_long || avail[..take].iter().filter(|&&b| b != b'\n').count() > room;
        }
        buf.extend_from_slice(&avail[..take.min(room)]);
        reader.consume(take);
        consumed += take;
        if done {
            return Ok((consumed, too_long));
        }
    }
}
