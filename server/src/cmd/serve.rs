//! `uniqcheck serve --db FILE`: the HTTP server (page, npm package, packs, JSON API).
//!
//! This module resolves and validates the command line: which folders to serve, where packs go,
//! who may write. It refuses the unsafe combinations up front, each with the fix: a writable
//! server with no token (unless `--no-auth`), and `--no-auth` on anything but a loopback address.
//! The server itself is [`crate::serve`].

use crate::options::{store_error, UsageError};
use crate::serve::{self, Config, Limits, StaticDir, Writes};
use crate::store::Store;
use crate::warn;
use anyhow::{Context, Result};
use clap::Args;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use uniqcheck::Params;

/// The environment variable holding the write token.
pub const TOKEN_ENV: &str = "UNIQCHECK_TOKEN";

/// Flags of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The document store (created with the default engine parameters if missing)
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Address to listen on; port 0 picks a free port (the address is printed on stdout)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Folder served at / [default: ./www, else the repository's www/, if present]
    #[arg(long, value_name = "DIR")]
    pub www: Option<PathBuf>,
    /// Folder served at /pkg/ (the npm package) [default: ./pkg, else the repository's pkg/, if
    /// present]
    #[arg(long, value_name = "DIR")]
    pub pkg: Option<PathBuf>,
    /// Folder the packs are written to and served from [default: packs/ next to the store]
    #[arg(long, value_name = "DIR")]
    pub packs: Option<PathBuf>,
    /// Bearer token that writes (POST, DELETE) must carry. Prefer the UNIQCHECK_TOKEN
    /// environment variable: a command line is visible to every user of the machine
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Accept writes without a token (only on a loopback address such as 127.0.0.1)
    #[arg(long, conflicts_with = "token")]
    pub no_auth: bool,
    /// Refuse every write: serve the page, the packs and reads only
    #[arg(long, conflicts_with_all = ["token", "no_auth"])]
    pub read_only: bool,
    /// Origin allowed to call the API and fetch packs from a browser (repeatable), e.g.
    /// https://cms.example.org; `*` lets any origin read, but not write
    #[arg(long = "cors", value_name = "ORIGIN")]
    pub cors: Vec<String>,
    /// Largest request body, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 8 << 20)]
    pub max_body: usize,
    /// Seconds a client has to send a request's headers; also how long an idle keep-alive
    /// connection stays open
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub header_timeout: f64,
    /// Seconds a client has to send a whole request body (at --max-body, 60 s asks for about
    /// 140 kB/s)
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub body_timeout: f64,
    /// Seconds a response has to be written whole once it is ready, however slowly the client
    /// reads (for a 512 KiB file, 60 s asks for about 9 kB/s)
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub write_timeout: f64,
    /// Connections served at once; past that, the connection stalled longest (idle, or not
    /// reading its response) is closed to make room, else new clients wait until one closes
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold at once; past that its most
    /// stalled one (else its oldest read in progress) is closed to make room; when all are
    /// handling writes, the new one gets a 503 with Retry-After
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_client_connections: usize,
    /// Bytes of request bodies held in memory at once (a write past it gets a 503 with
    /// Retry-After); at least --max-body
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub body_budget: usize,
    /// Seconds requests in flight may take to finish after Ctrl-C or SIGTERM
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub shutdown_timeout: f64,
    /// Size to aim pack index pages at, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = crate::packs::DEFAULT_PAGE_BYTES, alias = "shard-size")]
    pub page_bytes: usize,
    /// Do not log requests and pack rewrites on stderr
    #[arg(short, long)]
    pub quiet: bool,
    /// Publish-time checks also find a text translated from a stored one in the other language
    /// (English and Russian) through this table (data/bilingual/en-ru.uqbl), and the packs
    /// publish it, so checks through them (the page, the editors) find translations too
    #[arg(long, value_name = "FILE")]
    pub bilingual: Option<PathBuf>,
}

/// Runs `serve` until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> Result<()> {
    let writes = writes(&args)?;
    for origin in &args.cors {
        check_origin(origin)?;
    }
    if args.max_body == 0 {
        return Err(UsageError::new("--max-body must be at least 1 byte").into());
    }
    if args.page_bytes == 0 {
        return Err(UsageError::new("--page-bytes must be at least 1 byte").into());
    }
    if args.max_connections == 0 {
        return Err(UsageError::new("--max-connections must be at least 1").into());
    }
    if args.max_client_connections == 0 {
        return Err(UsageError::new("--max-client-connections must be at least 1").into());
    }
    if args.body_budget < args.max_body {
        return Err(UsageError::new(format!(
            "--body-budget ({}) must be at least --max-body ({}), or no body of the largest \
             size could ever be accepted",
            args.body_budget, args.max_body
        ))
        .into());
    }
    let limits = Limits {
        header_timeout: seconds("--header-timeout", args.header_timeout)?,
        write_timeout: seconds("--write-timeout", args.write_timeout)?,
        max_connections: args.max_connections,
        max_per_client: args.max_client_connections,
        drain: seconds("--shutdown-timeout", args.shutdown_timeout)?,
    };
    let body_timeout = seconds("--body-timeout", args.body_timeout)?;
    let www = folder(args.www.as_deref(), "www", "--www", "")?;
    let pkg = folder(args.pkg.as_deref(), "pkg", "--pkg", "/pkg")?;
    let packs = args
        .packs
        .clone()
        .unwrap_or_else(|| args.db.parent().unwrap_or(Path::new("")).join("packs"));
    let store = if args.db.exists() {
        Store::open_existing(&args.db)
    } else {
        Store::open(&args.db, Params::default())
    }
    .map_err(store_error)
    .with_context(|| format!("cannot open the store {}", args.db.display()))?;

    let config = Config {
        addr: args.addr,
        packs,
        max_page_bytes: args.page_bytes,
        www,
        pkg,
        writes,
        cors: args.cors,
        max_body: args.max_body,
        body_timeout,
        body_budget: args.body_budget,
        limits,
        quiet: args.quiet,
        bilingual: crate::input::bilingual(args.bilingual.as_deref(), store.params())?,
    };
    serve::return_large_blocks_to_the_system();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve::run(config, store))
}

/// A timeout flag's value: a positive number of seconds, at most a day.
fn seconds(flag: &str, value: f64) -> Result<std::time::Duration> {
    if !(value > 0.0 && value <= 86_400.0) {
        return Err(UsageError::new(format!(
            "{flag} must be a number of seconds above 0 and at most 86400, not {value}"
        ))
        .into());
    }
    Ok(std::time::Duration::from_secs_f64(value))
}

/// Who may write, from `--token`, `UNIQCHECK_TOKEN`, `--no-auth` and `--read-only`.
fn writes(args: &ServeArgs) -> Result<Writes> {
    if args.read_only {
        return Ok(Writes::ReadOnly);
    }
    let env = std::env::var(TOKEN_ENV).ok();
    if args.no_auth {
        if !args.addr.ip().is_loopback() {
            return Err(UsageError::new(format!(
                "--no-auth is only allowed on a loopback address (127.0.0.1 or [::1]), not {}: \
                 anyone who can reach {} could change the index. Set a token ({TOKEN_ENV}=… or \
                 --token) instead, or listen on --addr 127.0.0.1:{}",
                args.addr,
                args.addr.ip(),
                args.addr.port()
            ))
            .into());
        }
        if env.is_some() {
            warn(format_args!(
                "{TOKEN_ENV} is set but --no-auth was given: writes need no token"
            ));
        }
        return Ok(Writes::Open);
    }
    match args.token.clone().or(env) {
        Some(token) if token.trim().is_empty() => Err(UsageError::new(format!(
            "the write token is empty: set {TOKEN_ENV} (or --token) to a long random string"
        ))
        .into()),
        Some(token) => {
            if token.len() < 16 {
                warn("the write token is shorter than 16 characters: use a long random string");
            }
            Ok(Writes::token(token.trim()))
        }
        None => Err(UsageError::new(format!(
            "refusing to start a writable server without a token: set {TOKEN_ENV} (or pass \
             --token) so that writes need `Authorization: Bearer <token>`, or pass --read-only \
             to refuse writes, or --no-auth to accept writes from anyone (loopback addresses only)"
        ))
        .into()),
    }
}

/// An origin as browsers send it: `*`, or `scheme://host[:port]` with no path.
fn check_origin(origin: &str) -> Result<()> {
    let valid = origin == "*"
        || ["http://", "https://"].iter().any(|scheme| {
            origin.strip_prefix(scheme).is_some_and(|rest| {
                !rest.is_empty()
                    && rest
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
            })
        });
    if valid {
        Ok(())
    } else {
        Err(UsageError::new(format!(
            "invalid --cors origin {origin:?}: give it as the browser sends it, scheme and host \
             with no path (https://cms.example.org, http://localhost:3000), or * to let any \
             origin read"
        ))
        .into())
    }
}

/// The folder to serve: the one given (which must exist), or `./NAME`, or the repository's
/// `NAME/` (a development checkout), whichever exists first.
fn folder(
    given: Option<&Path>,
    name: &str,
    flag: &str,
    mount: &'static str,
) -> Result<Option<StaticDir>> {
    if let Some(dir) = given {
        return StaticDir::new(dir, mount)
            .with_context(|| format!("invalid {flag}"))
            .map(Some);
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(|r| r.join(name));
    for dir in [Some(PathBuf::from(name)), repo].into_iter().flatten() {
        if dir.is_dir() {
            return StaticDir::new(&dir, mount).map(Some);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        for ok in [
            "*",
            "https://cms.example.org",
            "http://localhost:3000",
            "http://[::1]:8080",
        ] {
            assert!(check_origin(ok).is_ok(), "{ok}");
        }
        for bad in [
            "cms.example.org",
            "https://",
            "https://a.org/",
            "https://a.org/path",
            "null",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }
}
