//! An exclusive lock on an output folder, so two runs writing one folder refuse cleanly
//! instead of overwriting each other's files and manifest.
//!
//! The lock is an advisory `flock` on the folder itself (std's [`File::try_lock`] on the
//! opened directory): no lock file to leave behind, and the operating system drops it when
//! the process ends, however it ends.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// Why a folder could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error("{dir} is in use by another dicechess run (it holds the folder's lock); wait for it to finish or use another output")]
    Busy {
        /// The folder.
        dir: PathBuf,
    },
    /// The folder could not be opened or locked.
    #[error("cannot lock {dir}: {source}")]
    Io {
        /// The folder.
        dir: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// A held folder lock, released when dropped.
#[derive(Debug)]
pub struct DirLock {
    _handle: File,
    dir: PathBuf,
}

impl DirLock {
    /// The locked folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Lock the existing folder `dir` exclusively, without waiting.
pub fn lock_dir(dir: &Path) -> Result<DirLock, LockError> {
    let io = |source| LockError::Io {
        dir: dir.to_owned(),
        source,
    };
    let handle = File::open(dir).map_err(io)?;
    match handle.try_lock() {
        Ok(()) => Ok(DirLock {
            _handle: handle,
            dir: dir.to_owned(),
        }),
        Err(TryLockError::WouldBlock) => Err(LockError::Busy {
            dir: dir.to_owned(),
        }),
        Err(TryLockError::Error(e)) => Err(io(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_folder_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_dir(dir.path()).unwrap();
        let err = lock_dir(dir.path()).unwrap_err();
        assert!(matches!(err, LockError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("in use"), "{err}");
        drop(first);
        lock_dir(dir.path()).unwrap();
    }
}
