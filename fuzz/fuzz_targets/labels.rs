//! The labeller on any parseable position: never a panic, and every label it gives is on the
//! axis and keeps its identities — `p1 = −a1` for the same board, a candidate's `a1` is the
//! weighted sum of its 56 roll values — or it refuses for the work budget, never silently.
#![no_main]

use dicechess::board::Position;
use dicechess::eval::{Material, UPPER_SCORE_BOUND};
use dicechess::rules::ROLLS;
use dicechess::search::{LabelError, Labeller, Work};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// Small budgets: a fuzzed position may be huge, and each input must stay fast.
const WORK: u64 = 200_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_dfen(text) else {
        return;
    };
    let labeller = Labeller::new(Arc::new(Material));
    let bounded = |r: &Result<f64, LabelError>| match r {
        Ok(v) => assert!(v.abs() <= UPPER_SCORE_BOUND, "{v} off the axis for {text:?}"),
        Err(LabelError::WorkBudget { .. } | LabelError::ExpansionTooLarge { .. }) => {}
        Err(e) => panic!("{e} for {text:?}"),
    };
    let a1 = labeller.a1(&pos, &Work::new(WORK));
    let p1 = labeller.p1(&pos, &Work::new(WORK));
    bounded(&a1);
    bounded(&p1);
    if let (Ok(a), Ok(p)) = (&a1, &p1) {
        assert_eq!(*p, -*a, "p1 != -a1 for {text:?}");
    }
    if pos.dice().is_empty() {
        return;
    }
    match labeller.candidates(&pos, None, &Work::new(WORK * 4)) {
        Ok(cands) => {
            assert!(!cands.is_empty(), "no candidate for {text:?}");
            for c in cands {
                let sum: f64 = c
                    .per_roll
                    .iter()
                    .zip(&ROLLS)
                    .map(|(&v, r)| r.weight as f64 * v as f64)
                    .sum::<f64>()
                    / 216.0;
                assert!((sum - c.a1).abs() < 0.05, "{sum} vs {} for {text:?}", c.a1);
            }
        }
        Err(LabelError::WorkBudget { .. } | LabelError::ExpansionTooLarge { .. }) => {}
        Err(e) => panic!("{e} for {text:?}"),
    }
});
