//! Playing one game between two bots, reproducibly from a seed.

use super::clock::{GameClock, TimeControl};
use super::record::{GameRecord, Termination, TurnRecord};
use crate::board::{Dice, Position};
use crate::bots::{Bot, BotError, Turn};
use crate::rules::roll_faces;
use dicechess_kernels::Color;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;
// `std::time::Instant` natively; the bots' deadline type on wasm32 too (Cargo.toml).
use web_time::Instant;

/// Draw adjudication (docs/rules.md §8, host policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLimits {
    /// Draw when the half-move clock (micro-moves) reaches this.
    pub halfmove: u8,
    /// Draw after this many turns.
    pub turns: u32,
}

impl Default for GameLimits {
    fn default() -> Self {
        GameLimits {
            halfmove: 100,
            turns: 300,
        }
    }
}

/// The seed of game `index` of a run seeded `run_seed` (SplitMix64 of both): a game is the
/// same whatever the thread count or the order games are scheduled in.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules or the draw adjudication.
    Rules(Termination),
    /// The side to move ran out of time (a clock only).
    TimeForfeit,
}

/// A game as the loop played it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The turns played (a turn lost on time is not among them).
    pub turns: Vec<TurnRecord>,
    /// The position before each of [`PlayedGame::turns`], with the dice rolled for it: what
    /// the mover saw (the training rows are built from these, not parsed back from the
    /// record's DFEN).
    pub rolled: Vec<Position>,
    /// Turns begun, the one lost on time included.
    pub played: u32,
    /// 1 White won, 0 draw, −1 Black won.
    pub result: i8,
    /// How it ended.
    pub ending: Ending,
}

/// Play one game from `start` (its dice ignored). The dice come from a generator seeded by
/// `seed` alone, so two games with the same seed see the same dice stream whoever plays
/// (colour-mirrored arena pairs rely on it); each bot's choices use its own generator seeded
/// from `seed` and its colour.
pub fn play_game(
    start: &Position,
    white: &dyn Bot,
    black: &dyn Bot,
    seed: u64,
    limits: GameLimits,
    game_id: String,
    configs: (serde_json::Value, serde_json::Value),
) -> Result<GameRecord, BotError> {
    let game = play(start, white, black, seed, limits, TimeControl::Untimed)?;
    Ok(game.into_record(start, seed, limits, game_id, configs))
}

impl PlayedGame {
    /// The game's record (the community's game-history shape) as [`play_game`] writes it:
    /// `start` (its dice ignored), the game's `seed` and `limits`, its id and the two bots'
    /// configurations. A time forfeit, which an untimed game never has, is recorded as the
    /// turn limit.
    pub fn into_record(
        self,
        start: &Position,
        seed: u64,
        limits: GameLimits,
        game_id: String,
        configs: (serde_json::Value, serde_json::Value),
    ) -> GameRecord {
        let termination = match self.ending {
            Ending::Rules(t) => t,
            Ending::TimeForfeit => Termination::TurnLimit,
        };
        GameRecord {
            game_id,
            initial_dfen: start.with_dice(Dice::EMPTY).to_dfen(),
            turns: self.turns,
            result: self.result,
            termination,
            white: configs.0,
            black: configs.1,
            seed,
            limits: json!({ "halfmove": limits.halfmove, "turns": limits.turns }),
        }
    }
}

/// The game loop, for every kind of game: the dice and bot generators as [`play_game`]
/// describes, each turn's deadline and clock from `time` ([`GameClock`]).
pub fn play(
    start: &Position,
    white: &dyn Bot,
    black: &dyn Bot,
    seed: u64,
    limits: GameLimits,
    time: TimeControl,
) -> Result<PlayedGame, BotError> {
    let mut dice_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut bot_rngs = [
        Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5748_4954_4500_0000),
        Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x424c_4143_4b00_0000),
    ];
    let mut clock = GameClock::new(time);
    let mut pos = start.with_dice(Dice::EMPTY);
    let mut game = PlayedGame {
        turns: Vec::new(),
        rolled: Vec::new(),
        played: 0,
        result: 0,
        ending: Ending::Rules(Termination::TurnLimit),
    };
    for turn_number in 1..=limits.turns {
        game.played = turn_number;
        let mover = pos.side_to_move();
        let faces = roll_faces(&mut dice_rng);
        let rolled = pos.with_dice(Dice::from_faces(&faces).unwrap_or(Dice::EMPTY));
        let bot = if mover == Color::White { white } else { black };
        let began = Instant::now();
        let choice = bot.choose(
            &rolled,
            &mut Turn {
                rng: &mut bot_rngs[mover.index()],
                deadline: clock.deadline(mover, &pos, began),
            },
        )?;
        if !clock.charge(mover, began) {
            game.result = if mover == Color::White { -1 } else { 1 };
            game.ending = Ending::TimeForfeit;
            break;
        }
        let (moves, next, king) = match choice.path {
            Some(p) => (
                p.moves().iter().map(|m| m.uci()).collect(),
                p.end_position(&rolled),
                p.captures_king(),
            ),
            None => (Vec::new(), rolled.end_turn(), false),
        };
        game.turns.push(TurnRecord {
            turn_number,
            active_color: mover.letter().to_string(),
            dice: faces.to_vec(),
            moves,
            fen_after: next.to_dfen(),
        });
        game.rolled.push(rolled);
        pos = next;
        if king {
            game.result = if mover == Color::White { 1 } else { -1 };
            game.ending = Ending::Rules(Termination::KingCapture);
            break;
        }
        if pos.halfmove() >= limits.halfmove {
            game.ending = Ending::Rules(Termination::HalfmoveLimit);
            break;
        }
    }
    Ok(game)
}
