//! Games between bots: the game loop and its record (the community's game-history shape),
//! self-play data generation, the arena and record replay (ours and the play server's
//! game history).

mod arena;
mod clock;
mod game;
mod game_texts;
mod history;
mod host;
mod record;
mod replay;
mod sprt;
mod suite;
mod suite_endgame;
mod suite_endgame_run;
mod suite_error;
mod suite_fields;
mod suite_json;
mod suite_run;
mod suite_table;
mod think;

pub use arena::{
    format_table, run_match, run_match_journaled, ArenaBot, ArenaConfig, ArenaError, ArenaReport,
    GameOutcome, PairJournal, PairOutcome,
};
pub use clock::{GameClock, TimeControl, TimeControlError, CLOCK_OVERHEAD_MS};
pub use game::{game_seed, play, play_game, Ending, GameLimits, PlayedGame};
pub use game_texts::{game_texts, GameText, GameTextError, GameTexts};
pub use history::{validate_history_json, ServerHistory, ServerTermination, ServerTurn};
pub use host::host_description;
pub use record::{GameRecord, Termination, TurnRecord};
pub use replay::{validate_record, validate_record_line, ReplayError, ReplaySummary};
pub use suite::{
    load_suite, parse_suite, Expectation, Scenario, ScenarioCategory, ScenarioSuite, SeedSet, Suite,
};
pub use suite_endgame::{king_distances, EndgamePosition, EndgameSuite};
pub use suite_endgame_run::{
    compute_category_summaries, compute_position_summary, run_endgames, CategorySummary,
    EndgamePositionReport, EndgameReport, EndgameSettings, EndgameSummary, MatchResult,
    PositionMatchSummary,
};
pub use suite_error::{SuiteError, SuiteProblem};
pub use suite_fields::SUITE_SCHEMA_VERSION;
pub use suite_run::{
    compare_decisions, run_scenarios, Comparison, ExpectationReport, JudgedDecision,
    ScenarioReport, ScenarioResult, ScenarioSummary, SeedSetReport, SuiteBot, SuiteDecision,
    SuiteIdentity,
};
pub use suite_table::{format_endgame_report, format_scenario_report};
// `sprt::decide` and `sprt::score` are re-exported under descriptive names: at this level
// plain `decide` would read as the move decision (`search::decide`) and `score` as an
// evaluation.
pub use sprt::{
    decide as sprt_decide, elo_estimate, elo_from_score, expected_score, llr, observations_for,
    pair_variance, pentanomial_bin, score as sprt_score, EloEstimate, PairVariance, SprtDecision,
    SprtParams, SprtParamsError,
};

#[cfg(feature = "files")]
mod config;
#[cfg(feature = "files")]
mod error;
#[cfg(feature = "files")]
mod journal;
#[cfg(feature = "files")]
mod merge;
#[cfg(feature = "files")]
mod request;
#[cfg(feature = "files")]
mod rows;
#[cfg(feature = "files")]
mod run;
mod shards;
#[cfg(feature = "files")]
mod writer;

#[cfg(feature = "files")]
pub use journal::{journal_line, recorded_pairs, ArenaJournal};
#[cfg(feature = "files")]
pub use merge::merge_runs;
#[cfg(feature = "files")]
pub use request::{SelfPlayRequest, DEFAULT_BOT, DEFAULT_FEATURES, DEFAULT_SHARD_GAMES};

#[cfg(feature = "files")]
pub use config::{SelfPlayBot, SelfPlayConfig, SelfPlayProgress, SelfPlaySummary};
#[cfg(feature = "files")]
pub use error::SelfPlayError;
#[cfg(feature = "files")]
pub use run::run_selfplay;
pub use shards::{
    Counts, ManifestError, RunManifest, ShardEntry, Slice, SliceError, MANIFEST_FORMAT,
};
