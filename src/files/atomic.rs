//! Atomic file writes: write `<DEST>.tmp-<pid>`, flush and sync it, then rename it over
//! `DEST`. A reader never sees a torn `DEST`: it is either the old file (or absent) or the
//! complete new one. A writer dropped without [`AtomicFile::commit`] removes its temporary file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary name this process uses for `dest`: `<dest>.tmp-<pid>`.
pub fn temp_path(dest: &Path) -> PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(format!(".tmp-{}", std::process::id()));
    PathBuf::from(name)
}

/// Whether `name` looks like a temporary file left by [`AtomicFile`] (`….tmp-<digits>`).
pub fn is_temp_name(name: &str) -> bool {
    name.rsplit_once(".tmp-").is_some_and(|(base, pid)| {
        !base.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
    })
}

/// A file being written under a temporary name; [`AtomicFile::commit`] renames it into place.
#[derive(Debug)]
pub struct AtomicFile {
    dest: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Create (truncate) the temporary file for `dest`.
    pub fn create(dest: &Path) -> std::io::Result<AtomicFile> {
        let tmp = temp_path(dest);
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            dest: dest.to_owned(),
            tmp,
            file: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The temporary path being written.
    pub fn temp(&self) -> &Path {
        &self.tmp
    }

    /// The buffered temporary file (seekable: `BufWriter<File>` flushes before seeking).
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.file
            .as_mut()
            .expect("an AtomicFile's writer exists until commit")
    }

    /// Flush, sync and rename the temporary file onto the destination.
    pub fn commit(mut self) -> std::io::Result<()> {
        let file = self.file.take().expect("commit runs once");
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.dest)?;
        // Make the rename itself durable where the platform allows it.
        if let Some(dir) = self.dest.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(f) = self.file.take() {
            // Unflushed bytes are thrown away with the file.
            drop(f.into_parts());
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `bytes` to `dest` atomically.
pub fn write_bytes(dest: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = AtomicFile::create(dest)?;
    f.writer().write_all(bytes)?;
    f.commit()
}
