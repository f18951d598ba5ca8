//! The arena (docs/search.md §10.2): colour-mirrored game pairs on the same dice seed,
//! played in parallel, scored as pentanomial pairs and stopped by a game count or the SPRT.

use super::clock::TimeControl;
use super::game::{game_seed, play, Ending, GameLimits};
use super::record::Termination;
use super::sprt::{
    decide, elo_estimate, llr, pair_variance, pentanomial_bin, EloEstimate, PairVariance,
    SprtDecision, SprtParams,
};
use super::think::{ThinkSummary, ThinkTime, TimedBot};
use crate::board::Position;
use crate::bots::{bot_by_id, Bot, BotBuildError, BotError, BotOptions};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
// `std::time::Instant` natively; the bots' deadline type on wasm32 too (Cargo.toml).
use web_time::Instant;

/// Makes a fresh bot for each game.
pub type BotBuilder = Arc<dyn Fn() -> Result<Box<dyn Bot>, BotBuildError> + Send + Sync>;

/// A bot to build for every game (each game gets its own, so no state such as a
/// transposition table is shared between games and results do not depend on scheduling).
/// The arena builds bots through [`ArenaBot::build`] only: which kinds of bot exist (a
/// registry bot, a served one the command line sets up) is the caller's business.
#[derive(Clone)]
pub struct ArenaBot {
    /// The id in reports: a registry id, or what the caller names its bot.
    pub id: String,
    builder: BotBuilder,
}

impl std::fmt::Debug for ArenaBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArenaBot").field("id", &self.id).finish()
    }
}

impl ArenaBot {
    /// The registry bot `id` with `options`.
    pub fn new(id: &str, options: BotOptions) -> ArenaBot {
        let registry_id = id.to_owned();
        ArenaBot::with_builder(id, move || bot_by_id(&registry_id, &options))
    }

    /// A bot of any kind named `id`: `build` makes a fresh one for each game.
    pub fn with_builder(
        id: &str,
        build: impl Fn() -> Result<Box<dyn Bot>, BotBuildError> + Send + Sync + 'static,
    ) -> ArenaBot {
        ArenaBot {
            id: id.to_owned(),
            builder: Arc::new(build),
        }
    }

    /// Build the bot.
    pub fn build(&self) -> Result<Box<dyn Bot>, BotBuildError> {
        (self.builder)()
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The start position (its dice are ignored).
    pub start: Position,
    /// At most this many pairs (two games each).
    pub pairs: u64,
    /// Pair `k` uses the dice seed `game_seed(run_seed, k)`.
    pub run_seed: u64,
    /// Draw adjudication.
    pub limits: GameLimits,
    /// Stop early when the SPRT decides (checked after each pair, in pair order).
    pub sprt: Option<SprtParams>,
    /// SPRT parameters used for the reported LLR when `sprt` is `None`.
    pub report_sprt: SprtParams,
    /// The time control.
    pub time: TimeControl,
}

/// One game's outcome from the first bot's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameOutcome {
    /// 1 White won, 0 draw, −1 Black won.
    pub result: i8,
    /// `king-capture`, `halfmove-limit`, `turn-limit` or `time-forfeit`.
    pub termination: &'static str,
    /// Turns played.
    pub turns: u32,
}

/// The label of a game lost on time (the rules' terminations are [`termination_label`]'s).
const TIME_FORFEIT: &str = "time-forfeit";

fn termination_label(t: Termination) -> &'static str {
    match t {
        Termination::KingCapture => "king-capture",
        Termination::HalfmoveLimit => "halfmove-limit",
        Termination::TurnLimit => "turn-limit",
    }
}

/// Play one game under a time control (untimed: the game of [`play_game`]).
pub fn play_timed_game(
    start: &Position,
    white: &dyn Bot,
    black: &dyn Bot,
    seed: u64,
    limits: GameLimits,
    time: TimeControl,
) -> Result<GameOutcome, BotError> {
    let game = play(start, white, black, seed, limits, time)?;
    Ok(GameOutcome {
        result: game.result,
        termination: match game.ending {
            Ending::Rules(t) => termination_label(t),
            Ending::TimeForfeit => TIME_FORFEIT,
        },
        turns: game.played,
    })
}

/// One mirrored pair: game A with the first bot White, game B with it Black, same seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairOutcome {
    /// The pair index.
    pub index: u64,
    /// The dice seed of both games.
    pub seed: u64,
    /// Game A (first bot White).
    pub first_white: GameOutcome,
    /// Game B (first bot Black).
    pub first_black: GameOutcome,
    /// The first bot's thinking time over both games.
    pub think_first: ThinkTime,
    /// The second bot's thinking time over both games.
    pub think_second: ThinkTime,
}

impl PairOutcome {
    /// The first bot's scores (1, ½, 0) as White and as Black.
    pub fn scores(&self) -> (f64, f64) {
        let w = (1.0 + self.first_white.result as f64) / 2.0;
        let b = (1.0 - self.first_black.result as f64) / 2.0;
        (w, b)
    }
}

/// Play pair `index` of a match.
pub fn play_pair(
    first: &ArenaBot,
    second: &ArenaBot,
    config: &ArenaConfig,
    index: u64,
) -> Result<PairOutcome, ArenaError> {
    let seed = game_seed(config.run_seed, index);
    let (a1, a2) = (first.build()?, second.build()?);
    let (a1, a2) = (TimedBot::new(a1.as_ref()), TimedBot::new(a2.as_ref()));
    let first_white = play_timed_game(&config.start, &a1, &a2, seed, config.limits, config.time)?;
    let (b1, b2) = (first.build()?, second.build()?);
    let (b1, b2) = (TimedBot::new(b1.as_ref()), TimedBot::new(b2.as_ref()));
    let first_black = play_timed_game(&config.start, &b2, &b1, seed, config.limits, config.time)?;
    Ok(PairOutcome {
        index,
        seed,
        first_white,
        first_black,
        think_first: a1.think_time().merge(b1.think_time()),
        think_second: a2.think_time().merge(b2.think_time()),
    })
}

/// Why a match failed.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A bot could not be built.
    #[error(transparent)]
    Bot(#[from] BotBuildError),
    /// A bot could not choose a turn.
    #[error(transparent)]
    Play(#[from] BotError),
    /// The match's journal could not be read or written.
    #[error("arena journal {path}: {reason}")]
    Journal {
        /// The journal file.
        path: std::path::PathBuf,
        /// What went wrong (the operating system's error, or the bad line and why).
        reason: String,
    },
}

/// Where a match keeps its finished pairs so that an interrupted match resumes: the pairs
/// recorded for this match are not played again, and the report is the one an uninterrupted
/// match gives (pairs are reduced in index order either way).
pub trait PairJournal {
    /// The recorded outcome of pair `index`, if any.
    fn recorded(&self, index: u64) -> Option<PairOutcome>;
    /// Record newly finished pairs (in index order), durably, before the match goes on.
    fn record(&mut self, pairs: &[PairOutcome]) -> Result<(), ArenaError>;
}

/// No journal: every pair is played.
struct NoJournal;

impl PairJournal for NoJournal {
    fn recorded(&self, _: u64) -> Option<PairOutcome> {
        None
    }
    fn record(&mut self, _: &[PairOutcome]) -> Result<(), ArenaError> {
        Ok(())
    }
}

/// The termination label of a recorded game, as the `&'static str` of [`GameOutcome`] (read
/// back by the arena's journal, a `files` build's).
#[cfg(feature = "files")]
pub(super) fn termination_of(label: &str) -> Option<&'static str> {
    [
        Termination::KingCapture,
        Termination::HalfmoveLimit,
        Termination::TurnLimit,
    ]
    .map(termination_label)
    .into_iter()
    .chain([TIME_FORFEIT])
    .find(|l| *l == label)
}

/// A match's result from the first bot's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaReport {
    /// The first bot's id.
    pub bot: String,
    /// The opponent's id.
    pub opponent: String,
    /// Pairs played.
    pub pairs: u64,
    /// Games played (two per pair).
    pub games: u64,
    /// Games the first bot won.
    pub wins: u64,
    /// Games it lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
    /// Its score, 0..1.
    pub score: f64,
    /// Elo with a 95 % interval, from the pair variance (`None` with no pairs).
    pub elo: Option<EloEstimate>,
    /// SPRT parameters of the LLR.
    pub sprt: SprtParams,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β/(1−α))`.
    pub lower_bound: f64,
    /// `ln((1−β)/α)`.
    pub upper_bound: f64,
    /// The decision at the end.
    pub decision: SprtDecision,
    /// Whether the SPRT stopped the match.
    pub stopped_by_sprt: bool,
    /// Pair counts by bin 0..=4 (pair score 0, ¼, ½, ¾, 1).
    pub pentanomial: [u64; 5],
    /// The noise reduction of pairs.
    pub pair_variance: PairVariance,
    /// Games the first bot lost on time.
    pub timeouts_bot: u64,
    /// Games the opponent lost on time.
    pub timeouts_opponent: u64,
    /// The time control.
    pub time_control: TimeControl,
    /// The run seed.
    pub seed: u64,
    /// The first bot's thinking time per decision (wall clock around each decision).
    pub think_bot: ThinkSummary,
    /// The opponent's.
    pub think_opponent: ThinkSummary,
    /// Wall time, s.
    pub wall_s: f64,
}

/// Summarise the pairs (in order) into a report.
pub fn summarize(
    first: &str,
    second: &str,
    config: &ArenaConfig,
    pairs: &[PairOutcome],
    stopped_by_sprt: bool,
    wall_s: f64,
) -> ArenaReport {
    let mut hist = [0u64; 5];
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    let (mut to_bot, mut to_opp) = (0, 0);
    let (mut think_bot, mut think_opp) = (ThinkTime::default(), ThinkTime::default());
    for p in pairs {
        think_bot = think_bot.merge(p.think_first);
        think_opp = think_opp.merge(p.think_second);
        let (w, b) = p.scores();
        hist[pentanomial_bin(w, b)] += 1;
        for (s, g, first_color) in [(w, p.first_white, 1i8), (b, p.first_black, -1)] {
            if s == 1.0 {
                wins += 1;
            } else if s == 0.0 {
                losses += 1;
            } else {
                draws += 1;
            }
            if g.termination == TIME_FORFEIT {
                // The loser flagged: the first bot when its side lost.
                if g.result == -first_color {
                    to_bot += 1;
                } else {
                    to_opp += 1;
                }
            }
        }
    }
    let params = config.sprt.unwrap_or(config.report_sprt);
    let l = llr(&hist, &params);
    let games = 2 * pairs.len() as u64;
    ArenaReport {
        bot: first.to_owned(),
        opponent: second.to_owned(),
        pairs: pairs.len() as u64,
        games,
        wins,
        losses,
        draws,
        score: if games == 0 {
            0.5
        } else {
            (wins as f64 + 0.5 * draws as f64) / games as f64
        },
        elo: elo_estimate(&hist),
        sprt: params,
        llr: l,
        lower_bound: params.lower_bound(),
        upper_bound: params.upper_bound(),
        decision: decide(l, &params),
        stopped_by_sprt,
        pentanomial: hist,
        pair_variance: pair_variance(&hist, [losses, draws, wins]),
        timeouts_bot: to_bot,
        timeouts_opponent: to_opp,
        time_control: config.time,
        seed: config.run_seed,
        think_bot: think_bot.into(),
        think_opponent: think_opp.into(),
        wall_s,
    }
}

/// Play a match of `first` against `second` in the current rayon pool: pairs are played in
/// batches in parallel and scanned in pair order, so where the SPRT stops (and so the whole
/// report, untimed) does not depend on the thread count. `progress` is called with each
/// batch's pairs so far.
pub fn run_match(
    first: &ArenaBot,
    second: &ArenaBot,
    config: &ArenaConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ArenaReport, ArenaError> {
    run_match_journaled(first, second, config, &mut NoJournal, progress)
}

/// [`run_match`] keeping its finished pairs in `journal`: pairs it has recorded are taken
/// from it instead of being played, and each batch of newly played pairs is recorded before
/// the next starts, so a match killed at any point loses at most the batch in flight.
pub fn run_match_journaled(
    first: &ArenaBot,
    second: &ArenaBot,
    config: &ArenaConfig,
    journal: &mut dyn PairJournal,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ArenaReport, ArenaError> {
    let began = Instant::now();
    // Fail fast on a bad bot.
    first.build()?;
    second.build()?;
    let batch = (rayon::current_num_threads() as u64).max(1) * 2;
    let mut done: Vec<PairOutcome> = Vec::new();
    let mut hist = [0u64; 5];
    let mut stopped = false;
    let mut next = 0;
    'outer: while next < config.pairs {
        let end = (next + batch).min(config.pairs);
        let recorded: Vec<Option<PairOutcome>> = (next..end).map(|k| journal.recorded(k)).collect();
        let results: Vec<Result<(PairOutcome, bool), ArenaError>> = recorded
            .into_par_iter()
            .enumerate()
            .map(|(i, r)| match r {
                Some(p) => Ok((p, false)),
                None => play_pair(first, second, config, next + i as u64).map(|p| (p, true)),
            })
            .collect();
        next = end;
        // Record what finished even when another pair of the batch failed.
        let fresh: Vec<PairOutcome> = results
            .iter()
            .filter_map(|r| r.as_ref().ok().filter(|r| r.1).map(|r| r.0))
            .collect();
        if !fresh.is_empty() {
            journal.record(&fresh)?;
        }
        let results: Vec<(PairOutcome, bool)> = results.into_iter().collect::<Result<_, _>>()?;
        for (p, _) in results {
            let (w, b) = p.scores();
            hist[pentanomial_bin(w, b)] += 1;
            done.push(p);
            if let Some(params) = &config.sprt {
                if decide(llr(&hist, params), params) != SprtDecision::Continue {
                    stopped = true;
                    break 'outer;
                }
            }
        }
        progress(done.len() as u64);
    }
    Ok(summarize(
        &first.id,
        &second.id,
        config,
        &done,
        stopped,
        began.elapsed().as_secs_f64(),
    ))
}

fn fmt_elo(e: &Option<EloEstimate>) -> String {
    match e {
        None => "-".into(),
        Some(e) if e.elo.is_finite() && e.half_width().is_finite() => {
            format!("{:+.0} ± {:.0}", e.elo + 0.0, e.half_width())
        }
        Some(e) if e.elo.is_finite() => format!("{:+.0} (±inf)", e.elo),
        Some(e) => format!("{}inf", if e.elo > 0.0 { "+" } else { "-" }),
    }
}

/// A readable table, one row per report.
pub fn format_table(reports: &[ArenaReport]) -> String {
    let mut s = format!(
        "{:<20} {:<12} {:>7} {:>13} {:>12} {:>22} {:>9} {:>6}  {:<15}  {}\n",
        "bot",
        "vs",
        "score",
        "W/L/D",
        "Elo ±95%",
        "LLR [bounds]",
        "SPRT",
        "games",
        "pairs 0/¼/½/¾/1",
        "think ms mean/max (bot | vs)"
    );
    for r in reports {
        let h = r.pentanomial;
        s.push_str(&format!(
            "{:<20} {:<12} {:>6.1}% {:>13} {:>12} {:>22} {:>9} {:>6}  {:<15}  {:.1}/{:.0} | {:.1}/{:.0}\n",
            r.bot,
            r.opponent,
            100.0 * r.score,
            format!("{}/{}/{}", r.wins, r.losses, r.draws),
            fmt_elo(&r.elo),
            format!("{:.2} [{:.2},{:.2}]", r.llr, r.lower_bound, r.upper_bound),
            r.decision.label(),
            r.games,
            format!("{}/{}/{}/{}/{}", h[0], h[1], h[2], h[3], h[4]),
            r.think_bot.mean_ms,
            r.think_bot.max_ms,
            r.think_opponent.mean_ms,
            r.think_opponent.max_ms,
        ));
    }
    s
}
