//! Reading a suite's JSON objects as the JVM arena's `SearchFixtureCatalog` reads them:
//! unknown and duplicated fields refused, strings non-empty, integers 64-bit, every
//! refusal naming its field.

use super::suite_error::{at, SuiteProblem};
use super::suite_json::Node;
use std::collections::HashSet;

/// The one `schemaVersion` the JVM arena's readers accept (its catalog and its endgame
/// suite), and ours.
pub const SUITE_SCHEMA_VERSION: i64 = 1;

/// The root's `schemaVersion`, which must be [`SUITE_SCHEMA_VERSION`].
pub(super) fn schema_version(root: &Obj<'_>) -> Result<i64, SuiteProblem> {
    let version = integer(root.required("schemaVersion")?, None, "root.schemaVersion")?;
    if version != SUITE_SCHEMA_VERSION {
        return Err(at(
            None,
            "root.schemaVersion",
            format!("unsupported schemaVersion {version} (expected {SUITE_SCHEMA_VERSION})"),
        ));
    }
    Ok(version)
}

/// An object's fields, checked against the allowed names (no unknown, no duplicate).
pub(super) struct Obj<'a> {
    case: Option<usize>,
    context: String,
    fields: &'a [(String, Node)],
}

impl<'a> Obj<'a> {
    pub(super) fn new(
        node: &'a Node,
        case: Option<usize>,
        context: &str,
        allowed: &[&str],
    ) -> Result<Obj<'a>, SuiteProblem> {
        let Node::Obj(fields) = node else {
            return Err(at(
                case,
                context,
                format!("must be an object, found {}", node.kind()),
            ));
        };
        let mut seen = HashSet::new();
        let mut duplicates = Vec::new();
        let mut unknown = Vec::new();
        for (name, _) in fields {
            if !seen.insert(name.as_str()) && !duplicates.contains(&name.as_str()) {
                duplicates.push(name.as_str());
            }
            if !allowed.contains(&name.as_str()) && !unknown.contains(&name.as_str()) {
                unknown.push(name.as_str());
            }
        }
        if !duplicates.is_empty() {
            return Err(at(
                case,
                context,
                format!("contains duplicate fields: {}", duplicates.join(", ")),
            ));
        }
        if !unknown.is_empty() {
            return Err(at(
                case,
                context,
                format!(
                    "contains unknown fields: {} (allowed: {})",
                    unknown.join(", "),
                    allowed.join(", ")
                ),
            ));
        }
        Ok(Obj {
            case,
            context: context.to_owned(),
            fields,
        })
    }

    pub(super) fn path(&self, name: &str) -> String {
        format!("{}.{name}", self.context)
    }

    pub(super) fn get(&self, name: &str) -> Option<&'a Node> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub(super) fn required(&self, name: &str) -> Result<&'a Node, SuiteProblem> {
        self.get(name)
            .ok_or_else(|| at(self.case, self.path(name), "is required"))
    }

    pub(super) fn string(&self, name: &str) -> Result<String, SuiteProblem> {
        non_empty_string(self.required(name)?, self.case, &self.path(name))
    }
}

/// `node` as a non-empty string.
pub(super) fn non_empty_string(
    node: &Node,
    case: Option<usize>,
    path: &str,
) -> Result<String, SuiteProblem> {
    match node {
        Node::Str(s) if !s.is_empty() => Ok(s.clone()),
        Node::Str(_) => Err(at(case, path, "must not be empty")),
        other => Err(at(
            case,
            path,
            format!("must be a string, found {}", other.kind()),
        )),
    }
}

/// `node` as a 64-bit integer.
pub(super) fn integer(node: &Node, case: Option<usize>, path: &str) -> Result<i64, SuiteProblem> {
    match node {
        Node::Number(n) => n.as_i64().ok_or_else(|| {
            at(
                case,
                path,
                format!("must be an integer (64-bit), found {n}"),
            )
        }),
        other => Err(at(
            case,
            path,
            format!("must be an integer, found {}", other.kind()),
        )),
    }
}

/// Record `id` of case `i` of the list `list` (`scenarios`, `positions`), refusing one seen
/// before: "duplicate id …: NOUN must be unique" at `list[i].id` (`noun`: `ids` in the
/// scenario catalog's wording, `position ids` in the endgame catalog's).
pub(super) fn unique_id(
    ids: &mut HashSet<String>,
    id: &str,
    i: usize,
    list: &str,
    noun: &str,
) -> Result<(), SuiteProblem> {
    if ids.insert(id.to_owned()) {
        Ok(())
    } else {
        Err(at(
            Some(i),
            format!("{list}[{i}].id"),
            format!("duplicate id {id:?}: {noun} must be unique"),
        ))
    }
}
