//! The batch evaluators equal their row-at-a-time scores for any batch size (across the
//! evaluator's 16,384-row blocks and the 4/8-row vector widths) and thread count, and every
//! instruction-set form of the material column kernel this CPU runs equals a slow
//! square-by-square count.
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::{pools, random_rolled, TestRng};
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::{material_kernels, BatchEvaluator, BotEvaluator, BotTerms, Material};
use dicechess::kernels::columns::{material_balance, popcount_and, to_side_to_move};
use dicechess::kernels::{Color, PieceType, Square};
use dicechess::probe::MATERIAL_VALUES;

/// Positions from random play over the shared starts (some with a king captured).
fn positions(n: usize) -> Vec<Position> {
    (0..n)
        .map(|i| random_rolled(i, 0x5eed_0000 + i as u64, i % 23))
        .collect()
}

/// Material of `p` from the side to move's view, square by square.
fn slow_material(p: &Position) -> f32 {
    let mut s = 0i32;
    for i in 0..64u8 {
        let sq = Square::new(i).expect("square");
        for t in PieceType::ALL {
            for c in Color::ALL {
                if p.piece_bb(c, t).contains(sq) {
                    let v = MATERIAL_VALUES.price(t);
                    s += if c == p.side_to_move() { v } else { -v };
                }
            }
        }
    }
    s as f32
}

#[test]
fn batch_evaluators_equal_row_scores_for_any_size_and_thread_count() {
    let base = positions(600);
    // Longer batches repeat the base rows; 16,387 crosses one evaluator block.
    let sizes = [0usize, 1, 3, 7, 8, 9, 15, 16, 17, 600, 16_387];
    let cautious = BotEvaluator {
        terms: BotTerms::Cautious,
    };
    let aggressive = BotEvaluator {
        terms: BotTerms::Aggressive,
    };
    type RowScore = fn(&Position) -> i32;
    let evaluators: [(&dyn BatchEvaluator, RowScore); 3] = [
        (&Material, |p| Material::score(p, p.side_to_move())),
        (&cautious, |p| {
            BotEvaluator {
                terms: BotTerms::Cautious,
            }
            .score(p, p.side_to_move())
        }),
        (&aggressive, |p| {
            BotEvaluator {
                terms: BotTerms::Aggressive,
            }
            .score(p, p.side_to_move())
        }),
    ];
    for n in sizes {
        let rows: Vec<Position> = (0..n).map(|i| base[i % base.len()]).collect();
        let batch = PositionBatch::from_positions(&rows);
        for (eval, score) in &evaluators {
            let want: Vec<f32> = rows.iter().map(|p| score(p) as f32).collect();
            for pool in pools() {
                let mut got = vec![f32::NAN; n];
                pool.install(|| eval.evaluate(&batch, &mut got))
                    .expect("evaluate");
                assert_eq!(
                    got,
                    want,
                    "{} over {n} rows on {} threads",
                    eval.id(),
                    pool.current_num_threads()
                );
            }
        }
    }
    // The row form itself against the slow count, clamped to the non-terminal ceiling.
    let limit = dicechess::eval::UPPER_SCORE_BOUND_CP as f32;
    for p in &base {
        assert_eq!(
            Material::score(p, p.side_to_move()) as f32,
            slow_material(p).clamp(-limit, limit)
        );
    }
}

/// Random columns (any bits, not only legal boards) of `n` rows: the kernel's arithmetic
/// must hold for every input, overlapping colours and empty rows included.
fn random_columns(n: usize, seed: u64) -> ([Vec<u64>; 6], [Vec<u64>; 2], Vec<u8>) {
    let mut rng = TestRng(seed);
    let by_type = std::array::from_fn(|_| (0..n).map(|_| rng.next()).collect());
    let by_color = std::array::from_fn(|_| (0..n).map(|_| rng.next()).collect());
    let side = (0..n).map(|_| (rng.next() & 1) as u8).collect();
    (by_type, by_color, side)
}

/// The material formula, one bit at a time.
fn slow_balance(by_type: &[Vec<u64>; 6], by_color: &[Vec<u64>; 2], side: &[u8], i: usize) -> f32 {
    let values = MATERIAL_VALUES.prices();
    let mut s = 0i32;
    for (t, col) in by_type.iter().enumerate() {
        for bit in 0..64 {
            let x = col[i] >> bit & 1;
            s += values[t] * (x & by_color[0][i] >> bit & 1) as i32;
            s -= values[t] * (x & by_color[1][i] >> bit & 1) as i32;
        }
    }
    (if side[i] == 0 { s } else { -s }) as f32
}

#[test]
fn every_material_kernel_this_cpu_runs_equals_the_slow_formula() {
    let kernels = material_kernels();
    assert_eq!(kernels.last().map(|k| k.0), Some("portable"));
    let values = MATERIAL_VALUES.prices();
    for (k, n) in [0usize, 1, 5, 8, 13, 16, 31, 64, 257]
        .into_iter()
        .enumerate()
    {
        let (by_type, by_color, side) = random_columns(n, 0xc01_u64 + k as u64);
        let want: Vec<f32> = (0..n)
            .map(|i| slow_balance(&by_type, &by_color, &side, i))
            .collect();
        let cols = std::array::from_fn(|t| by_type[t].as_slice());
        for (name, kernel) in kernels {
            let mut got = vec![f32::NAN; n];
            kernel(cols, &by_color[0], &by_color[1], &side, &values, &mut got);
            assert_eq!(got, want, "{name} kernel over {n} rows");
        }
        // The unfused integer kernels: balance, then the side-to-move sign.
        let mut ints = vec![i32::MIN; n];
        material_balance(cols, &by_color[0], &by_color[1], &values, &mut ints);
        to_side_to_move(&side, &mut ints);
        let ints: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
        assert_eq!(
            ints, want,
            "material_balance + to_side_to_move over {n} rows"
        );
        let mut counts = vec![u32::MAX; n];
        popcount_and(&by_type[0], &by_color[1], &mut counts);
        for (i, &c) in counts.iter().enumerate() {
            let slow = (0..64)
                .filter(|b| by_type[0][i] >> b & 1 == 1 && by_color[1][i] >> b & 1 == 1)
                .count();
            assert_eq!(c as usize, slow, "popcount_and row {i} of {n}");
        }
    }
}
