//! The opening-book decorator (docs/search.md §9).

use super::{first_shortest_win, Bot, BotError, BotInfo, Choice, DrawDoublePolicy, Turn};
use crate::board::{dice_key, normalized_fen, Position};
use crate::eval::Material;
use crate::rules::legal_paths;
use std::collections::HashMap;
use std::path::Path;

/// Why a book file was refused (the whole file: a book is all or nothing).
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("opening book {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A line is not exactly two non-empty tab-separated fields.
    #[error("opening book line {line}: expected `key<TAB>moves`, found {text:?}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// The line (cut to 80 characters).
        text: String,
    },
}

/// Book entries: key (normalised FEN + space + alphabetical dice key) → sorted UCI moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningBook {
    entries: HashMap<String, Vec<String>>,
}

impl OpeningBook {
    /// Parse TSV text: one `key<TAB>moves` per line, blank lines skipped.
    pub fn parse(text: &str) -> Result<OpeningBook, BookError> {
        let mut entries = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.len() != 2 || fields.iter().any(|f| f.trim().is_empty()) {
                return Err(BookError::Line {
                    line: i + 1,
                    text: line.chars().take(80).collect(),
                });
            }
            let mut moves: Vec<String> =
                fields[1].split(',').map(|m| m.trim().to_owned()).collect();
            moves.sort();
            entries.insert(fields[0].trim().to_owned(), moves);
        }
        Ok(OpeningBook { entries })
    }

    /// Read a TSV file.
    pub fn load(path: &Path) -> Result<OpeningBook, BookError> {
        let text = std::fs::read_to_string(path).map_err(|source| BookError::Io {
            path: path.display().to_string(),
            source,
        })?;
        OpeningBook::parse(&text)
    }

    /// The book key of a rolled position; `None` without dice.
    pub fn key(pos: &Position) -> Option<String> {
        let dice = dice_key(pos);
        (!dice.is_empty()).then(|| format!("{} {dice}", normalized_fen(pos)))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sorted moves booked for `pos`, if any.
    pub fn lookup(&self, pos: &Position) -> Option<&[String]> {
        self.entries.get(&OpeningBook::key(pos)?).map(Vec::as_slice)
    }
}

/// A bot that plays a booked turn when one is realisable: king capture > book > the wrapped
/// bot. Draw and cube decisions are the wrapped bot's.
pub struct OpeningBookBot {
    book: OpeningBook,
    inner: Box<dyn Bot>,
}

impl OpeningBookBot {
    /// Wrap `inner` with `book`.
    pub fn new(book: OpeningBook, inner: Box<dyn Bot>) -> OpeningBookBot {
        OpeningBookBot { book, inner }
    }
}

impl OpeningBookBot {
    /// A king capture, else the booked turn when one is realisable.
    fn booked(&self, pos: &Position) -> Option<Choice> {
        let paths = legal_paths(pos);
        if let Some(win) = first_shortest_win(&paths) {
            return Some(Choice::win(win));
        }
        let booked = self.book.lookup(pos)?;
        // Matched as a multiset: the stored order does not matter.
        let p = paths.iter().find(|p| {
            let mut ucis: Vec<String> = p.moves().iter().map(|m| m.uci()).collect();
            ucis.sort();
            ucis == booked
        })?;
        let after = p.end_position(pos);
        Some(Choice {
            path: Some(*p),
            score: -Material::score(&after, after.side_to_move()) as f64,
            stats: None,
        })
    }
}

impl Bot for OpeningBookBot {
    fn info(&self) -> BotInfo {
        let inner = self.inner.info();
        BotInfo {
            id: format!("{}+book", inner.id),
            name: format!("{} (book)", inner.name),
            difficulty: inner.difficulty,
            description: format!("{} — plays booked turns first", inner.description),
        }
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        match self.booked(pos) {
            Some(choice) => Ok(choice),
            None => self.inner.choose(pos, turn),
        }
    }

    fn warm_up(&self) {
        self.inner.warm_up();
    }

    fn fast_choice(
        &self,
        pos: &Position,
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
    ) -> Result<Choice, BotError> {
        match self.booked(pos) {
            Some(choice) => Ok(choice),
            None => self.inner.fast_choice(pos, rng),
        }
    }

    fn policy(&self) -> DrawDoublePolicy {
        self.inner.policy()
    }
}
