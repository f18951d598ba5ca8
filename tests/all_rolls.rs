//! `expand_all_rolls` (one shared walk for the 56 rolls) against two independent per-roll
//! answers: `TurnGenerator::end_states_into` roll by roll, and the end positions of every
//! legal turn path (`legal_paths`, itself pinned by the turn_paths vectors). Positions come
//! from random play (e.p. targets, castling, promotions, king captures and passes all occur)
//! and from random placements; the turn_paths vectors tie the answers to data.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::{cases, load, random_placed, random_rolled, s, u, TestRng};
use dicechess::board::{Dice, Position};
use dicechess::rules::{
    expand_all_rolls, legal_paths, EndStates, RollOutcome, RollSets, TurnGenerator, ROLLS,
};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// One roll's answer with positions as a set of Zobrist keys (positions that differ only in
/// their clocks are one end state).
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    King,
    Pass,
    Keys(BTreeSet<u64>),
}

fn shared(sets: &RollSets, i: usize) -> Answer {
    match sets.roll(i) {
        RollOutcome::KingCapture => Answer::King,
        RollOutcome::Pass => Answer::Pass,
        RollOutcome::Moves(ps) => {
            let keys: BTreeSet<u64> = ps.iter().map(Position::key).collect();
            assert_eq!(keys.len(), ps.len(), "roll {i}: positions are not distinct");
            for p in ps {
                assert!(p.dice().is_empty(), "an end state keeps dice");
                assert_eq!(p.key(), p.compute_key(), "stale key");
            }
            Answer::Keys(keys)
        }
    }
}

fn per_roll(gen: &mut TurnGenerator, pos: &Position) -> Answer {
    let mut out = Vec::new();
    match gen.end_states_into(pos, &mut out) {
        EndStates::KingCapture => Answer::King,
        EndStates::Pass => Answer::Pass,
        EndStates::Moves(_) => Answer::Keys(out.iter().map(Position::key).collect()),
    }
}

fn from_paths(pos: &Position) -> Answer {
    let paths = legal_paths(pos);
    if paths.is_empty() {
        Answer::Pass
    } else if paths.iter().any(|p| p.captures_king()) {
        Answer::King
    } else {
        Answer::Keys(paths.iter().map(|p| p.end_position(pos).key()).collect())
    }
}

/// Every roll of `pos`: the shared answer equals both per-roll answers, and each position
/// it gives is, field for field (clocks included), the end position of some legal path.
fn check(pos: &Position, sets: &mut RollSets, gen: &mut TurnGenerator) {
    expand_all_rolls(pos, sets);
    for (i, r) in ROLLS.iter().enumerate() {
        let rolled = pos.with_dice(r.dice());
        let got = shared(sets, i);
        if let RollOutcome::Moves(ps) = sets.roll(i) {
            let ends: HashSet<Position> = legal_paths(&rolled)
                .iter()
                .map(|p| p.end_position(&rolled))
                .collect();
            for p in ps {
                assert!(
                    ends.contains(p),
                    "{}: {} is no legal path's end position",
                    rolled.to_dfen(),
                    p.to_dfen()
                );
            }
        }
        assert_eq!(
            got,
            per_roll(gen, &rolled),
            "{}: shared walk vs end_states_into",
            rolled.to_dfen()
        );
        assert_eq!(
            got,
            from_paths(&rolled),
            "{}: shared walk vs legal paths",
            rolled.to_dfen()
        );
    }
}

fn spent_roll(rng: &mut TestRng) -> Dice {
    ROLLS[rng.below(56)].dice()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn shared_walk_equals_per_roll_sets_after_random_play(
        start in 0usize..7,
        seed in any::<u64>(),
        turns in 0usize..16,
    ) {
        let pos = random_rolled(start, seed, turns);
        check(&pos, &mut RollSets::new(), &mut TurnGenerator::new());
    }

    #[test]
    fn shared_walk_equals_per_roll_sets_on_random_placements(seed in any::<u64>()) {
        let pos = random_placed(seed, spent_roll);
        check(&pos, &mut RollSets::new(), &mut TurnGenerator::new());
    }
}

#[test]
fn one_rollsets_reused_across_positions_gives_fresh_answers() {
    // The buffers keep their capacity; answers must not leak from one position to the next.
    let mut sets = RollSets::new();
    let mut gen = TurnGenerator::new();
    for seed in 0..40u64 {
        let pos = random_rolled(seed as usize, seed * 7919 + 1, (seed % 12) as usize);
        check(&pos, &mut sets, &mut gen);
    }
}

#[test]
fn hand_picked_positions_cover_every_outcome() {
    let mut sets = RollSets::new();
    let mut gen = TurnGenerator::new();
    let mut kinds = [0usize; 3];
    for fen in [
        // Bare kings: only the rolls with a king die move (the ADEP classes 125/75/15/1).
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        // Promotion: a pawn on the 7th spends later dice as its new piece.
        "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
        // Castling both ways (K+R dice), and e.p. targets for both sides.
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
        "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R b KQkq c3 0 1",
        // Moves that commute except through the e.p. set (the walk skips leaves reached in
        // another order): double steps beside e.p. captures, a piece able to land on the
        // target, a pawn victim carrying its target.
        "4k3/8/8/3pP3/8/8/1P5P/R3K1NR w KQ d6 0 1",
        "4k1n1/8/8/8/2Pp4/8/5P2/1B2K3 b - c3 0 1",
        "4k3/2p5/8/1PpP4/8/7B/8/4K2Q w - c6 0 1",
        // King captures for some rolls only.
        "4k3/8/3q4/8/2Q5/8/8/R3K2R w KQ - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let pos = Position::from_dfen(fen).expect("valid FEN");
        check(&pos, &mut sets, &mut gen);
        for i in 0..56 {
            kinds[match sets.roll(i) {
                RollOutcome::KingCapture => 0,
                RollOutcome::Pass => 1,
                RollOutcome::Moves(_) => 2,
            }] += 1;
        }
    }
    assert!(kinds.iter().all(|&k| k > 0), "outcomes seen: {kinds:?}");
}

#[test]
fn turn_paths_vectors() {
    // Each vector case is one rolled position; its legal paths (pinned by the vector's count
    // and digest elsewhere) must give the shared walk's answer for that roll, and the vector's
    // count of distinct end DFENs bounds the distinct keys from above (DFENs also differ in
    // clocks).
    let v = load("turn_paths");
    let mut sets = RollSets::new();
    let mut gen = TurnGenerator::new();
    for c in cases(&v) {
        let dfen = s(c, "dfen");
        let rolled = Position::from_dfen(dfen).expect("valid vector DFEN");
        assert_eq!(legal_paths(&rolled).len() as u64, u(c, "paths"), "{dfen}");
        let i = ROLLS
            .iter()
            .position(|r| r.dice() == rolled.dice())
            .expect("vector positions carry a full roll");
        check(&rolled, &mut sets, &mut gen);
        if let RollOutcome::Moves(ps) = sets.roll(i) {
            assert!(ps.len() as u64 <= u(c, "ends"), "{dfen}");
            assert!(!ps.is_empty());
        }
    }
}

#[test]
fn budgeted_expansion_equals_the_plain_one_or_says_it_ran_out() {
    use dicechess::rules::{expand_all_rolls_budgeted, Budget, Budgeted};
    let mut plain = RollSets::new();
    let mut metered = RollSets::new();
    for seed in 0..20u64 {
        let pos = random_rolled(seed as usize, seed * 31 + 7, (seed % 9) as usize);
        expand_all_rolls(&pos, &mut plain);
        let mut budget = Budget::new(u64::MAX / 2);
        let used = match expand_all_rolls_budgeted(&pos, &mut budget, &mut metered) {
            Budgeted::Complete((), used) => used,
            Budgeted::Incomplete(_) => panic!("an ample budget ran out"),
        };
        for i in 0..56 {
            assert_eq!(shared(&plain, i), shared(&metered, i), "roll {i}");
        }
        // One unit short of what it needs: incomplete, and every roll reads as a pass.
        if used > 1 {
            let mut short = Budget::new(used - 1);
            assert!(matches!(
                expand_all_rolls_budgeted(&pos, &mut short, &mut metered),
                Budgeted::Incomplete(_)
            ));
            assert!((0..56).all(|i| metered.roll(i) == RollOutcome::Pass));
        }
    }
    // Nine queens: millions of lines; a small budget stops the walk early.
    let queens = Position::from_dfen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/1BNN1KB1 w - - 0 1")
        .expect("valid FEN");
    let mut budget = Budget::new(200_000);
    assert!(matches!(
        expand_all_rolls_budgeted(&queens, &mut budget, &mut metered),
        Budgeted::Incomplete(u) if u <= 200_000
    ));
}

#[test]
fn classes_partition_the_216_rolls_by_answer() {
    let mut sets = RollSets::new();
    let mut classes = Vec::new();
    for seed in 0..30u64 {
        let pos = random_rolled(seed as usize, seed * 13 + 5, (seed % 10) as usize);
        expand_all_rolls(&pos, &mut sets);
        sets.classes(&mut classes);
        assert_eq!(classes.iter().map(|c| c.1 as u32).sum::<u32>(), 216);
        assert!(
            classes.windows(2).all(|w| w[0].1 >= w[1].1),
            "heaviest first"
        );
        for (i, r) in ROLLS.iter().enumerate() {
            // The classes with this roll's answer weigh as much as the rolls with it.
            let answer = shared(&sets, i);
            let class_weight: u32 = classes
                .iter()
                .filter(|&&(rep, _)| shared(&sets, rep) == answer)
                .map(|c| c.1 as u32)
                .sum();
            let roll_weight: u32 = (0..56)
                .filter(|&j| shared(&sets, j) == answer)
                .map(|j| ROLLS[j].weight as u32)
                .sum();
            assert_eq!(class_weight, roll_weight, "roll {:?}", r.faces);
        }
    }
    // Bare kings, White to move: no king captures; the king moves with 1, 2 or 3 king dice
    // (75, 15 and 1 of 216), the other 125 rolls pass — the ADEP classes of docs/rules.md §6.
    let kings = Position::from_dfen("4k3/8/8/8/8/8/8/K7 w - - 0 1").expect("valid FEN");
    expand_all_rolls(&kings, &mut sets);
    sets.classes(&mut classes);
    let mut weights: Vec<u16> = classes.iter().map(|c| c.1).collect();
    weights.sort();
    assert_eq!(weights, vec![1, 15, 75, 125]);
}
