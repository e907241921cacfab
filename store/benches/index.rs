//! The store's own cost of indexing, apart from the analysis: documents of the store benchmark's
//! corpus (`newsgroups/mod.rs`) are analysed first, in parallel, and kept in memory; then only
//! the writes are timed, into a fresh store, in batches of 4,096 documents (what `uniqcheck
//! index` commits at a time), in bulk mode as `uniqcheck index` writes (the batches' runs merged
//! once at the end, [`Store::set_bulk`]). So this reads the store's cost per MB of text, whatever the
//! analysis costs (`cargo bench --bench pipeline` measures that; `benches/peers/compare.sh`
//! measures `uniqcheck index` end to end against datasketch).
//!
//! ```sh
//! cargo bench -p uniqcheck-store --bench index                # 18,846 and 100,000 documents
//! cargo bench -p uniqcheck-store --bench index -- 18846      # sizes of your choice
//! ```
//!
//! Prints, per size: the write seconds, MB of text per second of writing, µs per document,
//! the split of each batch between preparing rows ([`Store::prepare`], done by the analysis
//! threads in `uniqcheck index`) and the SQL writes, and the file's bytes per document. The store
//! is written under `target/uniqcheck-bench/` and deleted afterwards. Under `cargo test` (CI)
//! it indexes 200 documents and checks that they are all there.

#[allow(dead_code)] // the drafts are the store benchmark's
mod newsgroups;

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;
use uniqcheck::{Document, Format, Params};
use uniqcheck_store::{NewDocument, Store};

const BATCH: usize = 4096;

fn corpus_dir() -> PathBuf {
    let data = std::env::var_os("UNIQCHECK_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    );
    data.join("20news-bydate")
}

/// CPU seconds (user + system) this thread has used: on a shared machine the writer's CPU time
/// moves less than its wall time.
fn thread_cpu() -> f64 {
    cpu_time::ThreadTime::now().as_duration().as_secs_f64()
}

fn main() {
    let dir = corpus_dir();
    if !dir.is_dir() {
        println!(
            "skipping the index benchmark: no 20 Newsgroups at {} (set UNIQCHECK_DATA)",
            dir.display()
        );
        return;
    }
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = if bench_mode {
            vec![18_846, 100_000]
        } else {
            vec![200]
        };
    }
    let posts = newsgroups::posts(&dir);
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/uniqcheck-bench");
    std::fs::create_dir_all(&cache).unwrap();
    let params = Params::default();
    for n in sizes {
        let started = Instant::now();
        let docs: Vec<(NewDocument, Document)> = newsgroups::documents(&posts, n)
            .collect::<Vec<_>>()
            .into_par_iter()
            .filter_map(|(post, round, text)| {
                let doc = Document::analyze(&text, Format::Plain, &params, 1 << 24).ok()?;
                let name = &posts[post].0;
                let new = NewDocument {
                    url: format!("news/{name}#{round}"),
                    title: name.clone(),
                    text,
                    format: Format::Plain,
                };
                Some((new, doc))
            })
            .collect();
        let analysis = started.elapsed().as_secs_f64();
        let bytes: usize = docs.iter().map(|d| d.0.text.len()).sum();
        let count = docs.len();

        let path = cache.join(format!("index-bench-{n}.db"));
        let remove = |p: &Path| {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", p.display()));
            }
        };
        remove(&path);
        let mut store = Store::open(&path, params).unwrap();
        // As `uniqcheck index` writes: the batches' runs merged once, at the end.
        store.set_bulk(true).unwrap();
        let (mut prepare, mut write) = (0.0, 0.0);
        let cpu = thread_cpu();
        let mut docs = docs.into_iter();
        loop {
            let batch: Vec<_> = docs.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                break;
            }
            let t = Instant::now();
            let prepared: Vec<_> = batch
                .into_iter()
                .map(|(new, doc)| Store::prepare(new, &doc, &params).unwrap())
                .collect();
            prepare += t.elapsed().as_secs_f64();
            let t = Instant::now();
            store.write_batch(prepared).unwrap();
            write += t.elapsed().as_secs_f64();
        }
        let t = Instant::now();
        store.finish_bulk(true).unwrap();
        let finish = t.elapsed().as_secs_f64();
        write += finish;
        let cpu = thread_cpu() - cpu;
        let stats = store.stats().unwrap();
        assert_eq!(stats.documents, count);
        let total = prepare + write;
        println!(
            "{count} documents, {:.1} MB of text (analysed in {analysis:.1} s, not counted): \
             store {total:.2} s = {:.1} MB/s, {:.0} µs/document \
             (prepare {prepare:.2} s, SQL writes {write:.2} s of which the final merge and \
             checkpoint {finish:.2} s; CPU {cpu:.2} s = {:.1} MB per CPU-second); {:.0} file \
             bytes/document",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / total,
            total / count as f64 * 1e6,
            bytes as f64 / 1e6 / cpu,
            stats.file_bytes as f64 / count as f64,
        );
        drop(store);
        remove(&path);
    }
}
