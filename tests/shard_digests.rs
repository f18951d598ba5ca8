//! Self-play output pinned byte for byte: small runs whose files must keep the SHA-256 they
//! had when the digests below were recorded (engine 0.1.0, before the shard rows moved to
//! one path: the game loop's own positions, the eval feature kernels over a
//! `PositionBatch`, one Parquet writer). A refactor of the row path may not change one
//! byte; a deliberate format change (or an `engine_version` bump, which both the manifest
//! and the Parquet footer carry) updates the digests here in the same commit and says why.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

/// Run `dicechess selfplay` with `args` into `out`; it must succeed.
fn selfplay(out: &Path, args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .arg("selfplay")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run dicechess");
    assert!(
        o.status.success(),
        "selfplay {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Lower-case hex SHA-256 of a file.
fn sha256(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Check every `(file, digest)` of a run's folder.
fn check(dir: &Path, want: &[(&str, &str)]) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".lock" && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut listed: Vec<String> = want.iter().map(|(n, _)| (*n).to_owned()).collect();
    listed.sort();
    assert_eq!(names, listed, "the files of {}", dir.display());
    for (name, digest) in want {
        assert_eq!(
            sha256(&dir.join(name)),
            *digest,
            "{name} of {} changed",
            dir.display()
        );
    }
}

#[test]
fn expectimax_against_greedy_in_three_shards_of_rich_9_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    selfplay(
        &out,
        &[
            "--games",
            "24",
            "--white",
            "expectimax",
            "--black",
            "greedy",
            "--seed",
            "11",
            "--shard-games",
            "10",
        ],
    );
    check(
        &out,
        &[
            (
                "shard-00000.rows.parquet",
                "a418ddaa3191afaa01d26ceaa8107b5985df84b77f84a6fd9ef8544fcd01c5fa",
            ),
            (
                "shard-00001.rows.parquet",
                "cdde594fd5855524deeef4d34102621735c8515b9199e4134e1163120411d373",
            ),
            (
                "shard-00002.rows.parquet",
                "004b3f01485110375574c1bb1e6f98a548c44afa98b16a34f712a623e36eea1c",
            ),
            (
                "shard-00000.games.jsonl",
                "1e7466a79a5eb19c7186b5b27d4e91bc09f429d2a36eb744b8c0c5dd1c0ad091",
            ),
            (
                "shard-00001.games.jsonl",
                "4fc08532fac7f184d9f88fd21197ae88f2955c881a52101c486ff9d330384970",
            ),
            (
                "shard-00002.games.jsonl",
                "5b8d4d67bb08dbe8b84fb1f43b965f0e8018f9d5e766122e54b5c467d32f3729",
            ),
            (
                "manifest.json",
                "bf9a81a38659899e0ceb4f3167e389fef90bb35e076f6af254fdb2ee17adbfa1",
            ),
        ],
    );
}

/// `best-v1`, the frozen yardstick (wave 2's `best`): its play may never change. Until
/// `best` gained its selective depth 3 this test ran `best`; the rows file kept its digest
/// when it moved to `best-v1` (the games and manifest name the bot and, now that self-play
/// counts `best-v1` among the searching bots, its table size, so theirs changed).
#[test]
fn best_v1_against_aggressive_with_kcp_13_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    selfplay(
        &out,
        &[
            "--games",
            "12",
            "--white",
            "best-v1",
            "--black",
            "aggressive",
            "--seed",
            "5",
            "--features",
            "kcp-13",
        ],
    );
    check(
        &out,
        &[
            (
                "shard-00000.rows.parquet",
                "9d38bdfe733801505453708955ac6af81b3314966ba81826c9e214c355cf93b6",
            ),
            (
                "shard-00000.games.jsonl",
                "ddf0971840ce553fe74f36e92329daa732c9c2cf30b8e7a076d439263283b6de",
            ),
            (
                "manifest.json",
                "6d15fdde1544848ca811ee71ca5df42422788d9f299205ca7391e8f0c5312ce7",
            ),
        ],
    );
}

#[test]
fn greedy_against_random_with_raw_board_and_kcp_mobility_pawns_rows() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("raw");
    selfplay(
        &raw,
        &[
            "--games",
            "12",
            "--white",
            "greedy",
            "--black",
            "random",
            "--seed",
            "3",
            "--features",
            "raw-board-768-v1",
            "--threads",
            "1",
        ],
    );
    check(
        &raw,
        &[
            (
                "shard-00000.rows.parquet",
                "a070036690acef54ebda98f062c4dc9344a76082298aee65344e0d590b2995ea",
            ),
            (
                "shard-00000.games.jsonl",
                "ea26d26bbc6d71825f41943c6b6f2e7c706a02cd39c75372aa7c858af2a8f15a",
            ),
            (
                "manifest.json",
                "bda8de7e79cdc3e4a8c3c540ee1ac4b62d4dd0feb21bad6959bedb30e3838467",
            ),
        ],
    );
    let pawns = dir.path().join("pawns");
    selfplay(
        &pawns,
        &[
            "--games",
            "12",
            "--white",
            "cautious-greedy",
            "--black",
            "checkmate-aware",
            "--seed",
            "4",
            "--features",
            "kcp-mobility-pawns-31-v1",
        ],
    );
    check(
        &pawns,
        &[
            (
                "shard-00000.rows.parquet",
                "90719febd929e9ac34cae1603c911423c84651523bf7ed3239c58ef9748e70bb",
            ),
            (
                "shard-00000.games.jsonl",
                "542004cac0b0b6c9c312a9cbb101c237c698f0c771fb6845252d6f17556a4d2c",
            ),
            (
                "manifest.json",
                "9b9ec3fc67b0f93926c8ce9a8d3cc40a838afa6d347ab5d81107ea7da595a75d",
            ),
        ],
    );
}
