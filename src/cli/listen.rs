//! The tokio runtime and the listening socket of the commands that serve HTTP (`serve`,
//! `web`), with the CLI's error contract: a bad `--bind`/`--port` is bad input.

use super::CliError;

/// A multi-threaded runtime; `workers` I/O threads (default: one per core).
pub fn runtime(workers: Option<usize>) -> Result<tokio::runtime::Runtime, CliError> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = workers {
        builder.worker_threads(n);
    }
    builder
        .enable_all()
        .build()
        .map_err(|e| CliError::Other(e.into()))
}

/// Listen on `bind:port`.
pub async fn listen(bind: &str, port: u16) -> Result<tokio::net::TcpListener, CliError> {
    let addr = format!("{bind}:{port}");
    tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| CliError::Input(format!("--bind/--port {addr}: {e}")))
}
