//! One run of any [`Job`]: plan it (resume or start), compute the chunks on all cores, merge
//! the parts.

use super::eval_job::{EvalJob, PERSPECTIVE};
use super::flow::{max_in_flight, wait_one, ChunkDone, Done, Flow, Totals};
use super::job::Job;
use super::{
    ChunkSlice, InputExtent, OutputFormat, PipelineConfig, PipelineError, PipelineObserver,
    PipelineProgress, PipelineSummary, RunSpec,
};
use crate::files::{fingerprint, read_record, PartInfo, PartsDir, RunRecord, RUN_FORMAT};
use crate::files::{scores_path, PositionReader, RawChunk};
use crate::files::{Layout, OutputError, ENGINE_VERSION};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

/// Run the pipeline `cfg` describes on its own thread pool, reporting to `observer`.
pub fn run_pipeline(
    cfg: &PipelineConfig,
    observer: &mut dyn PipelineObserver,
) -> Result<PipelineSummary, PipelineError> {
    let job = EvalJob {
        schema: cfg.schema,
        scorer: cfg.scorer.as_ref(),
    };
    run_job(&cfg.spec(), &job, observer)
}

/// Run `job` over the input `spec` names, on its own thread pool, reporting to `observer`.
pub(super) fn run_job(
    spec: &RunSpec,
    job: &dyn Job,
    observer: &mut dyn PipelineObserver,
) -> Result<PipelineSummary, PipelineError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = spec.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build()?;
    pool.install(|| {
        let start = Instant::now();
        let plan = Plan::open(spec, job)?;
        plan.run(spec, job, observer, start)
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
    fn open(cfg: &RunSpec, job: &dyn Job) -> Result<Plan, PipelineError> {
        let out = &cfg.out;
        let recorded = (!cfg.restart).then(|| read_record(out)).flatten();
        let chunk_rows = match (cfg.chunk_rows, &recorded) {
            (Some(n), _) => n,
            (None, Some(r)) if r.format == RUN_FORMAT && r.chunk_rows > 0 => {
                usize::try_from(r.chunk_rows).unwrap_or(job.default_chunk_rows())
            }
            _ => job.default_chunk_rows(),
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
        let recorded_job = job.record();
        let record = RunRecord {
            format: RUN_FORMAT.into(),
            input,
            input_kind: reader.kind(),
            input_size,
            input_sha256,
            features: recorded_job.features,
            evaluator: recorded_job.evaluator,
            job: recorded_job.job,
            perspective: PERSPECTIVE.name().into(),
            chunk_rows: chunk_rows as u64,
            output: cfg.format.name().into(),
            engine_version: ENGINE_VERSION.into(),
        };
        // A v0 shard's base columns (or those of the analytics export's rows) are written
        // through to Parquet (the pipeline's enrichment step); NPY holds numbers only.
        let with_base = reader.has_base_rows() && cfg.format == OutputFormat::Parquet;
        let layout = job.layout(with_base)?;
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
        self.reader.noun()
    }

    /// Compute every chunk, then merge the parts into the output.
    fn run(
        mut self,
        cfg: &RunSpec,
        job: &dyn Job,
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
        let (flow, chunks) = self.compute(cfg, job, observer, &mut totals, start);
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
        if cfg.slice.is_some_and(|s| s.count > 1) {
            // A slice leaves its parts for the run that merges them all.
            return Ok(PipelineSummary {
                written: 0,
                computed: totals.rows.saturating_sub(totals.resumed_rows),
                resumed_parts: totals.resumed_parts,
                resumed_rows: totals.resumed_rows,
                bad: totals.bad,
                noun,
                elapsed: start.elapsed(),
                merged: false,
                chunks,
            });
        }
        observer.merging(totals.bad);
        let written = self.merge(cfg, job, chunks)?;
        Ok(PipelineSummary {
            merged: true,
            chunks,
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
        cfg: &RunSpec,
        job: &dyn Job,
        observer: &mut dyn PipelineObserver,
        totals: &mut Totals,
        start: Instant,
    ) -> (Flow, u64) {
        let max_in_flight = max_in_flight(self.chunk_rows, job.width());
        let slice = cfg.slice.unwrap_or(ChunkSlice::ALL);
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
                if !slice.holds(index) {
                    // Another slice's chunk: read past it.
                    match reader.skip_chunk() {
                        Err(e) => {
                            flow.fail(e.into());
                            break;
                        }
                        Ok(0) => break,
                        Ok(_) => {}
                    }
                    flow.reports.insert(index, Vec::new());
                } else if let Some(info) = finished.get(&index) {
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
                                    process(cfg, job, raw, dir, layout)
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
    ///
    /// A scored shard (base columns and a score) keeps the shard's column layout — the
    /// pipeline's enriched readers take every column after the base six as features — and
    /// its scores go to the CSV file beside it ([`crate::files::scores_path`]).
    fn merge(self, cfg: &RunSpec, job: &dyn Job, chunks: u64) -> Result<u64, PipelineError> {
        let mut metadata = job.metadata(self.with_base);
        let written = match cfg.format {
            OutputFormat::Parquet if self.with_base && self.layout.has_score() => {
                let scores = scores_path(&cfg.out);
                let name = scores
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                metadata.push(("scores_file".to_owned(), name));
                // The scores first: a shard is never published without them.
                self.dir.write_scores_csv(chunks, &scores)?;
                let shard = self.layout.without_score();
                let keep: Vec<usize> = (0..shard.leading_columns() + shard.width()).collect();
                self.dir
                    .merge_parquet(chunks, &shard, &metadata, &cfg.out, Some(&keep))
            }
            OutputFormat::Parquet => {
                self.dir
                    .merge_parquet(chunks, &self.layout, &metadata, &cfg.out, None)
            }
            OutputFormat::Npy => self.dir.merge_npy(chunks, &self.layout, &cfg.out),
        }?;
        self.dir.remove()?;
        Ok(written)
    }
}

/// Parse one chunk and, unless it has bad records and `skip_bad` is off, compute and write
/// its part.
fn process(
    cfg: &RunSpec,
    job: &dyn Job,
    raw: RawChunk,
    dir: &PartsDir,
    layout: &Layout,
) -> ChunkDone {
    let chunk = raw.parse();
    if !cfg.skip_bad && !chunk.bad.is_empty() {
        return Ok(Done {
            index: chunk.index,
            info: None,
            bad: chunk.bad,
        });
    }
    let mut out = job.compute(&chunk, layout.has_base())?;
    let mut bad = chunk.bad;
    if !out.bad.is_empty() {
        bad.append(&mut out.bad);
        bad.sort_by_key(|e| e.location());
        if !cfg.skip_bad {
            return Ok(Done {
                index: chunk.index,
                info: None,
                bad,
            });
        }
    }
    let info = PartInfo {
        index: chunk.index,
        rows: out.len() as u64,
        records: chunk.records,
        bad: bad.len() as u64,
    };
    dir.write_part(info, layout, out.rows())?;
    Ok(Done {
        index: chunk.index,
        info: Some(info),
        bad,
    })
}
