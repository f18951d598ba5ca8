//! Endgame tables against the rules and the search: every table up to three pieces and one
//! folded 4-piece table (KNvKN) built once here (about three minutes on two cores,
//! release), then checked by properties that do not read the solver's graph — one step of
//! play with the per-roll turn generator, the search's own values, the board's symmetries
//! and hand-computed cases.

#![allow(clippy::unwrap_used)]

mod common;

use dicechess::board::{Dice, Position};
use dicechess::eval::{score_to_win_probability, Material as MaterialEval, TablebaseLeaves};
use dicechess::rules::{TurnGenerator, ROLLS};
use dicechess::search::{Expectimax, SearchConfig};
use dicechess::tablebase::{
    backup, build_dir, locate, table_path, with_dependencies, BuildStep, Material, SolveConfig,
    Table, Tablebases, QUANT_MAX,
};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::{Arc, OnceLock};

/// One quantisation step of a stored value.
const STEP: f64 = 1.0 / QUANT_MAX;

struct Built {
    dir: tempfile::TempDir,
    tables: Tablebases,
}

/// The tables built here: every one up to three pieces, and KNvKN, the 4-piece table with
/// the smallest graph (771 M successors, 3.9 GB at the peak).
fn wanted() -> Vec<Material> {
    [&Material::UP_TO_THREE[..], &[Material::Knkn]].concat()
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (tables, steps) = build_dir(
            dir.path(),
            &wanted(),
            &SolveConfig::default(),
            false,
            &mut |_| {},
            &|_| {},
        )
        .unwrap();
        assert_eq!(steps.len(), 7);
        for step in &steps {
            match step {
                BuildStep::Solved(r) => assert!(r.converged, "{r:?}"),
                BuildStep::Kept(m) => panic!("{} was not in the empty folder", m.name()),
            }
        }
        Built { dir, tables }
    })
}

fn pos(dfen: &str) -> Position {
    Position::from_dfen(dfen).unwrap()
}

/// A random valid entry of `m` as a position, with its colours flipped half the time.
fn sample(m: Material, rng: &mut Xoshiro256PlusPlus) -> Position {
    loop {
        let i = (rng.next_u64() % m.entries() as u64) as usize;
        if let Some(p) = m.position(i) {
            return if rng.next_u64() & 1 == 0 {
                p
            } else {
                p.flip_colors()
            };
        }
    }
}

#[test]
fn every_table_is_one_step_of_play_from_itself() {
    let b = built();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut gen = TurnGenerator::new();
    for m in wanted() {
        for _ in 0..400 {
            let p = sample(m, &mut rng);
            let check = backup(&b.tables, &p, &mut gen).unwrap();
            assert!(
                check.error() <= 2.0 * STEP,
                "{} {}: table {} backup {}",
                m.name(),
                p.to_dfen(),
                check.table,
                check.backup
            );
        }
    }
}

/// What the solver needs from `Material::reads`: every legal turn from every table (the
/// pawn tables included, which are too big to build here) ends in the table itself or in one
/// the build solves before it. Checked with the per-roll generator on sampled entries, a
/// pawn on its seventh rank (promotions mid-turn) among them.
#[test]
fn every_turn_ends_in_its_table_or_in_one_solved_before_it() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let mut gen = TurnGenerator::new();
    let mut ends = Vec::new();
    let mut promotions = 0;
    for m in Material::ALL {
        let before = with_dependencies(&[m]);
        for _ in 0..150 {
            let p = sample(m, &mut rng);
            for r in &ROLLS {
                ends.clear();
                gen.end_states_into(&p.with_dice(r.dice()), &mut ends);
                for end in &ends {
                    let at = locate(end).unwrap_or_else(|| {
                        panic!(
                            "{} {}: {} is in no table",
                            m.name(),
                            p.to_dfen(),
                            end.to_dfen()
                        )
                    });
                    assert!(
                        before.contains(&at.material),
                        "{}: {} ends in {}, which it does not read",
                        m.name(),
                        p.to_dfen(),
                        at.material.name()
                    );
                    promotions += usize::from(
                        end.occupied().count() == p.occupied().count()
                            && at.material != locate(&p).unwrap().material,
                    );
                }
            }
        }
    }
    assert!(promotions > 0, "the samples promoted no pawn");
}

#[test]
fn promotions_captures_and_double_pushes_back_up_too() {
    let b = built();
    let mut gen = TurnGenerator::new();
    for dfen in [
        // A pawn on the seventh: a pawn die promotes, and the new piece may spend the rest.
        "8/4P3/8/8/8/2k5/8/4K3 w - - 0 1",
        "8/8/8/8/8/2K5/4p3/6k1 b - - 0 1",
        // A pawn on its second rank: double pushes leave e.p. targets nobody can use.
        "6k1/8/8/8/8/8/3P4/K7 w - - 0 1",
        // The lone king next to the queen: a king die takes it, leaving the bare kings.
        "8/8/8/3kQ3/8/8/8/K7 b - - 0 1",
        // Kings side by side: a king die on either side ends the game.
        "8/8/8/8/3k4/3K4/8/8 w - - 0 1",
    ] {
        let check = backup(&b.tables, &pos(dfen), &mut gen).unwrap();
        assert!(check.error() <= 2.0 * STEP, "{dfen}: {check:?}");
        assert!(check.capture >= 0.0 && check.capture <= 1.0);
    }
}

#[test]
fn kings_side_by_side_have_the_hand_computed_value() {
    // d4 against d5 is its own colour flip, so both sides to move share one value V. A
    // king die (91 of 216 rolls) takes the king; any other roll is a pass that leaves the
    // same squares to the opponent: V = 91/216 + 125/216 · (½ + γ(1 − V − ½)), so
    // V = (91 + 62.5(1 + γ)) / (216 + 125γ).
    let b = built();
    let g = SolveConfig::default().discount;
    let exact = (91.0 + 62.5 * (1.0 + g)) / (216.0 + 125.0 * g);
    for side in ["w", "b"] {
        let v = b
            .tables
            .probe(&pos(&format!("8/8/8/3k4/3K4/8/8/8 {side} - - 0 1")))
            .unwrap();
        assert!((v - exact).abs() <= STEP, "{side}: {v} vs {exact}");
    }
}

#[test]
fn values_have_the_board_symmetries_and_hand_checked_bounds() {
    let b = built();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for m in wanted() {
        for _ in 0..2000 {
            let p = sample(m, &mut rng);
            let v = b.tables.probe(&p).unwrap();
            // The colour flip reads the same entry for a 3-piece ending; for the bare kings
            // and KNvKN it is another entry, solved on its own.
            let f = b.tables.probe(&p.flip_colors()).unwrap();
            assert!(
                (v - f).abs() <= 2.0 * STEP,
                "{}: {v} vs flip {f}",
                p.to_dfen()
            );
            // No castling rights: the file mirror is a symmetry a 3-piece index does not fold,
            // so the two entries were solved apart and must agree (a 4-piece index folds it).
            let mirror = b.tables.probe(&p.mirror_files()).unwrap();
            assert!(
                (v - mirror).abs() <= 2.0 * STEP,
                "{}: {v} vs mirror {mirror}",
                p.to_dfen()
            );
            assert!((0.0..=1.0).contains(&v));
        }
    }
    // The queen attacks the king: any queen die (91/216) wins at once.
    let q = b
        .tables
        .probe(&pos("4k3/8/8/8/4Q3/8/8/K7 w - - 0 1"))
        .unwrap();
    assert!(q > 91.0 / 216.0 && q < 1.0, "{q}");
    // The same with the lone king to move, unable to reach the queen: it can only run.
    let runs = b
        .tables
        .probe(&pos("4k3/8/8/8/4Q3/8/8/K7 b - - 0 1"))
        .unwrap();
    assert!(runs < 125.0 / 216.0, "{runs}");
    // More material converts better from the same squares.
    let by_piece: Vec<f64> = ["Q", "R", "P"]
        .iter()
        .map(|x| {
            b.tables
                .probe(&pos(&format!("4k3/8/8/8/8/8/4{x}3/4K3 w - - 0 1")))
                .unwrap()
        })
        .collect();
    assert!(
        by_piece[0] > by_piece[1] && by_piece[1] > by_piece[2],
        "{by_piece:?}"
    );
    // KNvKN: White's knight attacks the king; any knight die (91/216) wins at once.
    let attack = pos("4k3/8/3N4/8/8/8/6n1/K7 w - - 0 1");
    let w = b.tables.probe(&attack).unwrap();
    assert!(w > 91.0 / 216.0 && w < 1.0, "{w}");
    // A pawnless position turned a quarter turn is the same game: the folded index reads
    // one entry for both, and the 3-piece tables, which do not fold it, solved both apart.
    for m in [Material::Kqk, Material::Knk, Material::Knkn] {
        for _ in 0..300 {
            let p = sample(m, &mut rng);
            let v = b.tables.probe(&p).unwrap();
            let r = b.tables.probe(&quarter_turn(&p)).unwrap();
            assert!((v - r).abs() <= 2.0 * STEP, "{}: {v} vs {r}", p.to_dfen());
        }
    }
}

/// `p` turned a quarter turn clockwise (square (file, rank) to (rank, 7 − file)), written
/// out as a FEN from its pieces: a path independent of the tables' index.
fn quarter_turn(p: &Position) -> Position {
    let mut board = [None; 64];
    for sq in p.occupied() {
        let (f, r) = (sq.file() as usize, sq.rank() as usize);
        let letter = p.type_at(sq).unwrap().letter();
        let white = p.color(dicechess::kernels::Color::White).contains(sq);
        board[(7 - f) * 8 + r] = Some(if white {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    let placement = common::placement(|sq| board[sq]);
    let side = if p.side_to_move() == dicechess::kernels::Color::White {
        "w"
    } else {
        "b"
    };
    pos(&format!("{placement} {side} - - 0 1"))
}

#[test]
fn the_search_over_table_leaves_agrees_with_the_tables() {
    // Depth 2 over table leaves (no pruning, every candidate searched): a candidate after
    // which the opponent cannot capture our king is worth p_s = Σ_rolls w · min V(leaf) as a
    // win probability, and the table's value of its after-state t, one step of the
    // Bellman equation, is 1 − V(t) = ½(1 − γ) + γ · p_s (tests/tablebase.rs, docs/tablebases.md).
    let b = built();
    let g = SolveConfig::default().discount;
    let tables = Arc::new(b.tables.clone());
    let leaf = Arc::new(TablebaseLeaves::new(Arc::new(MaterialEval), tables.clone()));
    let config = SearchConfig {
        depth: 2,
        candidate_limit: 10_000,
        pruning: false,
        parallel: false,
        ..SearchConfig::default()
    };
    let search = Expectimax::new(config, leaf).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut checked = 0;
    for m in [
        Material::Kqk,
        Material::Krk,
        Material::Knk,
        Material::Kpk,
        Material::Knkn,
    ] {
        for _ in 0..12 {
            let start = sample(m, &mut rng);
            let roll = ROLLS[(rng.next_u64() % 56) as usize];
            let rolled = start.with_dice(roll.dice());
            let result = search.search(&rolled, None, &mut rng).unwrap();
            let Some(chosen) = result.path else { continue };
            if chosen.captures_king() {
                continue;
            }
            let mut best_table = f64::NEG_INFINITY;
            for c in &result.candidates {
                let after = c.path.end_position(&rolled);
                let ours = 1.0 - tables.probe(&after).unwrap();
                // A candidate that lets the opponent's roll take our king scores the search's
                // loss value on those rolls (far below every probability), so the search
                // and the tables rank such candidates apart; compare the others.
                let (Some(value), false) = (c.value, c.loss_tainted) else {
                    continue;
                };
                best_table = best_table.max(ours);
                let p_s = score_to_win_probability(value);
                let want = 0.5 * (1.0 - g) + g * p_s;
                assert!(
                    (ours - want).abs() <= 3.0 * STEP,
                    "{} {}: table {ours} search {want}",
                    rolled.to_dfen(),
                    c.path
                );
                checked += 1;
            }
            // With a safe candidate, the turn the search plays is one of the tables' best
            // safe ones.
            let played = 1.0 - tables.probe(&chosen.end_position(&rolled)).unwrap();
            if best_table.is_finite() {
                assert!(played >= best_table - 3.0 * STEP, "{}", rolled.to_dfen());
            }
        }
    }
    assert!(checked >= 30, "{checked} candidates compared");
}

#[test]
fn a_second_build_keeps_every_table_and_a_damaged_file_is_named() {
    let b = built();
    let (again, steps) = build_dir(
        b.dir.path(),
        &[Material::Kpk],
        &SolveConfig::default(),
        false,
        &mut |m| panic!("{} was solved again", m.name()),
        &|_| {},
    )
    .unwrap();
    assert!(steps.iter().all(|s| matches!(s, BuildStep::Kept(_))));
    assert_eq!(again.materials(), Material::UP_TO_THREE.to_vec());
    // Another discount is refused, not mixed in.
    let other = SolveConfig {
        discount: 0.9,
        ..SolveConfig::default()
    };
    let e = build_dir(
        b.dir.path(),
        &[Material::Kk],
        &other,
        false,
        &mut |_| {},
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("discount 0.99") && e.contains("--force"), "{e}");
    // A flipped bit in a copy: the load names the file and the checksum.
    let copy = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(table_path(b.dir.path(), Material::Knk)).unwrap();
    bytes[1000] ^= 4;
    std::fs::write(table_path(copy.path(), Material::Knk), &bytes).unwrap();
    let e = Tablebases::load_dir(copy.path()).unwrap_err().to_string();
    assert!(e.contains("KNvK.dctb") && e.contains("checksum"), "{e}");
    // Each table reads back as written.
    for m in wanted() {
        let t = Table::read(&table_path(b.dir.path(), m)).unwrap();
        assert_eq!(Some(&t), b.tables.table(m));
    }
}

#[test]
fn dice_and_clocks_do_not_change_a_probe() {
    let b = built();
    let plain = pos("8/8/8/4k3/8/8/8/Q3K3 w - - 0 1");
    let v = b.tables.probe(&plain).unwrap();
    let rolled = plain.with_dice(Dice::from_faces(&[5, 5, 6]).unwrap());
    assert_eq!(b.tables.probe(&rolled), Some(v));
    assert_eq!(
        b.tables.probe(&pos("8/8/8/4k3/8/8/8/Q3K3 w - - 37 80")),
        Some(v)
    );
}

/// The attacker's table value a table suite writes in a position's description
/// ("… attacker value V …").
fn stated_value(description: &str) -> f64 {
    description
        .split(' ')
        .skip_while(|t| *t != "value")
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap()
}

#[test]
fn the_table_endings_suite_states_its_table_values() {
    // suites/table-endings-v1.json: 60 table positions, 12 per 3-piece ending, each with
    // the attacker's table value (written in its description, "attacker value V") between 0.35 and 0.85.
    let b = built();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/table-endings-v1.json");
    let dicechess::selfplay::Suite::Endgames(suite) =
        dicechess::selfplay::load_suite(&path).unwrap()
    else {
        panic!("an endgame suite");
    };
    assert_eq!(suite.positions.len(), 60);
    let mut per_ending = std::collections::BTreeMap::new();
    for p in &suite.positions {
        let at = dicechess::tablebase::locate(&p.position).unwrap();
        *per_ending.entry(at.material.name()).or_insert(0) += 1;
        let v = b.tables.probe(&p.position).unwrap();
        let attacker = if p.position.side_to_move() == p.attacker_color {
            v
        } else {
            1.0 - v
        };
        let stated = stated_value(&p.description);
        assert!(
            (attacker - stated).abs() <= 5e-4,
            "{}: {attacker} vs {stated}",
            p.id
        );
        assert!((0.35..=0.85).contains(&attacker), "{}: {attacker}", p.id);
    }
    assert!(per_ending.values().all(|&n| n == 12), "{per_ending:?}");
    assert_eq!(per_ending.len(), 5);
}

#[test]
fn the_pawn_endings_suite_holds_twelve_positions_of_each_pawn_table() {
    // suites/pawn-endings-v1.json: 36 positions of KQvKP, KRvKP and KNvKP (their tables are
    // too big to build here: the values written in the descriptions were read from tables
    // built and verified as docs/tablebases.md says). Each position is in the table its
    // category names, the piece side attacks, and the stated value is in [0.35, 0.85].
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/pawn-endings-v1.json");
    let dicechess::selfplay::Suite::Endgames(suite) =
        dicechess::selfplay::load_suite(&path).unwrap()
    else {
        panic!("an endgame suite");
    };
    let mut per_ending = std::collections::BTreeMap::new();
    for p in &suite.positions {
        let at = locate(&p.position).unwrap();
        let want = match p.category.as_str() {
            "kq-vs-kp" => Material::Kqkp,
            "kr-vs-kp" => Material::Krkp,
            "kn-vs-kp" => Material::Knkp,
            other => panic!("{}: category {other}", p.id),
        };
        assert_eq!(at.material, want, "{}", p.id);
        // The table's White is the piece side: flipped exactly when Black attacks.
        assert_eq!(
            at.flipped,
            p.attacker_color == dicechess::kernels::Color::Black,
            "{}",
            p.id
        );
        let stated = stated_value(&p.description);
        assert!((0.35..=0.85).contains(&stated), "{}: {stated}", p.id);
        *per_ending.entry(at.material.name()).or_insert(0) += 1;
    }
    assert_eq!(per_ending.len(), 3);
    assert!(per_ending.values().all(|&n| n == 12), "{per_ending:?}");
}

/// KPvKP is the one table with e.p. captures, so its index carries the fresh double step
/// (the module documentation of `tablebase::material`). A double step past the other pawn
/// ends in an entry with the bit set; from that entry the other side captures en passant,
/// with a king die beside the pawn die too; without the target it cannot.
#[test]
fn kpkp_double_steps_lead_to_en_passant_captures() {
    use dicechess_kernels::{Color, PieceType};
    let mut gen = TurnGenerator::new();
    let mut ends = Vec::new();
    let half = Material::Kpkp.entries() / 2;
    // White's double step d2–d4 beside Black's pawn on e4.
    gen.end_states_into(&pos("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1 P"), &mut ends);
    let step = ends
        .iter()
        .find(|e| e.ep_targets().count() == 1)
        .expect("the double step is a turn");
    let at = locate(step).unwrap();
    assert_eq!(at.material, Material::Kpkp);
    assert!(at.index >= half, "{}: bit clear", step.to_dfen());
    // Black takes it (e4xd3: nothing else takes the pawn on d4).
    for (dfen, takes) in [
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1 p", true),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1 pk", true),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1 p", false),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1 pk", false),
    ] {
        let p = pos(dfen);
        let start = locate(&p).unwrap();
        assert_eq!(start.material, Material::Kpkp);
        assert_eq!(start.index >= half, takes, "{dfen}");
        ends.clear();
        gen.end_states_into(&p, &mut ends);
        let captured = ends.iter().filter(|e| {
            e.piece_bb(Color::White, PieceType::Pawn).count() == 0
                && e.piece_bb(Color::Black, PieceType::Pawn).count() == 1
        });
        let mut n = 0;
        for e in captured {
            assert_eq!(
                locate(e).unwrap().material,
                Material::Kpk,
                "{}",
                e.to_dfen()
            );
            n += 1;
        }
        assert_eq!(n > 0, takes, "{dfen}");
    }
}
