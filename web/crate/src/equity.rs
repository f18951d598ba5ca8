//! Monte-Carlo equity (`dicechess equity`).

use crate::js::{position, to_js, Options, MAX_SAFE_INTEGER};
use dicechess::search::{equity, MonteCarloConfig};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most rollouts one call runs: the estimate keeps every rollout's result (24 bytes),
/// and an allocation that fails aborts a wasm instance, so larger counts are refused.
pub const MAX_ROLLOUTS: u64 = 1_000_000;

/// Rao-Blackwellised Monte-Carlo equity of the position (its side to move rolls next; dice
/// ignored), run on the calling thread. Options (all optional, the CLI's defaults):
/// `rollouts` (500, at most [`MAX_ROLLOUTS`]), `maxPlies` (1000), `seed` (0), `targetError` (0: every rollout).
/// Returns `{whiteWin, blackWin, undecided, rollouts, standardError, varianceReduction}`,
/// the same numbers as `dicechess equity` with the same settings.
#[wasm_bindgen(js_name = estimateEquity)]
pub fn estimate_equity(dfen: &str, options: JsValue) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Equity {
        white_win: f64,
        black_win: f64,
        undecided: f64,
        rollouts: u32,
        standard_error: f64,
        variance_reduction: f64,
    }
    let pos = position(dfen)?;
    let o = Options::new(&options)?;
    let d = MonteCarloConfig::default();
    let config = MonteCarloConfig {
        rollouts: o
            .integer("rollouts", MAX_ROLLOUTS)?
            .map_or(d.rollouts, |v| v as u32),
        max_plies: o
            .integer("maxPlies", u32::MAX.into())?
            .map_or(d.max_plies, |v| v as u32),
        target_error: o.number("targetError")?.unwrap_or(d.target_error),
        seed: o.integer("seed", MAX_SAFE_INTEGER)?.unwrap_or(d.seed),
        ..d
    };
    let e = equity(&pos, &config, None);
    to_js(&Equity {
        white_win: e.white_win,
        black_win: e.black_win,
        undecided: e.undecided,
        rollouts: e.rollouts,
        standard_error: e.standard_error,
        variance_reduction: e.variance_reduction,
    })
}
