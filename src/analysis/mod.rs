//! Game analysis as backgammon players know it (docs/analysis.md): every turn's equity
//! before and after its roll (the roll's luck), the best turn and the equity the played one
//! gave away (its error, classed after GNU Backgammon's thresholds), and per player the total
//! and mean error, the worst turns, the luck and a luck-adjusted result.
//!
//! Equities are the mover's win probability (0–1): the leaf evaluator's score through a
//! logistic ([`ProbabilityLeaf`]), searched exactly (no pruning) over every roll with the
//! label factory's `a1` (depth 2) for the decisions, and with `p1` (depth 1) for the luck,
//! whose mean over the 56 rolls is then exactly 0.
//!
//! ```
//! use dicechess::analysis::{AnalysisConfig, Analyzer, TurnClass};
//! use dicechess::board::Position;
//!
//! let analyzer = Analyzer::for_bot("best", AnalysisConfig::default())?;
//! // White rolls pawn, queen, king and can take the black king with the queen (a4xe8):
//! // pushing the pawn and walking both pieces instead gives away what was left to win.
//! let before = Position::from_dfen("4k3/8/8/8/Q7/8/4P3/5K2 w - - 0 1")?;
//! let played = ["e2e3", "a4a5", "f1g1"].map(String::from);
//! let t = analyzer.analyze_turn(&before, &[1, 5, 6], &played, ("g", 1))?;
//! assert_eq!(t.best_moves, ["a4e8"]);
//! assert_eq!(t.best_equity, 1.0);
//! assert_eq!(t.error, 1.0 - t.played_equity);
//! assert!(t.class.marked() && t.class != TurnClass::Forced);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analyzer;
mod classify;
mod decision_set;
mod equity_lost;
mod game;
mod html;
mod leaf;
mod paired_loss;
mod report;
mod turns;

pub use analyzer::{AnalysisConfig, Analyzer, ANALYSIS_BOTS};
pub use classify::{LuckClass, TurnClass, ERROR_THRESHOLDS, LUCK_THRESHOLDS};
pub use decision_set::{
    distinct_turn_count, draw_decisions, BenchDecision, DecisionSet, DecisionSetError, Phase,
    SetHeader, Teacher, TeacherTurn, DEFAULT_SHORTLIST, SET_FORMAT,
};
pub use equity_lost::{
    judge, play_and_judge, summarize_losses, EquityLostSummary, Judged, MeanLoss,
};
pub use game::Game;
pub use html::report_html;
pub use leaf::{logistic, ProbabilityLeaf, Scale, LOGISTIC_SCALE};
pub use paired_loss::{compare, Comparison, PairedDifference, ScoreRun, ScoreRunError};
pub use report::{white_view, GameAnalysis, PlayerSummary, TurnAnalysis, WorstTurn};
pub use turns::RankedTurn;

use crate::bots::BoundedError;
use crate::eval::EvalError;
use crate::search::LabelError;
use crate::selfplay::ReplayError;

/// Why a game or a turn could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// A setting is out of range.
    #[error("analysis: {0}")]
    Config(String),
    /// The game is not a valid record or history (the replay validator's message).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A turn could not be read.
    #[error("game {game_id} turn {turn}: {message}")]
    Turn {
        /// The game.
        game_id: String,
        /// The turn.
        turn: u32,
        /// What is wrong.
        message: String,
    },
    /// A position's search exceeded its bounds.
    #[error(transparent)]
    Label(#[from] LabelError),
    /// The evaluator failed.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// A bot failed to decide.
    #[error(transparent)]
    Bot(#[from] BoundedError),
}
