//! Golden corpora in the training pipeline's format (`fortemate/dicechess-training`,
//! `tests/fixtures/<contract>/golden-engine-<version>.json`, read by its contracts'
//! `load_golden`): a probe list (id, FEN, tags, note), and for each probe the feature row of
//! one schema from the side to move's view, stamped with **this** engine's identity.
//!
//! The pipeline's dataset export refuses shards of an engine version it has no golden corpus
//! for; [`GoldenCorpus::to_json`] writes the file a pipeline user commits to register ours
//! (docs/data-formats.md, "Registering this engine with the pipeline"). The corpus carries our
//! `engineVersion` and `engineArtifact`: relabelling our files with another engine's version
//! would make the pipeline trust values it never checked.
//!
//! [`pipeline_probes`] is the pipeline's own probe list (the 27 probes of its latest corpora,
//! in their order, as `golden_probes.tsv` beside this file); [`parse_probes_tsv`] reads another
//! list in its `probes.tsv` format (`id`, `fen`, `tags`, `note`, tab-separated, header first).

use super::{FeatureSchema, Perspective};
use crate::board::{DfenError, Position};
use std::collections::HashSet;
use std::fmt::Write as _;

/// The pipeline's probe list, in its `probes.tsv` format.
const PIPELINE_PROBES_TSV: &str = include_str!("golden_probes.tsv");

/// The header line of a `probes.tsv`.
const PROBES_HEADER: &str = "id\tfen\ttags\tnote";

/// What the pipeline's readers require of a corpus file's `perspective`.
const PERSPECTIVE: &str = "side-to-move";

/// One probe: a position by FEN, with the pipeline's id, tags and note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenProbe {
    /// Unique id, e.g. `start-w`; a twin is its base's id plus `-twin`.
    pub id: String,
    /// Four- or six-field FEN (no dice), written to the corpus as given.
    pub fen: String,
    /// Tags, e.g. `["opening", "symmetric"]`.
    pub tags: Vec<String>,
    /// Free text.
    pub note: String,
}

/// Why a probe list or a corpus could not be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum GoldenError {
    /// The first line is not the `probes.tsv` header.
    #[error("probes: the first line must be the header \"id<TAB>fen<TAB>tags<TAB>note\", found {found:?}")]
    Header {
        /// The first line as read.
        found: String,
    },
    /// A line does not have the four tab-separated fields.
    #[error(
        "probes line {line}: expected 4 tab-separated fields (id, fen, tags, note), found {found}"
    )]
    Fields {
        /// 1-based line number.
        line: usize,
        /// How many fields it had.
        found: usize,
    },
    /// A probe id is empty or has whitespace.
    #[error("probes line {line}: id {id:?} must be non-empty without whitespace")]
    Id {
        /// 1-based line number.
        line: usize,
        /// The id as read.
        id: String,
    },
    /// Two probes share an id (the pipeline refuses "duplicate probe ids").
    #[error("probe {id:?} is listed twice (the pipeline refuses duplicate probe ids)")]
    Duplicate {
        /// The repeated id.
        id: String,
    },
    /// A probe's FEN is not a position.
    #[error("probe {id:?}: fen {fen:?}: {error}")]
    Fen {
        /// The probe.
        id: String,
        /// The FEN as given.
        fen: String,
        /// Why it does not parse.
        error: DfenError,
    },
    /// A FEN with a field count other than 4 or 6.
    #[error("probe {id:?}: fen {fen:?} has {fields} fields; expected 4 (no clocks) or 6")]
    FenFields {
        /// The probe.
        id: String,
        /// The FEN as given.
        fen: String,
        /// Its field count.
        fields: usize,
    },
    /// The list has no probe (the pipeline refuses a corpus with "no probes").
    #[error("probes: the list has no probe")]
    Empty,
    /// A feature came out non-finite (the pipeline refuses "invalid feature vector").
    #[error("probe {id:?}: column {column} is not finite")]
    NonFinite {
        /// The probe.
        id: String,
        /// The column.
        column: &'static str,
    },
}

/// The pipeline's probe list (27 probes: openings, material, king and queen captures,
/// canonicalisation pairs, samples, pawn structure, and a colour-swapped twin of each
/// asymmetric probe).
///
/// ```
/// let probes = dicechess::eval::features::pipeline_probes();
/// assert_eq!(probes.len(), 27);
/// assert_eq!(probes[0].id, "start-w");
/// ```
pub fn pipeline_probes() -> Vec<GoldenProbe> {
    parse_probes_tsv(PIPELINE_PROBES_TSV).unwrap_or_default()
}

/// Read a probe list in the pipeline's `probes.tsv` format: the header
/// `id<TAB>fen<TAB>tags<TAB>note`, then one probe per line (tags space-separated, may be
/// empty); blank lines are skipped. Ids must be unique; FENs are checked when a corpus is
/// made.
pub fn parse_probes_tsv(text: &str) -> Result<Vec<GoldenProbe>, GoldenError> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map_or("", |(_, l)| l.trim_end_matches('\r'));
    if header != PROBES_HEADER {
        return Err(GoldenError::Header {
            found: header.chars().take(80).collect(),
        });
    }
    let mut seen = HashSet::new();
    let mut probes = Vec::new();
    for (i, line) in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, fen, tags, note] = fields[..] else {
            return Err(GoldenError::Fields {
                line: i + 1,
                found: fields.len(),
            });
        };
        if id.is_empty() || id.chars().any(char::is_whitespace) {
            return Err(GoldenError::Id {
                line: i + 1,
                id: id.chars().take(80).collect(),
            });
        }
        if !seen.insert(id.to_owned()) {
            return Err(GoldenError::Duplicate { id: id.to_owned() });
        }
        probes.push(GoldenProbe {
            id: id.to_owned(),
            fen: fen.to_owned(),
            tags: tags.split_whitespace().map(str::to_owned).collect(),
            note: note.to_owned(),
        });
    }
    if probes.is_empty() {
        return Err(GoldenError::Empty);
    }
    Ok(probes)
}

/// Parse a probe's FEN: four fields (the pipeline's normalised form) get `0 1` clocks.
pub fn probe_position(probe: &GoldenProbe) -> Result<Position, GoldenError> {
    let fields = probe.fen.split_whitespace().count();
    let text = match fields {
        4 => format!("{} 0 1", probe.fen.trim()),
        6 => probe.fen.trim().to_owned(),
        n => {
            return Err(GoldenError::FenFields {
                id: probe.id.clone(),
                fen: probe.fen.clone(),
                fields: n,
            })
        }
    };
    Position::from_dfen(&text).map_err(|error| GoldenError::Fen {
        id: probe.id.clone(),
        fen: probe.fen.clone(),
        error,
    })
}

/// Who made a corpus: the engine's version and artifact, and the generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineIdentity {
    /// `engineVersion`: `MAJOR.MINOR.PATCH`, the version our shards carry.
    pub version: String,
    /// `engineArtifact`: what the version is of.
    pub artifact: String,
    /// `generator`: the program that wrote the corpus.
    pub generator: String,
}

impl EngineIdentity {
    /// This build: `engineVersion` is the crate's version, the artifact the `dicechess` crate.
    pub fn this_engine() -> EngineIdentity {
        let version = env!("CARGO_PKG_VERSION").to_owned();
        EngineIdentity {
            artifact: format!("crates.io:dicechess:{version}"),
            generator: format!("dicechess golden (dicechess {version})"),
            version,
        }
    }
}

/// One probe's row.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldenRow {
    /// The probe.
    pub probe: GoldenProbe,
    /// `w` or `b`: the FEN's side to move (the features' perspective).
    pub side: char,
    /// The schema's columns, from the side to move's view.
    pub features: Vec<f32>,
}

/// A golden corpus: one schema's features of every probe, with the engine's identity.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldenCorpus {
    /// The feature schema's id (`schema` in the file).
    pub schema: &'static str,
    /// Its columns.
    pub columns: &'static [&'static str],
    /// Who made it.
    pub engine: EngineIdentity,
    /// The rows, in probe order.
    pub rows: Vec<GoldenRow>,
}

impl GoldenCorpus {
    /// Compute `schema`'s features of every probe from its side to move's view.
    ///
    /// ```
    /// use dicechess::eval::features::{pipeline_probes, schema, EngineIdentity, GoldenCorpus};
    ///
    /// let kcp = schema("kcp-13").unwrap();
    /// let corpus = GoldenCorpus::build(kcp, &pipeline_probes(), EngineIdentity::this_engine()).unwrap();
    /// // The start position: only total_material (78) is non-zero.
    /// assert_eq!(corpus.rows[0].features[6], 78.0);
    /// assert!(corpus.to_json().contains("\"engineVersion\": \"0.1.0\""));
    /// ```
    pub fn build(
        schema: &'static dyn FeatureSchema,
        probes: &[GoldenProbe],
        engine: EngineIdentity,
    ) -> Result<GoldenCorpus, GoldenError> {
        if probes.is_empty() {
            return Err(GoldenError::Empty);
        }
        let mut seen = HashSet::new();
        let mut rows = Vec::with_capacity(probes.len());
        for probe in probes {
            if !seen.insert(probe.id.as_str()) {
                return Err(GoldenError::Duplicate {
                    id: probe.id.clone(),
                });
            }
            let pos = probe_position(probe)?;
            let mut features = vec![0.0f32; schema.width()];
            let color = Perspective::SideToMove.color_for(&pos);
            schema.extract_row(&pos, color, &mut features);
            if let Some(c) = features.iter().position(|v| !v.is_finite()) {
                return Err(GoldenError::NonFinite {
                    id: probe.id.clone(),
                    column: schema.columns()[c],
                });
            }
            rows.push(GoldenRow {
                probe: probe.clone(),
                side: pos.side_to_move().letter(),
                features,
            });
        }
        Ok(GoldenCorpus {
            schema: schema.id(),
            columns: schema.columns(),
            engine,
            rows,
        })
    }

    /// The corpus file, laid out as the pipeline's own corpora are (two-space indent, the
    /// column list and each feature list on one line; a float is its shortest round-trip
    /// decimal with `.0` on whole numbers, as the JVM writes a `Float`).
    pub fn to_json(&self) -> String {
        let s = |v: &str| serde_json::Value::from(v).to_string();
        let list = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
        let mut out = String::with_capacity(512 + self.rows.len() * 400);
        out.push_str("{\n");
        let _ = writeln!(out, "  \"schema\": {},", s(self.schema));
        let _ = writeln!(out, "  \"perspective\": {},", s(PERSPECTIVE));
        let _ = writeln!(out, "  \"engineVersion\": {},", s(&self.engine.version));
        let _ = writeln!(out, "  \"engineArtifact\": {},", s(&self.engine.artifact));
        let _ = writeln!(out, "  \"generator\": {},", s(&self.engine.generator));
        let _ = writeln!(
            out,
            "  \"columns\": [{}],",
            list(&mut self.columns.iter().map(|c| s(c)))
        );
        out.push_str("  \"probes\": [\n");
        for (i, row) in self.rows.iter().enumerate() {
            let p = &row.probe;
            out.push_str("    {\n");
            let _ = writeln!(out, "      \"id\": {},", s(&p.id));
            let _ = writeln!(out, "      \"fen\": {},", s(&p.fen));
            let _ = writeln!(out, "      \"side\": {},", s(&row.side.to_string()));
            let _ = writeln!(
                out,
                "      \"tags\": [{}],",
                list(&mut p.tags.iter().map(|t| s(t)))
            );
            let _ = writeln!(out, "      \"note\": {},", s(&p.note));
            let _ = writeln!(
                out,
                "      \"features\": [{}]",
                list(&mut row.features.iter().map(|v| float(*v)))
            );
            out.push_str(if i + 1 < self.rows.len() {
                "    },\n"
            } else {
                "    }\n"
            });
        }
        out.push_str("  ]\n}\n");
        out
    }
}

/// A finite `f32` as JSON: Rust's shortest round-trip form (`78.0`, `0.4212963`, `1e-7`),
/// which reads back as the same `float32` (`build` refuses non-finite values).
fn float(v: f32) -> String {
    format!("{v:?}")
}

/// Where the pipeline looks for a schema's corpus inside a checkout of its repository
/// (`<contract>.golden_path(version)`), for the four schemas it has contracts or corpora for.
///
/// ```
/// use dicechess::eval::features::pipeline_golden_path;
///
/// assert_eq!(
///     pipeline_golden_path("kcp-13", "0.1.0").unwrap(),
///     "tests/fixtures/kcp13/golden-engine-0.1.0.json"
/// );
/// assert!(pipeline_golden_path("raw-board-768-v1", "0.1.0").is_none());
/// ```
pub fn pipeline_golden_path(schema: &str, version: &str) -> Option<String> {
    let folder = match schema {
        "kcp-13" => "kcp13",
        "kcp-mobility-27-v1" => "kcp_mobility27",
        "kcp-mobility-pawns-31-v1" => "kcp_mobility_pawns31",
        "rich-9-v1" => "rich9",
        _ => return None,
    };
    Some(format!(
        "tests/fixtures/{folder}/golden-engine-{version}.json"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_list_reads() {
        let probes = pipeline_probes();
        assert_eq!(probes.len(), 27);
        assert!(probes.iter().all(|p| probe_position(p).is_ok()));
    }

    #[test]
    fn bad_lists_name_what_is_wrong() {
        assert!(matches!(
            parse_probes_tsv("id,fen,tags,note\n"),
            Err(GoldenError::Header { .. })
        ));
        assert_eq!(
            parse_probes_tsv("id\tfen\ttags\tnote\na\tb\n"),
            Err(GoldenError::Fields { line: 2, found: 2 })
        );
        assert_eq!(
            parse_probes_tsv("id\tfen\ttags\tnote\n"),
            Err(GoldenError::Empty)
        );
        let twice =
            "id\tfen\ttags\tnote\na\t8/8/8/8/8/8/8/K6k w - -\t\t\na\t8/8/8/8/8/8/8/K6k w - -\t\t\n";
        assert_eq!(
            parse_probes_tsv(twice),
            Err(GoldenError::Duplicate { id: "a".into() })
        );
        let bad_fen = parse_probes_tsv("id\tfen\ttags\tnote\na\t8/8/8 w - - 0\t\t\n").unwrap();
        assert!(matches!(
            probe_position(&bad_fen[0]),
            Err(GoldenError::FenFields { fields: 5, .. })
        ));
    }
}
