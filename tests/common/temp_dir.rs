//! A fresh temporary folder per test, removed when the test ends, whether it passed or not.

use std::ops::Deref;
use std::path::Path;

/// A fresh, empty folder of its own under the system's temporary folder, removed with
/// everything in it when dropped; it derefs to its path.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// The folder.
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

/// A new [`Scratch`] folder, its name starting `dicechess-{name}-` (the test it is for).
pub fn temp_dir(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("dicechess-{name}-"))
        .tempdir()
        .expect("create a temporary folder");
    Scratch(dir)
}
