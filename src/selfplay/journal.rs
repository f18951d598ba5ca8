//! [`ArenaJournal`]: an arena's finished pairs in a JSON-lines file, so that `dicechess
//! arena --resume FILE` continues an interrupted match instead of replaying it.
//!
//! One line per finished pair: `{"match": KEY, "host": HOST, "pair": PairOutcome}`. The
//! host ([`super::host::host_description`]) says which machine played the pair (optional
//! on reading: journals written before it have none); it is not part of the key, so a
//! match resumes on another machine and each line keeps its own. The key names the
//! match's settings (the bots with their options, the start position, the seed, the game
//! limits and the time control), so one file serves a gauntlet or several time controls,
//! and a line of another match is never taken for this one. Lines are appended and synced
//! after each batch; a last line cut short by a kill is dropped (and truncated away) on the
//! next open, a bad line elsewhere is an error that names it.

use super::arena::{termination_of, ArenaError, GameOutcome, PairJournal, PairOutcome};
use super::think::ThinkTime;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The pairs of one match recorded in a journal file, and the file to append to.
pub struct ArenaJournal {
    path: PathBuf,
    key: String,
    host: String,
    file: File,
    pairs: BTreeMap<u64, PairOutcome>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GameLine {
    result: i8,
    termination: String,
    turns: u32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ThinkLine {
    turns: u64,
    total_us: u64,
    max_us: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PairLine {
    index: u64,
    seed: u64,
    first_white: GameLine,
    first_black: GameLine,
    think_first: ThinkLine,
    think_second: ThinkLine,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(rename = "match")]
    key: String,
    #[serde(default)]
    #[allow(dead_code)] // read to be checked as a string; resume does not need it
    host: Option<String>,
    pair: PairLine,
}

#[derive(Serialize)]
struct LineOut<'a> {
    #[serde(rename = "match")]
    key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<&'a str>,
    pair: &'a PairOutcome,
}

fn game(g: GameLine) -> Result<GameOutcome, String> {
    if !(-1..=1).contains(&g.result) {
        return Err(format!("result {} is not -1, 0 or 1", g.result));
    }
    let termination = termination_of(&g.termination)
        .ok_or_else(|| format!("unknown termination {:?}", g.termination))?;
    Ok(GameOutcome {
        result: g.result,
        termination,
        turns: g.turns,
    })
}

fn think(t: ThinkLine) -> ThinkTime {
    ThinkTime {
        turns: t.turns,
        total_us: t.total_us,
        max_us: t.max_us,
    }
}

fn pair(p: PairLine) -> Result<PairOutcome, String> {
    Ok(PairOutcome {
        index: p.index,
        seed: p.seed,
        first_white: game(p.first_white)?,
        first_black: game(p.first_black)?,
        think_first: think(p.think_first),
        think_second: think(p.think_second),
    })
}

/// The pairs a journal's complete lines record for the match `key` (lines of other matches
/// skipped), or why the text is not a journal: not UTF-8, or a line (named by its 1-based
/// number) that is not a pair record.
pub fn recorded_pairs(bytes: &[u8], key: &str) -> Result<Vec<PairOutcome>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text: {e}"))?;
    let mut pairs = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1))?;
        if line.key == key {
            pairs.push(pair(line.pair).map_err(|e| format!("line {}: {e}", i + 1))?);
        }
    }
    Ok(pairs)
}

/// One journal line of the match `key` played on `host` (none: not recorded), as
/// [`ArenaJournal`] appends it.
pub fn journal_line(
    key: &str,
    host: Option<&str>,
    pair: &PairOutcome,
) -> Result<String, serde_json::Error> {
    serde_json::to_string(&LineOut { key, host, pair })
}

impl ArenaJournal {
    /// Open (or create) the journal at `path` for the match named `key`, reading the pairs
    /// it has recorded for that match; the pairs it appends name this machine.
    pub fn open(path: &Path, key: &str) -> Result<ArenaJournal, ArenaError> {
        let err = |reason: String| ArenaError::Journal {
            path: path.to_owned(),
            reason,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| err(e.to_string()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| err(e.to_string()))?;
        // A kill mid-append leaves a last line without its newline: drop it (after the
        // complete lines are known good, so a refused file is left as it was).
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let pairs = recorded_pairs(&bytes[..complete], key)
            .map_err(err)?
            .into_iter()
            .map(|p| (p.index, p))
            .collect();
        if complete < bytes.len() {
            file.set_len(complete as u64)
                .map_err(|e| err(e.to_string()))?;
            file.seek(SeekFrom::End(0))
                .map_err(|e| err(e.to_string()))?;
        }
        Ok(ArenaJournal {
            path: path.to_owned(),
            key: key.to_owned(),
            host: super::host::host_description(),
            file,
            pairs,
        })
    }

    /// Pairs of this match recorded so far.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no pair of this match is recorded.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

impl PairJournal for ArenaJournal {
    fn recorded(&self, index: u64) -> Option<PairOutcome> {
        self.pairs.get(&index).copied()
    }

    fn record(&mut self, pairs: &[PairOutcome]) -> Result<(), ArenaError> {
        let mut text = String::new();
        for p in pairs {
            let line =
                journal_line(&self.key, Some(&self.host), p).map_err(|e| ArenaError::Journal {
                    path: self.path.clone(),
                    reason: e.to_string(),
                })?;
            text.push_str(&line);
            text.push('\n');
        }
        // One write per batch, then a sync: a kill leaves whole lines or one cut-off last
        // line, which the next open drops.
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| ArenaError::Journal {
                path: self.path.clone(),
                reason: e.to_string(),
            })?;
        for p in pairs {
            self.pairs.insert(p.index, *p);
        }
        Ok(())
    }
}
