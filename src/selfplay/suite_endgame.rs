//! The JVM arena's endgame benchmark suite (docs/suites.md "The endgame suite"), read as its
//! `EndgameBenchmarkCatalog.parse` reads it: the root's `schemaVersion` (1), `id`,
//! `description` and `positions`; each position's `id`, `category`, `name`, `description`,
//! `fen` (no dice; both kings on the board), `attackerColor`, `defenderColor` (opposite),
//! `kingChebyshevDistance` and `kingManhattanDistance` (the kings' actual distances) and
//! `theoreticalOutcome`. Unknown and duplicated fields are refused, and every refusal names
//! the field, with the position's index.

use super::suite_error::{at, SuiteProblem};
use super::suite_fields::{integer, schema_version, unique_id, Obj};
use super::suite_json::Node;
use crate::board::Position;
use dicechess_kernels::{Color, PieceType};
use std::collections::HashSet;

/// One position of an endgame suite (the JVM arena's `EndgamePosition`).
#[derive(Clone, Debug, PartialEq)]
pub struct EndgamePosition {
    /// The stable id, unique in the suite.
    pub id: String,
    /// The category, e.g. `lone-king-vs-kq` (free text; `--category` selects by it).
    pub category: String,
    /// A short name.
    pub name: String,
    /// What the position is.
    pub description: String,
    /// The FEN as written (no dice: the games roll them).
    pub fen: String,
    /// The position.
    pub position: Position,
    /// The side expected to win (`attackerColor`).
    pub attacker_color: Color,
    /// The other side (`defenderColor`).
    pub defender_color: Color,
    /// The kings' Chebyshev distance (checked against the board).
    pub king_chebyshev_distance: i32,
    /// The kings' Manhattan distance (checked against the board).
    pub king_manhattan_distance: i32,
    /// The expected result in words, e.g. `attacker-win`.
    pub theoretical_outcome: String,
}

/// An endgame suite (the JVM arena's `EndgameSuite`).
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameSuite {
    /// The suite's `schemaVersion` (always 1).
    pub schema_version: i64,
    /// The suite's stable id.
    pub id: String,
    /// What it covers.
    pub description: String,
    /// The positions, at least one, ids unique.
    pub positions: Vec<EndgamePosition>,
}

impl EndgameSuite {
    /// The suite with only the positions whose category is `category` (ASCII
    /// case-insensitive, as the JVM runner's `--category`); `None` when none is.
    pub fn with_category(&self, category: &str) -> Option<EndgameSuite> {
        let positions: Vec<EndgamePosition> = self
            .positions
            .iter()
            .filter(|p| p.category.eq_ignore_ascii_case(category))
            .cloned()
            .collect();
        (!positions.is_empty()).then(|| EndgameSuite {
            positions,
            ..self.clone()
        })
    }
}

/// The Chebyshev and Manhattan distances between the two kings of `pos` (the first king of
/// each colour, as the JVM takes the lowest square); `None` without both kings.
pub fn king_distances(pos: &Position) -> Option<(i32, i32)> {
    let square = |c: Color| {
        let bb = pos.piece_bb(c, PieceType::King).0;
        (bb != 0).then(|| bb.trailing_zeros() as i32)
    };
    let (w, b) = (square(Color::White)?, square(Color::Black)?);
    let dx = (w % 8 - b % 8).abs();
    let dy = (w / 8 - b / 8).abs();
    Some((dx.max(dy), dx + dy))
}

/// The root object of an endgame suite (the caller has seen its `positions` field).
pub(super) fn endgame_suite(root: &Node) -> Result<EndgameSuite, SuiteProblem> {
    let root = Obj::new(
        root,
        None,
        "root",
        &["schemaVersion", "id", "description", "positions"],
    )?;
    let schema_version = schema_version(&root)?;
    let id = root.string("id")?;
    let description = root.string("description")?;
    let Node::Arr(items) = root.required("positions")? else {
        return Err(at(None, "root.positions", "must be an array"));
    };
    if items.is_empty() {
        return Err(at(None, "root.positions", "must not be empty"));
    }
    let mut ids = HashSet::new();
    let mut positions = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let p = endgame_position(item, i)?;
        unique_id(&mut ids, &p.id, i, "positions", "position ids")?;
        positions.push(p);
    }
    Ok(EndgameSuite {
        schema_version,
        id,
        description,
        positions,
    })
}

fn color(obj: &Obj<'_>, name: &str, i: usize) -> Result<Color, SuiteProblem> {
    let text = obj.string(name)?;
    match text.to_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        other => Err(at(
            Some(i),
            obj.path(name),
            format!("must be 'white' or 'black', got '{other}'"),
        )),
    }
}

fn int32(obj: &Obj<'_>, name: &str, i: usize) -> Result<i32, SuiteProblem> {
    let path = obj.path(name);
    let v = integer(obj.required(name)?, Some(i), &path)?;
    i32::try_from(v).map_err(|_| at(Some(i), path, "is out of range for an integer"))
}

fn endgame_position(node: &Node, i: usize) -> Result<EndgamePosition, SuiteProblem> {
    let ctx = format!("positions[{i}]");
    let obj = Obj::new(
        node,
        Some(i),
        &ctx,
        &[
            "id",
            "category",
            "name",
            "description",
            "fen",
            "attackerColor",
            "defenderColor",
            "kingChebyshevDistance",
            "kingManhattanDistance",
            "theoreticalOutcome",
        ],
    )?;
    let id = obj.string("id")?;
    let category = obj.string("category")?;
    let name = obj.string("name")?;
    let description = obj.string("description")?;
    let fen = obj.string("fen")?;
    let fen_path = obj.path("fen");
    let position = Position::from_dfen(&fen)
        .map_err(|e| at(Some(i), &fen_path, format!("'{fen}' is invalid: {e}")))?;
    if !position.dice().is_empty() {
        return Err(at(
            Some(i),
            &fen_path,
            format!("'{fen}' is invalid: a FEN without dice is expected (the games roll them)"),
        ));
    }
    for (c, side) in [(Color::White, "white"), (Color::Black, "black")] {
        if position.piece_bb(c, PieceType::King).0 == 0 {
            return Err(at(Some(i), &fen_path, format!("missing {side} king")));
        }
    }
    let attacker_color = color(&obj, "attackerColor", i)?;
    let defender_color = color(&obj, "defenderColor", i)?;
    if attacker_color == defender_color {
        return Err(at(
            Some(i),
            &ctx,
            "attackerColor and defenderColor must be opposite",
        ));
    }
    let king_chebyshev_distance = int32(&obj, "kingChebyshevDistance", i)?;
    let king_manhattan_distance = int32(&obj, "kingManhattanDistance", i)?;
    let theoretical_outcome = obj.string("theoreticalOutcome")?;
    let (chebyshev, manhattan) =
        king_distances(&position).ok_or_else(|| at(Some(i), &fen_path, "missing a king"))?;
    for (name, given, actual) in [
        ("kingChebyshevDistance", king_chebyshev_distance, chebyshev),
        ("kingManhattanDistance", king_manhattan_distance, manhattan),
    ] {
        if given != actual {
            return Err(at(
                Some(i),
                obj.path(name),
                format!("{given} does not match actual board distance {actual}"),
            ));
        }
    }
    Ok(EndgamePosition {
        id,
        category,
        name,
        description,
        fen,
        position,
        attacker_color,
        defender_color,
        king_chebyshev_distance,
        king_manhattan_distance,
        theoretical_outcome,
    })
}
