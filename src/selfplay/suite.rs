//! Arena suites (docs/suites.md): the JVM arena's search-evaluation catalog (positions with
//! dice and the turns expected of a bot, or an expected pass) and its endgame benchmark suite
//! (suite_endgame.rs: won endings played from both sides). A suite file is untrusted: it is
//! read field by field as the JVM's `SearchFixtureCatalog.parse` and
//! `EndgameBenchmarkCatalog.parse` read theirs (unknown and duplicated fields refused, every
//! expected turn checked against the rules, every king distance against the board), and every
//! refusal names the field, with the case's index.

use super::suite_endgame::{endgame_suite, EndgameSuite};
use super::suite_error::{at, SuiteError, SuiteProblem};
use super::suite_fields::{integer, non_empty_string, schema_version, unique_id, Obj};
use super::suite_json::Node;
use crate::board::Position;
use crate::rules::legal_paths;
use std::collections::HashSet;
use std::path::Path;

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

/// A suite of either kind; the root's case array names the kind (`scenarios` or
/// `positions`).
#[derive(Clone, Debug, PartialEq)]
pub enum Suite {
    /// A scenario suite (`scenarios`).
    Scenarios(ScenarioSuite),
    /// An endgame suite (`positions`).
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
    let Node::Obj(fields) = &root else {
        return Err(at(
            None,
            "root",
            format!("must be an object, found {}", root.kind()),
        ));
    };
    let has = |k: &str| fields.iter().any(|(n, _)| n == k);
    match (has("scenarios"), has("positions")) {
        (true, true) => Err(at(
            None,
            "root",
            "must have one of scenarios (a scenario suite) or positions (an endgame suite), not both",
        )),
        (false, true) => endgame_suite(&root).map(Suite::Endgames),
        _ => scenario_suite(&root).map(Suite::Scenarios),
    }
}

fn scenario_suite(root: &Node) -> Result<ScenarioSuite, SuiteProblem> {
    let root = Obj::new(
        root,
        None,
        "root",
        &["schemaVersion", "id", "description", "seedSet", "scenarios"],
    )?;
    schema_version(&root)?;
    let id = root.string("id")?;
    let description = root.string("description")?;
    let seed_set = seed_set(root.required("seedSet")?)?;
    let Node::Arr(items) = root.required("scenarios")? else {
        return Err(at(None, "root.scenarios", "must be an array"));
    };
    if items.is_empty() {
        return Err(at(None, "root.scenarios", "must not be empty"));
    }
    let mut ids = HashSet::new();
    let mut scenarios = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let s = scenario(item, i)?;
        unique_id(&mut ids, &s.id, i, "scenarios", "ids")?;
        scenarios.push(s);
    }
    Ok(ScenarioSuite {
        id,
        description,
        seed_set,
        scenarios,
    })
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
