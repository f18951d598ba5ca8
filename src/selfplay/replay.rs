//! Replaying game records turn by turn against the rules (docs/rules.md §5, §8): every turn must
//! be one of the legal paths of its roll and reach the recorded position, and the result must
//! follow from the final position.

use super::record::{GameRecord, Termination, TurnRecord};
use crate::board::{Dice, Position};
use crate::rules::{legal_paths, parse_uci_path};
use dicechess_kernels::Color;
use serde::Serialize;
use std::fmt;

/// What one valid record contained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplaySummary {
    /// The record's game id.
    pub game_id: String,
    /// Turns checked (passes included).
    pub turns: usize,
    /// Of them, forced passes.
    pub passes: usize,
    /// The result, White's view.
    pub result: i8,
}

/// Why a record is invalid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The game id, when the record could be read that far.
    pub game_id: Option<String>,
    /// The 1-based turn at fault, when the fault is in a turn.
    pub turn: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl ReplayError {
    fn record(game_id: &str, message: String) -> ReplayError {
        ReplayError {
            game_id: Some(game_id.to_owned()),
            turn: None,
            message,
        }
    }

    fn turn(game_id: &str, turn: u32, message: String) -> ReplayError {
        ReplayError {
            game_id: Some(game_id.to_owned()),
            turn: Some(turn),
            message,
        }
    }

    /// The message with its place: `game g-7 (line 3) turn 12: …`.
    pub fn describe(&self, line: usize) -> String {
        let mut s = match &self.game_id {
            Some(id) => format!("game {id} (line {line})"),
            None => format!("line {line}"),
        };
        if let Some(t) = self.turn {
            s.push_str(&format!(" turn {t}"));
        }
        format!("{s}: {}", self.message)
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.game_id {
            write!(f, "game {id}")?;
            if let Some(t) = self.turn {
                write!(f, " turn {t}")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ReplayError {}

fn dice_text(faces: &[u8]) -> String {
    let parts: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// The adjudication limits of a record (`{"halfmove": 100, "turns": 300}`).
fn limits_of(record: &GameRecord) -> Result<(u64, u64), String> {
    let get = |key: &str| {
        record
            .limits
            .get(key)
            .and_then(|v| v.as_u64())
            .ok_or_else(|| format!("limits.{key} is missing or not a non-negative integer"))
    };
    Ok((get("halfmove")?, get("turns")?))
}

/// Validate one record (one JSONL line). Never panics.
pub fn validate_record_line(line: &str) -> Result<ReplaySummary, ReplayError> {
    let record: GameRecord = serde_json::from_str(line).map_err(|e| ReplayError {
        game_id: serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("gameId").and_then(|g| g.as_str()).map(str::to_owned)),
        turn: None,
        message: format!("not a game record: {e}"),
    })?;
    validate_record(&record)
}

/// Validate a parsed record turn by turn; the first fault is reported.
pub fn validate_record(record: &GameRecord) -> Result<ReplaySummary, ReplayError> {
    let id = record.game_id.as_str();
    let (halfmove_limit, turn_limit) = limits_of(record).map_err(|m| ReplayError::record(id, m))?;
    let start = Position::from_dfen(&record.initial_dfen).map_err(|e| {
        ReplayError::record(
            id,
            format!("initialDfen {:?} is not a DFEN: {e}", record.initial_dfen),
        )
    })?;
    if !(-1..=1).contains(&record.result) {
        return Err(ReplayError::record(
            id,
            format!("result {} is not 1, 0 or -1", record.result),
        ));
    }
    let mut pos = start.with_dice(Dice::EMPTY);
    let mut passes = 0;
    // How the game ended by the rules, once it did: (result, termination, turn).
    let mut ended: Option<(i8, Termination, u32)> =
        (turn_limit == 0).then_some((0, Termination::TurnLimit, 0));
    for (i, t) in record.turns.iter().enumerate() {
        let expected_number = i as u64 + 1;
        let mover = pos.side_to_move();
        let n = t.turn_number;
        let (next, captured_king) = replay_turn(id, &pos, t, expected_number, ended)?;
        if t.moves.is_empty() {
            passes += 1;
        }
        pos = next;
        if captured_king {
            let r = if mover == Color::White { 1 } else { -1 };
            ended = Some((r, Termination::KingCapture, n));
        } else if u64::from(pos.halfmove()) >= halfmove_limit {
            ended = Some((0, Termination::HalfmoveLimit, n));
        } else if expected_number >= turn_limit {
            ended = Some((0, Termination::TurnLimit, n));
        }
    }
    let Some((result, termination, _)) = ended else {
        return Err(ReplayError::record(
            id,
            format!(
                "the record ends after {} turns with no king captured and no limit reached \
                 (limits: half-move {halfmove_limit}, turns {turn_limit})",
                record.turns.len()
            ),
        ));
    };
    if termination != record.termination || result != record.result {
        return Err(ReplayError::record(
            id,
            format!(
                "recorded result {} ({:?}) but the final position gives {result} ({termination:?})",
                record.result, record.termination
            ),
        ));
    }
    Ok(ReplaySummary {
        game_id: record.game_id.clone(),
        turns: record.turns.len(),
        passes,
        result,
    })
}

/// Check turn `t`, the `expected_number`-th, against the rules from `pos` (`ended`: how
/// and when the game already ended, if it did); returns the position after it and whether
/// it captured a king.
pub(super) fn replay_turn(
    id: &str,
    pos: &Position,
    t: &TurnRecord,
    expected_number: u64,
    ended: Option<(i8, Termination, u32)>,
) -> Result<(Position, bool), ReplayError> {
    let n = t.turn_number;
    if u64::from(n) != expected_number {
        return Err(ReplayError::turn(
            id,
            n,
            format!("turn number {n} out of sequence (expected {expected_number})"),
        ));
    }
    if let Some((_, term, at)) = ended {
        let why = match term {
            Termination::KingCapture => "a king was captured",
            Termination::HalfmoveLimit => "the half-move limit was reached",
            Termination::TurnLimit => "the turn limit was reached",
        };
        return Err(ReplayError::turn(
            id,
            n,
            format!("the game goes on after it ended at turn {at} ({why})"),
        ));
    }
    let mover = pos.side_to_move();
    if t.active_color != mover.letter().to_string() {
        return Err(ReplayError::turn(
            id,
            n,
            format!(
                "activeColor {:?} but {} is to move",
                t.active_color,
                if mover == Color::White {
                    "White (w)"
                } else {
                    "Black (b)"
                }
            ),
        ));
    }
    let dice = match (t.dice.len(), Dice::from_faces(&t.dice)) {
        (3, Some(d)) => d,
        _ => {
            return Err(ReplayError::turn(
                id,
                n,
                format!(
                    "dice {} are not three faces 1..6",
                    serde_json::to_string(&t.dice).unwrap_or_default()
                ),
            ))
        }
    };
    let rolled = pos.with_dice(dice);
    let given = t.moves.join(",");
    let paths = legal_paths(&rolled);
    let not_legal = |reason: String| {
        ReplayError::turn(
            id,
            n,
            format!(
                "{} is not a legal turn path for dice {} ({} legal paths{reason})",
                if given.is_empty() { "a pass" } else { &given },
                dice_text(&t.dice),
                paths.len()
            ),
        )
    };
    let (next, captured_king) = if t.moves.is_empty() {
        if !paths.is_empty() {
            return Err(not_legal(String::new()));
        }
        (rolled.end_turn(), false)
    } else {
        if t.moves.iter().any(|m| m.is_empty() || m.contains(',')) {
            return Err(not_legal("; a move is empty or holds a comma".into()));
        }
        let moves = parse_uci_path(&rolled, &given).map_err(|e| not_legal(format!("; {e}")))?;
        match paths.iter().find(|p| *p.moves() == *moves) {
            Some(p) => (p.end_position(&rolled), p.captures_king()),
            None => return Err(not_legal(String::new())),
        }
    };
    let fen = next.to_dfen();
    if t.fen_after != fen {
        return Err(ReplayError::turn(
            id,
            n,
            format!(
                "fenAfter {:?} differs from the position after the turn {fen:?}",
                t.fen_after
            ),
        ));
    }
    Ok((next, captured_king))
}
