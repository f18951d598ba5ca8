//! The analyser: every turn of a game valued against the best turn of its roll, and every
//! roll against the average roll.

use super::classify::{LuckClass, TurnClass};
use super::game::Game;
use super::leaf::{ProbabilityLeaf, Scale};
use super::report::{summarize, GameAnalysis, TurnAnalysis};
use super::turns::{deepen, distinct_turns, RankedTurn};
use super::AnalysisError;
use crate::board::{Dice, Position};
use crate::eval::{score_to_win_probability, BatchEvaluator, DiceAware, Material};
use crate::probe::king_capture_probability;
use crate::rules::parse_uci_path;
use crate::search::{Labeller, Work, EXPANSION_UNITS};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Duration;
// `web_time::Instant` is `std::time::Instant` natively and works on wasm32 (Cargo.toml).
use web_time::Instant;

/// How deep and how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisConfig {
    /// 1: a turn is worth its afterstate's leaf; 2 (the default): every opponent roll and
    /// the opponent's best reply to it (the searched `a1` label, docs/labels.md).
    pub depth: u8,
    /// At depth 2, stop valuing a turn's candidates (best depth-1 first) after this long;
    /// the played turn and the depth-1 best are always valued. `None`: value every
    /// candidate (exact; the same result on every machine and thread count).
    pub time_ms: Option<u64>,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        AnalysisConfig {
            depth: 2,
            time_ms: None,
        }
    }
}

/// The bots whose leaf evaluator the analysis can take (`--bot`).
pub const ANALYSIS_BOTS: [&str; 3] = ["best", "best-v1", "expectimax"];

/// Values turns and rolls as win probabilities. `Send + Sync`: one analyser serves all
/// threads.
#[derive(Clone)]
pub struct Analyzer {
    leaf: Arc<ProbabilityLeaf>,
    labeller: Labeller,
    config: AnalysisConfig,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyzer")
            .field("leaf", &self.leaf.id())
            .field("config", &self.config)
            .finish()
    }
}

impl Analyzer {
    /// An analyser on `leaf`'s scores, read on `scale`.
    pub fn new(
        leaf: Arc<dyn BatchEvaluator>,
        scale: Scale,
        config: AnalysisConfig,
    ) -> Result<Analyzer, AnalysisError> {
        if !(1..=2).contains(&config.depth) {
            return Err(AnalysisError::Config(format!(
                "depth {} is not 1 or 2",
                config.depth
            )));
        }
        let leaf = Arc::new(ProbabilityLeaf::new(leaf, scale));
        Ok(Analyzer {
            labeller: Labeller::new(leaf.clone()),
            leaf,
            config,
        })
    }

    /// An analyser on the leaf evaluator of a bot of [`ANALYSIS_BOTS`]: `best` and `best-v1`
    /// search dice-aware leaves (their weights are the evaluator's defaults), `expectimax`
    /// material.
    pub fn for_bot(bot: &str, config: AnalysisConfig) -> Result<Analyzer, AnalysisError> {
        let leaf: Arc<dyn BatchEvaluator> = match bot.to_ascii_lowercase().as_str() {
            "best" | "best-v1" => Arc::new(DiceAware::default()),
            "expectimax" => Arc::new(Material),
            other => {
                return Err(AnalysisError::Config(format!(
                    "bot {other:?}: the analysis takes the leaf evaluator of {}",
                    ANALYSIS_BOTS.join(", ")
                )))
            }
        };
        Analyzer::new(leaf, Scale::Centipawns, config)
    }

    /// The evaluator's id (with its probability map).
    pub fn evaluator_id(&self) -> String {
        self.leaf.id()
    }

    /// The settings.
    pub fn config(&self) -> AnalysisConfig {
        self.config
    }

    /// Depth-1 equity of `pos` for its side to move before it rolls: each of the 56 rolls'
    /// best turn by the leaf, weighted (`p1`, docs/labels.md).
    pub fn equity_before(&self, pos: &Position) -> Result<f64, AnalysisError> {
        let p1 = self
            .labeller
            .p1(&pos.with_dice(Dice::EMPTY), &Work::new(EXPANSION_UNITS))?;
        Ok(score_to_win_probability(p1))
    }

    /// The distinct turns of the rolled `rolled`, best first: valued at depth 1, and at
    /// depth 2 (in the configuration's time) when the depth is 2; `must` (an afterstate) is
    /// always valued at the analysis depth. Turns valued at the analysis depth come first.
    pub fn ranked_turns(
        &self,
        rolled: &Position,
        must: Option<&Position>,
    ) -> Result<Vec<RankedTurn>, AnalysisError> {
        let mut turns = distinct_turns(rolled, &self.leaf)?;
        if self.config.depth == 2 {
            let at = must.and_then(|m| turns.iter().position(|t| t.after.key() == m.key()));
            let deadline = self
                .config
                .time_ms
                .map(|ms| Instant::now() + Duration::from_millis(ms));
            deepen(&mut turns, at, &self.labeller, deadline)?;
        }
        // Valued deeper first, then by equity, then the shortest king capture (the one every
        // bot plays); stable (generation order on ties).
        let capture_len =
            |t: &RankedTurn| t.path.filter(|p| p.captures_king()).map_or(0, |p| p.len());
        turns.sort_by(|a, b| {
            (b.equity2.is_some(), b.equity())
                .partial_cmp(&(a.equity2.is_some(), a.equity()))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(capture_len(a).cmp(&capture_len(b)))
        });
        Ok(turns)
    }

    /// Analyse one turn: the mover of `before` rolled `dice` and played `moves` (UCI; empty
    /// for a pass). `ids`: the game id and turn number written into the record.
    pub fn analyze_turn(
        &self,
        before: &Position,
        dice: &[u8],
        moves: &[String],
        ids: (&str, u32),
    ) -> Result<TurnAnalysis, AnalysisError> {
        let (game_id, turn_number) = ids;
        let fault = |message: String| AnalysisError::Turn {
            game_id: game_id.to_owned(),
            turn: turn_number,
            message,
        };
        let pool = Dice::from_faces(dice)
            .filter(|_| dice.len() == 3)
            .ok_or_else(|| fault(format!("dice {dice:?} are not three faces 1..6")))?;
        let before = before.with_dice(Dice::EMPTY);
        let rolled = before.with_dice(pool);
        let played_after = if moves.is_empty() {
            rolled.end_turn()
        } else {
            let parsed = parse_uci_path(&rolled, &moves.join(","))
                .map_err(|e| fault(format!("{}: {e}", moves.join(","))))?;
            crate::rules::legal_paths(&rolled)
                .into_iter()
                .find(|p| *p.moves() == *parsed)
                .ok_or_else(|| fault(format!("{} is not a legal turn", moves.join(","))))?
                .end_position(&rolled)
        };
        let turns = self.ranked_turns(&rolled, Some(&played_after))?;
        let played = turns
            .iter()
            .find(|t| t.after.key() == played_after.key())
            .ok_or_else(|| fault("the played turn is not among the roll's turns".into()))?;
        let best = &turns[0];
        let forced = turns.len() == 1;
        let error = if forced {
            0.0
        } else {
            (best.equity() - played.equity()).max(0.0)
        };
        let equity_before = self.equity_before(&before)?;
        let equity_after_roll = turns
            .iter()
            .map(|t| t.equity1)
            .fold(f64::NEG_INFINITY, f64::max);
        let luck = equity_after_roll - equity_before;
        let mover = before.side_to_move();
        Ok(TurnAnalysis {
            game_id: game_id.to_owned(),
            turn_number,
            active_color: mover.letter().to_string(),
            dice: dice.to_vec(),
            moves: moves.to_vec(),
            equity_before,
            equity_after_roll,
            luck,
            luck_class: LuckClass::of(luck),
            best_moves: best.moves(),
            best_equity: best.equity(),
            played_equity: played.equity(),
            error,
            class: TurnClass::of(error, forced),
            candidates: turns.len(),
            valued: turns
                .iter()
                .filter(|t| self.config.depth == 1 || t.equity2.is_some())
                .count(),
            king_risk: king_capture_probability(&played.after, mover),
            best_king_risk: king_capture_probability(&best.after, mover),
            fen_before: before.to_dfen(),
            fen_after: played_after.to_dfen(),
        })
    }

    /// Analyse every turn of `game` (on all cores: the turns are independent once their
    /// positions are known); `progress` is called once per finished turn.
    pub fn analyze_game(
        &self,
        game: &Game,
        progress: &(dyn Fn() + Sync),
    ) -> Result<GameAnalysis, AnalysisError> {
        let start = Position::from_dfen(&game.initial_dfen).map_err(|e| AnalysisError::Turn {
            game_id: game.game_id.clone(),
            turn: 0,
            message: format!("initialDfen: {e}"),
        })?;
        let mut befores = Vec::with_capacity(game.turns.len());
        let mut pos = start.with_dice(Dice::EMPTY);
        for t in &game.turns {
            befores.push(pos);
            pos = Position::from_dfen(&t.fen_after)
                .map_err(|e| AnalysisError::Turn {
                    game_id: game.game_id.clone(),
                    turn: t.turn_number,
                    message: format!("fenAfter: {e}"),
                })?
                .with_dice(Dice::EMPTY);
        }
        let turns = game
            .turns
            .par_iter()
            .zip(befores.par_iter())
            .map(|(t, before)| {
                let a =
                    self.analyze_turn(before, &t.dice, &t.moves, (&game.game_id, t.turn_number));
                progress();
                a
            })
            .collect::<Result<Vec<TurnAnalysis>, AnalysisError>>()?;
        let (white, black) = summarize(&turns, game.result, (&game.white, &game.black));
        Ok(GameAnalysis {
            game_id: game.game_id.clone(),
            initial_dfen: game.initial_dfen.clone(),
            result: game.result,
            termination: game.termination.clone(),
            evaluator: self.evaluator_id(),
            depth: self.config.depth,
            turns,
            white,
            black,
        })
    }
}
