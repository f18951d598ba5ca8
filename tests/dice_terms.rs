//! `dice-terms-v1` (docs/features.md §9) against a slow reference written here: attacks found
//! by walking rays square by square over `Position::piece_at` (no attack tables, no
//! bitboards), each column computed from its definition, and the dice-aware score rebuilt
//! from those terms with the default weights (W 1500, threat 0.25, hanging 0.3 / 0.15).
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::{random_loose_placement, random_play};
use dicechess::board::Position;
use dicechess::eval::features::{schema, DiceTerms20, FeatureSchema};
use dicechess::eval::DiceAware;
use dicechess::kernels::{Color, PieceType, Square};
use proptest::prelude::*;

const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 10_000];

fn sq(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_index_masked((rank * 8 + file) as u32))
}

/// Whether the piece of `color` and `piece` on `from` attacks `to` (pawns: diagonally
/// forward; sliders: every square up to and including the first occupied one).
fn attacks(pos: &Position, color: Color, piece: PieceType, from: Square, to: Square) -> bool {
    let (f, r) = (from.file() as i32, from.rank() as i32);
    let (tf, tr) = (to.file() as i32, to.rank() as i32);
    let (df, dr) = (tf - f, tr - r);
    let ray = |dirs: &[(i32, i32)]| {
        dirs.iter().any(|&(a, b)| {
            let (mut x, mut y) = (f + a, r + b);
            while let Some(s) = sq(x, y) {
                if s == to {
                    return true;
                }
                if pos.piece_at(s).is_some() {
                    return false;
                }
                x += a;
                y += b;
            }
            false
        })
    };
    const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const LINE: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    match piece {
        PieceType::Pawn => {
            let fwd = if color == Color::White { 1 } else { -1 };
            dr == fwd && df.abs() == 1
        }
        PieceType::Knight => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
        PieceType::King => df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0),
        PieceType::Bishop => ray(&DIAG),
        PieceType::Rook => ray(&LINE),
        PieceType::Queen => ray(&DIAG) || ray(&LINE),
    }
}

fn all_squares() -> impl Iterator<Item = Square> {
    (0..64u32).map(Square::from_index_masked)
}

/// The types of `by`'s pieces attacking `to`.
fn attacker_types(pos: &Position, by: Color, to: Square) -> Vec<PieceType> {
    let mut out = Vec::new();
    for from in all_squares() {
        if let Some((c, p)) = pos.piece_at(from) {
            if c == by && attacks(pos, by, p, from, to) && !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// `1 − ((6 − k) / 6)³` for `k` distinct types.
fn availability(k: usize) -> f64 {
    let miss = (6 - k) as f64 / 6.0;
    1.0 - miss * miss * miss
}

struct Side {
    king_hit: f64,
    hanging: i32,
    best_hanging: i32,
    best_gain: i32,
    capture_roll: f64,
    mobility: usize,
    ring: usize,
    material: i32,
    advanced: usize,
}

/// The reference terms of `by` against `victim`.
fn side(pos: &Position, by: Color) -> Side {
    let victim = by.opponent();
    let mut s = Side {
        king_hit: 0.0,
        hanging: 0,
        best_hanging: 0,
        best_gain: 0,
        capture_roll: 0.0,
        mobility: 0,
        ring: 0,
        material: 0,
        advanced: 0,
    };
    let mut gain_types: Vec<PieceType> = Vec::new();
    let mut king_types: Vec<PieceType> = Vec::new();
    for to in all_squares() {
        let types = attacker_types(pos, by, to);
        match pos.piece_at(to) {
            // Every victim king counts: the types hitting any of them (a hand-made
            // placement may have two).
            Some((c, PieceType::King)) if c == victim => {
                for &t in &types {
                    if !king_types.contains(&t) {
                        king_types.push(t);
                    }
                }
            }
            Some((c, p)) if c == victim && !types.is_empty() => {
                let value = VALUES[p as usize];
                let guarded = !attacker_types(pos, victim, to).is_empty();
                if !guarded {
                    s.hanging += value;
                    s.best_hanging = s.best_hanging.max(value);
                }
                for t in &types {
                    let gain = if guarded {
                        value - VALUES[*t as usize]
                    } else {
                        value
                    };
                    if gain > 0 {
                        s.best_gain = s.best_gain.max(gain);
                        if !gain_types.contains(t) {
                            gain_types.push(*t);
                        }
                    }
                }
            }
            _ => {}
        }
        let own = matches!(pos.piece_at(to), Some((c, _)) if c == by);
        if !types.is_empty() && !own {
            s.mobility += 1;
        }
        if let Some((c, p)) = pos.piece_at(to) {
            if c == by && p != PieceType::King {
                s.material += VALUES[p as usize];
            }
            let rank = to.rank() as i32;
            let relative = if by == Color::White { rank } else { 7 - rank };
            if c == by && p == PieceType::Pawn && (relative == 5 || relative == 6) {
                s.advanced += 1;
            }
        }
    }
    s.capture_roll = availability(gain_types.len());
    s.king_hit = availability(king_types.len());
    // The ring of the victim's kings: squares next to one that `by` attacks.
    for t in all_squares() {
        let next_to_king = all_squares().any(|k| {
            pos.piece_at(k) == Some((victim, PieceType::King))
                && k != t
                && (k.file() as i32 - t.file() as i32).abs() <= 1
                && (k.rank() as i32 - t.rank() as i32).abs() <= 1
        });
        if next_to_king && !attacker_types(pos, by, t).is_empty() {
            s.ring += 1;
        }
    }
    s
}

/// The reference row from `color`'s view.
fn reference(pos: &Position, color: Color) -> [f64; 20] {
    let (o, t) = (side(pos, color), side(pos, color.opponent()));
    let kings = |c: Color| {
        all_squares()
            .filter(|s| pos.piece_at(*s) == Some((c, PieceType::King)))
            .count() as i32
    };
    // Material on the evaluators' axis, clamped to its bound (±10 000).
    let material_diff = ((o.material + 10_000 * kings(color))
        - (t.material + 10_000 * kings(color.opponent())))
    .clamp(-10_000, 10_000);
    let rest = material_diff as f64 + 0.3 * o.hanging as f64
        - 0.15 * t.hanging as f64
        - 0.25 * t.king_hit * 1500.0;
    let da = (o.king_hit * 1500.0 + (1.0 - o.king_hit) * rest).clamp(-10_000.0, 10_000.0);
    [
        0.5 + da / 20_000.0,
        material_diff as f64 / 1000.0,
        o.king_hit,
        t.king_hit,
        o.hanging as f64 / 1000.0,
        t.hanging as f64 / 1000.0,
        o.material as f64 / 1000.0,
        t.material as f64 / 1000.0,
        o.best_hanging as f64 / 1000.0,
        t.best_hanging as f64 / 1000.0,
        o.best_gain as f64 / 1000.0,
        t.best_gain as f64 / 1000.0,
        o.capture_roll,
        t.capture_roll,
        o.mobility as f64 / 64.0,
        t.mobility as f64 / 64.0,
        o.advanced as f64,
        t.advanced as f64,
        o.ring as f64 / 8.0,
        t.ring as f64 / 8.0,
    ]
}

fn engine_row(pos: &Position, color: Color) -> Vec<f32> {
    let s = schema(DiceTerms20::ID).unwrap();
    let mut out = vec![0.0f32; s.width()];
    s.extract_row(pos, color, &mut out);
    out
}

fn check(pos: &Position) -> Result<(), TestCaseError> {
    for color in Color::ALL {
        let got = engine_row(pos, color);
        let want = reference(pos, color);
        // Column 0 is the evaluator's own score, whichever way it is computed.
        let da = 0.5 + DiceAware::default().score_as(pos, color) / 20_000.0;
        prop_assert!(
            (got[0] - da).abs() <= 1e-6,
            "{}: {} vs {}",
            pos.to_dfen(),
            got[0],
            da
        );
        let names = DiceTerms20.columns();
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            prop_assert!(
                (*g as f64 - w).abs() <= 1e-5 * w.abs().max(1.0),
                "{} {:?} column {} ({}): engine {} reference {}",
                pos.to_dfen(),
                color,
                i,
                names[i],
                g,
                w
            );
        }
    }
    Ok(())
}

#[test]
fn hand_checked_rows() {
    // White rook e1 on the black king e8 (one attacker type: 91/216), a black knight on d5
    // hanging to the c4 pawn.
    let p = Position::from_dfen("4k3/8/8/3n4/2P5/8/8/K3R3 w - - 0 1").unwrap();
    let row = engine_row(&p, Color::White);
    assert!((row[2] - 91.0 / 216.0).abs() < 1e-6);
    assert_eq!(row[4], 0.3); // the knight, 300, hangs
    assert_eq!(row[8], 0.3);
    assert_eq!(row[10], 0.3); // its capture gains its whole value
    check(&p).unwrap();
    // A defended queen attacked by a pawn: a gain of 900 − 100, nothing hanging.
    let q = Position::from_dfen("4k3/4r3/8/4q3/3P4/8/8/4K3 w - - 0 1").unwrap();
    let row = engine_row(&q, Color::White);
    assert_eq!(row[4], 0.0);
    assert_eq!(row[10], 0.8);
    check(&q).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn rows_equal_the_reference(seed in any::<u64>(), turns in 0usize..24) {
        let p = if turns % 4 == 3 { random_loose_placement(seed) } else { random_play(seed, turns) };
        check(&p)?;
    }
}
