//! The label factory behind `dicechess label` (docs/labels.md): exact searched labels of many
//! positions, on all cores, resumable like `eval` (the same chunks, part files and merge), and
//! sliceable for a cluster ([`ChunkSlice`](super::ChunkSlice)).
//!
//! Each input record is one position: a DFEN line, a Parquet `dfen`/`fen` row, or a v0
//! training shard's row (`fen` with its `dice`; the base columns are written through, so the
//! output is a v0 shard the pipeline's `read_shard` reads, with the label columns beside the
//! base ones). `a1`/`a2`/`p1`/`p2` ignore the dice; `candidates` needs them and writes one
//! row per candidate.

use super::job::{Job, JobRecord, PartOut};
use super::run::run_job;
use super::{PipelineError, PipelineObserver, PipelineSummary, RunSpec};
use crate::board::{fen_hash, Position};
use crate::eval::{score_to_win_probability, BatchEvaluator, DiceAware, Material};
use crate::files::SCHEMA_V0;
use crate::files::{footer, BaseRows, Chunk, InputError, Layout, OutputError, ENGINE_VERSION};
use crate::rules::ROLLS;
use crate::search::{
    default_work_units, CandidateLabel, LabelError, LabelKind, Labeller, TopK, Work,
};
use rayon::prelude::*;
use std::sync::Arc;

/// The leaf evaluator of a label run and how the output names it.
#[derive(Clone)]
pub struct LabelEvaluator {
    /// The evaluator.
    pub eval: Arc<dyn BatchEvaluator>,
    /// Its id (`material`, `dice-aware`, a model's id).
    pub id: String,
    /// The model's SHA-256, for a model package.
    pub model_sha256: Option<String>,
}

impl LabelEvaluator {
    /// A built-in evaluator by name: `material` or `dice-aware`.
    pub fn builtin(name: &str) -> Option<LabelEvaluator> {
        let eval: Arc<dyn BatchEvaluator> = match name {
            "material" => Arc::new(Material),
            "dice-aware" => Arc::new(DiceAware::default()),
            _ => return None,
        };
        Some(LabelEvaluator {
            id: eval.id(),
            eval,
            model_sha256: None,
        })
    }

    /// A model package, checked whole (manifest, digest, role, graph): a `position-value`
    /// package (run by ONNX Runtime), or a `chance-collapse` one whose graph is a plain MLP
    /// ending in a `Sigmoid` (run natively; each leaf, an after-state, scored as the
    /// complement of the just-moved side's probability, as the bots serve it).
    #[cfg(feature = "onnx")]
    pub fn model(
        dir: &std::path::Path,
    ) -> Result<LabelEvaluator, crate::eval::onnx::NativeModelError> {
        use crate::eval::onnx::{FeatureModel, ModelPackage, NativeModel, Role};
        let package = ModelPackage::load_leaf(dir)?;
        let manifest = package.manifest().clone();
        let eval: Arc<dyn BatchEvaluator> = match manifest.model_role {
            Role::ChanceCollapse => Arc::new(NativeModel::from_package(package)?),
            _ => Arc::new(FeatureModel::from_package(package)?),
        };
        Ok(LabelEvaluator {
            eval,
            id: manifest.model_id,
            model_sha256: Some(manifest.model_sha256),
        })
    }
}

/// The built-in leaf evaluators' names ([`LabelEvaluator::builtin`]).
pub const BUILTIN_LEAVES: [&str; 2] = ["material", "dice-aware"];

/// What to label and how: the kind, the leaf evaluator, the candidates' cut and the work
/// budget of a position.
#[derive(Clone)]
pub struct LabelSpec {
    /// What to label.
    pub kind: LabelKind,
    /// The leaf evaluator.
    pub leaf: LabelEvaluator,
    /// `candidates` only: keep the best `top` by `prerank` (default: every candidate).
    pub top: Option<usize>,
    /// The pre-ranker of `top` (default: the leaf evaluator).
    pub prerank: Option<LabelEvaluator>,
    /// Work units one position's label may spend ([`default_work_units`] by default).
    pub max_work: Option<u64>,
}

impl LabelSpec {
    /// The work budget of one position.
    pub fn work_limit(&self) -> u64 {
        self.max_work
            .unwrap_or_else(|| default_work_units(self.kind))
    }

    /// The label of one position with `labeller` (whose leaf evaluator is [`LabelSpec::leaf`]).
    fn label(&self, labeller: &Labeller, pos: &Position) -> Result<Labelled, LabelError> {
        let work = Work::new(self.work_limit());
        let l = labeller;
        Ok(match self.kind {
            LabelKind::A1 => Labelled::Value(l.a1(pos, &work)?),
            LabelKind::A2 => Labelled::Value(l.a2(pos, &work)?),
            LabelKind::P1 => Labelled::Value(l.p1(pos, &work)?),
            LabelKind::P2 => Labelled::Value(l.p2(pos, &work)?),
            LabelKind::Candidates => {
                let prerank = self.prerank.as_ref().unwrap_or(&self.leaf);
                let top = self.top.map(|k| TopK {
                    k,
                    prerank: prerank.eval.as_ref(),
                });
                Labelled::Candidates(l.candidates(pos, top, &work)?)
            }
        })
    }
}

/// The labels of `positions`, in order, computed on all cores of the current rayon pool (a
/// position over its work budget is its own error, the others are labelled).
pub fn label_positions(
    spec: &LabelSpec,
    positions: &[Position],
) -> Vec<Result<Labelled, LabelError>> {
    let labeller = Labeller::new(spec.leaf.eval.clone());
    positions
        .par_iter()
        .with_max_len(1)
        .map(|p| spec.label(&labeller, p))
        .collect()
}

/// Run the label factory over the input `run` names, reporting to `observer`.
pub fn run_labels(
    run: &RunSpec,
    spec: &LabelSpec,
    observer: &mut dyn PipelineObserver,
) -> Result<PipelineSummary, PipelineError> {
    let job = LabelJob { cfg: spec };
    run_job(run, &job, observer)
}

/// The names of the value columns of `kind` (Float32; `candidates` also writes the Utf8
/// columns `moves` and `after` before them): `a1, a1_win` and so on; for `candidates`,
/// `prerank` (with a top K), `a1`, `a1_win`, then `roll_PPP` … `roll_KKK`, one per roll in
/// `ROLLS` order.
pub fn label_columns(kind: LabelKind, top: bool) -> Vec<String> {
    match kind {
        LabelKind::Candidates => {
            let mut c = Vec::new();
            if top {
                c.push("prerank".to_owned());
            }
            c.push("a1".to_owned());
            c.push("a1_win".to_owned());
            c.extend(
                ROLLS
                    .iter()
                    .map(|r| format!("roll_{}", r.dice().letters(true))),
            );
            c
        }
        k => vec![k.name().to_owned(), format!("{}_win", k.name())],
    }
}

/// The Utf8 columns of `candidates` after the root's own columns.
pub const CANDIDATE_TEXT_COLUMNS: [&str; 2] = ["moves", "after"];

struct LabelJob<'a> {
    cfg: &'a LabelSpec,
}

/// One position's labels.
#[derive(Clone, Debug)]
pub enum Labelled {
    /// A value.
    Value(f64),
    /// Its candidates.
    Candidates(Vec<CandidateLabel>),
}

impl LabelJob<'_> {
    fn perspective(&self) -> &'static str {
        if self.cfg.kind.afterstate() {
            "previous-mover"
        } else {
            "side-to-move"
        }
    }
}

impl Job for LabelJob<'_> {
    fn record(&self) -> JobRecord {
        let c = self.cfg;
        let record_id = |e: &LabelEvaluator| match &e.model_sha256 {
            Some(sha) => format!("model:{}@{sha}", e.id),
            None => e.id.clone(),
        };
        JobRecord {
            features: None,
            evaluator: Some(record_id(&c.leaf)),
            job: Some(format!(
                "label {} top={} prerank={} max_work={}",
                c.kind,
                c.top.map_or("all".to_owned(), |k| k.to_string()),
                c.prerank.as_ref().map_or("leaf".to_owned(), record_id),
                self.cfg.work_limit()
            )),
        }
    }

    fn width(&self) -> usize {
        label_columns(self.cfg.kind, self.cfg.top.is_some()).len()
    }

    fn default_chunk_rows(&self) -> usize {
        // A chunk is the work lost to a kill: about a second of one core's labels.
        match self.cfg.kind {
            LabelKind::A1 | LabelKind::P1 => 256,
            LabelKind::Candidates => 4,
            LabelKind::A2 | LabelKind::P2 => 1,
        }
    }

    fn layout(&self, with_base: bool) -> Result<Layout, OutputError> {
        let columns = label_columns(self.cfg.kind, self.cfg.top.is_some());
        let layout = if with_base {
            Layout::with_base(&columns, false)
        } else {
            Layout::new(&columns, false)
        }?;
        if self.cfg.kind == LabelKind::Candidates {
            layout.with_texts(&CANDIDATE_TEXT_COLUMNS)
        } else {
            Ok(layout)
        }
    }

    fn metadata(&self, with_base: bool) -> Vec<(String, String)> {
        let c = self.cfg;
        let mut m = if with_base {
            // A v0 shard (the pipeline's `read_shard` reads it) whose extra columns are the
            // labels; no feature schema.
            footer::<&str>(SCHEMA_V0, "none", &[])
        } else {
            vec![("engine_version".to_owned(), ENGINE_VERSION.to_owned())]
        };
        let columns = label_columns(c.kind, c.top.is_some());
        m.extend(
            [
                ("label_kind", c.kind.name().to_owned()),
                ("label_columns", columns.join(",")),
                ("label_evaluator", c.leaf.id.clone()),
                ("label_perspective", self.perspective().to_owned()),
                (
                    "label_scale",
                    "evaluator score; +-10000 is a king capture; <kind>_win = clamp(0.5 + \
                     score / 20000, 0, 1)"
                        .to_owned(),
                ),
            ]
            .map(|(k, v)| (k.to_owned(), v)),
        );
        if let Some(sha) = &c.leaf.model_sha256 {
            m.push(("label_model_sha256".to_owned(), sha.clone()));
        }
        if c.kind == LabelKind::Candidates {
            m.push((
                "label_top".to_owned(),
                c.top.map_or("all".to_owned(), |k| k.to_string()),
            ));
            if c.top.is_some() {
                let p = c.prerank.as_ref().unwrap_or(&c.leaf);
                m.push(("label_prerank".to_owned(), p.id.clone()));
            }
        }
        m
    }

    fn compute(&self, chunk: &Chunk, with_base: bool) -> Result<PartOut, PipelineError> {
        let results = label_positions(self.cfg, &chunk.positions);
        let mut out = PartOut {
            base: with_base.then(BaseRows::default),
            texts: if self.cfg.kind == LabelKind::Candidates {
                vec![Vec::new(), Vec::new()]
            } else {
                Vec::new()
            },
            ..PartOut::default()
        };
        for (i, r) in results.into_iter().enumerate() {
            let labelled = match r {
                Ok(l) => l,
                Err(LabelError::Eval(e)) => return Err(PipelineError::Scoring(e)),
                Err(e) => {
                    out.bad.push(InputError::Bad {
                        location: chunk.sources[i],
                        reason: format!("label: {e}"),
                        text: short(&chunk.texts[i]),
                    });
                    continue;
                }
            };
            let root = |out: &mut PartOut| match (&mut out.base, &chunk.base) {
                (Some(rows), Some(base)) => rows.push(base.row(i)),
                _ => {
                    out.dfens.push(chunk.positions[i].to_dfen());
                    out.fen_hashes.push(fen_hash(&chunk.positions[i]));
                }
            };
            match labelled {
                Labelled::Value(v) => {
                    root(&mut out);
                    out.values.push(v as f32);
                    out.values.push(score_to_win_probability(v) as f32);
                }
                Labelled::Candidates(cands) => {
                    for c in cands {
                        root(&mut out);
                        out.texts[0].push(c.path.map_or(String::new(), |p| p.uci()));
                        out.texts[1].push(c.after.to_dfen());
                        if let Some(p) = c.prerank.filter(|_| self.cfg.top.is_some()) {
                            out.values.push(p);
                        }
                        out.values.push(c.a1 as f32);
                        out.values.push(score_to_win_probability(c.a1) as f32);
                        out.values.extend_from_slice(&c.per_roll);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Echoed text cut to 200 bytes (on a character boundary).
fn short(s: &str) -> String {
    let mut end = s.len().min(200);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}
