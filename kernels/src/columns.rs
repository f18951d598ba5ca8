//! Kernels over struct-of-arrays columns: one loop across rows, no branches on row data,
//! so the compiler keeps them in registers and vectorises what the target allows.

/// Per-row material balance, White minus Black: `Σ_t values[t] · (popcnt(type_t & white) −
/// popcnt(type_t & black))`. All slices must have the length of `out` (checked once).
pub fn material_balance(
    by_type: [&[u64]; 6],
    white: &[u64],
    black: &[u64],
    values: &[i32; 6],
    out: &mut [i32],
) {
    let n = out.len();
    assert!(white.len() == n && black.len() == n && by_type.iter().all(|c| c.len() == n));
    for (i, o) in out.iter_mut().enumerate() {
        let (w, b) = (white[i], black[i]);
        let mut s = 0i32;
        for t in 0..6 {
            let x = by_type[t][i];
            s += values[t] * ((x & w).count_ones() as i32 - (x & b).count_ones() as i32);
        }
        *o = s;
    }
}

/// Flip the sign of `values[i]` where `side[i]` is Black (1), turning White-minus-Black
/// scores into side-to-move scores.
pub fn to_side_to_move(side: &[u8], values: &mut [i32]) {
    assert_eq!(side.len(), values.len());
    for (v, &s) in values.iter_mut().zip(side) {
        // 1 − 2·s is +1 for White, −1 for Black.
        *v *= 1 - 2 * (s & 1) as i32;
    }
}

/// Per-row population count of `a & b`.
pub fn popcount_and(a: &[u64], b: &[u64], out: &mut [u32]) {
    assert!(a.len() == out.len() && b.len() == out.len());
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = (x & y).count_ones();
    }
}
