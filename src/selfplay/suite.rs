//! Arena suites (docs/suites.md): the JVM arena's search-evaluation catalog (positions with
//! dice and the turns expected of a bot, or an expected pass) and our endgame suite in the
//! same shape (positions played out from the winning and the losing side). A suite file is
//! untrusted: it is read field by field as the JVM's `SearchFixtureCatalog.parse` reads its
//! catalog (unknown and duplicated fields refused, every expected turn checked against the
//! rules), and every refusal names the field, with the case's index.

use super::suite_error::{at, SuiteError, SuiteProblem};
use super::suite_fields::{integer, non_empty_string, Obj};
use super::suite_json::Node;
use crate::board::Position;
use crate::rules::legal_paths;
use dicechess_kernels::Color;
use std::collections::HashSet;
use std::path::Path;

/// The one `schemaVersion` the JVM arena's catalog reader accepts, and ours.
pub const SUITE_SCHEMA_VERSION: i64 = 1;
/// The seeds every case is run with (`seedSet`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSet {
    /// The seed set's stable id.
    pub id: String,
    /// The seeds, distinct, at least one.
    pub values: Vec<i64>,
}

/// A scenario's category (the JVM arena's `SearchScenarioCategory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioCategory {
    /// `tactical`.
    Tactical,
    /// `defensive`.
    Defensive,
    /// `endgame`.
    Endgame,
    /// `forced-pass`.
    ForcedPass,
}

impl ScenarioCategory {
    /// Every category, in the JVM arena's order.
    pub const ALL: [ScenarioCategory; 4] = [
        ScenarioCategory::Tactical,
        ScenarioCategory::Defensive,
        ScenarioCategory::Endgame,
        ScenarioCategory::ForcedPass,
    ];

    /// The id in suite files.
    pub fn id(self) -> &'static str {
        match self {
            ScenarioCategory::Tactical => "tactical",
            ScenarioCategory::Defensive => "defensive",
            ScenarioCategory::Endgame => "endgame",
            ScenarioCategory::ForcedPass => "forced-pass",
        }
    }
}

/// What a scenario expects of the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// `expectPass: true`: no legal turn, the bot passes.
    Pass,
    /// `expectedTurns`: one of these turns (UCI micro-moves), every one legal.
    Turns(Vec<Vec<String>>),
}

impl Expectation {
    /// Whether a decision (`None` for a pass, else the turn's UCI micro-moves) that was legal
    /// meets the expectation (an illegal decision never does).
    pub fn matches(&self, moves: Option<&[String]>, legal: bool) -> bool {
        legal
            && match (self, moves) {
                (Expectation::Pass, None) => true,
                (Expectation::Turns(allowed), Some(m)) => allowed.iter().any(|t| t == m),
                _ => false,
            }
    }
}

/// One position of a scenario suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The stable id, unique in the suite.
    pub id: String,
    /// The category.
    pub category: ScenarioCategory,
    /// Why the expected turns are right.
    pub description: String,
    /// The DFEN as written (canonical, with the rolled dice).
    pub dfen: String,
    /// The position.
    pub position: Position,
    /// What the bot should do.
    pub expectation: Expectation,
}

/// A scenario suite: the JVM arena's search-evaluation catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioSuite {
    /// The suite's stable id.
    pub id: String,
    /// What it covers.
    pub description: String,
    /// The seeds each scenario is decided with.
    pub seed_set: SeedSet,
    /// The scenarios, at least one, ids unique.
    pub scenarios: Vec<Scenario>,
}

/// One position of an endgame suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Endgame {
    /// The stable id, unique in the suite.
    pub id: String,
    /// What the position is.
    pub description: String,
    /// The DFEN as written (canonical, six fields: the game rolls the dice).
    pub dfen: String,
    /// The position.
    pub position: Position,
    /// The side that should win (`winningSide`).
    pub winning_side: Color,
    /// Adjudicate a draw after this many turns (`turnLimit`; the arena's `--turn-limit`
    /// when absent).
    pub turn_limit: Option<u32>,
}

/// An endgame suite: positions played out from each side.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameSuite {
    /// The suite's stable id.
    pub id: String,
    /// What it covers.
    pub description: String,
    /// Each endgame is played once per seed (and per side).
    pub seed_set: SeedSet,
    /// The endgames, at least one, ids unique.
    pub endgames: Vec<Endgame>,
}

/// A suite of either kind; the root's case array names the kind (`scenarios` or `endgames`).
#[derive(Clone, Debug, PartialEq)]
pub enum Suite {
    /// A scenario suite (`scenarios`).
    Scenarios(ScenarioSuite),
    /// An endgame suite (`endgames`).
    Endgames(EndgameSuite),
}

/// Read the suite file at `path`.
pub fn load_suite(path: &Path) -> Result<Suite, SuiteError> {
    let bytes = std::fs::read(path).map_err(|source| SuiteError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse_suite(&bytes).map_err(|problem| SuiteError::Invalid {
        path: path.to_owned(),
        problem,
    })
}

/// Read a suite from its bytes.
pub fn parse_suite(bytes: &[u8]) -> Result<Suite, SuiteProblem> {
    let root = Node::parse(bytes).map_err(|e| SuiteProblem::Json(e.to_string()))?;
    let kind = match &root {
        Node::Obj(fields) => {
            let has = |k: &str| fields.iter().any(|(n, _)| n == k);
            match (has("scenarios"), has("endgames")) {
                (true, true) => {
                    return Err(at(
                        None,
                        "root",
                        "must have one of scenarios or endgames, not both",
                    ))
                }
                (false, true) => CaseKind::Endgames,
                _ => CaseKind::Scenarios,
            }
        }
        other => {
            return Err(at(
                None,
                "root",
                format!("must be an object, found {}", other.kind()),
            ))
        }
    };
    let root = Obj::new(&root, None, "root", kind.root_fields())?;
    let version = root.required("schemaVersion")?;
    let version = integer(version, None, "root.schemaVersion")?;
    if version != SUITE_SCHEMA_VERSION {
        return Err(at(
            None,
            "root.schemaVersion",
            format!("unsupported schemaVersion {version} (expected {SUITE_SCHEMA_VERSION})"),
        ));
    }
    let id = root.string("id")?;
    let description = root.string("description")?;
    let seed_set = seed_set(root.required("seedSet")?)?;
    let list = root.required(kind.key())?;
    let Node::Arr(items) = list else {
        return Err(at(None, format!("root.{}", kind.key()), "must be an array"));
    };
    if items.is_empty() {
        return Err(at(
            None,
            format!("root.{}", kind.key()),
            "must not be empty",
        ));
    }
    let mut ids = HashSet::new();
    let suite = match kind {
        CaseKind::Scenarios => {
            let mut scenarios = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let s = scenario(item, i)?;
                unique(&mut ids, &s.id, i, "scenarios")?;
                scenarios.push(s);
            }
            Suite::Scenarios(ScenarioSuite {
                id,
                description,
                seed_set,
                scenarios,
            })
        }
        CaseKind::Endgames => {
            let mut endgames = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let e = endgame(item, i)?;
                unique(&mut ids, &e.id, i, "endgames")?;
                endgames.push(e);
            }
            Suite::Endgames(EndgameSuite {
                id,
                description,
                seed_set,
                endgames,
            })
        }
    };
    Ok(suite)
}

#[derive(Clone, Copy)]
enum CaseKind {
    Scenarios,
    Endgames,
}

impl CaseKind {
    fn key(self) -> &'static str {
        match self {
            CaseKind::Scenarios => "scenarios",
            CaseKind::Endgames => "endgames",
        }
    }

    fn root_fields(self) -> &'static [&'static str] {
        match self {
            CaseKind::Scenarios => &["schemaVersion", "id", "description", "seedSet", "scenarios"],
            CaseKind::Endgames => &["schemaVersion", "id", "description", "seedSet", "endgames"],
        }
    }
}
fn unique(ids: &mut HashSet<String>, id: &str, i: usize, list: &str) -> Result<(), SuiteProblem> {
    if ids.insert(id.to_owned()) {
        Ok(())
    } else {
        Err(at(
            Some(i),
            format!("{list}[{i}].id"),
            format!("duplicate id {id:?}: ids must be unique"),
        ))
    }
}
fn seed_set(node: &Node) -> Result<SeedSet, SuiteProblem> {
    let obj = Obj::new(node, None, "seedSet", &["id", "values"])?;
    let id = obj.string("id")?;
    let Node::Arr(items) = obj.required("values")? else {
        return Err(at(None, "seedSet.values", "must be an array"));
    };
    let mut values = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let v = integer(item, None, &format!("seedSet.values[{i}]"))?;
        if values.contains(&v) {
            return Err(at(None, "seedSet.values", "must not contain duplicates"));
        }
        values.push(v);
    }
    if values.is_empty() {
        return Err(at(None, "seedSet.values", "must not be empty"));
    }
    Ok(SeedSet { id, values })
}

/// The position of `dfen`, which must be written canonically (as the JVM reader asks).
fn position(dfen: &str, case: usize, path: &str) -> Result<Position, SuiteProblem> {
    let pos =
        Position::from_dfen(dfen).map_err(|e| at(Some(case), path, format!("is invalid: {e}")))?;
    let canonical = pos.to_dfen();
    if canonical != dfen {
        return Err(at(
            Some(case),
            path,
            format!("is not canonical; use {canonical:?}"),
        ));
    }
    Ok(pos)
}

fn scenario(node: &Node, i: usize) -> Result<Scenario, SuiteProblem> {
    let ctx = format!("scenarios[{i}]");
    let obj = Obj::new(
        node,
        Some(i),
        &ctx,
        &[
            "id",
            "category",
            "description",
            "dfen",
            "expectedTurns",
            "expectPass",
        ],
    )?;
    let id = obj.string("id")?;
    let category_id = obj.string("category")?;
    let category = ScenarioCategory::ALL
        .into_iter()
        .find(|c| c.id() == category_id)
        .ok_or_else(|| {
            let ids: Vec<&str> = ScenarioCategory::ALL.iter().map(|c| c.id()).collect();
            at(
                Some(i),
                obj.path("category"),
                format!(
                    "unknown category {category_id:?} (expected: {})",
                    ids.join(", ")
                ),
            )
        })?;
    let description = obj.string("description")?;
    let dfen = obj.string("dfen")?;
    let position = position(&dfen, i, &obj.path("dfen"))?;
    if position.dice().is_empty() {
        return Err(at(
            Some(i),
            obj.path("dfen"),
            "must include a non-empty dice pool",
        ));
    }
    let expectation = match (obj.get("expectedTurns"), obj.get("expectPass")) {
        (Some(_), Some(_)) | (None, None) => {
            return Err(at(
                Some(i),
                ctx,
                "must define exactly one of expectedTurns or expectPass",
            ))
        }
        (None, Some(Node::Bool(true))) => Expectation::Pass,
        (None, Some(Node::Bool(false))) => {
            return Err(at(
                Some(i),
                obj.path("expectPass"),
                "must be true when present",
            ))
        }
        (None, Some(_)) => return Err(at(Some(i), obj.path("expectPass"), "must be a boolean")),
        (Some(turns), None) => {
            Expectation::Turns(expected_turns(turns, i, &obj.path("expectedTurns"))?)
        }
    };
    let legal: HashSet<Vec<String>> = legal_paths(&position)
        .iter()
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .collect();
    match &expectation {
        Expectation::Pass if !legal.is_empty() => {
            return Err(at(
                Some(i),
                ctx,
                "expects a pass but the position has legal turns",
            ))
        }
        Expectation::Turns(allowed) => {
            let illegal: Vec<String> = allowed
                .iter()
                .filter(|t| !legal.contains(*t))
                .map(|t| format!("[{}]", t.join(" ")))
                .collect();
            if !illegal.is_empty() {
                return Err(at(
                    Some(i),
                    obj.path("expectedTurns"),
                    format!("contains illegal turns: {}", illegal.join(", ")),
                ));
            }
        }
        Expectation::Pass => {}
    }
    Ok(Scenario {
        id,
        category,
        description,
        dfen,
        position,
        expectation,
    })
}

fn expected_turns(node: &Node, i: usize, path: &str) -> Result<Vec<Vec<String>>, SuiteProblem> {
    let Node::Arr(items) = node else {
        return Err(at(Some(i), path, "must be an array"));
    };
    let mut allowed: Vec<Vec<String>> = Vec::with_capacity(items.len());
    for (t, item) in items.iter().enumerate() {
        let Node::Arr(moves) = item else {
            return Err(at(Some(i), format!("{path}[{t}]"), "must be an array"));
        };
        let mut turn = Vec::with_capacity(moves.len());
        for (m, mv) in moves.iter().enumerate() {
            turn.push(non_empty_string(mv, Some(i), &format!("{path}[{t}][{m}]"))?);
        }
        if turn.is_empty() {
            return Err(at(Some(i), format!("{path}[{t}]"), "must not be empty"));
        }
        if allowed.contains(&turn) {
            return Err(at(Some(i), path, "must not contain duplicates"));
        }
        allowed.push(turn);
    }
    if allowed.is_empty() {
        return Err(at(Some(i), path, "must not be empty"));
    }
    Ok(allowed)
}

fn endgame(node: &Node, i: usize) -> Result<Endgame, SuiteProblem> {
    let ctx = format!("endgames[{i}]");
    let obj = Obj::new(
        node,
        Some(i),
        &ctx,
        &["id", "description", "dfen", "winningSide", "turnLimit"],
    )?;
    let id = obj.string("id")?;
    let description = obj.string("description")?;
    let dfen = obj.string("dfen")?;
    let position = position(&dfen, i, &obj.path("dfen"))?;
    if !position.dice().is_empty() {
        return Err(at(
            Some(i),
            obj.path("dfen"),
            "must not include dice (the game rolls them)",
        ));
    }
    let winning_side = match obj.string("winningSide")?.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            return Err(at(
                Some(i),
                obj.path("winningSide"),
                format!("must be \"white\" or \"black\", found {other:?}"),
            ))
        }
    };
    let turn_limit = match obj.get("turnLimit") {
        None => None,
        Some(n) => {
            let path = obj.path("turnLimit");
            let v = integer(n, Some(i), &path)?;
            match u32::try_from(v) {
                Ok(v) if v >= 1 => Some(v),
                _ => {
                    return Err(at(
                        Some(i),
                        path,
                        format!("must be from 1 to {}, found {v}", u32::MAX),
                    ))
                }
            }
        }
    };
    Ok(Endgame {
        id,
        description,
        dfen,
        position,
        winning_side,
        turn_limit,
    })
}
