//! `dicechess eval`'s reports on standard error: the progress bar, the skipped bad records
//! (the first [`REPORT_BAD`] one by one) and the closing line.

use dicechess::files::InputError;
use dicechess::pipeline::{InputExtent, PipelineObserver, PipelineProgress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::Path;

/// Print a line on standard error, ignoring failures (a closed stderr must not stop the run
/// or lose finished work).
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(super) use note;

/// Bad records reported one by one with `--skip-bad`; the rest are counted.
const REPORT_BAD: u64 = 20;

/// The progress bar and the bad-record notes on standard error.
#[derive(Default)]
pub(super) struct Progress {
    bar: Option<ProgressBar>,
    extent: Option<InputExtent>,
    /// Bad records reported so far.
    printed: u64,
    /// What the rows are called in the bar (`rows`, `labels`).
    unit: &'static str,
}

impl Progress {
    /// The bar of `eval`: rows.
    pub(super) fn rows() -> Progress {
        Progress {
            unit: "rows",
            ..Progress::default()
        }
    }

    /// The bar of `label`: labels.
    pub(super) fn labelling() -> Progress {
        Progress {
            unit: "labels",
            ..Progress::default()
        }
    }
}

impl PipelineObserver for Progress {
    fn started(&mut self, extent: InputExtent) {
        let (len, template) = if let Some(rows) = extent.total_rows {
            (
                Some(rows),
                "{spinner} {elapsed_precise} [{wide_bar}] {percent}% of rows, ETA {eta} {msg}",
            )
        } else if let Some(bytes) = extent.total_bytes {
            (
                Some(bytes),
                "{spinner} {elapsed_precise} [{wide_bar}] {percent}% of input, ETA {eta} {msg}",
            )
        } else {
            (None, "{spinner} {elapsed_precise} {msg}")
        };
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        self.bar = Some(bar);
        self.extent = Some(extent);
    }

    fn resuming(&mut self, parts: usize, rows: u64, dir: &Path) {
        note!(
            "resuming: {parts} finished part(s) ({rows} rows) in {}",
            dir.display()
        );
    }

    fn skipped(&mut self, e: &InputError) {
        self.printed += 1;
        if self.printed <= REPORT_BAD {
            match &self.bar {
                Some(bar) => bar.suspend(|| note!("skipped {e}")),
                None => note!("skipped {e}"),
            }
        }
    }

    fn progress(&mut self, p: &PipelineProgress) {
        let (Some(bar), Some(extent)) = (&self.bar, &self.extent) else {
            return;
        };
        if extent.total_rows.is_some() {
            bar.set_position(p.records);
        } else if extent.total_bytes.is_some() {
            bar.set_position(p.bytes_read);
        }
        let secs = p.elapsed.as_secs_f64().max(1e-9);
        let unit = self.unit;
        bar.set_message(format!(
            "{} {unit}, {:.0} {unit}/s",
            p.rows,
            (p.rows - p.resumed_rows) as f64 / secs
        ));
    }

    fn chunks_done(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    fn merging(&mut self, bad: u64) {
        if bad > REPORT_BAD {
            let noun = self.extent.map_or("line", |e| e.noun);
            note!("… and {} more bad {noun}(s) skipped", bad - REPORT_BAD);
        }
    }
}
