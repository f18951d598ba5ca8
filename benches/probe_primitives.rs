//! The probe primitives on the five benchmark positions, each criterion group
//! (`probe_primitives/<position>`) holding a bare `attackers_of` call on the same position so
//! every other line reads as a ratio to it:
//!
//! * `attackers_of` — one bare `attackers_of(occupancy, white king square, Black)`;
//! * `attacker_types_kings` — `attacker_types` of both kings' squares (two calls);
//! * `attackers_of_kings` — the same two squares through bare `attackers_of` (its baseline);
//! * `mobility` — per-type counts of White; `mobility_both` — `Mobility::new` (both colours);
//! * `all_moves_count` — White's total; `generate_count` — bare `generate(…).count(…)` with
//!   White to move (the baseline of the mobility lines);
//! * `passed_pawns` — `PassedPawns::new` for both colours;
//! * `diversity` — `diversity_difference` (both colours' PDI);
//! * `safety` — `hanging_material` and `king_attacked` for both colours.
//!
//! Before timing, every result is checked: mobility against the slow reference
//! (tests/reference/mod.rs, `pseudo_moves` per face), attacker types and hanging squares
//! against per-square `Position::attackers` queries, passed pawns and diversity against the
//! values counted by hand in [`HAND_COUNTED`].
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
#[path = "../tests/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use dicechess::board::Position;
use dicechess::kernels::{attackers_of, Bitboard, Color, PieceType, Square};
use dicechess::probe::{
    all_moves_count, attacker_types, diversity_difference, hanging_material, hanging_squares,
    king_attacked, mobility, piece_diversity, Mobility, PassedPawns,
};
use dicechess::rules::generate;

/// The values counted by hand on each benchmark position: White's and Black's (passed-pawn
/// count, max rank), White's and Black's PDI.
///
/// * start, castling: no pawn is passed (every file is blocked); PDI 5/5 and 2/2 (P, R).
/// * Kiwipete: every pawn has an enemy pawn ahead on its own or an adjacent file
///   (a2–b4, b2/c2–b4, d5–c7/d7/e6, e4–d7/f7, f2/g2/h2–g6/h3; Black's b4–a2/b2/c2, h3–g2/h2,
///   the rest blocked by the pawns in front); PDI 5/5.
/// * endgame: b5–c7, e2–d6/f4, g2–f4; c7–b5, d6–e2, f4–e2/g2: none passed; PDI 2/2 (P, R).
/// * promotion: e7 is passed, 6 ranks from White's back rank; Black has only a king.
type Expected = ([(u32, u32); 2], [u32; 2]);
const HAND_COUNTED: [(&str, Expected); 5] = [
    ("start", ([(0, 0), (0, 0)], [5, 5])),
    ("kiwipete", ([(0, 0), (0, 0)], [5, 5])),
    ("endgame", ([(0, 0), (0, 0)], [2, 2])),
    ("castling", ([(0, 0), (0, 0)], [2, 2])),
    ("promotion", ([(1, 6), (0, 0)], [1, 0])),
];

fn king_square(pos: &Position, color: Color) -> Square {
    pos.piece_bb(color, PieceType::King)
        .first()
        .expect("one king per side")
}

/// Attacker types of `target` from the pieces `Position::attackers` lists.
fn types_of_attackers(pos: &Position, target: Square, by: Color) -> u8 {
    pos.attackers(target, by).into_iter().fold(0, |m, s| {
        m | pos.type_at(s).expect("an attacker stands there").mask_bit()
    })
}

/// Hanging squares by two per-square attacker queries per piece.
fn hanging_by_queries(pos: &Position, side: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in pos.color(side) & !pos.pieces(PieceType::King) {
        if pos.attackers(sq, side.opponent()).any() && pos.attackers(sq, side).is_empty() {
            out = out.with(sq);
        }
    }
    out
}

/// The slow reference's per-face move counts of `side` (castling under face 6).
fn reference_mobility(fen: &str, side: Color) -> [u32; 6] {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if side == Color::White { "w" } else { "b" };
    let dfen = fields.join(" ");
    let mut out = [0u32; 6];
    for face in 1..=6u8 {
        out[face as usize - 1] = reference::pseudo_moves(&dfen, face).len() as u32;
    }
    out
}

fn check(name: &str, fen: &str, pos: &Position, passed: [(u32, u32); 2], pdi: [u32; 2]) {
    for (i, side) in Color::ALL.into_iter().enumerate() {
        let other = side.opponent();
        let k = king_square(pos, side);
        assert_eq!(
            attacker_types(pos, k, other),
            types_of_attackers(pos, k, other),
            "{name}: attacker types of the {side:?} king"
        );
        let m = mobility(pos, side);
        assert_eq!(
            m,
            reference_mobility(fen, side),
            "{name}: {side:?} mobility"
        );
        assert_eq!(all_moves_count(pos, side), m.iter().sum::<u32>());
        let pp = PassedPawns::new(pos, side);
        assert_eq!(
            (pp.count, pp.max_rank),
            passed[i],
            "{name}: {side:?} passed"
        );
        assert_eq!(piece_diversity(pos, side), pdi[i], "{name}: {side:?} PDI");
        assert_eq!(
            hanging_squares(pos, side),
            hanging_by_queries(pos, side),
            "{name}: {side:?} hanging squares"
        );
    }
    assert_eq!(
        generate(pos, 0x3f, true).count(pos) as u32,
        all_moves_count(pos, Color::White)
    );
}

fn bench_probe(c: &mut Criterion) {
    eprintln!();
    eprintln!(
        "{:<10} {:>22} {:>22} {:>7} {:>5} {:>5} {:>5}",
        "position", "mobility W", "mobility B", "passed", "pdi", "hang", "kings"
    );
    for (name, fen, (passed, pdi)) in common::positions_with(HAND_COUNTED) {
        let pos = Position::from_dfen(fen).expect("valid benchmark FEN");
        check(name, fen, &pos, passed, pdi);
        let (wk, bk) = (
            king_square(&pos, Color::White),
            king_square(&pos, Color::Black),
        );
        eprintln!(
            "{name:<10} {:>22} {:>22} {:>7} {:>5} {:>5} {:>5}",
            format!("{:?}", mobility(&pos, Color::White)),
            format!("{:?}", mobility(&pos, Color::Black)),
            format!("{}/{}", passed[0].0, passed[1].0),
            format!("{}/{}", pdi[0], pdi[1]),
            format!(
                "{}/{}",
                hanging_material(&pos, Color::White),
                hanging_material(&pos, Color::Black)
            ),
            format!(
                "{:x}/{:x}",
                attacker_types(&pos, wk, Color::Black),
                attacker_types(&pos, bk, Color::White)
            ),
        );

        let mut g = c.benchmark_group(format!("probe_primitives/{name}"));
        g.bench_function("attackers_of", |b| {
            b.iter(|| attackers_of(black_box(&pos).occupancy(), black_box(wk), Color::Black))
        });
        g.bench_function("attackers_of_kings", |b| {
            b.iter(|| {
                let p = black_box(&pos);
                attackers_of(p.occupancy(), black_box(wk), Color::Black)
                    | attackers_of(p.occupancy(), black_box(bk), Color::White)
            })
        });
        g.bench_function("attacker_types_kings", |b| {
            b.iter(|| {
                let p = black_box(&pos);
                attacker_types(p, black_box(wk), Color::Black)
                    | attacker_types(p, black_box(bk), Color::White) << 6
            })
        });
        g.bench_function("generate_count", |b| {
            b.iter(|| {
                let p = black_box(&pos);
                generate(p, 0x3f, true).count(p)
            })
        });
        g.bench_function("mobility", |b| {
            b.iter(|| mobility(black_box(&pos), Color::White))
        });
        g.bench_function("mobility_both", |b| {
            b.iter(|| Mobility::new(black_box(&pos), Color::White))
        });
        g.bench_function("all_moves_count", |b| {
            b.iter(|| all_moves_count(black_box(&pos), Color::White))
        });
        g.bench_function("passed_pawns", |b| {
            b.iter(|| {
                let p = black_box(&pos);
                (
                    PassedPawns::new(p, Color::White),
                    PassedPawns::new(p, Color::Black),
                )
            })
        });
        g.bench_function("diversity", |b| {
            b.iter(|| diversity_difference(black_box(&pos), Color::White))
        });
        g.bench_function("safety", |b| {
            b.iter(|| {
                let p = black_box(&pos);
                (
                    hanging_material(p, Color::White),
                    hanging_material(p, Color::Black),
                    king_attacked(p, Color::White),
                    king_attacked(p, Color::Black),
                )
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::criterion(Duration::from_secs(1), Duration::from_secs(2), 30);
    targets = bench_probe
}
criterion_main!(benches);
