//! An equity-lost benchmark set (`equity-lost score SET`), an untrusted file: any bytes are
//! read without a panic, either as a set or as a refusal naming its line; an accepted set
//! writes back to text that reads as the same set, its decisions are numbered from 0, each a
//! rolled position of its stated phase with at least two turns, and every teacher value is a
//! win probability of an afterstate whose opponent rolls next.
#![no_main]

use dicechess::analysis::{DecisionSet, DecisionSetError, Phase};
use dicechess::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match DecisionSet::parse(text) {
        Ok(set) => {
            assert_eq!(set.decisions.len(), set.header.decisions);
            for (i, d) in set.decisions.iter().enumerate() {
                assert_eq!(d.index, i);
                let rolled = Position::from_dfen(&d.dfen).expect("an accepted decision parses");
                assert!(!rolled.dice().is_empty());
                assert_eq!(Phase::of(&rolled), d.phase);
                assert!(d.turns >= 2 && !d.teacher.is_empty() && d.teacher.len() <= d.turns);
                for t in &d.teacher {
                    let after = Position::from_dfen(&t.after).expect("an accepted afterstate");
                    assert_ne!(after.side_to_move(), rolled.side_to_move());
                    assert!((0.0..=1.0).contains(&t.depth2) && (0.0..=1.0).contains(&t.depth3));
                }
            }
            let again = set.to_text().expect("an accepted set writes");
            assert_eq!(DecisionSet::parse(&again).expect("and reads back"), set);
        }
        Err(DecisionSetError::Empty) => {}
        Err(DecisionSetError::Line { line, reason }) => {
            assert!(line >= 1 && !reason.is_empty())
        }
    }
});
