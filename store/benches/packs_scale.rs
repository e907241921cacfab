//! Packs at scale (issue 14): packs of 10,000, 100,000 and 1,000,000 documents built
//! from 20 Newsgroups' training half and perturbed copies of its posts, and what a check of a
//! 1,000-word draft reads of them. Not a timed test and never run in CI: the million takes
//! 10–20 minutes to build (one synced file per record) and about 4 GB of disk.
//!
//! ```text
//! cargo bench -p uniqcheck-store --bench packs_scale -- build N [DIR]
//!     builds (or finds built) packs of N documents in DIR/packs (default
//!     target/uniqcheck-bench/scale-N); prints the build time and the bytes per document
//! cargo bench -p uniqcheck-store --bench packs_scale -- check N|DIR
//!     checks DIR/drafts/draft-<i>.txt (benches/packs/fetch.py) against DIR/packs as a browser
//!     does, reading only the files each round needs; one JSON line per draft, then a summary
//! ```
//! (cargo runs benchmarks in `store/`: a relative DIR is relative to it.)
//! `benches/packs/scale.sh` runs both for the three sizes, and the CLI and the browser on top.
//!
//! **The corpus.** Document `i` is training post `i mod P` of a fixed shuffle (`P` = 11,314
//! posts, `newsgroups::posts`), the post itself for `i < P`, else a perturbed copy (sentences
//! shuffled, 10 % of words dropped, 5 % replaced: `newsgroups::documents`); so up to `P` the
//! corpus is a sample of the posts, beyond it every post and about `N / P − 1` copies of each.
//! The drafts' new text comes from the test half, which is never indexed. A post's URL is its
//! path under the training folder (as `uniqcheck index` names it), a copy's the same with
//! `#<round>`; its title the first line of the text, as the CLI takes it. `DIR/indexed.txt` lists
//! the posts indexed as themselves, the ones a draft may quote. Texts that are not UTF-8 are read
//! as Latin-1 (the CLI detects Windows-1252 and `fetch.py` reads Latin-1), not with U+FFFD.
//!
//! **The build.** Texts are made in order on one thread (the copies' RNG is sequential), analysed
//! in parallel (rayon) a batch at a time, and handed to the library's writer
//! (`uniqcheck_store::packs::write_records`) in record-number order while the next batch is
//! analysed: the writer's fsyncs are the cost. `DIR/build.json` keeps the figures; a later run
//! with the same N reuses the packs when the manifest is there and the records of the corpus'
//! first 16 documents encode as `build.json`'s `record_probe` says (so packs of an older record
//! encoding, even of the same format version, are built again; delete DIR to force it).

#[allow(dead_code)] // the store bench's drafts are not used here
mod newsgroups;

use rayon::prelude::*;
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;
use uniqcheck::pack::{Manifest, Table, LIST_FINGERPRINTS, LIST_LONG_WORDS, LIST_SENTENCES};
use uniqcheck::{CheckOptions, Document, Format, Index, PackIndex, Params, SourceInfo};
use uniqcheck_store::packs::{write_records, LoadManifest, PackOptions};

/// Documents analysed per batch: enough to keep both cores busy, small enough to stream.
const BATCH: usize = 4096;

/// The longest text analysed, as the CLI's default.
const MAX_TEXT_BYTES: usize = 1 << 24;

/// Characters of a title (the CLI's `TITLE_CHARS`).
const TITLE_CHARS: usize = 120;

// Candidates a browser aligns by default, one record file each: the native rounds read what a
// browser fetches. `MAX_CANDIDATES=N` overrides it.
use uniqcheck::index::packs::PACK_MAX_CANDIDATES as BROWSER_MAX_CANDIDATES;

type Error = Box<dyn std::error::Error + Send + Sync>;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn train_dir() -> PathBuf {
    let data = std::env::var_os("UNIQCHECK_DATA")
        .map_or_else(|| repo().join("../shared/data"), PathBuf::from);
    data.join("20news-bydate/20news-bydate-train")
}

/// `10000`, `10_000` or `10,000`.
fn size(arg: &str) -> Option<usize> {
    arg.replace(['_', ','], "").parse().ok()
}

/// Where packs of `n` documents are cached (beside the store benchmark's `packs-N`).
fn default_dir(n: usize) -> PathBuf {
    repo().join(format!("target/uniqcheck-bench/scale-{n}"))
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let train = train_dir();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if !train.is_dir() && args.first() != Some(&"check") {
        println!(
            "skipping packs_scale: no 20 Newsgroups at {} (set UNIQCHECK_DATA)",
            train.display()
        );
        return Ok(());
    }
    match args[..] {
        ["build", n, ..] => {
            let n = size(n).ok_or("build N: N is a number of documents")?;
            let dir = args.get(2).map_or_else(|| default_dir(n), PathBuf::from);
            build(&train, n, &dir)
        }
        ["check", dir] => check(&size(dir).map_or_else(|| PathBuf::from(dir), default_dir)),
        [] if !bench_mode => {
            // `cargo test --bench packs_scale`: a small build and one check, in a temporary folder.
            let tmp = tempfile::tempdir()?;
            build(&train, 300, tmp.path())?;
            smoke_check(tmp.path())
        }
        _ => Err(
            "usage: packs_scale build N [DIR] | packs_scale check N|DIR (a DIR relative to store/)"
                .into(),
        ),
    }
}

/// Figures of a build, as `DIR/build.json` keeps them.
fn figures(dir: &Path, manifest: &Manifest, extra: serde_json::Value) -> serde_json::Value {
    let packs = dir.join("packs");
    let table = fs::read(packs.join(&manifest.table.name)).unwrap_or_default();
    let table = Table::decode(&table, &manifest.params).unwrap_or_default();
    // Per list: its pages (named by number: the table holds nothing else).
    let (anchor_pages, long_pages, sentence_pages) = (
        table.page_count(LIST_FINGERPRINTS),
        table.page_count(LIST_LONG_WORDS),
        table.page_count(LIST_SENTENCES),
    );
    let docs = manifest.documents.max(1) as f64;
    let total = manifest.index_bytes
        + manifest.record_bytes
        + manifest.table.bytes
        + manifest.records.bytes;
    let mut out = json!({
        "documents": manifest.documents,
        "pack_bytes": total,
        "index_bytes": manifest.index_bytes,
        "record_bytes": manifest.record_bytes,
        "table_bytes": manifest.table.bytes,
        "list_bytes": manifest.records.bytes,
        "anchor_pages": anchor_pages,
        "long_word_pages": long_pages,
        "sentence_pages": sentence_pages,
        "page_files": u64::from(anchor_pages) + u64::from(long_pages) + u64::from(sentence_pages),
        "index_bytes_per_document": manifest.index_bytes as f64 / docs,
        "record_bytes_per_document": manifest.record_bytes as f64 / docs,
    });
    if let (Some(out), Some(extra)) = (out.as_object_mut(), extra.as_object()) {
        out.extend(extra.clone());
    }
    out
}

/// Builds packs of `n` documents into `dir/packs`, unless `dir/build.json` says they are there.
fn build(train: &Path, n: usize, dir: &Path) -> Result<(), Error> {
    let packs = dir.join("packs");
    let summary = dir.join("build.json");
    let started = Instant::now();
    let mut posts = newsgroups::posts(train);
    for (rel, text) in &mut posts {
        if text.contains('\u{FFFD}') {
            let bytes = fs::read(train.join(&*rel))?;
            *text = bytes.iter().map(|&b| char::from(b)).collect();
        }
    }
    let params = Params::default();
    let probe = record_probe(&posts, &params);
    if let (Ok(manifest), Ok(old)) = (Manifest::load(&packs), fs::read(&summary)) {
        let old: serde_json::Value = serde_json::from_slice(&old)?;
        // The format version alone does not tell records apart: version 4's records changed
        // before release (numbered words, then not), and Manifest::load accepts either.
        if old["n"] == json!(n)
            && old["documents"] == json!(manifest.documents)
            && old["record_probe"] == json!(probe)
            && packs.join(&manifest.table.name).is_file()
        {
            println!("cached: {}", serde_json::to_string(&old)?);
            return Ok(());
        }
        eprintln!(
            "  {} holds packs of another build or record encoding: building them again",
            packs.display()
        );
    }
    // Record numbers are reused between builds: start from an empty folder.
    if packs.exists() {
        fs::remove_dir_all(&packs)?;
    }
    fs::create_dir_all(dir)?;
    let _ = fs::remove_file(&summary);

    println!(
        "{} training posts read in {:.1} s; building {n} documents into {}",
        posts.len(),
        started.elapsed().as_secs_f64(),
        packs.display()
    );

    // One batch: (record number, post, round, record) of the documents that analysed.
    type Batch = Vec<(
        u64,
        usize,
        usize,
        uniqcheck::pack::Record,
        Option<(usize, usize)>,
    )>;
    let (tx, rx) = mpsc::sync_channel::<(Batch, usize, usize, usize)>(2);
    let mut indexed = Vec::new();
    let (mut text_bytes, mut words, mut content_words, mut refused) = (0usize, 0usize, 0usize, 0);
    let mut long = Vec::new();
    let manifest = std::thread::scope(|scope| {
        let posts = &posts;
        scope.spawn(move || {
            let mut docs = newsgroups::documents(posts, n).enumerate().peekable();
            while docs.peek().is_some() {
                let batch: Vec<_> = docs.by_ref().take(BATCH).collect();
                let bytes = batch.iter().map(|(_, (_, _, t))| t.len()).sum();
                let words = batch
                    .iter()
                    .map(|(_, (_, _, t))| t.split_whitespace().count())
                    .sum();
                let total = batch.len();
                let records: Batch = batch
                    .into_par_iter()
                    .filter_map(|(i, (post, round, text))| {
                        let record = record(posts, &params, i, post, round, &text)?;
                        // Records of 900–1,100-word texts: the budget is per 1,000 words.
                        let w = text.split_whitespace().count();
                        let size = (900..=1100)
                            .contains(&w)
                            .then(|| (record.encode(&params).len(), w));
                        Some((i as u64 + 1, post, round, record, size))
                    })
                    .collect();
                if tx.send((records, total, bytes, words)).is_err() {
                    return;
                }
            }
        });
        write_records(&packs, &params, 0, &PackOptions::default(), |add| {
            let mut done = 0;
            for (batch, total, bytes, w) in rx {
                refused += total - batch.len();
                text_bytes += bytes;
                words += w;
                for (rev, post, round, record, size) in &batch {
                    content_words += record.word_count();
                    if let Some((b, w)) = size {
                        long.push(*b as f64 * 1000.0 / *w as f64);
                    }
                    if *round == 0 {
                        indexed.push(posts[*post].0.clone());
                    }
                    add(*rev, record)?;
                }
                let before = done;
                done += total;
                if done / 100_000 != before / 100_000 {
                    eprintln!(
                        "  {done} documents analysed and their records written in {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            }
            Ok(())
        })
    })?;
    let secs = started.elapsed().as_secs_f64();
    indexed.sort();
    long.sort_by(f64::total_cmp);
    fs::write(dir.join("indexed.txt"), indexed.join("\n") + "\n")?;
    let docs = manifest.documents.max(1) as f64;
    let out = figures(
        dir,
        &manifest,
        json!({
            "n": n,
            "refused": refused,
            "build_seconds": secs,
            "text_bytes": text_bytes,
            "words_per_document": words as f64 / docs,
            "content_words_per_document": content_words as f64 / docs,
            "record_bytes_per_1000_words": manifest.record_bytes as f64 * 1000.0 / words.max(1) as f64,
            "long_documents": long.len(),
            "long_record_bytes_per_1000_words_median": long.get(long.len() / 2),
            "record_bytes_per_1000_content_words":
                manifest.record_bytes as f64 * 1000.0 / content_words.max(1) as f64,
            "record_probe": probe,
        }),
    );
    fs::write(&summary, serde_json::to_vec_pretty(&out)?)?;
    println!("built: {}", serde_json::to_string(&out)?);
    Ok(())
}

/// The record of document `i` (0-based): post `post` itself (`round` 0) or its copy `round`;
/// `None` for a text the engine refuses.
fn record(
    posts: &[(String, String)],
    params: &Params,
    i: usize,
    post: usize,
    round: usize,
    text: &str,
) -> Option<uniqcheck::pack::Record> {
    let doc = Document::analyze(text, Format::Plain, params, MAX_TEXT_BYTES).ok()?;
    let rel = &posts[post].0;
    let info = SourceInfo {
        id: (i + 1).to_string(),
        url: if round == 0 {
            rel.clone()
        } else {
            format!("{rel}#{round}")
        },
        title: title(text).unwrap_or_else(|| rel.clone()),
    };
    Some(uniqcheck::pack::Record::from_document(info, &doc))
}

/// What this build of the writer makes of the corpus' first documents: the encoded records'
/// length and FNV-1a hash, as `"format <version>: <bytes> B, <hash>"`. Cached packs whose
/// `build.json` says otherwise were written by another encoding and are built again.
fn record_probe(posts: &[(String, String)], params: &Params) -> String {
    let (mut bytes, mut hash) = (0usize, 0xcbf2_9ce4_8422_2325u64);
    for (i, (post, round, text)) in newsgroups::documents(posts, 16).enumerate() {
        if let Some(r) = record(posts, params, i, post, round, &text) {
            let encoded = r.encode(params);
            bytes += encoded.len();
            for b in encoded {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    format!(
        "format {}: {bytes} B, {hash:016x}",
        uniqcheck::pack::FORMAT_VERSION
    )
}

/// The first non-blank line, at most [`TITLE_CHARS`] characters (the CLI's rule for text files).
fn title(text: &str) -> Option<String> {
    text.lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}'))
        .find(|l| !l.is_empty())
        .map(|l| {
            l.chars()
                .take(TITLE_CHARS)
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
}

/// What one check read, and how long each round took (deciding what is needed, reading it,
/// adding it to the index).
#[derive(Default)]
struct Fetch {
    pages: usize,
    page_bytes: u64,
    records: usize,
    record_bytes: u64,
    rounds: usize,
    round_ms: Vec<f64>,
}

/// Runs the browser's loop against `packs`: asks the index what it still needs, reads it, adds
/// it, until nothing is missing; counts pages and records apart.
fn fetch(index: &mut PackIndex, packs: &Path, doc: &Document, opts: &CheckOptions) -> Fetch {
    let mut f = Fetch::default();
    loop {
        let started = Instant::now();
        let needed = index.needed(doc, opts).expect("needed");
        if needed.is_empty() {
            return f;
        }
        f.rounds += 1;
        for name in needed {
            let bytes = fs::read(packs.join(&name)).expect("a pack file");
            if name.starts_with("i/") {
                f.pages += 1;
                f.page_bytes += bytes.len() as u64;
            } else {
                f.records += 1;
                f.record_bytes += bytes.len() as u64;
            }
            index.add(&name, &bytes).expect("a valid pack file");
        }
        f.round_ms.push(started.elapsed().as_secs_f64() * 1e3);
    }
}

/// One check as the browser makes it, from an empty index: open the table, analyse the draft,
/// fetch rounds, check. Returns the index (for a re-check), what was read, the report, and the
/// times in ms: analysis (and opening the table), then the check itself, then in all.
fn timed_check(
    manifest: &Manifest,
    table: &[u8],
    packs: &Path,
    text: &str,
    opts: &CheckOptions,
) -> Result<(PackIndex, Fetch, uniqcheck::Report, [f64; 3]), Error> {
    let started = Instant::now();
    let mut index = PackIndex::open(manifest.clone(), table)?;
    let doc = Document::analyze(text, Format::Plain, index.params(), MAX_TEXT_BYTES)?;
    let analysed = started.elapsed().as_secs_f64() * 1e3;
    let f = fetch(&mut index, packs, &doc, opts);
    let before_check = Instant::now();
    let report = uniqcheck::check::check_document(&index, &doc, opts)?;
    let check = before_check.elapsed().as_secs_f64() * 1e3;
    let total = started.elapsed().as_secs_f64() * 1e3;
    Ok((index, f, report, [analysed, check, total]))
}

/// The draft with one word in the middle replaced: a copywriter's edit.
fn edited(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mid = words.len() / 2;
    let mut out: Vec<&str> = words.clone();
    out[mid] = "zanzibarian";
    out.join(" ")
}

/// Checks every draft of `dir/drafts` against `dir/packs`; prints one JSON line per draft (bytes
/// by kind, requests, rounds, candidates, time, quoted posts found) and a summary line.
fn check(dir: &Path) -> Result<(), Error> {
    let packs = dir.join("packs");
    let manifest = Manifest::load(&packs)?;
    let table = fs::read(packs.join(&manifest.table.name))?;
    let manifest_bytes = fs::metadata(packs.join("manifest.json"))?.len();
    // The browser's bound (`uniqcheck::index::packs::PACK_MAX_CANDIDATES`) unless MAX_CANDIDATES says.
    let max_candidates = std::env::var("MAX_CANDIDATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BROWSER_MAX_CANDIDATES);
    let opts = CheckOptions {
        max_candidates,
        ..CheckOptions::default()
    };
    // What every candidate gives, for the figures the bound may change.
    let unbounded = CheckOptions {
        max_candidates: usize::MAX,
        ..CheckOptions::default()
    };
    let total = manifest.index_bytes
        + manifest.record_bytes
        + manifest.table.bytes
        + manifest.records.bytes;
    let mut rows = Vec::new();
    for i in 0.. {
        let path = dir.join(format!("drafts/draft-{i}.txt"));
        let Ok(text) = fs::read_to_string(&path) else {
            break;
        };
        // The quoted posts as the corpus names them: <group>/<number> under the training folder.
        let quoted: Vec<String> = fs::read_to_string(dir.join(format!("drafts/draft-{i}.quoted")))?
            .split_whitespace()
            .map(|p| {
                let mut parts = p.rsplit('/');
                let name = parts.next().unwrap_or_default();
                format!("{}/{name}", parts.next().unwrap_or_default())
            })
            .collect();
        // Twice: the first run may read the files from the disk, the second finds them in the
        // page cache (as a server's would be), and is the one reported as `ms`.
        let first = timed_check(&manifest, &table, &packs, &text, &opts)?.3[2];
        let (mut index, f, report, [analyse_ms, check_ms, ms]) =
            timed_check(&manifest, &table, &packs, &text, &opts)?;
        // The re-check after a one-word edit: only what is new is read.
        let again = Document::analyze(
            &edited(&text),
            Format::Plain,
            index.params(),
            MAX_TEXT_BYTES,
        )?;
        let started = Instant::now();
        let g = fetch(&mut index, &packs, &again, &opts);
        let _ = uniqcheck::check::check_document(&index, &again, &opts)?;
        let resecs = started.elapsed().as_secs_f64();

        let urls: Vec<&str> = report.sources.iter().map(|s| s.info.url.as_str()).collect();
        let found = quoted.iter().filter(|q| urls.contains(&q.as_str())).count();
        let (_, all_f, all, _) = timed_check(&manifest, &table, &packs, &text, &unbounded)?;
        let found_all = quoted
            .iter()
            .filter(|q| all.sources.iter().any(|s| s.info.url == **q))
            .count();
        let copy_only = quoted
            .iter()
            .filter(|q| {
                !urls.contains(&q.as_str())
                    && urls.iter().any(|u| {
                        u.strip_prefix(q.as_str())
                            .is_some_and(|r| r.starts_with('#'))
                    })
            })
            .count();
        let copies = urls.iter().filter(|u| u.contains('#')).count();
        let bytes = table.len() as u64 + f.page_bytes + f.record_bytes;
        let row = json!({
            "draft": i,
            "content_words": report.words,
            "bytes": bytes,
            "manifest_bytes": manifest_bytes,
            // What the check read of the page table: the table file alone (format 6).
            "table_bytes": table.len() as u64,
            "top_bytes": table.len(),
            "pages": f.pages,
            "page_bytes": f.page_bytes,
            "records": f.records,
            "record_bytes": f.record_bytes,
            "requests": 2 + f.pages + f.records,
            "rounds": f.rounds,
            "max_candidates": max_candidates,
            "capped": report.capped,
            "unchecked": report.unchecked,
            "uniqueness": report.uniqueness,
            "originality": report.originality,
            "candidates_all": all_f.records,
            "uniqueness_all": all.uniqueness,
            "originality_all": all.originality,
            "sources_all": all.sources.len(),
            "found_all": found_all,
            "sources": report.sources.len(),
            "copies_among_sources": copies,
            "quoted": quoted.len(),
            "found": found,
            "found_only_as_copy": copy_only,
            "ms_first": first,
            "ms": ms,
            "analyse_ms": analyse_ms,
            "round_ms": f.round_ms,
            "check_ms": check_ms,
            "recheck_pages": g.pages,
            "recheck_records": g.records,
            "recheck_bytes": g.page_bytes + g.record_bytes,
            "recheck_ms": resecs * 1e3,
        });
        println!("{row}");
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(format!("no drafts in {}", dir.join("drafts").display()).into());
    }
    let median = |key: &str| {
        let mut v: Vec<f64> = rows.iter().filter_map(|r| r[key].as_f64()).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let max = |key: &str| {
        rows.iter()
            .filter_map(|r| r[key].as_f64())
            .fold(0.0, f64::max)
    };
    let sum = |key: &str| rows.iter().filter_map(|r| r[key].as_u64()).sum::<u64>();
    let summary = json!({
        "documents": manifest.documents,
        "pack_bytes": total,
        "drafts": rows.len(),
        "bytes_median": median("bytes"),
        "bytes_max": max("bytes"),
        "share_median": median("bytes") / total as f64,
        "table_bytes_median": median("table_bytes"),
        "table_bytes_max": max("table_bytes"),
        "top_bytes": table.len(),
        "page_bytes_median": median("page_bytes"),
        "pages_median": median("pages"),
        "record_bytes_median": median("record_bytes"),
        "records_median": median("records"),
        "records_max": max("records"),
        "requests_median": median("requests"),
        "requests_max": max("requests"),
        "rounds_max": max("rounds"),
        "max_candidates": max_candidates,
        "capped": rows.iter().filter(|r| r["capped"] == json!(true)).count(),
        "unchecked_median": median("unchecked"),
        "candidates_all_median": median("candidates_all"),
        "candidates_all_max": max("candidates_all"),
        "found_all": sum("found_all"),
        // The bound's effect on the figures, in points: largest over the drafts.
        "uniqueness_shift_max": rows.iter().map(|r| (r["uniqueness"].as_f64().unwrap_or(0.0)
            - r["uniqueness_all"].as_f64().unwrap_or(0.0)).abs()).fold(0.0, f64::max),
        "originality_shift_max": rows.iter().map(|r| (r["originality"].as_f64().unwrap_or(0.0)
            - r["originality_all"].as_f64().unwrap_or(0.0)).abs()).fold(0.0, f64::max),
        "quoted": sum("quoted"),
        "found": sum("found"),
        "found_only_as_copy": sum("found_only_as_copy"),
        "ms_first_median": median("ms_first"),
        "ms_median": median("ms"),
        "check_ms_median": median("check_ms"),
        "ms_max": max("ms"),
        "recheck_bytes_median": median("recheck_bytes"),
        "recheck_bytes_max": max("recheck_bytes"),
        "recheck_ms_median": median("recheck_ms"),
    });
    println!("summary {summary}");
    Ok(())
}

/// Test mode: one draft made of three indexed posts, checked against the small build.
fn smoke_check(dir: &Path) -> Result<(), Error> {
    let indexed = fs::read_to_string(dir.join("indexed.txt"))?;
    let quoted: Vec<&str> = indexed.lines().take(3).collect();
    let train = train_dir();
    let text = quoted
        .iter()
        .map(|q| fs::read(train.join(q)).map(|b| String::from_utf8_lossy(&b).into_owned()))
        .collect::<Result<Vec<_>, _>>()?
        .join("\n\n");
    fs::create_dir_all(dir.join("drafts"))?;
    fs::write(dir.join("drafts/draft-0.txt"), text)?;
    fs::write(dir.join("drafts/draft-0.quoted"), quoted.join("\n"))?;
    check(dir)
}
