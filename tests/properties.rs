//! Properties of the rules on positions reached by random play from varied starts and on
//! random placements, checked against the slow square-by-square reference in
//! `tests/reference`.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
mod reference;

use dicechess::board::{Dice, Position};
use dicechess::rules::{generate, legal_first_moves, legal_paths, playable_dice, TurnTree, ROLLS};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The first seven of the shared start list.
const STARTS: &[&str] = common::PLAY_STARTS.split_at(7).0;

/// The shared xorshift generator of the tests (proptest supplies the seed).
use common::TestRng as Rng;

fn roll(rng: &mut Rng) -> Dice {
    let r = ROLLS[rng.below(56)];
    // Mostly full rolls; sometimes a partly spent pool, as in the middle of a turn.
    let n = [3, 3, 3, 2, 1][rng.below(5)];
    Dice::from_faces(&r.faces[..n]).expect("faces 1..=6")
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        3 => (0..STARTS.len(), any::<u64>(), 0usize..14).prop_map(|(s, seed, t)| common::random_played(STARTS[s], seed, t, roll, true)),
        1 => any::<u64>().prop_map(|seed| common::random_placed(seed, roll)),
    ]
}

fn mirror_uci(uci: &str) -> String {
    let b = uci.as_bytes();
    let flip = |r: u8| (b'1' + b'8' - r) as char;
    let mut s = format!(
        "{}{}{}{}",
        b[0] as char,
        flip(b[1]),
        b[2] as char,
        flip(b[3])
    );
    if let Some(&p) = b.get(4) {
        s.push(p as char);
    }
    s
}

fn uci_paths(pos: &Position) -> Vec<Vec<String>> {
    legal_paths(pos)
        .iter()
        .map(|p| p.moves().iter().map(|m| m.uci()).collect())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn dfen_write_read_round_trip(pos in any_position()) {
        let text = pos.to_dfen();
        let back = Position::from_dfen(&text).expect("own output parses");
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_dfen(), text.clone());
        prop_assert_eq!(reference::write(&reference::parse(&text)), text);
    }

    #[test]
    fn incremental_zobrist_equals_recomputation(pos in any_position()) {
        prop_assert_eq!(pos.key(), pos.compute_key());
        prop_assert_eq!(pos.key(), reference::zobrist(&pos.to_dfen()));
        for path in legal_paths(&pos) {
            let mut p = pos;
            for m in path.moves() {
                p = p.play_unchecked(m);
                prop_assert_eq!(p.key(), p.compute_key(), "after {} in {}", m, pos);
            }
            let end = p.end_turn();
            prop_assert_eq!(end.key(), end.compute_key());
        }
        let pass = pos.end_turn();
        prop_assert_eq!(pass.key(), pass.compute_key());
    }

    #[test]
    fn colour_flip_is_an_involution_and_maps_paths(pos in any_position()) {
        let flipped = pos.flip_colors();
        prop_assert_eq!(flipped.flip_colors(), pos);
        prop_assert_eq!(flipped.to_dfen(), reference::flip(&pos.to_dfen()));
        let mirrored: BTreeSet<Vec<String>> = uci_paths(&pos)
            .iter()
            .map(|p| p.iter().map(|m| mirror_uci(m)).collect())
            .collect();
        let of_flip: BTreeSet<Vec<String>> = uci_paths(&flipped).into_iter().collect();
        prop_assert_eq!(mirrored, of_flip);
    }

    #[test]
    fn paths_are_complete_maximal_and_prefix_free(pos in any_position()) {
        let paths = legal_paths(&pos);
        let max = paths.iter().map(|p| p.cost()).max().unwrap_or(0);
        for (i, a) in paths.iter().enumerate() {
            prop_assert!(!a.moves().is_empty() && a.moves().len() <= 3);
            let mut p = pos;
            for (k, &m) in a.moves().iter().enumerate() {
                let king = p.captures_king(m);
                // Only the last micro-move may capture a king.
                prop_assert_eq!(king, k + 1 == a.moves().len() && a.captures_king());
                p = p.play(m).expect("every micro-move of a legal path is playable");
            }
            if !a.captures_king() {
                prop_assert_eq!(a.cost(), max, "{} spends less than the maximum", a);
                let (mask, castle) = (p.dice().type_mask(), p.dice().contains(4) && p.dice().contains(6));
                prop_assert!(generate(&p, mask, castle).is_empty(), "{} is not complete", a);
            }
            for (j, b) in paths.iter().enumerate() {
                if i != j {
                    prop_assert!(!b.moves().starts_with(&a.moves()), "{} is a prefix of {}", a, b);
                }
            }
        }
    }

    #[test]
    fn first_moves_are_the_distinct_first_moves_of_the_paths(pos in any_position()) {
        let mut want = Vec::new();
        for p in legal_paths(&pos) {
            if !want.contains(&p.moves()[0]) {
                want.push(p.moves()[0]);
            }
        }
        prop_assert_eq!(&legal_first_moves(&pos), &want);
        let tree = TurnTree::new(&pos);
        let roots: Vec<_> = tree.children.iter().map(|(m, _)| *m).collect();
        prop_assert_eq!(roots, want);
    }

    #[test]
    fn generation_agrees_with_the_slow_reference(pos in any_position()) {
        let dfen = pos.to_dfen();
        // Moves of each type, castling under the king, in docs/rules.md §4 order.
        for face in 1..=6u8 {
            let list = generate(&pos, 1 << (face - 1), face == 6);
            let ours: Vec<String> = list.to_vec(&pos).iter().map(|m| m.uci()).collect();
            prop_assert_eq!(list.count(&pos), ours.len());
            prop_assert_eq!(ours, reference::pseudo_moves(&dfen, face), "face {} in {}", face, dfen);
        }
        // Turn paths in docs/rules.md §5 order, and where they lead.
        let ours = legal_paths(&pos);
        let theirs = reference::legal_paths(&dfen);
        let ours_uci: Vec<Vec<String>> =
            ours.iter().map(|p| p.moves().iter().map(|m| m.uci()).collect()).collect();
        prop_assert_eq!(&ours_uci, &theirs, "paths of {}", dfen);
        for (p, uci) in ours.iter().zip(&theirs).take(40) {
            prop_assert_eq!(p.end_position(&pos).to_dfen(), reference::end_of_turn(&dfen, uci));
            let mid = p.moves().iter().fold(pos, |q, &m| q.play_unchecked(m));
            prop_assert_eq!(mid.to_dfen(), reference::play_micro(&dfen, uci));
        }
        prop_assert_eq!(pos.end_turn().to_dfen(), reference::end_of_turn(&dfen, &[]));
    }

    #[test]
    fn playable_dice_match_a_brute_force_over_paths(pos in any_position()) {
        let paths = legal_paths(&pos);
        for path in paths.iter().take(30) {
            for k in 0..=path.moves().len() {
                let prefix = &path.moves()[..k];
                let after = prefix.iter().fold(pos, |q, &m| q.play_unchecked(m)).dice();
                let got = playable_dice(&pos, prefix).expect("prefix of a legal path");
                for face in 1..=6u8 {
                    // Brute force: the most dice of this face that some completion spends.
                    let most = paths
                        .iter()
                        .filter(|p| p.moves().starts_with(prefix))
                        .map(|p| {
                            let end = p.moves().iter().fold(pos, |q, &m| q.play_unchecked(m)).dice();
                            after.count(face) - end.count(face)
                        })
                        .max()
                        .unwrap_or(0);
                    prop_assert_eq!(got[face as usize - 1], most);
                }
            }
        }
    }
}
