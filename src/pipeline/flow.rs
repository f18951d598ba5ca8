//! Chunks in flight between the reading thread and the workers, and what came back.

use super::{PipelineError, PipelineObserver, CHUNK_VALUES};
use crate::files::InputError;
use crate::files::PartInfo;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Duration;

/// A chunk's outcome.
pub(super) type ChunkDone = Result<Done, PipelineError>;

/// A processed chunk.
pub(super) struct Done {
    pub(super) index: u64,
    /// The part written, `None` when bad records stopped it.
    pub(super) info: Option<PartInfo>,
    pub(super) bad: Vec<InputError>,
}

/// Running totals.
#[derive(Default)]
pub(super) struct Totals {
    pub(super) rows: u64,
    pub(super) bad: u64,
    pub(super) records: u64,
    pub(super) resumed_parts: u64,
    pub(super) resumed_rows: u64,
}

impl Totals {
    /// Count a finished part of an earlier run.
    pub(super) fn resume(&mut self, info: &PartInfo) {
        self.rows += info.rows;
        self.bad += info.bad;
        self.records += info.records;
        self.resumed_parts += 1;
        self.resumed_rows += info.rows;
    }
}

/// Chunks in flight and what came back from them.
#[derive(Default)]
pub(super) struct Flow {
    pub(super) in_flight: usize,
    /// Parts written by this run.
    pub(super) written: u64,
    /// Bad records of finished chunks, to report in input order.
    pub(super) reports: BTreeMap<u64, Vec<InputError>>,
    next_report: u64,
    /// The earliest chunk stopped by a bad record, with its first one.
    pub(super) first_bad: Option<(u64, InputError)>,
    pub(super) error: Option<PipelineError>,
}

impl Flow {
    pub(super) fn stopped(&self) -> bool {
        self.error.is_some() || self.first_bad.is_some()
    }

    pub(super) fn fail(&mut self, e: PipelineError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    pub(super) fn absorb(&mut self, done: ChunkDone, totals: &mut Totals) {
        self.in_flight -= 1;
        match done {
            Err(e) => self.fail(e),
            Ok(Done {
                index,
                info: None,
                bad,
            }) => {
                if self.first_bad.as_ref().is_none_or(|(i, _)| index < *i) {
                    self.first_bad = bad.into_iter().next().map(|e| (index, e));
                }
            }
            Ok(Done {
                index,
                info: Some(info),
                bad,
            }) => {
                self.written += 1;
                totals.rows += info.rows;
                totals.records += info.records;
                totals.bad += info.bad;
                self.reports.insert(index, bad);
            }
        }
    }

    /// Report the bad records of the chunks finished so far, in input order.
    pub(super) fn report(&mut self, observer: &mut dyn PipelineObserver) {
        while let Some(list) = self.reports.remove(&self.next_report) {
            for e in &list {
                observer.skipped(e);
            }
            self.next_report += 1;
        }
    }
}

/// Chunks processed at once: enough to keep every thread busy (one more is being read),
/// few enough that their rows stay within about 4 × [`CHUNK_VALUES`] values.
pub(super) fn max_in_flight(chunk_rows: usize, width: usize) -> usize {
    let per_chunk = chunk_rows.saturating_mul(width + 16).max(1);
    let by_memory = (4 * CHUNK_VALUES / per_chunk).max(2);
    (rayon::current_num_threads() + 1).clamp(2, by_memory)
}

/// The next finished chunk; while none is ready, help the pool with its work.
pub(super) fn wait_one(rx: &mpsc::Receiver<ChunkDone>) -> ChunkDone {
    loop {
        match rx.try_recv() {
            Ok(d) => return d,
            Err(mpsc::TryRecvError::Disconnected) => {
                return Err(PipelineError::WorkersDisconnected)
            }
            Err(mpsc::TryRecvError::Empty) => {}
        }
        if !matches!(rayon::yield_now(), Some(rayon::Yield::Executed)) {
            match rx.recv_timeout(Duration::from_millis(1)) {
                Ok(d) => return d,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PipelineError::WorkersDisconnected)
                }
            }
        }
    }
}
