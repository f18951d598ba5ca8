//! Newline-delimited JSON off a long-lived response: one line at a time, each capped, so a
//! server that never sends a newline cannot grow our memory.

use std::io::{BufRead, BufReader, Read};

/// The longest line read: a `Snapshot` carries the whole history and possibly an inline
/// move tree (up to 1,000 paths), well under a MiB; 8 MiB leaves room.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// The lines of a stream.
pub struct NdjsonLines<R: Read> {
    route: String,
    reader: BufReader<R>,
    buf: Vec<u8>,
}

impl<R: Read> NdjsonLines<R> {
    /// Lines of `reader`, the stream of `route` (named in errors).
    pub fn new(route: String, reader: R) -> NdjsonLines<R> {
        NdjsonLines {
            route,
            reader: BufReader::new(reader),
            buf: Vec::new(),
        }
    }

    /// The stream's route.
    pub fn route(&self) -> &str {
        &self.route
    }

    /// The next line without its `\n` (`\r\n` too), `Ok(None)` at the end of the stream.
    /// A line over [`MAX_LINE_BYTES`] or not UTF-8 is an `InvalidData` error; a last line
    /// cut off without its newline is returned as it is.
    pub fn next_line(&mut self) -> std::io::Result<Option<String>> {
        self.buf.clear();
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                break;
            }
            let (take, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if self.buf.len() + take > MAX_LINE_BYTES + 1 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: a line over {MAX_LINE_BYTES} bytes", self.route),
                ));
            }
            self.buf.extend_from_slice(&available[..take]);
            self.reader.consume(take);
            if done {
                break;
            }
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        String::from_utf8(std::mem::take(&mut self.buf))
            .map(Some)
            .map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: a line that is not UTF-8", self.route),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<std::io::Result<Option<String>>> {
        let mut l = NdjsonLines::new("/s".into(), bytes);
        let mut out = Vec::new();
        loop {
            let r = l.next_line();
            let stop = !matches!(r, Ok(Some(_)));
            out.push(r);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_keeps_blank_ones() {
        let got: Vec<_> = lines(b"{\"a\":1}\n\n{\"b\":2}\r\ncut")
            .into_iter()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(
            got,
            vec![
                Some("{\"a\":1}".to_owned()),
                Some(String::new()),
                Some("{\"b\":2}".to_owned()),
                Some("cut".to_owned()),
                None
            ]
        );
    }

    #[test]
    fn refuses_endless_and_binary_lines() {
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        let e = lines(&long).pop().unwrap().unwrap_err();
        assert!(e.to_string().contains("over"), "{e}");
        let e = lines(b"\xff\xfe\n").pop().unwrap().unwrap_err();
        assert!(e.to_string().contains("UTF-8"), "{e}");
    }
}
