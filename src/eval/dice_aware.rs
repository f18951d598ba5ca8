//! The dice-aware evaluator: material plus what the next roll can do with it — the chance
//! that the side to move captures the enemy king at once, the opponent's direct threat on
//! our king, and hanging pieces on both sides.
//!
//! Why these terms: in Dice Chess the next event after a leaf is a roll, and a king that
//! stands attacked by a piece of type `t` is lost on the `216 − 125 = 91` rolls that show a
//! `t` (42 %). Material alone scores such a leaf like a quiet one. The terms are cheap
//! geometric tests (one attacker-type mask per king, two attacked-square sets), measured in
//! the arena against plain material at equal time (README "The strongest bot").

use super::UPPER_SCORE_BOUND;
use super::{check_len, BatchEvaluator, EvalError, Material};
use crate::batch::{LeafBatch, PositionBatch};
use crate::board::Position;
use crate::probe::{attacks_by_type, availability_probability, MATERIAL_VALUES};
use dicechess_kernels::Bitboard;
use dicechess_kernels::{Color, PieceType};
use rayon::prelude::*;

/// The weights of [`DiceAware`]'s terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiceAwareWeights {
    /// Value of the king capture that `p` stands for, on the material axis (≤ 10000).
    pub win: f32,
    /// Share of `win` lost per unit of the opponent's direct threat probability on our king
    /// (we move first and can often parry, so well below 1).
    pub threat: f32,
    /// Share of the opponent's hanging material counted for us (we move next).
    pub their_hanging: f32,
    /// Share of our hanging material counted against us (they move after us).
    pub our_hanging: f32,
}

impl Default for DiceAwareWeights {
    /// The weights the arena kept (README "The strongest bot"). `win` = 1500: against
    /// `aggressive` (untimed, 400 pairs, `best`'s search) 10000 scored 69.6 %, 5000 70.4 %,
    /// 2500 71.6 %, 1500 73.6 %, 1000 72.8 %. At 10000 a 10 % chance at the king outweighs
    /// a queen, and the bot gives material away for threats the opponent then parries.
    fn default() -> Self {
        DiceAwareWeights {
            win: 1500.0,
            threat: 0.25,
            their_hanging: 0.3,
            our_hanging: 0.15,
        }
    }
}

/// Material plus dice-aware king and hanging-piece terms, from each row's side to move.
///
/// With `p` the probability that the side to move's roll shows a type that attacks the enemy
/// king (a direct capture, [`availability_probability`]) and `q` the same for the
/// opponent on our king, the score is `p · win + (1 − p) · rest`, where `rest` = material +
/// `their_hanging` × their hanging material − `our_hanging` × ours − `threat` · `q` · `win`,
/// clamped to ±10000. `p` is a lower bound of the exact king-capture probability (captures
/// after a first move are not counted).
#[derive(Clone, Copy, Debug, Default)]
pub struct DiceAware {
    /// The weights.
    pub weights: DiceAwareWeights,
}

/// The probability that `attacker`'s roll shows a type that attacks the king of
/// `attacker`'s opponent directly (0 without a king), from `attacker`'s attack sets by type:
/// the types whose set holds a king's square are its attacker types. Play has one king a
/// side; a hand-made placement with more takes the union over them, which keeps the score
/// colour-symmetric (a "first" king would follow square order, which a flip reverses).
#[inline]
fn direct_king_threat(pos: &Position, attacker: Color, attacks: &[Bitboard; 6]) -> f32 {
    let kings = pos.piece_bb(attacker.opponent(), PieceType::King);
    let mask = PieceType::ALL
        .iter()
        .filter(|t| !(attacks[**t as usize] & kings).is_empty())
        .fold(0u8, |m, t| m | t.mask_bit());
    availability_probability(mask) as f32
}

/// The union of attack sets by type.
#[inline]
fn union(attacks: &[Bitboard; 6]) -> Bitboard {
    attacks.iter().fold(Bitboard::EMPTY, |a, &b| a | b)
}

impl DiceAware {
    /// Score one position from its side to move's view.
    pub fn score(&self, pos: &Position) -> f32 {
        self.score_as(pos, pos.side_to_move())
    }

    /// The score's formula with `us` in the mover's role (`us` rolls next), from `us`'s view:
    /// [`DiceAware::score`] is `score_as(pos, side to move)`. The `dice-terms-v1` feature
    /// schema reads it from a fixed colour too.
    pub fn score_as(&self, pos: &Position, us: Color) -> f32 {
        let them = us.opponent();
        // One attack set per type and side serves both the king threats and the hanging
        // pieces: the threats' own lookups from the king squares cost a fifth of the
        // evaluator (perf, middlegame leaves).
        let (ours_by_type, theirs_by_type) = (attacks_by_type(pos, us), attacks_by_type(pos, them));
        let p = direct_king_threat(pos, us, &ours_by_type);
        let q = direct_king_threat(pos, them, &theirs_by_type);
        let our_attacks = union(&ours_by_type);
        let their_attacks = union(&theirs_by_type);
        let non_king = !pos.pieces(PieceType::King);
        let theirs = pos.color(them) & non_king & our_attacks & !their_attacks;
        let ours = pos.color(us) & non_king & their_attacks & !our_attacks;
        self.combine(
            p,
            q,
            Material::score(pos, us) as f32,
            MATERIAL_VALUES.sum_on(pos, theirs) as f32,
            MATERIAL_VALUES.sum_on(pos, ours) as f32,
        )
    }

    /// The score from its terms: `p` and `q` the direct king-capture probabilities of the
    /// side that rolls next and of its opponent, `material` from the former's view, the
    /// material hanging on each side. [`DiceAware::score_as`] is this over the position's
    /// terms; the `dice-terms-v1` schema, which computes the terms anyway, calls it too.
    #[inline]
    pub fn combine(
        &self,
        p: f32,
        q: f32,
        material: f32,
        their_hanging: f32,
        our_hanging: f32,
    ) -> f32 {
        let w = &self.weights;
        let rest = material + w.their_hanging * their_hanging
            - w.our_hanging * our_hanging
            - w.threat * q * w.win;
        let limit = UPPER_SCORE_BOUND as f32;
        (p * w.win + (1.0 - p) * rest).clamp(-limit, limit)
    }
}

impl BatchEvaluator for DiceAware {
    fn id(&self) -> String {
        "dice-aware".into()
    }

    fn evaluate(&self, batch: &PositionBatch, out: &mut [f32]) -> Result<(), EvalError> {
        check_len(batch, out)?;
        // Rows are independent; small batches (a chance node's leaves are hundreds) stay on
        // the calling worker.
        out.par_iter_mut()
            .with_min_len(4096)
            .enumerate()
            .for_each(|(i, v)| *v = self.score(&batch.get(i)));
        Ok(())
    }

    /// The leaves scored as rows, where they are (no columns): see [`LeafBatch`].
    fn evaluate_leaves(&self, leaves: &mut LeafBatch) -> Result<bool, EvalError> {
        if leaves.is_empty() {
            return Ok(false);
        }
        let (rows, values) = leaves.rows_and_values_mut();
        for (v, p) in values.iter_mut().zip(rows) {
            *v = self.score(p);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(dfen: &str) -> Position {
        Position::from_dfen(dfen).unwrap()
    }

    #[test]
    fn a_quiet_position_scores_its_material() {
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(DiceAware::default().score(&p), 0.0);
    }

    #[test]
    fn an_attacked_enemy_king_is_worth_the_capture_chance() {
        // White to move, the white rook on e1 attacks the black king on e8 (one type: 91/216).
        let p = pos("4k3/8/8/8/8/8/8/K3R3 w - - 0 1");
        let w = DiceAwareWeights::default();
        let p_win = 91.0 / 216.0;
        let material = 500.0;
        let expect = p_win * w.win + (1.0 - p_win) * material;
        assert!((DiceAware::default().score(&p) - expect).abs() < 1e-2);
        // The same position with Black to move: Black's king is attacked, Black can't capture.
        let q = pos("4k3/8/8/8/8/8/8/K3R3 b - - 0 1");
        let expect_b = -material - w.threat * p_win * w.win;
        assert!((DiceAware::default().score(&q) - expect_b).abs() < 1e-2);
    }

    #[test]
    fn hanging_pieces_count_for_the_side_to_move() {
        // White to move; the black knight on d5 is attacked by the e4 pawn and undefended.
        let p = pos("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
        let w = DiceAwareWeights::default();
        let expect = -200.0 + w.their_hanging * 300.0;
        assert!((DiceAware::default().score(&p) - expect).abs() < 1e-3);
    }

    #[test]
    fn batch_scores_equal_row_scores() {
        let ps: Vec<Position> = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/K3R3 b - - 0 1",
            "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
        ]
        .iter()
        .map(|d| pos(d))
        .collect();
        let batch = PositionBatch::from_positions(&ps);
        let mut out = vec![0f32; ps.len()];
        let e = DiceAware::default();
        e.evaluate(&batch, &mut out).unwrap();
        for (p, v) in ps.iter().zip(&out) {
            assert_eq!(*v, e.score(p));
        }
        assert!(e.evaluate(&batch, &mut [0.0; 2]).is_err());
    }
}
