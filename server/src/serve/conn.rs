//! Connections: the accept loop in front of the router, with the limits a server on the open
//! internet needs, and the graceful shutdown.
//!
//! axum's own `serve` sets no timer, so a client that opens a connection and then sends its
//! headers a byte at a time, or asks for a file and never reads it, holds a socket and a task
//! for ever; a few hundred such clients take every connection slot and nobody else is served.
//! Here:
//! - **deadlines**: a request's headers must arrive within [`Limits::header_timeout`] of the
//!   connection being ready for one (idle keep-alive connections included); its body within
//!   the body timeout (where it is read: `api::ApiJson`); its response must be written whole
//!   within [`Limits::write_timeout`], however slowly the client reads. Past any of them the
//!   connection is closed;
//! - **a cap per client**: one client address (an IPv6 /64) holds at most
//!   [`Limits::max_per_client`] connections. Past that its most stalled connection (see
//!   [`activity`](super::activity): not reading its response, or idle), else its oldest read
//!   or response in progress, is closed to make room; when all of them are handling writes, the
//!   new one gets a `503` with `Retry-After` and is closed;
//! - **a cap for the server**: at most [`Limits::max_connections`] at once. Past that the most
//!   stalled connection of any client is closed to make room; when none is stalled (every
//!   connection is busy with a real request or a response being read) the loop stops accepting
//!   and new clients wait in the kernel's listen backlog until one closes (delayed, not
//!   refused);
//! - an accept error (typically out of file descriptors) pauses the loop briefly instead of
//!   spinning on it.
//!
//! So clients that only hold connections (slowloris, slow readers, idle keep-alives) can delay
//! nobody, not even from the same address: a newcomer takes the place of one of them, and new
//! connections are the last to be evicted, so it is served before its turn comes.
//!
//! On the shutdown signal the listener closes at once; each connection finishes the request it
//! is serving, then closes. [`serve`] returns whether they all did within [`Limits::drain`].

use super::activity::{Conn, Registry, Tracked, TrackedService};
use super::error::ApiError;
use axum::response::IntoResponse;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// What one client may take of the server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time for a request's headers to arrive (also how long a keep-alive connection may idle).
    pub header_timeout: Duration,
    /// Time for a response to be written whole once it is ready.
    pub write_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold at once.
    pub max_per_client: usize,
    /// How long in-flight requests may take to finish after the shutdown signal.
    pub drain: Duration,
}

/// How long the loop rests after an accept error before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// After evicting a connection to make room, how long to wait for its slot before evicting
/// another (the evicted task closes in microseconds; this only bounds a surprise).
const EVICTION_WAIT: Duration = Duration::from_secs(1);
/// With every connection busy, how often to look again for one that has become stalled.
const RECHECK: Duration = Duration::from_millis(100);
/// Refusals (503 to a client over its cap) being written at once; past that, a refused
/// connection gets its answer only if the socket takes it at once.
const MAX_REFUSING: usize = 128;
/// How long a refusal may take, answer and the client's leftover request included.
const REFUSAL_TIME: Duration = Duration::from_secs(1);
/// How much of a refused client's request is read (and dropped) so that closing does not
/// reset the connection before the client has read the 503.
const REFUSAL_DRAIN: usize = 64 << 10;

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
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let registry = Arc::new(Registry::default());
    let refusal = Arc::new(refusal(limits.max_per_client).await);
    let sweeper = tokio::spawn(sweep(registry.clone(), limits.write_timeout));
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    crate::warn(format_args!("cannot accept a connection: {e}"));
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = stop.wait_for(|&s| s) => break,
        };
        let Some(conn) = registry.admit(client_key(peer.ip()), limits.max_per_client) else {
            refuse(stream, &refusing, refusal.clone());
            continue;
        };
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => match make_room(&slots, &registry, &conn, &mut stop).await {
                Some(permit) => permit,
                None => {
                    registry.remove(&conn);
                    break;
                }
            },
        };
        // Responses are written whole; Nagle would only delay the last segment.
        let _ = stream.set_nodelay(true);
        let service = TrackedService::new(TowerToHyperService::new(app.clone()), conn.clone());
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(Tracked::new(stream, conn.clone())), service);
        let connection = graceful.watch(connection);
        let registry = registry.clone();
        tokio::spawn(async move {
            // A client that goes away, times out or is evicted ends its connection: dropping
            // it closes the socket. Nothing to report.
            tokio::select! {
                _ = connection => {},
                _ = conn.evicted() => {},
            }
            registry.remove(&conn);
            drop(permit);
        });
    }
    sweeper.abort();
    drop(listener);
    eprintln!("shutting down: finishing requests in flight");
    tokio::time::timeout(limits.drain, graceful.shutdown())
        .await
        .is_ok()
}

/// A connection slot for `conn` when all are taken: the slot of the most stalled connection,
/// evicted, or the first to free up. `None` when the shutdown signal comes first.
async fn make_room(
    slots: &Arc<Semaphore>,
    registry: &Registry,
    conn: &Conn,
    stop: &mut watch::Receiver<bool>,
) -> Option<OwnedSemaphorePermit> {
    loop {
        let wait = if registry.evict_stalled(conn) {
            EVICTION_WAIT
        } else {
            RECHECK
        };
        tokio::select! {
            permit = slots.clone().acquire_owned() => return permit.ok(),
            _ = tokio::time::sleep(wait) => {},
            _ = stop.wait_for(|&s| s) => return None,
        }
    }
}

/// Closes connections whose responses overran the write timeout, a few times per timeout.
async fn sweep(registry: Arc<Registry>, write_timeout: Duration) {
    let period = (write_timeout / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        registry.sweep(write_timeout);
    }
}

/// Who a connection counts against: its IPv4 address, or the /64 of its IPv6 address (one
/// host usually holds a whole /64, so counting single IPv6 addresses would count nothing).
fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            IpAddr::V6(octets.into())
        }
        v4 => v4,
    }
}

/// The whole HTTP/1.1 answer to a client over its cap: the API's JSON error, 503, with
/// `Retry-After`, closing the connection.
async fn refusal(max_per_client: usize) -> Vec<u8> {
    let response = ApiError::busy(
        "too_many_connections",
        format!(
            "this client already has {max_per_client} connections open, all busy with writes \
             (the server's --max-client-connections); retry when one of them is done"
        ),
    )
    .into_response();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, 64 << 10)
        .await
        .unwrap_or_default();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        parts.status.as_u16(),
        parts.status.canonical_reason().unwrap_or("")
    );
    for (name, value) in &parts.headers {
        if let Ok(value) = value.to_str() {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&body);
    bytes
}

/// Answers a refused connection with `answer` and closes it, in the background and bounded in
/// time; past [`MAX_REFUSING`] refusals at once, answers only if the socket takes the answer
/// at once (a fresh socket does), and closes it.
fn refuse(mut stream: TcpStream, refusing: &Arc<Semaphore>, answer: Arc<Vec<u8>>) {
    let Ok(permit) = refusing.clone().try_acquire_owned() else {
        let _ = stream.try_write(&answer);
        return;
    };
    tokio::spawn(async move {
        let _ = tokio::time::timeout(REFUSAL_TIME, async {
            stream.write_all(&answer).await?;
            stream.shutdown().await?;
            let mut sink = [0u8; 4096];
            let mut read = 0;
            while read < REFUSAL_DRAIN {
                match stream.read(&mut sink).await? {
                    0 => break,
                    n => read += n,
                }
            }
            Ok::<_, std::io::Error>(())
        })
        .await;
        drop(permit);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_addresses_or_ipv6_slash_64s() {
        let v4: IpAddr = "203.0.113.7".parse().unwrap();
        assert_eq!(client_key(v4), v4);
        let mapped: IpAddr = "::ffff:203.0.113.7".parse().unwrap();
        assert_eq!(client_key(mapped), v4);
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
    }
}
