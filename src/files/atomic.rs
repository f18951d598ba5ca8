//! Atomic file writes: write a temporary file beside `DEST`, flush and sync it, then rename
//! it over `DEST`. A reader never sees a torn `DEST`: it is either the old file (or absent)
//! or the complete new one.
//!
//! The temporary file is created exclusively (`O_EXCL`, through the `tempfile` crate) under a
//! random name `.<dest name>.<random>.tmp`, so a symlink or file planted under a guessable
//! name is never followed or overwritten, and two writers never share a temporary. A writer
//! dropped without [`AtomicFile::commit`] removes its own temporary file; nothing ever
//! removes a temporary file it did not create (a killed process leaves its hidden `.tmp`
//! behind, harmless and never read).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// A file being written under a temporary name; [`AtomicFile::commit`] renames it into place.
#[derive(Debug)]
pub struct AtomicFile {
    dest: PathBuf,
    file: Option<BufWriter<NamedTempFile>>,
}

/// The folder `dest` lives in (`.` for a bare file name).
fn parent_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl AtomicFile {
    /// Create a fresh temporary file beside `dest` (exclusively, with a random name).
    pub fn create(dest: &Path) -> std::io::Result<AtomicFile> {
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp").rand_bytes(10);
        // Output files are ordinary files (0666 less the umask), not tempfile's private
        // 0600: a shard or feature file is meant to be shared.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(parent_of(dest))?;
        Ok(AtomicFile {
            dest: dest.to_owned(),
            file: Some(BufWriter::with_capacity(1 << 20, tmp)),
        })
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// The temporary path being written.
    pub fn temp(&self) -> &Path {
        self.file
            .as_ref()
            .expect("an AtomicFile's writer exists until commit")
            .get_ref()
            .path()
    }

    /// The buffered temporary file (seekable: `BufWriter` flushes before seeking).
    pub fn writer(&mut self) -> &mut BufWriter<NamedTempFile> {
        self.file
            .as_mut()
            .expect("an AtomicFile's writer exists until commit")
    }

    /// Flush, sync and rename the temporary file onto the destination.
    pub fn commit(mut self) -> std::io::Result<()> {
        let file = self.file.take().expect("commit runs once");
        let tmp = file.into_inner().map_err(|e| e.into_error())?;
        tmp.as_file().sync_all()?;
        tmp.persist(&self.dest).map_err(|e| e.error)?;
        // Make the rename itself durable where the platform allows it.
        if let Ok(d) = File::open(parent_of(&self.dest)) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(f) = self.file.take() {
            // Unflushed bytes are thrown away; dropping the NamedTempFile removes the file.
            drop(f.into_parts());
        }
    }
}

/// Write `bytes` to `dest` atomically.
pub fn write_bytes(dest: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = AtomicFile::create(dest)?;
    f.writer().write_all(bytes)?;
    f.commit()
}

/// Whether `name` is a temporary file name of [`AtomicFile`] (`.<name>.<random>.tmp`).
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_are_random_exclusive_and_removed_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out.bin");
        let a = AtomicFile::create(&dest).unwrap();
        let b = AtomicFile::create(&dest).unwrap();
        assert_ne!(a.temp(), b.temp(), "two writers share a temporary");
        let name = a.temp().file_name().unwrap().to_str().unwrap().to_owned();
        assert!(is_temp_name(&name), "{name}");
        let (pa, pb) = (a.temp().to_owned(), b.temp().to_owned());
        drop(a);
        assert!(!pa.exists() && pb.exists());
        let mut b = b;
        b.writer().write_all(b"x").unwrap();
        b.commit().unwrap();
        assert!(!pb.exists());
        assert_eq!(std::fs::read(&dest).unwrap(), b"x");
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let dest = dir.path().join("out.bin");
        // The old scheme's predictable name, planted as a symlink to the victim.
        let planted = dir
            .path()
            .join(format!("out.bin.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_bytes(&dest, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&dest).unwrap(), b"new");
        assert!(
            planted.symlink_metadata().is_ok(),
            "another's file was removed"
        );
    }
}
