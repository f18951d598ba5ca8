//! Every exact probe of a position, for both colours, as one typed report ([`ProbeReport`]):
//! what `dicechess probe` prints (as JSON, in the field order here) and the Python
//! package's `dicechess.probe` returns.

use super::{
    attacker_types, hanging_material, hanging_squares, king_capture_rolls, king_threat, mobility,
    partitions_for, piece_diversity, queen_capture_rolls, PassedPawns,
};
use crate::board::Position;
use dicechess_kernels::{Bitboard, Color, PieceType};
use serde::Serialize;

/// The probes of one position ([`probe_report`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeReport {
    /// The position's DFEN.
    pub dfen: String,
    /// White as the defender (Black rolls next).
    pub white: SideReport,
    /// Black as the defender (White rolls next).
    pub black: SideReport,
    /// The ADEP classes of the side to move's next roll.
    pub adep: AdepReport,
}

/// The probes with one colour as the defender (its opponent rolls next).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideReport {
    /// Ordered rolls out of 216 on which the opponent can capture this colour's king.
    pub king_capture_rolls: u32,
    /// `king_capture_rolls / 216`.
    pub king_capture_probability: f64,
    /// The same for a queen.
    pub queen_capture_rolls: u32,
    /// `queen_capture_rolls / 216`.
    pub queen_capture_probability: f64,
    /// Each of this colour's kings.
    pub kings: Vec<KingReport>,
    /// Squares of this colour's hanging pieces.
    pub hanging: Vec<String>,
    /// Their material (centipawns).
    pub hanging_material: i32,
    /// Pseudo-legal mobility per piece type.
    pub mobility: MobilityReport,
    /// Passed pawns.
    pub passed_pawns: PassedPawnsReport,
    /// Distinct piece types on the board.
    pub diversity: u32,
}

/// One king under attack analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KingReport {
    /// Its square.
    pub square: String,
    /// The opponent's piece types that attack it, as a face mask.
    pub attacker_mask: u8,
    /// The same as upper-case letters in face order (`NQ`).
    pub attacker_types: String,
    /// Rolls out of 216 on which the opponent reaches it in 1, 2 and 3 actions.
    pub threat_rolls: [u32; 3],
}

/// Mobility per piece type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MobilityReport {
    /// Pawn moves.
    pub p: u32,
    /// Knight moves.
    pub n: u32,
    /// Bishop moves.
    pub b: u32,
    /// Rook moves.
    pub r: u32,
    /// Queen moves.
    pub q: u32,
    /// King moves.
    pub k: u32,
    /// Their sum.
    pub total: u32,
}

/// Passed pawns of one colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PassedPawnsReport {
    /// How many.
    pub count: u32,
    /// The most advanced one's rank from this colour's side (0 when none).
    pub max_rank: u32,
    /// Their squares.
    pub squares: Vec<String>,
}

/// The ADEP classes of the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AdepReport {
    /// `w` or `b`.
    pub side: String,
    /// The classes in ADEP order.
    pub classes: Vec<AdepClassReport>,
}

/// One ADEP class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AdepClassReport {
    /// The retained dice, in the side's case.
    pub dice: String,
    /// Ordered rolls out of 216 in the class.
    pub weight: u16,
}

fn squares(b: Bitboard) -> Vec<String> {
    b.iter().map(|s| s.to_string()).collect()
}

/// A type mask as upper-case letters in face order, e.g. `NQ`.
fn type_letters(mask: u8) -> String {
    PieceType::ALL
        .iter()
        .filter(|p| mask & p.mask_bit() != 0)
        .map(|p| p.letter().to_ascii_uppercase())
        .collect()
}

/// The probes with `color` as the defender (its opponent rolls next).
fn side(pos: &Position, color: Color) -> SideReport {
    let king = king_capture_rolls(pos, color);
    let queen = queen_capture_rolls(pos, color);
    let attacker_view = pos.with_side_to_move(color.opponent());
    let kings = pos
        .piece_bb(color, PieceType::King)
        .iter()
        .map(|k| {
            let mask = attacker_types(pos, k, color.opponent());
            KingReport {
                square: k.to_string(),
                attacker_mask: mask,
                attacker_types: type_letters(mask),
                threat_rolls: [1, 2, 3].map(|n| king_threat(&attacker_view, k, n)),
            }
        })
        .collect();
    let mob = mobility(pos, color);
    let passed = PassedPawns::new(pos, color);
    SideReport {
        king_capture_rolls: king,
        king_capture_probability: king as f64 / 216.0,
        queen_capture_rolls: queen,
        queen_capture_probability: queen as f64 / 216.0,
        kings,
        hanging: squares(hanging_squares(pos, color)),
        hanging_material: hanging_material(pos, color),
        mobility: MobilityReport {
            p: mob[0],
            n: mob[1],
            b: mob[2],
            r: mob[3],
            q: mob[4],
            k: mob[5],
            total: mob.iter().sum(),
        },
        passed_pawns: PassedPawnsReport {
            count: passed.count,
            max_rank: passed.max_rank,
            squares: squares(passed.squares),
        },
        diversity: piece_diversity(pos, color),
    }
}

/// The probe report of `pos` (its dice, if any, are ignored: probes look at the next roll):
/// `dfen`, then `white` and `black` with each colour as the defender (king/queen capture
/// rolls out of 216 and probabilities, each king's attacker types and threat in 1/2/3
/// actions, hanging pieces, mobility per type, passed pawns, diversity), then `adep`, the
/// ADEP classes of the side to move.
pub fn probe_report(pos: &Position) -> ProbeReport {
    let us = pos.side_to_move();
    ProbeReport {
        dfen: pos.to_dfen(),
        white: side(pos, Color::White),
        black: side(pos, Color::Black),
        adep: AdepReport {
            side: us.letter().to_string(),
            classes: partitions_for(pos)
                .iter()
                .map(|c| AdepClassReport {
                    dice: c.dice.letters(us == Color::White),
                    weight: c.weight,
                })
                .collect(),
        },
    }
}
