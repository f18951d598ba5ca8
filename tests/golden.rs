//! `dicechess golden` against the training pipeline's own golden corpora and the rules its
//! readers apply (`fortemate/dicechess-training`: `contracts/kcp13.py` `load_golden`,
//! `twin_fen`, `material_block`; `tests/test_kcp13_contract.py`, `tests/test_kcp_contracts.py`;
//! `dataset/export.py`'s golden check). Their corpora are copied unchanged into
//! `tests/fixtures/pipeline/` (SOURCE.md); every rule below is written from their code, not
//! from our output.
#![allow(clippy::unwrap_used)]

mod common;

use common::temp_dir;
use dicechess::eval::features::{
    parse_probes_tsv, pipeline_probes, schema_or_err, EngineIdentity, GoldenCorpus, GoldenProbe,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pipeline");

/// Every corpus the pipeline ships, by file.
const THEIR_CORPORA: [&str; 6] = [
    "kcp13/golden-engine-0.9.2.json",
    "kcp13/golden-engine-0.9.3.json",
    "kcp13/golden-engine-0.12.0.json",
    "kcp_mobility27/golden-engine-0.9.3.json",
    "kcp_mobility_pawns31/golden-engine-0.9.3.json",
    "rich9/golden-engine-0.12.0.json",
];

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(FIXTURES).join(rel)).unwrap()
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap()
}

/// A corpus file's probes (id, fen, tags, note).
fn probes_of(corpus: &Value) -> Vec<GoldenProbe> {
    corpus["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| GoldenProbe {
            id: p["id"].as_str().unwrap().to_owned(),
            fen: p["fen"].as_str().unwrap().to_owned(),
            tags: p["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_owned())
                .collect(),
            note: p["note"].as_str().unwrap().to_owned(),
        })
        .collect()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

fn identity_of(corpus: &Value) -> EngineIdentity {
    EngineIdentity {
        version: corpus["engineVersion"].as_str().unwrap().to_owned(),
        artifact: corpus["engineArtifact"].as_str().unwrap().to_owned(),
        generator: corpus["generator"].as_str().unwrap().to_owned(),
    }
}

#[test]
fn our_features_equal_every_corpus_the_pipeline_ships_bit_for_bit() {
    for rel in THEIR_CORPORA {
        let theirs = json(rel);
        let schema = schema_or_err(theirs["schema"].as_str().unwrap()).unwrap();
        let probes = probes_of(&theirs);
        let ours = GoldenCorpus::build(schema, &probes, EngineIdentity::this_engine()).unwrap();
        assert_eq!(ours.rows.len(), probes.len(), "{rel}");
        let columns: Vec<&str> = theirs["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(ours.columns, &columns[..], "{rel}: column layout");
        for (row, p) in ours.rows.iter().zip(theirs["probes"].as_array().unwrap()) {
            let want = floats(&p["features"]);
            let same = row.features.len() == want.len()
                && row
                    .features
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(
                same,
                "{rel} {}: {:?} != {want:?}",
                row.probe.id, row.features
            );
            assert_eq!(row.side.to_string(), p["side"].as_str().unwrap());
        }
    }
}

#[test]
fn our_file_is_their_file_but_for_the_engine_identity() {
    // Same probes, same layout, same number formatting: with their identity lines our writer
    // reproduces their files byte for byte.
    for rel in THEIR_CORPORA {
        let text = read(rel);
        let theirs: Value = serde_json::from_str(&text).unwrap();
        let schema = schema_or_err(theirs["schema"].as_str().unwrap()).unwrap();
        let corpus =
            GoldenCorpus::build(schema, &probes_of(&theirs), identity_of(&theirs)).unwrap();
        assert_eq!(corpus.to_json(), text, "{rel}");
    }
}

/// The checks of their `load_golden` (kcp13.py, kcp_mobility27.py, …), on a file's text.
fn load_golden(text: &str, schema_id: &str, contract_columns: &[Value]) -> Result<(), String> {
    let raw: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if raw["schema"] != schema_id {
        return Err(format!("schema {} != {schema_id}", raw["schema"]));
    }
    if raw["perspective"] != "side-to-move" {
        return Err("perspective".into());
    }
    if raw["columns"].as_array().map(Vec::as_slice) != Some(contract_columns) {
        return Err("column layout".into());
    }
    let probes = raw["probes"].as_array().ok_or("probes")?;
    let mut ids = std::collections::HashSet::new();
    for p in probes {
        let f = p["features"].as_array().ok_or("features")?;
        if f.len() != contract_columns.len()
            || !f.iter().all(|x| x.as_f64().is_some_and(f64::is_finite))
        {
            return Err(format!("probe {}: invalid feature vector", p["id"]));
        }
        if p["side"] != "w" && p["side"] != "b" {
            return Err(format!("probe {} has side {}", p["id"], p["side"]));
        }
        if !ids.insert(p["id"].as_str().ok_or("id")?.to_owned()) {
            return Err("duplicate probe ids".into());
        }
    }
    if probes.is_empty() {
        return Err("no probes".into());
    }
    for key in ["engineVersion", "engineArtifact"] {
        raw[key].as_str().ok_or(key)?;
    }
    Ok(())
}

/// Their `twin_fen`: the colour-swapped rank mirror with the side to move flipped.
fn twin_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_owned()
    } else {
        let mut c: Vec<char> = swap(f[2]).chars().collect();
        c.sort_unstable();
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_owned()
    } else {
        let rank = f[3][1..].parse::<u8>().unwrap();
        format!("{}{}", &f[3][..1], 9 - rank)
    };
    let mut out = vec![placement.join("/"), side.to_owned(), castling, ep];
    out.extend(f[4..].iter().map(|s| (*s).to_owned()));
    out.join(" ")
}

/// Their `material_block`: the seven material columns from the mover's view.
fn material_block(fen: &str, side: &str) -> [f32; 7] {
    let placement = fen.split_whitespace().next().unwrap();
    let count = |c: char| placement.chars().filter(|&x| x == c).count() as f32;
    let values = [1.0, 3.0, 3.0, 5.0, 9.0];
    let (mut own, mut opp) = ([0.0f32; 5], [0.0f32; 5]);
    for (i, p) in "PNBRQ".chars().enumerate() {
        let (w, b) = (count(p), count(p.to_ascii_lowercase()));
        (own[i], opp[i]) = if side == "w" { (w, b) } else { (b, w) };
    }
    let mat = |s: &[f32; 5]| s.iter().zip(values).map(|(n, v)| n * v).sum::<f32>();
    [
        own[0] - opp[0],
        own[1] - opp[1],
        own[2] - opp[2],
        own[3] - opp[3],
        own[4] - opp[4],
        mat(&own) - mat(&opp),
        mat(&own) + mat(&opp),
    ]
}

fn dicechess(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_command_writes_corpora_their_readers_load_with_our_identity() {
    for (schema, rel) in [
        ("kcp-13", "kcp13/golden-engine-0.12.0.json"),
        (
            "kcp-mobility-27-v1",
            "kcp_mobility27/golden-engine-0.9.3.json",
        ),
        (
            "kcp-mobility-pawns-31-v1",
            "kcp_mobility_pawns31/golden-engine-0.9.3.json",
        ),
        ("rich-9-v1", "rich9/golden-engine-0.12.0.json"),
    ] {
        let o = dicechess(&["golden", "--schema", schema]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let theirs = json(rel);
        load_golden(&text, schema, theirs["columns"].as_array().unwrap()).unwrap();
        let ours: Value = serde_json::from_str(&text).unwrap();
        // Our identity, never theirs.
        assert_eq!(ours["engineVersion"], env!("CARGO_PKG_VERSION"));
        assert!(!ours["engineArtifact"]
            .as_str()
            .unwrap()
            .contains("fortemate"));
        for t in THEIR_CORPORA {
            assert_ne!(json(t)["engineArtifact"], ours["engineArtifact"]);
        }
        // Their invariants: twins equal their base, the material block matches the FEN,
        // the canonicalisation pairs are equal.
        let probes = ours["probes"].as_array().unwrap();
        let by_id = |id: &str| probes.iter().find(|p| p["id"] == id).unwrap();
        let twins: Vec<&Value> = probes
            .iter()
            .filter(|p| p["id"].as_str().unwrap().ends_with("-twin"))
            .collect();
        assert!(twins.len() >= 9);
        for twin in twins {
            let base = by_id(twin["id"].as_str().unwrap().strip_suffix("-twin").unwrap());
            assert_eq!(twin_fen(base["fen"].as_str().unwrap()), twin["fen"]);
            assert_ne!(twin["side"], base["side"]);
            assert_eq!(twin["features"], base["features"], "{}", twin["id"]);
        }
        for p in probes {
            let f = floats(&p["features"]);
            let m = material_block(p["fen"].as_str().unwrap(), p["side"].as_str().unwrap());
            assert_eq!(&f[..7], &m[..], "{} {}", schema, p["id"]);
        }
        for (a, b) in [
            ("start-w", "start-w-6field"),
            ("start-w", "start-b"),
            ("ep-e6-w", "ep-none-w"),
        ] {
            assert_eq!(by_id(a)["features"], by_id(b)["features"]);
        }
    }
}

#[test]
fn the_builtin_probe_list_is_the_pipelines_latest_and_their_tsv_reads() {
    // Our default list: the probes of their latest corpus, in order, with tags and notes.
    let latest = probes_of(&json("kcp13/golden-engine-0.12.0.json"));
    assert_eq!(pipeline_probes(), latest);
    // Their probes.tsv (the list of their default corpus, 0.9.2) reads with our reader:
    // same ids and FENs in the same order (their test_golden_probes_are_read_from_the_committed_tsv).
    let tsv = parse_probes_tsv(&read("kcp13/probes.tsv")).unwrap();
    let default = probes_of(&json("kcp13/golden-engine-0.9.2.json"));
    let ids = |v: &[GoldenProbe]| {
        v.iter()
            .map(|p| (p.id.clone(), p.fen.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&tsv), ids(&default));
}

#[test]
fn a_pipeline_checkout_gets_the_file_its_export_looks_for() {
    let dir = temp_dir("golden-checkout");
    let version = env!("CARGO_PKG_VERSION");
    // Their export: golden_path(engine_ver) = GOLDEN_DIR / f"golden-engine-{engine_ver}.json"
    // with GOLDEN_DIR = <checkout>/tests/fixtures/kcp13; missing → "no committed golden corpus
    // fixture found for engine version …".
    let golden_path: PathBuf =
        dir.join(format!("tests/fixtures/kcp13/golden-engine-{version}.json"));
    assert!(!golden_path.is_file());
    let checkout = dir.to_str().unwrap();
    let o = dicechess(&["golden", "--pipeline-checkout", checkout]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(golden_path.is_file());
    let theirs = json("kcp13/golden-engine-0.12.0.json");
    load_golden(
        &std::fs::read_to_string(&golden_path).unwrap(),
        "kcp-13",
        theirs["columns"].as_array().unwrap(),
    )
    .unwrap();
    // Rerunning is idempotent; a different file there is never replaced.
    assert!(dicechess(&["golden", "--pipeline-checkout", checkout])
        .status
        .success());
    std::fs::write(&golden_path, "{}").unwrap();
    let o = dicechess(&["golden", "--pipeline-checkout", checkout]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists with other contents"));
    assert_eq!(std::fs::read_to_string(&golden_path).unwrap(), "{}");
    // The other contracts' folders.
    let o = dicechess(&[
        "golden",
        "--schema",
        "kcp-mobility-27-v1",
        "--pipeline-checkout",
        checkout,
    ]);
    assert!(o.status.success());
    assert!(dir
        .join(format!(
            "tests/fixtures/kcp_mobility27/golden-engine-{version}.json"
        ))
        .is_file());
    // A schema the pipeline has no corpora for is named.
    let o = dicechess(&[
        "golden",
        "--schema",
        "raw-board-768-v1",
        "--pipeline-checkout",
        checkout,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("no golden corpora for schema raw-board-768-v1"));
}

#[test]
fn bad_probe_files_and_schemas_are_named() {
    let dir = temp_dir("golden-bad");
    let probes = dir.join("probes.tsv");
    std::fs::write(&probes, "id\tfen\ttags\tnote\nok\t4k3/8/8/8/8/8/8/4K3 w - -\t\t\nbad\t4k3/8/8/8/8/8/8/4K3 x - -\t\t\n").unwrap();
    let o = dicechess(&["golden", "--probes", probes.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        err.contains("probe \"bad\"") && err.contains("side"),
        "{err}"
    );
    std::fs::write(
        &probes,
        "id\tfen\ttags\tnote\nshort\t4k3/8/8/8/8/8/8/4K3 w - -\n",
    )
    .unwrap();
    let o = dicechess(&["golden", "--probes", probes.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("probes line 2: expected 4 tab-separated fields"));
    let o = dicechess(&["golden", "--schema", "kcp-14"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("kcp-14"));
}
