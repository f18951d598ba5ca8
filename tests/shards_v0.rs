//! Shards the training pipeline reads without conversion (schema v0, docs/data-formats.md):
//! self-play rows shards and `eval`'s enrichment of a v0 shard, checked twice — with the
//! parquet crate here, and with pyarrow by `tests/python/check_shard.py`, which mirrors the
//! pipeline's own readers (`schema.py`: `read_shard`, `read_enriched_shard`).
//!
//! The pyarrow half needs a Python with pyarrow: `DICECHESS_PYTHON` (set by `.ci/test-all`
//! through `.ci/install-python-tools`; when it is set, a missing pyarrow is a failure), else
//! `.tools/pyenv/bin/python`, else `python3`. Only when none of them has pyarrow does that
//! half print why and skip.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, RecordBatch};
use common::temp_dir;
use dicechess::batch::PositionBatch;
use dicechess::board::Position;
use dicechess::eval::features::{schema, Perspective};
use dicechess::files::BaseRows;
use dicechess::files::{footer, SCHEMA_V0};
use dicechess::files::{Layout, ParquetRowsWriter, Rows};
use dicechess::kernels::Color;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dicechess(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `dicechess eval INPUT ARGS… --out OUT`.
fn eval(input: &Path, out: &Path, args: &[&str]) -> (bool, String) {
    let mut a = vec!["eval", input.to_str().unwrap()];
    a.extend_from_slice(args);
    a.extend(["--out", out.to_str().unwrap()]);
    dicechess(&a)
}

fn selfplay(out: &Path, features: &str) {
    let (ok, err) = dicechess(&[
        "selfplay",
        "--games",
        "6",
        "--shard-games",
        "3",
        "--seed",
        "3",
        "--threads",
        "1",
        "--features",
        features,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
}

/// Every row of a Parquet file, and its embedded Arrow schema's metadata.
fn read(path: &Path) -> (Vec<RecordBatch>, HashMap<String, String>) {
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let meta = b
        .schema()
        .metadata()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (b.build().unwrap().map(|r| r.unwrap()).collect(), meta)
}

fn strings(batches: &[RecordBatch], name: &str) -> Vec<String> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(name).unwrap().as_string::<i32>().clone();
            (0..c.len()).map(move |i| c.value(i).to_owned())
        })
        .collect()
}

/// The `ply` column.
fn plies(batches: &[RecordBatch]) -> Vec<i32> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name("ply").unwrap();
            c.as_primitive::<Int32Type>().values().to_vec()
        })
        .collect()
}

fn floats(batches: &[RecordBatch], name: &str) -> Vec<f32> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(name).unwrap();
            c.as_primitive::<Float32Type>().values().to_vec()
        })
        .collect()
}

#[test]
fn eval_of_a_v0_shard_writes_its_base_columns_through_as_an_enriched_shard() {
    let d = temp_dir("enrich");
    let run = d.join("run");
    selfplay(&run, "rich-9-v1");
    let shard = run.join("shard-00000.rows.parquet");
    let out = d.join("enriched.parquet");
    let (ok, err) = eval(&shard, &out, &["--features", "kcp-13"]);
    assert!(ok, "{err}");
    let (input, _) = read(&shard);
    let (output, meta) = read(&out);
    for name in ["game_id", "fen", "dice", "side"] {
        assert_eq!(strings(&input, name), strings(&output, name), "{name}");
    }
    assert_eq!(floats(&input, "result"), floats(&output, "result"));
    assert_eq!(plies(&input), plies(&output));
    let kcp = schema("kcp-13").unwrap();
    let names: Vec<String> = output[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let mut want: Vec<String> = ["game_id", "ply", "fen", "dice", "side", "result"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    want.extend(kcp.columns().iter().map(|s| s.to_string()));
    assert_eq!(
        names, want,
        "the pipeline needs exactly the features after the base"
    );
    assert_eq!(meta["dicechess_training_schema"], "v0-enriched");
    assert_eq!(meta["feature_schema"], "kcp-13");
    assert_eq!(meta["ruleset"], "standard-dicechess-v1");
    assert_eq!(meta["perspective"], "side-to-move");
    assert_eq!(meta["columns"], kcp.columns().join(","));
    // The features are those of fen + dice, from the mover's view.
    let positions: Vec<Position> = strings(&input, "fen")
        .iter()
        .zip(strings(&input, "dice"))
        .map(|(f, dice)| Position::from_dfen(&format!("{f} {dice}")).unwrap())
        .collect();
    let want = kcp.extract(
        &PositionBatch::from_positions(&positions),
        Perspective::SideToMove,
    );
    for (c, name) in kcp.columns().iter().enumerate() {
        let got = floats(&output, name);
        let exp: Vec<f32> = want.column(c).to_vec();
        assert_eq!(
            got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            exp.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "{name}"
        );
    }
}

/// A v0 shard with one row whose `side` contradicts its FEN and one with a bad result.
fn write_v0_with_bad_rows(path: &Path) {
    let base = BaseRows {
        game_id: vec!["g".into(); 3],
        ply: vec![1, 2, 3],
        fen: vec![
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".into(),
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".into(),
            "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1".into(),
        ],
        dice: vec!["PPR".into(), "PPR".into(), "NNB".into()],
        side: vec![Color::White, Color::Black, Color::Black],
        result: vec![1.0, 0.0, 0.25],
    };
    let meta = footer::<&str>(SCHEMA_V0, "none", &[]);
    let layout = Layout::with_base::<&str>(&[], false).unwrap();
    let mut f = std::fs::File::create(path).unwrap();
    let mut w = ParquetRowsWriter::new(&mut f, &layout, &meta, path).unwrap();
    w.write(Rows {
        dfens: &[],
        fen_hashes: &[],
        base: Some(&base),
        texts: &[],
        features: &[],
        scores: None,
    })
    .unwrap();
    w.finish().unwrap();
}

#[test]
fn rows_the_pipeline_would_refuse_are_bad_records() {
    let d = temp_dir("bad");
    let inp = d.join("in.parquet");
    write_v0_with_bad_rows(&inp);
    let out = d.join("out.parquet");
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "eval".to_owned(),
            inp.to_str().unwrap().to_owned(),
            "--features".to_owned(),
            "kcp-13".to_owned(),
            "--out".to_owned(),
            out.to_str().unwrap().to_owned(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let a = args(&[]);
    let (ok, err) = dicechess(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!ok);
    // The pipeline's enrichment check (scripts/check_enrichment.py) expects the producer's
    // refusal to say "side/FEN mismatch" and to publish nothing: no Parquet file, no partial
    // (`*.tmp`) file beside it.
    assert!(
        err.contains("row 2: side/FEN mismatch: side \"b\" is not the FEN's side to move"),
        "{err}"
    );
    assert!(!out.exists());
    let left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "in.parquet")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let a = args(&["--skip-bad"]);
    let (ok, err) = dicechess(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(ok, "{err}");
    assert!(err.contains("row 3: result: 0.25"), "{err}");
    let (rows, _) = read(&out);
    assert_eq!(strings(&rows, "side"), vec!["w"]);
}

/// The interpreter with pyarrow, or why there is none.
fn python() -> Result<PathBuf, String> {
    let has_pyarrow = |p: &Path| {
        Command::new(p)
            .args(["-c", "import pyarrow"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Some(p) = std::env::var_os("DICECHESS_PYTHON").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        assert!(
            has_pyarrow(&p),
            "DICECHESS_PYTHON={} has no pyarrow (run bash .ci/install-python-tools)",
            p.display()
        );
        return Ok(p);
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/pyenv/bin/python");
    for p in [local, PathBuf::from("python3")] {
        if has_pyarrow(&p) {
            return Ok(p);
        }
    }
    Err(
        "no Python with pyarrow (set DICECHESS_PYTHON, or run bash .ci/install-python-tools)"
            .into(),
    )
}

/// `shard` passes the pipeline's enriched-reader rules for kcp-13 (`check_shard.py`), when a
/// Python with pyarrow is here (with `DICECHESS_PYTHON` set, as in CI, it must be).
fn pipeline_reads_kcp13(shard: &Path) {
    if let Ok(py) = python() {
        let (ok, msg) = check(
            &py,
            shard,
            &["--marker", "v0-enriched", "--feature-schema", "kcp-13"],
        );
        assert!(ok, "{msg}");
    }
}

fn check(py: &Path, shard: &Path, args: &[&str]) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/check_shard.py");
    let o = Command::new(py)
        .arg(script)
        .arg(shard)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

#[test]
fn pyarrow_reads_our_shards_as_the_pipeline_does() {
    let py = match python() {
        Ok(p) => p,
        Err(why) => {
            println!("SKIPPED pyarrow_reads_our_shards_as_the_pipeline_does: {why}");
            return;
        }
    };
    let d = temp_dir("pyarrow");
    let engine = env!("CARGO_PKG_VERSION");
    // Self-play shards of each schema the pipeline's enriched readers know.
    for features in ["kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1"] {
        let run = d.join(features);
        selfplay(&run, features);
        for k in 0..2 {
            let shard = run.join(format!("shard-{k:05}.rows.parquet"));
            let (ok, msg) = check(
                &py,
                &shard,
                &["--feature-schema", features, "--engine", engine],
            );
            assert!(ok && msg.starts_with("ok "), "{features}: {msg}");
        }
    }
    // The default schema: a base shard (the enriched readers do not know rich-9-v1).
    let run = d.join("default");
    selfplay(&run, "rich-9-v1");
    let shard = run.join("shard-00000.rows.parquet");
    let (ok, msg) = check(&py, &shard, &[]);
    assert!(ok, "{msg}");
    // eval as the enrichment step.
    let out = d.join("enriched.parquet");
    let (ok, err) = eval(&shard, &out, &["--features", "kcp-mobility-pawns-31-v1"]);
    assert!(ok, "{err}");
    let (ok, msg) = check(
        &py,
        &out,
        &[
            "--marker",
            "v0-enriched",
            "--feature-schema",
            "kcp-mobility-pawns-31-v1",
            "--engine",
            engine,
        ],
    );
    assert!(ok, "{msg}");
    // The checker can fail: a DFEN-input eval output is no training shard.
    let lines = d.join("one.dfen");
    std::fs::write(&lines, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 PPR\n").unwrap();
    let plain = d.join("plain.parquet");
    let (ok, err) = eval(&lines, &plain, &["--features", "kcp-13"]);
    assert!(ok, "{err}");
    let (ok, msg) = check(&py, &plain, &["--feature-schema", "kcp-13"]);
    assert!(!ok && msg.contains("shard schema version ''"), "{msg}");
}

/// The analytics database's training export header (`ExportTrainingDataApp.Header`).
const EXPORT_HEADER: &str = "game_id,turn_number,fen,dice,side,moves,result,termination,mode,\
                             source,white_rating,black_rating,white_type,black_type";

/// An export in its own shape: the line its `TrainingExportSpec` pins for `csvLine` (White to
/// move, White lost), a Black turn with mover-cased dice and a forced pass, a legacy row with
/// digit dice, a quoted field (RFC 4180), and — when `bad` — a result outside 1/0/-1 and a side
/// that contradicts the FEN.
fn export_csv(bad: bool) -> String {
    let mut rows = vec![
        EXPORT_HEADER.to_owned(),
        "00000000-0000-0000-0000-000000000001,7,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -,\
         PPQ,w,e2e4 d2d4,-1,king_captured,classic,dicechess.com,2394,,human,"
            .to_owned(),
        "00000000-0000-0000-0000-000000000001,8,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -,\
         bnp,b,,-1,king_captured,classic,\"a,\"\"b\"\"\",2394,,human,"
            .to_owned(),
        "00000000-0000-0000-0000-000000000002,1,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -,\
         135,w,e2e4,0,unknown,x2,legacy,,,,"
            .to_owned(),
    ];
    if bad {
        rows.push(
            "00000000-0000-0000-0000-000000000003,1,4k3/8/8/8/8/8/8/R3K3 w Q -,RRP,w,,2,unknown,\
             classic,x,,,,"
                .to_owned(),
        );
        rows.push(
            "00000000-0000-0000-0000-000000000003,2,4k3/8/8/8/8/8/8/R3K3 w Q -,RRP,b,,1,unknown,\
             classic,x,,,,"
                .to_owned(),
        );
    }
    rows.join("\n") + "\n"
}

fn gzip(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap()
}

#[test]
fn the_analytics_export_enriches_into_a_v0_shard() {
    let d = temp_dir("analytics");
    let inp = d.join("training_data.csv.gz");
    std::fs::write(&inp, gzip(&export_csv(false))).unwrap();
    let out = d.join("rows.parquet");
    let (ok, err) = eval(&inp, &out, &["--features", "kcp-13"]);
    assert!(ok, "{err}");
    let (rows, meta) = read(&out);
    assert_eq!(meta["dicechess_training_schema"], "v0-enriched");
    assert_eq!(meta["feature_schema"], "kcp-13");
    let ids = strings(&rows, "game_id");
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[0], "00000000-0000-0000-0000-000000000001");
    assert_eq!(plies(&rows), vec![7, 8, 1]);
    // The FEN as exported; dice in upper-case letters (digits 1 3 5 = pawn, bishop, queen);
    // the result from the mover's view (White's -1 is a loss for White, a win for Black;
    // 0 is a draw).
    assert_eq!(
        strings(&rows, "fen")[1],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    );
    assert_eq!(strings(&rows, "dice"), vec!["PPQ", "BNP", "PBQ"]);
    assert_eq!(strings(&rows, "side"), vec!["w", "b", "w"]);
    assert_eq!(floats(&rows, "result"), vec![0.0, 1.0, 0.5]);
    // The features are the schema's of each position from the mover's view.
    let kcp = schema("kcp-13").unwrap();
    let positions: Vec<Position> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]
    .iter()
    .map(|f| Position::from_dfen(f).unwrap())
    .collect();
    let want = kcp.extract(
        &PositionBatch::from_positions(&positions),
        Perspective::SideToMove,
    );
    for (j, name) in kcp.columns().iter().enumerate() {
        assert_eq!(floats(&rows, name), want.column(j).to_vec(), "{name}");
    }
    // A plain (uncompressed) export reads the same.
    let plain = d.join("training_data.csv");
    std::fs::write(&plain, export_csv(false)).unwrap();
    let out2 = d.join("rows2.parquet");
    let (ok, err) = eval(&plain, &out2, &["--features", "kcp-13"]);
    assert!(ok, "{err}");
    assert_eq!(read(&out2).0, rows);
    // The pipeline's readers take it.
    pipeline_reads_kcp13(&out);
}

#[test]
fn bad_export_rows_and_headers_are_named() {
    let d = temp_dir("analytics-bad");
    let inp = d.join("training_data.csv.gz");
    std::fs::write(&inp, gzip(&export_csv(true))).unwrap();
    let out = d.join("rows.parquet");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "eval",
            inp.to_str().unwrap(),
            "--features",
            "rich-9-v1",
            "--out",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        dicechess(&a)
    };
    let (ok, err) = run(&[]);
    assert!(!ok);
    assert!(err.contains("row 4: result: expected 1, 0 or -1"), "{err}");
    assert!(!out.exists());
    let (ok, err) = run(&["--skip-bad"]);
    assert!(ok, "{err}");
    assert!(err.contains("row 5: side/FEN mismatch"), "{err}");
    assert_eq!(strings(&read(&out).0, "game_id").len(), 3);
    // A header without a needed column: the enricher's own wording.
    let csv = EXPORT_HEADER.replace("fen,", "position,") + "\n";
    std::fs::write(&inp, gzip(&csv)).unwrap();
    let (ok, err) = run(&["--restart"]);
    assert!(!ok);
    assert!(
        err.contains("training CSV header is missing the 'fen' column"),
        "{err}"
    );
}

#[test]
fn a_scored_shard_keeps_its_layout_and_its_scores_go_beside_it() {
    let d = temp_dir("scored");
    let run = d.join("run");
    selfplay(&run, "rich-9-v1");
    let shard = run.join("shard-00000.rows.parquet");
    let out = d.join("enriched.parquet");
    let (ok, err) = eval(
        &shard,
        &out,
        &["--features", "kcp-13", "--evaluator", "material"],
    );
    assert!(ok, "{err}");
    // The shard: the six base columns, then exactly the schema's columns (the pipeline's
    // layout check), and a footer naming the scores' file and the evaluator.
    let (rows, meta) = read(&out);
    let names: Vec<String> = rows[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let kcp = schema("kcp-13").unwrap();
    let mut want: Vec<String> = ["game_id", "ply", "fen", "dice", "side", "result"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    want.extend(kcp.columns().iter().map(|s| s.to_string()));
    assert_eq!(names, want);
    assert_eq!(meta["scores_file"], "enriched.scores.csv");
    assert_eq!(meta["evaluator"], "material");
    // The scores: one line per shard row, in order, keyed by game and ply, with fen_hash.
    let text = std::fs::read_to_string(d.join("enriched.scores.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("game_id,ply,fen_hash,score"));
    let lines: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let (games, fens, dice) = (
        strings(&rows, "game_id"),
        strings(&rows, "fen"),
        strings(&rows, "dice"),
    );
    assert_eq!(lines.len(), games.len());
    let plies = plies(&rows);
    // The same positions scored as DFEN lines (no base columns): the same scores.
    let dfens: Vec<String> = fens
        .iter()
        .zip(&dice)
        .map(|(f, d)| format!("{f} {d}"))
        .collect();
    let lines_in = d.join("positions.dfen");
    std::fs::write(&lines_in, dfens.join("\n") + "\n").unwrap();
    let plain = d.join("plain.parquet");
    let (ok, err) = eval(&lines_in, &plain, &["--evaluator", "material"]);
    assert!(ok, "{err}");
    let scores = floats(&read(&plain).0, "score");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l[0], games[i]);
        assert_eq!(l[1].parse::<i32>().unwrap(), plies[i]);
        let pos = Position::from_dfen(&fens[i]).unwrap();
        assert_eq!(
            l[2].parse::<i64>().unwrap(),
            dicechess::board::fen_hash(&pos)
        );
        assert_eq!(l[3].parse::<f32>().unwrap(), scores[i], "row {i}");
    }
    // The pipeline's enriched reader takes the shard.
    pipeline_reads_kcp13(&out);
}
