//! End-to-end tests of `uniqcheck serve`: the real binary on an ephemeral loopback port, a
//! temporary store, real HTTP. Every wait is bounded; all traffic goes to 127.0.0.1.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use uniqcheck::pack::{Manifest, PackError, Record};
use uniqcheck::{PackIndex, Params};

mod common;
use common::prose;
#[path = "common/run.rs"]
mod run;

const TOKEN: &str = "test-token-0123456789abcdef";

/// A running server, killed when dropped.
struct Server {
    child: Child,
    base: String,
    addr: String,
    stderr: Arc<Mutex<String>>,
    /// The thread copying the server's stderr into `stderr`, until the pipe closes.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    dir: tempfile::TempDir,
}

/// Starts `uniqcheck serve` with a fresh store in a temporary folder. `token`: the
/// UNIQCHECK_TOKEN environment variable (None: unset).
fn start(extra: &[&str], token: Option<&str>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    start_in(dir, extra, token)
}

fn spawn(dir: &Path, extra: &[&str], token: Option<&str>) -> Child {
    let db = dir.join("site.db");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_uniqcheck"));
    cmd.arg("serve").arg("--db").arg(&db);
    if !extra.contains(&"--addr") {
        cmd.args(["--addr", "127.0.0.1:0"]);
    }
    cmd.args(extra)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match token {
        Some(t) => cmd.env("UNIQCHECK_TOKEN", t),
        None => cmd.env_remove("UNIQCHECK_TOKEN"),
    };
    cmd.spawn().expect("run uniqcheck serve")
}

fn start_in(dir: tempfile::TempDir, extra: &[&str], token: Option<&str>) -> Server {
    let mut child = spawn(dir.path(), extra, token);
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = stderr.clone();
    let mut err = child.stderr.take().unwrap();
    let stderr_reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = err.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let (tx, rx) = mpsc::channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let line = match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(line) => line,
        Err(_) => {
            let _ = child.kill();
            panic!(
                "the server did not say where it listens; stderr:\n{}",
                stderr.lock().unwrap()
            );
        }
    };
    let base = line
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    let addr = base.trim_start_matches("http://").to_owned();
    Server {
        child,
        base,
        addr,
        stderr,
        stderr_reader: Some(stderr_reader),
        dir,
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn packs(&self) -> PathBuf {
        self.dir.path().join("packs")
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits (bounded) for the process to exit, and for its last stderr lines to be read: the
    /// reader may still be copying them when the process is gone.
    fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                if let Some(reader) = self.stderr_reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit; stderr:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// A response, read in full.
struct Reply {
    status: u16,
    headers: ureq::http::HeaderMap,
    body: Vec<u8>,
}

impl Reply {
    fn from(mut r: ureq::http::Response<ureq::Body>) -> Reply {
        let body = r
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap();
        Reply {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body,
        }
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn error_code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap().to_owned()
    }
}

fn get(s: &Server, path: &str) -> Reply {
    Reply::from(agent().get(s.url(path)).call().unwrap())
}

/// GET `path` with one request header `name: value`.
fn get_with(s: &Server, path: &str, name: &str, value: &str) -> Reply {
    Reply::from(agent().get(s.url(path)).header(name, value).call().unwrap())
}

fn post(s: &Server, body: &Value, token: Option<&str>) -> Reply {
    let mut req = agent().post(s.url("/api/documents"));
    if let Some(t) = token {
        req = req.header("Authorization", format!("Bearer {t}"));
    }
    Reply::from(req.send_json(body).unwrap())
}

fn delete(s: &Server, id: i64, token: Option<&str>) -> Reply {
    let mut req = agent().delete(s.url(&format!("/api/documents/{id}")));
    if let Some(t) = token {
        req = req.header("Authorization", format!("Bearer {t}"));
    }
    Reply::from(req.call().unwrap())
}

/// A request written by hand, byte for byte (no client normalises the path): status and the
/// whole response.
fn raw(s: &Server, request_line_and_headers: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{request_line_and_headers}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    (status, text)
}

fn doc(url: &str, text: &str) -> Value {
    json!({ "url": url, "title": format!("Title of {url}"), "text": text })
}

/// Polls `f` until it returns Some, for at most `limit`.
fn eventually<T>(limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn manifest(s: &Server) -> Value {
    let r = get(s, "/packs/manifest.json");
    assert_eq!(r.status, 200);
    r.json()
}

/// Waits for a manifest whose document count is `n`.
fn manifest_with(s: &Server, n: u64) -> Value {
    eventually(Duration::from_secs(20), "the packs to be rewritten", || {
        let m = manifest(s);
        (m["documents"] == n).then_some(m)
    })
}

/// Fetches a pack file, checking that it is served as immutable bytes.
fn fetch_file(s: &Server, name: &str) -> Vec<u8> {
    let r = get(s, &format!("/packs/{name}"));
    assert_eq!(r.status, 200, "{name}");
    assert_eq!(
        r.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(r.header("content-type"), Some("application/octet-stream"));
    r.body
}

/// Fetches every file of the generation `m` describes, as "download everything" does, through
/// the engine's PackIndex: all the documents' records.
fn fetch_packs(s: &Server, m: &Value) -> Vec<Record> {
    let manifest: Manifest = serde_json::from_value(m.clone()).unwrap();
    let table = fetch_file(s, &manifest.table.name);
    assert_eq!(table.len() as u64, manifest.table.bytes);
    let mut index = PackIndex::open(manifest.clone(), &table).unwrap();
    // Table parts, then the pages they name: until nothing is missing.
    loop {
        let names = index.all_pages();
        if names.is_empty() {
            break;
        }
        for name in names {
            index.add(&name, &fetch_file(s, &name)).unwrap();
        }
    }
    let list = fetch_file(s, &manifest.records.name);
    index
        .records_to_fetch(&list)
        .unwrap()
        .iter()
        .map(|file| Record::decode(&fetch_file(s, file), &Params::default()).unwrap())
        .collect()
}

#[test]
fn packs_are_served_with_caching_headers_and_decode() {
    let s = start(&["--quiet"], Some(TOKEN));
    assert_eq!(manifest(&s)["documents"], 0);
    for i in 0..3 {
        let r = post(
            &s,
            &doc(&format!("https://site/{i}"), &prose(i, 80)),
            Some(TOKEN),
        );
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    }
    let m = manifest_with(&s, 3);
    assert_eq!(m["format_version"], uniqcheck::pack::FORMAT_VERSION);
    let docs = fetch_packs(&s, &m);
    let mut urls: Vec<_> = docs.iter().map(|d| d.info.url.clone()).collect();
    urls.sort();
    assert_eq!(urls, ["https://site/0", "https://site/1", "https://site/2"]);

    // The manifest: revalidated every time, 304 when unchanged.
    let r = get(&s, "/packs/manifest.json");
    assert_eq!(r.header("cache-control"), Some("no-cache"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let etag = r.header("etag").unwrap().to_owned();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10,
        "{etag}"
    );
    let again = get_with(&s, "/packs/manifest.json", "If-None-Match", &etag);
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    let other = get_with(
        &s,
        "/packs/manifest.json",
        "If-None-Match",
        "\"something-else\"",
    );
    assert_eq!(other.status, 200);

    // A write changes the manifest, hence its ETag.
    post(&s, &doc("https://site/3", &prose(3, 80)), Some(TOKEN));
    manifest_with(&s, 4);
    let changed = get_with(&s, "/packs/manifest.json", "If-None-Match", &etag);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag"), Some(etag.as_str()));

    // Names that are not pack file names never reach the file system.
    for path in [
        "/packs/0123456789abcdef.uqp",
        "/packs/t/0123456789abcdef.uqp",
        "/packs/0123456789ABCDEF.uqt",
        "/packs/i/0123456789abcdef.uqt",
        "/packs/i/0123456789abcdef.uqi",
        "/packs/i/0123456789abcdef/0-01.uqi",
        "/packs/i/0123456789abcdef/../0-1.uqi",
        "/packs/r/1/1.uqr",
        "/packs/r/0/01.uqr",
        "/packs/r/0/../1.uqr",
        "/packs/manifest.json.bak",
        "/packs/",
    ] {
        assert_eq!(get(&s, path).status, 404, "{path}");
    }
}

#[test]
fn adds_and_deletes_show_in_the_manifest() {
    let s = start(&["--quiet"], Some(TOKEN));
    let health = get(&s, "/api/health").json();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["documents"], 0);
    assert_eq!(health["version"], uniqcheck::VERSION);

    let a = post(&s, &doc("https://site/a", &prose(10, 90)), Some(TOKEN)).json();
    let b = post(&s, &doc("https://site/b", &prose(11, 90)), Some(TOKEN)).json();
    let (a, b) = (a["id"].as_i64().unwrap(), b["id"].as_i64().unwrap());
    let m = manifest_with(&s, 2);
    let changes = m["changes"].as_i64().unwrap();

    let stored = get(&s, &format!("/api/documents/{a}"));
    assert_eq!(stored.status, 200);
    let stored = stored.json();
    assert_eq!(stored["url"], "https://site/a");
    assert_eq!(stored["title"], "Title of https://site/a");
    assert!(stored["words"].as_u64().unwrap() > 50);

    assert_eq!(delete(&s, a, Some(TOKEN)).status, 204);
    let m = manifest_with(&s, 1);
    assert!(m["changes"].as_i64().unwrap() > changes);
    let docs = fetch_packs(&s, &m);
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].info.id, b.to_string());

    let gone = get(&s, &format!("/api/documents/{a}"));
    assert_eq!(gone.status, 404);
    assert_eq!(gone.error_code(), "not_found");
    assert_eq!(delete(&s, a, Some(TOKEN)).status, 404);
    assert_eq!(get(&s, "/api/documents/not-a-number").status, 404);
    let health = get(&s, "/api/health").json();
    assert_eq!(health["documents"], 1);
}

#[test]
fn fifty_concurrent_adds_all_land() {
    let s = Arc::new(start(&["--quiet"], Some(TOKEN)));
    let threads: Vec<_> = (0..50u64)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || {
                let r = post(
                    &s,
                    &doc(&format!("https://site/c{i}"), &prose(100 + i, 70)),
                    Some(TOKEN),
                );
                assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
                r.json()["id"].as_i64().unwrap()
            })
        })
        .collect();
    let mut ids: Vec<i64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 50);
    assert_eq!(get(&s, "/api/health").json()["documents"], 50);
    let m = manifest_with(&s, 50);
    assert_eq!(fetch_packs(&s, &m).len(), 50);
}

#[test]
fn uniqueness_at_publish_time() {
    let s = start(&["--quiet"], Some(TOKEN));
    let original = prose(7, 120);
    let first = post(&s, &doc("https://site/original", &original), Some(TOKEN)).json();
    assert_eq!(first["status"], "added");
    assert_eq!(first["uniqueness"], 100.0);
    assert_eq!(first["report"]["uniqueness"], 100.0);
    assert_eq!(first["report"]["originality"], 100.0);
    assert_eq!(first["report"]["rewrites"], json!([]));

    // An unrelated text is unique; a copy under another URL is not, and names its source.
    let other = post(&s, &doc("https://site/other", &prose(8, 120)), Some(TOKEN)).json();
    assert_eq!(other["uniqueness"], 100.0);
    let copy = post(&s, &doc("https://thief/copy", &original), Some(TOKEN)).json();
    assert_eq!(copy["status"], "added");
    assert!(copy["uniqueness"].as_f64().unwrap() < 10.0, "{copy}");
    assert_eq!(copy["report"]["sources"][0]["url"], "https://site/original");

    // Half copied: about half unique, fragments within the draft.
    let half: String = original.split(' ').take(60).collect::<Vec<_>>().join(" ");
    let mixed = format!("{half} {}", prose(9, 60));
    let r = post(&s, &doc("https://thief/half", &mixed), Some(TOKEN)).json();
    let u = r["uniqueness"].as_f64().unwrap();
    assert!((25.0..80.0).contains(&u), "{u}");
    let chars = mixed.chars().count() as u64;
    for f in r["report"]["fragments"].as_array().unwrap() {
        assert!(f["end"].as_u64().unwrap() <= chars);
    }

    // Re-publishing a page does not find it copied from itself.
    let again = post(&s, &doc("https://site/other", &prose(8, 120)), Some(TOKEN)).json();
    assert_eq!(again["status"], "unchanged");
    assert_eq!(again["uniqueness"], 100.0);
    assert_eq!(again["id"], other["id"]);
    let edited = format!("{} {}", prose(8, 120), prose(77, 10));
    let updated = post(&s, &doc("https://site/other", &edited), Some(TOKEN)).json();
    assert_eq!(updated["status"], "updated");
    assert_eq!(updated["uniqueness"], 100.0);

    // HTML is accepted as such.
    let html = format!(
        "<article><h1>T</h1><p>{}</p><script>x()</script></article>",
        prose(12, 80)
    );
    let r = post(
        &s,
        &json!({"url": "https://site/html", "html": html}),
        Some(TOKEN),
    );
    assert_eq!(r.status, 201);
    assert_eq!(r.json()["uniqueness"], 100.0);

    // A rewrite of the original: its first two sentences copied (what makes the original a
    // candidate: a store, like packs, finds sources by shared shingles), the rest rewritten
    // (neighbouring words swapped in every sentence, so no four words stay in order). The
    // report's originality counts the rewrite, its rewrites name the source, and the source's
    // passages have no source span (the store keeps no text).
    let rewritten = original
        .split(". ")
        .enumerate()
        .map(|(i, sentence)| {
            let mut words: Vec<&str> = sentence.split(' ').collect();
            if i >= 2 {
                words.chunks_mut(2).for_each(|pair| pair.reverse());
            }
            words.join(" ")
        })
        .collect::<Vec<_>>()
        .join(". ");
    let r = post(&s, &doc("https://thief/rewrite", &rewritten), Some(TOKEN)).json();
    let report = &r["report"];
    let (u, o) = (
        report["uniqueness"].as_f64().unwrap(),
        report["originality"].as_f64().unwrap(),
    );
    assert!(
        u > 60.0 && o < u - 30.0,
        "originality {o}, uniqueness {u}: {r}"
    );
    let rewrites = report["rewrites"].as_array().unwrap();
    assert!(!rewrites.is_empty(), "{r}");
    let ids: Vec<&Value> = report["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    let chars = rewritten.chars().count() as u64;
    for w in rewrites {
        assert!(w["start"].as_u64().unwrap() < w["end"].as_u64().unwrap());
        assert!(w["end"].as_u64().unwrap() <= chars);
        let from = w["sources"].as_array().unwrap();
        assert!(
            !from.is_empty() && from.iter().all(|id| ids.contains(&id)),
            "{r}"
        );
    }
    // The original (and its verbatim copy posted above) are the sources, each with its passages.
    let original_source = report["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["url"] == "https://site/original")
        .unwrap_or_else(|| panic!("the original is a source: {r}"));
    let passages = original_source["rewrites"].as_array().unwrap();
    assert!(!passages.is_empty(), "{r}");
    assert!(passages.iter().all(|p| p["source"].is_null()), "{r}");
}

#[test]
fn exclusions_leave_the_writers_own_site_and_quotations_out_of_the_report() {
    let s = start(&["--quiet"], Some(TOKEN));
    let original = prose(21, 120);
    post(
        &s,
        &doc("https://www.my-site.ru/a/", &original),
        Some(TOKEN),
    );
    let with = |url: &str, text: &str, exclude: Value| {
        let mut body = doc(url, text);
        body["exclude"] = exclude;
        post(&s, &body, Some(TOKEN))
    };
    let own = with(
        "https://client.ru/b",
        &original,
        json!({"domains": ["my-site.ru"]}),
    )
    .json();
    assert_eq!(own["uniqueness"], 100.0, "{own}");
    assert_eq!(
        own["report"]["excluded"],
        json!({"sources": 1, "quoted_words": 0})
    );
    let quoted = format!("{} «{original}»", prose(22, 40));
    let q = with(
        "https://client.ru/c",
        &quoted,
        json!({"urls": ["https://client.ru/b"], "quotes": true}),
    )
    .json();
    assert_eq!(q["uniqueness"], 100.0, "{q}");
    assert_eq!(q["report"]["excluded"]["sources"], 1, "{q}");
    assert!(
        q["report"]["excluded"]["quoted_words"].as_u64().unwrap() > 50,
        "{q}"
    );
    // A passage given as a quotation (an editor's block quote): no marks in the text; its
    // offsets in the answer's unit (characters by default: the emoji is one).
    let own_words = prose(23, 40);
    let block = format!("{own_words} 😀\n\n{original}");
    let chars = |b: usize| block[..b].chars().count();
    let at = block.find(&original).unwrap();
    let given = with(
        "https://client.ru/e",
        &block,
        json!({"quotes": true, "quoted": [[chars(at), chars(block.len())]]}),
    )
    .json();
    assert_eq!(given["uniqueness"], 100.0, "{given}");
    assert!(
        given["report"]["excluded"]["quoted_words"]
            .as_u64()
            .unwrap()
            > 50,
        "{given}"
    );
    let past = with(
        "https://client.ru/f",
        &block,
        json!({"quotes": true, "quoted": [[0, chars(block.len()) + 1]]}),
    );
    assert_eq!(past.status, 400, "{}", String::from_utf8_lossy(&past.body));
    let bad = with(
        "https://client.ru/d",
        &original,
        json!({"domain": ["my-site.ru"]}),
    );
    assert_eq!(bad.status, 400);
    let bad = with("https://client.ru/d", &original, json!({"domains": [""]}));
    assert_eq!(bad.status, 400, "{}", String::from_utf8_lossy(&bad.body));
}

#[test]
fn writes_need_the_token_reads_do_not() {
    let s = start(&["--quiet"], Some(TOKEN));
    let body = doc("https://site/x", &prose(1, 80));
    let missing = post(&s, &body, None);
    assert_eq!(missing.status, 401);
    assert_eq!(missing.error_code(), "unauthorized");
    assert!(missing
        .header("www-authenticate")
        .unwrap()
        .starts_with("Bearer"));
    let wrong = post(&s, &body, Some("test-token-0123456789abcdeF"));
    assert_eq!(wrong.status, 401);
    assert!(wrong
        .header("www-authenticate")
        .unwrap()
        .contains("invalid_token"));
    let short = post(&s, &body, Some("x"));
    assert_eq!(short.status, 401);
    let basic = Reply::from(
        agent()
            .post(s.url("/api/documents"))
            .header("Authorization", format!("Basic {TOKEN}"))
            .send_json(&body)
            .unwrap(),
    );
    assert_eq!(basic.status, 401);
    assert_eq!(get(&s, "/api/health").json()["documents"], 0);

    let ok = post(&s, &body, Some(TOKEN));
    assert_eq!(ok.status, 201);
    let id = ok.json()["id"].as_i64().unwrap();
    assert_eq!(get(&s, &format!("/api/documents/{id}")).status, 200);
    assert_eq!(delete(&s, id, None).status, 401);
    assert_eq!(delete(&s, id, Some("nope")).status, 401);
    assert_eq!(delete(&s, id, Some(TOKEN)).status, 204);
}

#[test]
fn bad_requests_get_json_errors_and_never_a_panic() {
    let s = start(&["--max-body", "4096"], Some(TOKEN));
    let auth = format!("Bearer {TOKEN}");
    let send = |content_type: &str, body: &[u8]| {
        Reply::from(
            agent()
                .post(s.url("/api/documents"))
                .header("Authorization", &auth)
                .content_type(content_type)
                .send(body)
                .unwrap(),
        )
    };
    let big = serde_json::to_vec(&doc("https://site/big", &prose(3, 2000))).unwrap();
    let r = send("application/json", &big);
    assert_eq!((r.status, r.error_code().as_str()), (413, "body_too_large"));
    let r = send("text/plain", b"{}");
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (415, "unsupported_media_type")
    );
    let r = send("application/json", b"{\"url\": \"https://x\", ");
    assert_eq!((r.status, r.error_code().as_str()), (400, "malformed_json"));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("EOF"));

    let cases: [(Value, u16, &str); 9] = [
        (
            json!({"title": "t", "text": "words"}),
            400,
            "invalid_request",
        ),
        (
            json!({"url": "", "text": "some words here"}),
            400,
            "invalid_request",
        ),
        (
            json!({"url": "x".repeat(2049), "text": "w"}),
            400,
            "invalid_request",
        ),
        (
            json!({"url": "u", "title": "t".repeat(1025), "text": "w"}),
            400,
            "invalid_request",
        ),
        (
            json!({"url": "u", "text": "a", "html": "<p>a</p>"}),
            400,
            "invalid_request",
        ),
        (json!({"url": "u", "txt": "typo"}), 400, "invalid_request"),
        (json!({"url": "u", "text": " \n\t ,.; "}), 422, "empty_text"),
        (
            json!({"url": "u", "text": "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{e}\u{f}"}),
            422,
            "binary_text",
        ),
        (json!([1, 2, 3]), 400, "invalid_request"),
    ];
    for (body, status, code) in cases {
        let r = send("application/json", &serde_json::to_vec(&body).unwrap());
        assert_eq!(
            (r.status, r.error_code()),
            (status, code.to_owned()),
            "{body}"
        );
        assert!(!r.json()["error"]["message"].as_str().unwrap().is_empty());
    }

    // Unknown API routes and methods: JSON; elsewhere: plain.
    let r = get(&s, "/api/nothing/here");
    assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"));
    let r = Reply::from(agent().delete(s.url("/api/health")).call().unwrap());
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (405, "method_not_allowed")
    );
    let r = get(&s, "/nothing.html");
    assert_eq!(r.status, 404);
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));

    // Garbage over the wire.
    for line in [
        "GET /api/documents/99999999999999999999999 HTTP/1.1",
        "GET /api/documents/%00 HTTP/1.1",
        "DELETE /api/documents/-1 HTTP/1.1\r\nAuthorization: Bearer \u{0}",
        "POST /api/documents HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\nAuthorization: Bearer test-token-0123456789abcdef",
        "GET /%ff%fe HTTP/1.1",
        "BREW /pot HTTP/1.1",
    ] {
        let (status, _) = raw(&s, line);
        assert!((400..500).contains(&status), "{line}: {status}");
    }
    assert_eq!(get(&s, "/api/health").status, 200);
    assert!(!s.stderr().contains("panicked"), "{}", s.stderr());
}

#[test]
fn static_files_never_leave_their_folders() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("secret.txt"), "TOP-SECRET").unwrap();
    let www = root.join("www");
    let pkg = root.join("pkg");
    std::fs::create_dir_all(www.join("sub")).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(www.join("index.html"), "<h1>page</h1>").unwrap();
    std::fs::write(www.join("sub/index.html"), "<h1>sub</h1>").unwrap();
    std::fs::write(www.join("app.mjs"), "export const a = 1;").unwrap();
    std::fs::write(www.join(".env"), "TOP-SECRET").unwrap();
    std::fs::write(pkg.join("uniqcheck.js"), "export default 1;").unwrap();
    std::fs::write(pkg.join("uniqcheck_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("secret.txt"), www.join("link.txt")).unwrap();
        std::os::unix::fs::symlink(root, www.join("up")).unwrap();
    }
    let (www_arg, pkg_arg) = (
        www.to_str().unwrap().to_owned(),
        pkg.to_str().unwrap().to_owned(),
    );
    let s = start_in(
        dir,
        &["--quiet", "--www", &www_arg, "--pkg", &pkg_arg],
        Some(TOKEN),
    );

    let page = get(&s, "/");
    assert_eq!(page.status, 200);
    assert_eq!(page.body, b"<h1>page</h1>");
    assert_eq!(get(&s, "/sub/").body, b"<h1>sub</h1>");
    let js = get(&s, "/app.mjs");
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(js.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(
        get(&s, "/pkg/uniqcheck.js").header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let wasm = get(&s, "/pkg/uniqcheck_bg.wasm");
    assert_eq!(wasm.status, 200);
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));

    for path in [
        "/../secret.txt",
        "/pkg/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2e%2e/secret.txt",
        "/pkg/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/pkg/..%2F..%2Fsecret.txt",
        "/sub%2f..%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/.env",
        "/%2eenv",
        "/link.txt",
        "/up/secret.txt",
        "/packs/..%2fsite.db",
        "/packs/../site.db",
    ] {
        let (status, response) = raw(&s, &format!("GET {path} HTTP/1.1"));
        assert_eq!(status, 404, "{path}: {response}");
        assert!(!response.contains("TOP-SECRET"), "{path}");
        assert!(!response.contains("root:"), "{path}");
    }
}

#[test]
fn a_damaged_page_on_disk_is_served_as_it_is_and_refused_by_the_engine() {
    let s = start(&["--quiet"], Some(TOKEN));
    for i in 0..2 {
        post(
            &s,
            &doc(&format!("https://site/{i}"), &prose(40 + i, 80)),
            Some(TOKEN),
        );
    }
    let m = manifest_with(&s, 2);
    let manifest: Manifest = serde_json::from_value(m).unwrap();
    let table = fetch_file(&s, &manifest.table.name);
    let mut index = PackIndex::open(manifest, &table).unwrap();
    // An index page (the first files "download everything" names).
    let name = index.all_pages()[0].clone();
    assert!(name.starts_with("i/") && name.ends_with(".uqi"), "{name}");
    let path = s.packs().join(&name);
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();

    let served = fetch_file(&s, &name);
    assert_eq!(served, bytes, "served as it is on disk");
    let err = index.add(&name, &served).unwrap_err();
    assert!(matches!(err, PackError::Checksum { .. }), "{err:?}");
    assert!(err.to_string().contains("damaged"), "{err}");
}

#[test]
fn cors_lets_named_origins_write_and_any_origin_read() {
    let s = start(
        &[
            "--quiet",
            "--cors",
            "https://cms.example.org",
            "--cors",
            "*",
        ],
        Some(TOKEN),
    );
    let preflight = |origin: &str, method: &str, path: &str| {
        raw(
            &s,
            &format!(
                "OPTIONS {path} HTTP/1.1\r\nOrigin: {origin}\r\n\
                 Access-Control-Request-Method: {method}\r\n\
                 Access-Control-Request-Headers: authorization, content-type"
            ),
        )
    };
    let (status, r) = preflight("https://cms.example.org", "POST", "/api/documents");
    assert_eq!(status, 200, "{r}");
    let lower = r.to_lowercase();
    assert!(
        lower.contains("access-control-allow-origin: https://cms.example.org"),
        "{r}"
    );
    assert!(lower.contains("authorization"), "{r}");
    assert!(lower.contains("content-type"), "{r}");
    assert!(lower.contains("post"), "{r}");

    // Another origin may read (`*`) but not write.
    let (_, r) = preflight("https://elsewhere.example", "POST", "/api/documents");
    assert!(
        !r.to_lowercase().contains("access-control-allow-origin"),
        "{r}"
    );
    let (_, r) = preflight("https://elsewhere.example", "GET", "/packs/manifest.json");
    assert!(
        r.to_lowercase()
            .contains("access-control-allow-origin: https://elsewhere.example"),
        "{r}"
    );
    let read = get_with(
        &s,
        "/packs/manifest.json",
        "Origin",
        "https://elsewhere.example",
    );
    assert_eq!(
        read.header("access-control-allow-origin"),
        Some("https://elsewhere.example")
    );
    assert!(read
        .header("access-control-expose-headers")
        .unwrap()
        .to_lowercase()
        .contains("etag"));

    // The named origin's real write works with the token.
    let w = Reply::from(
        agent()
            .post(s.url("/api/documents"))
            .header("Origin", "https://cms.example.org")
            .header("Authorization", format!("Bearer {TOKEN}"))
            .send_json(doc("https://site/cors", &prose(5, 80)))
            .unwrap(),
    );
    assert_eq!(w.status, 201);
    assert_eq!(
        w.header("access-control-allow-origin"),
        Some("https://cms.example.org")
    );
}

/// Runs `uniqcheck serve` expecting it to refuse to start: exit code and stderr.
fn refused(extra: &[&str], token: Option<&str>) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn(dir.path(), extra, token);
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server started although it should have refused");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unsafe_setups_are_refused_with_the_fix() {
    let (code, err) = refused(&[], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: refusing to start a writable server without a token"),
        "{err}"
    );
    assert!(
        err.contains("UNIQCHECK_TOKEN") && err.contains("--no-auth"),
        "{err}"
    );

    let (code, err) = refused(&["--no-auth", "--addr", "0.0.0.0:0"], None);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("loopback") && err.contains("UNIQCHECK_TOKEN"),
        "{err}"
    );

    let (code, err) = refused(&[], Some(""));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("empty"), "{err}");

    let (code, err) = refused(&["--cors", "cms.example.org"], Some(TOKEN));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("https://"), "{err}");

    for (flag, value) in [
        ("--header-timeout", "0"),
        ("--body-timeout", "-1"),
        ("--shutdown-timeout", "NaN"),
        ("--max-connections", "0"),
    ] {
        let (code, err) = refused(&[&format!("{flag}={value}")], Some(TOKEN));
        assert_eq!(code, Some(2), "{flag} {value}: {err}");
        assert!(
            err.contains(flag) && !err.contains("panicked"),
            "{flag} {value}: {err}"
        );
    }

    let (code, err) = refused(&["--www", "/definitely/not/here"], Some(TOKEN));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--www"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // --no-auth on loopback: writes need no token. --read-only: no writes at all.
    let open = start(&["--quiet", "--no-auth"], None);
    assert_eq!(
        post(&open, &doc("https://site/o", &prose(2, 80)), None).status,
        201
    );
    let ro = start(&["--quiet", "--read-only"], None);
    let r = post(&ro, &doc("https://site/o", &prose(2, 80)), Some(TOKEN));
    assert_eq!((r.status, r.error_code().as_str()), (403, "read_only"));
    assert_eq!(get(&ro, "/api/health").status, 200);
}

#[cfg(unix)]
#[test]
fn sigterm_finishes_pending_packs_and_exits_cleanly() {
    let mut s = start(&[], Some(TOKEN));
    assert_eq!(manifest(&s)["documents"], 0);
    let r = post(&s, &doc("https://site/last", &prose(60, 80)), Some(TOKEN));
    assert_eq!(r.status, 201);
    // At once: the repack is still pending (debounced) when the signal arrives.
    let killed = Command::new("kill")
        .args(["-TERM", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = s.wait_exit(Duration::from_secs(30));
    assert_eq!(status.code(), Some(0), "{}", s.stderr());
    let stderr = s.stderr();
    assert!(stderr.contains("stopped"), "{stderr}");
    assert!(stderr.contains("POST /api/documents 201"), "{stderr}");
    let m: Value =
        serde_json::from_slice(&std::fs::read(s.packs().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        m["documents"], 1,
        "the pending repack was written before exit"
    );
}

// ---------------------------------------------------------------- slow and silent clients

/// Opens a connection and sends `bytes`, then nothing more.
fn stall(s: &Server, bytes: &str) -> TcpStream {
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream.write_all(bytes.as_bytes()).unwrap();
    stream
}

/// Reads until the server closes the connection: what it sent and when it closed. Fails if it is
/// still open after `limit`.
fn until_closed(mut stream: TcpStream, limit: Duration) -> (String, Instant) {
    let started = Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "still open after {:?} ({e}); got {:?}",
                started.elapsed(),
                String::from_utf8_lossy(&got)
            ),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), Instant::now())
}

/// Sends a whole GET on a keep-alive connection and reads exactly its response.
fn get_keep_alive(stream: &mut TcpStream, path: &str) -> String {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "closed mid-response");
        got.push(byte[0]);
    }
    let head = String::from_utf8(got).unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_owned)
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no Content-Length in {head:?}"));
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).unwrap();
    head + &String::from_utf8_lossy(&body)
}

#[test]
fn clients_that_stall_their_headers_or_idle_are_cut_off_and_others_are_served() {
    let s = start(&["--quiet", "--header-timeout", "1"], Some(TOKEN));
    let opened = Instant::now();
    let silent = stall(&s, "");
    let partial = stall(&s, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    let mut idle = TcpStream::connect(&s.addr).unwrap();
    let answer = get_keep_alive(&mut idle, "/api/health");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // While the three hang on, everybody else is served.
    assert_eq!(get(&s, "/api/health").status, 200);
    for (what, stream) in [
        ("silent", silent),
        ("partial headers", partial),
        ("idle", idle),
    ] {
        let (sent, closed) = until_closed(stream, Duration::from_secs(15));
        // Not closed at once for some other reason: the timeout cannot fire before 1 s.
        let after = closed - opened;
        assert!(
            after >= Duration::from_millis(900),
            "{what}: closed after {after:?}"
        );
        assert!(
            !sent.contains("200 OK"),
            "{what}: a request was answered: {sent}"
        );
    }
    assert_eq!(get(&s, "/api/health").status, 200);
}

#[test]
fn a_body_that_does_not_arrive_in_time_gets_408_and_writes_nothing() {
    let s = start(
        &["--quiet", "--body-timeout", "1", "--header-timeout", "5"],
        Some(TOKEN),
    );
    let opened = Instant::now();
    let slow = stall(
        &s,
        &format!(
            "POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"url\": \"https://site/slow\", "
        ),
    );
    let (sent, closed) = until_closed(slow, Duration::from_secs(15));
    assert!(sent.starts_with("HTTP/1.1 408"), "{sent}");
    assert!(sent.contains("\"body_timeout\""), "{sent}");
    let after = closed - opened;
    assert!(after >= Duration::from_millis(900), "{after:?}");
    assert_eq!(manifest(&s)["documents"], 0, "nothing was written");
    // A client that sends its body in time is unaffected.
    let r = post(&s, &doc("https://site/fast", &prose(3, 80)), Some(TOKEN));
    assert_eq!(r.status, 201);
}

/// A POST whose body never arrives whole: a connection busy with a real request (its body is
/// being read), which no cap may evict.
fn busy_post(s: &Server) -> TcpStream {
    let stream = stall(
        s,
        &format!(
            "POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"url\": "
        ),
    );
    // Accepting and parsing the headers takes microseconds; give the server that.
    std::thread::sleep(Duration::from_millis(300));
    stream
}

/// `GET /api/health` on a new connection, in a thread: its status arrives on the channel.
fn health_in_background(s: &Server) -> mpsc::Receiver<Result<u16, String>> {
    let (tx, rx) = mpsc::channel();
    let url = s.url("/api/health");
    std::thread::spawn(move || {
        let status = agent().get(&url).call().map(|r| r.status().as_u16());
        let _ = tx.send(status.map_err(|e| e.to_string()));
    });
    rx
}

/// A server with room for two connections, which do not time out while a test holds them.
const TWO_CONNECTIONS: [&str; 5] = [
    "--quiet",
    "--max-connections",
    "2",
    "--header-timeout",
    "60",
];

#[test]
fn past_max_connections_busy_clients_keep_their_slots_and_newcomers_wait() {
    let s = start(&TWO_CONNECTIONS, Some(TOKEN));
    let mut held = vec![busy_post(&s), busy_post(&s)];
    let waiting = health_in_background(&s);
    assert!(
        waiting.recv_timeout(Duration::from_millis(1500)).is_err(),
        "a third connection was served while two were busy"
    );
    drop(held.pop());
    let status = waiting
        .recv_timeout(Duration::from_secs(15))
        .expect("the waiting client was served once a connection closed");
    assert_eq!(status, Ok(200));
    // The busy one was never evicted: the rest of its body (992 of its 1000 bytes) arrives and
    // it gets an answer.
    let rest = format!(
        "{:<991}}}",
        "\"https://site/late\", \"text\": \"late words\""
    );
    held[0].write_all(rest.as_bytes()).unwrap();
    held[0]
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut status = [0u8; 12];
    held[0].read_exact(&mut status).unwrap();
    let status = String::from_utf8_lossy(&status).into_owned();
    assert!(status.starts_with("HTTP/1.1 "), "{status}");
    assert!(!status.ends_with("408"), "{status}");
}

#[test]
fn past_max_connections_the_connection_idle_longest_makes_room() {
    let s = start(&TWO_CONNECTIONS, Some(TOKEN));
    // Two keep-alive connections, each known to be accepted (each has had an answer), idle.
    let mut oldest = TcpStream::connect(&s.addr).unwrap();
    assert!(get_keep_alive(&mut oldest, "/api/health").starts_with("HTTP/1.1 200"));
    std::thread::sleep(Duration::from_millis(50));
    let mut newer = TcpStream::connect(&s.addr).unwrap();
    assert!(get_keep_alive(&mut newer, "/api/health").starts_with("HTTP/1.1 200"));
    // A third client is served at once, in the place of the one idle longest.
    let started = Instant::now();
    assert_eq!(get(&s, "/api/health").status, 200);
    assert!(started.elapsed() < Duration::from_secs(5));
    let (sent, _) = until_closed(oldest, Duration::from_secs(5));
    assert!(sent.is_empty(), "{sent}");
    assert!(get_keep_alive(&mut newer, "/api/health").starts_with("HTTP/1.1 200"));
}

#[test]
fn a_client_over_its_cap_with_every_connection_busy_gets_503_and_retry_after() {
    let s = start(&["--quiet", "--max-client-connections", "2"], Some(TOKEN));
    let _busy = [busy_post(&s), busy_post(&s)];
    let r = get(&s, "/api/health");
    assert_eq!(r.status, 503);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(r.error_code(), "too_many_connections");
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--max-client-connections"));
}

/// Runs `clients` threads against the server for `how_long`, each opening a connection, sending
/// `first` and then `next` every 100 ms, reconnecting when the server drops it. Returns how many
/// connections they opened.
fn hold_connections(
    s: &Server,
    clients: usize,
    how_long: Duration,
    first: &'static str,
    next: &'static str,
) -> std::thread::JoinHandle<usize> {
    let addr = s.addr.clone();
    std::thread::spawn(move || {
        let until = Instant::now() + how_long;
        let threads: Vec<_> = (0..clients)
            .map(|_| {
                let addr = addr.clone();
                std::thread::spawn(move || {
                    let mut opened = 0;
                    while Instant::now() < until {
                        let Ok(mut c) = TcpStream::connect(&addr) else {
                            std::thread::sleep(Duration::from_millis(50));
                            continue;
                        };
                        opened += 1;
                        let mut ok = c.write_all(first.as_bytes()).is_ok();
                        while ok && Instant::now() < until {
                            std::thread::sleep(Duration::from_millis(100));
                            ok = c.write_all(next.as_bytes()).is_ok();
                        }
                    }
                    opened
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).sum()
    })
}

/// Probes `/api/health` on a new connection every 100 ms for `how_long`: every one must be a
/// 200 within 2 s.
fn probe_health(s: &Server, how_long: Duration) {
    let deadline = Instant::now() + how_long;
    let quick = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(2)))
        .build();
    let quick: ureq::Agent = quick.into();
    let mut probes = 0;
    while Instant::now() < deadline {
        let r = quick.get(s.url("/api/health")).call();
        let status = r
            .as_ref()
            .map(|r| r.status().as_u16())
            .map_err(|e| e.to_string());
        assert_eq!(status, Ok(200), "probe {probes}");
        probes += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(probes >= 10);
}

#[test]
fn slowloris_clients_that_reconnect_cannot_keep_others_out() {
    let s = start(
        &[
            "--quiet",
            "--max-connections",
            "32",
            "--max-client-connections",
            "16",
        ],
        Some(TOKEN),
    );
    // Half again the client cap, each sending a header line every 100 ms and never the end of
    // its headers, reconnecting when dropped; all from the probe's own address.
    let attack = hold_connections(
        &s,
        24,
        Duration::from_secs(4),
        "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        "X-Slow: 1\r\n",
    );
    std::thread::sleep(Duration::from_millis(500));
    probe_health(&s, Duration::from_secs(3));
    let opened = attack.join().unwrap();
    // They were dropped and came back: more connections than attackers.
    assert!(opened > 24, "{opened}");
}

#[test]
fn slow_readers_cannot_hold_the_server_and_are_cut_at_the_write_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let www = dir.path().join("www");
    std::fs::create_dir_all(&www).unwrap();
    // Far more than the socket buffers of both ends hold: the server's writes block.
    const BIG: usize = 32 << 20;
    std::fs::write(www.join("big.bin"), vec![b'x'; BIG]).unwrap();
    let www_arg = www.to_str().unwrap().to_owned();
    let s = start_in(
        dir,
        &[
            "--quiet",
            "--www",
            &www_arg,
            "--max-connections",
            "32",
            "--max-client-connections",
            "16",
            "--write-timeout",
            "2",
        ],
        Some(TOKEN),
    );
    // One reader that asks and never reads, opened first.
    let first = stall(&s, "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let asked = Instant::now();
    let attack = hold_connections(
        &s,
        24,
        Duration::from_secs(3),
        "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    );
    std::thread::sleep(Duration::from_millis(300));
    probe_health(&s, Duration::from_secs(2));
    attack.join().unwrap();
    // By now (> write timeout) the first reader was cut off, evicted or overdue: reading gets
    // what the buffers held, then the end, never the whole file.
    std::thread::sleep(Duration::from_secs(3).saturating_sub(asked.elapsed()));
    let mut first = first;
    first
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = 0usize;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match first.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("still open after {:?}: {e}", asked.elapsed()),
        }
    }
    assert!(got < BIG, "the whole file was sent ({got} bytes)");
    // Without any pressure, the write timeout alone cuts a reader that does not read.
    let lone = stall(&s, "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let opened = Instant::now();
    std::thread::sleep(Duration::from_millis(2500));
    let (_, closed) = until_closed(lone, Duration::from_secs(10));
    assert!(closed - opened < Duration::from_secs(6));
}

#[test]
fn bodies_past_the_budget_get_503_with_retry_after_and_the_budget_comes_back() {
    let s = start(
        &["--quiet", "--max-body", "4096", "--body-budget", "4096"],
        Some(TOKEN),
    );
    // Holds 1000 of the 4096 bytes while its body trickles in.
    let first = busy_post(&s);
    let small = doc("https://site/small", &prose(1, 40));
    let r = post(&s, &small, Some(TOKEN));
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    // A body declaring the whole budget does not fit next to it.
    let mut big = serde_json::to_vec(&doc("https://site/big", &prose(2, 200))).unwrap();
    assert!(big.len() < 4096);
    big.resize(4096, b' ');
    let send_big = || {
        Reply::from(
            agent()
                .post(s.url("/api/documents"))
                .header("Authorization", format!("Bearer {TOKEN}"))
                .content_type("application/json")
                .send(&big[..])
                .unwrap(),
        )
    };
    let r = send_big();
    assert_eq!((r.status, r.error_code().as_str()), (503, "busy"));
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(r.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--body-budget"));
    // The first client gives up: its share comes back, and the big body fits.
    drop(first);
    let r = eventually(Duration::from_secs(10), "the budget to come back", || {
        let r = send_big();
        (r.status != 503).then_some(r)
    });
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
}

#[test]
fn a_stray_nul_in_an_api_text_is_a_space_and_many_are_binary() {
    let s = start(&["--quiet"], Some(TOKEN));
    let text = prose(3, 80);
    let r = post(
        &s,
        &doc("https://site/nul", &text.replacen(' ', "\0", 1)),
        Some(TOKEN),
    );
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    // The same words: an exact copy of what was just stored.
    let r = post(&s, &doc("https://site/spaces", &text), Some(TOKEN)).json();
    assert_eq!(r["report"]["method"], "exact", "{r}");
    let r = post(
        &s,
        &doc("https://site/zeros", &text.replace(' ', "\0")),
        Some(TOKEN),
    );
    assert_eq!((r.status, r.error_code().as_str()), (422, "binary_text"));
}

#[test]
fn the_served_manifest_follows_a_cli_index_into_the_same_store() {
    let s = start(&["--quiet"], Some(TOKEN));
    assert_eq!(manifest(&s)["documents"], 0);
    let texts = s.dir.path().join("texts");
    std::fs::create_dir_all(&texts).unwrap();
    for i in 0..3 {
        std::fs::write(texts.join(format!("{i}.txt")), prose(200 + i, 80)).unwrap();
    }
    let db = s.dir.path().join("site.db");
    let indexed = run::uniqcheck(&["index", run::s(&texts), "--db", run::s(&db)]);
    assert!(indexed.status.success(), "{}", run::stderr(&indexed));
    let done = Instant::now();
    let m = eventually(
        Duration::from_secs(15),
        "the CLI's documents in the packs",
        || {
            let m = manifest(&s);
            (m["documents"] == 3).then_some(m)
        },
    );
    assert!(done.elapsed() < Duration::from_secs(15));
    assert_eq!(get(&s, "/api/health").json()["changes"], m["changes"]);
}

#[cfg(unix)]
#[test]
fn shutdown_waits_for_a_request_in_flight_at_most_the_shutdown_timeout() {
    let mut s = start(&["--shutdown-timeout", "1"], Some(TOKEN));
    assert_eq!(get(&s, "/api/health").status, 200);
    let _slow = stall(
        &s,
        &format!(
            "POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
        ),
    );
    // Accepting and parsing the headers takes microseconds; the body never comes.
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = s.wait_exit(Duration::from_secs(20));
    assert!(
        signalled.elapsed() >= Duration::from_millis(900),
        "it did not wait for the request in flight"
    );
    assert_eq!(status.code(), Some(0), "{}", s.stderr());
    let stderr = s.stderr();
    assert!(
        stderr.contains("requests still running after 1 s were dropped"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped"), "{stderr}");
}

/// `serve --bilingual`: a publish-time check finds a Russian text translated from a stored
/// English one, and names it as a translation in the report; without the table it does not.
#[test]
fn a_publish_time_check_finds_a_translation_with_the_bilingual_table() {
    let english = include_str!("../../tests/data/translation/bridge-en.txt");
    let russian = include_str!("../../tests/data/translation/bridge-ru.txt");
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/bilingual/en-ru.uqbl");
    for (with_table, args) in [
        (true, vec!["--quiet", "--bilingual", table]),
        (false, vec!["--quiet"]),
    ] {
        let s = start(&args, Some(TOKEN));
        assert_eq!(
            post(&s, &doc("https://site/en", english), Some(TOKEN)).status,
            201
        );
        let reply = post(&s, &doc("https://site/ru", russian), Some(TOKEN));
        let report = &reply.json()["report"];
        let sources: Vec<&str> = report["sources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["url"].as_str().unwrap())
            .collect();
        let translations = report["translations"].as_array().unwrap();
        if with_table {
            assert_eq!(sources, ["https://site/en"], "{report}");
            assert!(!translations.is_empty(), "{report}");
            assert!(report["originality"].as_f64().unwrap() < 40.0, "{report}");
        } else {
            assert!(sources.is_empty() && translations.is_empty(), "{report}");
        }
    }
}
