//! The feature schemas (docs/features.md) against a slow, obviously-correct reference
//! written here: mailbox scans of `tests/reference` boards for counts, planes, diversity and
//! passed pawns; the reference's per-type pseudo-moves for mobility and king attacks; and a
//! plain per-roll depth-first search over the reference's micro-moves for the king- and
//! queen-capture probabilities. Also: the kcp-13 golden percentages of docs/features.md §5,
//! colour-flip symmetry, the documented invariants, batch = row-by-row extraction in rayon
//! pools of 1 and 2 threads, and no heap allocation per row.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
mod reference;

use common::{random_loose_placement, random_play, random_turn, xorshift};

use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::{
    all_schemas, raw_board_column, roll_probability, schema, DiceTerms20, FeatureSchema, Kcp13,
    KcpMobility27, KcpMobilityPawns31, Material7, Perspective, RawBoard768, Rich9, RichPdi11,
    SCHEMA_IDS,
};
use dicechess::eval::king_safety;
use dicechess::kernels::{Color, PieceType, Square};
use dicechess::probe::{
    all_moves_count, king_capture_rolls, mobility, piece_diversity, queen_capture_rolls,
    PassedPawns,
};
use dicechess::rules::ROLLS;
use proptest::prelude::*;
use reference::{Color as RColor, Piece as RPiece, RefPos};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------
// Allocation counting (per thread), for "row functions must not allocate".

struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_allocation() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// const-initialised thread-local `Cell` without a destructor, so counting never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// ---------------------------------------------------------------------------------------
// Positions.

fn pos(fen: &str) -> Position {
    Position::from_dfen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The kcp-13 golden values of docs/features.md §5: (FEN, percentage as written there, whether
/// docs/features.md gives the full FEN). The abbreviated ones' full FENs are those of
/// `tests/data/king_capture.json`, listed in the same order as docs/features.md. The
/// defender is always the side not to move.
const KCP_GOLDEN: [(&str, f64, bool); 14] = [
    ("4k3/8/8/8/8/8/8/4K3 b - -", 0.0, true),
    (
        "rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
        42.13,
        true,
    ),
    (
        "rnb1qbnr/pppppkpp/8/6N1/8/4PQ2/PPPP1PPP/RNB1K2R w KQ - 0 1",
        70.37,
        true,
    ),
    (
        "rnbq1bnr/ppppkppp/8/4p3/1P6/B7/P1PPPPPP/R3KBNR w KQ - 0 1",
        13.89,
        true,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/2B1P3/8/PPPP1PPP/RNB1K1NR w KQ - 0 1",
        7.41,
        false,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQ - 0 1",
        0.46,
        false,
    ),
    (
        "rnbq1bnr/ppppkppp/4p3/3N4/3P3B/Q7/PPP1PPPP/R3KBNR w KQ - 0 1",
        87.50,
        false,
    ),
    (
        "rnbq1bnr/ppppkppp/8/3N2B1/P2P4/Q3R3/1PP1PPPP/4KBNR w K - 0 1",
        96.30,
        false,
    ),
    ("4R3/8/8/Q3k3/3P4/5N2/7B/6K1 w - - 0 1", 99.54, true),
    (
        "rnbq1bnr/pppppkpp/8/3N4/2P5/1B1P2P1/PP2PP1P/R1B1K2R w KQ - 0 1",
        2.78,
        false,
    ),
    (
        "rnbq1bnr/pppppkpp/8/8/8/2P5/PP1PPPPP/R1B1KB1R w KQ - 0 1",
        1.39,
        false,
    ),
    (
        "rnbqkbnr/pppppppp/8/1B6/4P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
        14.81,
        false,
    ),
    (
        "rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 1",
        42.59,
        false,
    ),
    (
        "rnbq1bnr/ppppkppp/8/4p3/1P6/B7/P1PPPPPP/RN1QKBNR w KQ - 0 1",
        14.35,
        false,
    ),
];

/// Hand-picked positions beyond §5 (tests/data/hand_picked.txt says which and why).
fn hand_picked() -> Vec<String> {
    common::dfen_list("hand_picked")
}

fn random_position(seed: u64, turns: usize) -> Position {
    if turns % 4 == 3 {
        random_loose_placement(seed)
    } else {
        random_play(seed, turns)
    }
}

// ---------------------------------------------------------------------------------------
// The slow reference.

fn rcolor(c: Color) -> RColor {
    match c {
        Color::White => RColor::White,
        Color::Black => RColor::Black,
    }
}

/// Die face (1..=6) of a reference piece.
fn face_of(p: RPiece) -> u8 {
    match p {
        RPiece::Pawn => 1,
        RPiece::Knight => 2,
        RPiece::Bishop => 3,
        RPiece::Rook => 4,
        RPiece::Queen => 5,
        RPiece::King => 6,
    }
}

fn square_index(name: &str) -> usize {
    let b = name.as_bytes();
    usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a')
}

/// The DFEN with `side` to move and no dice, everything else as it stands.
fn with_side(dfen: &str, side: Color) -> String {
    let mut p = reference::parse(dfen);
    p.side = rcolor(side);
    p.dice.clear();
    reference::write(&p)
}

/// Everything the schemas are made of, for one position, computed slowly.
struct Facts {
    board: RefPos,
    /// Pieces per colour (White, Black) and type (die-face order).
    counts: [[i64; 6]; 2],
    /// Pseudo-legal moves per colour and moving type, castling under the king.
    moves: [[i64; 6]; 2],
    /// Whether some king of the colour is attacked.
    king_attacked: [bool; 2],
    /// Number of non-king types present.
    pdi: [i64; 2],
    /// Passed pawns: (count, advancement of the most advanced one).
    passed: [(i64, i64); 2],
    /// Rolls (of 216) with which the defender's (index) opponent captures a king / a queen.
    king_rolls: [u32; 2],
    queen_rolls: [u32; 2],
}

fn facts(p: &Position) -> Facts {
    let dfen = p.to_dfen();
    let board = reference::parse(&dfen);
    let mut counts = [[0i64; 6]; 2];
    for (c, piece) in board.board.iter().flatten() {
        counts[color_index(*c)][usize::from(face_of(*piece) - 1)] += 1;
    }
    let mut moves = [[0i64; 6]; 2];
    let mut king_attacked = [false; 2];
    let mut pdi = [0i64; 2];
    let mut passed = [(0i64, 0i64); 2];
    let mut king_rolls = [0u32; 2];
    let mut queen_rolls = [0u32; 2];
    for c in Color::ALL {
        let ci = c.index();
        let side = with_side(&dfen, c);
        for face in 1..=6u8 {
            moves[ci][usize::from(face - 1)] = reference::pseudo_moves(&side, face).len() as i64;
        }
        // Attacked: some move of the other colour lands on one of `c`'s kings.
        let them = with_side(&dfen, c.opponent());
        let kings: Vec<usize> = (0..64)
            .filter(|&sq| board.board[sq] == Some((rcolor(c), RPiece::King)))
            .collect();
        king_attacked[ci] = (1..=6u8).any(|face| {
            reference::pseudo_moves(&them, face)
                .iter()
                .any(|m| kings.contains(&square_index(&m[2..4])))
        });
        pdi[ci] = counts[ci][..5].iter().filter(|&&n| n > 0).count() as i64;
        passed[ci] = passed_pawns(&board, c);
        king_rolls[ci] = capture_rolls(&dfen, c, RPiece::King);
        queen_rolls[ci] = capture_rolls(&dfen, c, RPiece::Queen);
    }
    Facts {
        board,
        counts,
        moves,
        king_attacked,
        pdi,
        passed,
        king_rolls,
        queen_rolls,
    }
}

fn color_index(c: RColor) -> usize {
    match c {
        RColor::White => 0,
        RColor::Black => 1,
    }
}

/// Passed pawns of `c` by the textbook definition: no enemy pawn on the same or an adjacent
/// file on a rank ahead. Advancement: White rank − 1, Black 8 − rank (ranks 1..8).
fn passed_pawns(b: &RefPos, c: Color) -> (i64, i64) {
    let (mut count, mut best) = (0i64, 0i64);
    for sq in 0..64usize {
        if b.board[sq] != Some((rcolor(c), RPiece::Pawn)) {
            continue;
        }
        let (file, rank) = ((sq % 8) as i64, (sq / 8) as i64 + 1);
        let blocked = (0..64usize).any(|e| {
            let (ef, er) = ((e % 8) as i64, (e / 8) as i64 + 1);
            let ahead = match c {
                Color::White => er > rank,
                Color::Black => er < rank,
            };
            b.board[e] == Some((rcolor(c.opponent()), RPiece::Pawn))
                && (ef - file).abs() <= 1
                && ahead
        });
        if !blocked {
            count += 1;
            let adv = match c {
                Color::White => rank - 1,
                Color::Black => 8 - rank,
            };
            best = best.max(adv);
        }
    }
    (count, best)
}

/// Of the 216 ordered rolls, how many let `defender`'s opponent (moving from this position
/// with its rights and e.p. targets as they stand) land on a `target` piece of `defender`
/// with some sequence of micro-moves its dice pay for (castling pays King + Rook).
fn capture_rolls(dfen: &str, defender: Color, target: RPiece) -> u32 {
    let base = with_side(dfen, defender.opponent());
    let mut memo = HashMap::new();
    let mut n = 0;
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for c in 1..=6u8 {
                let mut dice = vec![a, b, c];
                dice.sort_unstable();
                if hits(&base, &dice, rcolor(defender), target, &mut memo) {
                    n += 1;
                }
            }
        }
    }
    n
}

fn hits(
    dfen: &str,
    dice: &[u8],
    defender: RColor,
    target: RPiece,
    memo: &mut HashMap<(String, Vec<u8>), bool>,
) -> bool {
    if dice.is_empty() {
        return false;
    }
    let key = (dfen.to_string(), dice.to_vec());
    if let Some(&hit) = memo.get(&key) {
        return hit;
    }
    let board = reference::parse(dfen);
    let mut faces = dice.to_vec();
    faces.dedup();
    let mut hit = false;
    'search: for face in faces {
        for m in reference::pseudo_moves(dfen, face) {
            let (from, to) = (square_index(&m[0..2]), square_index(&m[2..4]));
            let mut rest = dice.to_vec();
            rest.remove(rest.iter().position(|&d| d == face).expect("face in pool"));
            // A king moving two files is castling: it also spends a Rook die.
            if face == 6 && (from % 8).abs_diff(to % 8) == 2 {
                match rest.iter().position(|&d| d == 4) {
                    Some(i) => {
                        rest.remove(i);
                    }
                    None => continue,
                }
            }
            if board.board[to] == Some((defender, target)) {
                hit = true;
                break 'search;
            }
            if !rest.is_empty() {
                let next = reference::play_micro(dfen, std::slice::from_ref(&m));
                if hits(&next, &rest, defender, target, memo) {
                    hit = true;
                    break 'search;
                }
            }
        }
    }
    memo.insert(key, hit);
    hit
}

/// `k / 216` as the training pipeline writes it: the `f64` probability rounded to `f32`.
fn prob(k: u32) -> f32 {
    (f64::from(k) / 216.0) as f32
}

/// The reference vector of schema `id` from `color`'s view.
fn reference_vector(id: &str, f: &Facts, color: Color) -> Vec<f32> {
    let (o, x) = (color.index(), color.opponent().index());
    let values = [1i64, 3, 3, 5, 9];
    let material = |c: usize| (0..5).map(|t| values[t] * f.counts[c][t]).sum::<i64>();
    let safety = |c: usize| if f.king_attacked[c] { -2000i64 } else { 0 };
    let total_moves = |c: usize| f.moves[c].iter().sum::<i64>();
    let mut v: Vec<f32> = Vec::new();
    let mut push = |x: i64| v.push(x as f32);
    if id == RawBoard768::ID {
        let mut v = vec![0.0f32; 768];
        for (sq, cell) in f.board.board.iter().enumerate() {
            if let Some((c, piece)) = cell {
                let plane =
                    usize::from(face_of(*piece) - 1) + if color_index(*c) == o { 0 } else { 6 };
                let from_mover = if color == Color::White {
                    sq
                } else {
                    ((7 - sq / 8) * 8) | (sq % 8)
                };
                v[plane * 64 + from_mover] = 1.0;
            }
        }
        return v;
    }
    for t in 0..5 {
        push(f.counts[o][t] - f.counts[x][t]);
    }
    push(material(o) - material(x));
    push(material(o) + material(x));
    if id == Material7::ID {
        return v;
    }
    push(total_moves(o) - total_moves(x));
    push(safety(o) - safety(x));
    if id == Rich9::ID {
        return v;
    }
    if id == RichPdi11::ID {
        v.push(f.pdi[o] as f32 / 5.0);
        v.push(f.pdi[x] as f32 / 5.0);
        return v;
    }
    v.push(prob(f.king_rolls[x]));
    v.push(prob(f.king_rolls[o]));
    v.push(prob(f.queen_rolls[x]));
    v.push(prob(f.queen_rolls[o]));
    if id == Kcp13::ID {
        return v;
    }
    for c in [o, x] {
        for t in 0..6 {
            v.push(f.moves[c][t] as f32);
        }
    }
    v.push(f.pdi[o] as f32 / 5.0);
    v.push(f.pdi[x] as f32 / 5.0);
    if id == KcpMobility27::ID {
        return v;
    }
    assert_eq!(id, KcpMobilityPawns31::ID, "unknown schema");
    v.push(f.passed[o].0 as f32);
    v.push(f.passed[x].0 as f32);
    v.push(f.passed[o].1 as f32);
    v.push(f.passed[x].1 as f32);
    v
}

fn row(s: &dyn FeatureSchema, p: &Position, c: Color) -> Vec<f32> {
    let mut out = vec![f32::NAN; s.width()];
    s.extract_row(p, c, &mut out);
    out
}

fn golden(positions: &[Position]) {
    for p in positions {
        let f = facts(p);
        // dice-terms-v1 has its own independent reference in tests/dice_terms.rs.
        for s in all_schemas().iter().filter(|s| s.id() != DiceTerms20::ID) {
            for c in Color::ALL {
                let want = reference_vector(s.id(), &f, c);
                let got = row(*s, p, c);
                assert_eq!(got, want, "{} from {c:?}: {}", s.id(), p.to_dfen());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// (1) Golden vectors.

#[test]
fn golden_vectors_hand_picked_positions() {
    let positions: Vec<Position> = hand_picked().iter().map(|f| pos(f)).collect();
    golden(&positions);
}

#[test]
fn golden_vectors_kcp_golden_positions() {
    let positions: Vec<Position> = KCP_GOLDEN.iter().map(|(f, _, _)| pos(f)).collect();
    golden(&positions);
}

#[test]
fn golden_vectors_random_positions() {
    let positions: Vec<Position> = (0..8u64)
        .map(|i| random_position(0x5eed + i * 7919, [4, 9, 3, 14, 7, 11, 20, 2][i as usize]))
        .collect();
    golden(&positions);
}

/// The start position, counted by hand: 16 pawn moves and 4 knight moves a side, all material
/// 39 a side, every type present, no passed pawn, no capture within three dice.
#[test]
fn start_position_by_hand() {
    let p = pos(START);
    let material = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 78.0];
    let moves = [16.0, 4.0, 0.0, 0.0, 0.0, 0.0];
    for c in Color::ALL {
        assert_eq!(row(&Material7, &p, c), material);
        assert_eq!(row(&Rich9, &p, c)[7..], [0.0, 0.0]);
        assert_eq!(row(&RichPdi11, &p, c)[9..], [1.0, 1.0]);
        assert_eq!(row(&Kcp13, &p, c)[9..], [0.0; 4]);
        let v = row(&KcpMobilityPawns31, &p, c);
        assert_eq!(v[13..19], moves);
        assert_eq!(v[19..25], moves);
        assert_eq!(v[25..], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        let raw = row(&RawBoard768, &p, c);
        // Own pawns on the second rank and own king on e1 from either side's view.
        assert!((8..16).all(|sq| raw[sq] == 1.0));
        assert_eq!(raw[5 * 64 + 4], 1.0);
        assert_eq!(raw[11 * 64 + 60], 1.0);
        assert_eq!(raw.iter().sum::<f32>(), 32.0);
    }
}

// ---------------------------------------------------------------------------------------
// (2) kcp-13 golden percentages (docs/features.md §5).

#[test]
fn kcp13_golden_percentages() {
    let mut full = 0;
    for (fen, pct, given_in_full) in KCP_GOLDEN {
        let p = pos(fen);
        let mover = p.side_to_move();
        let attack = row(&Kcp13, &p, mover)[9];
        let danger = row(&Kcp13, &p, mover.opponent())[10];
        assert_eq!(attack, danger, "{fen}");
        let rolls = king_capture_rolls(&p, mover.opponent());
        assert_eq!(attack, roll_probability(rolls), "{fen}");
        // docs/features.md writes percentages with two decimals.
        let shown = (f64::from(rolls) / 216.0 * 10000.0).round() / 100.0;
        assert_eq!(shown, pct, "{fen}: {rolls}/216");
        assert_eq!((f64::from(attack) * 10000.0).round() / 100.0, pct, "{fen}");
        full += usize::from(given_in_full);
    }
    assert_eq!(full, 5);
}

// ---------------------------------------------------------------------------------------
// (3) Colour-flip symmetry and (4) invariants on random positions.

const PDI_VALUES: [f32; 6] = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];

fn check_invariants(p: &Position, c: Color) -> Result<(), TestCaseError> {
    let opp = c.opponent();
    let m7 = row(&Material7, p, c);
    let r9 = row(&Rich9, p, c);
    let p11 = row(&RichPdi11, p, c);
    let k13 = row(&Kcp13, p, c);
    let k27 = row(&KcpMobility27, p, c);
    let k31 = row(&KcpMobilityPawns31, p, c);
    // Prefixes.
    prop_assert_eq!(&r9[..7], &m7[..]);
    prop_assert_eq!(&p11[..9], &r9[..]);
    prop_assert_eq!(&k13[..9], &r9[..]);
    prop_assert_eq!(&k27[..13], &k13[..]);
    prop_assert_eq!(&k31[..27], &k27[..]);
    // Material.
    let values = [1.0f32, 3.0, 3.0, 5.0, 9.0];
    let diff: f32 = (0..5).map(|t| values[t] * m7[t]).sum();
    prop_assert_eq!(m7[5], diff);
    prop_assert!(m7[6] >= m7[5].abs());
    // Mobility and king safety.
    let own_moves: f32 = k27[13..19].iter().sum();
    let opp_moves: f32 = k27[19..25].iter().sum();
    prop_assert_eq!(own_moves - opp_moves, r9[7]);
    prop_assert_eq!(
        r9[7],
        (all_moves_count(p, c) as i64 - all_moves_count(p, opp) as i64) as f32
    );
    for (t, m) in mobility(p, c).into_iter().enumerate() {
        prop_assert_eq!(k27[13 + t], m as f32);
    }
    for (t, m) in mobility(p, opp).into_iter().enumerate() {
        prop_assert_eq!(k27[19 + t], m as f32);
    }
    prop_assert!([-2000.0, 0.0, 2000.0].contains(&r9[8]));
    prop_assert_eq!(r9[8], (king_safety(p, c) - king_safety(p, opp)) as f32);
    // PDI.
    for v in [p11[9], p11[10], k27[25], k27[26]] {
        prop_assert!(PDI_VALUES.contains(&v), "PDI value {}", v);
    }
    prop_assert_eq!(p11[9], PDI_VALUES[piece_diversity(p, c) as usize]);
    prop_assert_eq!(p11[10], PDI_VALUES[piece_diversity(p, opp) as usize]);
    prop_assert_eq!(&k27[25..], &p11[9..]);
    // Capture probabilities.
    prop_assert_eq!(k13[9], roll_probability(king_capture_rolls(p, opp)));
    prop_assert_eq!(k13[10], roll_probability(king_capture_rolls(p, c)));
    prop_assert_eq!(k13[11], roll_probability(queen_capture_rolls(p, opp)));
    prop_assert_eq!(k13[12], roll_probability(queen_capture_rolls(p, c)));
    for v in &k13[9..] {
        prop_assert!((0.0..=1.0).contains(v));
        prop_assert!(ROLLS.len() == 56 && (0..=216).any(|k| prob(k) == *v));
    }
    // Passed pawns.
    let (own, them) = (PassedPawns::new(p, c), PassedPawns::new(p, opp));
    prop_assert_eq!(
        &k31[27..],
        &[
            own.count as f32,
            them.count as f32,
            own.max_rank as f32,
            them.max_rank as f32
        ][..]
    );
    prop_assert!(k31[27] <= 8.0 && k31[28] <= 8.0);
    // Raw board: one 1.0 per piece, on its own plane.
    let raw = row(&RawBoard768, p, c);
    prop_assert!(raw.iter().all(|&v| v == 0.0 || v == 1.0));
    prop_assert_eq!(raw.iter().sum::<f32>(), p.occupied().count() as f32);
    prop_assert_eq!(raw[..384].iter().sum::<f32>(), p.color(c).count() as f32);
    for piece in PieceType::ALL {
        for sq in p.piece_bb(opp, piece) {
            prop_assert_eq!(raw[raw_board_column(c, false, piece, sq)], 1.0);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn colour_flip_symmetry(seed in any::<u64>(), turns in 0usize..16) {
        let p = random_position(seed, turns);
        let flipped = p.flip_colors();
        for s in all_schemas() {
            for c in Color::ALL {
                prop_assert_eq!(
                    row(*s, &p, c),
                    row(*s, &flipped, c.opponent()),
                    "{} {:?} {}", s.id(), c, p.to_dfen()
                );
            }
        }
    }

    #[test]
    fn documented_invariants(seed in any::<u64>(), turns in 0usize..16) {
        let p = random_position(seed, turns);
        for c in Color::ALL {
            check_invariants(&p, c)?;
        }
    }
}

#[test]
fn invariants_on_golden_positions() {
    let picked = hand_picked();
    for fen in picked
        .iter()
        .map(String::as_str)
        .chain(KCP_GOLDEN.iter().map(|(f, _, _)| *f))
    {
        for c in Color::ALL {
            check_invariants(&pos(fen), c).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }
}

/// The probability columns are `k / 216` as `f32`; the one `f32` division equals rounding the
/// `f64` quotient (so "rolls/216 as f32" is unambiguous).
#[test]
fn roll_probabilities_are_exact_quotients() {
    for k in 0..=216u32 {
        assert_eq!(roll_probability(k), prob(k), "{k}");
        assert_eq!(roll_probability(k), k as f32 / 216.0, "{k}");
    }
    assert_eq!(roll_probability(216), 1.0);
    for (n, v) in PDI_VALUES.iter().enumerate() {
        assert_eq!(n as f32 / 5.0, *v);
    }
}

// ---------------------------------------------------------------------------------------
// Columns and the registry.

#[test]
fn registry_and_columns() {
    let widths = [7, 9, 11, 13, 27, 31, 768, 20];
    assert_eq!(all_schemas().len(), 8);
    for ((s, id), w) in all_schemas().iter().zip(SCHEMA_IDS).zip(widths) {
        assert_eq!(s.id(), id);
        assert_eq!(s.width(), w, "{id}");
        assert_eq!(s.columns().len(), w, "{id}");
        assert_eq!(schema(id).map(|x| x.id()), Some(id));
        let mut names: Vec<&str> = s.columns().to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), w, "{id}: duplicate column names");
    }
    assert!(schema("rich-9").is_none());
    assert!(schema("KCP-13").is_none());
    assert_eq!(
        SCHEMA_IDS,
        [
            "material-7-v1",
            "rich-9-v1",
            "rich-pdi-11-v1",
            "kcp-13",
            "kcp-mobility-27-v1",
            "kcp-mobility-pawns-31-v1",
            "raw-board-768-v1",
            "dice-terms-v1"
        ]
    );
    let c = |s: &dyn FeatureSchema| s.columns().to_vec();
    assert_eq!(
        c(&Material7),
        [
            "p_diff",
            "n_diff",
            "b_diff",
            "r_diff",
            "q_diff",
            "material_diff",
            "total_material"
        ]
    );
    assert_eq!(c(&Rich9)[7..], ["mobility_diff", "king_safety_diff"]);
    assert_eq!(c(&RichPdi11)[9..], ["own_pdi", "opponent_pdi"]);
    assert_eq!(
        c(&Kcp13)[9..],
        [
            "king_capture_attack",
            "king_capture_danger",
            "queen_capture_attack",
            "queen_capture_danger"
        ]
    );
    let t = ["p", "n", "b", "r", "q", "k"];
    let moves: Vec<String> = ["own", "opp"]
        .iter()
        .flat_map(|side| t.iter().map(move |x| format!("{side}_moves_{x}")))
        .collect();
    assert_eq!(c(&KcpMobility27)[13..25], moves);
    assert_eq!(c(&KcpMobility27)[25..], ["own_pdi", "opp_pdi"]);
    assert_eq!(
        c(&KcpMobilityPawns31)[27..],
        [
            "own_passed_pawns",
            "opp_passed_pawns",
            "own_passed_max_rank",
            "opp_passed_max_rank"
        ]
    );
    // Each schema extends the narrower one.
    assert_eq!(c(&Rich9)[..7], c(&Material7));
    assert_eq!(c(&RichPdi11)[..9], c(&Rich9));
    assert_eq!(c(&Kcp13)[..9], c(&Rich9));
    assert_eq!(c(&KcpMobility27)[..13], c(&Kcp13));
    assert_eq!(c(&KcpMobilityPawns31)[..27], c(&KcpMobility27));
    let raw: Vec<String> = ["own", "opp"]
        .iter()
        .flat_map(|side| {
            t.iter()
                .flat_map(move |x| (0..64).map(move |sq| format!("{side}_{x}_{sq}")))
        })
        .collect();
    assert_eq!(c(&RawBoard768), raw);
    assert_eq!(RawBoard768.columns()[0], "own_p_0");
    assert_eq!(RawBoard768.columns()[767], "opp_k_63");
    // Black's view mirrors ranks only.
    let e2 = Square::from_name(b"e2").expect("square");
    assert_eq!(
        raw_board_column(Color::White, true, PieceType::Pawn, e2),
        12
    );
    assert_eq!(
        raw_board_column(Color::Black, true, PieceType::Pawn, e2),
        52
    );
    assert_eq!(
        raw_board_column(Color::Black, false, PieceType::King, e2),
        11 * 64 + 52
    );
}

// ---------------------------------------------------------------------------------------
// (5) Batch extraction equals row-by-row extraction.

/// Positions from random games (a quarter) and random sparse placements (three quarters,
/// cheap for the capture searches of a debug build).
fn batch_positions(n: usize) -> Vec<Position> {
    let mut next = xorshift(0xba7c4);
    // Consecutive positions of random games.
    let mut games = Vec::with_capacity(n / 4 + 12);
    let mut game = 0u64;
    while games.len() <= n / 4 {
        game += 1;
        let mut p = random_play(game, 0);
        for _ in 0..12 {
            p = random_turn(&p, &mut next);
            games.push(p);
        }
    }
    (0..n)
        .map(|i| {
            if i % 4 == 0 {
                games[i / 4]
            } else {
                random_loose_placement(next())
            }
        })
        .collect()
}

#[test]
fn batch_extract_equals_rows() {
    let all = batch_positions(1000);
    let pools = common::pools();
    for s in all_schemas() {
        // Row-by-row values from both colours, once per schema.
        let rows: Vec<[Vec<f32>; 2]> = all
            .iter()
            .map(|p| [row(*s, p, Color::White), row(*s, p, Color::Black)])
            .collect();
        for n in [0usize, 1, 7, 1000] {
            let batch = PositionBatch::from_positions(&all[..n]);
            assert_eq!(batch.len(), n);
            for perspective in [
                Perspective::SideToMove,
                Perspective::Fixed(Color::White),
                Perspective::Fixed(Color::Black),
            ] {
                for pool in &pools {
                    let got = pool.install(|| s.extract(&batch, perspective));
                    assert_eq!(got.dim(), (n, s.width()), "{}", s.id());
                    for (i, p) in all[..n].iter().enumerate() {
                        let c = perspective.color_for(p);
                        let want = &rows[i][c.index()];
                        assert_eq!(
                            got.row(i).as_slice().expect("contiguous row"),
                            &want[..],
                            "{} row {i} of {n}, {:?}, {} threads",
                            s.id(),
                            perspective,
                            pool.current_num_threads()
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// No heap allocation per row.

#[test]
fn rows_do_not_allocate() {
    let positions: Vec<Position> = hand_picked()
        .iter()
        .map(|f| pos(f))
        .chain((0..8).map(|i| random_position(i * 31 + 5, (i % 5) as usize * 3)))
        .collect();
    let mut out = vec![0.0f32; 768];
    for s in all_schemas() {
        let out = &mut out[..s.width()];
        for p in &positions {
            for c in Color::ALL {
                let before = allocations();
                s.extract_row(p, c, out);
                assert_eq!(
                    allocations(),
                    before,
                    "{} allocated on {}",
                    s.id(),
                    p.to_dfen()
                );
            }
        }
    }
}

/// `extract_row` overwrites every value of `out`, whatever it held.
#[test]
fn rows_overwrite_dirty_buffers() {
    let p = pos(KIWIPETE);
    for s in all_schemas() {
        for c in Color::ALL {
            let mut dirty = vec![7.5f32; s.width()];
            s.extract_row(&p, c, &mut dirty);
            assert_eq!(dirty, row(*s, &p, c), "{}", s.id());
        }
    }
}
