//! What every open connection is doing, so the accept loop can tell a client that is using its
//! connection from one that is only holding it.
//!
//! Each connection has a [`Conn`] in the [`Registry`], updated as it goes:
//! - [`Tracked`] (its socket) records when a write started to block: the client is not reading;
//! - [`TrackedService`] (its request handler) records whether a request is being handled (one
//!   that only reads, or one that may write) or its response sent, and when the connection last
//!   went idle (waiting for a request: a new or keep-alive connection, or one whose client is
//!   trickling its headers in).
//!
//! A connection is **stalled** when its writes are blocked (its client does not read) or it is
//! idle. When room is needed ([`Registry::evict_stalled`] for the server at its cap,
//! [`Registry::admit`] for a client over its cap) the order is [`Conn::eviction_rank`]'s:
//! blocked writers first, then connections idle for a second or more (keep-alives, slowloris),
//! then those idle for less (new ones), each group oldest first. A new connection is thus the
//! last to go and is served long before its turn comes, however fast others come and go. A
//! client over its own cap also loses its reads and responses in progress, older ones first
//! (it is that client's own quota: its newest requests go first). A connection handling a
//! request that may write is never evicted, nor another client's request or response in
//! progress: slow clients lose their connections before busy ones. [`Registry::sweep`] closes a connection whose response is not
//! written whole within the write timeout, however slowly its client reads.
//!
//! Evicting a connection only notifies its task, which drops it (closing the socket) and
//! [`Registry::remove`]s it. All state is behind one mutex taken per connection event (accept,
//! close, eviction), never per read or write: those only touch the connection's atomics.

use axum::body::{Body, Bytes};
use axum::http::Request;
use hyper::body::{Frame, SizeHint};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// Waiting for a request (new, keep-alive, or headers still arriving).
const IDLE: u8 = 0;
/// A request that may change something (POST, DELETE…) is being handled: its body read, the
/// store written.
const HANDLING: u8 = 1;
/// The response is being sent.
const RESPONDING: u8 = 2;
/// A request that only reads (GET, HEAD, OPTIONS) is being handled: cutting it short loses
/// nothing the client cannot ask again.
const READING: u8 = 3;

/// How long, in ms, a connection is protected after it opens or changes phase: long enough for
/// a request to be read and answered, or a finished response to be written out.
const YOUNG: u64 = 1000;

/// One open connection.
pub struct Conn {
    id: u64,
    client: IpAddr,
    epoch: Instant,
    /// [`IDLE`], [`HANDLING`], [`READING`] or [`RESPONDING`].
    phase: AtomicU8,
    /// When the phase began, in ms since `epoch`, plus one.
    since: AtomicU64,
    /// When writes began to block, in ms since `epoch`, plus one; 0 while they do not.
    blocked: AtomicU64,
    /// Set by an eviction; the connection's task waits on it.
    evicted: Notify,
}

impl Conn {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64 + 1
    }

    fn enter(&self, phase: u8) {
        self.since.store(self.now(), Ordering::Relaxed);
        self.phase.store(phase, Ordering::Relaxed);
    }

    /// Where the connection stands in the eviction order (lowest first), if it may be evicted,
    /// and since when it has been there (oldest first):
    /// 0. its writes are blocked (a client that does not read what it asked for holds the
    ///    most: a response and the sockets' buffers);
    /// 1. idle (keep-alive, new, or trickling its headers in) or, only when `own` (room is made
    ///    among the client's own connections), reading or sending a response, for
    ///    [`YOUNG`] or more;
    /// 2. the same for less than [`YOUNG`]: a new connection whose request is about to be read,
    ///    a request being answered, a response still being written out after its body. These
    ///    go last, so a newcomer is served before its turn comes, however fast others come and
    ///    go.
    ///
    /// `None` while it handles a request that may write, and, unless `own`, while it handles
    /// any request or sends a response that is being read.
    fn eviction_rank(&self, own: bool) -> Option<(u8, u64)> {
        let blocked = self.blocked.load(Ordering::Relaxed);
        if blocked != 0 {
            return Some((0, blocked));
        }
        let evictable = match self.phase.load(Ordering::Relaxed) {
            IDLE => true,
            READING | RESPONDING => own,
            _ => false,
        };
        if !evictable {
            return None;
        }
        let since = self.since.load(Ordering::Relaxed);
        let young = self.now().saturating_sub(since) < YOUNG;
        Some((if young { 2 } else { 1 }, since))
    }

    /// Resolves when the connection is evicted.
    pub async fn evicted(&self) {
        self.evicted.notified().await;
    }
}

/// All open connections, and how many each client holds.
pub struct Registry {
    epoch: Instant,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    conns: HashMap<u64, Arc<Conn>>,
    per_client: HashMap<IpAddr, usize>,
}

impl State {
    /// Forgets `id` (and evicts it, when `notify`). False when it was already gone.
    fn drop_conn(&mut self, id: u64, notify: bool) -> bool {
        let Some(conn) = self.conns.remove(&id) else {
            return false;
        };
        if let Some(n) = self.per_client.get_mut(&conn.client) {
            *n -= 1;
            if *n == 0 {
                self.per_client.remove(&conn.client);
            }
        }
        if notify {
            // A permit is stored if the task is not waiting yet: it still sees it.
            conn.evicted.notify_one();
        }
        true
    }

    /// The first connection in the eviction order ([`Conn::eviction_rank`]) among those `pick`
    /// accepts.
    fn first_to_evict(&self, responding: bool, pick: impl Fn(&Conn) -> bool) -> Option<u64> {
        self.conns
            .values()
            .filter(|c| pick(c))
            .filter_map(|c| c.eviction_rank(responding).map(|rank| (rank, c.id)))
            .min()
            .map(|(_, id)| id)
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            epoch: Instant::now(),
            state: Mutex::default(),
        }
    }
}

impl Registry {
    /// The state; a panic elsewhere while it was held cannot have left it inconsistent enough
    /// to matter more than refusing every connection would.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a new connection from `client`. A client already holding `max_per_client`
    /// connections loses one of them to make room, the first in [`Conn::eviction_rank`]'s order
    /// (reads and responses in progress included); when all of them are handling requests that
    /// may write, the new one is refused: `None`.
    pub fn admit(&self, client: IpAddr, max_per_client: usize) -> Option<Arc<Conn>> {
        let mut state = self.state();
        if state.per_client.get(&client).copied().unwrap_or(0) >= max_per_client {
            let victim = state.first_to_evict(true, |c| c.client == client)?;
            state.drop_conn(victim, true);
        }
        state.next_id += 1;
        let conn = Arc::new(Conn {
            id: state.next_id,
            client,
            epoch: self.epoch,
            phase: AtomicU8::new(IDLE),
            since: AtomicU64::new(self.epoch.elapsed().as_millis() as u64 + 1),
            blocked: AtomicU64::new(0),
            evicted: Notify::new(),
        });
        state.conns.insert(conn.id, conn.clone());
        *state.per_client.entry(client).or_default() += 1;
        Some(conn)
    }

    /// Evicts the connection stalled the longest, other than `keep`. False when none is stalled.
    /// (Other clients' responses in progress are never evicted: only what is stalled.)
    pub fn evict_stalled(&self, keep: &Conn) -> bool {
        let mut state = self.state();
        match state.first_to_evict(false, |c| c.id != keep.id) {
            Some(victim) => state.drop_conn(victim, true),
            None => false,
        }
    }

    /// Forgets a connection that closed.
    pub fn remove(&self, conn: &Conn) {
        self.state().drop_conn(conn.id, false);
    }

    /// Evicts every connection whose response has been on its way for more than
    /// `write_timeout`, or whose writes have been blocked that long.
    pub fn sweep(&self, write_timeout: Duration) {
        let limit = write_timeout.as_millis() as u64;
        let now = self.epoch.elapsed().as_millis() as u64 + 1;
        let mut state = self.state();
        let overdue: Vec<u64> = state
            .conns
            .values()
            .filter(|c| {
                let blocked = c.blocked.load(Ordering::Relaxed);
                let responding = c.phase.load(Ordering::Relaxed) == RESPONDING;
                let since = c.since.load(Ordering::Relaxed);
                (blocked != 0 && now.saturating_sub(blocked) > limit)
                    || (responding && now.saturating_sub(since) > limit)
            })
            .map(|c| c.id)
            .collect();
        for id in overdue {
            state.drop_conn(id, true);
        }
    }

    /// Open connections.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.state().conns.len()
    }
}

/// A connection's socket, recording when its writes block.
pub struct Tracked<S> {
    inner: S,
    conn: Arc<Conn>,
}

impl<S> Tracked<S> {
    /// Wraps `inner`, the socket of `conn`.
    pub fn new(inner: S, conn: Arc<Conn>) -> Self {
        Tracked { inner, conn }
    }

    fn note<T>(&self, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match &poll {
            Poll::Pending => {
                if self.conn.blocked.load(Ordering::Relaxed) == 0 {
                    self.conn.blocked.store(self.conn.now(), Ordering::Relaxed);
                }
            }
            Poll::Ready(_) => self.conn.blocked.store(0, Ordering::Relaxed),
        }
        poll
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.note(poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.note(poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A connection's request handler (`S`, the router as a hyper service), recording its phases.
#[derive(Clone)]
pub struct TrackedService<S> {
    inner: S,
    conn: Arc<Conn>,
}

impl<S> TrackedService<S> {
    /// Wraps `inner`, which serves the requests of `conn`.
    pub fn new(inner: S, conn: Arc<Conn>) -> Self {
        TrackedService { inner, conn }
    }
}

/// Puts the connection back to idle when dropped: when its response body is done, or when the
/// request is abandoned before it has one.
struct IdleOnDrop(Arc<Conn>);

impl Drop for IdleOnDrop {
    fn drop(&mut self) {
        self.0.enter(IDLE);
    }
}

impl<S, B> hyper::service::Service<Request<B>> for TrackedService<S>
where
    S: hyper::service::Service<Request<B>, Response = axum::response::Response>,
    S::Future: Send + 'static,
{
    type Response = axum::response::Response<TrackedBody>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send + 'static>>;

    fn call(&self, req: Request<B>) -> Self::Future {
        self.conn.enter(if req.method().is_safe() {
            READING
        } else {
            HANDLING
        });
        let guard = IdleOnDrop(self.conn.clone());
        let future = self.inner.call(req);
        Box::pin(async move {
            let response = future.await?;
            guard.0.enter(RESPONDING);
            Ok(response.map(|body| TrackedBody {
                inner: body,
                _idle: guard,
            }))
        })
    }
}

/// A response body that puts its connection back to idle once sent (or abandoned).
pub struct TrackedBody {
    inner: Body,
    _idle: IdleOnDrop,
}

impl hyper::body::Body for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    /// A registry whose clock started a while ago, so that a connection can be idle for long.
    fn registry() -> Registry {
        Registry {
            epoch: Instant::now().checked_sub(Duration::from_secs(5)).unwrap(),
            state: Mutex::default(),
        }
    }

    fn ip(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
    }

    #[test]
    fn a_client_at_its_cap_loses_its_most_stalled_connection_or_is_refused() {
        let r = registry();
        let first = r.admit(ip(1), 2).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let second = r.admit(ip(1), 2).unwrap();
        // Another client is not affected by the first one's cap.
        let other = r.admit(ip(2), 2).unwrap();
        let third = r.admit(ip(1), 2).unwrap();
        assert_eq!(r.len(), 3, "the first (idle longest) made room");
        assert!(!r.state().conns.contains_key(&first.id));
        assert!(r.state().conns.contains_key(&other.id));
        // Both of the client's connections handling requests: the next one is refused.
        second.enter(HANDLING);
        third.enter(HANDLING);
        assert!(r.admit(ip(1), 2).is_none());
        // Its own response in progress makes room.
        third.enter(RESPONDING);
        let fourth = r.admit(ip(1), 2).unwrap();
        assert!(!r.state().conns.contains_key(&third.id));
        fourth.enter(RESPONDING);
        std::thread::sleep(Duration::from_millis(5));
        second.enter(RESPONDING);
        second.blocked.store(second.now(), Ordering::Relaxed);
        assert!(r.admit(ip(1), 2).is_some());
        assert!(
            !r.state().conns.contains_key(&second.id),
            "blocked goes first"
        );
        assert!(r.state().conns.contains_key(&fourth.id));
    }

    #[test]
    fn the_server_at_its_cap_evicts_the_most_stalled_connection_never_a_busy_one() {
        let r = registry();
        let busy = r.admit(ip(1), 10).unwrap();
        busy.enter(HANDLING);
        std::thread::sleep(Duration::from_millis(5));
        let idle = r.admit(ip(2), 10).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let newcomer = r.admit(ip(3), 10).unwrap();
        assert!(r.evict_stalled(&newcomer));
        assert!(!r.state().conns.contains_key(&idle.id));
        assert!(!r.evict_stalled(&newcomer), "the busy one stays");
        busy.enter(RESPONDING);
        assert!(!r.evict_stalled(&newcomer), "a response being read stays");
        r.remove(&busy);
        r.remove(&busy);
        assert_eq!(r.len(), 1);
        assert!(!r.state().per_client.contains_key(&ip(1)));
    }

    /// Makes `conn` look as if its phase began `ms` ago.
    fn age(conn: &Conn, ms: u64) {
        conn.since.store(conn.now() - ms, Ordering::Relaxed);
    }

    #[test]
    fn blocked_writers_go_first_then_old_idle_then_new_connections() {
        let r = registry();
        let new = r.admit(ip(1), 100).unwrap();
        age(&new, 10);
        let newer = r.admit(ip(1), 100).unwrap();
        let slowloris = r.admit(ip(1), 100).unwrap();
        age(&slowloris, 3000);
        let keep_alive = r.admit(ip(1), 100).unwrap();
        age(&keep_alive, 2000);
        let reader = r.admit(ip(1), 100).unwrap();
        reader.enter(RESPONDING);
        reader.blocked.store(reader.now(), Ordering::Relaxed);
        let newcomer = r.admit(ip(2), 100).unwrap();
        for gone in [&reader, &slowloris, &keep_alive, &new, &newer] {
            assert!(r.evict_stalled(&newcomer));
            assert!(!r.state().conns.contains_key(&gone.id));
        }
        assert!(!r.evict_stalled(&newcomer));
    }

    #[test]
    fn a_client_over_its_cap_loses_an_old_read_before_a_new_connection_never_a_write() {
        let r = registry();
        let writing = r.admit(ip(1), 3).unwrap();
        writing.enter(HANDLING);
        age(&writing, 5000);
        let reading = r.admit(ip(1), 3).unwrap();
        reading.enter(READING);
        age(&reading, 2000);
        let fresh = r.admit(ip(1), 3).unwrap();
        assert!(r.admit(ip(1), 3).is_some());
        assert!(!r.state().conns.contains_key(&reading.id));
        assert!(r.state().conns.contains_key(&fresh.id));
        assert!(r.state().conns.contains_key(&writing.id));
        // Another client's read is never cut for a newcomer.
        let other = r.admit(ip(2), 3).unwrap();
        other.enter(READING);
        age(&other, 5000);
        writing.enter(READING);
        assert!(r.evict_stalled(&other), "the fresh connection");
        assert!(!r.state().conns.contains_key(&fresh.id));
    }

    #[test]
    fn sweep_closes_responses_past_the_write_timeout() {
        let r = registry();
        let slow = r.admit(ip(1), 10).unwrap();
        let fresh = r.admit(ip(1), 10).unwrap();
        slow.enter(RESPONDING);
        std::thread::sleep(Duration::from_millis(30));
        fresh.enter(RESPONDING);
        r.sweep(Duration::from_millis(20));
        assert!(!r.state().conns.contains_key(&slow.id));
        assert!(r.state().conns.contains_key(&fresh.id));
    }
}
