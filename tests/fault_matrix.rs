//! The fault matrix of the writers of long runs (docs/faults.md): self-play shards, `eval`
//! parts, `label` parts and `merge`, each under a full disk and under SIGKILL at seeded
//! random points. Every writer must fail with an error naming the file and the cause, leave
//! no partial file under a final name, keep its finished work (the rerun resumes exactly the
//! finished shards or parts there were), and end, once rerun, byte-identical to an
//! uninterrupted run.
//!
//! A full disk is a size-limited tmpfs mounted in a user and mount namespace of its own
//! (`unshare --user --map-root-user --mount`, no privileges needed): one shell runs the
//! writer on a ladder of growing sizes (each `mount -o remount,size=…`), copying the
//! folder out after each attempt, until an attempt succeeds or the last, large size. The
//! sizes are fractions of the uninterrupted output's size, so the first attempts fail after
//! some finished shards or parts, and for `eval` and `label` (whose parts and merged output
//! live side by side) later ones fail in the merge.
//!
//! The other kinds of fault tests stay where they are: hostile manifests and folders in
//! tests/selfplay_hostile.rs, resume checks of `eval` in tests/eval_resume_hostile.rs,
//! `label` killed once parts are finished in tests/label_cli.rs. The model packages of
//! `python -m dicechess.train` have their matrix in python/tests/test_fault_matrix.py.
#![allow(clippy::unwrap_used)] // a test fails by panicking
#![cfg(all(feature = "files", target_os = "linux"))]

mod common;

use common::{temp_dir, xorshift};
use dicechess::files::is_temp_name;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_dicechess");

/// One writer: its command given where its output goes, and how it resumes.
struct Writer {
    name: &'static str,
    /// The run's folder: every argument below it names an output.
    dir: PathBuf,
    /// The arguments, given the output's path.
    args: Vec<OsString>,
    resume: Resume,
}

/// What a rerun keeps of an interrupted run, and how it says so.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// Self-play: the shards its manifest lists, "(N shard(s) resumed)".
    Shards,
    /// `eval` and `label`: the parts with a matching checksum, "resuming: N finished
    /// part(s)".
    Parts,
    /// `merge`: nothing; the rerun copies every shard again (the manifest comes last, so
    /// the folder holds no run until every shard is in).
    Nothing,
    /// `analyze`: the finished games in its parts folder, "resuming: N of M games".
    Games,
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn run_ok(args: &[OsString]) -> String {
    let o = Command::new(BIN).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?}: {err}");
    err
}

/// The writer `name` with its inputs (made under `inputs`) and its output at `out`.
fn writer(name: &'static str, inputs: &Path, out: &Path) -> Writer {
    let selfplay = |dir: &Path, games: &str, shard_games: &str, slice: Option<&str>| {
        let mut a = os(&[
            "selfplay",
            "--games",
            games,
            "--shard-games",
            shard_games,
            "--white",
            "greedy",
            "--black",
            "random",
            "--seed",
            "5",
            "--threads",
            "2",
            "--out",
        ]);
        a.push(dir.into());
        if let Some(s) = slice {
            a.extend(os(&["--shard", s]));
        }
        a
    };
    let shard_input = |games: &str| {
        let dir = inputs.join(format!("positions-{games}"));
        if !dir.join("manifest.json").exists() {
            run_ok(&selfplay(&dir, games, games, None));
        }
        dir.join("shard-00000.rows.parquet").into_os_string()
    };
    let mut args;
    let (out_name, resume) = match name {
        // 30 games of a searching bot: about 0.8 s on 2 cores, 10 shards.
        "selfplay" => {
            args = os(&[
                "selfplay",
                "--games",
                "30",
                "--shard-games",
                "3",
                "--white",
                "expectimax",
                "--black",
                "greedy",
                "--seed",
                "11",
                "--threads",
                "2",
                "--out",
            ]);
            ("run", Resume::Shards)
        }
        // 3,126 positions in 25 parts of 128.
        "eval" => {
            args = vec!["eval".into(), shard_input("200")];
            args.extend(os(&[
                "--features",
                "kcp-13",
                "--evaluator",
                "material",
                "--chunk-rows",
                "128",
                "--threads",
                "2",
                "--out",
            ]));
            ("out.parquet", Resume::Parts)
        }
        // 988 positions in 16 parts of 64, about 0.9 s on 2 cores.
        "label" => {
            args = vec!["label".into(), shard_input("60")];
            args.extend(os(&[
                "--kind",
                "p1",
                "--evaluator",
                "material",
                "--chunk-rows",
                "64",
                "--threads",
                "2",
                "--out",
            ]));
            ("out.parquet", Resume::Parts)
        }
        // Two slices of 600 games in 150 shards.
        "merge" => {
            let (s0, s1) = (inputs.join("slice-0"), inputs.join("slice-1"));
            for (dir, slice) in [(&s0, "0/2"), (&s1, "1/2")] {
                if !dir.join("manifest.json").exists() {
                    run_ok(&selfplay(dir, "600", "4", Some(slice)));
                }
            }
            args = vec!["merge".into(), s0.into(), s1.into(), "--out".into()];
            ("merged", Resume::Nothing)
        }
        // 40 self-play games (greedy against random), about 1,500 turns at depth 1 on 2
        // cores: the per-turn JSON lines and the HTML report beside them.
        "analyze" => {
            let games = inputs.join("games-40");
            if !games.join("manifest.json").exists() {
                run_ok(&selfplay(&games, "40", "10", None));
            }
            args = vec!["analyze".into(), games.into_os_string()];
            args.extend(os(&["--depth", "1", "--threads", "2", "--out"]));
            args.push(out.join("report.html").into());
            args.push("--json".into());
            ("turns.jsonl", Resume::Games)
        }
        _ => unreachable!("no writer {name}"),
    };
    args.push(out.join(out_name).into());
    Writer {
        name,
        dir: out.to_owned(),
        args,
        resume,
    }
}

/// Every file below `dir` by its path relative to `dir`, hidden temporaries apart.
struct Tree {
    files: BTreeMap<String, Vec<u8>>,
    temporaries: Vec<String>,
}

fn tree(dir: &Path) -> Tree {
    fn walk(root: &Path, dir: &Path, t: &mut Tree) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let e = e.unwrap();
            let path = e.path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                walk(root, &path, t);
            } else if is_temp_name(&name) {
                t.temporaries.push(rel);
            } else {
                t.files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut t = Tree {
        files: BTreeMap::new(),
        temporaries: Vec::new(),
    };
    walk(dir, dir, &mut t);
    t
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The rows of a Parquet part and the row count its footer key `dicechess.part` claims.
fn part_rows(path: &Path) -> Option<(u64, u64)> {
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).ok()?).ok()?;
    let claimed = b
        .metadata()
        .file_metadata()
        .key_value_metadata()?
        .iter()
        .find(|kv| kv.key == "dicechess.part")?
        .value
        .as_deref()
        .and_then(|v| serde_json::from_str::<Value>(v).ok())?["rows"]
        .as_u64()?;
    let mut rows = 0;
    for batch in b.build().ok()? {
        rows += batch.ok()?.num_rows() as u64;
    }
    Some((rows, claimed))
}

/// Check what an interrupted run left in `dir` against the uninterrupted run's files
/// (`reference`, same relative names): every file under a final name is complete (byte-equal
/// to the reference's file of that name, or, in a `.parts` folder, a readable part holding
/// the rows its footer claims, a checksum equal to its part's, a `run.json`), a manifest
/// lists only the reference's shards (each with its files there), and no temporary is left
/// unless `temporaries_allowed` (a killed run's). Returns the finished units a rerun must
/// resume: the manifest's shards, or the parts with a matching checksum.
fn check_left(
    w: &Writer,
    dir: &Path,
    reference: &Tree,
    temporaries_allowed: bool,
    what: &str,
) -> usize {
    let t = tree(dir);
    assert!(
        temporaries_allowed || t.temporaries.is_empty(),
        "{} {what}: a failed run left temporaries {:?}",
        w.name,
        t.temporaries
    );
    let mut finished = 0;
    for (name, bytes) in &t.files {
        let file = Path::new(name).file_name().unwrap().to_string_lossy();
        if name.contains(".parts/") {
            if file == "run.json" {
                serde_json::from_slice::<Value>(bytes)
                    .unwrap_or_else(|e| panic!("{} {what}: {name} is not JSON: {e}", w.name));
            } else if file.starts_with("game-") && file.ends_with(".json") {
                // `analyze`: one finished game, whole (it was renamed into place).
                serde_json::from_slice::<Value>(bytes)
                    .unwrap_or_else(|e| panic!("{} {what}: {name} is not whole: {e}", w.name));
                finished += 1;
            } else if let Some(stem) = file.strip_suffix(".parquet") {
                let (rows, claimed) = part_rows(&dir.join(name))
                    .unwrap_or_else(|| panic!("{} {what}: {name} is not a whole part", w.name));
                assert_eq!(rows, claimed, "{} {what}: {name}", w.name);
                let sum = name.replace(&file.to_string(), &format!("{stem}.sha256"));
                if let Some(sum) = t.files.get(&sum) {
                    assert_eq!(
                        String::from_utf8_lossy(sum).trim(),
                        sha256_hex(bytes),
                        "{} {what}: {name}'s checksum",
                        w.name
                    );
                    finished += 1;
                }
            } else {
                assert!(
                    file.ends_with(".sha256") && bytes.len() == 65,
                    "{} {what}: unexpected {name}",
                    w.name
                );
            }
        } else if file == "manifest.json" {
            let got: Value = serde_json::from_slice(bytes).unwrap();
            let want: Value = serde_json::from_slice(&reference.files[name]).unwrap();
            let shards = got["shards"].as_array().unwrap();
            for s in shards {
                assert!(
                    want["shards"].as_array().unwrap().contains(s),
                    "{} {what}: {name} lists a shard the run does not write: {s}",
                    w.name
                );
                for f in s["files"].as_object().unwrap().keys() {
                    let f = name.replace("manifest.json", f);
                    assert!(
                        t.files.contains_key(&f),
                        "{} {what}: {name} lists {f}, which is gone",
                        w.name
                    );
                }
            }
            let strip = |v: &Value| {
                let mut v = v.clone();
                v.as_object_mut().unwrap().remove("shards");
                v
            };
            assert_eq!(strip(&got), strip(&want), "{} {what}: {name}", w.name);
            if w.resume == Resume::Shards {
                finished += shards.len();
            }
        } else {
            let want = reference
                .files
                .get(name)
                .unwrap_or_else(|| panic!("{} {what}: unexpected file {name}", w.name));
            assert!(
                bytes == want,
                "{} {what}: {name} ({} bytes) is not the uninterrupted run's ({} bytes)",
                w.name,
                bytes.len(),
                want.len()
            );
        }
    }
    finished
}

/// The finished units a run's stderr says it resumed.
fn resumed(w: &Writer, stderr: &str) -> Option<usize> {
    let number_before = |text: &str, marker: &str| -> Option<usize> {
        let at = text.find(marker)?;
        text[..at].rsplit(['(', ' ']).next()?.parse().ok()
    };
    match w.resume {
        Resume::Shards => number_before(stderr, " shard(s) resumed"),
        // Said only when there are some: a finished run without the line resumed none.
        Resume::Parts => number_before(stderr, " finished part(s)")
            .or_else(|| stderr.contains(" rows written to ").then_some(0)),
        Resume::Nothing => None,
        Resume::Games => number_before(stderr, " of ")
            .filter(|_| stderr.contains("resuming: "))
            .or_else(|| stderr.contains(" games analysed (").then_some(0)),
    }
}

/// The uninterrupted run in `dir`: its files and how long it took.
fn reference(w: &Writer, dir: &Path) -> (Tree, Duration) {
    let t = Instant::now();
    let args = w
        .args
        .iter()
        .map(|a| match Path::new(a).strip_prefix(&w.dir) {
            Ok(rel) => dir.join(rel).into_os_string(),
            _ => a.clone(),
        })
        .collect::<Vec<_>>();
    std::fs::create_dir_all(dir).unwrap();
    run_ok(&args);
    let took = t.elapsed();
    (tree(dir), took)
}

/// The ladder's shell: mount a tmpfs over `$MNT` at the first size, then for each size of
/// `$SIZES` (KiB) grow it to that size and run the writer (`"$@"`), keeping its exit status
/// and standard error and a copy of the folder in `$LOG/<attempt>`; stop after the first
/// success.
const LADDER: &str = r#"
set -u
first=${SIZES%% *}
mount -t tmpfs -o "size=${first}k" tmpfs "$MNT" || exit 97
i=0
for size in $SIZES; do
    mount -o "remount,size=${size}k" "$MNT" || exit 98
    "$@" >/dev/null 2>"$LOG/$i.err"
    rc=$?
    echo "$rc" >"$LOG/$i.rc"
    cp -a "$MNT" "$LOG/$i.tree" || exit 99
    i=$((i + 1))
    [ "$rc" = 0 ] && break
done
exit 0
"#;

/// A writer under a full disk: fails cleanly on each size of the ladder, keeps its finished
/// work, and ends byte-identical to the uninterrupted run. Returns the table rows (size,
/// exit status, the error's first line).
fn full_disk(name: &'static str) -> Vec<(u64, i32, String)> {
    let d = temp_dir(&format!("full-{name}"));
    let (mnt, log) = (d.join("mnt"), d.join("log"));
    std::fs::create_dir_all(&mnt).unwrap();
    std::fs::create_dir_all(&log).unwrap();
    let w = writer(name, &d.join("inputs"), &mnt);
    let (want, _) = reference(&w, &d.join("reference"));
    // tmpfs counts whole pages. `eval` and `label` hold their parts (each with a checksum
    // file of one page) beside the merged output: they need up to about 4 times the
    // output's pages. Steps of at most half the output's pages: one of them falls in the
    // merge, between all parts in and parts plus output.
    let pages_kib: u64 = want
        .files
        .values()
        .map(|b| b.len().div_ceil(4096) as u64 * 4)
        .sum();
    let quarters = (1..=12).chain((14..=24).step_by(2));
    let mut sizes: Vec<u64> = quarters
        .map(|q: u64| (pages_kib * q / 4).div_ceil(4) * 4)
        .collect();
    sizes.push(64 << 10);
    sizes.dedup();
    let sizes_text = sizes
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let o = Command::new("unshare")
        .args([
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            LADDER,
            "sh",
        ])
        .arg(BIN)
        .args(&w.args)
        .env("MNT", &mnt)
        .env("LOG", &log)
        .env("SIZES", &sizes_text)
        .output()
        .expect("run unshare (util-linux)");
    assert!(
        o.status.success(),
        "the full-disk ladder needs `unshare --user --map-root-user --mount` (user \
         namespaces) and tmpfs mounts in it: exit {:?}, {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );

    let mut rows = Vec::new();
    let mut expect_resumed: Option<usize> = None;
    for (i, &size) in sizes.iter().enumerate() {
        let Ok(rc) = std::fs::read_to_string(log.join(format!("{i}.rc"))) else {
            break;
        };
        let rc: i32 = rc.trim().parse().unwrap();
        let err = std::fs::read_to_string(log.join(format!("{i}.err"))).unwrap();
        let left = log.join(format!("{i}.tree"));
        let first = err.lines().find(|l| l.starts_with("error:")).unwrap_or("");
        rows.push((size, rc, first.to_owned()));
        if let (Some(n), Some(got)) = (expect_resumed, resumed(&w, &err)) {
            assert_eq!(
                got, n,
                "{name} at {size} KiB: resumed {got}, but {n} were finished: {err}"
            );
        }
        if rc == 0 {
            let got = tree(&left);
            assert!(got.temporaries.is_empty(), "{:?}", got.temporaries);
            let names = |t: &Tree| t.files.keys().cloned().collect::<Vec<_>>();
            assert_eq!(names(&got), names(&want), "{name}: the files differ");
            for (f, bytes) in &got.files {
                assert!(
                    bytes == &want.files[f],
                    "{name}: {f} differs from the uninterrupted run's"
                );
            }
            // Every attempt before this one failed.
            assert!(i >= 2, "{name}: only {i} failed attempt(s)");
            return rows;
        }
        assert_eq!(
            rc, 1,
            "{name} at {size} KiB: a full disk is not bad input: {err}"
        );
        assert!(
            first.contains("No space left on device"),
            "{name} at {size} KiB: {err}"
        );
        // The error names the file: its path in the mount, a name the writer writes.
        let path = first
            .split_whitespace()
            .find(|t| t.starts_with(mnt.to_str().unwrap()))
            .unwrap_or_else(|| panic!("{name} at {size} KiB names no file: {first}"))
            .trim_end_matches(':');
        let file = Path::new(path).file_name().unwrap().to_string_lossy();
        assert!(
            want.files.keys().any(|f| f.ends_with(&*file))
                || ((file.starts_with("part-") || file.starts_with("game-"))
                    && path.contains(".parts/"))
                || file == "manifest.json"
                || file == "run.json",
            "{name} at {size} KiB names {path}, not one of its files"
        );
        expect_resumed = Some(check_left(
            &w,
            &left,
            &want,
            false,
            &format!("at {size} KiB"),
        ));
    }
    panic!("{name}: no attempt succeeded: {rows:?}");
}

/// A writer killed (SIGKILL) three times at seeded random points of its run, each rerun
/// resuming the last, then run to the end: after each kill every file under a final name is
/// complete, the next run resumes every finished unit, and the end is byte-identical to the
/// uninterrupted run. Returns (the delays in ms, how many kills hit a running writer, the
/// temporaries killed runs left).
fn sigkill(name: &'static str, seed: u64) -> (Vec<u64>, usize, usize) {
    let d = temp_dir(&format!("kill-{name}"));
    let run = d.join("run");
    std::fs::create_dir_all(&run).unwrap();
    let w = writer(name, &d.join("inputs"), &run);
    let (want, took) = reference(&w, &d.join("reference"));
    let mut rng = xorshift(seed);
    let mut delays = Vec::new();
    let mut hits = 0;
    let mut expect_resumed: Option<usize> = None;
    for k in 0..3 {
        // A point within the first 10..70 % of an uninterrupted run.
        let frac = 0.1 + 0.6 * (rng() % 1000) as f64 / 1000.0;
        let delay = took.mul_f64(frac);
        delays.push(delay.as_millis() as u64);
        let err_path = d.join(format!("kill-{k}.err"));
        let mut child = Command::new(BIN)
            .args(&w.args)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&err_path).unwrap())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let finished = child.try_wait().unwrap();
        if finished.is_none() {
            child.kill().unwrap();
            hits += 1;
        }
        let status = child.wait().unwrap();
        let err = std::fs::read_to_string(&err_path).unwrap();
        if finished.is_some() {
            assert!(status.success(), "{name}: {err}");
        }
        // Parts are reported as the run starts (when there are some), shards at its end: a
        // run killed before it said anything is not checked.
        if let (Some(n), Some(got)) = (expect_resumed, resumed(&w, &err)) {
            assert_eq!(got, n, "{name}: kill {k}: resumed {got} of {n}: {err}");
        }
        let n = check_left(&w, &run, &want, true, &format!("after kill {k}"));
        expect_resumed = Some(n);
        if finished.is_some() {
            break;
        }
    }
    assert!(hits >= 1, "{name}: no kill hit the running writer");
    let o = Command::new(BIN).args(&w.args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{name}: the rerun failed: {err}");
    if let (Some(n), Some(got)) = (expect_resumed, resumed(&w, &err)) {
        assert_eq!(got, n, "{name}: the rerun resumed {got} of {n}: {err}");
    }
    let got = tree(&run);
    let names = |t: &Tree| t.files.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want), "{name}: the files differ");
    for (f, bytes) in &got.files {
        assert!(
            bytes == &want.files[f],
            "{name}: {f} differs from the uninterrupted run's"
        );
    }
    (delays, hits, got.temporaries.len())
}

fn print_full_disk(name: &str, rows: &[(u64, i32, String)]) {
    for (size, rc, err) in rows {
        eprintln!("{name} full disk {size} KiB: exit {rc} {err}");
    }
}

#[test]
fn selfplay_full_disk() {
    let rows = full_disk("selfplay");
    print_full_disk("selfplay", &rows);
}

#[test]
fn selfplay_sigkill() {
    let r = sigkill("selfplay", 0x5e1f);
    eprintln!(
        "selfplay SIGKILL after {:?} ms: {} hit, {} temporaries left",
        r.0, r.1, r.2
    );
}

#[test]
fn eval_full_disk() {
    let rows = full_disk("eval");
    print_full_disk("eval", &rows);
    // Some attempt failed in the merge, after every part was in.
    assert!(
        rows.iter()
            .any(|(_, _, e)| e.contains("/out.parquet: ") && !e.contains(".parts/")),
        "{rows:?}"
    );
}

#[test]
fn eval_sigkill() {
    let r = sigkill("eval", 0xe7a1);
    eprintln!(
        "eval SIGKILL after {:?} ms: {} hit, {} temporaries left",
        r.0, r.1, r.2
    );
}

#[test]
fn label_full_disk() {
    let rows = full_disk("label");
    print_full_disk("label", &rows);
    assert!(
        rows.iter()
            .any(|(_, _, e)| e.contains("/out.parquet: ") && !e.contains(".parts/")),
        "{rows:?}"
    );
}

#[test]
fn label_sigkill() {
    let r = sigkill("label", 0x1abe1);
    eprintln!(
        "label SIGKILL after {:?} ms: {} hit, {} temporaries left",
        r.0, r.1, r.2
    );
}

#[test]
fn merge_full_disk() {
    let rows = full_disk("merge");
    print_full_disk("merge", &rows);
}

#[test]
fn merge_sigkill() {
    let r = sigkill("merge", 0x3e7e);
    eprintln!(
        "merge SIGKILL after {:?} ms: {} hit, {} temporaries left",
        r.0, r.1, r.2
    );
}

#[test]
fn analyze_full_disk() {
    let rows = full_disk("analyze");
    print_full_disk("analyze", &rows);
}

#[test]
fn analyze_sigkill() {
    let r = sigkill("analyze", 0xa7a1);
    eprintln!(
        "analyze SIGKILL after {:?} ms: {} hit, {} temporaries left",
        r.0, r.1, r.2
    );
}
