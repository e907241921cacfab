//! `dedup` on known groups: originals with lightly edited copies among unrelated documents are
//! found with pairwise precision and recall of at least 0.9, and a chain of documents, each like
//! the next, never ends in one group.

use std::collections::HashSet;
use uniqcheck::canonicalize::visible_text;
use uniqcheck::methods::{AnyMethod, Kind};
use uniqcheck::{CheckOptions, Format, Params};
use uniqcheck_store::dedup::{dedup, Dedup, DedupError};
use uniqcheck_store::{NewDocument, Store};

fn store_of(docs: &[(String, String)]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("d.db"), Params::default()).unwrap();
    for (url, text) in docs {
        let doc = NewDocument {
            url: url.clone(),
            title: url.clone(),
            text: text.clone(),
            format: Format::Plain,
        };
        store.upsert(&doc, 1 << 20).unwrap();
    }
    (dir, store)
}

fn run(store: &Store, kind: Kind, threshold: Option<f64>) -> Dedup {
    let mut m = AnyMethod::new(kind, store.params());
    if let Some(t) = threshold {
        m = m.with_threshold(t);
    }
    dedup(store, &m, &CheckOptions::default(), 100, &mut |_| {}).unwrap()
}

/// Pairs of urls in one group.
fn pairs(d: &Dedup) -> HashSet<(String, String)> {
    let mut out = HashSet::new();
    for g in &d.groups {
        for a in &g.members {
            for b in &g.members {
                if a.url < b.url {
                    out.insert((a.url.clone(), b.url.clone()));
                }
            }
        }
    }
    out
}

/// `text` with one word in `every` replaced (from `offset`), as a copywriter's light touch-up.
fn edited(text: &str, every: usize, offset: usize) -> String {
    text.split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            if i % every == offset {
                format!("zq{i}x")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn known_groups_are_found_with_pairwise_precision_and_recall_of_ninety_percent() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../demo/corpus");
    let mut articles = Vec::new();
    for lang in ["en", "ru"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}/{lang}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let html = std::fs::read_to_string(&f).unwrap();
            articles.push((
                f.file_stem().unwrap().to_string_lossy().into_owned(),
                visible_text(&html),
            ));
        }
    }
    // The first 5 articles of each language get two lightly edited copies each: 10 groups of 3,
    // among 10 unrelated articles.
    let mut docs = Vec::new();
    let mut truth = HashSet::new();
    for (k, (name, text)) in articles.iter().enumerate() {
        docs.push((format!("{name}/0"), text.clone()));
        if k % 10 < 5 {
            docs.push((format!("{name}/1"), edited(text, 25, 3)));
            docs.push((format!("{name}/2"), edited(text, 30, 17)));
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                truth.insert((format!("{name}/{a}"), format!("{name}/{b}")));
            }
        }
    }
    let (_dir, store) = store_of(&docs);
    // The target (precision and recall of 0.9) holds for the default method, shingles, and for
    // longwords. The other methods are held to what they measure, as regressions to notice: on
    // these 110-word articles with one word in 25 or 30 edited, `descriptive` keeps about 14
    // descriptive words and two copies edited in different places drift below its 0.8 (recall
    // 0.87); SimHash moves more than 5 bits (recall 0.24); Broder's 10-word shingles keep a
    // Jaccard of about 0.4, under its 0.5 (no group). Whatever a method groups must be right.
    for (kind, min_recall) in [
        (Kind::Shingles, 0.9),
        (Kind::Short, 0.9),
        (Kind::Descriptive, 0.85),
        (Kind::Simhash, 0.2),
        (Kind::BroderMinhash, 0.0),
        (Kind::Broder, 0.0),
    ] {
        let d = run(&store, kind, None);
        assert_eq!(d.documents, docs.len());
        let found = pairs(&d);
        let right = found.intersection(&truth).count() as f64;
        let precision = if found.is_empty() {
            1.0
        } else {
            right / found.len() as f64
        };
        let recall = right / truth.len() as f64;
        eprintln!(
            "{}: precision {precision:.3}, recall {recall:.3}",
            kind.name()
        );
        assert!(
            precision >= 0.9 && recall >= min_recall,
            "{}: precision {precision:.3}, recall {recall:.3}, {} groups",
            kind.name(),
            d.groups.len()
        );
        // The suggested document to keep is the longest one: the original, whose words are intact.
        for g in &d.groups {
            let keep = g.members.iter().find(|m| m.id == g.keep).unwrap();
            assert!(g.members.iter().all(|m| m.words <= keep.words));
        }
    }
}

/// Sentences of distinct made-up words, so that texts share exactly the sentences they are given.
fn sentence(i: usize) -> String {
    let words: Vec<String> = (0..12)
        .map(|j| {
            let mut x = ((i * 12 + j) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut w = String::new();
            for _ in 0..7 {
                w.push((b'a' + (x % 26) as u8) as char);
                x /= 26;
            }
            w
        })
        .collect();
    format!("{}.", words.join(" "))
}

fn text_of(sentences: std::ops::Range<usize>) -> String {
    sentences.map(sentence).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_chain_never_ends_in_one_group() {
    // Each shares 70 % of the shorter text with the next (7 sentences of 10); A and D share
    // nothing. (Four texts of one length cannot do both: A∩B, B∩C and C∩D of 70 % each force A and
    // D to share 10 %; so B is longer.)
    let docs = vec![
        ("A".to_owned(), text_of(0..10)),
        ("B".to_owned(), text_of(3..17)),
        ("C".to_owned(), text_of(10..20)),
        ("D".to_owned(), text_of(13..23)),
    ];
    let (_dir, store) = store_of(&docs);
    for kind in [Kind::Shingles, Kind::Short, Kind::Descriptive] {
        for threshold in [0.2, 0.3, 0.5, 0.65] {
            let d = run(&store, kind, Some(threshold));
            for g in &d.groups {
                let urls: HashSet<&str> = g.members.iter().map(|m| m.url.as_str()).collect();
                assert!(
                    !(urls.contains("A") && urls.contains("D")) && urls.len() < 4,
                    "{} at {threshold}: {urls:?}",
                    kind.name()
                );
            }
        }
    }
    // The links are there: at 0.5 by shingles, A-B, B-C and C-D are near-duplicates.
    let d = run(&store, Kind::Shingles, Some(0.5));
    assert!(d.duplicate_pairs >= 3, "{d:?}");
}

#[test]
fn char_cosine_is_refused_for_want_of_text() {
    let (_dir, store) = store_of(&[("a".into(), text_of(0..3))]);
    let m = AnyMethod::new(Kind::CharCosine, store.params());
    let e = dedup(&store, &m, &CheckOptions::default(), 10, &mut |_| {}).unwrap_err();
    assert!(matches!(e, DedupError::NeedsText("char-cosine")), "{e}");
}

#[allow(dead_code)] // the store bench's drafts are not used here
#[path = "../benches/newsgroups/mod.rs"]
mod newsgroups;

#[path = "../../server/tests/common/data.rs"]
mod data;

/// `dedup` at scale (issue 16, docs/PERFORMANCE.md): the store benchmark's corpus of
/// `UQ_DEDUP_N` documents (default 100,000: every 20 Newsgroups post, then perturbed copies of
/// each), indexed into a store under `UQ_DEDUP_DIR` (default target/uniqcheck-bench, kept for a
/// rerun), then every group found; prints the figures. Not run by default (minutes):
/// `cargo test --release -p uniqcheck-store --test dedup -- --ignored --nocapture`.
#[test]
#[ignore]
fn dedup_at_scale() {
    use std::path::{Path, PathBuf};
    use std::time::Instant;
    let n: usize = std::env::var("UQ_DEDUP_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let data = data::data_dir();
    let dir = std::env::var_os("UQ_DEDUP_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/uniqcheck-bench"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("dedup-{n}.db"));
    let params = Params::default();
    let store = match Store::open_existing(&path) {
        Ok(s) if s.count().unwrap() >= n * 9 / 10 => s,
        _ => {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
            let posts = newsgroups::posts(&data.join("20news-bydate"));
            assert!(
                !posts.is_empty(),
                "no 20 Newsgroups under {}",
                data.display()
            );
            let started = Instant::now();
            let mut store = Store::open(&path, params).unwrap();
            let docs: Vec<(usize, usize, String)> = newsgroups::documents(&posts, n).collect();
            for chunk in docs.chunks(4096) {
                let batch: Vec<_> = chunk
                    .iter()
                    .filter_map(|(post, round, text)| {
                        let d = uniqcheck::Document::analyze(text, Format::Plain, &params, 1 << 24)
                            .ok()?;
                        let doc = NewDocument {
                            url: format!("news/{}#{round}", posts[*post].0),
                            title: posts[*post].0.clone(),
                            text: text.clone(),
                            format: Format::Plain,
                        };
                        Some((doc, d))
                    })
                    .collect();
                store.upsert_batch(batch).unwrap();
            }
            eprintln!(
                "indexed {} documents in {:.1} s",
                store.count().unwrap(),
                started.elapsed().as_secs_f64()
            );
            store
        }
    };
    for kind in [Kind::Shingles, Kind::Short] {
        let m = AnyMethod::new(kind, store.params());
        let started = Instant::now();
        let d = dedup(&store, &m, &CheckOptions::default(), 100, &mut |_| {}).unwrap();
        let secs = started.elapsed().as_secs_f64();
        let grouped: usize = d.groups.iter().map(|g| g.members.len()).sum();
        eprintln!(
            "dedup {} documents by {}: {:.1} s ({:.0} documents/s), {} candidate pairs, {} near-duplicate pairs, {} groups holding {grouped} documents, largest {}",
            d.documents,
            kind.name(),
            secs,
            d.documents as f64 / secs,
            d.candidate_pairs,
            d.duplicate_pairs,
            d.groups.len(),
            d.groups.first().map_or(0, |g| g.members.len())
        );
    }
}
