//! Bounded root decisions: a bot is asked to choose only when the rolled position's root
//! enumeration fits a work budget derived from the think time; otherwise a fast fallback is
//! played from the paths the budgeted walk proved legal.
//!
//! Why: a reachable-looking but huge position (nine queens rolled `QQQ`: 4.4 M turn paths)
//! took 7.8 s and 1.16 GB under a 1 s budget, because every bot enumerates the whole root
//! before its clock is consulted. The budgeted walk stores 8 bytes per path and stops at
//! its limit, so both the time and the memory of the check are bounded; when it fits, the
//! bot's own enumeration costs about the same again (at most the share of the think time
//! given here), and when it does not, the bot is never called.

use super::{first_shortest_win, Bot, BotError, Choice, Turn};
use crate::board::Position;
use crate::eval::Material;
use crate::rules::{Budget, Budgeted, TurnGenerator, TurnPath};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

/// Root work units (move-generation calls plus examined micro-moves) one decision may spend
/// whatever its think time. A legal path costs at least one unit, so this also caps the
/// paths a bot enumerates: expectimax keeps about 260 bytes per path (the path, its end
/// position, the after-state and its group), so 1 M units bound its root to about 260 MB.
/// Real games stay far below: Kiwipete rolled BNQ, 7,630 paths, costs 9,037 units.
pub const MAX_ROOT_UNITS: u64 = 1_000_000;

/// Root work units granted per millisecond of think time. `benches/root_budget.rs`
/// measured 42,000 to 45,000 units/ms on one core (nine queens QQQ: 1 M units in 22 ms;
/// Kiwipete BNQ: 9,037 units in 0.21 ms), so the check takes about a third of the think
/// time at most, leaving the rest to the bot.
pub const ROOT_UNITS_PER_MS: u64 = 15_000;

/// The floor of a timed root budget, so a tiny clock still enumerates ordinary positions
/// (Kiwipete BNQ fits twice over; about 0.5 ms of work).
pub const MIN_ROOT_UNITS: u64 = 20_000;

/// Paths scored by material when falling back (the first ones the walk proved legal).
const FALLBACK_SCORED: usize = 4096;

/// The root budget for a decision: [`MAX_ROOT_UNITS`], and with a think time, no more than
/// [`ROOT_UNITS_PER_MS`] per millisecond of it (at least [`MIN_ROOT_UNITS`]).
pub fn root_budget(think: Option<Duration>) -> Budget {
    let limit = match think {
        None => MAX_ROOT_UNITS,
        Some(t) => {
            let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
            ROOT_UNITS_PER_MS
                .saturating_mul(ms)
                .clamp(MIN_ROOT_UNITS, MAX_ROOT_UNITS)
        }
    };
    Budget::new(limit)
}

/// How a bounded decision was made.
#[derive(Clone, Debug, PartialEq)]
pub enum Bounded {
    /// The root fit the budget and the bot chose.
    Chosen(Choice),
    /// The root did not fit: the fallback (a king capture, else the best material among the
    /// first paths proven legal) was played without calling the bot.
    Fallback {
        /// The decision.
        choice: Choice,
        /// Root units spent before the budget ran out.
        units: u64,
        /// Paths proven legal when it ran out.
        sure_paths: usize,
    },
}

impl Bounded {
    /// The decision, however it was made.
    pub fn choice(&self) -> &Choice {
        match self {
            Bounded::Chosen(c) | Bounded::Fallback { choice: c, .. } => c,
        }
    }
}

/// Why a bounded decision failed.
#[derive(Debug, thiserror::Error)]
pub enum BoundedError {
    /// The budget ran out before any path was proven legal (no fallback exists).
    #[error(
        "the root enumeration ran out of its {limit}-unit budget before proving any path legal"
    )]
    NoSurePath {
        /// The budget's limit.
        limit: u64,
    },
    /// The bot failed.
    #[error(transparent)]
    Bot(#[from] BotError),
}

/// Let `bot` choose for `pos` if the root enumeration fits `budget`, else play the fallback.
pub fn choose_bounded(
    bot: &dyn Bot,
    pos: &Position,
    turn: &mut Turn<'_>,
    budget: &mut Budget,
) -> Result<Bounded, BoundedError> {
    bounded_by(pos, budget, || bot.choose(pos, turn))
}

/// Root work units of [`fast_bounded`]: 200,000 (about 5 ms of walk at the 42,000 units/ms
/// `benches/root_budget.rs` measured), 22 times Kiwipete rolled BNQ.
pub const FAST_ROOT_UNITS: u64 = 200_000;

/// [`Bot::fast_choice`] for `pos` if the root enumeration fits `budget`, else the
/// fallback: a legal turn at a bounded cost whatever the position.
pub fn fast_bounded(
    bot: &dyn Bot,
    pos: &Position,
    rng: &mut Xoshiro256PlusPlus,
    budget: &mut Budget,
) -> Result<Bounded, BoundedError> {
    bounded_by(pos, budget, || bot.fast_choice(pos, rng))
}

/// `decide` for `pos` if the root enumeration fits `budget`, else the fallback.
fn bounded_by(
    pos: &Position,
    budget: &mut Budget,
    decide: impl FnOnce() -> Result<Choice, BotError>,
) -> Result<Bounded, BoundedError> {
    let mut sure = Vec::new();
    match TurnGenerator::new().legal_paths_or_sure_subset(pos, budget, &mut sure) {
        Budgeted::Complete((), _) => {
            drop(sure);
            Ok(Bounded::Chosen(decide()?))
        }
        Budgeted::Incomplete(units) => {
            let path = fallback_path(pos, &sure).ok_or(BoundedError::NoSurePath {
                limit: budget.limit(),
            })?;
            Ok(Bounded::Fallback {
                choice: Choice {
                    path: Some(path),
                    score: 0.0,
                    stats: None,
                },
                units,
                sure_paths: sure.len(),
            })
        }
    }
}

/// The first shortest king capture, else the best material after the turn among the first
/// `FALLBACK_SCORED` (4096) paths (first on ties); `None` for an empty list.
pub fn fallback_path(pos: &Position, paths: &[TurnPath]) -> Option<TurnPath> {
    if let Some(win) = first_shortest_win(paths) {
        return Some(win);
    }
    let us = pos.side_to_move();
    let mut best: Option<(TurnPath, i32)> = None;
    for p in paths.iter().take(FALLBACK_SCORED) {
        let s = Material::score(&p.end_position(pos), us);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((*p, s));
        }
    }
    best.map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{bot_by_id, BotOptions};
    use crate::rules::legal_paths;
    use rand_xoshiro::rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    const NINE_QUEENS: &str = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1 QQQ";

    #[test]
    fn budgets_scale_with_time_and_stay_capped() {
        assert_eq!(root_budget(None).limit(), MAX_ROOT_UNITS);
        assert_eq!(
            root_budget(Some(Duration::from_millis(0))).limit(),
            MIN_ROOT_UNITS
        );
        assert_eq!(
            root_budget(Some(Duration::from_millis(10))).limit(),
            10 * ROOT_UNITS_PER_MS
        );
        assert_eq!(
            root_budget(Some(Duration::from_secs(3600))).limit(),
            MAX_ROOT_UNITS
        );
    }

    /// The greedy bot's bounded choice at `pos` (seed 1, no deadline).
    fn greedy_bounded(pos: &Position, budget: &mut Budget) -> Bounded {
        let bot = bot_by_id("greedy", &BotOptions::default()).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut turn = Turn {
            rng: &mut rng,
            deadline: None,
        };
        choose_bounded(bot.as_ref(), pos, &mut turn, budget).unwrap()
    }

    #[test]
    fn a_huge_root_falls_back_to_a_legal_path_without_the_bot() {
        let pos = Position::from_dfen(NINE_QUEENS).unwrap();
        let mut budget = Budget::new(100_000);
        let out = greedy_bounded(&pos, &mut budget);
        let Bounded::Fallback {
            choice, sure_paths, ..
        } = out
        else {
            panic!("nine queens fit 100,000 units: {out:?}");
        };
        assert!(sure_paths > 0);
        let path = choice.path.unwrap();
        // Every die spent: of maximal cost, hence legal.
        assert_eq!(path.cost() as usize, pos.dice().len());
        assert!(budget.is_exhausted());
    }

    #[test]
    fn an_ordinary_root_is_the_bots_choice() {
        let pos = Position::from_dfen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ",
        )
        .unwrap();
        let out = greedy_bounded(&pos, &mut root_budget(Some(Duration::from_millis(100))));
        let Bounded::Chosen(choice) = out else {
            panic!("Kiwipete BNQ did not fit: {out:?}");
        };
        assert!(legal_paths(&pos).contains(&choice.path.unwrap()));
    }

    #[test]
    fn the_fallback_prefers_a_king_capture() {
        // The white queen takes the king in one move.
        let pos = Position::from_dfen("4k3/8/8/8/8/8/8/4QK2 w - - 0 1 QQQ").unwrap();
        let paths = legal_paths(&pos);
        let p = fallback_path(&pos, &paths).unwrap();
        assert!(p.captures_king());
        assert_eq!(fallback_path(&pos, &[]), None);
    }
}
