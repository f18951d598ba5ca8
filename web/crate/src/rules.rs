//! The rules: legal micro-moves and turns, playing micro-moves, ending turns, playable dice.

use crate::js::{field_error, position, rolled_position};
use dicechess::board::{Dice, Position};
use dicechess::kernels::{Color, PieceType, Square};
use dicechess::rules::{
    legal_first_moves, legal_paths, parse_uci_path, perft_single_die, playable_dice, MicroMove,
    MoveKind, TurnGenerator, TurnPath,
};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The legal first micro-moves of the DFEN's roll (distinct first moves of the legal turn
/// paths, in path order; `dicechess moves`), as UCI strings (`"e7e8q"` for a promotion).
/// Empty for a pass, for a DFEN without dice (e.g. after `applyMove` spent them all) and,
/// as the JVM build answers, for a DFEN that does not parse (`validateDfen` says why).
#[wasm_bindgen(js_name = getLegalUciMoves)]
pub fn get_legal_uci_moves(dfen: Option<String>) -> Vec<String> {
    match dfen.and_then(|d| Position::from_dfen(&d).ok()) {
        Some(pos) if !pos.dice().is_empty() => {
            legal_first_moves(&pos).iter().map(|m| m.uci()).collect()
        }
        _ => Vec::new(),
    }
}

/// Every legal turn path of the DFEN's roll (docs/rules.md §5 order; `dicechess turns`),
/// each an array of UCI micro-moves. Empty for a pass and for a DFEN without dice.
#[wasm_bindgen(js_name = getLegalTurns)]
pub fn get_legal_turns(dfen: &str) -> Result<JsValue, JsValue> {
    let pos = position(dfen)?;
    let out = js_sys::Array::new();
    if pos.dice().is_empty() {
        return Ok(out.into());
    }
    // Thousands of paths share a few hundred micro-moves: make each UCI string in JS once.
    let mut names: HashMap<u32, JsValue> = HashMap::new();
    for path in legal_paths(&pos) {
        let moves = js_sys::Array::new();
        for m in path.moves().iter() {
            moves.push(
                names
                    .entry(m.encode())
                    .or_insert_with(|| JsValue::from_str(&m.uci())),
            );
        }
        out.push(&moves);
    }
    Ok(out.into())
}

/// The legal turns of the DFEN's roll as the play server's move tree: an object keyed by
/// UCI micro-moves, each node's children in UCI order, a leaf `{}` ending a turn
/// (`dicechess turns --tree`, byte for byte the server's `MoveTree` once `JSON.stringify`d).
/// `{}` for a pass, for a DFEN without dice, and, as the JVM build answers, for a DFEN that
/// does not parse (the other calls throw an error naming the bad field).
#[wasm_bindgen(js_name = getLegalTurnTree)]
pub fn get_legal_turn_tree(dfen: &str) -> Result<JsValue, JsValue> {
    let Ok(pos) = Position::from_dfen(dfen) else {
        return Ok(js_sys::Object::new().into());
    };
    if pos.dice().is_empty() {
        return Ok(js_sys::Object::new().into());
    }
    // Built as JSON text and parsed once: `JSON.parse` keeps the (non-index) keys in the
    // order written, and is faster than setting a quarter of a megabyte of keys one by one.
    let text = dicechess::rules::TurnTree::new(&pos).to_json().to_string();
    js_sys::JSON::parse(&text)
}

thread_local! {
    /// A reused generator and output, as the native `turns` benchmark reuses them.
    static GENERATOR: RefCell<(TurnGenerator, Vec<TurnPath>)> =
        RefCell::new((TurnGenerator::new(), Vec::new()));
}

/// The number of legal turn paths (`dicechess turns --count`), enumerated with a reused
/// generator and no strings crossing to JS: the number the README's budget compares with
/// the native benchmark.
#[wasm_bindgen(js_name = countLegalTurns)]
pub fn count_legal_turns(dfen: &str) -> Result<u32, JsValue> {
    let pos = position(dfen)?;
    if pos.dice().is_empty() {
        return Ok(0);
    }
    Ok(GENERATOR.with(|g| {
        let (gen, out) = &mut *g.borrow_mut();
        out.clear(); // legal_paths_into appends
        gen.legal_paths_into(&pos, out);
        out.len() as u32
    }))
}

/// A promotion argument: `q`, `r`, `b` or `n` (either case), or an error naming it.
fn promotion(text: &str) -> Result<PieceType, JsValue> {
    let mut chars = text.chars();
    match (chars.next().map(|c| c.to_ascii_lowercase()), chars.next()) {
        (Some(c @ ('q' | 'r' | 'b' | 'n')), None) => {
            Ok(PieceType::from_letter(c).expect("q, r, b and n are piece letters"))
        }
        _ => Err(field_error(
            "promotion",
            &format!("promotion: expected q, r, b or n, found {text:?}"),
        )),
    }
}

/// Play one micro-move `from`→`to` and return the DFEN after it, as the JVM build's
/// `applyMove`; the side to move and the full-move number stay (end the turn with
/// `endTurn`). Never throws: `undefined` for a move it refuses, a DFEN that does not parse,
/// a square that is not `a1`…`h8` or a promotion that is not `q`, `r`, `b` or `n` (either
/// case); `validateDfen` says what is wrong with a DFEN.
///
/// * With dice (a turn in play): the move must be one of `getLegalUciMoves(dfen)`; its die (castling: king and rook dice) leaves the pool, and
///   a king capture ends the game, so the dice left over are dropped. The check is made
///   against this DFEN's own roll: chaining `applyMove` agrees with the whole-turn rule along
///   every legal path, but a prefix that is legal only because it leads to a king capture may
///   then continue with fewer dice than the rule allows; validate whole turns with
///   `getLegalTurns` on the DFEN of the turn's start.
/// * Without dice (a board editor, an analysis board; the JVM build's `RulesOps.playMove`):
///   any pseudo-legal move of the side to move, of any piece, castling included when the
///   right, the rook and the empty squares allow it (attacked squares do not matter).
///
/// Either way, as the JVM build matches moves: a promotion without a piece promotes to a
/// queen, and a piece given for a move that does not promote is ignored.
#[wasm_bindgen(js_name = applyMove)]
pub fn apply_move(
    dfen: Option<String>,
    from: Option<String>,
    to: Option<String>,
    promotion_piece: Option<String>,
) -> Option<String> {
    let pos = Position::from_dfen(&dfen?).ok()?;
    let (from, to) = (
        Square::from_name(from?.as_bytes())?,
        Square::from_name(to?.as_bytes())?,
    );
    let promo = match promotion_piece.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => Some(promotion(p).ok()?),
        None => None,
    };
    // The JVM build's match: a promotion needs the piece named, if one is; otherwise the first
    // listed (the queen's: promotions are generated q, r, b, n).
    let matches = |m: &MicroMove| {
        m.from == from
            && m.to == to
            && match (m.kind, promo) {
                (MoveKind::Promotion(p), Some(want)) => p == want,
                _ => true,
            }
    };
    if pos.dice().is_empty() {
        let all = PieceType::ALL.iter().fold(0, |mask, p| mask | p.mask_bit());
        let moves = dicechess::rules::generate(&pos, all, true).to_vec(&pos);
        let found = moves.into_iter().find(matches)?;
        return Some(pos.play_unchecked(found).to_dfen());
    }
    let found = legal_first_moves(&pos).into_iter().find(matches)?;
    Some(played(&pos, found).to_dfen())
}

/// The position after `m`; after a king capture without the void dice (docs/rules.md §2.6).
fn played(pos: &Position, m: MicroMove) -> Position {
    let next = pos.play_unchecked(m);
    if pos.captures_king(m) {
        next.with_dice(Dice::EMPTY)
    } else {
        next
    }
}

/// End the turn (docs/rules.md §2.4; also the whole of a pass): the next mover's stale
/// en-passant targets expire, the side to move flips, the pool empties and the full-move
/// number counts after Black. Returns the new DFEN, or, as the JVM build answers,
/// `undefined` for a DFEN that does not parse (`validateDfen` says why).
#[wasm_bindgen(js_name = endTurn)]
pub fn end_turn(dfen: Option<String>) -> Option<String> {
    let pos = Position::from_dfen(&dfen?).ok()?;
    Some(pos.end_turn().to_dfen())
}

/// The dice still playable after `prefix` (UCI micro-moves played from `dfen`, the DFEN at
/// the start of the turn; an array of strings or one comma-separated string), as DFEN dice
/// letters in face order and the mover's case (`"PN"`), `""` when the prefix completes the
/// turn (`dicechess playable`). The other dice left in the pool are the ones to dim.
/// Throws (field `prefix`) when the prefix is not the start of a legal turn path.
#[wasm_bindgen(js_name = getPlayableDice)]
pub fn get_playable_dice(dfen: &str, prefix: JsValue) -> Result<String, JsValue> {
    let pos = rolled_position(dfen)?;
    let text = prefix_text(&prefix)?;
    let moves =
        parse_uci_path(&pos, &text).map_err(|e| field_error("prefix", &format!("prefix: {e}")))?;
    let counts = playable_dice(&pos, &moves).ok_or_else(|| {
        field_error(
            "prefix",
            &format!("prefix: {text:?} does not start any legal turn path of this roll"),
        )
    })?;
    let upper = pos.side_to_move() == Color::White;
    let mut letters = String::new();
    for (piece, &n) in PieceType::ALL.iter().zip(counts.iter()) {
        let c = piece.letter();
        let c = if upper { c.to_ascii_uppercase() } else { c };
        letters.extend(std::iter::repeat_n(c, n as usize));
    }
    Ok(letters)
}

/// A prefix argument as comma-separated UCI: `undefined`/`null` (none), a string, or an
/// array of strings.
fn prefix_text(prefix: &JsValue) -> Result<String, JsValue> {
    if prefix.is_undefined() || prefix.is_null() {
        return Ok(String::new());
    }
    if let Some(s) = prefix.as_string() {
        return Ok(s);
    }
    let bad = || {
        field_error(
            "prefix",
            "prefix: expected an array of UCI strings or a string",
        )
    };
    let array = prefix.dyn_ref::<js_sys::Array>().ok_or_else(bad)?;
    let parts: Option<Vec<String>> = array.iter().map(|v| v.as_string()).collect();
    let parts = parts.ok_or_else(bad)?;
    if parts.iter().any(|p| p.is_empty() || p.contains(',')) {
        return Err(bad());
    }
    Ok(parts.join(","))
}

/// The deepest `perftSingleDie` (its node counts grow about thirtyfold a ply).
pub const MAX_PERFT_DEPTH: u32 = 8;

/// Single-die perft (`dicechess perft FEN --die N --depth D`): pseudo-legal micro-moves of
/// the die's piece type, the same one-die pool installed for each side in turn.
#[wasm_bindgen(js_name = perftSingleDie)]
pub fn perft_single(fen: &str, die: u8, depth: u32) -> Result<f64, JsValue> {
    let pos = position(fen)?;
    let piece = PieceType::from_face(die)
        .ok_or_else(|| field_error("die", &format!("die: {die} is not a face 1..=6")))?;
    if depth > MAX_PERFT_DEPTH {
        // A JS -1 arrives as 4294967295: refuse instead of running for ever.
        return Err(field_error(
            "depth",
            &format!("depth: at most {MAX_PERFT_DEPTH}, found {depth}"),
        ));
    }
    Ok(perft_single_die(&pos, piece, depth) as f64)
}

/// The piece letter of a die face, as the JVM build's `getPieceFromDice`: `1` → `"p"`,
/// `2` → `"n"`, `3` → `"b"`, `4` → `"r"`, `5` → `"q"`, `6` → `"k"`; `null` for anything
/// else (another number, a fraction, a non-number).
#[wasm_bindgen(js_name = getPieceFromDice)]
pub fn get_piece_from_dice(dice: JsValue) -> JsValue {
    dice.as_f64()
        .filter(|d| d.fract() == 0.0 && (1.0..=6.0).contains(d))
        .and_then(|d| PieceType::from_face(d as u8))
        .map_or(JsValue::NULL, |p| {
            JsValue::from_str(&p.letter().to_string())
        })
}

/// The die face (1 pawn … 6 king) of the piece on `square` (`"e2"`) of the DFEN, either
/// colour, as the JVM build's `getPieceTypeAt`; `undefined` for an empty square, a square
/// name that is not `a1`…`h8`, or a DFEN that does not parse (`validateDfen` says why).
#[wasm_bindgen(js_name = getPieceTypeAt)]
pub fn get_piece_type_at(dfen: Option<String>, square: Option<String>) -> Option<u8> {
    let pos = Position::from_dfen(&dfen?).ok()?;
    let sq = Square::from_name(square?.as_bytes())?;
    pos.type_at(sq).map(PieceType::face)
}

/// The type mask (bit `face − 1`) the JVM build's generator uses for `pos`: the pool's
/// faces, or every piece type when the pool is empty.
fn pool_mask(pos: &Position) -> u8 {
    if pos.dice().is_empty() {
        return PieceType::ALL.iter().fold(0, |m, p| m | p.mask_bit());
    }
    pos.dice()
        .faces()
        .iter()
        .filter_map(|&f| PieceType::from_face(f))
        .fold(0, |m, p| m | p.mask_bit())
}

/// Pseudo-legal micro-moves of the side to move for the DFEN's dice (every piece type when
/// it has none), as the JVM build's `generateMoves`: no maximum-dice rule, castling under
/// the king die whenever the right, the rook and the empty squares allow it, a pawn reaching
/// the last rank listed once per promotion piece (`"e7e8q"`, …). In piece-type order (pawns
/// first), then square order. `[]` for a DFEN that does not parse.
#[wasm_bindgen(js_name = generateMoves)]
pub fn generate_moves(dfen: Option<String>) -> Vec<String> {
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return Vec::new();
    };
    dicechess::rules::generate(&pos, pool_mask(&pos), true)
        .to_vec(&pos)
        .iter()
        .map(|m| m.uci())
        .collect()
}

/// Leaf count of the JVM build's multi-die perft from `pos` (its `Perft.countNodes`).
fn perft_pool(pos: &Position, depth: u64) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = dicechess::rules::generate(pos, pool_mask(pos), true);
    if depth == 1 {
        return list.count(pos) as u64;
    }
    let dice = pos.dice();
    let mut nodes = 0;
    list.for_each(pos, |m| {
        let next = pos.play_unchecked(m).end_turn().with_dice(dice);
        nodes += perft_pool(&next, depth - 1);
    });
    nodes
}

/// Perft as the JVM build's `perft(dfen, depth)`: leaves of `generateMoves`' tree, each move
/// followed by the end of the turn and the same dice (or none) for the other side; king
/// captures count and do not end the line. `1` at depth 0; `0` for a negative or non-number
/// depth and for a DFEN that does not parse. A fractional depth is truncated. Like the JVM
/// build's, it has no depth limit: the count grows about thirtyfold a ply.
#[wasm_bindgen]
pub fn perft(dfen: Option<String>, depth: JsValue) -> f64 {
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return 0.0;
    };
    match depth.as_f64() {
        Some(d) if d >= 0.0 && d.is_finite() => perft_pool(&pos, d.trunc() as u64) as f64,
        _ => 0.0,
    }
}

/// The one strict DFEN check: `true` for a DFEN the engine reads, else throws the engine's
/// `Error` naming the field (`message` `castling: … in "KQxq"`, property `field`). The
/// JVM build's calls answer `[]`, `null`, `undefined` or `0` for a bad DFEN without saying
/// why; this says why. `null` or `undefined` is checked as the empty string.
#[wasm_bindgen(js_name = validateDfen)]
pub fn validate_dfen(dfen: Option<String>) -> Result<bool, JsValue> {
    position(dfen.as_deref().unwrap_or("")).map(|_| true)
}

/// The JVM build's legacy `EngineFacade.getBotMove(dfen, seed?)`: one micro-move for the
/// DFEN's dice, `{from, to, promotion?}` — a king capture when one of `generateMoves(dfen)`
/// takes a king (the first listed), else one of them at random (reproducible with `seed`,
/// a fresh draw without; the draws differ from the JVM build's). No maximum-dice rule.
/// `undefined` without dice, without a move, or for a DFEN that does not parse.
#[wasm_bindgen(js_name = getBotMove)]
pub fn get_bot_move(dfen: Option<String>, seed: JsValue) -> Result<JsValue, JsValue> {
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return Ok(JsValue::UNDEFINED);
    };
    if pos.dice().is_empty() {
        return Ok(JsValue::UNDEFINED);
    }
    let moves = dicechess::rules::generate(&pos, pool_mask(&pos), true).to_vec(&pos);
    let chosen = match moves.iter().find(|m| pos.captures_king(**m)) {
        Some(m) => *m,
        None if moves.is_empty() => return Ok(JsValue::UNDEFINED),
        None => {
            let seed = seed
                .as_f64()
                .filter(|s| s.is_finite())
                .unwrap_or_else(|| js_sys::Math::random() * 2f64.powi(53));
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed as i64 as u64);
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        }
    };
    let out = js_sys::Object::new();
    for (k, v) in [
        ("from", chosen.from.to_string()),
        ("to", chosen.to.to_string()),
    ] {
        js_sys::Reflect::set(&out, &k.into(), &v.into())?;
    }
    if let MoveKind::Promotion(p) = chosen.kind {
        js_sys::Reflect::set(&out, &"promotion".into(), &p.letter().to_string().into())?;
    }
    Ok(out.into())
}

/// The JVM build's legacy `EngineFacade.applyMove` (exported as `applyMoveFacade`): any
/// pseudo-legal micro-move of the side to move, whatever the dice (castling included), a
/// promotion without a piece a queen; the DFEN after it, with no dice left (its `makeMove`
/// empties the pool). `undefined` for a move it refuses, a bad square or promotion piece, or
/// a DFEN that does not parse. `applyMove` is the dice-aware call.
#[wasm_bindgen(js_name = applyMoveFacade)]
pub fn apply_move_facade(
    dfen: Option<String>,
    from: Option<String>,
    to: Option<String>,
    promotion_piece: Option<String>,
) -> Option<String> {
    let pos = Position::from_dfen(&dfen?).ok()?.with_dice(Dice::EMPTY);
    apply_move(Some(pos.to_dfen()), from, to, promotion_piece)
}

/// The JVM build's legacy `EngineFacade.endTurn` (exported as `endTurnFacade`): `endTurn`.
#[wasm_bindgen(js_name = endTurnFacade)]
pub fn end_turn_facade(dfen: Option<String>) -> Option<String> {
    end_turn(dfen)
}
