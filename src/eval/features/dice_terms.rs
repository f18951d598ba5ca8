//! `dice-terms-v1` (docs/features.md §9): the dice-aware evaluator's score and its terms, and
//! the threats one roll can carry out, from one attack set per type and side.
//!
//! Why this schema: a value net that reads the board alone has to learn again what the
//! dice-aware evaluator computes by hand (who can hit whose king on the next roll, what
//! hangs), and loses to it (README "Value models"); the searched `p1` labels the nets train
//! on are *made* of those terms. Here they are inputs, beside what they leave out (the best
//! capture by a cheaper piece, the chance that a roll brings a capture at all, pawns near
//! promotion, the king's ring), so that a net learns a correction to the evaluator rather
//! than the evaluator itself. All twenty columns come from the two `attacks_by_type` sets
//! the evaluator already builds: `benches/native_mlp.rs` measures the cost per row.

use super::FeatureSchema;
use crate::board::Position;
use crate::eval::{DiceAware, Material};
use crate::probe::{attacks_by_type, availability_probability, MATERIAL_VALUES};
use dicechess_kernels::{king_attacks, Bitboard, Color, PieceType};

static COLUMNS: [&str; 20] = [
    "dice_aware_win",
    "material_diff",
    "own_king_hit",
    "opponent_king_hit",
    "opponent_hanging",
    "own_hanging",
    "own_material",
    "opponent_material",
    "opponent_best_hanging",
    "own_best_hanging",
    "opponent_best_gain",
    "own_best_gain",
    "own_capture_roll",
    "opponent_capture_roll",
    "own_mobility",
    "opponent_mobility",
    "own_advanced_pawns",
    "opponent_advanced_pawns",
    "opponent_king_ring",
    "own_king_ring",
];

/// `dice-terms-v1`, 20 columns from `color`'s view ("own" is `color`, which is treated as the
/// side that rolls next): `dice_aware_win` = 0.5 + [`DiceAware::score_as`] / 20 000 (the
/// evaluator's score on the win-probability axis of the labels); `material_diff` (÷ 1000);
/// the direct king-capture probabilities of each side's next roll; each side's hanging
/// material (attacked, undefended, kings excluded; ÷ 1000); each side's non-king material
/// (÷ 1000); the most valuable hanging piece of each side (÷ 1000); each side's best gain
/// by one capture, `victim − cheapest attacker` when defended, `victim` when not (≥ 0,
/// ÷ 1000); the probability that a roll shows a type that gains material by a capture;
/// attacked squares not held by own pieces (÷ 64); pawns on their sixth or seventh rank;
/// squares of the enemy king's ring each side attacks (÷ 8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiceTerms20;

/// One side's capture terms against the other's pieces.
struct Captures {
    hanging: i32,
    best_hanging: i32,
    best_gain: i32,
    gain_types: u8,
}

/// `by`'s captures of `victim_color`'s non-king pieces: `by_att` are `by`'s attacks by type,
/// `defended` the squares `victim_color` attacks.
///
/// Set-wise, per (victim type, attacker type) pair: a loose victim (attacked, undefended)
/// gains its whole value to any attacker; a guarded one gains `victim − attacker` to each
/// cheaper attacker. The first form walked the victims square by square and tested every
/// attacker type per square: 22 % of a `best-net` Kiwipete decision (perf); tests/dice_terms.rs
/// holds the square-by-square reference it must equal.
#[inline]
fn captures(
    pos: &Position,
    victim_color: Color,
    by_att: &[Bitboard; 6],
    defended: Bitboard,
) -> Captures {
    let all = by_att.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    let mut c = Captures {
        hanging: 0,
        best_hanging: 0,
        best_gain: 0,
        gain_types: 0,
    };
    for vt in &PieceType::ALL[..5] {
        let victims = pos.piece_bb(victim_color, *vt) & all;
        if victims.is_empty() {
            continue;
        }
        let value = MATERIAL_VALUES.price(*vt);
        let (loose, guarded) = (victims & !defended, victims & defended);
        if !loose.is_empty() {
            c.hanging += value * loose.count() as i32;
            c.best_hanging = c.best_hanging.max(value);
        }
        for at in &PieceType::ALL {
            let hits = by_att[*at as usize];
            let guarded_gain = value - MATERIAL_VALUES.price(*at);
            let gain = if value > 0 && (loose & hits).any() {
                value
            } else if guarded_gain > 0 && (guarded & hits).any() {
                guarded_gain
            } else {
                continue;
            };
            c.best_gain = c.best_gain.max(gain);
            c.gain_types |= at.mask_bit();
        }
    }
    c
}

/// The probability that `attacker`'s roll shows a type attacking an enemy king, and the
/// enemy kings' ring. A legal position has one king a side; a hand-made one may have
/// more, and then the union over all of them keeps the row colour-symmetric (taking the
/// "first" king would depend on square order, which a colour flip reverses).
#[inline]
fn king_hit(pos: &Position, attacker: Color, att: &[Bitboard; 6]) -> (f32, Bitboard) {
    let kings = pos.piece_bb(attacker.opponent(), PieceType::King);
    if kings.is_empty() {
        return (0.0, Bitboard::EMPTY);
    }
    let mut mask = 0u8;
    let mut ring = Bitboard::EMPTY;
    for k in kings {
        mask |= PieceType::ALL
            .iter()
            .filter(|t| att[**t as usize].contains(k))
            .fold(0u8, |m, t| m | t.mask_bit());
        ring |= king_attacks(k);
    }
    (availability_probability(mask) as f32, ring)
}

/// Pawns of `color` on their sixth or seventh rank.
#[inline]
fn advanced_pawns(pos: &Position, color: Color) -> f32 {
    let ranks = match color {
        Color::White => Bitboard::rank(5) | Bitboard::rank(6),
        Color::Black => Bitboard::rank(2) | Bitboard::rank(1),
    };
    (pos.piece_bb(color, PieceType::Pawn) & ranks).count() as f32
}

impl DiceTerms20 {
    /// The frozen schema id.
    pub const ID: &'static str = "dice-terms-v1";

    /// The twenty values of one position from `color`'s view.
    pub fn fill(pos: &Position, color: Color, out: &mut [f32; 20]) {
        let opp = color.opponent();
        let (own_att, opp_att) = (attacks_by_type(pos, color), attacks_by_type(pos, opp));
        let union = |a: &[Bitboard; 6]| a.iter().fold(Bitboard::EMPTY, |x, &b| x | b);
        let (own_all, opp_all) = (union(&own_att), union(&opp_att));
        let (own_hit, opp_ring) = king_hit(pos, color, &own_att);
        let (opp_hit, own_ring) = king_hit(pos, opp, &opp_att);
        let ours = captures(pos, opp, &own_att, opp_all);
        let theirs = captures(pos, color, &opp_att, own_all);
        let non_king = !pos.pieces(PieceType::King);
        let material = |c: Color| MATERIAL_VALUES.sum_on(pos, pos.color(c) & non_king) as f32;
        let material_diff = Material::score(pos, color) as f32;
        // The evaluator's own formula over the terms computed here (one attack-set pair, not
        // two): equal to `DiceAware::score_as` (tests/dice_terms.rs).
        let dice_aware = DiceAware::default().combine(
            own_hit,
            opp_hit,
            material_diff,
            ours.hanging as f32,
            theirs.hanging as f32,
        );
        *out = [
            0.5 + dice_aware / 20_000.0,
            material_diff / 1000.0,
            own_hit,
            opp_hit,
            ours.hanging as f32 / 1000.0,
            theirs.hanging as f32 / 1000.0,
            material(color) / 1000.0,
            material(opp) / 1000.0,
            ours.best_hanging as f32 / 1000.0,
            theirs.best_hanging as f32 / 1000.0,
            ours.best_gain as f32 / 1000.0,
            theirs.best_gain as f32 / 1000.0,
            availability_probability(ours.gain_types) as f32,
            availability_probability(theirs.gain_types) as f32,
            (own_all & !pos.color(color)).count() as f32 / 64.0,
            (opp_all & !pos.color(opp)).count() as f32 / 64.0,
            advanced_pawns(pos, color),
            advanced_pawns(pos, opp),
            (opp_ring & own_all).count() as f32 / 8.0,
            (own_ring & opp_all).count() as f32 / 8.0,
        ];
    }
}

impl FeatureSchema for DiceTerms20 {
    schema_names!(DiceTerms20::ID, &COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        DiceTerms20::fill(pos, color, super::prefix::<20>(out));
    }
}
