//! Playing one game between two bots, reproducibly from a seed.

use super::record::{GameRecord, Termination, TurnRecord};
use crate::board::{Dice, Position};
use crate::search::bots::{Bot, Turn};
use crate::search::SearchError;
use dicechess_kernels::Color;
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::json;

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
) -> Result<GameRecord, SearchError> {
    let mut dice_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut bot_rngs = [
        Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5748_4954_4500_0000),
        Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x424c_4143_4b00_0000),
    ];
    let mut pos = start.with_dice(Dice::EMPTY);
    let mut turns = Vec::new();
    let mut result = 0i8;
    let mut termination = Termination::TurnLimit;
    for turn_number in 1..=limits.turns {
        let mover = pos.side_to_move();
        let faces: Vec<u8> = (0..3)
            .map(|_| (dice_rng.next_u64() % 6) as u8 + 1)
            .collect();
        let rolled = pos.with_dice(Dice::from_faces(&faces).unwrap_or(Dice::EMPTY));
        let bot = if mover == Color::White { white } else { black };
        let choice = bot.choose(
            &rolled,
            &mut Turn {
                rng: &mut bot_rngs[mover.index()],
                deadline: None,
            },
        )?;
        let (moves, next, king) = match choice.path {
            Some(p) => (
                p.moves().iter().map(|m| m.uci()).collect(),
                p.end_position(&rolled),
                p.captures_king(),
            ),
            None => (Vec::new(), rolled.end_turn(), false),
        };
        turns.push(TurnRecord {
            turn_number,
            active_color: mover.letter().to_string(),
            dice: faces,
            moves,
            fen_after: next.to_dfen(),
        });
        pos = next;
        if king {
            result = if mover == Color::White { 1 } else { -1 };
            termination = Termination::KingCapture;
            break;
        }
        if pos.halfmove() >= limits.halfmove {
            termination = Termination::HalfmoveLimit;
            break;
        }
    }
    Ok(GameRecord {
        game_id,
        initial_dfen: start.with_dice(Dice::EMPTY).to_dfen(),
        turns,
        result,
        termination,
        white: configs.0,
        black: configs.1,
        seed,
        limits: json!({ "halfmove": limits.halfmove, "turns": limits.turns }),
    })
}
