//! `dicechess selfplay` and `dicechess merge`: determinism across thread counts, resume,
//! slices and merge, legal records, training rows and manifest digests.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use common::temp_dir;
use dicechess::board::{Dice, Position};
use dicechess::rules::{parse_uci_path, play_turn};
use dicechess::selfplay::GameRecord;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Run the binary; returns (status code, stderr).
fn dicechess(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .expect("run dicechess");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `selfplay` greedy vs random with `extra` arguments into `out`; must succeed.
fn selfplay(out: &Path, games: u32, extra: &[&str]) {
    let out_s = out.to_str().unwrap();
    let games = games.to_string();
    let mut args = vec![
        "selfplay",
        "--games",
        &games,
        "--out",
        out_s,
        "--white",
        "greedy",
        "--black",
        "random",
        "--seed",
        "11",
        "--shard-games",
        "2",
    ];
    args.extend_from_slice(extra);
    let (code, err) = dicechess(&args);
    assert_eq!(code, 0, "selfplay {args:?} failed: {err}");
}

/// Every file of a folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn assert_same_files(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert_eq!(
        fa.keys().collect::<Vec<_>>(),
        fb.keys().collect::<Vec<_>>(),
        "file names differ"
    );
    for (name, bytes) in &fa {
        assert!(bytes == &fb[name], "{name} differs between {a:?} and {b:?}");
    }
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut names: Vec<_> = files(dir)
        .into_keys()
        .filter(|n| n.ends_with(".games.jsonl"))
        .collect();
    names.sort();
    names
        .iter()
        .flat_map(|n| {
            std::fs::read_to_string(dir.join(n))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<GameRecord>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn same_seed_same_files_on_one_and_two_threads() {
    let d = temp_dir("threads");
    let (a, b) = (d.join("t1"), d.join("t2"));
    selfplay(&a, 7, &["--threads", "1"]);
    selfplay(&b, 7, &["--threads", "2"]);
    assert_same_files(&a, &b);
    assert_eq!(games(&a).len(), 7);
    assert_eq!(files(&a).len(), 4 * 2 + 1);
}

#[test]
fn interrupted_runs_resume_to_the_uninterrupted_files() {
    let d = temp_dir("resume");
    let full = d.join("full");
    selfplay(&full, 6, &[]);

    // A smaller run, then the full command: the finished shards are kept, the rest added.
    let grown = d.join("grown");
    selfplay(&grown, 3, &[]);
    selfplay(&grown, 6, &[]);
    assert_same_files(&full, &grown);

    // A lost shard file, a corrupted one and a leftover temporary file: redone or removed.
    let broken = d.join("broken");
    selfplay(&broken, 6, &[]);
    std::fs::remove_file(broken.join("shard-00001.rows.parquet")).unwrap();
    let g2 = broken.join("shard-00002.games.jsonl");
    let mut bytes = std::fs::read(&g2).unwrap();
    bytes.push(b'\n');
    std::fs::write(&g2, bytes).unwrap();
    // A file under the old predictable temporary name is someone else's: left alone.
    let foreign = broken.join("shard-00000.games.jsonl.tmp-12345");
    std::fs::write(&foreign, b"partial").unwrap();
    selfplay(&broken, 6, &[]);
    assert_eq!(std::fs::read(&foreign).unwrap(), b"partial");
    std::fs::remove_file(&foreign).unwrap();
    assert_same_files(&full, &broken);

    // A different run in the same folder is refused.
    let out = broken.to_str().unwrap();
    let (code, err) = dicechess(&[
        "selfplay",
        "--games",
        "6",
        "--out",
        out,
        "--seed",
        "12",
        "--shard-games",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different self-play run"), "{err}");
}

#[test]
fn slices_merge_into_the_full_run() {
    let d = temp_dir("slices");
    let full = d.join("full");
    selfplay(&full, 7, &[]);
    let (s0, s1, merged) = (d.join("s0"), d.join("s1"), d.join("merged"));
    selfplay(&s0, 7, &["--shard", "0/2"]);
    selfplay(&s1, 7, &["--shard", "1/2", "--threads", "1"]);
    assert_eq!(manifest(&s0)["shards"].as_array().unwrap().len(), 2);
    assert_eq!(manifest(&s1)["slice"], "1/2");
    let (code, err) = dicechess(&[
        "merge",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_same_files(&full, &merged);

    // Overlapping slices and other runs are refused.
    let (code, err) = dicechess(&[
        "merge",
        s0.to_str().unwrap(),
        full.to_str().unwrap(),
        "--out",
        d.join("m2").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is in both"), "{err}");
    let other = d.join("other");
    selfplay(&other, 5, &["--shard", "1/2"]);
    let (code, err) = dicechess(&[
        "merge",
        s0.to_str().unwrap(),
        other.to_str().unwrap(),
        "--out",
        d.join("m3").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different runs"), "{err}");
}

fn sha256(path: &Path) -> String {
    Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn records_replay_rows_agree_and_digests_match() {
    let d = temp_dir("records");
    let out = d.join("run");
    selfplay(&out, 8, &["--features", "kcp-13"]);

    // Manifest digests.
    let m = manifest(&out);
    let shards = m["shards"].as_array().unwrap();
    assert_eq!(shards.len(), 4);
    for s in shards {
        for (name, sha) in s["files"].as_object().unwrap() {
            assert_eq!(sha.as_str().unwrap(), sha256(&out.join(name)), "{name}");
        }
    }

    // Every turn replays legally; king captures name the right winner.
    let games = games(&out);
    assert_eq!(games.len(), 8);
    let mut king_captures = 0;
    for g in &games {
        let mut pos = Position::from_dfen(&g.initial_dfen).unwrap();
        for t in &g.turns {
            let rolled = pos.with_dice(Dice::from_faces(&t.dice).unwrap());
            assert_eq!(t.active_color, rolled.side_to_move().letter().to_string());
            let moves = parse_uci_path(&rolled, &t.moves.join(",")).unwrap();
            let next = play_turn(&rolled, &moves).unwrap();
            assert_eq!(
                next.to_dfen(),
                t.fen_after,
                "game {} turn {}",
                g.game_id,
                t.turn_number
            );
            pos = next;
        }
        let last = g.turns.last().unwrap();
        let board = last.fen_after.split(' ').next().unwrap();
        match g.termination {
            dicechess::selfplay::Termination::KingCapture => {
                king_captures += 1;
                let (won, lost_king) = if last.active_color == "w" {
                    (1, 'k')
                } else {
                    (-1, 'K')
                };
                assert_eq!(g.result, won, "game {}", g.game_id);
                assert!(!board.contains(lost_king), "game {}", g.game_id);
            }
            _ => assert_eq!(g.result, 0),
        }
    }
    assert!(king_captures > 0);

    // Training rows: one per turn, results from the mover's view, in the pipeline's v0
    // schema (columns, types, nullability, footer keys on the footer and the Arrow schema).
    use arrow_array::{Float32Array, Int32Array, StringArray};
    use arrow_schema::DataType;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let by_id: BTreeMap<&str, &GameRecord> =
        games.iter().map(|g| (g.game_id.as_str(), g)).collect();
    let mut rows = 0;
    let kcp13 = dicechess::eval::features::schema("kcp-13").unwrap();
    for k in 0..4 {
        let f = std::fs::File::open(out.join(format!("shard-{k:05}.rows.parquet"))).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
        let kv: BTreeMap<String, String> = builder
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .unwrap()
            .iter()
            .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
            .collect();
        let arrow = builder.schema().clone();
        let expected = [
            ("dicechess_training_schema", "v0".to_owned()),
            ("feature_schema", "kcp-13".to_owned()),
            ("engine_version", env!("CARGO_PKG_VERSION").to_owned()),
            ("ruleset", "standard-dicechess-v1".to_owned()),
            ("perspective", "side-to-move".to_owned()),
            ("columns", kcp13.columns().join(",")),
        ];
        for (key, want) in &expected {
            assert_eq!(kv.get(*key), Some(want), "footer key {key}");
            assert_eq!(
                arrow.metadata().get(key),
                Some(want),
                "key {key} on the embedded Arrow schema"
            );
        }
        let base = [
            ("game_id", DataType::Utf8),
            ("ply", DataType::Int32),
            ("fen", DataType::Utf8),
            ("dice", DataType::Utf8),
            ("side", DataType::Utf8),
            ("result", DataType::Float32),
        ];
        assert_eq!(arrow.fields().len(), 6 + 13);
        for (i, field) in arrow.fields().iter().enumerate() {
            let (name, dtype) = match base.get(i) {
                Some((n, t)) => (*n, t.clone()),
                None => (kcp13.columns()[i - 6], DataType::Float32),
            };
            assert_eq!(field.name(), name, "column {i}");
            assert_eq!(field.data_type(), &dtype, "column {name}");
            assert!(!field.is_nullable(), "column {name} is nullable");
        }
        for batch in builder.build().unwrap() {
            let batch = batch.unwrap();
            let col = |name: &str| batch.column_by_name(name).unwrap().clone();
            let (ids, ply, fen, dice, side, result) = (
                col("game_id"),
                col("ply"),
                col("fen"),
                col("dice"),
                col("side"),
                col("result"),
            );
            let ids = ids.as_any().downcast_ref::<StringArray>().unwrap();
            let ply = ply.as_any().downcast_ref::<Int32Array>().unwrap();
            let fen = fen.as_any().downcast_ref::<StringArray>().unwrap();
            let dice = dice.as_any().downcast_ref::<StringArray>().unwrap();
            let side = side.as_any().downcast_ref::<StringArray>().unwrap();
            let result = result.as_any().downcast_ref::<Float32Array>().unwrap();
            for r in 0..batch.num_rows() {
                rows += 1;
                let g = by_id[ids.value(r)];
                assert!(ply.value(r) >= 1, "ply counts from 1");
                let t = &g.turns[ply.value(r) as usize - 1];
                assert_eq!(side.value(r), t.active_color);
                assert_eq!(fen.value(r).split(' ').count(), 6, "{}", fen.value(r));
                assert_eq!(fen.value(r).split(' ').nth(1), Some(side.value(r)));
                assert_eq!(dice.value(r), dice.value(r).to_ascii_uppercase());
                let pos =
                    Position::from_dfen(&format!("{} {}", fen.value(r), dice.value(r))).unwrap();
                assert_eq!(pos.dice(), Dice::from_faces(&t.dice).unwrap());
                let white = f32::from(g.result + 1) / 2.0;
                let want = if side.value(r) == "w" {
                    white
                } else {
                    1.0 - white
                };
                assert_eq!(
                    result.value(r),
                    want,
                    "game {} ply {}",
                    g.game_id,
                    ply.value(r)
                );
            }
        }
    }
    assert_eq!(rows, games.iter().map(|g| g.turns.len()).sum::<usize>());
}
