//! The heuristic bots' evaluation terms (docs/search.md §3.2): king safety and the
//! aggressive king-hunt terms, and the [`BotEvaluator`] that combines them.

use super::{check_len, BatchEvaluator, EvalError, Material};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::probe::king_attacked;
use dicechess_kernels::{king_attacks, Color, PieceType, Square};
use rayon::prelude::*;

/// `KingExposurePenalty`: a king of the perspective colour stands attacked.
pub const KING_EXPOSURE_PENALTY: i32 = -2000;

/// `evaluateKingSafety(c)`: −2000 when some king of `color` is attacked by the other colour
/// (geometric, dice ignored), else 0.
#[inline]
pub fn king_safety(pos: &Position, color: Color) -> i32 {
    if king_attacked(pos, color) {
        KING_EXPOSURE_PENALTY
    } else {
        0
    }
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// `evaluateAggressive(c)`: material + own king safety, plus — when the opponent has a king
/// — pawn storm (15 per rank of advancement), king proximity ((8 − Chebyshev distance) × 40
/// Q / 25 R / 15 N, B) and king-ring pressure (25 per own attacker of each square next to the
/// enemy king).
pub fn aggressive_score(pos: &Position, color: Color) -> i32 {
    let base = Material::score(pos, color) + king_safety(pos, color);
    let Some(ek) = pos.piece_bb(color.opponent(), PieceType::King).first() else {
        return base;
    };
    let mut storm = 0;
    for sq in pos.piece_bb(color, PieceType::Pawn) {
        let rank = sq.rank() as i32 + 1;
        storm += 15
            * if color == Color::White {
                rank - 2
            } else {
                7 - rank
            };
    }
    let mut proximity = 0;
    for (piece, w) in [
        (PieceType::Knight, 15),
        (PieceType::Bishop, 15),
        (PieceType::Rook, 25),
        (PieceType::Queen, 40),
    ] {
        for sq in pos.piece_bb(color, piece) {
            proximity += (8 - chebyshev(sq, ek)) * w;
        }
    }
    let mut ring = 0;
    for sq in king_attacks(ek) {
        ring += 25 * pos.attackers(sq, color).count() as i32;
    }
    base + storm + proximity + ring
}

/// Which heuristic a [`BotEvaluator`] scores with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotTerms {
    /// Material plus own king safety (`evaluate`, the cautious-greedy bot).
    Cautious,
    /// [`aggressive_score`].
    Aggressive,
}

/// The bots' evaluator over batches: material + king safety, optionally the aggressive
/// terms, from each row's side-to-move view.
#[derive(Clone, Copy, Debug)]
pub struct BotEvaluator {
    /// The terms used.
    pub terms: BotTerms,
}

impl BotEvaluator {
    /// Score one position from `color`'s view.
    pub fn score(&self, pos: &Position, color: Color) -> i32 {
        match self.terms {
            BotTerms::Cautious => Material::score(pos, color) + king_safety(pos, color),
            BotTerms::Aggressive => aggressive_score(pos, color),
        }
    }
}

impl BatchEvaluator for BotEvaluator {
    fn id(&self) -> String {
        match self.terms {
            BotTerms::Cautious => "cautious".into(),
            BotTerms::Aggressive => "aggressive".into(),
        }
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        check_len(batch, out)?;
        out.par_iter_mut()
            .with_min_len(1024)
            .enumerate()
            .for_each(|(i, o)| {
                let p = batch.get(i);
                *o = self.score(&p, p.side_to_move()) as f32;
            });
        Ok(())
    }
}
