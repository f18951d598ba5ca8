//! A plain MLP read out of `model.onnx`: the dense layers (`Gemm`, or `MatMul` then `Add`),
//! their `Relu`s and a final `Sigmoid`, with their float32 weights — the graphs
//! `python -m dicechess.train` exports and the test fixtures use. Anything else (another
//! operator, a branch, weights kept in `model.onnx.data`) is refused with the reason, and
//! the model stays with ONNX Runtime.
//!
//! Why: ONNX Runtime costs about 4 µs per call before any arithmetic, and a leaf batch of a
//! chance node is a few hundred rows; the forward pass of a 13→32→1 MLP is about 450
//! multiply-adds per row. Read from the same bytes ORT runs, the native forward agrees with
//! ORT within 10⁻⁵ (tests/native_mlp.rs) and leaves ORT as the reference.

use super::wire::{packed_varints, Fields, Value, WireError};

/// One dense layer: `y = x · W + b`, then `max(y, 0)` when `relu`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    /// Input width.
    pub inputs: usize,
    /// Output width.
    pub outputs: usize,
    /// `inputs × outputs`, row-major (row `i` holds input `i`'s weight to every output).
    pub weights: Vec<f32>,
    /// `outputs` biases.
    pub bias: Vec<f32>,
    /// A `Relu` follows.
    pub relu: bool,
}

/// The network: dense layers in order, then a sigmoid or not.
#[derive(Clone, Debug, PartialEq)]
pub struct MlpGraph {
    /// The layers, input first.
    pub layers: Vec<Dense>,
    /// The output is `sigmoid` of the last layer.
    pub sigmoid: bool,
}

/// Why a graph is not one the native forward runs.
#[derive(Debug, thiserror::Error)]
pub enum MlpGraphError {
    /// The bytes are not protobuf.
    #[error(transparent)]
    Wire(#[from] WireError),
    /// A valid graph of another shape.
    #[error("not a plain MLP (native forward needs Gemm or MatMul+Add layers, Relu, a final Sigmoid): {0}")]
    Shape(String),
}

fn shape(m: impl Into<String>) -> MlpGraphError {
    MlpGraphError::Shape(m.into())
}

/// A float initializer.
struct Tensor {
    dims: Vec<usize>,
    values: Vec<f32>,
}

/// An operator node.
struct Node {
    op: String,
    inputs: Vec<String>,
    outputs: Vec<String>,
    /// (name, float value or int value).
    attributes: Vec<(String, Option<f32>, Option<i64>)>,
}

impl Node {
    fn float_attr(&self, name: &str, default: f32) -> f32 {
        self.attributes
            .iter()
            .find(|a| a.0 == name)
            .and_then(|a| a.1)
            .unwrap_or(default)
    }

    fn int_attr(&self, name: &str, default: i64) -> i64 {
        self.attributes
            .iter()
            .find(|a| a.0 == name)
            .and_then(|a| a.2)
            .unwrap_or(default)
    }
}

fn string(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// TensorProto: dims = 1, data_type = 2, float_data = 4, name = 8, raw_data = 9,
/// data_location = 14.
fn read_tensor(buf: &[u8]) -> Result<(String, Tensor), MlpGraphError> {
    let (mut name, mut dims, mut data_type) = (String::new(), Vec::new(), 0u64);
    let (mut raw, mut floats) = (None, Vec::new());
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (1, Value::Varint(d)) => dims.push(d),
            (1, Value::Bytes(packed)) => dims.extend(packed_varints(packed)?),
            (2, Value::Varint(t)) => data_type = t,
            (4, Value::Bytes(packed)) => floats.extend(
                packed
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
            (4, Value::Fixed(c)) if c.len() == 4 => {
                floats.push(f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            }
            (8, Value::Bytes(n)) => name = string(n),
            (9, Value::Bytes(r)) => raw = Some(r),
            (14, Value::Varint(1)) => {
                return Err(shape(format!(
                    "initializer {name:?} keeps its data in model.onnx.data"
                )))
            }
            _ => {}
        }
    }
    if data_type != 1 {
        return Err(shape(format!(
            "initializer {name:?} has data type {data_type}, not float32 (1)"
        )));
    }
    let dims: Vec<usize> = dims
        .into_iter()
        .map(|d| usize::try_from(d).map_err(|_| shape(format!("{name:?}: dimension {d}"))))
        .collect::<Result<_, _>>()?;
    let count = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| shape(format!("{name:?}: dimensions overflow")))?;
    let values = match raw {
        Some(r) => r
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        None => floats,
    };
    if values.len() != count {
        return Err(shape(format!(
            "initializer {name:?} has {} values for dimensions {dims:?}",
            values.len()
        )));
    }
    Ok((name, Tensor { dims, values }))
}

/// AttributeProto: name = 1, f = 2, i = 3.
fn read_attribute(buf: &[u8]) -> Result<(String, Option<f32>, Option<i64>), MlpGraphError> {
    let (mut name, mut f, mut i) = (String::new(), None, None);
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (1, Value::Bytes(n)) => name = string(n),
            (2, Value::Fixed(c)) if c.len() == 4 => {
                f = Some(f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            }
            (3, Value::Varint(v)) => i = Some(v as i64),
            _ => {}
        }
    }
    Ok((name, f, i))
}

/// NodeProto: input = 1, output = 2, op_type = 4, attribute = 5.
fn read_node(buf: &[u8]) -> Result<Node, MlpGraphError> {
    let mut node = Node {
        op: String::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        attributes: Vec::new(),
    };
    for (field, value) in Fields::new(buf) {
        match (field?, value) {
            (1, Value::Bytes(s)) => node.inputs.push(string(s)),
            (2, Value::Bytes(s)) => node.outputs.push(string(s)),
            (4, Value::Bytes(s)) => node.op = string(s),
            (5, Value::Bytes(a)) => node.attributes.push(read_attribute(a)?),
            _ => {}
        }
    }
    Ok(node)
}

/// The MLP of a serialized `ModelProto` whose graph maps tensor `input` to `output`.
pub fn read_mlp(model: &[u8], input: &str, output: &str) -> Result<MlpGraph, MlpGraphError> {
    let mut nodes = Vec::new();
    let mut inits: Vec<(String, Tensor)> = Vec::new();
    let mut graphs = 0;
    for (field, value) in Fields::new(model) {
        if let (7, Value::Bytes(graph)) = (field?, value) {
            graphs += 1;
            for (f, v) in Fields::new(graph) {
                match (f?, v) {
                    (1, Value::Bytes(n)) => nodes.push(read_node(n)?),
                    (5, Value::Bytes(t)) => inits.push(read_tensor(t)?),
                    (15, Value::Bytes(_)) => return Err(shape("a sparse initializer")),
                    _ => {}
                }
            }
        }
    }
    if graphs != 1 {
        return Err(shape(format!("{graphs} graphs")));
    }
    let init = |name: &str| inits.iter().find(|(n, _)| n == name).map(|(_, t)| t);
    let mut layers: Vec<Dense> = Vec::new();
    let mut sigmoid = false;
    let mut current = input.to_owned();
    let mut pending_matmul: Option<Dense> = None;
    for node in &nodes {
        if sigmoid {
            return Err(shape(format!("{} after the Sigmoid", node.op)));
        }
        let first = node.inputs.first().map(String::as_str);
        let consumes = first == Some(current.as_str());
        let out = node
            .outputs
            .first()
            .ok_or_else(|| shape(format!("{} without an output", node.op)))?;
        match node.op.as_str() {
            "Gemm" if consumes && pending_matmul.is_none() => {
                if node.int_attr("transA", 0) != 0 {
                    return Err(shape("Gemm with transA"));
                }
                let trans_b = node.int_attr("transB", 0) != 0;
                let (alpha, beta) = (node.float_attr("alpha", 1.0), node.float_attr("beta", 1.0));
                let w = node.inputs.get(1).and_then(|n| init(n));
                let w = w.ok_or_else(|| shape("Gemm weights are not an initializer"))?;
                let mut dense = dense_from(w, trans_b, alpha)?;
                if let Some(b) = node.inputs.get(2).filter(|n| !n.is_empty()) {
                    let b = init(b).ok_or_else(|| shape("Gemm bias is not an initializer"))?;
                    add_bias(&mut dense, b, beta)?;
                }
                layers.push(dense);
            }
            "MatMul" if consumes && pending_matmul.is_none() => {
                let w = node.inputs.get(1).and_then(|n| init(n));
                let w = w.ok_or_else(|| shape("MatMul weights are not an initializer"))?;
                pending_matmul = Some(dense_from(w, false, 1.0)?);
            }
            "Add" if consumes && pending_matmul.is_some() => {
                let b = node.inputs.get(1).and_then(|n| init(n));
                let b = b.ok_or_else(|| shape("Add operand is not an initializer"))?;
                let mut dense = pending_matmul.take().ok_or_else(|| shape("Add"))?;
                add_bias(&mut dense, b, 1.0)?;
                layers.push(dense);
            }
            "Relu" if consumes && pending_matmul.is_none() => {
                let last = layers
                    .last_mut()
                    .filter(|l| !l.relu)
                    .ok_or_else(|| shape("Relu not after a dense layer"))?;
                last.relu = true;
            }
            "Sigmoid" if consumes && pending_matmul.is_none() && !layers.is_empty() => {
                sigmoid = true;
            }
            op => {
                return Err(shape(format!(
                    "operator {op} on {:?} (the chain is at {current:?})",
                    node.inputs
                )))
            }
        }
        current = out.clone();
    }
    if let Some(d) = pending_matmul {
        // A MatMul without its Add: a layer without a bias.
        layers.push(d);
    }
    if current != output {
        return Err(shape(format!(
            "the chain ends at {current:?}, not at the output {output:?}"
        )));
    }
    if layers.is_empty() {
        return Err(shape("no dense layer"));
    }
    for pair in layers.windows(2) {
        if pair[0].outputs != pair[1].inputs {
            return Err(shape(format!(
                "a layer of width {} feeds one of width {}",
                pair[0].outputs, pair[1].inputs
            )));
        }
    }
    let last = layers.last().map_or(0, |l| l.outputs);
    if last != 1 {
        return Err(shape(format!("{last} outputs, not 1")));
    }
    Ok(MlpGraph { layers, sigmoid })
}

fn dense_from(w: &Tensor, trans_b: bool, alpha: f32) -> Result<Dense, MlpGraphError> {
    let [a, b] = w.dims[..] else {
        return Err(shape(format!("weights of dimensions {:?}", w.dims)));
    };
    let (inputs, outputs) = if trans_b { (b, a) } else { (a, b) };
    let mut weights = vec![0.0f32; inputs * outputs];
    for i in 0..inputs {
        for j in 0..outputs {
            let v = if trans_b {
                w.values[j * inputs + i]
            } else {
                w.values[i * outputs + j]
            };
            weights[i * outputs + j] = alpha * v;
        }
    }
    Ok(Dense {
        inputs,
        outputs,
        weights,
        bias: vec![0.0; outputs],
        relu: false,
    })
}

fn add_bias(dense: &mut Dense, b: &Tensor, beta: f32) -> Result<(), MlpGraphError> {
    let n = b.values.len();
    if n == dense.outputs {
        for (x, v) in dense.bias.iter_mut().zip(&b.values) {
            *x += beta * v;
        }
    } else if n == 1 {
        for x in dense.bias.iter_mut() {
            *x += beta * b.values[0];
        }
    } else {
        return Err(shape(format!(
            "a bias of {n} values for {} outputs",
            dense.outputs
        )));
    }
    Ok(())
}

impl MlpGraph {
    /// Input width.
    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, |l| l.inputs)
    }

    /// The output for one row of `inputs()` features; `scratch` is reused between calls.
    ///
    /// A layer's outputs are computed eight at a time into a local accumulator the compiler
    /// keeps in registers (`x_i · W[i, t..t+8]` over contiguous rows of `W`, vectorised
    /// over the eight); a one-output layer is a dot product over eight partial sums. The
    /// first version accumulated into the output vector in memory: 283 ns a row for
    /// material-7 → 32 → 1, most of it a store-to-load chain through the single output
    /// (perf); `benches/native_mlp.rs` has today's numbers.
    ///
    /// On a CPU with AVX the same loops run compiled for AVX ([`MlpGraph::forward_portable`]
    /// otherwise): the eight-output tile is one 256-bit register instead of two 128-bit
    /// ones. Every lane still does its own multiply, then its own add, in the same order —
    /// no fused multiply-add — so both forms give the same bits (tests/native_mlp.rs), as
    /// the wasm32 build does. Why: on `best-net`'s 20 → 32 → 32 → 1 net the forward pass
    /// was 41 % of a Kiwipete decision (perf); the numbers are at `forward_avx`.
    pub fn forward(&self, x: &[f32], scratch: &mut [Vec<f32>; 2]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: `forward_avx` is compiled for AVX, and this CPU has it (checked on
            // the line above; `is_x86_feature_detected!` caches the answer).
            return unsafe { self.forward_avx(x, scratch) };
        }
        self.forward_portable(x, scratch)
    }

    /// [`MlpGraph::forward`] compiled for the build's baseline CPU (x86-64-v2: SSE4.2, or
    /// wasm32's 128-bit SIMD): the reference the AVX form is tested against.
    pub fn forward_portable(&self, x: &[f32], scratch: &mut [Vec<f32>; 2]) -> f32 {
        self.forward_body(x, scratch)
    }

    /// [`MlpGraph::forward_body`] compiled for AVX. One core of the 2-core AVX-512 Xeon we
    /// measure on, `best-net`'s 20 → 32 → 32 → 1 net: see `benches/native_mlp.rs`.
    ///
    /// # Safety
    /// The CPU must support AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn forward_avx(&self, x: &[f32], scratch: &mut [Vec<f32>; 2]) -> f32 {
        self.forward_body(x, scratch)
    }

    /// The forward pass, inlined into each compiled form.
    #[inline(always)]
    fn forward_body(&self, x: &[f32], scratch: &mut [Vec<f32>; 2]) -> f32 {
        let [a, b] = scratch;
        a.clear();
        a.extend_from_slice(x);
        for layer in &self.layers {
            b.clear();
            if layer.outputs == 1 {
                b.push(layer.bias[0] + dot(a, &layer.weights));
            } else {
                dense_into(layer, a, b);
            }
            if layer.relu {
                for y in b.iter_mut() {
                    *y = y.max(0.0);
                }
            }
            std::mem::swap(a, b);
        }
        self.squash(a[0])
    }

    /// The last layer's output through the sigmoid when the graph has one.
    #[inline(always)]
    pub(super) fn squash(&self, z: f32) -> f32 {
        if self.sigmoid {
            // `libm::expf`, not `f32::exp`: the same bits on every target (Cargo.toml).
            1.0 / (1.0 + libm::expf(-z))
        } else {
            z
        }
    }
}

/// Outputs per register tile.
const TILE: usize = 8;

/// `out = x · W + b` for a layer of several outputs: groups of four tiles (32 outputs),
/// then single tiles, then the outputs left over one by one.
///
/// Why groups: one tile accumulates through one register, so each input waits for the
/// previous add (4 cycles); four tiles side by side are four independent chains per
/// input. Each output still sums bias, then `x_0 w_0`, `x_1 w_1`, … in that order, so the
/// bits do not depend on the grouping. `best-net`'s 20 → 32 → 32 → 1 forward pass: see
/// `benches/native_mlp.rs` and the numbers at [`MlpGraph::forward`].
#[inline(always)]
fn dense_into(layer: &Dense, x: &[f32], out: &mut Vec<f32>) {
    let n = layer.outputs;
    out.resize(n, 0.0);
    let mut t = 0;
    while t + 4 * TILE <= n {
        tiles::<4>(layer, x, out, t);
        t += 4 * TILE;
    }
    while t + TILE <= n {
        tiles::<1>(layer, x, out, t);
        t += TILE;
    }
    for (j, o) in out.iter_mut().enumerate().skip(t) {
        *o = one_output(layer, x, j);
    }
}

/// Output `j` of a dense layer alone, summed in the tiles' order: bias, then `x_0 w_0`,
/// `x_1 w_1`, … (the outputs a layer's tiles leave over, here and in `mlp_rows`).
#[inline(always)]
pub(super) fn one_output(layer: &Dense, x: &[f32], j: usize) -> f32 {
    let mut acc = layer.bias[j];
    for (i, &xi) in x.iter().enumerate() {
        acc += xi * layer.weights[i * layer.outputs + j];
    }
    acc
}

/// Outputs `t .. t + G·TILE` of a dense layer, in `G` register tiles.
#[inline(always)]
fn tiles<const G: usize>(layer: &Dense, x: &[f32], out: &mut [f32], t: usize) {
    let n = layer.outputs;
    let mut acc = [[0.0f32; TILE]; G];
    for (g, a) in acc.iter_mut().enumerate() {
        a.copy_from_slice(&layer.bias[t + g * TILE..t + (g + 1) * TILE]);
    }
    for (&xi, row) in x.iter().zip(layer.weights.chunks_exact(n)) {
        let w = &row[t..t + G * TILE];
        for (a, ws) in acc.iter_mut().zip(w.chunks_exact(TILE)) {
            for k in 0..TILE {
                a[k] += xi * ws[k];
            }
        }
    }
    for (g, a) in acc.iter().enumerate() {
        out[t + g * TILE..t + (g + 1) * TILE].copy_from_slice(a);
    }
}

/// `Σ x_i · w_i` over eight partial sums.
#[inline(always)]
pub(super) fn dot(x: &[f32], w: &[f32]) -> f32 {
    let mut acc = [0.0f32; TILE];
    let (xc, wc) = (x.chunks_exact(TILE), w.chunks_exact(TILE));
    let (xr, wr) = (xc.remainder(), wc.remainder());
    for (xs, ws) in xc.zip(wc) {
        for k in 0..TILE {
            acc[k] += xs[k] * ws[k];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (a, b) in xr.iter().zip(wr) {
        sum += a * b;
    }
    sum
}
