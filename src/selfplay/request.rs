//! A self-play run as the user states it (bot ids, paths, text options), checked and turned
//! into a [`SelfPlayConfig`]: what `dicechess selfplay` parses its flags into and what the
//! Python package's `dicechess.selfplay` builds from its arguments. Messages name the CLI
//! flags (`--shard`, `--features`, ...).

use super::shards::Slice;
use super::{GameLimits, SelfPlayBot, SelfPlayConfig, SelfPlayError};
use crate::board::Position;
use crate::bots::BotOptions;
use crate::eval::features;
use std::path::PathBuf;

/// The default bot of both sides.
pub const DEFAULT_BOT: &str = "greedy";

/// The default feature schema of the training rows (cheap to extract).
pub const DEFAULT_FEATURES: &str = "rich-9-v1";

/// The default games per shard.
pub const DEFAULT_SHARD_GAMES: u64 = 100;

/// A self-play run before its checks.
#[derive(Clone, Debug)]
pub struct SelfPlayRequest {
    /// Games in the whole run.
    pub games: u64,
    /// Output folder.
    pub out: PathBuf,
    /// White's bot id.
    pub white: String,
    /// Black's bot id.
    pub black: String,
    /// Model package for White's bot (expectimax-model).
    pub white_model: Option<PathBuf>,
    /// Model package for Black's bot.
    pub black_model: Option<PathBuf>,
    /// Opening book (TSV) for White's bot.
    pub white_book: Option<PathBuf>,
    /// Opening book (TSV) for Black's bot.
    pub black_book: Option<PathBuf>,
    /// Candidate limit of expectimax bots (`None`: the bot's).
    pub candidate_limit: Option<usize>,
    /// Transposition table per game for expectimax bots, MiB; 0 = none.
    pub table_mb: usize,
    /// Run seed.
    pub seed: u64,
    /// Worker threads (`None`: all cores; 0 is refused).
    pub threads: Option<usize>,
    /// One slice `i/n` of the shards (`None`: all).
    pub shard: Option<String>,
    /// Feature schema id of the training rows.
    pub features: String,
    /// Games per shard.
    pub shard_games: u64,
    /// Adjudicate a draw after this many turns.
    pub max_turns: u32,
    /// Adjudicate a draw when the half-move clock reaches this.
    pub halfmove_limit: u8,
    /// Start position (DFEN; dice ignored; `None`: the standard start).
    pub start: Option<String>,
    /// The selective depth 3 of both sides' iterative bots ([`BotOptions::d3_replies`];
    /// `None`: the bot's).
    pub d3_replies: Option<usize>,
    /// Their depth-3 candidates ([`BotOptions::d3_candidates`]; 0: off; `None`: the bot's).
    pub d3_candidates: Option<usize>,
}

impl SelfPlayRequest {
    /// A run of `games` games into `out` with every other setting at its default (the
    /// CLI's defaults).
    pub fn new(games: u64, out: PathBuf) -> SelfPlayRequest {
        let limits = GameLimits::default();
        SelfPlayRequest {
            games,
            out,
            white: DEFAULT_BOT.into(),
            black: DEFAULT_BOT.into(),
            white_model: None,
            black_model: None,
            white_book: None,
            black_book: None,
            candidate_limit: None,
            table_mb: 0,
            seed: 0,
            threads: None,
            shard: None,
            features: DEFAULT_FEATURES.into(),
            shard_games: DEFAULT_SHARD_GAMES,
            max_turns: limits.turns,
            halfmove_limit: limits.halfmove,
            start: None,
            d3_replies: None,
            d3_candidates: None,
        }
    }

    /// One side's bot: the candidate limit and table size apply to expectimax bots only.
    fn bot(&self, id: &str, model: &Option<PathBuf>, book: &Option<PathBuf>) -> SelfPlayBot {
        let lower = id.to_ascii_lowercase();
        let searching = lower.starts_with("expectimax") || lower.starts_with("best");
        SelfPlayBot {
            id: id.to_owned(),
            options: BotOptions {
                model: model.clone(),
                book: book.clone(),
                prerank: None,
                collapse: None,
                candidate_limit: if searching {
                    self.candidate_limit
                } else {
                    None
                },
                table_mb: searching.then_some(self.table_mb),
                chance: None,
                tablebases: None,
                d3_replies: self.d3_replies.filter(|_| searching),
                d3_candidates: self.d3_candidates.filter(|_| searching),
                // Self-play plays untimed or at a fixed think time; the bot's default
                // widening applies under a clock.
                d3_widest: None,
            },
        }
    }

    /// Check the request and build the run's configuration; every error is a refusal
    /// ([`SelfPlayError::is_refusal`]).
    pub fn config(&self) -> Result<SelfPlayConfig, SelfPlayError> {
        let schema = features::schema_or_err(&self.features).map_err(SelfPlayError::Features)?;
        let slice = match &self.shard {
            None => Slice::ALL,
            Some(s) => Slice::parse(s).map_err(SelfPlayError::Slice)?,
        };
        if self.threads == Some(0) {
            return Err(SelfPlayError::Zero { flag: "--threads" });
        }
        if self.max_turns == 0 {
            return Err(SelfPlayError::Zero {
                flag: "--max-turns",
            });
        }
        let start = match &self.start {
            Some(d) => Position::from_dfen(d).map_err(SelfPlayError::Start)?,
            None => Position::startpos(),
        };
        Ok(SelfPlayConfig {
            games: self.games,
            out: self.out.clone(),
            white: self.bot(&self.white, &self.white_model, &self.white_book),
            black: self.bot(&self.black, &self.black_model, &self.black_book),
            seed: self.seed,
            threads: self.threads.unwrap_or(0),
            slice,
            schema,
            limits: GameLimits {
                halfmove: self.halfmove_limit,
                turns: self.max_turns,
            },
            shard_games: self.shard_games,
            start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_cli_defaults_and_build() {
        let cfg = SelfPlayRequest::new(3, "out".into()).config().unwrap();
        assert_eq!(cfg.white.id, "greedy");
        assert_eq!(cfg.schema.id(), "rich-9-v1");
        assert_eq!(cfg.shard_games, 100);
        assert_eq!(cfg.limits.turns, GameLimits::default().turns);
        assert_eq!(cfg.slice, Slice::ALL);
        assert_eq!(cfg.start, Position::startpos());
    }

    #[test]
    fn search_options_reach_expectimax_bots_only() {
        let mut req = SelfPlayRequest::new(3, "out".into());
        req.white = "Expectimax".into();
        req.candidate_limit = Some(4);
        req.table_mb = 8;
        let cfg = req.config().unwrap();
        assert_eq!(cfg.white.options.candidate_limit, Some(4));
        assert_eq!(cfg.white.options.table_mb, Some(8));
        assert_eq!(cfg.black.options.candidate_limit, None);
        assert_eq!(cfg.black.options.table_mb, None);
    }

    #[test]
    fn refusals_name_the_flag() {
        let refused = |f: &dyn Fn(&mut SelfPlayRequest)| {
            let mut req = SelfPlayRequest::new(3, "out".into());
            f(&mut req);
            match req.config() {
                Err(e) if e.is_refusal() => e.to_string(),
                other => panic!("expected a refusal, got {:?}", other.map(|c| c.games)),
            }
        };
        assert!(refused(&|r| r.features = "nope".into())
            .starts_with("--features: unknown feature schema \"nope\" (known: material-7-v1"));
        assert!(refused(&|r| r.shard = Some("2/2".into())).starts_with("--shard "));
        assert_eq!(
            refused(&|r| r.threads = Some(0)),
            "--threads: must be at least 1"
        );
        assert_eq!(
            refused(&|r| r.max_turns = 0),
            "--max-turns: must be at least 1"
        );
        assert!(refused(&|r| r.start = Some("x".into())).starts_with("bad DFEN: fields"));
    }
}
