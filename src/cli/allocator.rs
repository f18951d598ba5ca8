//! Allocator settings for long-running commands.

/// Keep glibc's mmap threshold at its initial 128 KiB for the life of the process.
///
/// Why: glibc raises the threshold (up to 32 MiB) each time a large mmapped block is freed,
/// after which blocks of that size come from the heap, where freed holes of varying sizes
/// are rarely given back. A search's buffers (end positions, leaf batches) are such blocks,
/// so `serve`'s RSS crept under load: in 8-game soaks against `best` on 2 cores
/// (`benches/serve_load.rs`) it rose 10 MiB between the 2nd and the 4th minute, and 3 MiB
/// with the threshold fixed (`MALLOC_MMAP_THRESHOLD_=131072`, which this call sets).
/// Elsewhere (other C libraries, other systems) it does nothing.
pub fn fix_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only changes a tunable of glibc's allocator; it is called before
        // any server thread exists, with a documented parameter and value, and allocations
        // made before and after it stay valid whatever it returns.
        let _ = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024) };
    }
}
