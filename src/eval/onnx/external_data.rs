//! Which files an ONNX model keeps tensor data in ("external data"): a minimal reader of the
//! protobuf wire format that walks only the messages that can hold tensors (the graph's
//! initializers and sparse initializers, node attributes and their subgraphs) and returns
//! each tensor's `location`.
//!
//! Why a hand-written walk: torch ≥ 2.13 exports weights to `model.onnx.data` beside
//! `model.onnx` by default, and the engine must know that before it hands the bytes to the
//! runtime, to hash the side file with the package and pass it from memory (never letting
//! the runtime open a path relative to the current directory). Pulling in a full ONNX
//! protobuf crate for four field numbers is not worth it. Needs no runtime, so it is tested
//! (and fuzzable) without the `onnx` feature.

/// A tensor stored outside `model.onnx`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalTensor {
    /// The tensor's name (empty when the file does not give one).
    pub name: String,
    /// The `location` entry: a file name relative to the model's folder (empty when the
    /// tensor says it is external but names no file).
    pub location: String,
}

use super::wire::{Fields, Value, WireError};

/// Nesting depth at which the walk gives up (subgraphs in attributes of subgraphs …): far
/// beyond any real model, and a bound on recursion for a hostile file.
const MAX_DEPTH: usize = 64;

/// The external tensors of a serialized `ModelProto`.
pub fn external_tensors(model: &[u8]) -> Result<Vec<ExternalTensor>, WireError> {
    let mut out = Vec::new();
    for (field, value) in Fields::new(model) {
        // ModelProto.graph = 7.
        if let (7, Value::Bytes(graph)) = (field?, value) {
            walk_graph(graph, 0, &mut out)?;
        }
    }
    Ok(out)
}

fn deeper(depth: usize) -> Result<usize, WireError> {
    if depth >= MAX_DEPTH {
        return Err(WireError(format!("messages nested over {MAX_DEPTH} deep")));
    }
    Ok(depth + 1)
}

/// GraphProto: node = 1, initializer = 5, sparse_initializer = 15.
fn walk_graph(buf: &[u8], depth: usize, out: &mut Vec<ExternalTensor>) -> Result<(), WireError> {
    let depth = deeper(depth)?;
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (1, Value::Bytes(node)) => walk_node(node, depth, out)?,
            (5, Value::Bytes(t)) => walk_tensor(t, out)?,
            (15, Value::Bytes(s)) => walk_sparse(s, out)?,
            _ => {}
        }
    }
    Ok(())
}

/// NodeProto: attribute = 5.
fn walk_node(buf: &[u8], depth: usize, out: &mut Vec<ExternalTensor>) -> Result<(), WireError> {
    for (field, value) in Fields::new(buf) {
        if let (5, Value::Bytes(attr)) = (field?, value) {
            walk_attribute(attr, depth, out)?;
        }
    }
    Ok(())
}

/// AttributeProto: t = 5, g = 6, tensors = 10, graphs = 11, sparse_tensor = 22,
/// sparse_tensors = 23.
fn walk_attribute(
    buf: &[u8],
    depth: usize,
    out: &mut Vec<ExternalTensor>,
) -> Result<(), WireError> {
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (5 | 10, Value::Bytes(t)) => walk_tensor(t, out)?,
            (6 | 11, Value::Bytes(g)) => walk_graph(g, depth, out)?,
            (22 | 23, Value::Bytes(s)) => walk_sparse(s, out)?,
            _ => {}
        }
    }
    Ok(())
}

/// SparseTensorProto: values = 1, indices = 2 (both TensorProto).
fn walk_sparse(buf: &[u8], out: &mut Vec<ExternalTensor>) -> Result<(), WireError> {
    for (field, value) in Fields::new(buf) {
        if let (1 | 2, Value::Bytes(t)) = (field?, value) {
            walk_tensor(t, out)?;
        }
    }
    Ok(())
}

/// TensorProto: name = 8, external_data = 13 (key = 1, value = 2), data_location = 14
/// (1 = EXTERNAL).
fn walk_tensor(buf: &[u8], out: &mut Vec<ExternalTensor>) -> Result<(), WireError> {
    let mut name = String::new();
    let mut location = None;
    let mut external = false;
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (8, Value::Bytes(n)) => name = String::from_utf8_lossy(n).into_owned(),
            (14, Value::Varint(v)) => external = v == 1,
            (13, Value::Bytes(entry)) => {
                let (mut key, mut val) = (None, None);
                for (f, v) in Fields::new(entry) {
                    match (f?, v) {
                        (1, Value::Bytes(k)) => key = Some(k),
                        (2, Value::Bytes(x)) => val = Some(x),
                        _ => {}
                    }
                }
                if key == Some(&b"location"[..]) {
                    location = Some(String::from_utf8_lossy(val.unwrap_or_default()).into_owned());
                }
            }
            _ => {}
        }
    }
    if external || location.is_some() {
        out.push(ExternalTensor {
            name,
            location: location.unwrap_or_default(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn bytes_field(n: u64, body: &[u8], out: &mut Vec<u8>) {
        varint(n << 3 | 2, out);
        varint(body.len() as u64, out);
        out.extend_from_slice(body);
    }

    fn tensor(name: &str, location: Option<&str>) -> Vec<u8> {
        let mut t = Vec::new();
        varint(1 << 3, &mut t); // dims = 1 (varint)
        varint(3, &mut t);
        bytes_field(8, name.as_bytes(), &mut t);
        if let Some(loc) = location {
            let mut e = Vec::new();
            bytes_field(1, b"location", &mut e);
            bytes_field(2, loc.as_bytes(), &mut e);
            bytes_field(13, &e, &mut t);
            varint(14 << 3, &mut t);
            varint(1, &mut t);
        }
        t
    }

    #[test]
    fn finds_initializers_and_attribute_tensors_in_subgraphs() {
        let mut inner = Vec::new();
        bytes_field(5, &tensor("deep", Some("model.onnx.data")), &mut inner);
        let mut attr = Vec::new();
        bytes_field(6, &inner, &mut attr);
        let mut node = Vec::new();
        bytes_field(5, &attr, &mut node);
        let mut graph = Vec::new();
        bytes_field(1, &node, &mut graph);
        bytes_field(5, &tensor("w", Some("../w.bin")), &mut graph);
        bytes_field(5, &tensor("b", None), &mut graph);
        let mut model = Vec::new();
        varint(1 << 3, &mut model); // ir_version
        varint(8, &mut model);
        bytes_field(7, &graph, &mut model);
        let found = external_tensors(&model).unwrap();
        assert_eq!(
            found,
            vec![
                ExternalTensor {
                    name: "deep".into(),
                    location: "model.onnx.data".into()
                },
                ExternalTensor {
                    name: "w".into(),
                    location: "../w.bin".into()
                },
            ]
        );
    }

    #[test]
    fn truncated_or_hostile_bytes_are_errors_not_panics() {
        let mut graph = Vec::new();
        bytes_field(5, &tensor("w", Some("model.onnx.data")), &mut graph);
        let mut model = Vec::new();
        bytes_field(7, &graph, &mut model);
        for cut in 1..model.len() {
            let _ = external_tensors(&model[..cut]);
        }
        assert!(external_tensors(&[0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
        // Nesting beyond the bound.
        let mut g = Vec::new();
        for _ in 0..200 {
            let mut attr = Vec::new();
            bytes_field(6, &g, &mut attr);
            let mut node = Vec::new();
            bytes_field(5, &attr, &mut node);
            g.clear();
            bytes_field(1, &node, &mut g);
        }
        let mut model = Vec::new();
        bytes_field(7, &g, &mut model);
        let err = external_tensors(&model).unwrap_err();
        assert!(err.0.contains("nested"), "{err}");
    }
}
