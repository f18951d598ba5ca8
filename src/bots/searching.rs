//! The searching bots: expectimax (material or model leaves) and Monte-Carlo.

use super::{Bot, BotError, BotInfo, Choice, DrawDoublePolicy, Turn};
use crate::board::Position;
use crate::eval::Material;
use crate::rules::legal_paths;
use crate::search::Expectimax;
use crate::search::{equity, MonteCarloConfig};
use dicechess_kernels::Color;
use rand_core::Rng;
use rand_xoshiro::rand_core::SeedableRng;

/// Expectimax at depth 2 or 3 behind the [`Bot`] trait, deepening by its [`Deepening`].
pub struct ExpectimaxBot {
    /// The searcher.
    pub search: Expectimax,
    /// A depth-3 searcher tried after `search` as `deepening` says (see
    /// [`ExpectimaxBot::choose`]); `None`: `search` alone.
    pub deeper: Option<Expectimax>,
    /// When `deeper` runs and when its answer is played.
    pub deepening: Deepening,
    /// Wider selective depth-3 searchers (more replies per roll class each) that
    /// [`Deepening::Iterative`] tries in turn under a clock while time is left after
    /// `deeper`: empty for every bot but those that widen (see [`ExpectimaxBot::choose`]).
    pub wider: Vec<Expectimax>,
    /// Its registry entry.
    pub info: BotInfo,
}

/// How an [`ExpectimaxBot`] goes from its depth-2 search to its depth-3 searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deepening {
    /// Wave 2's rule, kept by `best-v1` and `expectimax`: only under a clock, when at least
    /// [`DEEPEN_TIME_RATIO`] times the depth-2 search's time is left, a depth-3 search of the
    /// same candidates, played only when it resolved every candidate.
    Clock,
    /// Iterative deepening (docs/search.md §4.7): after every depth-2 search (untimed too),
    /// a depth-3 search of the depth-2 search's best candidates, best first
    /// ([`Expectimax::search_deeper`]). Under a clock it starts when at least `ratio` times
    /// the depth-2 search's time is left; its answer is played when it resolved the depth-2
    /// search's best candidate (the pick is then a turn searched at depth 3 that is at
    /// least as good, at depth 3, as the depth-2 choice).
    Iterative {
        /// Times the depth-2 search's time that must be left on the clock.
        ratio: u32,
    },
}

/// The position a searching bot's [`Bot::warm_up`] searches: Kiwipete rolled BNQ, 7,630
/// turn paths and 20,989 distinct successors over the 56 rolls, among the richest
/// middlegames, so that a server's buffers start near the size its games will need.
pub const WARM_UP_POSITION: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ";

/// How many times the last depth-3 search's time must still be left on the clock for the next
/// wider one to start ([`ExpectimaxBot::wider`]): doubling the replies per roll class about
/// doubles the cost, so a ratio of 3 lets the wider search usually finish its first
/// candidate, which is all its answer needs to be played.
pub const WIDEN_TIME_RATIO: u32 = 3;

/// How many times the finished shallow search's time must still be left on the clock for
/// the deeper one to start ([`Deepening::Clock`]). Depth 3 costs one depth-2 search per
/// reply of every candidate (tens to hundreds of times more); under this ratio it would
/// almost never finish, and the time spent on a search that is then discarded is lost from
/// the clock.
pub const DEEPEN_TIME_RATIO: u32 = 20;

impl Bot for ExpectimaxBot {
    fn info(&self) -> BotInfo {
        self.info.clone()
    }

    /// Search with `search`; then deepen with `deeper` as [`ExpectimaxBot::deepening`] says
    /// and play the deepest answer that qualifies. [`Deepening::Clock`] never deepens
    /// without a deadline, so untimed play of those bots is depth 2.
    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let started = web_time::Instant::now();
        let r = self.search.search(pos, turn.deadline, turn.rng)?;
        let choice = |r: &crate::search::SearchResult| Choice {
            path: r.path,
            score: r.score,
            stats: Some(r.stats),
        };
        let Some(deeper) = &self.deeper else {
            return Ok(choice(&r));
        };
        let decided = r.stats.candidates_selected > 0 && r.stats.candidates_abandoned == 0;
        if !decided {
            return Ok(choice(&r));
        }
        let shallow = started.elapsed();
        let time_left = |ratio: u32| match turn.deadline {
            Some(d) => d.saturating_duration_since(web_time::Instant::now()) >= shallow * ratio,
            None => true,
        };
        match self.deepening {
            Deepening::Clock => {
                let Some(deadline) = turn.deadline else {
                    return Ok(choice(&r));
                };
                if !time_left(DEEPEN_TIME_RATIO) {
                    return Ok(choice(&r));
                }
                let d = deeper.search(pos, Some(deadline), turn.rng)?;
                if d.stats.candidates_abandoned == 0 && !d.stats.fell_back_to_pre_rank {
                    return Ok(choice(&d));
                }
            }
            Deepening::Iterative { ratio } => {
                if !time_left(ratio) {
                    return Ok(choice(&r));
                }
                let qualifies = |d: &crate::search::SearchResult| {
                    d.candidates.first().is_some_and(|c| c.resolved)
                        && !d.stats.fell_back_to_pre_rank
                };
                let mut last = web_time::Instant::now();
                let d = deeper.search_deeper(pos, turn.deadline, turn.rng, &r)?;
                if !qualifies(&d) {
                    return Ok(choice(&r));
                }
                // Under a clock, widen while the time left covers the next search: each
                // wider one orders its candidates by the last answer, so its first is the
                // move that answer plays, and it is played only once that one resolved.
                let mut best = d;
                let Some(deadline) = turn.deadline else {
                    return Ok(choice(&best));
                };
                for wide in &self.wider {
                    let took = last.elapsed();
                    if deadline.saturating_duration_since(web_time::Instant::now())
                        < took * WIDEN_TIME_RATIO
                    {
                        break;
                    }
                    last = web_time::Instant::now();
                    let w = wide.search_deeper(pos, Some(deadline), turn.rng, &best)?;
                    if !qualifies(&w) {
                        break;
                    }
                    best = w;
                }
                return Ok(choice(&best));
            }
        }
        Ok(choice(&r))
    }

    /// The pre-ranker's pick: the search under a deadline already passed stops after its
    /// one batched pre-rank of every after-state (a forced pass or king capture first).
    fn fast_choice(
        &self,
        pos: &Position,
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
    ) -> Result<Choice, BotError> {
        let r = self
            .search
            .search(pos, Some(web_time::Instant::now()), rng)?;
        Ok(Choice {
            path: r.path,
            score: r.score,
            stats: Some(r.stats),
        })
    }

    /// Searches [`WARM_UP_POSITION`] once (so the threads of the current pool grow their
    /// search buffers to a rich middlegame's size; at most a second), then clears (so writes
    /// every page of) the searchers' tables.
    fn warm_up(&self) {
        let pos = Position::from_dfen(WARM_UP_POSITION).expect("a valid DFEN");
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0);
        let deadline = web_time::Instant::now() + std::time::Duration::from_secs(1);
        let _ = self.search.search(&pos, Some(deadline), &mut rng);
        for search in std::iter::once(&self.search).chain(self.deeper.as_ref()) {
            if let Some(table) = search.table() {
                table.clear();
            }
        }
    }

    fn policy(&self) -> DrawDoublePolicy {
        DrawDoublePolicy::Aggressive
    }
}

/// Monte-Carlo: the top candidates by material, each scored by a Rao-Blackwellised equity
/// estimate of its after-state; the strict best wins (first on ties).
pub struct MonteCarloBot {
    /// Rollout settings per candidate (the seed is replaced per decision from the game's
    /// generator, so games stay reproducible).
    pub config: MonteCarloConfig,
    /// Candidates estimated.
    pub candidates: usize,
}

impl Default for MonteCarloBot {
    fn default() -> Self {
        MonteCarloBot {
            config: MonteCarloConfig {
                rollouts: 120,
                max_plies: 40,
                ..MonteCarloConfig::default()
            },
            candidates: 16,
        }
    }
}

impl Bot for MonteCarloBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            id: "monte-carlo".into(),
            name: "Monte-Carlo".into(),
            difficulty: 7,
            description: "Rao-Blackwellised rollouts over the best material candidates".into(),
        }
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let paths = legal_paths(pos);
        if let Some(forced) = Choice::forced(&paths) {
            return Ok(forced);
        }
        let us = pos.side_to_move();
        let mut scored: Vec<(usize, i32)> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| (i, Material::score(&p.end_position(pos), us)))
            .collect();
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        scored.truncate(self.candidates);
        let mut best: Option<(usize, f64)> = None;
        for (k, &(i, _)) in scored.iter().enumerate() {
            if k > 0 && turn.deadline.is_some_and(|d| web_time::Instant::now() >= d) {
                break;
            }
            let after = paths[i].end_position(pos);
            let config = MonteCarloConfig {
                seed: turn.rng.next_u64(),
                ..self.config
            };
            let e = equity(&after, &config, turn.deadline);
            let win = match us {
                Color::White => e.white_win,
                Color::Black => e.black_win,
            };
            if best.is_none_or(|(_, b)| win > b) {
                best = Some((i, win));
            }
        }
        let (i, win) = best.unwrap_or((scored[0].0, 0.0));
        Ok(Choice {
            path: Some(paths[i]),
            score: (win * 1e6).round(),
            stats: None,
        })
    }

    fn policy(&self) -> DrawDoublePolicy {
        DrawDoublePolicy::MonteCarlo
    }
}
