//! The webhook payloads: seats, time controls, think budgets and the `legalMoves` tree.

use crate::board::Position;
use crate::search::{budget_ms, ClockState, TimePolicy};
use dicechess_kernels::Color;
use serde_json::Value;

/// A game's time control as the webhook sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: think `--max-think-ms`.
    Unlimited,
    /// One clock per side, no increment.
    SuddenDeath,
    /// One clock per side plus an increment per turn.
    Fischer {
        /// Increment per turn, ms.
        increment_ms: u64,
    },
    /// A fixed allowance per turn.
    PerMove {
        /// The allowance, ms (`None`: think `--max-think-ms`).
        per_move_ms: Option<u64>,
    },
}

fn as_ms(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_f64)
        .filter(|x| x.is_finite() && *x >= 0.0)
        .map(|x| x as u64)
}

impl TimeControl {
    /// Read `timeControl`: a type name (`"Fischer"`) or an object with a `type` field and
    /// optional `incrementMs` / `perMoveMs`. Absent or null: `None`.
    pub fn parse(v: Option<&Value>) -> Result<Option<TimeControl>, String> {
        let (kind, obj) = match v {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::String(s)) => (s.as_str(), None),
            Some(Value::Object(o)) => match o.get("type").and_then(Value::as_str) {
                Some(t) => (t, Some(o)),
                None => return Err("timeControl: missing `type`".into()),
            },
            Some(_) => return Err("timeControl: expected a string or an object".into()),
        };
        let field = |name: &str| as_ms(obj.and_then(|o| o.get(name)));
        Ok(Some(match kind.to_ascii_lowercase().as_str() {
            "unlimited" => TimeControl::Unlimited,
            "suddendeath" => TimeControl::SuddenDeath,
            "fischer" => TimeControl::Fischer {
                increment_ms: field("incrementMs").unwrap_or(0),
            },
            "permove" => TimeControl::PerMove {
                per_move_ms: field("perMoveMs"),
            },
            _ => return Err(format!("timeControl: unknown type {kind:?}")),
        }))
    }
}

/// Read a seat, `White` or `Black` (case-insensitive).
pub fn parse_seat(v: Option<&Value>) -> Result<Color, String> {
    match v
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        _ => Err("seat: expected \"White\" or \"Black\"".into()),
    }
}

/// The clock of `seat` from `clocks` (`{white, black}` in ms, or null).
pub fn seat_clock(clocks: Option<&Value>, seat: Color) -> Option<u64> {
    let key = match seat {
        Color::White => "white",
        Color::Black => "black",
    };
    as_ms(clocks.and_then(|c| c.get(key)))
}

/// The think time for one turn, ms: from the seat's clock through the time manager
/// (`empirical-v1`, less `overhead_ms`) under clocked controls, the per-move allowance less
/// the overhead under `PerMove`, `max_think_ms` when unlimited or when no clock is known;
/// never more than `max_think_ms`.
pub fn think_budget_ms(
    tc: Option<TimeControl>,
    clock_ms: Option<u64>,
    pos: &Position,
    max_think_ms: u64,
    overhead_ms: u64,
) -> u64 {
    let clocked = |increment_ms: u64| match clock_ms {
        Some(remaining_ms) => budget_ms(
            &ClockState {
                remaining_ms,
                increment_ms,
                move_number: pos.fullmove(),
                moves_to_go: None,
            },
            TimePolicy::EmpiricalV1,
            overhead_ms,
        ),
        None => max_think_ms,
    };
    let ms = match tc {
        Some(TimeControl::Unlimited) => max_think_ms,
        Some(TimeControl::SuddenDeath) => clocked(0),
        Some(TimeControl::Fischer { increment_ms }) => clocked(increment_ms),
        Some(TimeControl::PerMove { per_move_ms }) => match per_move_ms {
            Some(ms) => crate::search::time::MIN_THINK_MS.max(ms.saturating_sub(overhead_ms)),
            None => max_think_ms,
        },
        // No control given: a clock, when sent, is a sudden-death clock.
        None => clocked(0),
    };
    ms.min(max_think_ms)
}

/// Whether `moves` is a root-to-leaf path of the `legalMoves` tree (an empty list is a path
/// of the empty tree: a pass). `Err` when the tree is not a tree of objects along the way.
pub fn tree_has_path(tree: &Value, moves: &[String]) -> Result<bool, String> {
    let mut node = tree;
    for m in moves {
        let Some(obj) = node.as_object() else {
            return Err("legalMoves: expected nested objects".into());
        };
        match obj.get(m) {
            Some(child) => node = child,
            None => return Ok(false),
        }
    }
    match node.as_object() {
        Some(obj) => Ok(obj.is_empty()),
        None => Err("legalMoves: expected nested objects".into()),
    }
}

/// The first root-to-leaf path of the `legalMoves` tree, in document order (empty for the
/// empty tree).
pub fn first_leaf_path(tree: &Value) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut node = tree;
    loop {
        let Some(obj) = node.as_object() else {
            return Err("legalMoves: expected nested objects".into());
        };
        match obj.iter().next() {
            None => return Ok(out),
            Some((k, child)) => {
                out.push(k.clone());
                node = child;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn time_controls_parse_as_strings_or_objects() {
        assert_eq!(TimeControl::parse(None), Ok(None));
        assert_eq!(
            TimeControl::parse(Some(&json!("Unlimited"))),
            Ok(Some(TimeControl::Unlimited))
        );
        assert_eq!(
            TimeControl::parse(Some(&json!({"type": "Fischer", "incrementMs": 2000}))),
            Ok(Some(TimeControl::Fischer { increment_ms: 2000 }))
        );
        assert_eq!(
            TimeControl::parse(Some(&json!({"type": "PerMove", "perMoveMs": 900}))),
            Ok(Some(TimeControl::PerMove {
                per_move_ms: Some(900)
            }))
        );
        assert!(TimeControl::parse(Some(&json!("Hourglass"))).is_err());
    }

    #[test]
    fn budgets_follow_the_clock_and_the_cap() {
        let pos = Position::startpos();
        assert_eq!(
            think_budget_ms(Some(TimeControl::Unlimited), None, &pos, 5000, 300),
            5000
        );
        assert_eq!(
            think_budget_ms(
                Some(TimeControl::PerMove {
                    per_move_ms: Some(1000)
                }),
                None,
                &pos,
                5000,
                300
            ),
            700
        );
        let b = think_budget_ms(
            Some(TimeControl::SuddenDeath),
            Some(20_000),
            &pos,
            5000,
            300,
        );
        assert!(b > 20 && b < 5000, "{b}");
        assert_eq!(
            think_budget_ms(Some(TimeControl::SuddenDeath), Some(1000), &pos, 5000, 300),
            20
        );
        assert_eq!(
            think_budget_ms(
                Some(TimeControl::SuddenDeath),
                Some(10_000_000),
                &pos,
                5000,
                300
            ),
            5000
        );
    }

    #[test]
    fn tree_paths() {
        let tree = json!({"e2e4": {"g1f3": {}, "d2d4": {}}, "a2a3": {}});
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(tree_has_path(&tree, &p(&["e2e4", "d2d4"])), Ok(true));
        assert_eq!(tree_has_path(&tree, &p(&["e2e4"])), Ok(false));
        assert_eq!(tree_has_path(&tree, &p(&["h2h3"])), Ok(false));
        assert_eq!(first_leaf_path(&tree), Ok(p(&["e2e4", "g1f3"])));
        assert_eq!(first_leaf_path(&json!({})), Ok(vec![]));
        assert!(first_leaf_path(&json!({"e2e4": 3})).is_err());
    }
}
