//! Every exact probe of a position, for both colours, as one JSON object: what
//! `dicechess probe` prints and the Python package's `dicechess.probe` returns.

use super::{
    attacker_types, hanging_material, hanging_squares, king_capture_rolls, king_threat, mobility,
    partitions_for, piece_diversity, queen_capture_rolls, PassedPawns,
};
use crate::board::Position;
use dicechess_kernels::{Bitboard, Color, PieceType};
use serde_json::{json, Value};

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
fn side(pos: &Position, color: Color) -> Value {
    let king = king_capture_rolls(pos, color);
    let queen = queen_capture_rolls(pos, color);
    let attacker_view = pos.with_side_to_move(color.opponent());
    let kings: Vec<Value> = pos
        .piece_bb(color, PieceType::King)
        .iter()
        .map(|k| {
            let mask = attacker_types(pos, k, color.opponent());
            let threat = [1, 2, 3].map(|n| king_threat(&attacker_view, k, n));
            json!({
                "square": k.to_string(),
                "attacker_mask": mask,
                "attacker_types": type_letters(mask),
                "threat_rolls": threat,
            })
        })
        .collect();
    let mob = mobility(pos, color);
    let passed = PassedPawns::new(pos, color);
    json!({
        "king_capture_rolls": king,
        "king_capture_probability": king as f64 / 216.0,
        "queen_capture_rolls": queen,
        "queen_capture_probability": queen as f64 / 216.0,
        "kings": kings,
        "hanging": squares(hanging_squares(pos, color)),
        "hanging_material": hanging_material(pos, color),
        "mobility": {
            "p": mob[0], "n": mob[1], "b": mob[2], "r": mob[3], "q": mob[4], "k": mob[5],
            "total": mob.iter().sum::<u32>(),
        },
        "passed_pawns": {
            "count": passed.count,
            "max_rank": passed.max_rank,
            "squares": squares(passed.squares),
        },
        "diversity": piece_diversity(pos, color),
    })
}

/// The probe report of `pos` (its dice, if any, are ignored: probes look at the next roll):
/// `dfen`, then `white` and `black` with each colour as the defender (king/queen capture
/// rolls out of 216 and probabilities, each king's attacker types and threat in 1/2/3
/// actions, hanging pieces, mobility per type, passed pawns, diversity), then `adep`, the
/// ADEP classes of the side to move.
pub fn probe_report(pos: &Position) -> Value {
    let us = pos.side_to_move();
    let adep: Vec<Value> = partitions_for(pos)
        .iter()
        .map(|c| json!({ "dice": c.dice.letters(us == Color::White), "weight": c.weight }))
        .collect();
    json!({
        "dfen": pos.to_dfen(),
        "white": side(pos, Color::White),
        "black": side(pos, Color::Black),
        "adep": { "side": us.letter().to_string(), "classes": adep },
    })
}
