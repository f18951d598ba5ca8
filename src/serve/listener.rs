//! The accept loop: HTTP/1.1 connections through hyper with a header-read timeout, at most
//! a fixed number of them at once, and a graceful drain on shutdown.

use super::limits::HEADER_READ_TIMEOUT;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// How the loop runs.
pub struct LoopConfig {
    /// Connections served at once.
    pub max_connections: usize,
    /// On shutdown, wait this long for connections in flight.
    pub drain: Duration,
    /// Log events to stderr.
    pub log: bool,
}

/// Serve `router` on `listener` until `stop` turns true, then drain.
pub async fn run(
    listener: TcpListener,
    router: Router,
    config: LoopConfig,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .keep_alive(true);
    loop {
        // A permit first: past the cap, connections wait in the kernel's backlog rather
        // than in our memory.
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = stop.wait_for(|s| *s) => break,
        };
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.wait_for(|s| *s) => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors and the like: pause instead of spinning.
                if config.log {
                    eprintln!(
                        "{}",
                        json!({"event": "accept-error", "error": e.to_string()})
                    );
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let conn = http.serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _permit = permit;
            // A client that goes away mid-request is no error of ours.
            let _ = conn.await;
        });
    }
    drop(listener);
    if tokio::time::timeout(config.drain, graceful.shutdown())
        .await
        .is_err()
        && config.log
    {
        eprintln!(
            "{}",
            json!({"event": "drain-timeout", "drainMs": config.drain.as_millis() as u64})
        );
    }
    Ok(())
}
