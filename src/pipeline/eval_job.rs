//! The job of `dicechess eval`: a feature schema's columns and/or a score per position.

use super::job::{Job, JobRecord, PartOut};
use super::{PipelineError, Scorer, CHUNK_VALUES, DEFAULT_CHUNK_ROWS};
use crate::batch::PositionBatch;
use crate::board::fen_hash;
use crate::eval::features::{FeatureSchema, Perspective};
use crate::files::{footer, Chunk, Layout, OutputError, ENGINE_VERSION, SCHEMA_V0_ENRICHED};
use rayon::prelude::*;

/// The features are always from the side to move's view.
pub(super) const PERSPECTIVE: Perspective = Perspective::SideToMove;

/// Features and/or scores.
pub(super) struct EvalJob<'a> {
    pub(super) schema: Option<&'static dyn FeatureSchema>,
    pub(super) scorer: Option<&'a Scorer>,
}

impl Job for EvalJob<'_> {
    fn record(&self) -> JobRecord {
        JobRecord {
            features: self.schema.map(|s| s.id().to_owned()),
            evaluator: self.scorer.map(|s| s.record_id()),
            job: None,
        }
    }

    fn width(&self) -> usize {
        self.schema.map_or(0, |s| s.width())
    }

    fn default_chunk_rows(&self) -> usize {
        (CHUNK_VALUES / self.width().max(1)).clamp(1024, DEFAULT_CHUNK_ROWS)
    }

    fn layout(&self, with_base: bool) -> Result<Layout, OutputError> {
        let columns = self.schema.map_or(&[][..], |s| s.columns());
        if with_base {
            Layout::with_base(columns, self.scorer.is_some())
        } else {
            Layout::new(columns, self.scorer.is_some())
        }
    }

    fn metadata(&self, with_base: bool) -> Vec<(String, String)> {
        let columns = self.schema.map_or(&[][..], |s| s.columns());
        let feature_schema = self.schema.map_or("none", |s| s.id());
        let mut metadata = if with_base {
            footer(SCHEMA_V0_ENRICHED, feature_schema, columns)
        } else {
            vec![
                ("feature_schema".to_owned(), feature_schema.to_owned()),
                ("engine_version".to_owned(), ENGINE_VERSION.to_owned()),
                ("perspective".to_owned(), PERSPECTIVE.name().to_owned()),
            ]
        };
        if let Some(s) = self.scorer {
            metadata.push(("evaluator".to_owned(), s.id()));
        }
        metadata
    }

    fn compute(&self, chunk: &Chunk, with_base: bool) -> Result<PartOut, PipelineError> {
        let positions = &chunk.positions;
        let batch = PositionBatch::from_positions(positions);
        let features = self.schema.map(|s| (s, s.extract(&batch, PERSPECTIVE)));
        let scores = match self.scorer {
            None => None,
            Some(sc) => Some(sc.score(&batch, features.as_ref().map(|(s, f)| (*s, f)))?),
        };
        let (dfens, fen_hashes, base) = if with_base {
            (Vec::new(), Vec::new(), chunk.base.clone())
        } else {
            let (dfens, hashes) = positions
                .par_iter()
                .with_min_len(1024)
                .map(|p| (p.to_dfen(), fen_hash(p)))
                .unzip();
            (dfens, hashes, None)
        };
        let values = match features {
            None => Vec::new(),
            // The extractors' matrices are row-major from offset 0: their buffer is the
            // part's values as they are, without a copy.
            Some((_, f)) if f.is_standard_layout() => {
                let len = f.len();
                match f.into_raw_vec_and_offset() {
                    (v, Some(0) | None) if v.len() == len => v,
                    (v, off) => v[off.unwrap_or(0)..off.unwrap_or(0) + len].to_vec(),
                }
            }
            Some((_, f)) => f.iter().copied().collect(),
        };
        Ok(PartOut {
            dfens,
            fen_hashes,
            base,
            texts: Vec::new(),
            values,
            scores,
            bad: Vec::new(),
        })
    }
}
