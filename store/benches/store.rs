//! Store benchmarks on 20 Newsgroups: `check` latency against stores of 1,000, 10,000 and
//! 100,000 documents (and more: `STORE_SIZES`), the store's own part of a check (the candidate
//! lookup, the records read), store and pack bytes per document. Indexing throughput is measured with the CLI itself
//! (`server/benches/index.sh`), since it is the whole pipeline (read, decode, analyse, write).
//!
//! The corpus is `$UNIQCHECK_DATA/20news-bydate` (default `<repo>/../shared/data`); without it
//! the benchmark says so and does nothing. Stores are built once and cached under
//! `target/uniqcheck-bench/` (the 100,000-document one takes a minute or two), or under
//! `$STORE_DIR`; delete that folder to rebuild them. A build prints its progress every 102,400
//! documents (seconds, CPU-seconds, bytes written, the largest write-ahead log), and
//! `STORE_MERGE_RATIO` sets the size ratio of the store's levels of key runs for it
//! (docs/PERFORMANCE.md, "Key runs"), and `STORE_BULK=1` builds in bulk as `uniqcheck index`
//! does ([`Store::set_bulk`]: the batches' runs left unmerged and the checkpoints held back,
//! then [`Store::finish_bulk`] merges each list into one run and checkpoints, timed on a line of
//! its own); without it each batch's `write_batch` merges as the server's writes do.
//! The 100,000 documents are the 18,846 posts plus perturbed copies (sentences
//! shuffled, 10 % of words dropped, 5 % replaced, with a fixed-seed RNG: `newsgroups/mod.rs`,
//! shared with the peers bench), so they are distinct documents that still share vocabulary and
//! phrasing with the originals, as a real site does.
//!
//! Drafts: the 32 of `newsgroups::drafts` (a post with a sentence of its own in front; most
//! are a few hundred words), and the same made up to 1,000 words with random words of the posts
//! (`store_check/1000_words/N`, issue 18's "1,000-word draft").
//!
//! Run: `cargo bench -p uniqcheck-store --bench store`; `STORE_SIZES=1000000` (comma-separated)
//! for other sizes: a store of a million documents takes 10-20 minutes to build (once, cached)
//! and about 4 GB of disk, so it is never built in CI.
//!
//! `STORE_REPORTS=PREFIX` instead writes the 32 reports of the 1,000-word drafts against each
//! chosen store to `PREFIX-N.json` (to prove with `cmp` that a change to the check leaves its
//! reports as they were) and prints the mean check per draft, as wall clock and as this thread's
//! CPU time, best of 3 passes (`STORE_PASSES`, more for a profiler) after a warm-up; no
//! criterion run. With `STORE_MERGE` set too, each
//! store is first merged to one run a list ([`Store::merge`], timed).

mod newsgroups;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use uniqcheck::index::{DocId, Index};
use uniqcheck::{CheckOptions, Document, Format, Params};
use uniqcheck_store::packs::{write_packs, PackOptions};
use uniqcheck_store::{NewDocument, Store};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn corpus_dir() -> PathBuf {
    let data = std::env::var_os("UNIQCHECK_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    );
    data.join("20news-bydate")
}

fn documents(posts: &[(String, String)], n: usize) -> impl Iterator<Item = NewDocument> + '_ {
    newsgroups::documents(posts, n).map(|(post, round, text)| {
        let name = &posts[post].0;
        NewDocument {
            url: format!("news/{name}#{round}"),
            title: name.clone(),
            text,
            format: Format::Plain,
        }
    })
}

/// Bytes this process has caused to be written to storage (`write_bytes` of `/proc/self/io`,
/// Linux; 0 elsewhere): the log and the checkpoints of a build.
fn written_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("write_bytes: "))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// CPU seconds (user + system) of this whole process, every thread: what a build costs whatever
/// else runs on the machine.
fn process_cpu() -> f64 {
    cpu_time::ProcessTime::now().as_duration().as_secs_f64()
}

/// The cached store of `n` documents, built if missing or too small (a store that exists but
/// cannot be opened stops the bench: a million documents take minutes to build again, and the
/// cause, such as another process holding it, is for the user to see). A build prints, every
/// 102,400 documents, the seconds (wall, and CPU of the whole process) and the bytes written to
/// storage since the last print, and the largest write-ahead log seen after a batch;
/// `STORE_MERGE_RATIO` sets the store's [`Store::set_merge_ratio`] for the build (to compare
/// ratios), `STORE_WRITE_DOCS` the documents a write (1: as the server's API writes),
/// `STORE_BULK=1` writes in bulk as `uniqcheck index` does (its own line for the merge at the
/// end). Each progress line also gives the runs a list and the most a list held after a write
/// since the line before.
fn store(posts: &[(String, String)], n: usize, dir: &Path) -> Store {
    let path = dir.join(format!("store-{n}.db"));
    match Store::open_existing(&path) {
        Ok(store) => {
            if store.count().unwrap_or(0) >= n * 9 / 10 && *store.params() == Params::default() {
                return store;
            }
        }
        Err(e) if path.exists() => panic!(
            "cannot open the cached store {}: {e} (delete it to build it again)",
            path.display()
        ),
        Err(_) => {}
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let started = Instant::now();
    let mut store = Store::open(&path, Params::default()).unwrap();
    if let Some(ratio) = std::env::var("STORE_MERGE_RATIO")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        store.set_merge_ratio(ratio);
    }
    // STORE_WRITE_DOCS: documents a write (default 4,096, as `uniqcheck index`); 1 writes as
    // the server's `POST /api/documents` does, a request a document.
    let write_docs: usize = std::env::var("STORE_WRITE_DOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096)
        .max(1);
    // STORE_BULK=1: as `uniqcheck index` writes, the batches' runs left unmerged and SQLite's
    // checkpoints held back (`Store::set_bulk`), then one merge and a checkpoint at the end.
    let bulk = std::env::var_os("STORE_BULK").is_some_and(|v| v != "0");
    store.set_bulk(bulk).unwrap();
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    let p = Params::default();
    // As `uniqcheck index` does: batches analysed and prepared on the pool while the previous
    // one is written, in transactions of 4,096 documents.
    let mut bytes = 0;
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut docs = documents(posts, n).peekable();
            while docs.peek().is_some() {
                let batch: Vec<NewDocument> = docs.by_ref().take(4096).collect();
                let size: usize = batch.iter().map(|d| d.text.len()).sum();
                let prepared: Vec<_> = batch
                    .into_par_iter()
                    .filter_map(|d| {
                        let a = Document::analyze(&d.text, d.format, &p, 1 << 24).ok()?;
                        Some(Store::prepare(d, &a, &p).unwrap())
                    })
                    .collect();
                if tx.send((prepared, size)).is_err() {
                    return;
                }
            }
        });
        let mut written = 0;
        let (mut since, mut io, mut wal_max) = (Instant::now(), written_bytes(), 0);
        let mut cpu = process_cpu();
        let mut most_runs = [0; 3];
        for (batch, size) in rx {
            let before = written;
            written += batch.len();
            bytes += size;
            let mut batch = batch.into_iter().peekable();
            while batch.peek().is_some() {
                store
                    .write_batch(batch.by_ref().take(write_docs).collect())
                    .unwrap();
                let runs = store.runs().unwrap();
                for (most, n) in most_runs.iter_mut().zip(runs) {
                    *most = (*most).max(n);
                }
            }
            wal_max = wal_max.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
            if written / 102_400 != before / 102_400 || written + 4096 > n {
                let (now, cpu_now) = (written_bytes(), process_cpu());
                println!(
                    "  {written} documents written, {:.0} s; since the last line: {:.0} s \
                     ({:.0} CPU-seconds), {:.2} GB written, write-ahead log up to {:.0} MB; \
                     runs a list {:?}, at most {most_runs:?}",
                    started.elapsed().as_secs_f64(),
                    since.elapsed().as_secs_f64(),
                    cpu_now - cpu,
                    (now - io) as f64 / 1e9,
                    wal_max as f64 / 1e6,
                    store.runs().unwrap(),
                );
                (since, io, wal_max, cpu) = (Instant::now(), now, 0, cpu_now);
                most_runs = [0; 3];
            }
        }
    });
    if bulk {
        let (t, cpu, io) = (Instant::now(), process_cpu(), written_bytes());
        let runs = store.runs().unwrap();
        // What `uniqcheck index` decides for a store it filled: merge when a list holds more
        // than one run (every document written is new, so its share test always passes).
        let merge = runs.iter().any(|&r| r > 1);
        let wal_before = std::fs::metadata(&wal).map_or(0, |m| m.len());
        store.finish_bulk(merge).unwrap();
        println!(
            "  bulk finished: runs a list {runs:?} {} in {:.1} s ({:.1} CPU-seconds), \
             {:.2} GB written; write-ahead log {:.0} MB before, {:.0} MB after; runs a list {:?}",
            if merge { "merged" } else { "left" },
            t.elapsed().as_secs_f64(),
            process_cpu() - cpu,
            (written_bytes() - io) as f64 / 1e9,
            wal_before as f64 / 1e6,
            std::fs::metadata(&wal).map_or(0, |m| m.len()) as f64 / 1e6,
            store.runs().unwrap(),
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "built {}: {} documents, {:.1} MB of text in {secs:.1} s ({:.0} documents/s, {:.2} MB/s)",
        path.display(),
        store.count().unwrap(),
        bytes as f64 / 1e6,
        n as f64 / secs,
        bytes as f64 / 1e6 / secs
    );
    store
}

/// The drafts, analysed: posts from the first 1,000 (so in every store) with an original
/// sentence added (`long`: then random words up to 1,000 words in all).
fn drafts(posts: &[(String, String)], params: &Params, long: bool) -> Vec<Document> {
    let drafts = if long {
        newsgroups::long_drafts(posts)
    } else {
        newsgroups::drafts(posts)
    };
    drafts
        .into_iter()
        .filter_map(|(_, draft)| Document::analyze(&draft, Format::Plain, params, 1 << 24).ok())
        .collect()
}

/// CPU time of this thread, in seconds: on a shared machine, what the check itself cost,
/// whoever else ran meanwhile.
fn thread_cpu() -> f64 {
    cpu_time::ThreadTime::now().as_duration().as_secs_f64()
}

/// `STORE_REPORTS`: the reports of `drafts` against `store` as JSON in `path`, and the mean
/// check per draft (wall, CPU), best of 3 passes after a warm-up.
fn dump_reports(store: &Store, drafts: &[Document], opts: &CheckOptions, path: &Path) {
    let reports: Vec<_> = drafts
        .iter()
        .map(|d| store.check_document(d, opts).unwrap())
        .collect();
    let json = serde_json::to_string_pretty(&reports).unwrap();
    std::fs::write(path, json + "\n").unwrap();
    // The calling thread's CPU is the store's part; the process's adds the alignment on the
    // pool's threads (native checks align candidates in parallel).
    let (mut wall, mut cpu, mut all_cpu) = (f64::MAX, f64::MAX, f64::MAX);
    // STORE_PASSES: more passes, for a profiler to sample (`perf record`).
    let passes = std::env::var("STORE_PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for _ in 0..passes {
        let (t, c, pc) = (Instant::now(), thread_cpu(), process_cpu());
        for d in drafts {
            std::hint::black_box(store.check_document(d, opts).unwrap());
        }
        wall = wall.min(t.elapsed().as_secs_f64());
        cpu = cpu.min(thread_cpu() - c);
        all_cpu = all_cpu.min(process_cpu() - pc);
    }
    let ms = |s: f64| s / drafts.len() as f64 * 1e3;
    println!(
        "{}: {} reports; check of a 1,000-word draft {:.2} ms wall, {:.2} ms CPU of the calling \
         thread, {:.2} ms CPU of the process (mean, best of 3)",
        path.display(),
        reports.len(),
        ms(wall),
        ms(cpu),
        ms(all_cpu)
    );
}

fn bench(c: &mut Criterion) {
    let dir = corpus_dir();
    if !dir.is_dir() {
        println!(
            "skipping the store benchmarks: no 20 Newsgroups at {} (set UNIQCHECK_DATA)",
            dir.display()
        );
        return;
    }
    let posts = newsgroups::posts(&dir);
    // STORE_DIR: another folder for the cached stores (to build stores of another build or
    // setting without touching the default ones).
    let cache = std::env::var_os("STORE_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/uniqcheck-bench"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&cache).unwrap();
    let opts = CheckOptions::default();
    let params = Params::default();
    let drafts_short = drafts(&posts, &params, false);
    let drafts_long = drafts(&posts, &params, true);
    let drafts = &drafts_short;

    // `cargo test --bench store` (test mode, as CI runs benchmarks) only builds the small store.
    let bench_mode = std::env::args().any(|a| a == "--bench");
    // STORE_SIZES=1000000 (comma-separated) measures other sizes: the million takes 10-20
    // minutes to build, once, and about 4 GB; never in CI.
    let chosen: Vec<usize> = std::env::var("STORE_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| SIZES.to_vec());
    let sizes = if bench_mode { &chosen[..] } else { &SIZES[..1] };
    if let Some(prefix) = std::env::var_os("STORE_REPORTS") {
        for &n in sizes {
            let path = PathBuf::from(format!("{}-{n}.json", prefix.to_string_lossy()));
            let mut store = store(&posts, n, &cache);
            if std::env::var_os("STORE_MERGE").is_some() {
                let (t, c) = (Instant::now(), thread_cpu());
                let runs = store.runs().unwrap();
                store.merge().unwrap();
                println!(
                    "store of {n}: runs {runs:?} merged into one a list in {:.1} s ({:.1} CPU-seconds)",
                    t.elapsed().as_secs_f64(),
                    thread_cpu() - c
                );
            }
            dump_reports(&store, &drafts_long, &opts, &path);
        }
        return;
    }

    let mut group = c.benchmark_group("store_check");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    for &n in sizes {
        let store = store(&posts, n, &cache);
        let stats = store.stats().unwrap();
        println!(
            "store of {} documents: {:.0} file bytes/document, {:.1} fingerprints/document",
            stats.documents,
            stats.file_bytes as f64 / stats.documents as f64,
            stats.fingerprints as f64 / stats.documents as f64,
        );
        let mut k = 0;
        group.bench_with_input(BenchmarkId::new("1000_words", n), &store, |b, store| {
            b.iter(|| {
                k = (k + 1) % drafts_long.len();
                store.check_document(&drafts_long[k], &opts).unwrap()
            })
        });
        // The store's own part of those checks: the candidate lookup, and reading and decoding
        // the records a check aligns (at most `max_candidates` of them).
        let mut k = 0;
        group.bench_with_input(
            BenchmarkId::new("1000_words_candidates", n),
            &store,
            |b, store| {
                b.iter(|| {
                    k = (k + 1) % drafts_long.len();
                    store.candidates(&drafts_long[k], &opts).unwrap()
                })
            },
        );
        let best: Vec<Vec<DocId>> = drafts_long
            .iter()
            .map(|d| {
                let found = store.candidates(d, &opts).unwrap();
                found
                    .iter()
                    .take(opts.max_candidates)
                    .map(|c| c.id)
                    .collect()
            })
            .collect();
        let mut k = 0;
        group.bench_with_input(
            BenchmarkId::new("1000_words_records", n),
            &store,
            |b, store| {
                b.iter(|| {
                    k = (k + 1) % best.len();
                    let mut read = 0;
                    store.records(&best[k], &mut |_| read += 1).unwrap();
                    read
                })
            },
        );
        if n > 100_000 {
            continue; // packs of a million: benches/packs/scale.sh
        }
        let packs = cache.join(format!("packs-{n}"));
        let manifest = write_packs(&store, &packs, &PackOptions::default()).unwrap();
        let per_doc = |b: u64| b as f64 / manifest.documents as f64;
        println!(
            "store of {} documents: {:.0} file bytes/document, {:.0} record bytes/document, {:.1} fingerprints/document; \
             packs: {:.0} index bytes/document, {:.0} record bytes/document",
            stats.documents,
            stats.file_bytes as f64 / stats.documents as f64,
            stats.record_bytes as f64 / stats.documents as f64,
            stats.fingerprints as f64 / stats.documents as f64,
            per_doc(manifest.index_bytes),
            per_doc(manifest.record_bytes),
        );
        let mut i = 0;
        group.bench_with_input(BenchmarkId::from_parameter(n), &store, |b, store| {
            b.iter(|| {
                i = (i + 1) % drafts.len();
                store.check_document(&drafts[i], &opts).unwrap()
            })
        });
        if n == 100_000 {
            let mut j = 0;
            group.bench_function(BenchmarkId::new("candidates_full", n), |b| {
                b.iter(|| {
                    j = (j + 1) % drafts.len();
                    store.candidates(&drafts[j], &opts).unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
