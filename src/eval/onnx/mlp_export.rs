//! An [`MlpGraph`] written as ONNX (`ModelProto`, IR 8, opset 13): the graph
//! `python -m dicechess.train` exports — per layer a `Gemm` over float32 initializers
//! `w{k}` `[in, out]` and `b{k}` `[out]`, a `Relu` where the layer has one, a final
//! `Sigmoid` — with `[batch, width]` value infos on the input and `[batch, 1]` on the
//! output. The inverse of [`read_mlp`](super::read_mlp); ONNX Runtime runs what it writes
//! (tests/native_mlp.rs), so a network built or changed in Rust becomes a model package.

use super::mlp_graph::MlpGraph;

fn varint(out: &mut Vec<u8>, mut v: u64) {
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

fn field_varint(out: &mut Vec<u8>, field: u64, v: u64) {
    varint(out, field << 3);
    varint(out, v);
}

fn field_bytes(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    varint(out, (field << 3) | 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// TensorProto: dims 1, data_type 2 (FLOAT = 1), name 8, raw_data 9.
fn tensor(name: &str, dims: &[usize], values: &[f32]) -> Vec<u8> {
    let mut t = Vec::new();
    for &d in dims {
        field_varint(&mut t, 1, d as u64);
    }
    field_varint(&mut t, 2, 1);
    field_bytes(&mut t, 8, name.as_bytes());
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    field_bytes(&mut t, 9, &raw);
    t
}

/// NodeProto: input 1, output 2, op_type 4.
fn node(op: &str, inputs: &[&str], output: &str) -> Vec<u8> {
    let mut n = Vec::new();
    for i in inputs {
        field_bytes(&mut n, 1, i.as_bytes());
    }
    field_bytes(&mut n, 2, output.as_bytes());
    field_bytes(&mut n, 4, op.as_bytes());
    n
}

/// ValueInfoProto of a float tensor `[batch, width]`.
fn value_info(name: &str, width: usize) -> Vec<u8> {
    let mut dim_batch = Vec::new();
    field_bytes(&mut dim_batch, 2, b"batch");
    let mut dim_width = Vec::new();
    field_varint(&mut dim_width, 1, width as u64);
    let mut shape = Vec::new();
    field_bytes(&mut shape, 1, &dim_batch);
    field_bytes(&mut shape, 1, &dim_width);
    let mut tensor_type = Vec::new();
    field_varint(&mut tensor_type, 1, 1);
    field_bytes(&mut tensor_type, 2, &shape);
    let mut ty = Vec::new();
    field_bytes(&mut ty, 1, &tensor_type);
    let mut vi = Vec::new();
    field_bytes(&mut vi, 1, name.as_bytes());
    field_bytes(&mut vi, 2, &ty);
    vi
}

impl MlpGraph {
    /// The network as a serialized ONNX `ModelProto` mapping tensor `input` to `output`.
    pub fn to_onnx(&self, input: &str, output: &str) -> Vec<u8> {
        let mut graph = Vec::new();
        let mut h = input.to_owned();
        let last = self.layers.len().saturating_sub(1);
        for (k, layer) in self.layers.iter().enumerate() {
            let (w, b) = (format!("w{k}"), format!("b{k}"));
            let done = k == last && !layer.relu && !self.sigmoid;
            let z = if done {
                output.to_owned()
            } else {
                format!("z{k}")
            };
            field_bytes(&mut graph, 1, &node("Gemm", &[&h, &w, &b], &z));
            h = z;
            if layer.relu {
                let r = if k == last && !self.sigmoid {
                    output.to_owned()
                } else {
                    format!("h{k}")
                };
                field_bytes(&mut graph, 1, &node("Relu", &[&h], &r));
                h = r;
            }
            field_bytes(
                &mut graph,
                5,
                &tensor(&w, &[layer.inputs, layer.outputs], &layer.weights),
            );
            field_bytes(&mut graph, 5, &tensor(&b, &[layer.outputs], &layer.bias));
        }
        if self.sigmoid {
            field_bytes(&mut graph, 1, &node("Sigmoid", &[&h], output));
        }
        field_bytes(&mut graph, 2, b"dicechess-mlp");
        field_bytes(&mut graph, 11, &value_info(input, self.inputs()));
        field_bytes(&mut graph, 12, &value_info(output, 1));
        let mut opset = Vec::new();
        field_bytes(&mut opset, 1, b"");
        field_varint(&mut opset, 2, 13);
        let mut model = Vec::new();
        field_varint(&mut model, 1, 8);
        field_bytes(&mut model, 2, b"dicechess");
        field_bytes(&mut model, 7, &graph);
        field_bytes(&mut model, 8, &opset);
        model
    }
}

#[cfg(test)]
mod tests {
    use super::super::mlp_graph::{read_mlp, Dense};
    use super::*;

    #[test]
    fn written_graphs_read_back_equal() {
        let dense = |inputs: usize, outputs: usize, relu: bool| Dense {
            inputs,
            outputs,
            weights: (0..inputs * outputs)
                .map(|i| i as f32 * 0.25 - 3.0)
                .collect(),
            bias: (0..outputs).map(|j| j as f32 * 0.5).collect(),
            relu,
        };
        for (layers, sigmoid) in [
            (vec![dense(7, 1, false)], true),
            (vec![dense(13, 32, true), dense(32, 1, false)], true),
            (
                vec![dense(9, 4, true), dense(4, 3, true), dense(3, 1, false)],
                false,
            ),
            (vec![dense(5, 1, true)], false),
        ] {
            let g = MlpGraph { layers, sigmoid };
            let back =
                read_mlp(&g.to_onnx("features", "value"), "features", "value").expect("reads back");
            assert_eq!(back, g);
        }
    }
}
