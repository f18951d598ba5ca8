//! Shared helpers of the integration tests: loading `../shared/vectors`, hashing.
#![allow(dead_code)]

use serde_json::Value;
use sha2::{Digest, Sha256};

pub fn load(name: &str) -> Value {
    let path = format!(
        "{}/{}.json",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/vectors"),
        name
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {path}: {e}"))
}

pub fn cases(v: &Value) -> &Vec<Value> {
    v["cases"].as_array().expect("cases array")
}

pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

pub fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not an integer in {v}"))
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_str().expect("string").to_string())
        .collect()
}

pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Sorted "m1,m2,m3" lines of a path list.
pub fn path_lines(paths: &[Vec<String>]) -> Vec<String> {
    let mut lines: Vec<String> = paths.iter().map(|p| p.join(",")).collect();
    lines.sort();
    lines
}

/// The vectors' sha256 of a path list: lines sorted as bytes, joined by "\n", no trailing
/// newline (established in reference_vectors.rs).
pub fn paths_sha256(lines: &[String]) -> String {
    let mut lines = lines.to_vec();
    lines.sort();
    sha256_hex(lines.join("\n").as_bytes())
}
