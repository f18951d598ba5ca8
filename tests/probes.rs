//! The exact probes (docs/rules.md §6) against the vectors and against plain per-roll searches.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
mod reference;

use common::*;
use dicechess::board::{Dice, Position};
use dicechess::kernels::{Bitboard, Color, PieceType, Square};
use dicechess::probe::{
    all_partitions, budgeted_first_king_capture, budgeted_king_capture_rolls, budgeted_legal_paths,
    king_capture_rolls, king_threat, partitions_for, queen_capture_rolls, rolls_showing_any_of,
    Budget, Budgeted,
};
use dicechess::rules::{generate, legal_paths, TurnGenerator, ROLLS};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn color(c: &str) -> Color {
    match c {
        "w" => Color::White,
        "b" => Color::Black,
        other => panic!("bad colour {other}"),
    }
}

fn pos(fen: &str) -> Position {
    Position::from_dfen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The attacker of `defender` to move, dice cleared, everything else as it stands.
fn attacker_view(p: &Position, defender: Color) -> Position {
    let dfen = p.with_dice(Dice::EMPTY).to_dfen();
    let mut fields: Vec<&str> = dfen.split(' ').collect();
    let side = if defender == Color::White { "b" } else { "w" };
    fields[1] = side;
    pos(&fields.join(" "))
}

/// Plain per-roll king search: for each of the 56 multisets, does some legal path (slow
/// reference rules) capture a king?
fn plain_king_rolls(p: &Position, defender: Color) -> u32 {
    if p.piece_bb(defender, PieceType::King).is_empty() {
        return 0;
    }
    let base = attacker_view(p, defender).to_dfen();
    ROLLS
        .iter()
        .filter(|r| {
            let dfen = base.clone() + " " + &r.dice().letters(true);
            let paths = reference::legal_paths(&dfen);
            paths.iter().any(|path| {
                let last = path.last().expect("non-empty path");
                let before = reference::play_micro(&dfen, &path[..path.len() - 1]);
                let target = &last[2..4];
                lands_on(&before, target, defender, 'k')
            })
        })
        .map(|r| r.weight as u32)
        .sum()
}

/// Plain per-roll landing search: rolls with which the side to move of `view` lands on one of
/// `targets` within `actions` micro-moves (castling is one micro-move spending King and
/// Rook; lines go on through any capture), by playing every move of every roll.
fn plain_landing_rolls(view: &Position, targets: Bitboard, actions: u8) -> u32 {
    fn lands(p: &Position, targets: Bitboard, actions: u8) -> bool {
        let dice = p.dice();
        let castle = dice.contains(4) && dice.contains(6);
        let list = generate(p, dice.type_mask(), castle);
        let mut hit = false;
        list.for_each(p, |m| {
            if !hit {
                hit = targets.contains(m.to)
                    || (actions > 1 && lands(&p.play_unchecked(m), targets, actions - 1));
            }
        });
        hit
    }
    ROLLS
        .iter()
        .filter(|r| lands(&view.with_dice(r.dice()), targets, actions))
        .map(|r| r.weight as u32)
        .sum()
}

/// Plain king threat: [`plain_landing_rolls`] on the king's square.
fn plain_threat_rolls(view: &Position, target: Square, actions: u8) -> u32 {
    plain_landing_rolls(view, Bitboard::from_square(target), actions)
}

/// Whether `square` holds a piece of letter `piece` of `defender` in `dfen`.
fn lands_on(dfen: &str, square: &str, defender: Color, piece: char) -> bool {
    let board = reference::parse(dfen);
    let b = square.as_bytes();
    let sq = ((b[1] - b'1') * 8 + (b[0] - b'a')) as usize;
    let want = if defender == Color::White {
        piece.to_ascii_uppercase()
    } else {
        piece
    };
    let placement = reference::write(&board);
    let rank_text = placement
        .split(' ')
        .next()
        .expect("placement")
        .split('/')
        .nth(7 - sq / 8);
    let mut file = 0usize;
    for c in rank_text.expect("rank").chars() {
        if let Some(d) = c.to_digit(10) {
            file += d as usize;
        } else {
            if file == sq % 8 {
                return c == want;
            }
            file += 1;
        }
    }
    false
}

/// Plain per-roll queen search: any dice-payable sequence of at most three dice (castling
/// spends King and Rook) that lands on a defender queen, lines continuing through king
/// captures.
fn plain_queen_rolls(p: &Position, defender: Color) -> u32 {
    let queens = p.piece_bb(defender, PieceType::Queen);
    if queens.is_empty() {
        return 0;
    }
    plain_landing_rolls(&attacker_view(p, defender), queens, 3)
}

#[test]
fn king_capture_vectors() {
    let v = load("king_capture");
    assert_eq!(cases(&v).len(), 14);
    for c in cases(&v) {
        let p = pos(s(c, "fen"));
        let got = king_capture_rolls(&p, color(s(c, "defender")));
        assert_eq!(got as u64, u(c, "winning_rolls"), "{c}");
    }
}

#[test]
fn king_capture_random_vectors_king_and_queen() {
    let v = load("king_capture_random");
    assert_eq!(cases(&v).len(), 40);
    for c in cases(&v) {
        let p = pos(s(c, "fen"));
        let d = color(s(c, "defender"));
        assert_eq!(
            king_capture_rolls(&p, d) as u64,
            u(c, "winning_rolls"),
            "king {c}"
        );
        assert_eq!(
            queen_capture_rolls(&p, d) as u64,
            u(c, "queen_rolls"),
            "queen {c}"
        );
    }
}

#[test]
fn rolls_showing_any_of_equals_enumeration_for_all_64_subsets() {
    for subset in 0u8..64 {
        let mut n = 0;
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                for c in 1..=6u8 {
                    if [a, b, c].iter().any(|&f| subset & (1 << (f - 1)) != 0) {
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(
            rolls_showing_any_of(subset.count_ones()),
            n,
            "subset {subset:06b}"
        );
    }
}

#[test]
fn adep_partitions_are_positive_and_sum_to_216() {
    let all = all_partitions();
    assert_eq!(all.len(), 192);
    for part in all {
        assert!(part.classes.iter().all(|c| c.weight > 0));
        assert_eq!(
            part.classes.iter().map(|c| c.weight as u32).sum::<u32>(),
            216
        );
        // Every roll is in exactly one class, and a class's weight is its rolls' weights.
        let mut seen = 0u64;
        for c in &part.classes {
            assert_eq!(seen & c.rolls, 0);
            seen |= c.rolls;
            let w: u32 = (0..56)
                .filter(|i| c.rolls >> i & 1 != 0)
                .map(|i| ROLLS[i].weight as u32)
                .sum();
            assert_eq!(w, c.weight as u32);
        }
        assert_eq!(seen, (1u64 << 56) - 1);
        for pair in part.classes.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let key = |c: &dicechess::probe::AdepClass| {
                (
                    std::cmp::Reverse(c.weight),
                    std::cmp::Reverse(c.dice.len()),
                    c.dice.faces().to_vec(),
                )
            };
            assert!(key(a) < key(b), "class order {a:?} {b:?}");
        }
    }
    let king_only = partitions_for(&pos("8/8/8/8/8/8/8/4K3 w - - 0 1"));
    let got: Vec<(String, u16)> = king_only
        .iter()
        .map(|c| (c.dice.letters(true), c.weight))
        .collect();
    let want = [("", 125), ("K", 75), ("KK", 15), ("KKK", 1)];
    assert_eq!(got, want.map(|(d, w)| (d.to_string(), w)).to_vec());
}

#[test]
fn budgeted_results_complete_exactly_at_the_work_used() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB");
    let full = legal_paths(&p);
    let Budgeted::Complete(paths, used) = budgeted_legal_paths(&p, &mut Budget::new(u64::MAX))
    else {
        panic!("unlimited budget must complete");
    };
    assert_eq!(paths, full);
    assert_eq!(
        budgeted_legal_paths(&p, &mut Budget::new(used)),
        Budgeted::Complete(full.clone(), used)
    );
    for limit in [0, 1, used / 2, used - 1] {
        assert_eq!(
            budgeted_legal_paths(&p, &mut Budget::new(limit)),
            Budgeted::Incomplete(limit)
        );
    }
    // Sticky: once exhausted, every later query on the same budget stops at once.
    let mut b = Budget::new(used - 1);
    assert!(matches!(
        budgeted_legal_paths(&p, &mut b),
        Budgeted::Incomplete(_)
    ));
    assert_eq!(
        budgeted_king_capture_rolls(&p, Color::Black, &mut b),
        Budgeted::Incomplete(0)
    );
    assert!(b.is_exhausted());
}

/// Short threats whose only line for some roll starts by castling (the castled king or rook
/// then captures) or by an en-passant capture that clears a bishop's diagonal: the walk's
/// reach prune must keep those first moves open.
#[test]
fn castling_and_en_passant_lines_count_in_short_threats() {
    for (with, without, target, actions) in [
        // O-O-O, then Kc1xb2: the roll K R K, which two king moves cannot pay in two actions.
        (
            "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
            "8/8/8/8/8/8/1k6/R3K3 w - - 0 1",
            "b2",
            2,
        ),
        // Black, on the queen's side: O-O-O, then Kc8xb7.
        (
            "r3k3/1K6/8/8/8/8/8/8 b q - 0 1",
            "r3k3/1K6/8/8/8/8/8/8 b - - 0 1",
            "b7",
            2,
        ),
        // b5xc6 e.p. takes the black pawn off the a3–e7 diagonal, then Bxe7: P B and any.
        (
            "8/4k3/8/1Pp5/8/B7/8/7K w - c6 0 1",
            "8/4k3/8/1Pp5/8/B7/8/7K w - - 0 1",
            "e7",
            2,
        ),
    ] {
        let sq = Square::from_name(target.as_bytes()).expect("square");
        let (a, b) = (pos(with), pos(without));
        let plain = plain_threat_rolls(&a, sq, actions);
        assert!(
            plain > plain_threat_rolls(&b, sq, actions),
            "{with}: the first move adds nothing"
        );
        assert_eq!(king_threat(&a, sq, actions), plain, "{with}");
        assert_eq!(
            king_threat(&b, sq, actions),
            plain_threat_rolls(&b, sq, actions),
            "{without}"
        );
    }
}

fn random_position(seed: u64, turns: usize) -> Position {
    if turns % 4 == 3 {
        random_sparse_placement(seed)
    } else {
        random_play(seed, turns)
    }
}

proptest! {
    // Few-piece endings are cheap for the plain searches, so many of them.
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn fast_counts_equal_plain_per_roll_searches_in_sparse_endings(seed in any::<u64>()) {
        let p = random_ending(seed);
        for d in Color::ALL {
            prop_assert_eq!(king_capture_rolls(&p, d), plain_king_rolls(&p, d), "king {:?} {}", d, p);
            prop_assert_eq!(queen_capture_rolls(&p, d), plain_queen_rolls(&p, d), "queen {:?} {}", d, p);
            let kings = p.piece_bb(d, PieceType::King);
            if kings.count() == 1 {
                let view = attacker_view(&p, d);
                let k = kings.first().expect("one king");
                for actions in 1..=3 {
                    prop_assert_eq!(
                        king_threat(&view, k, actions),
                        plain_threat_rolls(&view, k, actions),
                        "threat within {} on {:?}, {}", actions, k, p
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn fast_counts_equal_plain_per_roll_searches(seed in any::<u64>(), turns in 0usize..16) {
        let p = random_position(seed, turns);
        for d in Color::ALL {
            let fast = king_capture_rolls(&p, d);
            prop_assert_eq!(fast, plain_king_rolls(&p, d), "king, defender {:?}, {}", d, p);
            prop_assert_eq!(queen_capture_rolls(&p, d), plain_queen_rolls(&p, d), "queen {:?} {}", d, p);
            // king_threat from the attacker's view, on the defender's only king.
            let kings = p.piece_bb(d, PieceType::King);
            if kings.count() == 1 {
                let view = attacker_view(&p, d);
                let k = kings.first().expect("one king");
                prop_assert_eq!(king_threat(&view, k, 3), fast);
                prop_assert!(king_threat(&view, k, 1) <= king_threat(&view, k, 2));
                prop_assert!(king_threat(&view, k, 2) <= fast);
            }
        }
    }

    #[test]
    fn adep_classes_expand_to_the_same_successors_as_all_rolls(seed in any::<u64>(), turns in 0usize..20) {
        let p = random_position(seed, turns);
        let successors = |rolled: &Position| -> Vec<String> {
            let paths = legal_paths(rolled);
            let mut v: Vec<String> = if paths.is_empty() {
                vec![rolled.end_turn().to_dfen()]
            } else {
                paths.iter().map(|t| t.end_position(rolled).to_dfen()).collect()
            };
            v.sort();
            v
        };
        let mut by_roll: BTreeMap<String, u32> = BTreeMap::new();
        for r in ROLLS.iter() {
            for s in successors(&p.with_dice(r.dice())) {
                *by_roll.entry(s).or_default() += r.weight as u32;
            }
        }
        let mut by_class: BTreeMap<String, u32> = BTreeMap::new();
        let classes = partitions_for(&p);
        prop_assert_eq!(classes.iter().map(|c| c.weight as u32).sum::<u32>(), 216);
        for c in classes {
            for s in successors(&c.apply(&p)) {
                *by_class.entry(s).or_default() += c.weight as u32;
            }
        }
        prop_assert_eq!(by_roll, by_class);
    }

    #[test]
    fn budgets_are_exact_for_every_query(seed in any::<u64>(), turns in 0usize..12, roll in 0usize..56) {
        let p = random_position(seed, turns).with_dice(ROLLS[roll].dice());
        let king = budgeted_king_capture_rolls(&p, Color::Black, &mut Budget::new(u64::MAX));
        let Budgeted::Complete(v, used) = king.clone() else { panic!("unlimited") };
        prop_assert_eq!(v, king_capture_rolls(&p, Color::Black));
        prop_assert_eq!(budgeted_king_capture_rolls(&p, Color::Black, &mut Budget::new(used)), king);
        if used > 0 {
            prop_assert_eq!(budgeted_king_capture_rolls(&p, Color::Black, &mut Budget::new(used - 1)), Budgeted::Incomplete(used - 1));
        }
        let first = budgeted_first_king_capture(&p, &mut Budget::new(u64::MAX));
        let Budgeted::Complete(path, used) = first.clone() else { panic!("unlimited") };
        let want = legal_paths(&p).into_iter().find(|t| t.captures_king());
        prop_assert_eq!(path, want);
        prop_assert_eq!(TurnGenerator::new().first_king_capture(&p), want);
        prop_assert_eq!(budgeted_first_king_capture(&p, &mut Budget::new(used)), first);
        if used > 0 {
            prop_assert_eq!(budgeted_first_king_capture(&p, &mut Budget::new(used - 1)), Budgeted::Incomplete(used - 1));
        }
    }
}
