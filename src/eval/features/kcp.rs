//! `kcp-13` (docs/features.md §5), `kcp-mobility-27-v1` (§6) and `kcp-mobility-pawns-31-v1` (§7):
//! rich-9 plus king- and queen-capture probabilities, then per-type mobility and PDI, then
//! passed pawns. Each schema fills the narrower one's columns first by calling it.

use super::rich::pdi_value;
use super::{concat_names, prefix, FeatureSchema, Rich9};
use crate::board::Position;
use crate::probe::{king_capture_rolls, mobility, queen_capture_rolls, PassedPawns};
use crate::rules::ROLL_DENOMINATOR;
use dicechess_kernels::Color;

static KCP_13_COLUMNS: [&str; 13] = concat_names(
    &super::rich::RICH_9_COLUMNS,
    &[
        "king_capture_attack",
        "king_capture_danger",
        "queen_capture_attack",
        "queen_capture_danger",
    ],
);

static KCP_MOBILITY_27_COLUMNS: [&str; 27] = concat_names(
    &KCP_13_COLUMNS,
    &[
        "own_moves_p",
        "own_moves_n",
        "own_moves_b",
        "own_moves_r",
        "own_moves_q",
        "own_moves_k",
        "opp_moves_p",
        "opp_moves_n",
        "opp_moves_b",
        "opp_moves_r",
        "opp_moves_q",
        "opp_moves_k",
        "own_pdi",
        "opp_pdi",
    ],
);

static KCP_MOBILITY_PAWNS_31_COLUMNS: [&str; 31] = concat_names(
    &KCP_MOBILITY_27_COLUMNS,
    &[
        "own_passed_pawns",
        "opp_passed_pawns",
        "own_passed_max_rank",
        "opp_passed_max_rank",
    ],
);

/// A count of rolls out of 216 as a probability: `rolls as f32 / 216.0`, one correctly
/// rounded `f32` division of two exact values (for every count 0..=216 this equals rounding
/// the `f64` quotient to `f32`).
#[inline(always)]
pub fn roll_probability(rolls: u32) -> f32 {
    rolls as f32 / ROLL_DENOMINATOR as f32
}

/// `kcp-13` (`KcpFeatures`; id deliberately unversioned), 13 columns: [`Rich9`]'s nine, then
/// over the 216 rolls of the relevant side's next roll (docs/rules.md §6):
/// `king_capture_attack` = [`king_capture_rolls`]`(pos, opponent)`/216 (`color` captures an
/// opponent king), `king_capture_danger` = `king_capture_rolls(pos, color)`/216,
/// `queen_capture_attack` = [`queen_capture_rolls`]`(pos, opponent)`/216 and
/// `queen_capture_danger` = `queen_capture_rolls(pos, color)`/216.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kcp13;

impl Kcp13 {
    /// The frozen schema id.
    pub const ID: &'static str = "kcp-13";

    /// The thirteen values of one position.
    #[inline]
    fn fill(pos: &Position, color: Color, out: &mut [f32; 13]) {
        let opp = color.opponent();
        Rich9::fill(pos, color, prefix::<9>(out));
        out[9] = roll_probability(king_capture_rolls(pos, opp));
        out[10] = roll_probability(king_capture_rolls(pos, color));
        out[11] = roll_probability(queen_capture_rolls(pos, opp));
        out[12] = roll_probability(queen_capture_rolls(pos, color));
    }
}

impl FeatureSchema for Kcp13 {
    schema_names!(Kcp13::ID, &KCP_13_COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        Kcp13::fill(pos, color, prefix::<13>(out));
    }
}

/// `kcp-mobility-27-v1` (`KcpMobilityFeatures`), 27 columns: [`Kcp13`]'s thirteen, then
/// `own_moves_p … own_moves_k` and `opp_moves_p … opp_moves_k` — pseudo-legal move counts
/// per moving type in die-face order as if that colour were to move with the dice pool
/// {K, R} ([`mobility`]; Σ own − Σ opp = `mobility_diff`) — then `own_pdi`, `opp_pdi` (PDI/5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KcpMobility27;

impl KcpMobility27 {
    /// The frozen schema id.
    pub const ID: &'static str = "kcp-mobility-27-v1";

    /// The twenty-seven values of one position.
    #[inline]
    fn fill(pos: &Position, color: Color, out: &mut [f32; 27]) {
        let opp = color.opponent();
        Kcp13::fill(pos, color, prefix::<13>(out));
        for (o, m) in out[13..19].iter_mut().zip(mobility(pos, color)) {
            *o = m as f32;
        }
        for (o, m) in out[19..25].iter_mut().zip(mobility(pos, opp)) {
            *o = m as f32;
        }
        out[25] = pdi_value(pos, color);
        out[26] = pdi_value(pos, opp);
    }
}

impl FeatureSchema for KcpMobility27 {
    schema_names!(KcpMobility27::ID, &KCP_MOBILITY_27_COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        KcpMobility27::fill(pos, color, prefix::<27>(out));
    }
}

/// `kcp-mobility-pawns-31-v1` (`KcpMobilityPawnsFeatures`), 31 columns:
/// [`KcpMobility27`]'s twenty-seven, then `own_passed_pawns`, `opp_passed_pawns` (counts)
/// and `own_passed_max_rank`, `opp_passed_max_rank` (advancement of the most advanced passed
/// pawn from its own back rank, White `r − 1`, Black `8 − r`, 0 if none; [`PassedPawns`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KcpMobilityPawns31;

impl KcpMobilityPawns31 {
    /// The frozen schema id.
    pub const ID: &'static str = "kcp-mobility-pawns-31-v1";
}

impl FeatureSchema for KcpMobilityPawns31 {
    schema_names!(KcpMobilityPawns31::ID, &KCP_MOBILITY_PAWNS_31_COLUMNS);

    fn extract_row(&self, pos: &Position, color: Color, out: &mut [f32]) {
        let out = prefix::<31>(out);
        KcpMobility27::fill(pos, color, prefix::<27>(out));
        let own = PassedPawns::new(pos, color);
        let opp = PassedPawns::new(pos, color.opponent());
        out[27] = own.count as f32;
        out[28] = opp.count as f32;
        out[29] = own.max_rank as f32;
        out[30] = opp.max_rank as f32;
    }
}
