//! [`ResumeLog`]: a long run's finished records as JSON lines under one header line, so
//! that a killed run picks up where it stopped instead of starting over.
//!
//! The first line is the run's header (its settings, as the caller writes them); a log
//! whose header differs is refused with both headers named, so a resume never mixes the
//! records of two different runs. Each later line is one finished record, appended and
//! synced; a last line cut short by a kill is dropped (and truncated away) on the next
//! open. The log knows lines, not what they hold: the caller parses them.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Why a resume log could not be opened or appended to.
#[derive(Debug, thiserror::Error)]
pub enum ResumeLogError {
    /// The file could not be read, written or synced.
    #[error("{path}: {source}")]
    Io {
        /// The log.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The file is not text, or its header belongs to another run.
    #[error("{path}: {reason}")]
    Invalid {
        /// The log.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// An append-only JSON-lines log of finished records under a header line.
#[derive(Debug)]
pub struct ResumeLog {
    path: PathBuf,
    file: File,
}

impl ResumeLog {
    /// Open (or create) the log at `path` for the run whose header line is `header` (one
    /// line, no newline), returning the log and the records it holds, in file order.
    pub fn open(path: &Path, header: &str) -> Result<(ResumeLog, Vec<String>), ResumeLogError> {
        let io = |source| ResumeLogError::Io {
            path: path.to_owned(),
            source,
        };
        let invalid = |reason: String| ResumeLogError::Invalid {
            path: path.to_owned(),
            reason,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        // A kill mid-append leaves a last line without its newline: drop it, once the
        // complete lines are known good (a refused file is left as it was).
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let text = std::str::from_utf8(&bytes[..complete])
            .map_err(|e| invalid(format!("not UTF-8 text: {e}")))?;
        let mut lines = text.lines();
        let records: Vec<String> = match lines.next() {
            None => Vec::new(),
            Some(found) if found == header => lines
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned)
                .collect(),
            Some(found) => {
                return Err(invalid(format!(
                    "written by another run: its header is {found}, this run's is {header} \
                     (use another file, or delete this one to start over)"
                )))
            }
        };
        if complete < bytes.len() {
            file.set_len(complete as u64).map_err(io)?;
            file.seek(SeekFrom::End(0)).map_err(io)?;
        }
        let mut log = ResumeLog {
            path: path.to_owned(),
            file,
        };
        if complete == 0 {
            log.append(header)?;
        }
        Ok((log, records))
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one record (one line, no newline) and sync it: a kill leaves whole lines or
    /// one cut-off last line, which the next open drops.
    pub fn append(&mut self, line: &str) -> Result<(), ResumeLogError> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| ResumeLogError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_log_returns_its_records_and_drops_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (mut log, records) = ResumeLog::open(&path, "{\"run\":1}").unwrap();
        assert!(records.is_empty());
        log.append("{\"i\":0}").unwrap();
        log.append("{\"i\":1}").unwrap();
        drop(log);
        // A kill in the middle of the third append.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"i\":2").unwrap();
        drop(f);
        let (mut log, records) = ResumeLog::open(&path, "{\"run\":1}").unwrap();
        assert_eq!(records, ["{\"i\":0}", "{\"i\":1}"]);
        log.append("{\"i\":2}").unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "{\"run\":1}\n{\"i\":0}\n{\"i\":1}\n{\"i\":2}\n");
    }

    #[test]
    fn a_log_of_another_run_is_refused_and_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.jsonl");
        let (mut log, _) = ResumeLog::open(&path, "{\"run\":1}").unwrap();
        log.append("{\"i\":0}").unwrap();
        drop(log);
        let before = std::fs::read(&path).unwrap();
        let err = ResumeLog::open(&path, "{\"run\":2}")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("{\"run\":1}") && err.contains("{\"run\":2}"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
}
