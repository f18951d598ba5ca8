//! A probe of `expand_all_rolls` on the position in `$FEN` (nothing when it is unset).
#![allow(clippy::unwrap_used)] // a test fails by panicking
use dicechess::board::Position;
use dicechess::rules::{expand_all_rolls, EndStates, RollSets, TurnGenerator, ROLLS};
#[test]
fn probe() {
    let fen = std::env::var("FEN").unwrap_or_default();
    if fen.is_empty() {
        return;
    }
    let n: usize = std::env::var("N").unwrap_or("10".into()).parse().unwrap();
    let pos = Position::from_dfen(&fen).unwrap();
    if std::env::var("PER").is_ok() {
        let mut g = TurnGenerator::new();
        let mut out = Vec::new();
        for _ in 0..n {
            for r in &ROLLS {
                out.clear();
                let _ = std::hint::black_box(g.end_states_into(&pos.with_dice(r.dice()), &mut out));
            }
        }
    } else {
        let mut sets = RollSets::new();
        for _ in 0..n {
            expand_all_rolls(&pos, &mut sets);
            std::hint::black_box(&sets);
        }
    }
    let _ = EndStates::Pass;
}
