//! The native forward pass over several rows at once: [`MlpGraph::forward_rows`].
//!
//! Why rows: one row's forward is bound by the add chain of each output, not by the
//! arithmetic units. An output sums `bias + x_0 w_0 + x_1 w_1 + …` in that order (no fused
//! multiply-add, no reordering: the bits every target agrees on, tests/native_mlp.rs), so
//! each input waits for the previous add, about 4 cycles. With AVX2 the four 8-lane tiles of
//! a 32-output layer are four chains, which also fill both vector ports; with AVX-512 the
//! same 32 outputs are two 16-lane tiles, half the instructions but only two chains, so one
//! row gains nothing. Four rows side by side are eight independent chains of 16 lanes and
//! halve the instructions per row, and every weight is loaded once for the four. Each output
//! of each row still sums in the same order, so [`MlpGraph::forward_rows`] gives the bits of
//! [`MlpGraph::forward`] row by row on every CPU. Measured numbers: `benches/native_mlp.rs`
//! and README "Leaves per second".

// Elsewhere (wasm32, other CPUs) every row runs one by one: the block form's pieces go unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code, unused_imports))]

use super::mlp_graph::{dot, one_output, Dense, MlpGraph};

/// Rows a block of the AVX-512 form computes together (4 rows × 2 tiles = 8 accumulators,
/// 8 of the 32 vector registers, with room for the weights and the broadcast inputs).
pub const BLOCK_ROWS: usize = 4;

/// Lanes of one AVX-512 tile.
const LANES: usize = 16;

impl MlpGraph {
    /// The outputs of `out.len()` rows of [`MlpGraph::inputs`] features each (`xs`
    /// row-major, `out.len() × inputs()` values): the same bits as [`MlpGraph::forward`] on
    /// each row. On a CPU with AVX-512F whole blocks of [`BLOCK_ROWS`] rows run together
    /// (module docs); the rows left over, and every row elsewhere, run one by one.
    ///
    /// Rows beyond what `xs` holds keep their value in `out`; callers pass
    /// `out.len() * inputs()` features.
    pub fn forward_rows(&self, xs: &[f32], out: &mut [f32], scratch: &mut [Vec<f32>; 2]) {
        let width = self.inputs();
        if width == 0 {
            for o in out.iter_mut() {
                *o = self.forward(&[], scratch);
            }
            return;
        }
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if self.chains() && std::arch::is_x86_feature_detected!("avx512f") {
            while done + BLOCK_ROWS <= out.len() && (done + BLOCK_ROWS) * width <= xs.len() {
                let block = &xs[done * width..(done + BLOCK_ROWS) * width];
                // SAFETY: `block_avx512` is compiled for AVX-512F, and this CPU has it
                // (checked above; `is_x86_feature_detected!` caches the answer).
                let y = unsafe { self.block_avx512(block, scratch) };
                out[done..done + BLOCK_ROWS].copy_from_slice(&y);
                done += BLOCK_ROWS;
            }
        }
        for (x, o) in xs[(done * width).min(xs.len())..]
            .chunks_exact(width)
            .zip(&mut out[done..])
        {
            *o = self.forward(x, scratch);
        }
    }

    /// Each layer reads as many values as the one before writes (what [`super::read_mlp`]
    /// checks; a graph built by hand may not): the block form indexes rows by it.
    fn chains(&self) -> bool {
        self.layers.windows(2).all(|p| p[0].outputs == p[1].inputs)
            && self
                .layers
                .iter()
                .all(|l| l.weights.len() == l.inputs * l.outputs && l.bias.len() == l.outputs)
    }

    /// [`MlpGraph::block_body`] compiled for AVX-512F.
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn block_avx512(&self, xs: &[f32], scratch: &mut [Vec<f32>; 2]) -> [f32; BLOCK_ROWS] {
        self.block_body(xs, scratch)
    }

    /// [`BLOCK_ROWS`] rows through every layer, the activations row-major in `scratch`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn block_body(&self, xs: &[f32], scratch: &mut [Vec<f32>; 2]) -> [f32; BLOCK_ROWS] {
        let [a, b] = scratch;
        a.clear();
        a.extend_from_slice(xs);
        let mut width = self.inputs();
        for layer in &self.layers {
            b.clear();
            if layer.outputs == 1 {
                for row in a.chunks_exact(layer.inputs).take(BLOCK_ROWS) {
                    b.push(layer.bias[0] + dot(row, &layer.weights));
                }
            } else {
                // SAFETY: only `block_avx512` runs this body (AVX-512F checked), on a graph
                // whose layers chain ([`MlpGraph::chains`]), `a` holding its rows.
                unsafe { dense_rows(layer, a, b) };
            }
            if layer.relu {
                for y in b.iter_mut() {
                    *y = y.max(0.0);
                }
            }
            std::mem::swap(a, b);
            width = layer.outputs;
        }
        std::array::from_fn(|r| self.squash(a[r * width]))
    }
}

/// `out = x · W + b` for [`BLOCK_ROWS`] rows: 32 outputs at a time (four rows × two
/// 16-lane tiles), then 16, then the outputs left over one by one, each output summed in
/// [`MlpGraph::forward`]'s order.
///
/// # Safety
/// The CPU must support AVX-512F; `a` holds `BLOCK_ROWS × layer.inputs` values and the
/// layer's weights and biases have its shape ([`MlpGraph::chains`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn dense_rows(layer: &Dense, a: &[f32], out: &mut Vec<f32>) {
    let (m, n) = (layer.inputs, layer.outputs);
    debug_assert!(a.len() >= BLOCK_ROWS * m && layer.weights.len() == m * n);
    out.resize(BLOCK_ROWS * n, 0.0);
    let mut t = 0;
    while t + 2 * LANES <= n {
        // SAFETY: the caller's shapes, `out` resized above, and `t + 32 <= n`.
        unsafe { tiles_rows::<2>(layer, a, out, t) };
        t += 2 * LANES;
    }
    while t + LANES <= n {
        // SAFETY: as above, with `t + 16 <= n`.
        unsafe { tiles_rows::<1>(layer, a, out, t) };
        t += LANES;
    }
    for (x, o) in a.chunks_exact(m).zip(out.chunks_exact_mut(n)) {
        for (j, y) in o.iter_mut().enumerate().skip(t) {
            *y = one_output(layer, x, j);
        }
    }
}

/// Outputs `t .. t + G·16` of a dense layer for [`BLOCK_ROWS`] rows: `G` tiles per row, every
/// tile its own register (named, not an array: an array of tiles walked in loops stayed in
/// memory and ran at half the speed of one row at a time).
///
/// # Safety
/// The CPU must support AVX-512F; `G` is 1 or 2; `t + G·16 <= n`, `a` holds
/// `BLOCK_ROWS × m` values, `out` `BLOCK_ROWS × n`, the weights `m × n` and the biases `n`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn tiles_rows<const G: usize>(layer: &Dense, a: &[f32], out: &mut [f32], t: usize) {
    use std::arch::x86_64::{
        _mm512_add_ps, _mm512_loadu_ps, _mm512_mul_ps, _mm512_set1_ps, _mm512_storeu_ps,
    };
    let (m, n) = (layer.inputs, layer.outputs);
    let (x, w, b, o) = (
        a.as_ptr(),
        layer.weights.as_ptr(),
        layer.bias.as_ptr(),
        out.as_mut_ptr(),
    );
    // SAFETY: every access below stays inside the shapes the caller promises: tile `g` of
    // row `r` reads biases `t + 16g ..+16`, weights `i·n + t + 16g ..+16` for `i < m` and
    // input `r·m + i`, and writes outputs `r·n + t + 16g ..+16`, with `t + 16·G <= n`.
    unsafe {
        let b0 = _mm512_loadu_ps(b.add(t));
        let b1 = if G == 2 {
            _mm512_loadu_ps(b.add(t + LANES))
        } else {
            b0
        };
        let (mut p0, mut p1, mut p2, mut p3) = (b0, b0, b0, b0);
        let (mut q0, mut q1, mut q2, mut q3) = (b1, b1, b1, b1);
        for i in 0..m {
            let row = w.add(i * n + t);
            let w0 = _mm512_loadu_ps(row);
            let x0 = _mm512_set1_ps(*x.add(i));
            let x1 = _mm512_set1_ps(*x.add(m + i));
            let x2 = _mm512_set1_ps(*x.add(2 * m + i));
            let x3 = _mm512_set1_ps(*x.add(3 * m + i));
            p0 = _mm512_add_ps(p0, _mm512_mul_ps(x0, w0));
            p1 = _mm512_add_ps(p1, _mm512_mul_ps(x1, w0));
            p2 = _mm512_add_ps(p2, _mm512_mul_ps(x2, w0));
            p3 = _mm512_add_ps(p3, _mm512_mul_ps(x3, w0));
            if G == 2 {
                let w1 = _mm512_loadu_ps(row.add(LANES));
                q0 = _mm512_add_ps(q0, _mm512_mul_ps(x0, w1));
                q1 = _mm512_add_ps(q1, _mm512_mul_ps(x1, w1));
                q2 = _mm512_add_ps(q2, _mm512_mul_ps(x2, w1));
                q3 = _mm512_add_ps(q3, _mm512_mul_ps(x3, w1));
            }
        }
        for (r, p) in [p0, p1, p2, p3].into_iter().enumerate() {
            _mm512_storeu_ps(o.add(r * n + t), p);
        }
        if G == 2 {
            for (r, q) in [q0, q1, q2, q3].into_iter().enumerate() {
                _mm512_storeu_ps(o.add(r * n + t + LANES), q);
            }
        }
    }
}
