//! The games of a file as JSON texts, in whichever layout the ecosystem writes them: JSON
//! lines (our `games.jsonl`, or one server history per line), or one JSON document (a history
//! as the server serves it, pretty-printed or not, or an array of games). What `replay` and
//! `analyze` read.

use std::io::BufRead;

/// One game's text and where it was: its line (JSON lines) or its 1-based index in a
/// document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// The line, or the index in a whole-file document.
    pub place: usize,
    /// The game's JSON (a line as read, or an element re-serialised).
    pub text: String,
}

/// Why a file's games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GameTextError {
    /// Reading failed.
    #[error("line {line}: {source}")]
    Read {
        /// The line being read.
        line: usize,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Neither JSON lines nor one JSON document.
    #[error("line {line}: not JSON lines nor one JSON document: {message}")]
    NotJson {
        /// The first line that is not JSON.
        line: usize,
        /// The JSON reader's words.
        message: String,
    },
}

/// The games of `reader`, streamed for JSON lines (a line that is not JSON is handed on as
/// it is, for the validator to name its fault), read whole for a document. A blank line is
/// skipped.
pub fn game_texts<R: BufRead>(reader: R) -> GameTexts<R> {
    GameTexts {
        reader,
        line: 0,
        seen: 0,
        queued: Vec::new().into_iter(),
        done: false,
    }
}

/// The iterator of [`game_texts`].
#[derive(Debug)]
pub struct GameTexts<R> {
    reader: R,
    line: usize,
    seen: usize,
    queued: std::vec::IntoIter<GameText>,
    done: bool,
}

impl<R: BufRead> Iterator for GameTexts<R> {
    type Item = Result<GameText, GameTextError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(t) = self.queued.next() {
            return Some(Ok(t));
        }
        let mut buf = String::new();
        while !self.done {
            buf.clear();
            self.line += 1;
            let line = self.line;
            match self.reader.read_line(&mut buf) {
                Ok(0) => self.done = true,
                Err(source) => {
                    self.done = true;
                    return Some(Err(GameTextError::Read { line, source }));
                }
                Ok(_) if buf.trim().is_empty() => {}
                Ok(_) => {
                    let parsed = serde_json::from_str::<serde_json::Value>(&buf);
                    if let Ok(serde_json::Value::Array(games)) = parsed {
                        // An array on one line (a compact document): its games, at its line.
                        let texts: Vec<GameText> = games
                            .iter()
                            .map(|g| GameText {
                                place: line,
                                text: g.to_string(),
                            })
                            .collect();
                        self.seen += texts.len();
                        self.queued = texts.into_iter();
                        match self.queued.next() {
                            Some(t) => return Some(Ok(t)),
                            None => continue,
                        }
                    }
                    if parsed.is_ok() || self.seen > 0 {
                        self.seen += 1;
                        return Some(Ok(GameText {
                            place: line,
                            text: buf.trim_end().to_owned(),
                        }));
                    }
                    // Not a line of JSON lines: the whole input is one document.
                    self.done = true;
                    if let Err(source) = self.reader.read_to_string(&mut buf) {
                        return Some(Err(GameTextError::Read { line, source }));
                    }
                    return match serde_json::from_str::<serde_json::Value>(&buf) {
                        Ok(serde_json::Value::Array(games)) => {
                            let texts: Vec<GameText> = games
                                .iter()
                                .enumerate()
                                .map(|(i, g)| GameText {
                                    place: i + 1,
                                    text: g.to_string(),
                                })
                                .collect();
                            self.seen += texts.len();
                            self.queued = texts.into_iter();
                            self.queued.next().map(Ok)
                        }
                        Ok(game) => {
                            self.seen += 1;
                            Some(Ok(GameText {
                                place: 1,
                                text: game.to_string(),
                            }))
                        }
                        Err(e) => Some(Err(GameTextError::NotJson {
                            line,
                            message: e.to_string(),
                        })),
                    };
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Result<GameText, String>> {
        game_texts(text.as_bytes())
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn json_lines_are_games_by_line() {
        let got = read("{\"a\":1}\n\n{\"b\":2}\nnot json\n");
        let places: Vec<usize> = got.iter().map(|g| g.as_ref().unwrap().place).collect();
        assert_eq!(places, [1, 3, 4]);
        assert_eq!(got[2].as_ref().unwrap().text, "not json");
    }

    #[test]
    fn a_document_is_one_game_or_an_array() {
        let one = read("{\n  \"gameId\": \"x\"\n}\n");
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].as_ref().unwrap().text, "{\"gameId\":\"x\"}");
        let many = read("[\n{\"a\":1},\n{\"b\":2}\n]");
        assert_eq!(many.len(), 2);
        assert_eq!(many[1].as_ref().unwrap().place, 2);
        let compact = read("[{\"a\":1},{\"b\":2}]\n{\"c\":3}\n");
        let places: Vec<usize> = compact.iter().map(|g| g.as_ref().unwrap().place).collect();
        assert_eq!(places, [1, 1, 2]);
        let bad = read("{\n oops");
        assert_eq!(bad.len(), 1);
        assert!(bad[0]
            .as_ref()
            .unwrap_err()
            .starts_with("line 1: not JSON lines"));
    }
}
