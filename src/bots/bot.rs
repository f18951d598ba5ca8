//! The one trait every bot implements ([`Bot`]), what it is asked with ([`Turn`]) and what
//! it answers ([`Choice`]), and the bot's registry entry ([`BotInfo`]).

use super::{BotError, DrawDoublePolicy};
use crate::board::Position;
use crate::rules::TurnPath;
use crate::search::RootSearchStats;
use dicechess_kernels::Color;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// A bot's registry entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BotInfo {
    /// Case-insensitive id, e.g. `greedy`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Difficulty, 1 (weakest) upwards.
    pub difficulty: u8,
    /// One line on how it plays.
    pub description: String,
}

/// A decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The turn; `None` for a forced pass.
    pub path: Option<TurnPath>,
    /// The bot's score for it on its own scale (centipawns, or the search value).
    pub score: f64,
    /// Search statistics, for searching bots.
    pub stats: Option<RootSearchStats>,
}

impl Choice {
    /// A forced pass (no legal path).
    pub fn pass() -> Choice {
        Choice {
            path: None,
            score: 0.0,
            stats: None,
        }
    }

    /// A king-capturing `path`: the game is won at once.
    pub fn win(path: TurnPath) -> Choice {
        Choice {
            path: Some(path),
            score: crate::eval::TERMINAL_WIN_SCORE,
            stats: None,
        }
    }

    /// The choice that needs no judgement, if there is one: a pass when there is no legal
    /// path, else the first shortest king capture.
    pub fn forced(paths: &[TurnPath]) -> Option<Choice> {
        if paths.is_empty() {
            return Some(Choice::pass());
        }
        first_shortest_win(paths).map(Choice::win)
    }
}

/// What a bot may use for one decision.
pub struct Turn<'a> {
    /// Randomness for tie-breaks and sampling (seeded per game for reproducibility).
    pub rng: &'a mut Xoshiro256PlusPlus,
    /// Think until at most this instant (bots that honour deadlines).
    pub deadline: Option<Instant>,
}

/// A Dice Chess player.
pub trait Bot: Send + Sync {
    /// The registry entry.
    fn info(&self) -> BotInfo;

    /// Choose a legal turn for the rolled position (`None` only for a forced pass).
    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError>;

    /// A legal turn at a small fraction of [`Bot::choose`]'s cost, for when there is no time
    /// to think (the webhook server's degraded answer, docs/webhook.md "Degrade, don't
    /// fail"): a pass or king capture when forced, else the bot's cheapest judgement. The
    /// default is the best material after the turn (the first on ties); searching bots
    /// answer their pre-ranker's pick, the book bot its booked turn.
    fn fast_choice(
        &self,
        pos: &Position,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Result<Choice, BotError> {
        let paths = crate::rules::legal_paths(pos);
        if let Some(forced) = Choice::forced(&paths) {
            return Ok(forced);
        }
        Ok(Choice {
            path: super::fallback_path(pos, &paths),
            score: 0.0,
            stats: None,
        })
    }

    /// Touch the memory the bot's decisions will use, in the current thread pool — a
    /// searching bot's transposition table and its threads' search buffers — so that a
    /// long-running server pays its page faults and shows its resident size at start instead
    /// of while it answers (`best`'s 48 MiB table is allocated zeroed, so touched page by page
    /// as entries are stored, and each thread's buffers grow to the largest node it has
    /// searched). The default does nothing.
    fn warm_up(&self) {}

    /// Draw and doubling decisions (default: never offer, never accept a draw; take a double
    /// when the logistic win probability exceeds 0.25).
    fn policy(&self) -> DrawDoublePolicy {
        DrawDoublePolicy::Default
    }
}

/// The first shortest king-capturing path, if any (every bot plays it at once).
pub fn first_shortest_win(paths: &[TurnPath]) -> Option<TurnPath> {
    paths
        .iter()
        .filter(|p| p.captures_king())
        .min_by_key(|p| p.len())
        .copied()
}

/// Whether `color` has a king attacked after `pos` (geometric; dice ignored).
pub(crate) fn exposed(pos: &Position, color: Color) -> bool {
    crate::probe::king_attacked(pos, color)
}
