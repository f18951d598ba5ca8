//! The probe primitives (attacker types, piece values, safety, mobility, passed pawns, piece
//! diversity) on positions reached by random play from varied starts and on random
//! placements, checked against slow square-by-square references written here (a mailbox
//! board read from the DFEN, explicit file/rank walks, no bitboards) and, for mobility,
//! against the slow rules reference in `tests/reference`.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;
mod reference;

use dicechess::board::{Dice, Position};
use dicechess::kernels::{Bitboard, Color, PieceType, Square};
use dicechess::probe::{
    all_moves_count, attacked_squares, attacker_types, attacks_by_type, availability_probability,
    available_rolls, diversity_difference, hanging_material, hanging_squares, king_attacked,
    mobility, passed_pawns, piece_diversity, presence_mask, type_count, Mobility, PassedPawns,
    PieceValues, MATERIAL_VALUES,
};
use dicechess::rules::{generate, ROLLS};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Random positions (as in tests/properties.rs).

const STARTS: [&str; 8] = common::PLAY_STARTS;

/// The shared xorshift generator of the tests (proptest supplies the seed).
use common::TestRng as Rng;

fn roll(rng: &mut Rng) -> Dice {
    let r = ROLLS[rng.below(56)];
    Dice::from_faces(&r.faces).expect("faces 1..=6")
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        3 => (0..STARTS.len(), any::<u64>(), 0usize..12).prop_map(|(s, seed, t)| common::random_played(STARTS[s], seed, t, roll, false)),
        2 => any::<u64>().prop_map(common::random_wild_placement),
    ]
}

// ---------------------------------------------------------------------------------------
// The slow mailbox reference.

/// FEN letters by square (a1 = 0), '.' for empty.
type Board = [char; 64];

fn board_of(pos: &Position) -> Board {
    let dfen = pos.to_dfen();
    let mut board = ['.'; 64];
    let (mut file, mut rank) = (0usize, 7usize);
    for c in dfen.split(' ').next().expect("placement").chars() {
        match c {
            '/' => {
                file = 0;
                rank -= 1;
            }
            '1'..='8' => file += c as usize - '0' as usize,
            _ => {
                board[rank * 8 + file] = c;
                file += 1;
            }
        }
    }
    board
}

fn placement(board: &Board) -> String {
    common::placement(|sq| (board[sq] != '.').then_some(board[sq]))
}

fn color_of(c: char) -> Option<Color> {
    match c {
        'A'..='Z' => Some(Color::White),
        'a'..='z' => Some(Color::Black),
        _ => None,
    }
}

/// The type index (face − 1) of a FEN letter.
fn type_of(c: char) -> usize {
    "pnbrqk".find(c.to_ascii_lowercase()).expect("piece letter")
}

fn file_rank(sq: usize) -> (i32, i32) {
    ((sq % 8) as i32, (sq / 8) as i32)
}

/// Whether the line from `from` to `to` (a rook or bishop line) has no piece strictly
/// between them.
fn clear_between(board: &Board, from: usize, to: usize) -> bool {
    let ((f0, r0), (f1, r1)) = (file_rank(from), file_rank(to));
    let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
    let (mut f, mut r) = (f0 + df, r0 + dr);
    while (f, r) != (f1, r1) {
        if board[(r * 8 + f) as usize] != '.' {
            return false;
        }
        f += df;
        r += dr;
    }
    true
}

/// Whether the piece on `from` attacks `to` (geometry only).
fn slow_attacks(board: &Board, from: usize, to: usize) -> bool {
    let c = board[from];
    let ((f0, r0), (f1, r1)) = (file_rank(from), file_rank(to));
    let (df, dr) = (f1 - f0, r1 - r0);
    let (adf, adr) = (df.abs(), dr.abs());
    let diagonal = adf == adr && adf > 0 && clear_between(board, from, to);
    let straight = (adf == 0) != (adr == 0) && clear_between(board, from, to);
    match c.to_ascii_lowercase() {
        'p' => adf == 1 && dr == if c == 'P' { 1 } else { -1 },
        'n' => (adf, adr) == (1, 2) || (adf, adr) == (2, 1),
        'b' => diagonal,
        'r' => straight,
        'q' => diagonal || straight,
        'k' => adf.max(adr) == 1,
        _ => false,
    }
}

fn slow_attacker_types(board: &Board, target: usize, by: Color) -> u8 {
    let mut mask = 0;
    for from in 0..64 {
        if color_of(board[from]) == Some(by) && slow_attacks(board, from, target) {
            mask |= 1 << type_of(board[from]);
        }
    }
    mask
}

fn slow_attacked(board: &Board, target: usize, by: Color) -> bool {
    slow_attacker_types(board, target, by) != 0
}

fn slow_hanging(board: &Board, side: Color) -> u64 {
    let mut out = 0;
    for sq in 0..64 {
        let c = board[sq];
        if color_of(c) == Some(side)
            && type_of(c) != 5
            && slow_attacked(board, sq, side.opponent())
            && !slow_attacked(board, sq, side)
        {
            out |= 1 << sq;
        }
    }
    out
}

fn own_pawn(side: Color) -> char {
    if side == Color::White {
        'P'
    } else {
        'p'
    }
}

/// Passed pawns by a scan of every square ahead, and the largest advancement among them.
fn slow_passed(board: &Board, side: Color) -> (u64, u32) {
    let (own, enemy) = (own_pawn(side), own_pawn(side.opponent()));
    let (mut set, mut best) = (0u64, 0u32);
    for sq in 0..64 {
        if board[sq] != own {
            continue;
        }
        let (f, r) = file_rank(sq);
        let blocked = (0..64).any(|o| {
            let (fo, ro) = file_rank(o);
            let ahead = if side == Color::White { ro > r } else { ro < r };
            board[o] == enemy && ahead && (fo - f).abs() <= 1
        });
        if !blocked {
            set |= 1 << sq;
            let advance = if side == Color::White { r } else { 7 - r };
            best = best.max(advance as u32);
        }
    }
    (set, best)
}

fn slow_diversity(board: &Board, side: Color) -> u32 {
    let mut seen = [false; 6];
    for &c in board.iter() {
        if color_of(c) == Some(side) {
            seen[type_of(c)] = true;
        }
    }
    seen[..5].iter().filter(|&&s| s).count() as u32
}

/// The DFEN of `pos` with `side` to move and no dice, for `reference::pseudo_moves`.
fn dfen_as(pos: &Position, side: Color) -> String {
    let dfen = pos.to_dfen();
    let mut fields: Vec<&str> = dfen.split(' ').take(6).collect();
    let letter = if side == Color::White { "w" } else { "b" };
    fields[1] = letter;
    fields.join(" ")
}

fn slow_mobility(pos: &Position, side: Color) -> [u32; 6] {
    let dfen = dfen_as(pos, side);
    let mut out = [0u32; 6];
    for face in 1..=6u8 {
        out[face as usize - 1] = reference::pseudo_moves(&dfen, face).len() as u32;
    }
    out
}

fn sq(i: usize) -> Square {
    Square::new(i as u8).expect("square index below 64")
}

// ---------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn attacker_types_agree_with_a_scan(pos in any_position()) {
        let board = board_of(&pos);
        for target in 0..64 {
            for by in Color::ALL {
                let mask = attacker_types(&pos, sq(target), by);
                prop_assert_eq!(mask, slow_attacker_types(&board, target, by),
                    "target {} by {:?} in {}", sq(target), by, pos);
                let from_attackers = pos.attackers(sq(target), by).into_iter()
                    .fold(0u8, |m, s| m | pos.type_at(s).expect("a piece").mask_bit());
                prop_assert_eq!(mask, from_attackers);
                prop_assert_eq!(type_count(mask), mask.count_ones());
                prop_assert_eq!(
                    attacked_squares(&pos, by).contains(sq(target)),
                    mask != 0
                );
                // The attack sets by type hold the target exactly for its attacker types.
                let by_type = attacks_by_type(&pos, by);
                let from_sets = PieceType::ALL.iter()
                    .filter(|t| by_type[**t as usize].contains(sq(target)))
                    .fold(0u8, |m, t| m | t.mask_bit());
                prop_assert_eq!(from_sets, mask);
            }
        }
    }

    #[test]
    fn removing_bishops_and_rooks_removes_their_bits(pos in any_position()) {
        let mut board = board_of(&pos);
        let dfen = pos.to_dfen();
        for c in board.iter_mut() {
            if "BRbr".contains(*c) {
                *c = '.';
            }
        }
        let rest: Vec<&str> = dfen.split(' ').skip(1).collect();
        let stripped = Position::from_dfen(&format!("{} {}", placement(&board), rest.join(" ")))
            .expect("stripped DFEN is valid");
        let sliders = PieceType::Bishop.mask_bit() | PieceType::Rook.mask_bit();
        let leapers = PieceType::Pawn.mask_bit() | PieceType::Knight.mask_bit()
            | PieceType::King.mask_bit();
        for target in 0..64 {
            for by in Color::ALL {
                let before = attacker_types(&pos, sq(target), by);
                let after = attacker_types(&stripped, sq(target), by);
                prop_assert_eq!(after & sliders, 0);
                prop_assert_eq!(after & leapers, before & leapers);
                prop_assert_eq!(after, slow_attacker_types(&board, target, by));
            }
        }
    }

    #[test]
    fn minimum_agrees_with_a_fold(
        prices in prop::array::uniform6(prop_oneof![
            3 => -1000i32..1000,
            1 => any::<i32>(),
            1 => Just(i32::MIN),
            1 => Just(i32::MAX),
        ]),
        sentinel in any::<i32>(),
        high in 0u8..4,
    ) {
        let values = PieceValues::new(prices);
        prop_assert_eq!(values.prices(), prices);
        for mask in 0u8..64 {
            let fold = (0..6)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| prices[i])
                .fold(None, |m: Option<i32>, p| Some(m.map_or(p, |m| m.min(p))));
            // Bits above bit 5 are ignored.
            let noisy = mask | high << 6;
            prop_assert_eq!(values.minimum(noisy), fold, "mask {:#x} prices {:?}", mask, prices);
            prop_assert_eq!(values.minimum_or(noisy, sentinel), fold.unwrap_or(sentinel));
        }
        for (i, piece) in PieceType::ALL.into_iter().enumerate() {
            prop_assert_eq!(values.price(piece), prices[i]);
        }
    }

    #[test]
    fn minimum_on_and_sum_on_agree_with_a_scan(
        pos in any_position(),
        squares in any::<u64>(),
        prices in prop::array::uniform6(-1000i32..1000),
    ) {
        let board = board_of(&pos);
        let sparse = squares & squares.rotate_left(17);
        for set in [squares, sparse, 0, !0] {
            for values in [MATERIAL_VALUES, PieceValues::new(prices)] {
                let on: Vec<i32> = (0..64)
                    .filter(|&s| set >> s & 1 == 1 && board[s] != '.')
                    .map(|s| values.prices()[type_of(board[s])])
                    .collect();
                let min = on.iter().copied().min().unwrap_or(-7);
                prop_assert_eq!(values.minimum_on(&pos, Bitboard(set), -7), min);
                prop_assert_eq!(values.sum_on(&pos, Bitboard(set)), on.iter().sum::<i32>());
            }
        }
    }

    #[test]
    fn safety_agrees_with_a_scan(pos in any_position()) {
        let board = board_of(&pos);
        for side in Color::ALL {
            let hanging = hanging_squares(&pos, side);
            prop_assert_eq!(hanging.0, slow_hanging(&board, side), "{:?} in {}", side, pos);
            let price: i32 = hanging.into_iter()
                .map(|s| MATERIAL_VALUES.prices()[type_of(board[s.index()])])
                .sum();
            prop_assert_eq!(hanging_material(&pos, side), price);
            let king = if side == Color::White { 'K' } else { 'k' };
            let slow_king = (0..64)
                .any(|s| board[s] == king && slow_attacked(&board, s, side.opponent()));
            prop_assert_eq!(king_attacked(&pos, side), slow_king);
        }
    }

    #[test]
    fn mobility_agrees_with_the_reference(pos in any_position()) {
        let own = Mobility::new(&pos, Color::White);
        for side in Color::ALL {
            let counts = mobility(&pos, side);
            prop_assert_eq!(counts, slow_mobility(&pos, side), "{:?} in {}", side, pos);
            prop_assert_eq!(all_moves_count(&pos, side), counts.iter().sum::<u32>());
            let as_mover = Position::from_dfen(&dfen_as(&pos, side)).expect("valid DFEN");
            let list = generate(&as_mover, 0x3f, true);
            prop_assert_eq!(all_moves_count(&pos, side) as usize, list.count(&as_mover));
        }
        prop_assert_eq!(own.own, mobility(&pos, Color::White));
        prop_assert_eq!(own.opponent, mobility(&pos, Color::Black));
        let diff = all_moves_count(&pos, Color::White) as i32
            - all_moves_count(&pos, Color::Black) as i32;
        prop_assert_eq!(own.difference(), diff);
        let sum = |c: [u32; 6]| c.iter().sum::<u32>() as i32;
        prop_assert_eq!(sum(own.own) - sum(own.opponent), diff);
        // Neither the side to move nor the dice matter.
        let other = pos.side_to_move().opponent();
        let turned = Position::from_dfen(&format!("{} pnb", dfen_as(&pos, other)))
            .expect("valid DFEN");
        for side in Color::ALL {
            prop_assert_eq!(mobility(&turned, side), mobility(&pos, side));
            prop_assert_eq!(all_moves_count(&turned, side), all_moves_count(&pos, side));
        }
    }

    #[test]
    fn passed_pawns_and_diversity_agree_with_a_scan(pos in any_position()) {
        let board = board_of(&pos);
        for side in Color::ALL {
            let (set, best) = slow_passed(&board, side);
            prop_assert_eq!(passed_pawns(&pos, side).0, set, "{:?} in {}", side, pos);
            let summary = PassedPawns::new(&pos, side);
            prop_assert_eq!(summary.squares.0, set);
            prop_assert_eq!(summary.count, set.count_ones());
            prop_assert_eq!(summary.max_rank, best);
            prop_assert_eq!(piece_diversity(&pos, side), slow_diversity(&board, side));
            prop_assert_eq!(
                diversity_difference(&pos, side),
                slow_diversity(&board, side) as i32 - slow_diversity(&board, side.opponent()) as i32
            );
            let presence = (0..64)
                .filter(|&s| color_of(board[s]) == Some(side))
                .fold(0u8, |m, s| m | 1 << type_of(board[s]));
            prop_assert_eq!(presence_mask(&pos, side), presence);
        }
    }

    #[test]
    fn everything_is_invariant_under_colour_flip(pos in any_position()) {
        let flipped = pos.flip_colors();
        for side in Color::ALL {
            let other = side.opponent();
            for target in 0..64 {
                prop_assert_eq!(
                    attacker_types(&pos, sq(target), side),
                    attacker_types(&flipped, sq(target).flip_rank(), other)
                );
            }
            prop_assert_eq!(
                attacked_squares(&pos, side).flip_vertical(),
                attacked_squares(&flipped, other)
            );
            prop_assert_eq!(
                hanging_squares(&pos, side).flip_vertical(),
                hanging_squares(&flipped, other)
            );
            prop_assert_eq!(hanging_material(&pos, side), hanging_material(&flipped, other));
            prop_assert_eq!(king_attacked(&pos, side), king_attacked(&flipped, other));
            prop_assert_eq!(mobility(&pos, side), mobility(&flipped, other));
            prop_assert_eq!(all_moves_count(&pos, side), all_moves_count(&flipped, other));
            prop_assert_eq!(Mobility::new(&pos, side), Mobility::new(&flipped, other));
            prop_assert_eq!(
                passed_pawns(&pos, side).flip_vertical(),
                passed_pawns(&flipped, other)
            );
            let (a, b) = (PassedPawns::new(&pos, side), PassedPawns::new(&flipped, other));
            prop_assert_eq!((a.count, a.max_rank), (b.count, b.max_rank));
            prop_assert_eq!(piece_diversity(&pos, side), piece_diversity(&flipped, other));
            prop_assert_eq!(
                diversity_difference(&pos, side),
                diversity_difference(&flipped, other)
            );
            prop_assert_eq!(presence_mask(&pos, side), presence_mask(&flipped, other));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Exhaustive and known values.

#[test]
fn available_rolls_count_the_216_ordered_rolls() {
    for mask in 0u8..64 {
        let shows = |f: u32| mask >> (f - 1) & 1 == 1;
        let mut n = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    if shows(a) || shows(b) || shows(c) {
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(available_rolls(mask), n, "mask {mask:#x}");
        assert_eq!(available_rolls(mask | 0xc0), n, "high bits are ignored");
        let k = mask.count_ones() as f64;
        let p = 1.0 - ((6.0 - k) / 6.0f64).powi(3);
        assert!((availability_probability(mask) - p).abs() < 1e-12);
        assert_eq!(availability_probability(mask), n as f64 / 216.0);
    }
    let by_k: Vec<u32> = [0u8, 1, 3, 7, 15, 31, 63]
        .iter()
        .map(|&m| available_rolls(m))
        .collect();
    assert_eq!(by_k, [0, 91, 152, 189, 208, 215, 216]);
}

#[test]
fn material_values_are_the_engine_prices() {
    assert_eq!(MATERIAL_VALUES.prices(), [100, 300, 300, 500, 900, 10_000]);
    assert_eq!(MATERIAL_VALUES.price(PieceType::Queen), 900);
    assert_eq!(MATERIAL_VALUES.minimum(0), None);
    assert_eq!(MATERIAL_VALUES.minimum(0b11_0000), Some(900));
    assert_eq!(MATERIAL_VALUES.minimum_or(0b00_0110, -1), 300);
    // Not "lowest bit wins": the king (bit 5) is cheapest in this table.
    let odd = PieceValues::new([5, 4, 3, 2, 1, -9]);
    assert_eq!(odd.minimum(0b10_0001), Some(-9));
    let start = Position::startpos();
    assert_eq!(
        MATERIAL_VALUES.sum_on(&start, start.color(Color::White)),
        8 * 100 + 4 * 300 + 2 * 500 + 900 + 10_000
    );
    assert_eq!(
        MATERIAL_VALUES.minimum_on(&start, Bitboard::rank(0), 0),
        300
    );
    assert_eq!(
        MATERIAL_VALUES.minimum_on(&start, Bitboard::rank(3), i32::MAX),
        i32::MAX
    );
}

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).expect("valid DFEN")
}

#[test]
fn a_diagonal_queen_sets_only_the_queen_bit() {
    // Queen b2 and bishop a1 behind it on the long diagonal; target e5.
    let p = pos("7k/8/8/4p3/8/8/1Q6/B3K3 w - - 0 1");
    let e5 = Square::from_name(b"e5").expect("e5");
    assert_eq!(
        attacker_types(&p, e5, Color::White),
        PieceType::Queen.mask_bit()
    );
    assert_eq!(attacker_types(&p, e5, Color::Black), 0);
    // Independent of the side to move and the dice.
    let q = pos("7k/8/8/4p3/8/8/1Q6/B3K3 b - - 0 1 nbk");
    assert_eq!(
        attacker_types(&q, e5, Color::White),
        PieceType::Queen.mask_bit()
    );
}

#[test]
fn known_safety_values() {
    // The rook d2 is attacked by the queen and defended by the king; the queen is not defended.
    let p = pos("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(hanging_squares(&p, Color::White), Bitboard::EMPTY);
    assert_eq!(
        hanging_squares(&p, Color::Black),
        Bitboard::from_square(Square::from_name(b"d5").expect("d5"))
    );
    assert_eq!(hanging_material(&p, Color::Black), 900);
    assert!(!king_attacked(&p, Color::White));
    let q = pos("4k3/8/8/4q3/8/8/8/4K3 w - - 0 1");
    assert!(king_attacked(&q, Color::White));
    assert!(!king_attacked(&q, Color::Black));
    assert!(!king_attacked(
        &pos("8/8/8/4q3/8/8/8/8 w - - 0 1"),
        Color::White
    ));
}

#[test]
fn known_mobility_values() {
    let start = Position::startpos();
    assert_eq!(mobility(&start, Color::White), [16, 4, 0, 0, 0, 0]);
    assert_eq!(mobility(&start, Color::Black), [16, 4, 0, 0, 0, 0]);
    let castling = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    assert_eq!(mobility(&castling, Color::White), [16, 0, 0, 5, 0, 4]);
    assert_eq!(all_moves_count(&castling, Color::Black), 25);
    let promotion = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(mobility(&promotion, Color::White), [4, 0, 0, 0, 0, 5]);
    // A pawn capturing a king on the last rank is one move; the push promotes (4).
    let king_capture = pos("3k4/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(mobility(&king_capture, Color::White)[0], 5);
}

#[test]
fn known_passed_pawns_and_diversity() {
    let promotion = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let white = PassedPawns::new(&promotion, Color::White);
    assert_eq!((white.count, white.max_rank), (1, 6));
    assert_eq!(
        PassedPawns::new(&promotion, Color::Black),
        PassedPawns::default()
    );
    // White: b5 is stopped by a7 (ahead on an adjacent file), h4 is passed (g3 is behind
    // it). Black: a7 is stopped by b5, g3 is passed (h4 is behind it from Black's side).
    let p = pos("4k3/p7/8/1P6/7P/6p1/8/4K3 w - - 0 1");
    let h4 = Square::from_name(b"h4").expect("h4");
    assert_eq!(passed_pawns(&p, Color::White), Bitboard::from_square(h4));
    let white = PassedPawns::new(&p, Color::White);
    assert_eq!((white.count, white.max_rank), (1, 3));
    let black = PassedPawns::new(&p, Color::Black);
    assert_eq!((black.count, black.max_rank), (1, 5));
    let start = Position::startpos();
    assert_eq!(piece_diversity(&start, Color::White), 5);
    assert_eq!(diversity_difference(&promotion, Color::White), 1);
    assert_eq!(piece_diversity(&promotion, Color::Black), 0);
}
