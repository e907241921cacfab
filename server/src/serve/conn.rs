//! Connections: the accept loop in front of the router, with the limits a server on the open
//! internet needs, and the graceful shutdown.
//!
//! axum's own `serve` sets no timer, so a client that opens a connection and then sends its
//! headers a byte at a time (or nothing at all) holds a socket and a task for ever; a few hundred
//! such clients exhaust the process's file descriptors and nobody else is served. Here:
//! - a request's headers must arrive within [`Limits::header_timeout`] of the connection being
//!   ready for one, idle keep-alive connections included, or the connection is closed;
//! - at most [`Limits::max_connections`] connections are served at once: past that the loop stops
//!   accepting, and new clients wait in the kernel's listen backlog until one closes (they are
//!   delayed, not refused);
//! - an accept error (typically out of file descriptors) pauses the loop briefly instead of
//!   spinning on it.
//!
//! (The request body has its own deadline, where it is read: `api::ApiJson`.)
//!
//! On the shutdown signal the listener closes at once; each connection finishes the request it
//! is serving, then closes. [`serve`] returns whether they all did within [`Limits::drain`].

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// What one client may take of the server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time for a request's headers to arrive (also how long a keep-alive connection may idle).
    pub header_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// How long in-flight requests may take to finish after the shutdown signal.
    pub drain: Duration,
}

/// How long the loop rests after an accept error before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` until `stop` turns true, then drains. Returns true when every
/// connection closed within `limits.drain`, false when some were still open and were dropped.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) -> bool {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            _ = stop.wait_for(|&s| s) => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    crate::warn(format_args!("cannot accept a connection: {e}"));
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = stop.wait_for(|&s| s) => break,
        };
        // Responses are written whole; Nagle would only delay the last segment.
        let _ = stream.set_nodelay(true);
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away or times out ends its connection; nothing to report.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    eprintln!("shutting down: finishing requests in flight");
    tokio::time::timeout(limits.drain, graceful.shutdown())
        .await
        .is_ok()
}
