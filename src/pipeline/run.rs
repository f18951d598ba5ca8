//! One run: plan it (resume or start), compute the chunks on all cores, merge the parts.

use super::flow::{max_in_flight, wait_one, ChunkDone, Done, Flow, Totals};
use super::{
    InputExtent, OutputFormat, PipelineConfig, PipelineError, PipelineObserver, PipelineProgress,
    PipelineSummary, CHUNK_VALUES, DEFAULT_CHUNK_ROWS,
};
use crate::batch::PositionBatch;
use crate::board::Position;
use crate::eval::features::Perspective;
use crate::files::BaseRows;
use crate::files::{fingerprint, read_record, PartInfo, PartsDir, RunRecord, RUN_FORMAT};
use crate::files::{footer, SCHEMA_V0_ENRICHED};
use crate::files::{Layout, OutputError, Rows, ENGINE_VERSION};
use crate::files::{PositionReader, RawChunk};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

/// The features are always from the side to move's view.
const PERSPECTIVE: Perspective = Perspective::SideToMove;

/// Run the pipeline `cfg` describes on its own thread pool, reporting to `observer`.
pub fn run_pipeline(
    cfg: &PipelineConfig,
    observer: &mut dyn PipelineObserver,
) -> Result<PipelineSummary, PipelineError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = cfg.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build()?;
    pool.install(|| {
        let start = Instant::now();
        let plan = Plan::open(cfg)?;
        plan.run(cfg, observer, start)
    })
}

/// A run's input, output layout and parts folder, before any chunk is computed.
struct Plan {
    reader: PositionReader,
    /// The input is standard input or not a plain file (it cannot be resumed).
    stream: bool,
    chunk_rows: usize,
    /// A v0 shard's base columns are written through (Parquet output only).
    with_base: bool,
    layout: Layout,
    dir: PartsDir,
    /// Parts of an earlier run, by chunk index.
    finished: BTreeMap<u64, PartInfo>,
}

impl Plan {
    /// Open the input and the parts folder (resuming an earlier run's parts unless
    /// `restart`).
    fn open(cfg: &PipelineConfig) -> Result<Plan, PipelineError> {
        let out = &cfg.out;
        let width = cfg.schema.map_or(0, |s| s.width());
        let recorded = (!cfg.restart).then(|| read_record(out)).flatten();
        let chunk_rows = match (cfg.chunk_rows, &recorded) {
            (Some(n), _) => n,
            (None, Some(r)) if r.format == RUN_FORMAT && r.chunk_rows > 0 => {
                usize::try_from(r.chunk_rows).unwrap_or(DEFAULT_CHUNK_ROWS)
            }
            _ => (CHUNK_VALUES / width.max(1)).clamp(1024, DEFAULT_CHUNK_ROWS),
        };
        let reader = PositionReader::open(&cfg.input, chunk_rows)?;

        let p = Path::new(&cfg.input);
        let stream = cfg.input == "-" || !std::fs::metadata(p).is_ok_and(|m| m.is_file());
        let (input, input_size, input_sha256) = if stream {
            (cfg.input.clone(), None, None)
        } else {
            let (size, sha) = fingerprint(p).map_err(|source| PipelineError::Fingerprint {
                path: p.to_owned(),
                source,
            })?;
            let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
            (abs.display().to_string(), Some(size), Some(sha))
        };
        let record = RunRecord {
            format: RUN_FORMAT.into(),
            input,
            input_kind: match reader.column() {
                Some(c) => format!("parquet:{c}"),
                None => "dfen-lines".into(),
            },
            input_size,
            input_sha256,
            features: cfg.schema.map(|s| s.id().to_owned()),
            evaluator: cfg.scorer.as_ref().map(|s| s.record_id()),
            perspective: PERSPECTIVE.name().into(),
            chunk_rows: chunk_rows as u64,
            output: cfg.format.name().into(),
            engine_version: ENGINE_VERSION.into(),
        };
        // A v0 shard's base columns are written through to Parquet (the pipeline's
        // enrichment step); NPY holds numbers only.
        let with_base = reader.is_v0_shard() && cfg.format == OutputFormat::Parquet;
        let columns = cfg.schema.map_or(&[][..], |s| s.columns());
        let layout = if with_base {
            Layout::with_base(columns, cfg.scorer.is_some())
        } else {
            Layout::new(columns, cfg.scorer.is_some())
        }?;
        let (dir, finished) = PartsDir::open(out, &record, cfg.restart)?;
        Ok(Plan {
            reader,
            stream,
            chunk_rows,
            with_base,
            layout,
            dir,
            finished,
        })
    }

    /// What a record of this input is called.
    fn noun(&self) -> &'static str {
        if self.reader.column().is_some() {
            "row"
        } else {
            "line"
        }
    }

    /// Compute every chunk, then merge the parts into the output.
    fn run(
        mut self,
        cfg: &PipelineConfig,
        observer: &mut dyn PipelineObserver,
        start: Instant,
    ) -> Result<PipelineSummary, PipelineError> {
        if !self.finished.is_empty() {
            let rows: u64 = self.finished.values().map(|p| p.rows).sum();
            observer.resuming(self.finished.len(), rows, self.dir.path());
        }
        observer.started(InputExtent {
            noun: self.noun(),
            total_rows: self.reader.total_rows(),
            total_bytes: self.reader.total_bytes(),
        });
        let mut totals = Totals::default();
        let (flow, chunks) = self.compute(cfg, observer, &mut totals, start);
        observer.chunks_done();
        let noun = self.noun();
        if let Some(e) = flow.error {
            return Err(e);
        }
        if let Some((_, error)) = flow.first_bad {
            let kept = if (flow.written > 0 || !self.finished.is_empty()) && !self.stream {
                Some(self.dir.path().to_owned())
            } else {
                // Nothing finished, or a stream (which cannot be resumed): leave no folder
                // behind.
                self.dir.remove()?;
                None
            };
            return Err(PipelineError::BadRecord { error, noun, kept });
        }
        observer.merging(totals.bad);
        let written = self.merge(cfg, chunks)?;
        Ok(PipelineSummary {
            written,
            computed: written.saturating_sub(totals.resumed_rows),
            resumed_parts: totals.resumed_parts,
            resumed_rows: totals.resumed_rows,
            bad: totals.bad,
            noun,
            elapsed: start.elapsed(),
        })
    }

    /// Read the input chunk by chunk, skipping the finished parts and computing the others
    /// on the pool; returns how the chunks went and how many there are.
    fn compute(
        &mut self,
        cfg: &PipelineConfig,
        observer: &mut dyn PipelineObserver,
        totals: &mut Totals,
        start: Instant,
    ) -> (Flow, u64) {
        let width = cfg.schema.map_or(0, |s| s.width());
        let max_in_flight = max_in_flight(self.chunk_rows, width);
        let mut flow = Flow::default();
        let mut index = 0u64;
        let reader = &mut self.reader;
        let (dir, layout, finished) = (&self.dir, &self.layout, &self.finished);
        let progress = |reader: &PositionReader, totals: &Totals| PipelineProgress {
            records: totals.records,
            bytes_read: reader.bytes_read(),
            rows: totals.rows,
            resumed_rows: totals.resumed_rows,
            elapsed: start.elapsed(),
        };
        rayon::scope(|s| {
            let (tx, rx) = mpsc::channel::<ChunkDone>();
            loop {
                while flow.in_flight >= max_in_flight {
                    flow.absorb(wait_one(&rx), totals);
                    flow.report(observer);
                }
                if flow.stopped() {
                    break;
                }
                if let Some(info) = finished.get(&index) {
                    match reader.skip_chunk() {
                        Err(e) => {
                            flow.fail(e.into());
                            break;
                        }
                        Ok(records) if records != info.records => {
                            flow.fail(PipelineError::Output(OutputError::PartsMismatch {
                                dir: dir.path().to_owned(),
                                reason: format!(
                                    "part {index} covers {} records but the input now has \
                                     {records} there",
                                    info.records
                                ),
                            }));
                            break;
                        }
                        Ok(_) => {}
                    }
                    totals.resume(info);
                    flow.reports.insert(index, Vec::new());
                } else {
                    match reader.next_raw_chunk() {
                        Err(e) => {
                            flow.fail(e.into());
                            break;
                        }
                        Ok(None) => break,
                        Ok(Some(raw)) => {
                            flow.in_flight += 1;
                            let tx = tx.clone();
                            s.spawn(move |_| {
                                let done = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                    process(cfg, raw, dir, layout)
                                }))
                                .unwrap_or(Err(PipelineError::WorkerPanicked));
                                let _ = tx.send(done);
                            });
                        }
                    }
                }
                index += 1;
                flow.report(observer);
                observer.progress(&progress(reader, totals));
            }
            while flow.in_flight > 0 {
                flow.absorb(wait_one(&rx), totals);
                flow.report(observer);
                observer.progress(&progress(reader, totals));
            }
        });
        (flow, index)
    }

    /// Merge the `chunks` parts into the output and remove the parts folder; returns the
    /// rows written.
    fn merge(self, cfg: &PipelineConfig, chunks: u64) -> Result<u64, PipelineError> {
        let columns = cfg.schema.map_or(&[][..], |s| s.columns());
        let feature_schema = cfg.schema.map_or("none", |s| s.id());
        let mut metadata = if self.with_base {
            footer(SCHEMA_V0_ENRICHED, feature_schema, columns)
        } else {
            vec![
                ("feature_schema".to_owned(), feature_schema.to_owned()),
                ("engine_version".to_owned(), ENGINE_VERSION.to_owned()),
                ("perspective".to_owned(), PERSPECTIVE.name().to_owned()),
            ]
        };
        if let Some(s) = &cfg.scorer {
            metadata.push(("evaluator".to_owned(), s.id()));
        }
        let written = match cfg.format {
            OutputFormat::Parquet => {
                self.dir
                    .merge_parquet(chunks, &self.layout, &metadata, &cfg.out)
            }
            OutputFormat::Npy => self.dir.merge_npy(chunks, &self.layout, &cfg.out),
        }?;
        self.dir.remove()?;
        Ok(written)
    }
}

/// Parse one chunk and, unless it has bad records and `skip_bad` is off, compute and write
/// its part.
fn process(cfg: &PipelineConfig, raw: RawChunk, dir: &PartsDir, layout: &Layout) -> ChunkDone {
    let chunk = raw.parse();
    if !cfg.skip_bad && !chunk.bad.is_empty() {
        return Ok(Done {
            index: chunk.index,
            info: None,
            bad: chunk.bad,
        });
    }
    let info = PartInfo {
        index: chunk.index,
        rows: chunk.positions.len() as u64,
        records: chunk.records,
        bad: chunk.bad.len() as u64,
    };
    let base = chunk.base.as_ref().filter(|_| layout.has_base());
    compute_part(cfg, dir, layout, info, &chunk.positions, base)?;
    Ok(Done {
        index: chunk.index,
        info: Some(info),
        bad: chunk.bad,
    })
}

/// Extract, score and write one chunk's part.
fn compute_part(
    cfg: &PipelineConfig,
    dir: &PartsDir,
    layout: &Layout,
    info: PartInfo,
    positions: &[Position],
    base: Option<&BaseRows>,
) -> Result<(), PipelineError> {
    let batch = PositionBatch::from_positions(positions);
    let features = cfg.schema.map(|s| (s, s.extract(&batch, PERSPECTIVE)));
    let scores = match &cfg.scorer {
        None => None,
        Some(sc) => Some(sc.score(&batch, features.as_ref().map(|(s, f)| (*s, f)))?),
    };
    let dfens: Vec<String> = if base.is_some() {
        Vec::new()
    } else {
        positions
            .par_iter()
            .with_min_len(1024)
            .map(|p| p.to_dfen())
            .collect()
    };
    let flat: Vec<f32>;
    let feature_values: &[f32] = match &features {
        None => &[],
        Some((_, f)) => match f.as_slice() {
            Some(s) => s,
            None => {
                flat = f.iter().copied().collect();
                &flat
            }
        },
    };
    dir.write_part(
        info,
        layout,
        Rows {
            dfens: &dfens,
            base,
            features: feature_values,
            scores: scores.as_deref(),
        },
    )?;
    Ok(())
}
