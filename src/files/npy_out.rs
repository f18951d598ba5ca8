//! NPY output: a little-endian float32, C-order matrix `[rows, width]` (NPY format 1.0),
//! streamed. The header has a fixed size of [`HEADER_LEN`] bytes, so it is written first with
//! a row count of 0 and rewritten in place with the final count by [`NpyWriter::finish`].
//! `numpy.load` and `ndarray_npy::read_npy` read the result.

use super::OutputError;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Size of the header (magic, version, length and the padded dictionary), a multiple of 64.
pub const HEADER_LEN: usize = 128;

/// The NPY 1.0 header for a float32 C-order matrix of `rows × width`, exactly
/// [`HEADER_LEN`] bytes.
pub fn header(rows: u64, width: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({rows}, {width}), }}");
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    let len = (HEADER_LEN - 10) as u16;
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    // The longest dictionary (two 20-digit numbers) is about 90 bytes: it always fits.
    h.resize(HEADER_LEN - 1, b' ');
    h.push(b'\n');
    h
}

/// Streams float32 rows into an NPY file.
#[derive(Debug)]
pub struct NpyWriter<W: Write + Seek> {
    sink: W,
    width: usize,
    rows: u64,
    path: PathBuf,
    buf: Vec<u8>,
}

impl<W: Write + Seek> NpyWriter<W> {
    /// Start a matrix of `width` columns on `sink` (at its current position 0); `path` names
    /// it in errors.
    pub fn new(mut sink: W, width: usize, path: &Path) -> Result<Self, OutputError> {
        sink.write_all(&header(0, width))
            .map_err(OutputError::io(path))?;
        Ok(NpyWriter {
            sink,
            width,
            rows: 0,
            path: path.to_owned(),
            buf: Vec::new(),
        })
    }

    /// Append rows given row-major (`values.len()` a multiple of the width).
    pub fn write_rows(&mut self, values: &[f32]) -> Result<(), OutputError> {
        if self.width == 0 {
            return Err(OutputError::Layout("an NPY matrix needs columns".into()));
        }
        if !values.len().is_multiple_of(self.width) {
            return Err(OutputError::Layout(format!(
                "{} values is not a whole number of rows of width {}",
                values.len(),
                self.width
            )));
        }
        self.buf.clear();
        self.buf.reserve(values.len() * 4);
        for v in values {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
        self.sink
            .write_all(&self.buf)
            .map_err(OutputError::io(&self.path))?;
        self.rows += (values.len() / self.width) as u64;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Rewrite the header with the final row count and flush; returns the row count.
    pub fn finish(mut self) -> Result<u64, OutputError> {
        let io = OutputError::io(&self.path);
        let end = self.sink.stream_position();
        let r = end
            .and_then(|end| {
                self.sink.seek(SeekFrom::Start(0))?;
                self.sink.write_all(&header(self.rows, self.width))?;
                self.sink.seek(SeekFrom::Start(end))?;
                self.sink.flush()
            })
            .map_err(io);
        r.map(|()| self.rows)
    }
}
