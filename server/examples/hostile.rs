//! Hostile clients against `uniqcheck serve`, on loopback only: the load and fault figures of
//! docs/SERVER.md ("Load and faults"). Every phase is bounded in clients and in time, every
//! socket targets 127.0.0.1 (attackers may bind other 127.0.0.0/8 source addresses, still
//! loopback), and the run stops by itself: the server it started gets SIGTERM at the end.
//!
//! Phases (each while a health probe opens a new connection every second and must get a 200
//! within [`PROBE_TIMEOUT`]):
//! 1. **slow readers**: 520 clients request a 16 MB file with a 4 KB receive buffer and never
//!    read it (pack files are far smaller since packs v2, and would fit in the sockets' buffers:
//!    that would test idle connections, which phase 2 does); when dropped they reconnect;
//! 2. **slowloris**: 600 clients send a request line, then one header line every 2 s, and
//!    reconnect when dropped;
//! 3. **big posts**: 24 concurrent authenticated POSTs of 7.9 MB texts; the server's peak
//!    resident memory (VmHWM, reset before the phase) and the answers; refused posts are retried
//!    after their Retry-After until all are stored or [`POST_RETRY_LIMIT`] passes;
//! 4. **stale packs**: a CLI `uniqcheck index` into the served store, and how long until the
//!    served manifest counts its documents.
//!
//! Usage: `server/benches/hostile.sh [--seconds 25] [--spread] [--only PHASE] [--bin PATH]
//! [-- SERVE FLAGS]`
//! (`--spread`: attackers come from 16 source addresses, 127.0.0.2–127.0.0.17, instead of all
//! from 127.0.0.1 like the probe). Linux only (it reads /proc for memory figures).

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[path = "../tests/common/mod.rs"]
mod common;

const TOKEN: &str = "hostile-bench-token-0123456789";
/// A probe slower than this counts as a failure.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
const SLOW_READERS: usize = 520;
const SLOWLORIS: usize = 600;
const BIG_POSTS: usize = 24;
/// Bytes of text in each big post (the body adds the JSON around it, under 8 MiB).
const BIG_TEXT: usize = 7_900_000;
const POST_RETRY_LIMIT: Duration = Duration::from_secs(240);
/// Documents in the store before the run.
const CORPUS_DOCS: u64 = 6000;
/// Documents the CLI adds in the stale-packs phase.
const LATE_DOCS: u64 = 40;

struct Options {
    bin: PathBuf,
    seconds: u64,
    spread: bool,
    only: Option<String>,
    /// Extra flags for `uniqcheck serve` (after `--`).
    serve_args: Vec<String>,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let exe = std::env::current_exe().expect("own path");
    // target/<profile>/examples/hostile → target/<profile>/uniqcheck
    let default_bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("uniqcheck"))
        .expect("target folder");
    let mut o = Options {
        bin: default_bin,
        seconds: 25,
        spread: false,
        only: None,
        serve_args: Vec::new(),
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bin" => o.bin = args.next().expect("--bin PATH").into(),
            "--seconds" => {
                o.seconds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .filter(|&s| (1..=120).contains(&s))
                    .expect("--seconds 1..=120")
            }
            "--spread" => o.spread = true,
            "--only" => o.only = Some(args.next().expect("--only PHASE")),
            "--" => o.serve_args = args.by_ref().collect(),
            other => panic!(
                "unknown argument {other}; usage: hostile [--bin PATH] [--seconds N] [--spread] \
                 [--only slow-readers|slowloris|big-posts|stale-packs] [-- SERVE FLAGS]"
            ),
        }
    }
    o
}

/// The server under test, stopped with SIGTERM (then killed) when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `(VmHWM, VmRSS)` in MB.
    fn memory(&self) -> (f64, f64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
                .map_or(f64::NAN, |kb| kb / 1024.0)
        };
        (field("VmHWM:"), field("VmRSS:"))
    }

    /// Resets VmHWM to the current resident size (Linux's `clear_refs` 5).
    fn reset_peak(&self) {
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5");
    }
}

/// Size of the file slow readers ask for: more than both ends' socket buffers hold.
const BIG_FILE: usize = 16 << 20;

fn start(bin: &Path, dir: &Path, extra: &[String]) -> Server {
    let www = dir.join("www");
    std::fs::create_dir_all(&www).expect("www folder");
    std::fs::write(www.join("big.bin"), vec![b'x'; BIG_FILE]).expect("the big file");
    let mut child = Command::new(bin)
        .args(["serve", "--db"])
        .arg(dir.join("site.db"))
        .arg("--www")
        .arg(&www)
        .args(["--addr", "127.0.0.1:0", "--quiet"])
        .args(extra)
        .env("UNIQCHECK_TOKEN", TOKEN)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start uniqcheck serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the server's first line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    Server { child, addr }
}

/// Writes `count` documents as JSONL from `first`, and indexes them into the store with the CLI.
fn index(bin: &Path, dir: &Path, name: &str, first: u64, count: u64) -> Duration {
    let path = dir.join(name);
    let mut jsonl = String::new();
    for i in first..first + count {
        let line = serde_json::json!({
            "url": format!("https://bench.example/{i}"),
            "title": format!("Document {i}"),
            "text": common::prose(i, 250),
        });
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
    }
    std::fs::write(&path, jsonl).expect("write the corpus");
    let started = Instant::now();
    let out = Command::new(bin)
        .arg("index")
        .arg(&path)
        .arg("--db")
        .arg(dir.join("site.db"))
        .stdout(Stdio::null())
        .output()
        .expect("run uniqcheck index");
    assert!(
        out.status.success(),
        "index failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    started.elapsed()
}

/// One HTTP/1.1 exchange on a new connection (`Connection: close`): the status and the body.
async fn exchange(addr: SocketAddr, request: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(request).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let status = std::str::from_utf8(&response[..response.len().min(12)])
        .ok()
        .and_then(|head| head.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status line"))?;
    let body = match response.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(i) => response[i + 4..].to_vec(),
        None => Vec::new(),
    };
    Ok((status, body))
}

fn get_request(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").into_bytes()
}

async fn json(addr: SocketAddr, path: &str) -> serde_json::Value {
    let (status, body) = exchange(addr, &get_request(path)).await.expect(path);
    assert_eq!(status, 200, "{path}");
    serde_json::from_slice(&body).expect("JSON")
}

/// What the health probe saw during a phase.
#[derive(Default)]
struct Probes {
    sent: usize,
    ok: usize,
    slowest: Duration,
    failures: Vec<String>,
}

/// Probes `/api/health` on a new connection every second until `until`.
async fn probe(addr: SocketAddr, until: Instant) -> Probes {
    let mut tasks = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    while Instant::now() < until {
        tick.tick().await;
        tasks.push(tokio::spawn(async move {
            let started = Instant::now();
            let r =
                tokio::time::timeout(PROBE_TIMEOUT, exchange(addr, &get_request("/api/health")))
                    .await;
            (started.elapsed(), r)
        }));
    }
    let mut p = Probes::default();
    for t in tasks {
        let (took, r) = t.await.expect("probe task");
        p.sent += 1;
        match r {
            Ok(Ok((200, _))) => {
                p.ok += 1;
                p.slowest = p.slowest.max(took);
            }
            Ok(Ok((status, _))) => p.failures.push(format!("status {status}")),
            Ok(Err(e)) => p.failures.push(format!("error: {e}")),
            Err(_) => p
                .failures
                .push(format!("no answer within {PROBE_TIMEOUT:?}")),
        }
    }
    p
}

/// The source address of attacker `i`.
fn source(i: usize, spread: bool) -> IpAddr {
    if spread {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i % 16) as u8))
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    }
}

async fn connect_from(
    from: IpAddr,
    addr: SocketAddr,
    recv_buffer: Option<u32>,
) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size)?;
    }
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// Connections opened by a group of attackers.
#[derive(Default)]
struct Attack {
    connections: AtomicUsize,
    failed_connects: AtomicUsize,
}

/// Runs `clients` attackers until `until`: each connects (from its source address), sends
/// `first`, then `next(i)` every 2 s; a failed write means the server dropped it: it reconnects.
async fn attack(
    addr: SocketAddr,
    clients: usize,
    spread: bool,
    recv_buffer: Option<u32>,
    until: Instant,
    first: Arc<Vec<u8>>,
    next: fn(usize) -> Vec<u8>,
) -> Arc<Attack> {
    let stats = Arc::new(Attack::default());
    let mut tasks = Vec::new();
    for c in 0..clients {
        let (stats, first) = (stats.clone(), first.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < until {
                let Ok(Ok(mut stream)) = tokio::time::timeout(
                    Duration::from_secs(2),
                    connect_from(source(c, spread), addr, recv_buffer),
                )
                .await
                else {
                    stats.failed_connects.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                stats.connections.fetch_add(1, Ordering::Relaxed);
                if stream.write_all(&first).await.is_err() {
                    continue;
                }
                let mut i = 0;
                loop {
                    let left = until.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return;
                    }
                    tokio::time::sleep(left.min(Duration::from_secs(2))).await;
                    i += 1;
                    if stream.write_all(&next(i)).await.is_err() {
                        break;
                    }
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    stats
}

fn report_probes(what: &str, p: &Probes, a: &Attack) {
    println!(
        "{what}: health probes {}/{} answered 200 (slowest {:.0} ms); attackers opened {} \
         connections ({} connects failed)",
        p.ok,
        p.sent,
        p.slowest.as_secs_f64() * 1000.0,
        a.connections.load(Ordering::Relaxed),
        a.failed_connects.load(Ordering::Relaxed),
    );
    for f in p.failures.iter().take(5) {
        println!("  probe failure: {f}");
    }
}

async fn slow_readers(addr: SocketAddr, o: &Options) {
    let path = "/big.bin";
    println!(
        "slow readers: {SLOW_READERS} clients × GET {path} ({BIG_FILE} bytes), 4 KB receive \
         buffer, never read"
    );
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").into_bytes();
    let until = Instant::now() + Duration::from_secs(o.seconds);
    let attackers = attack(
        addr,
        SLOW_READERS,
        o.spread,
        Some(4096),
        until,
        Arc::new(request),
        // One more pipelined request every 2 s: a write that fails tells the server closed.
        |_| b"GET /packs/manifest.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec(),
    );
    let (probes, stats) = tokio::join!(probe(addr, until), attackers);
    report_probes("slow readers", &probes, &stats);
}

async fn slowloris(addr: SocketAddr, o: &Options) {
    println!(
        "slowloris: {SLOWLORIS} clients, one header line every 2 s, reconnecting when dropped"
    );
    let until = Instant::now() + Duration::from_secs(o.seconds);
    let attackers = attack(
        addr,
        SLOWLORIS,
        o.spread,
        None,
        until,
        Arc::new(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_vec()),
        |i| format!("X-Slow-{i}: {i}\r\n").into_bytes(),
    );
    let (probes, stats) = tokio::join!(probe(addr, until), attackers);
    report_probes("slowloris", &probes, &stats);
}

async fn big_posts(addr: SocketAddr, server: &Server) {
    let (peak, rss) = server.memory();
    println!(
        "big posts: {BIG_POSTS} concurrent authenticated POSTs of {:.1} MB texts; server at \
         {rss:.0} MB resident (peak so far {peak:.0} MB)",
        BIG_TEXT as f64 / 1e6
    );
    server.reset_peak();
    let started = Instant::now();
    let tasks: Vec<_> = (0..BIG_POSTS)
        .map(|i| {
            tokio::spawn(async move {
                let mut text = common::prose(1_000_000 + i as u64, BIG_TEXT / 7);
                text.truncate(BIG_TEXT);
                let body = serde_json::json!({ "url": format!("https://bench.example/big/{i}"), "text": text })
                    .to_string();
                let mut request = format!(
                    "POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
                     Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n\
                     Content-Length: {}\r\n\r\n",
                    body.len()
                )
                .into_bytes();
                request.extend_from_slice(body.as_bytes());
                drop((text, body));
                let mut answers = Vec::new();
                while started.elapsed() < POST_RETRY_LIMIT {
                    let answer = match tokio::time::timeout(POST_RETRY_LIMIT, exchange(addr, &request)).await {
                        Ok(Ok((status, _))) => status.to_string(),
                        Ok(Err(e)) => format!("error ({e})"),
                        Err(_) => "no answer".to_owned(),
                    };
                    let retry = answer == "503";
                    answers.push(answer);
                    if !retry {
                        break;
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                answers
            })
        })
        .collect();
    let mut first = std::collections::BTreeMap::<String, usize>::new();
    let mut stored = 0;
    let mut attempts = 0;
    for t in tasks {
        let answers = t.await.expect("post task");
        attempts += answers.len();
        *first.entry(answers[0].clone()).or_default() += 1;
        stored += answers.last().is_some_and(|a| a == "201" || a == "200") as usize;
    }
    let (peak, rss) = server.memory();
    println!(
        "big posts: first answers {first:?}; {stored}/{BIG_POSTS} stored after {attempts} \
         attempts in {:.1} s; server peak {peak:.0} MB resident during the phase, {rss:.0} MB after",
        started.elapsed().as_secs_f64()
    );
}

async fn stale_packs(addr: SocketAddr, bin: &Path, dir: &Path) {
    // First the packs of the earlier phases' writes, so only the CLI's are measured.
    let settle = Instant::now() + Duration::from_secs(120);
    while json(addr, "/api/health").await["changes"]
        != json(addr, "/packs/manifest.json").await["changes"]
    {
        assert!(
            Instant::now() < settle,
            "the packs never caught up with the API's writes"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let before = json(addr, "/packs/manifest.json").await["documents"]
        .as_u64()
        .unwrap_or(0);
    let (bin, dir2) = (bin.to_owned(), dir.to_owned());
    let took =
        tokio::task::spawn_blocking(move || index(&bin, &dir2, "late.jsonl", 5_000_000, LATE_DOCS))
            .await
            .expect("index");
    let indexed = Instant::now();
    let limit = Duration::from_secs(60);
    loop {
        let now = json(addr, "/packs/manifest.json").await["documents"]
            .as_u64()
            .unwrap_or(0);
        if now >= before + LATE_DOCS {
            println!(
                "stale packs: CLI index of {LATE_DOCS} documents took {:.1} s; the served \
                 manifest counted them {:.1} s after it exited",
                took.as_secs_f64(),
                indexed.elapsed().as_secs_f64()
            );
            return;
        }
        if indexed.elapsed() > limit {
            println!(
                "stale packs: the served manifest still shows {now} documents (expected {}) \
                 {} s after the CLI index exited",
                before + LATE_DOCS,
                limit.as_secs()
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn main() {
    let o = options();
    assert!(
        o.bin.exists(),
        "no binary at {} (build it, or pass --bin)",
        o.bin.display()
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    let took = index(&o.bin, dir.path(), "corpus.jsonl", 0, CORPUS_DOCS);
    println!(
        "setup: {CORPUS_DOCS} documents indexed in {:.1} s; server {}",
        took.as_secs_f64(),
        o.bin.display()
    );
    let server = start(&o.bin, dir.path(), &o.serve_args);
    let addr = server.addr;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let run = |phase: &str| o.only.as_deref().is_none_or(|only| only == phase);
    runtime.block_on(async {
        if run("slow-readers") {
            slow_readers(addr, &o).await;
        }
        if run("slowloris") {
            slowloris(addr, &o).await;
        }
        if run("big-posts") {
            big_posts(addr, &server).await;
        }
        if run("stale-packs") {
            stale_packs(addr, &o.bin, dir.path()).await;
        }
    });
    drop(runtime);
    drop(server);
}
