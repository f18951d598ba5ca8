//! The one-ply bots: random, random-king-capture, checkmate-aware and the greedy family.

use super::{exposed, Bot, BotError, BotInfo, Choice, DrawDoublePolicy, Turn};
use crate::board::Position;
use crate::eval::{aggressive_score, king_safety, Material};
use crate::rules::{legal_paths, TurnPath};
use rand_core::Rng;

fn pick<T: Copy>(items: &[T], turn: &mut Turn<'_>) -> T {
    items[(turn.rng.next_u64() % items.len() as u64) as usize]
}

fn info(id: &str, name: &str, difficulty: u8, description: &str) -> BotInfo {
    BotInfo {
        id: id.into(),
        name: name.into(),
        difficulty,
        description: description.into(),
    }
}

/// A uniformly random legal turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    fn info(&self) -> BotInfo {
        info("random", "Random", 1, "plays a uniformly random legal turn")
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let paths = legal_paths(pos);
        if paths.is_empty() {
            return Ok(Choice::pass());
        }
        let p = pick(&paths, turn);
        let after = p.end_position(pos);
        Ok(Choice {
            path: Some(p),
            score: -Material::score(&after, after.side_to_move()) as f64,
            stats: None,
        })
    }

    fn policy(&self) -> DrawDoublePolicy {
        DrawDoublePolicy::Random
    }
}

/// Random, except that a king capture available with the first micro-move is taken.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomKingCapture;

impl Bot for RandomKingCapture {
    fn info(&self) -> BotInfo {
        info(
            "random-king-capture",
            "Random King Capture",
            2,
            "random, but captures the king when its first micro-move can",
        )
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let paths = legal_paths(pos);
        if paths.is_empty() {
            return Ok(Choice::pass());
        }
        let immediate: Vec<TurnPath> = paths
            .iter()
            .filter(|p| p.len() == 1 && p.captures_king())
            .copied()
            .collect();
        if !immediate.is_empty() {
            return Ok(Choice::win(pick(&immediate, turn)));
        }
        RandomBot.choose(pos, turn)
    }
}

/// Takes any king capture, else keeps its own king unattacked, material-blind.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckmateAware;

impl Bot for CheckmateAware {
    fn info(&self) -> BotInfo {
        info(
            "checkmate-aware",
            "Checkmate Aware",
            3,
            "takes king captures, keeps its own king safe, ignores material",
        )
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let paths = legal_paths(pos);
        if paths.is_empty() {
            return Ok(Choice::pass());
        }
        let wins: Vec<TurnPath> = paths
            .iter()
            .filter(|p| p.captures_king())
            .copied()
            .collect();
        if !wins.is_empty() {
            return Ok(Choice::win(pick(&wins, turn)));
        }
        let us = pos.side_to_move();
        let safe: Vec<TurnPath> = paths
            .iter()
            .filter(|p| !exposed(&p.end_position(pos), us))
            .copied()
            .collect();
        let pool = if safe.is_empty() { &paths } else { &safe };
        Ok(Choice {
            path: Some(pick(pool, turn)),
            score: 0.0,
            stats: None,
        })
    }
}

/// Which one-ply score a [`Greedy`] bot maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GreedyTerms {
    /// Material only (`greedy`).
    Material,
    /// Material + own king exposure (`cautious-greedy`).
    Cautious,
    /// The aggressive king-hunt terms (`aggressive`).
    Aggressive,
}

/// One-ply: maximise (score, shortest win) over all legal turns, ties uniformly at random.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    /// The score.
    pub terms: GreedyTerms,
}

impl Bot for Greedy {
    fn info(&self) -> BotInfo {
        match self.terms {
            GreedyTerms::Material => info(
                "greedy",
                "Greedy",
                4,
                "maximises material after its turn, no look-ahead",
            ),
            GreedyTerms::Cautious => info(
                "cautious-greedy",
                "Cautious Greedy",
                5,
                "material plus a penalty when its own king is left attacked",
            ),
            GreedyTerms::Aggressive => info(
                "aggressive",
                "Aggressive",
                6,
                "king hunt: pawn storm, piece proximity and king-ring pressure",
            ),
        }
    }

    fn choose(&self, pos: &Position, turn: &mut Turn<'_>) -> Result<Choice, BotError> {
        let paths = legal_paths(pos);
        if let Some(forced) = Choice::forced(&paths) {
            return Ok(forced);
        }
        let us = pos.side_to_move();
        let scores: Vec<i32> = paths
            .iter()
            .map(|p| {
                let after = p.end_position(pos);
                match self.terms {
                    GreedyTerms::Material => Material::score(&after, us),
                    GreedyTerms::Cautious => Material::score(&after, us) + king_safety(&after, us),
                    GreedyTerms::Aggressive => aggressive_score(&after, us),
                }
            })
            .collect();
        let best = *scores.iter().max().expect("paths exist");
        let tied: Vec<TurnPath> = paths
            .iter()
            .zip(&scores)
            .filter(|(_, &s)| s == best)
            .map(|(p, _)| *p)
            .collect();
        Ok(Choice {
            path: Some(pick(&tied, turn)),
            score: best as f64,
            stats: None,
        })
    }

    fn policy(&self) -> DrawDoublePolicy {
        match self.terms {
            GreedyTerms::Material => DrawDoublePolicy::Default,
            GreedyTerms::Cautious => DrawDoublePolicy::Cautious,
            GreedyTerms::Aggressive => DrawDoublePolicy::Aggressive,
        }
    }
}
