//! Exact probes and position keys.

use crate::js::{position, to_js};
use dicechess::board::{dice_key, normalized_fen, Position};
use dicechess::kernels::Color;
use dicechess::probe::{king_capture_rolls, queen_capture_rolls};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The capture probes with one colour as the defender (its opponent rolls next), the
/// `dicechess probe` fields of that name.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Defender {
    king_capture_rolls: u32,
    king_capture_probability: f64,
    queen_capture_rolls: u32,
    queen_capture_probability: f64,
}

fn defender(pos: &Position, color: Color) -> Defender {
    let king = king_capture_rolls(pos, color);
    let queen = queen_capture_rolls(pos, color);
    Defender {
        king_capture_rolls: king,
        king_capture_probability: f64::from(king) / 216.0,
        queen_capture_rolls: queen,
        queen_capture_probability: f64::from(queen) / 216.0,
    }
}

/// The exact chance that each side's king is captured when its opponent rolls next
/// (docs/rules.md §6; dice in the DFEN are ignored): `{white: {...}, black: {...}}`, keyed by
/// the defender, each `{kingCaptureRolls, kingCaptureProbability, queenCaptureRolls,
/// queenCaptureProbability}` (rolls out of 216).
#[wasm_bindgen(js_name = kingCaptureProbability)]
pub fn king_capture_probability(dfen: &str) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Both {
        white: Defender,
        black: Defender,
    }
    let pos = position(dfen)?;
    to_js(&Both {
        white: defender(&pos, Color::White),
        black: defender(&pos, Color::Black),
    })
}

/// The representative of a position's symmetry class, as the JVM engine's
/// `Symmetry.canonical`: colour-flipped to White to move, then, only without castling rights
/// (where the file mirror preserves the rules), whichever of it and its file mirror has the
/// smaller DFEN.
fn symmetry_canonical(pos: &Position) -> Position {
    let white = if pos.side_to_move() == Color::Black {
        pos.flip_colors()
    } else {
        *pos
    };
    if white.castling().0 != 0 {
        return white;
    }
    let mirrored = white.mirror_files();
    if mirrored.to_dfen() < white.to_dfen() {
        mirrored
    } else {
        white
    }
}

/// The JVM build's `canonicalKey`: the DFEN of the position's symmetry-class representative
/// (colour flip, and the file mirror without castling rights; clocks and dice kept, the dice
/// in the new mover's case), shared by every symmetry-equivalent position and idempotent;
/// `undefined` for a DFEN that does not parse (`validateDfen` says why). The community's
/// normalised FEN is `positionKeys(dfen).normalizedFen`.
#[wasm_bindgen(js_name = canonicalKey)]
pub fn canonical_key(dfen: Option<String>) -> Option<String> {
    let pos = Position::from_dfen(&dfen?).ok()?;
    Some(symmetry_canonical(&pos).to_dfen())
}

/// The canonical DFEN text of a DFEN (what the engine writes; docs/rules.md §3).
#[wasm_bindgen(js_name = canonicalDfen)]
pub fn canonical_dfen(dfen: &str) -> Result<String, JsValue> {
    Ok(position(dfen)?.to_dfen())
}

/// Every key of a position: `{zobrist, zobristHex, normalizedFen, diceKey}`; `zobrist` is
/// the signed 64-bit Zobrist key as a decimal string (a JS number cannot hold it exactly).
#[wasm_bindgen(js_name = positionKeys)]
pub fn position_keys(dfen: &str) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Keys {
        zobrist: String,
        zobrist_hex: String,
        normalized_fen: String,
        dice_key: String,
    }
    let pos = position(dfen)?;
    to_js(&Keys {
        zobrist: (pos.key() as i64).to_string(),
        zobrist_hex: format!("{:016x}", pos.key()),
        normalized_fen: normalized_fen(&pos),
        dice_key: dice_key(&pos),
    })
}
