//! An arena suite file (`arena --suite FILE`: the JVM arena's scenario catalog or its endgame
//! benchmark suite), an untrusted file: any bytes are read without a panic, either as a suite
//! or as a refusal naming the field; every expected turn of an accepted scenario suite is one
//! of the position's legal turns (checked independently with `legal_paths`), an expected pass
//! has none, and an accepted endgame position carries no dice, has both kings at the
//! distances it states, and opposite attacker and defender.
#![no_main]

use dicechess::rules::legal_paths;
use dicechess::selfplay::{king_distances, parse_suite, Expectation, Suite, SuiteProblem};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match parse_suite(data) {
        Ok(Suite::Scenarios(s)) => {
            assert!(!s.scenarios.is_empty() && !s.seed_set.values.is_empty());
            for x in &s.scenarios {
                assert_eq!(x.position.to_dfen(), x.dfen);
                let legal: Vec<Vec<String>> = legal_paths(&x.position)
                    .iter()
                    .map(|p| p.moves().iter().map(|m| m.uci()).collect())
                    .collect();
                match &x.expectation {
                    Expectation::Pass => assert!(legal.is_empty(), "{}", x.dfen),
                    Expectation::Turns(allowed) => {
                        assert!(!allowed.is_empty());
                        for t in allowed {
                            assert!(legal.contains(t), "{}: {t:?}", x.dfen);
                        }
                    }
                }
            }
        }
        Ok(Suite::Endgames(s)) => {
            assert!(!s.positions.is_empty() && s.schema_version == 1);
            for p in &s.positions {
                assert!(p.position.dice().is_empty());
                assert_eq!(
                    king_distances(&p.position),
                    Some((p.king_chebyshev_distance, p.king_manhattan_distance))
                );
                assert_ne!(p.attacker_color, p.defender_color);
            }
        }
        Err(SuiteProblem::Json(reason)) => assert!(!reason.is_empty()),
        Err(SuiteProblem::Field { field, reason, .. }) => {
            assert!(!field.is_empty() && !reason.is_empty())
        }
    }
});
