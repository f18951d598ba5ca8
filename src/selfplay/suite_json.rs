//! A JSON tree that keeps each object's fields in their order, duplicates included, so that
//! the suite reader can refuse a duplicated field as the JVM arena's reader does
//! (`serde_json::Value` keeps only the last of them). Reading goes through `serde_json`, so
//! its recursion limit (128 levels) holds for untrusted files.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// One JSON value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number as `serde_json` read it (an integer when it has no fraction or exponent).
    Number(serde_json::Number),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Node>),
    /// An object's fields in file order, duplicates kept.
    Obj(Vec<(String, Node)>),
}

impl Node {
    /// Parse `bytes` as one JSON document.
    pub(crate) fn parse(bytes: &[u8]) -> Result<Node, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// What kind of value this is, for error messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Number(_) => "a number",
            Node::Str(_) => "a string",
            Node::Arr(_) => "an array",
            Node::Obj(_) => "an object",
        }
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        // serde_json never yields a non-finite number; `null` stands in if it ever did.
        Ok(serde_json::Number::from_f64(v).map_or(Node::Null, Node::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut fields = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            fields.push((key, value));
        }
        Ok(Node::Obj(fields))
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}
