//! An `equity-lost score --json` file (`equity-lost compare`'s input), untrusted: any bytes
//! are read without a panic, either as a run or as a refusal; an accepted run judges each
//! decision once with consistent numbers, and compared with itself differs by nothing and
//! plays the same turns.
#![no_main]

use dicechess::analysis::{compare, ScoreRun, ScoreRunError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(run) = ScoreRun::parse(text) else {
        return;
    };
    let mut seen = std::collections::BTreeSet::new();
    for j in &run.decisions {
        assert!(seen.insert(j.index));
        assert!((0.0..=1.0).contains(&j.value) && (0.0..=1.0).contains(&j.best));
        assert!(j.loss >= -1e-9);
    }
    match compare(&[run.clone(), run.clone()]) {
        Ok(c) => {
            assert_eq!(c.decisions, run.decisions.len());
            let p = c.against_first[1];
            assert_eq!(p.same_turn, run.decisions.len());
            assert_eq!(p.milli, 0.0);
            assert_eq!(c.losses[0], c.losses[1]);
        }
        Err(e) => assert!(run.decisions.is_empty() && e == ScoreRunError::NothingInCommon),
    }
});
