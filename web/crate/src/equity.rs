//! Monte-Carlo equity (`dicechess equity`).

use crate::js::{to_js, Options, MAX_SAFE_INTEGER};
use dicechess::board::Position;
use dicechess::search::{equity, MonteCarloConfig};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most rollouts one call runs: the estimate keeps every rollout's result (24 bytes),
/// and an allocation that fails aborts a wasm instance, so larger counts are refused.
pub const MAX_ROLLOUTS: u64 = 1_000_000;

/// `rollouts` when not given: the JVM build's `DefaultEquityRollouts`.
pub const DEFAULT_ROLLOUTS: u32 = 200;

/// `maxPlies` when not given: the JVM build's `DefaultEquityMaxPlies`.
pub const DEFAULT_MAX_PLIES: u32 = 60;

/// The answer, in the JVM build's field order, plus our name of its last field.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Equity {
    white_win: f64,
    black_win: f64,
    undecided: f64,
    rollouts: u32,
    standard_error: f64,
    variance_reduction_vs_vanilla: f64,
    variance_reduction: f64,
}

/// Rao-Blackwellised Monte-Carlo equity of the position (its side to move rolls next; dice
/// ignored), run on the calling thread, as the JVM build's `estimateEquity`. Options (all
/// optional): `rollouts` (200, at most [`MAX_ROLLOUTS`]), `maxPlies` (60), `seed` (omitted:
/// a fresh one each call, as theirs; give one for a reproducible batch), `targetError` (ours;
/// 0: every rollout); a bad option throws naming it. Returns `{whiteWin, blackWin,
/// undecided, rollouts, standardError, varianceReductionVsVanilla, varianceReduction}` (the
/// last two the same number, theirs and the CLI's name), the same numbers as `dicechess
/// equity` with the same settings; for a DFEN that does not parse, the JVM build's neutral
/// answer (`undecided` 1, every other number 0; `validateDfen` says why).
#[wasm_bindgen(js_name = estimateEquity)]
pub fn estimate_equity(dfen: Option<String>, options: JsValue) -> Result<JsValue, JsValue> {
    let o = Options::new(&options)?;
    let d = MonteCarloConfig::default();
    let config = MonteCarloConfig {
        rollouts: o
            .integer("rollouts", MAX_ROLLOUTS)?
            .map_or(DEFAULT_ROLLOUTS, |v| v as u32),
        max_plies: o
            .integer("maxPlies", u32::MAX.into())?
            .map_or(DEFAULT_MAX_PLIES, |v| v as u32),
        target_error: o.number("targetError")?.unwrap_or(d.target_error),
        seed: o
            .integer("seed", MAX_SAFE_INTEGER)?
            .unwrap_or_else(|| (js_sys::Math::random() * MAX_SAFE_INTEGER as f64) as u64),
        ..d
    };
    let Some(pos) = dfen.and_then(|d| Position::from_dfen(&d).ok()) else {
        return to_js(&Equity {
            white_win: 0.0,
            black_win: 0.0,
            undecided: 1.0,
            rollouts: 0,
            standard_error: 0.0,
            variance_reduction_vs_vanilla: 0.0,
            variance_reduction: 0.0,
        });
    };
    let e = equity(&pos, &config, None);
    to_js(&Equity {
        white_win: e.white_win,
        black_win: e.black_win,
        undecided: e.undecided,
        rollouts: e.rollouts,
        standard_error: e.standard_error,
        variance_reduction_vs_vanilla: e.variance_reduction,
        variance_reduction: e.variance_reduction,
    })
}
