//! Running an endgame suite (docs/suites.md "The endgame suite") as the JVM arena's
//! `EndgameSuiteRunner` runs one: per position a match of `gamesPerColor` games with the
//! candidate White and as many with it Black against the baseline (`BotMatchRunner.runMatch`),
//! game `i` of either colour on the same dice; the candidate's wins, draws and losses as
//! attacker and as defender, category summaries sorted by category and an overall summary,
//! in their report's JSON shape (`buildJsonReport`).

use super::arena::{play_timed_game, ArenaBot, ArenaError, GameOutcome};
use super::clock::TimeControl;
use super::game::{game_seed, GameLimits};
use super::suite_endgame::{EndgamePosition, EndgameSuite};
use dicechess_kernels::Color;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
// `std::time::Instant` natively; the bots' deadline type on wasm32 too (Cargo.toml).
use web_time::Instant;

/// How an endgame suite is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameSettings {
    /// Games per colour per position (`--games`, theirs `gamesPerColor`; at least 1).
    pub games_per_color: u64,
    /// The run seed: game `i` of each colour is played on the dice of `game_seed(seed, i)`.
    pub seed: u64,
    /// The draw adjudication (a game that reaches a limit is a draw).
    pub limits: GameLimits,
    /// Each side's clock.
    pub time: TimeControl,
}

/// One position's match from the candidate's view (the JVM arena's `MatchResult`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games played (twice the games per colour).
    pub total_games: u64,
    /// Games the candidate won as White.
    pub wins_as_white: u64,
    /// Games the candidate won as Black.
    pub wins_as_black: u64,
    /// Games the candidate lost as White.
    pub losses_as_white: u64,
    /// Games the candidate lost as Black.
    pub losses_as_black: u64,
    /// Games drawn with the candidate White.
    pub draws_as_white: u64,
    /// Games drawn with the candidate Black.
    pub draws_as_black: u64,
    /// The match's time, ms (the sum of its games' times: they run in parallel).
    pub duration_ms: u64,
}

impl MatchResult {
    /// The match of the games with the candidate White and with it Black (each result from
    /// White's view), lasting `duration_ms`.
    pub fn of(as_white: &[GameOutcome], as_black: &[GameOutcome], duration_ms: u64) -> Self {
        let count = |games: &[GameOutcome], r: i8| games.iter().filter(|g| g.result == r).count();
        MatchResult {
            total_games: (as_white.len() + as_black.len()) as u64,
            wins_as_white: count(as_white, 1) as u64,
            losses_as_white: count(as_white, -1) as u64,
            draws_as_white: count(as_white, 0) as u64,
            wins_as_black: count(as_black, -1) as u64,
            losses_as_black: count(as_black, 1) as u64,
            draws_as_black: count(as_black, 0) as u64,
            duration_ms,
        }
    }
}

fn pct(n: u64, d: u64) -> f64 {
    if d > 0 {
        n as f64 / d as f64 * 100.0
    } else {
        0.0
    }
}

/// A position's match as attacker and defender (the JVM arena's `PositionMatchSummary`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionMatchSummary {
    /// The match.
    pub match_result: MatchResult,
    /// The candidate's wins from the attacking side.
    pub cand_wins_as_attacker: u64,
    /// Its losses from the attacking side.
    pub cand_losses_as_attacker: u64,
    /// Its draws from the attacking side.
    pub cand_draws_as_attacker: u64,
    /// Its wins from the defending side.
    pub cand_wins_as_defender: u64,
    /// Its losses from the defending side.
    pub cand_losses_as_defender: u64,
    /// Its draws from the defending side.
    pub cand_draws_as_defender: u64,
    /// Its games from the attacking side.
    pub games_as_attacker: u64,
    /// Its games from the defending side.
    pub games_as_defender: u64,
}

impl PositionMatchSummary {
    /// The candidate's wins.
    pub fn candidate_wins(&self) -> u64 {
        self.match_result.wins_as_white + self.match_result.wins_as_black
    }

    /// The baseline's wins (the candidate's losses).
    pub fn baseline_wins(&self) -> u64 {
        self.match_result.losses_as_white + self.match_result.losses_as_black
    }

    /// The draws.
    pub fn draws(&self) -> u64 {
        self.match_result.draws_as_white + self.match_result.draws_as_black
    }

    /// The games.
    pub fn total_games(&self) -> u64 {
        self.match_result.total_games
    }

    /// Conversion: the candidate's wins as attacker per game as attacker, %.
    pub fn cand_attacker_win_rate(&self) -> f64 {
        pct(self.cand_wins_as_attacker, self.games_as_attacker)
    }

    /// The candidate's wins as defender per game as defender, %.
    pub fn cand_defender_win_rate(&self) -> f64 {
        pct(self.cand_wins_as_defender, self.games_as_defender)
    }

    /// The baseline's conversion: the candidate's losses as defender per game, %.
    pub fn base_attacker_win_rate(&self) -> f64 {
        pct(self.cand_losses_as_defender, self.games_as_defender)
    }

    /// The baseline's wins as defender: the candidate's losses as attacker per game, %.
    pub fn base_defender_win_rate(&self) -> f64 {
        pct(self.cand_losses_as_attacker, self.games_as_attacker)
    }
}

/// The attacker and defender bookkeeping of a match on a position whose attacker is
/// `attacker` (the JVM runner's `computePositionSummary`).
pub fn compute_position_summary(attacker: Color, res: &MatchResult) -> PositionMatchSummary {
    let white = (res.wins_as_white, res.losses_as_white, res.draws_as_white);
    let black = (res.wins_as_black, res.losses_as_black, res.draws_as_black);
    let (atk, def) = match attacker {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    PositionMatchSummary {
        match_result: *res,
        cand_wins_as_attacker: atk.0,
        cand_losses_as_attacker: atk.1,
        cand_draws_as_attacker: atk.2,
        cand_wins_as_defender: def.0,
        cand_losses_as_defender: def.1,
        cand_draws_as_defender: def.2,
        games_as_attacker: atk.0 + atk.1 + atk.2,
        games_as_defender: def.0 + def.1 + def.2,
    }
}

/// One position in the report (`positions[]` of the JVM's `buildJsonReport`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndgamePositionReport {
    /// The position's id.
    pub id: String,
    /// Its category.
    pub category: String,
    /// Its FEN.
    pub fen: String,
    /// The kings' Chebyshev distance.
    pub chebyshev_distance: i32,
    /// The kings' Manhattan distance.
    pub manhattan_distance: i32,
    /// The candidate's wins.
    pub candidate_wins: u64,
    /// The baseline's wins.
    pub baseline_wins: u64,
    /// The draws.
    pub draws: u64,
    /// [`PositionMatchSummary::cand_attacker_win_rate`].
    pub cand_attacker_win_rate: f64,
    /// [`PositionMatchSummary::cand_defender_win_rate`].
    pub cand_defender_win_rate: f64,
    /// [`PositionMatchSummary::base_attacker_win_rate`].
    pub base_attacker_win_rate: f64,
    /// [`PositionMatchSummary::base_defender_win_rate`].
    pub base_defender_win_rate: f64,
    /// The match's time, ms.
    pub duration_ms: u64,
    /// The whole bookkeeping (not in the JSON).
    #[serde(skip)]
    pub summary: PositionMatchSummary,
}

impl EndgamePositionReport {
    /// The report of `summary`, the match on `pos`.
    pub fn of(pos: &EndgamePosition, summary: PositionMatchSummary) -> Self {
        EndgamePositionReport {
            id: pos.id.clone(),
            category: pos.category.clone(),
            fen: pos.fen.clone(),
            chebyshev_distance: pos.king_chebyshev_distance,
            manhattan_distance: pos.king_manhattan_distance,
            candidate_wins: summary.candidate_wins(),
            baseline_wins: summary.baseline_wins(),
            draws: summary.draws(),
            cand_attacker_win_rate: summary.cand_attacker_win_rate(),
            cand_defender_win_rate: summary.cand_defender_win_rate(),
            base_attacker_win_rate: summary.base_attacker_win_rate(),
            base_defender_win_rate: summary.base_defender_win_rate(),
            duration_ms: summary.match_result.duration_ms,
            summary,
        }
    }
}

/// One category's totals (the JVM runner's `CategorySummary`, `categories[]` in the JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategorySummary {
    /// The category.
    pub category: String,
    /// Its positions.
    pub position_count: u64,
    /// Their games.
    pub total_games: u64,
    /// The candidate's wins.
    pub candidate_wins: u64,
    /// The baseline's wins.
    pub baseline_wins: u64,
    /// The draws.
    pub draws: u64,
    /// The candidate's wins as attacker per game as attacker, %.
    pub cand_attacker_win_rate: f64,
    /// The candidate's wins as defender per game as defender, %.
    pub cand_defender_win_rate: f64,
    /// The candidate's wins as attacker (not in the JSON).
    #[serde(skip)]
    pub cand_attacker_wins: u64,
    /// Its games as attacker (not in the JSON).
    #[serde(skip)]
    pub cand_attacker_games: u64,
    /// Its wins as defender (not in the JSON).
    #[serde(skip)]
    pub cand_defender_wins: u64,
    /// Its games as defender (not in the JSON).
    #[serde(skip)]
    pub cand_defender_games: u64,
}

/// The totals per category, sorted by category (the JVM runner's
/// `computeCategorySummaries`).
pub fn compute_category_summaries(positions: &[EndgamePositionReport]) -> Vec<CategorySummary> {
    let mut groups: BTreeMap<&str, Vec<&EndgamePositionReport>> = BTreeMap::new();
    for p in positions {
        groups.entry(&p.category).or_default().push(p);
    }
    groups
        .into_iter()
        .map(|(category, list)| {
            let sum = |f: &dyn Fn(&PositionMatchSummary) -> u64| {
                list.iter().map(|p| f(&p.summary)).sum::<u64>()
            };
            let (aw, ag) = (
                sum(&|s| s.cand_wins_as_attacker),
                sum(&|s| s.games_as_attacker),
            );
            let (dw, dg) = (
                sum(&|s| s.cand_wins_as_defender),
                sum(&|s| s.games_as_defender),
            );
            CategorySummary {
                category: category.to_owned(),
                position_count: list.len() as u64,
                total_games: sum(&|s| s.total_games()),
                candidate_wins: sum(&|s| s.candidate_wins()),
                baseline_wins: sum(&|s| s.baseline_wins()),
                draws: sum(&|s| s.draws()),
                cand_attacker_win_rate: pct(aw, ag),
                cand_defender_win_rate: pct(dw, dg),
                cand_attacker_wins: aw,
                cand_attacker_games: ag,
                cand_defender_wins: dw,
                cand_defender_games: dg,
            }
        })
        .collect()
}

/// The overall totals (`summary` in the JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndgameSummary {
    /// Positions played.
    pub total_positions: u64,
    /// Games played.
    pub total_games: u64,
    /// The candidate's wins.
    pub total_candidate_wins: u64,
    /// The baseline's wins.
    pub total_baseline_wins: u64,
    /// The draws.
    pub total_draws: u64,
    /// The candidate's wins as attacker per game as attacker, %.
    pub cand_attacker_win_rate: f64,
    /// The candidate's wins as defender per game as defender, %.
    pub cand_defender_win_rate: f64,
    /// The candidate's wins as attacker (not in the JSON).
    #[serde(skip)]
    pub cand_attacker_wins: u64,
    /// Its games as attacker (not in the JSON).
    #[serde(skip)]
    pub cand_attacker_games: u64,
    /// Its wins as defender (not in the JSON).
    #[serde(skip)]
    pub cand_defender_wins: u64,
    /// Its games as defender (not in the JSON).
    #[serde(skip)]
    pub cand_defender_games: u64,
    /// The matches' time, ms (not in the JSON).
    #[serde(skip)]
    pub duration_ms: u64,
}

impl EndgameSummary {
    /// The totals of `positions`.
    pub fn of(positions: &[EndgamePositionReport]) -> Self {
        let sum = |f: &dyn Fn(&PositionMatchSummary) -> u64| {
            positions.iter().map(|p| f(&p.summary)).sum::<u64>()
        };
        let (aw, ag) = (
            sum(&|s| s.cand_wins_as_attacker),
            sum(&|s| s.games_as_attacker),
        );
        let (dw, dg) = (
            sum(&|s| s.cand_wins_as_defender),
            sum(&|s| s.games_as_defender),
        );
        EndgameSummary {
            total_positions: positions.len() as u64,
            total_games: sum(&|s| s.total_games()),
            total_candidate_wins: sum(&|s| s.candidate_wins()),
            total_baseline_wins: sum(&|s| s.baseline_wins()),
            total_draws: sum(&|s| s.draws()),
            cand_attacker_win_rate: pct(aw, ag),
            cand_defender_win_rate: pct(dw, dg),
            cand_attacker_wins: aw,
            cand_attacker_games: ag,
            cand_defender_wins: dw,
            cand_defender_games: dg,
            duration_ms: sum(&|s| s.match_result.duration_ms),
        }
    }
}

/// An endgame suite's report, in the JVM runner's `buildJsonReport` shape (schema 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndgameReport {
    /// The report's schema version (1).
    pub schema_version: u32,
    /// The suite's id.
    pub suite_id: String,
    /// The candidate's arena id.
    pub candidate_id: String,
    /// The baseline's arena id.
    pub baseline_id: String,
    /// Games per colour per position.
    pub games_per_color: u64,
    /// The run seed.
    pub seed: u64,
    /// One entry per position, in the suite's order.
    pub positions: Vec<EndgamePositionReport>,
    /// The totals per category, sorted by category.
    pub categories: Vec<CategorySummary>,
    /// The overall totals.
    pub summary: EndgameSummary,
}

impl EndgameReport {
    /// The report of the per-position results.
    pub fn of(
        suite: &EndgameSuite,
        candidate_id: &str,
        baseline_id: &str,
        settings: &EndgameSettings,
        positions: Vec<EndgamePositionReport>,
    ) -> Self {
        EndgameReport {
            schema_version: 1,
            suite_id: suite.id.clone(),
            candidate_id: candidate_id.to_owned(),
            baseline_id: baseline_id.to_owned(),
            games_per_color: settings.games_per_color,
            seed: settings.seed,
            categories: compute_category_summaries(&positions),
            summary: EndgameSummary::of(&positions),
            positions,
        }
    }
}

/// Play every position of `suite`: `games_per_color` games with the candidate White and as
/// many with it Black, game `i` of both colours on the dice of `game_seed(seed, i)` (in
/// parallel in the current rayon pool; everything but the times is the same on any thread
/// count). `progress` is told the games done so far.
pub fn run_endgames(
    suite: &EndgameSuite,
    candidate: &ArenaBot,
    baseline: &ArenaBot,
    settings: &EndgameSettings,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<EndgameReport, ArenaError> {
    // Build each bot once first, so that a bad bot is refused before any game.
    candidate.build()?;
    baseline.build()?;
    let n = settings.games_per_color;
    let jobs: Vec<(usize, Color, u64)> = (0..suite.positions.len())
        .flat_map(|p| {
            [Color::White, Color::Black]
                .into_iter()
                .flat_map(move |c| (0..n).map(move |i| (p, c, i)))
        })
        .collect();
    let done = AtomicU64::new(0);
    let games: Vec<(GameOutcome, u64)> = jobs
        .par_iter()
        .map(|&(p, cand_color, i)| {
            let started = Instant::now();
            let (c, b) = (candidate.build()?, baseline.build()?);
            let (white, black) = match cand_color {
                Color::White => (c.as_ref(), b.as_ref()),
                Color::Black => (b.as_ref(), c.as_ref()),
            };
            let outcome = play_timed_game(
                &suite.positions[p].position,
                white,
                black,
                game_seed(settings.seed, i),
                settings.limits,
                settings.time,
            )?;
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Ok((outcome, started.elapsed().as_millis() as u64))
        })
        .collect::<Result<_, ArenaError>>()?;
    let per_position = 2 * n as usize;
    let positions = suite
        .positions
        .iter()
        .enumerate()
        .map(|(p, pos)| {
            let chunk = &games[p * per_position..(p + 1) * per_position];
            let (as_white, as_black) = chunk.split_at(n as usize);
            let outcomes = |g: &[(GameOutcome, u64)]| g.iter().map(|x| x.0).collect::<Vec<_>>();
            let ms = chunk.iter().map(|x| x.1).sum();
            let res = MatchResult::of(&outcomes(as_white), &outcomes(as_black), ms);
            EndgamePositionReport::of(pos, compute_position_summary(pos.attacker_color, &res))
        })
        .collect();
    Ok(EndgameReport::of(
        suite,
        &candidate.id,
        &baseline.id,
        settings,
        positions,
    ))
}
