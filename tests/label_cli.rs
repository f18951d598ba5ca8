//! `dicechess label` end to end: values equal the library's labeller (itself checked against
//! the brute-force definitions in tests/labels.rs), the pipeline's shard conventions, resume
//! after SIGKILL byte for byte, slices merged byte for byte, bad input named by its line.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use common::{dfen_list, temp_dir};
use dicechess::board::Position;
use dicechess::eval::{score_to_win_probability, DiceAware, Material};
use dicechess::rules::{parse_uci_path, play_turn};
use dicechess::search::{Labeller, Work};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

fn label(input: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .arg("label")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "label failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A Parquet file's rows (one batch) and its embedded schema's metadata.
fn read(path: &Path) -> (RecordBatch, HashMap<String, String>) {
    let f = std::fs::File::open(path).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
    let meta = b.schema().metadata().clone();
    let mut batches = b.with_batch_size(1 << 20).build().unwrap();
    let batch = batches
        .next()
        .unwrap_or_else(|| panic!("{} has no rows", path.display()))
        .unwrap();
    assert!(batches.next().is_none());
    (batch, meta.into_iter().collect())
}

fn floats(b: &RecordBatch, name: &str) -> Vec<f32> {
    b.column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
        .as_primitive::<Float32Type>()
        .values()
        .to_vec()
}

fn strings(b: &RecordBatch, name: &str) -> Vec<String> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..c.len()).map(|i| c.value(i).to_owned()).collect()
}

/// A DFEN file of the sample's `n` first positions of each class.
fn sample(dir: &Path, n: usize) -> (std::path::PathBuf, Vec<String>) {
    let mut lines = Vec::new();
    for class in ["opening", "middlegame", "endgame"] {
        lines.extend(dfen_list(&format!("sample_{class}")).into_iter().take(n));
    }
    let path = dir.join("in.dfen");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    (path, lines)
}

#[test]
fn a1_and_p1_rows_are_the_labellers_values_with_the_win_probability_beside() {
    let dir = temp_dir("label-a1");
    let (input, lines) = sample(&dir, 5);
    let labeller = Labeller::new(Arc::new(DiceAware::default()));
    for kind in ["a1", "p1"] {
        let out = dir.join(format!("{kind}.parquet"));
        ok(&label(&input, &out, &["--kind", kind]));
        let (b, meta) = read(&out);
        assert_eq!(b.num_rows(), lines.len());
        let names: Vec<String> = b
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(names, ["dfen", "fen_hash", kind, &format!("{kind}_win")]);
        assert_eq!(meta["label_kind"], kind);
        assert_eq!(meta["label_evaluator"], "dice-aware");
        assert_eq!(meta["engine_version"], dicechess::ENGINE_VERSION);
        assert_eq!(
            meta["label_perspective"],
            if kind == "a1" {
                "previous-mover"
            } else {
                "side-to-move"
            }
        );
        let (v, w) = (floats(&b, kind), floats(&b, &format!("{kind}_win")));
        for (i, line) in lines.iter().enumerate() {
            let pos = Position::from_dfen(line).unwrap();
            let work = Work::new(1_000_000);
            let want = if kind == "a1" {
                labeller.a1(&pos, &work)
            } else {
                labeller.p1(&pos, &work)
            }
            .unwrap();
            assert_eq!(v[i], want as f32, "{kind} of {line}");
            assert_eq!(w[i], score_to_win_probability(want) as f32);
        }
    }
}

#[test]
fn candidates_replay_to_their_afterstates_and_sum_their_rolls() {
    let dir = temp_dir("label-candidates");
    let (input, lines) = sample(&dir, 2);
    let out = dir.join("c.parquet");
    ok(&label(
        &input,
        &out,
        &["--kind", "candidates", "--evaluator", "material"],
    ));
    let (b, meta) = read(&out);
    assert_eq!(meta["label_evaluator"], "material");
    assert_eq!(meta["label_top"], "all");
    let (dfens, moves, afters) = (
        strings(&b, "dfen"),
        strings(&b, "moves"),
        strings(&b, "after"),
    );
    let a1 = floats(&b, "a1");
    let rolls: Vec<Vec<f32>> = dicechess::rules::ROLLS
        .iter()
        .map(|r| floats(&b, &format!("roll_{}", r.dice().letters(true))))
        .collect();
    let labeller = Labeller::new(Arc::new(Material));
    let mut per_root = 0;
    for (root_line, root_dfen) in lines.iter().zip({
        let mut seen = Vec::new();
        for d in &dfens {
            if seen.last() != Some(d) {
                seen.push(d.clone());
            }
        }
        seen
    }) {
        let root = Position::from_dfen(root_line).unwrap();
        assert_eq!(root.to_dfen(), root_dfen);
        let want = labeller
            .candidates(&root, None, &Work::new(u64::MAX / 2))
            .unwrap();
        for c in &want {
            let i = per_root;
            per_root += 1;
            assert_eq!(dfens[i], root_dfen);
            // The recorded turn is legal (the rules' validator) and ends in the afterstate.
            let end = play_turn(&root, &parse_uci_path(&root, &moves[i]).unwrap()).unwrap();
            assert_eq!(end.to_dfen(), afters[i]);
            assert_eq!(end.key(), c.after.key());
            assert_eq!(a1[i], c.a1 as f32);
            let sum: f64 = dicechess::rules::ROLLS
                .iter()
                .enumerate()
                .map(|(r, w)| w.weight as f64 * rolls[r][i] as f64)
                .sum::<f64>()
                / 216.0;
            assert!((sum - c.a1).abs() < 0.05, "{sum} vs {}", c.a1);
        }
    }
    assert_eq!(per_root, b.num_rows());
}

#[test]
fn a_v0_shard_is_labelled_into_a_v0_shard_with_its_base_columns() {
    let dir = temp_dir("label-v0");
    let sp = dir.join("sp");
    let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args([
            "selfplay", "--games", "3", "--white", "greedy", "--black", "random", "--seed", "5",
        ])
        .arg("--out")
        .arg(&sp)
        .output()
        .unwrap();
    ok(&o);
    let shard = sp.join("shard-00000.rows.parquet");
    let out = dir.join("p1.parquet");
    ok(&label(
        &shard,
        &out,
        &["--kind", "p1", "--evaluator", "material"],
    ));
    let (input, _) = read(&shard);
    let (b, meta) = read(&out);
    assert_eq!(meta["dicechess_training_schema"], "v0");
    assert_eq!(meta["ruleset"], "standard-dicechess-v1");
    let names: Vec<String> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(
        names,
        ["game_id", "ply", "fen", "dice", "side", "result", "p1", "p1_win"]
    );
    for col in ["game_id", "fen", "dice", "side"] {
        assert_eq!(strings(&b, col), strings(&input, col));
    }
    assert_eq!(
        b.column_by_name("ply").unwrap().as_primitive::<Int32Type>(),
        input
            .column_by_name("ply")
            .unwrap()
            .as_primitive::<Int32Type>()
    );
    assert_eq!(floats(&b, "result"), floats(&input, "result"));
    // p1 of each row: its position before the roll, from its side to move.
    let labeller = Labeller::new(Arc::new(Material));
    let p1 = floats(&b, "p1");
    for (i, fen) in strings(&b, "fen").iter().enumerate() {
        let pos = Position::from_dfen(fen).unwrap();
        let want = labeller.p1(&pos, &Work::new(1_000_000)).unwrap();
        assert_eq!(p1[i], want as f32);
    }
}

#[test]
fn a_run_killed_mid_way_resumes_to_the_same_bytes() {
    let dir = temp_dir("label-kill");
    let (input, _) = sample(&dir, 8);
    let whole = dir.join("whole.parquet");
    let args = [
        "--kind",
        "candidates",
        "--chunk-rows",
        "1",
        "--threads",
        "1",
    ];
    ok(&label(&input, &whole, &args));
    let killed = dir.join("killed.parquet");
    let parts = dir.join("killed.parquet.parts");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .arg("label")
        .arg(&input)
        .arg("--out")
        .arg(&killed)
        .args(args)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill (SIGKILL) once a few parts are finished, before the end.
    let started = std::time::Instant::now();
    loop {
        let done = std::fs::read_dir(&parts)
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".sha256"))
                })
                .count()
            })
            .unwrap_or(0);
        if done >= 3 || started.elapsed().as_secs() > 60 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.exists(), "the run was killed before its merge");
    assert!(parts.is_dir());
    let o = label(&input, &killed, &args);
    ok(&o);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("resuming"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert!(!parts.exists());
}

#[test]
fn slices_computed_apart_merge_to_the_same_bytes() {
    let dir = temp_dir("label-slices");
    let (input, _) = sample(&dir, 4);
    let whole = dir.join("whole.parquet");
    let args = ["--kind", "a1", "--chunk-rows", "3"];
    ok(&label(&input, &whole, &args));
    let sliced = dir.join("sliced.parquet");
    for s in ["1/3", "0/3", "2/3"] {
        let o = label(&input, &sliced, &[&args[..], &["--slice", s]].concat());
        ok(&o);
        assert!(!sliced.exists(), "a slice does not merge");
    }
    // Every chunk is finished: the plain command only merges.
    let o = label(&input, &sliced, &args);
    ok(&o);
    assert_eq!(
        std::fs::read(&sliced).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

#[test]
fn bad_lines_and_positions_over_budget_are_named() {
    let dir = temp_dir("label-bad");
    let input = dir.join("bad.dfen");
    std::fs::write(
        &input,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n\
         4k3/8/8/8/8/8/8/4K3 x - - 0 1\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n",
    )
    .unwrap();
    let out = dir.join("o.parquet");
    let o = label(&input, &out, &["--kind", "p1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2") && err.contains("side"), "{err}");
    assert!(!out.exists());
    // Skipped: the two good lines remain, unless one is over its work budget.
    let o = label(
        &input,
        &out,
        &["--kind", "p1", "--skip-bad", "--max-work", "5000"],
    );
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2"), "{err}");
    assert!(
        err.contains("line 3") && err.contains("work units"),
        "{err}"
    );
    let (b, _) = read(&out);
    assert_eq!(strings(&b, "dfen"), ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    // Arguments.
    for (args, what) in [
        (vec!["--kind", "q7"], "--kind"),
        (vec!["--kind", "a1", "--top", "3"], "--top"),
        (vec!["--kind", "a1", "--slice", "3/2"], "--slice"),
    ] {
        let o = label(&input, &dir.join("x.parquet"), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(what));
    }
}

#[test]
fn a_broken_model_package_is_refused_before_any_work() {
    let dir = temp_dir("label-model");
    let (input, _) = sample(&dir, 1);
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("manifest.json"),
        "{\"manifestVersion\": \"9.9.9\"}",
    )
    .unwrap();
    let out = dir.join("o.parquet");
    let o = label(
        &input,
        &out,
        &["--kind", "a1", "--model", pkg.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--model"));
    assert!(!out.exists() && !dir.join("o.parquet.parts").exists());
}

#[test]
fn npy_output_holds_the_value_columns() {
    let dir = temp_dir("label-npy");
    let (input, lines) = sample(&dir, 2);
    let out = dir.join("a1.npy");
    ok(&label(
        &input,
        &out,
        &["--kind", "a1", "--evaluator", "material"],
    ));
    let bytes = std::fs::read(&out).unwrap();
    let header = String::from_utf8_lossy(&bytes[..128]);
    assert!(
        header.contains(&format!("'shape': ({}, 2)", lines.len())),
        "{header}"
    );
}
