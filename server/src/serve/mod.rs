//! The HTTP server behind `uniqcheck serve`: the copywriter page, the npm package, the packs and
//! a small JSON API over one store.
//!
//! | module | concern |
//! |---|---|
//! | this one | the router, start-up, request log, CORS |
//! | [`conn`] | the accept loop: deadlines, connection caps (per client and in all), graceful shutdown |
//! | [`activity`] | what each connection is doing (busy or stalled), for the caps and the write deadline |
//! | [`api`] | `/api/*`: health, add/replace, read and delete documents |
//! | [`auth`] | bearer-token check for writes |
//! | [`pack_files`] | `/packs/manifest.json` (ETag, no-cache) and the other pack files (immutable) |
//! | [`repack`] | the background task that rewrites packs after writes, the server's or another process's (debounced) |
//! | [`static_files`] | `www/` at `/` and `pkg/` at `/pkg/`, with no way out of either folder |
//! | [`error`] | the API's JSON error |
//!
//! Guarantees: packs are written before the server says it is listening, so the first manifest
//! fetched is complete; a hostile request gets an error status, never a panic (and a panic in a
//! handler anyway would be a 500, not a dead server); on Ctrl-C or SIGTERM the server stops
//! accepting, lets in-flight requests finish (for up to [`Limits::drain`]), writes any pending
//! packs and exits with success. A slow or silent client is cut off (see [`conn`] and the body
//! deadline of `api::ApiJson`) rather than holding a connection for ever, and the memory held by
//! request bodies stays within `--body-budget` ([`api::BodyBudget`]).

mod activity;
mod api;
mod auth;
mod conn;
mod error;
mod pack_files;
mod repack;
mod static_files;

pub use auth::Writes;
pub use conn::Limits;
pub use repack::PackTarget;
pub use static_files::StaticDir;

use crate::store::Store;
use anyhow::{Context, Result};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Everything the server needs, resolved and validated by `cmd::serve`.
pub struct Config {
    /// Where to listen (port 0: any free port).
    pub addr: SocketAddr,
    /// Where packs are written and served from.
    pub packs: PathBuf,
    /// Largest pack index page, in bytes.
    pub max_page_bytes: usize,
    /// The page, served at `/`.
    pub www: Option<StaticDir>,
    /// The npm package, served at `/pkg/`.
    pub pkg: Option<StaticDir>,
    /// Who may write.
    pub writes: Writes,
    /// Origins allowed by CORS; `*` allows any origin to read.
    pub cors: Vec<String>,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// Time for a request body to arrive whole.
    pub body_timeout: Duration,
    /// Bytes of request bodies held in memory at once.
    pub body_budget: usize,
    /// Header timeout, connection cap, shutdown drain.
    pub limits: Limits,
    /// No request log.
    pub quiet: bool,
    /// English–Russian table through which publish-time checks also find translations.
    pub bilingual: Option<Arc<uniqcheck::bilingual::Bilingual>>,
}

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    store: Arc<Mutex<Store>>,
    repacker: Arc<repack::Repacker>,
    writes: Writes,
    packs: Arc<std::path::Path>,
    max_body: usize,
    body_timeout: Duration,
    bodies: Arc<api::BodyBudget>,
    bilingual: Option<Arc<uniqcheck::bilingual::Bilingual>>,
}

/// Locks the store. A panic while it was held cannot have left it half-written (SQLite rolls back
/// an unfinished transaction), so a poisoned lock is taken over rather than failing forever.
fn lock(store: &Mutex<Store>) -> MutexGuard<'_, Store> {
    store
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Makes the allocator give large blocks back to the system as soon as they are freed. Call once,
/// before any other thread starts.
///
/// A write holds a few buffers the size of its body (the bytes, the text, the analysis) for a
/// moment. glibc raises its mmap threshold after the first such buffer is freed, so later ones
/// come from its per-thread heaps instead, which keep what they held: with requests analysed on
/// many threads, resident memory grew to about 16 heaps' worth of bodies (1.2 GB for 24
/// concurrent 8 MB posts under a 64 MiB `--body-budget`, 370 MB with this; see docs/SERVER.md).
/// A fixed threshold of 1 MiB (which also stops the raising) maps every block from 1 MiB up on
/// its own, and unmaps it on free, so resident memory follows the memory in use, which the body
/// budget bounds. Other allocators (musl's, macOS's) return large blocks already: nothing to do.
pub fn return_large_blocks_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::ffi::c_int;
        extern "C" {
            fn mallopt(param: c_int, value: c_int) -> c_int;
        }
        /// `M_MMAP_THRESHOLD` in glibc's malloc.h.
        const M_MMAP_THRESHOLD: c_int = -3;
        // SAFETY: mallopt only sets a tunable of glibc's allocator, which this binary links (the
        // cfg); it is called before the runtime starts any thread, as its manual asks.
        let done = unsafe { mallopt(M_MMAP_THRESHOLD, 1 << 20) };
        if done != 1 {
            crate::warn("cannot tune the allocator: memory may stay high after large writes");
        }
    }
}

/// Runs the server over `store` until Ctrl-C or SIGTERM.
pub async fn run(config: Config, store: Store) -> Result<()> {
    let store = Arc::new(Mutex::new(store));
    let target = PackTarget {
        store: store.clone(),
        dir: config.packs.clone(),
        options: crate::packs::PackOptions {
            page_bytes: config.max_page_bytes,
            bilingual: config.bilingual.clone(),
        },
        verbose: !config.quiet,
    };
    let first = tokio::task::spawn_blocking(move || target.write(None).map(|m| (target, m)))
        .await
        .context("the pack writer stopped")?;
    let (target, manifest) = first?;
    // Written unconditionally (`None`), so there is a manifest.
    let packed = manifest.map_or(-1, |m| m.changes);

    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener.local_addr()?;
    let signal = shutdown_signal()?;

    let (repacker, repack_task) = repack::Repacker::start(target, packed);
    let state = AppState {
        store,
        repacker: repacker.clone(),
        writes: config.writes.clone(),
        packs: config.packs.clone().into(),
        max_body: config.max_body,
        body_timeout: config.body_timeout,
        bodies: Arc::new(api::BodyBudget::new(config.body_budget)),
        bilingual: config.bilingual.clone(),
    };
    let app = router(state, &config)?;

    // The one line on stdout: scripts and tests read the address from it.
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on http://{addr}")?;
    stdout.flush()?;
    drop(stdout);
    eprintln!(
        "uniqcheck {}: {}; packs in {}; www: {}; pkg: {}",
        uniqcheck::VERSION,
        config.writes.describe(),
        config.packs.display(),
        config
            .www
            .as_ref()
            .map_or("none".into(), |d| d.path().display().to_string()),
        config
            .pkg
            .as_ref()
            .map_or("none".into(), |d| d.path().display().to_string()),
    );

    let (signal_tx, signal_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        signal.await;
        let _ = signal_tx.send(true);
    });
    if !conn::serve(listener, app, config.limits, signal_rx).await {
        crate::warn(format_args!(
            "requests still running after {} s were dropped",
            config.limits.drain.as_secs_f64()
        ));
    }
    repacker.finish(repack_task).await;
    eprintln!("stopped");
    Ok(())
}

/// All routes, with the request log, CORS, the body limit and panic catching.
fn router(state: AppState, config: &Config) -> Result<Router> {
    let mut app = Router::new()
        .nest("/api", api::router())
        .route("/packs/manifest.json", get(pack_files::manifest))
        .route("/packs/{*path}", get(pack_files::file));
    if let Some(pkg) = config.pkg.clone() {
        app = app.nest_service("/pkg", pkg.service());
    }
    app = match config.www.clone() {
        Some(www) => app.fallback_service(www.service()),
        None => app.fallback(|| async { static_files::not_found() }),
    };
    let mut app = app
        .layer(DefaultBodyLimit::max(config.max_body))
        .layer(CatchPanicLayer::custom(panic_response));
    if let Some(cors) = cors_layer(&config.cors)? {
        app = app.layer(cors);
    }
    let quiet = config.quiet;
    Ok(app
        .layer(middleware::from_fn_with_state(quiet, log_request))
        .with_state(state))
}

/// A handler panicked (a bug: hostile input must get an error, not a panic). The panic hook has
/// already printed where; the client gets a 500 and the server goes on.
fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    error::ApiError::new(
        axum::http::StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the server hit a bug handling this request; the details are in its log",
    )
    .into_response()
}

/// `--cors`: explicit origins may read and write (the token is still needed); `*` lets any
/// origin read (GET, HEAD) but not write, so a page elsewhere cannot drive writes through a
/// visitor's browser even on an `--no-auth` server.
fn cors_layer(origins: &[String]) -> Result<Option<CorsLayer>> {
    if origins.is_empty() {
        return Ok(None);
    }
    let any_reader = origins.iter().any(|o| o == "*");
    let writers: Vec<HeaderValue> = origins
        .iter()
        .filter(|o| *o != "*")
        .map(|o| HeaderValue::from_str(o).with_context(|| format!("invalid --cors origin {o:?}")))
        .collect::<Result<_>>()?;
    let allow = AllowOrigin::predicate(move |origin, parts| {
        if writers.contains(origin) {
            return true;
        }
        // A preflight names the method it asks for; a real request is that method.
        let method = if parts.method == Method::OPTIONS {
            parts
                .headers
                .get(header::ACCESS_CONTROL_REQUEST_METHOD)
                .and_then(|m| Method::from_bytes(m.as_bytes()).ok())
        } else {
            Some(parts.method.clone())
        };
        any_reader && matches!(method, Some(Method::GET | Method::HEAD))
    });
    Ok(Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::DELETE])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::IF_NONE_MATCH,
            ])
            .expose_headers([
                header::ETAG,
                header::LOCATION,
                HeaderName::from_static("x-content-type-options"),
            ])
            .max_age(Duration::from_secs(600)),
    ))
}

/// One line per request on stderr: method, path, status, milliseconds.
async fn log_request(State(quiet): State<bool>, req: Request, next: Next) -> Response {
    if quiet {
        return next.run(req).await;
    }
    let started = Instant::now();
    let method = req.method().clone();
    // Only the path: a query string is the client's business, and may hold anything.
    let path = req.uri().path().to_owned();
    let response = next.run(req).await;
    eprintln!(
        "{method} {path} {} {:.1}ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

/// A future that resolves on Ctrl-C or (on Unix) SIGTERM. The handlers are installed here, at
/// once, so a signal sent right after the "listening" line already stops the server gracefully.
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()> + Send> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot handle Ctrl-C")?;
        let mut terminate = signal(SignalKind::terminate()).context("cannot handle SIGTERM")?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}
