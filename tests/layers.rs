//! The one-way rule of docs/architecture.md, read from the source: a module of `src/` names
//! only modules of layers below its own (`crate::x` paths, in `use` lines and inline), and
//! no two files import each other round a circle.
//!
//! The reader is textual (comments and strings skipped line by line, `crate::{a, b}` groups
//! expanded), which is enough for this code base's import style; the tests below also check
//! the reader itself on small inputs, so a reader that sees nothing cannot pass.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers from the bottom up (docs/architecture.md "Layout"): a module may import from
/// any module of a lower layer, never from its own layer's other modules or from above.
const LAYERS: &[&[&str]] = &[
    &["digest"],
    &["board"],
    &["rules"],
    &["probe", "tablebase"],
    &["batch", "files"],
    &["eval"],
    &["search"],
    &["bots"],
    &["pipeline", "selfplay", "serve"],
    &["analysis", "play"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The code of a line: `//` comments dropped, string literals blanked.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
                out.push('"');
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            break;
        }
        if c == '"' {
            in_str = true;
        }
        out.push(c);
    }
    out
}

/// Every `crate::…` path a text names, as its segments (`crate::{a::b, c}` gives `[a, b]`
/// and `[c]`; a group stops a path at the brace).
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let code: String = text.lines().map(code_of).collect::<Vec<_>>().join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `dicechess_crate::` or similar, not our crate
        }
        paths.extend(paths_at(rest));
    }
    paths
}

/// The paths that start at `s` (just after `crate::` or inside a group).
fn paths_at(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        let mut out = Vec::new();
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.extend(paths_at(&inner[start..i]));
                    return out;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(paths_at(&inner[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return out;
    }
    let mut segs = Vec::new();
    let mut cur = s;
    loop {
        let end = cur
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(cur.len());
        if end == 0 {
            break;
        }
        segs.push(cur[..end].to_owned());
        match cur[end..].strip_prefix("::") {
            Some(next) if next.starts_with('{') => {
                let mut out = Vec::new();
                for tail in paths_at(next) {
                    let mut p = segs.clone();
                    p.extend(tail);
                    out.push(p);
                }
                return if out.is_empty() { vec![segs] } else { out };
            }
            Some(next) => cur = next,
            None => break,
        }
    }
    if segs.is_empty() {
        vec![]
    } else {
        vec![segs]
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/ is readable") {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a file of `src/` belongs to (`None` for lib.rs and main.rs).
fn module_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?.to_owned();
    match first.as_str() {
        "lib.rs" | "main.rs" => None,
        f => Some(f.trim_end_matches(".rs").to_owned()),
    }
}

/// The file a module path names: the deepest `src/a/b.rs` or `src/a/b/…` leaf file the
/// path walks through, or `None` where it stops at a folder's `mod.rs` (a re-export hub,
/// which every child names through `super`, so edges to it would be circles by design).
fn file_of(segments: &[String]) -> Option<PathBuf> {
    let mut dir = src();
    for seg in segments {
        let file = dir.join(format!("{seg}.rs"));
        let folder = dir.join(seg);
        if file.is_file() {
            return Some(file);
        }
        if folder.is_dir() {
            dir = folder;
            continue;
        }
        return None;
    }
    None
}

/// The edges of one file to other leaf files: `crate::` paths resolved to files, and
/// `super::x` naming a sibling file `x.rs` (or a file inside sibling folder `x`).
fn file_edges(file: &Path, text: &str) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for p in crate_paths(text) {
        if let Some(f) = file_of(&p) {
            out.insert(f);
        }
    }
    let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
    if !is_mod {
        let parent = file.parent().expect("a file has a folder");
        let code: String = text.lines().map(code_of).collect::<Vec<_>>().join("\n");
        let mut rest = code.as_str();
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + "super::".len()..];
            for segs in paths_at(rest) {
                let mut dir = parent.to_path_buf();
                for seg in &segs {
                    let f = dir.join(format!("{seg}.rs"));
                    if f.is_file() {
                        out.insert(f);
                        break;
                    }
                    if dir.join(seg).is_dir() {
                        dir = dir.join(seg);
                    } else {
                        break;
                    }
                }
            }
        }
    }
    out.remove(file);
    out
}

#[test]
fn the_reader_sees_paths_groups_and_skips_comments() {
    let text = "use crate::eval::{Material, score::{A, B}};\n\
                let x = crate::rules::ROLLS; // crate::cli::nope\n\
                let s = \"crate::serve::nope\";\n\
                use crate::{board::Position, files};\n";
    let got: Vec<String> = crate_paths(text).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        got,
        [
            "eval::Material",
            "eval::score::A",
            "eval::score::B",
            "rules::ROLLS",
            "board::Position",
            "files"
        ]
    );
}

#[test]
fn every_import_points_down_a_layer() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut seen = 0;
    for f in &files {
        let Some(module) = module_of(f) else { continue };
        let from = layer_of(&module)
            .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"));
        let text = std::fs::read_to_string(f).expect("readable");
        for p in crate_paths(&text) {
            let to_mod = &p[0];
            if *to_mod == module {
                continue;
            }
            seen += 1;
            let Some(to) = layer_of(to_mod) else { continue }; // a re-export at the crate root
            if to >= from {
                upward.push(format!(
                    "{} ({module}, layer {from}) names crate::{} (layer {to})",
                    f.strip_prefix(src()).expect("under src").display(),
                    p.join("::")
                ));
            }
        }
    }
    assert!(
        seen > 100,
        "only {seen} cross-module paths read: the reader is broken"
    );
    assert!(
        upward.is_empty(),
        "imports that do not point down:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_two_files_import_each_other_round_a_circle() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        graph.insert(f.clone(), file_edges(f, &text));
    }
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(
        edges > 100,
        "only {edges} file edges read: the reader is broken"
    );
    // Depth-first search with colours: grey on the stack, black done.
    let mut colour: BTreeMap<&Path, u8> = BTreeMap::new();
    let mut circles = Vec::new();
    fn visit<'a>(
        n: &'a Path,
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        colour: &mut BTreeMap<&'a Path, u8>,
        stack: &mut Vec<&'a Path>,
        circles: &mut Vec<String>,
    ) {
        colour.insert(n, 1);
        stack.push(n);
        for m in graph.get(n).into_iter().flatten() {
            match colour.get(m.as_path()).copied().unwrap_or(0) {
                0 => visit(m, graph, colour, stack, circles),
                1 => {
                    let at = stack.iter().position(|s| *s == m.as_path()).unwrap_or(0);
                    let names: Vec<String> = stack[at..]
                        .iter()
                        .map(|p| p.strip_prefix(src()).unwrap_or(p).display().to_string())
                        .collect();
                    circles.push(names.join(" -> "));
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(n, 2);
    }
    for f in graph.keys() {
        if colour.get(f.as_path()).copied().unwrap_or(0) == 0 {
            visit(f, &graph, &mut colour, &mut Vec::new(), &mut circles);
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_circle_check_finds_a_circle_of_siblings() {
    // Two sibling files of a real folder naming each other through `super`: the edges the
    // circle check follows.
    let dir = src().join("files").join("input");
    let a = dir.join("record.rs");
    let edges = file_edges(
        &a,
        "use super::v0_shard::RawBase;\nuse crate::rules::rolls::ROLLS;\n",
    );
    assert!(edges.contains(&dir.join("v0_shard.rs")), "{edges:?}");
    assert!(
        edges.contains(&src().join("rules").join("rolls.rs")),
        "{edges:?}"
    );
}
