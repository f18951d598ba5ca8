//! `dicechess eval` end to end: bad lines, Parquet and NPY output read back, resume after an
//! interruption, standard input, Parquet input, argument errors.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(feature = "files")]

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int64Type};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use common::temp_dir;
use dicechess::board::Position;
use dicechess::eval::features::{schema, FeatureSchema};
use dicechess::eval::Material;
use dicechess::files::{parse_input_line, InputError};
use ndarray::Array2;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/eval/positions.dfen"
);
const SCHEMA: &str = "rich-9-v1";
/// The fixture's bad line.
const BAD_LINE: u64 = 8;

/// A fresh empty folder under the system's temporary folder, removed when dropped.
fn dicechess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .expect("run dicechess")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn eval(input: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("utf-8 path");
    let mut args = vec!["eval", input, "--out", out];
    args.extend_from_slice(extra);
    dicechess(&args)
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "status {:?}, stderr: {}",
        o.status,
        stderr(o)
    );
}

/// The fixture's good positions, in order.
fn good_positions() -> Vec<Position> {
    std::fs::read_to_string(FIXTURE)
        .expect("fixture")
        .lines()
        .filter_map(|l| parse_input_line(l).ok().flatten())
        .collect()
}

/// What the output must hold for `positions`: canonical DFENs, feature rows from the side to
/// move's view, material scores.
struct Expected {
    dfens: Vec<String>,
    features: Vec<Vec<f32>>,
    scores: Vec<f32>,
}

fn expected(positions: &[Position], schema: &dyn FeatureSchema) -> Expected {
    Expected {
        dfens: positions.iter().map(Position::to_dfen).collect(),
        features: positions
            .iter()
            .map(|p| {
                let mut row = vec![0.0; schema.width()];
                schema.extract_row(p, p.side_to_move(), &mut row);
                row
            })
            .collect(),
        scores: positions
            .iter()
            .map(|p| Material::score(p, p.side_to_move()) as f32)
            .collect(),
    }
}

/// A Parquet file read back: its columns by name (strings or floats) and footer metadata.
struct Table {
    names: Vec<String>,
    strings: HashMap<String, Vec<String>>,
    floats: HashMap<String, Vec<f32>>,
    ints: HashMap<String, Vec<i64>>,
    metadata: HashMap<String, String>,
    row_groups: usize,
}

fn read_parquet(path: &Path) -> Table {
    let b = ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("open output"))
        .expect("a Parquet file");
    let metadata = b
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    let row_groups = b.metadata().num_row_groups();
    let schema = b.schema().clone();
    let mut t = Table {
        names: schema.fields().iter().map(|f| f.name().clone()).collect(),
        strings: HashMap::new(),
        floats: HashMap::new(),
        ints: HashMap::new(),
        metadata,
        row_groups,
    };
    for batch in b.build().expect("reader") {
        let batch = batch.expect("batch");
        for (f, col) in schema.fields().iter().zip(batch.columns()) {
            match f.data_type() {
                DataType::Utf8 => t
                    .strings
                    .entry(f.name().clone())
                    .or_default()
                    .extend(col.as_string::<i32>().iter().map(|s| s.unwrap().to_owned())),
                DataType::Float32 => t
                    .floats
                    .entry(f.name().clone())
                    .or_default()
                    .extend(col.as_primitive::<Float32Type>().values().iter().copied()),
                DataType::Int64 => t
                    .ints
                    .entry(f.name().clone())
                    .or_default()
                    .extend(col.as_primitive::<Int64Type>().values().iter().copied()),
                other => panic!("unexpected column type {other}"),
            }
        }
    }
    t
}

/// Check a Parquet output against the expected rows (schema [`SCHEMA`], material scores).
fn check_parquet(t: &Table, want: &Expected) {
    let s = schema(SCHEMA).unwrap();
    let mut names = vec!["dfen".to_owned(), "fen_hash".to_owned()];
    names.extend(s.columns().iter().map(|c| c.to_string()));
    names.push("score".into());
    assert_eq!(t.names, names);
    assert_eq!(t.strings["dfen"], want.dfens);
    // The analytics database's key of each row's position.
    let hashes: Vec<i64> = want
        .dfens
        .iter()
        .map(|d| dicechess::board::fen_hash(&Position::from_dfen(d).unwrap()))
        .collect();
    assert_eq!(t.ints["fen_hash"], hashes);
    for (c, name) in s.columns().iter().enumerate() {
        let got = &t.floats[*name];
        let col: Vec<f32> = want.features.iter().map(|r| r[c]).collect();
        assert_eq!(got, &col, "column {name}");
    }
    assert_eq!(t.floats["score"], want.scores);
    assert_eq!(t.metadata["feature_schema"], SCHEMA);
    assert_eq!(t.metadata["perspective"], "side-to-move");
    assert_eq!(t.metadata["engine_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(t.metadata["evaluator"], "material");
}

fn run_args() -> Vec<&'static str> {
    vec!["--features", SCHEMA, "--evaluator", "material"]
}

#[test]
fn a_bad_line_stops_the_run_naming_its_line() {
    let d = temp_dir("bad");
    let out = d.join("out.parquet");
    let o = eval(FIXTURE, &out, &run_args());
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "error: line {BAD_LINE}: side: expected 'w' or 'b'"
        )),
        "{err}"
    );
    assert!(err.contains("--skip-bad"), "{err}");
    assert!(!out.exists());
    // Nothing was finished, so nothing is left behind.
    assert!(std::fs::read_dir(&*d).unwrap().next().is_none());
}

#[test]
fn skip_bad_writes_the_good_rows_with_features_scores_and_metadata() {
    let d = temp_dir("skip");
    let out = d.join("out.parquet");
    let o = eval(FIXTURE, &out, &[&run_args()[..], &["--skip-bad"]].concat());
    ok(&o);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("skipped line {BAD_LINE}: side:")),
        "{err}"
    );
    assert!(err.contains("12 rows written"), "{err}");
    assert!(err.contains("1 bad line(s) skipped"), "{err}");
    let positions = good_positions();
    assert_eq!(positions.len(), 12);
    check_parquet(
        &read_parquet(&out),
        &expected(&positions, schema(SCHEMA).unwrap()),
    );
    // Only the output is left.
    let names: Vec<_> = std::fs::read_dir(&*d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["out.parquet"]);
}

fn read_npy(path: &Path) -> Array2<f32> {
    ndarray_npy::read_npy(path).expect("an NPY float32 matrix")
}

#[test]
fn npy_holds_the_same_matrix_features_then_score() {
    let d = temp_dir("npy");
    let out = d.join("out.npy");
    ok(&eval(
        FIXTURE,
        &out,
        &[&run_args()[..], &["--skip-bad", "--chunk-rows", "5"]].concat(),
    ));
    let want = expected(&good_positions(), schema(SCHEMA).unwrap());
    let m = read_npy(&out);
    assert_eq!(m.dim(), (12, 10));
    for (r, row) in m.rows().into_iter().enumerate() {
        let mut w = want.features[r].clone();
        w.push(want.scores[r]);
        assert_eq!(row.to_vec(), w, "row {r}");
    }
    // Scores only: one column.
    let only = d.join("scores.npy");
    ok(&eval(
        FIXTURE,
        &only,
        &["--evaluator", "material", "--skip-bad"],
    ));
    let m = read_npy(&only);
    assert_eq!(m.dim(), (12, 1));
    assert_eq!(m.column(0).to_vec(), want.scores);
}

#[test]
fn rerun_over_a_complete_output_gives_the_same_file() {
    let d = temp_dir("rerun");
    let out = d.join("out.parquet");
    let args = [&run_args()[..], &["--skip-bad"]].concat();
    ok(&eval(FIXTURE, &out, &args));
    let first = std::fs::read(&out).unwrap();
    ok(&eval(FIXTURE, &out, &args));
    assert_eq!(std::fs::read(&out).unwrap(), first);
}

/// Run with chunks of 2 records and no `--skip-bad`: chunks 0 and 1 finish, chunk 2 holds
/// the bad line and stops the run, as an interruption would. Chunks after it may have been
/// finished too (they run in parallel); returns the number of finished parts.
fn interrupted_run(out: &Path) -> usize {
    let o = eval(
        FIXTURE,
        out,
        &[&run_args()[..], &["--chunk-rows", "2"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("error: line {BAD_LINE}:")), "{err}");
    assert!(err.contains("kept in"), "{err}");
    let parts = out.with_extension("parquet.parts");
    let names: Vec<String> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    for name in ["part-00000000.parquet", "part-00000001.parquet", "run.json"] {
        assert!(names.iter().any(|n| n == name), "{name} missing: {names:?}");
    }
    assert!(!names.iter().any(|n| n == "part-00000002.parquet"));
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    names.iter().filter(|n| n.starts_with("part-")).count()
}

#[test]
fn an_interrupted_run_resumes_from_its_finished_parts() {
    let d = temp_dir("resume");
    let out = d.join("out.parquet");
    interrupted_run(&out);
    // The same command with --skip-bad and no --chunk-rows: the recorded chunk size is used.
    let o = eval(FIXTURE, &out, &[&run_args()[..], &["--skip-bad"]].concat());
    ok(&o);
    let err = stderr(&o);
    assert!(
        err.contains("resuming: 2 finished part(s) (4 rows)"),
        "{err}"
    );
    assert!(err.contains("12 rows written"), "{err}");
    assert!(!out.with_extension("parquet.parts").exists());
    let resumed = std::fs::read(&out).unwrap();
    let t = read_parquet(&out);
    assert_eq!(
        t.row_groups, 7,
        "one row group per chunk of 2 of the 13 records"
    );
    check_parquet(&t, &expected(&good_positions(), schema(SCHEMA).unwrap()));

    // Byte for byte what an uninterrupted run with the same chunk size writes.
    let fresh = d.join("fresh.parquet");
    ok(&eval(
        FIXTURE,
        &fresh,
        &[&run_args()[..], &["--skip-bad", "--chunk-rows", "2"]].concat(),
    ));
    assert_eq!(std::fs::read(&fresh).unwrap(), resumed);
}

#[test]
fn a_leftover_folder_of_other_settings_is_refused_unless_restarted() {
    let d = temp_dir("mismatch");
    let out = d.join("out.parquet");
    interrupted_run(&out);
    let o = eval(
        FIXTURE,
        &out,
        &[&run_args()[..], &["--skip-bad", "--chunk-rows", "3"]].concat(),
    );
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("chunk_rows was 2, now 3"), "{err}");
    assert!(err.contains("--restart"), "{err}");
    assert!(!out.exists());
    // Another schema is refused too.
    let o = eval(
        FIXTURE,
        &out,
        &[
            "--features",
            "kcp-13",
            "--evaluator",
            "material",
            "--skip-bad",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("features was \"rich-9-v1\", now \"kcp-13\""));

    let o = eval(
        FIXTURE,
        &out,
        &[
            &run_args()[..],
            &["--skip-bad", "--chunk-rows", "3", "--restart"],
        ]
        .concat(),
    );
    ok(&o);
    assert!(!stderr(&o).contains("resuming"));
    let t = read_parquet(&out);
    assert_eq!(t.row_groups, 5);
    check_parquet(&t, &expected(&good_positions(), schema(SCHEMA).unwrap()));
}

#[test]
fn standard_input_works() {
    let d = temp_dir("stdin");
    let out = d.join("out.parquet");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["eval", "-", "--out", out.to_str().unwrap(), "--skip-bad"])
        .args(run_args())
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(FIXTURE).unwrap())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    ok(&o);
    assert!(stderr(&o).contains(&format!("skipped line {BAD_LINE}:")));
    check_parquet(
        &read_parquet(&out),
        &expected(&good_positions(), schema(SCHEMA).unwrap()),
    );
}

#[test]
fn a_parquet_input_with_a_fen_column_works() {
    let d = temp_dir("pqin");
    let input = d.join("in.parquet");
    let positions = good_positions();
    // Non-canonical texts (no clocks, extra spaces around) and one bad row (row 3).
    let mut fens: Vec<String> = positions
        .iter()
        .map(|p| {
            let f = p.to_dfen();
            let fields: Vec<&str> = f.split(' ').collect();
            format!(" {} ", fields[..4].join(" "))
        })
        .collect();
    fens.insert(2, "8/8/8 w - - 0 1".into());
    let ids: Vec<i64> = (0..fens.len() as i64).collect();
    let schema_in = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("fen", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        schema_in.clone(),
        vec![
            Arc::new(Int64Array::from(ids)) as ArrayRef,
            Arc::new(StringArray::from(fens)) as ArrayRef,
        ],
    )
    .unwrap();
    let mut w = ArrowWriter::try_new(File::create(&input).unwrap(), schema_in, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();

    let out = d.join("out.parquet");
    let o = eval(input.to_str().unwrap(), &out, &run_args());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error: row 3: placement:"),
        "{}",
        stderr(&o)
    );

    let o = eval(
        input.to_str().unwrap(),
        &out,
        &[&run_args()[..], &["--skip-bad"]].concat(),
    );
    ok(&o);
    assert!(stderr(&o).contains("skipped row 3: placement:"));
    // The clocks and dice were dropped, so the canonical rows are the positions without them.
    let bare: Vec<Position> = positions
        .iter()
        .map(|p| {
            let f = p.to_dfen();
            let fields: Vec<&str> = f.split(' ').collect();
            Position::from_dfen(&fields[..4].join(" ")).unwrap()
        })
        .collect();
    check_parquet(
        &read_parquet(&out),
        &expected(&bare, schema(SCHEMA).unwrap()),
    );

    // A Parquet file without a position column is refused, naming its columns.
    let o = eval(out.to_str().unwrap(), &d.join("x.npy"), &run_args());
    assert!(o.status.success(), "an output file is itself a valid input");
    let no_col = d.join("nocol.parquet");
    let s = Arc::new(Schema::new(vec![Field::new("id", DataType::Int64, false)]));
    let b =
        RecordBatch::try_new(s.clone(), vec![Arc::new(Int64Array::from(vec![1i64])) as _]).unwrap();
    let mut w = ArrowWriter::try_new(File::create(&no_col).unwrap(), s, None).unwrap();
    w.write(&b).unwrap();
    w.close().unwrap();
    let o = eval(no_col.to_str().unwrap(), &d.join("y.npy"), &run_args());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no `dfen` or `fen` column (columns: id)"));
}

#[test]
fn argument_errors_exit_2_with_a_clear_message() {
    let d = temp_dir("args");
    let out = d.join("out.parquet");
    let o = eval(FIXTURE, &out, &["--features", "rich-10-v9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown feature schema \"rich-10-v9\" (known: material-7-v1"));

    let o = eval(FIXTURE, &d.join("out.csv"), &run_args());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unsupported extension .csv"));

    let o = eval(FIXTURE, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing to compute"));

    let o = eval(d.join("missing.dfen").to_str().unwrap(), &out, &run_args());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot open"));

    let o = eval(
        FIXTURE,
        &out,
        &["--evaluator", "material", "--model", "somewhere"],
    );
    assert_eq!(o.status.code(), Some(2), "clap refuses the pair");
    assert!(std::fs::read_dir(&*d).unwrap().next().is_none());
}

#[test]
fn parse_input_line_skips_blanks_and_comments_and_names_the_field() {
    assert!(parse_input_line("").unwrap().is_none());
    assert!(parse_input_line("   \r").unwrap().is_none());
    assert!(parse_input_line("  # comment").unwrap().is_none());
    let p = parse_input_line(" 4k3/8/8/8/8/8/8/4K3 b - - 0 1 \r")
        .unwrap()
        .unwrap();
    assert_eq!(p.to_dfen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    for (line, field) in [
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side:"),
        ("4k3/8/8/8/8/8/8/4K3", "fields:"),
        ("4k3/8/8/8/8/8/8/4K9 w - - 0 1", "placement:"),
    ] {
        let e = parse_input_line(line).unwrap_err();
        assert!(matches!(e, InputError::Dfen(_)));
        assert!(e.to_string().starts_with(field), "{e}");
    }
}

proptest::proptest! {
    #[test]
    fn parse_input_line_never_panics(s in "\\PC{0,120}") {
        let _ = parse_input_line(&s);
    }
}

#[test]
fn the_reader_chunks_records_and_reports_bad_ones_with_their_lines() {
    use dicechess::files::{Location, PositionReader};
    let good = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let mut text = format!("# comment\n{good}\n\n").into_bytes();
    text.extend_from_slice(b"\xff\xfe bad bytes\n");
    text.extend(std::iter::repeat_n(b'a', 70_000));
    text.extend_from_slice(format!("\n{good}\r\n4k3/8/8/8/8/8/8/4K3 b - -").as_bytes());
    let open = || {
        PositionReader::from_lines(
            Box::new(std::io::Cursor::new(text.clone())),
            "test".into(),
            Some(text.len() as u64),
            2,
        )
    };
    let mut r = open();
    let c = r.next_chunk().unwrap().unwrap();
    assert_eq!((c.index, c.records, c.positions.len()), (0, 2, 1));
    assert_eq!(c.sources, vec![Location::Line(2)]);
    assert_eq!(c.texts, vec![good.to_owned()]);
    assert_eq!(c.bad.len(), 1);
    assert_eq!(c.bad[0].location(), Some(Location::Line(4)));
    assert_eq!(c.bad[0].to_string(), "line 4: not UTF-8 text");
    let c = r.next_chunk().unwrap().unwrap();
    assert_eq!((c.index, c.records, c.positions.len()), (1, 2, 1));
    assert!(c.bad[0].to_string().starts_with("line 5: line too long"));
    assert_eq!(c.sources, vec![Location::Line(6)]);
    let c = r.next_chunk().unwrap().unwrap();
    assert_eq!((c.index, c.records), (2, 1));
    assert_eq!(c.positions[0].to_dfen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(r.next_chunk().unwrap().is_none());
    assert_eq!(r.bytes_read(), text.len() as u64);
    // Skipping finds the same chunk boundaries.
    let mut r = open();
    let skipped: Vec<u64> = (0..4).map(|_| r.skip_chunk().unwrap()).collect();
    assert_eq!(skipped, vec![2, 2, 1, 0]);
}

#[test]
fn empty_input_gives_empty_files_and_many_bad_lines_are_counted() {
    let d = temp_dir("empty");
    let input = d.join("empty.dfen");
    std::fs::write(&input, "# nothing here\n\n").unwrap();
    let out = d.join("out.parquet");
    ok(&eval(input.to_str().unwrap(), &out, &run_args()));
    let t = read_parquet(&out);
    // dfen, fen_hash, the schema's columns, score.
    assert_eq!(t.names.len(), 2 + schema(SCHEMA).unwrap().width() + 1);
    assert!(t.strings.is_empty() && t.metadata["feature_schema"] == SCHEMA);
    let npy = d.join("out.npy");
    ok(&eval(input.to_str().unwrap(), &npy, &run_args()));
    assert_eq!(read_npy(&npy).dim(), (0, 10));

    let many = d.join("many.dfen");
    let mut text = String::new();
    for _ in 0..25 {
        text.push_str("not a position\n");
    }
    text.push_str("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    std::fs::write(&many, text).unwrap();
    let o = eval(
        many.to_str().unwrap(),
        &d.join("many.npy"),
        &run_args()
            .into_iter()
            .chain(["--skip-bad", "--chunk-rows", "3"])
            .collect::<Vec<_>>(),
    );
    ok(&o);
    let err = stderr(&o);
    // Reported in input order although chunks finish in any order.
    let reported: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("skipped line "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let want: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
    assert_eq!(reported, want, "{err}");
    assert!(err.contains("… and 5 more bad line(s) skipped"), "{err}");
    assert!(err.contains("1 rows written"), "{err}");
    assert!(err.contains("25 bad line(s) skipped"), "{err}");
}

/// A v0 shard with one footer byte changed (found by the `label_input` fuzz target): a column
/// chunk at a negative offset. The Parquet library panicked on it; `eval` and `label` now
/// refuse it naming the file and the row group.
#[test]
fn a_corrupt_parquet_footer_is_refused_naming_the_file() {
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/input/corrupt-footer.parquet"
    );
    let dir = temp_dir("corrupt-footer");
    for cmd in [
        vec!["eval", input, "--features", "kcp-13"],
        vec!["label", input, "--kind", "a1"],
    ] {
        let out = dir.join(format!("{}.parquet", cmd[0]));
        let mut args = cmd.clone();
        args.extend(["--out", out.to_str().unwrap()]);
        let o = dicechess(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(
            err.contains("corrupt-footer.parquet") && err.contains("a corrupt footer: row group"),
            "{cmd:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.exists(), "{cmd:?} wrote {}", out.display());
    }
}

/// A v0 shard with a corrupt dictionary page (found by the `label_input` fuzz target): the
/// Parquet library divides by zero decoding it. The reader turns that panic into this file's
/// error; `eval` and `label` exit with it, naming the file, and write nothing.
#[test]
fn a_corrupt_parquet_page_is_an_error_not_a_crash() {
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/input/corrupt-page.parquet"
    );
    let dir = temp_dir("corrupt-page");
    for cmd in [
        vec!["eval", input, "--features", "kcp-13"],
        vec!["label", input, "--kind", "a1"],
    ] {
        let out = dir.join(format!("{}.parquet", cmd[0]));
        let mut args = cmd.clone();
        args.extend(["--out", out.to_str().unwrap()]);
        let o = dicechess(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(
            err.contains("error: ")
                && err.contains("corrupt-page.parquet")
                && err.contains("a corrupt page"),
            "{cmd:?}: {err}"
        );
        assert!(!out.exists(), "{cmd:?} wrote {}", out.display());
    }
}
