//! `dedup` on known groups: originals with lightly edited copies among unrelated documents are
//! found with pairwise precision and recall of at least 0.9 (0.95 by `aligned`, the default, with
//! words deleted and inserted), and a chain of documents, each like
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

/// The demo corpus' articles (English, then Russian, by file name): (name, visible text).
fn demo_articles() -> Vec<(String, String)> {
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
    articles
}

/// Pairwise (precision, recall) of `found` against `truth`.
fn scores(found: &HashSet<(String, String)>, truth: &HashSet<(String, String)>) -> (f64, f64) {
    let right = found.intersection(truth).count() as f64;
    let precision = if found.is_empty() {
        1.0
    } else {
        right / found.len() as f64
    };
    (precision, right / truth.len() as f64)
}

/// `text` with one word in `every` deleted (from `offset`) and a new word inserted after another
/// one in `every` (half-way between): a copy touched up by deletions and insertions, each
/// breaking `n` shingles.
fn deleted_and_inserted(text: &str, every: usize, offset: usize) -> String {
    let mut out = Vec::new();
    for (i, w) in text.split_whitespace().enumerate() {
        if i % every != offset {
            out.push(w.to_owned());
        }
        if i % every == (offset + every / 2) % every {
            out.push(format!("zq{i}x"));
        }
    }
    out.join(" ")
}

#[test]
fn copies_with_words_deleted_and_inserted_are_grouped_by_what_the_engine_aligns() {
    // Every article is an original; each gets a copy with 4 % of its words deleted and 4 %
    // inserted, and one with 6 % and 6 %: 20 groups of 3 (60 pairs), the two copies edited in
    // different places. Shingle containment groups a third of the pairs (every edit breaks n
    // shingles; the copies of one article differ from each other twice over).
    let mut docs = Vec::new();
    let mut truth = HashSet::new();
    for (name, text) in demo_articles() {
        docs.push((format!("{name}/0"), text.clone()));
        docs.push((format!("{name}/1"), deleted_and_inserted(&text, 25, 3)));
        docs.push((format!("{name}/2"), deleted_and_inserted(&text, 16, 9)));
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            truth.insert((format!("{name}/{a}"), format!("{name}/{b}")));
        }
    }
    let (_dir, store) = store_of(&docs);
    let (precision, recall) = scores(&pairs(&run(&store, Kind::Aligned, None)), &truth);
    eprintln!("aligned: precision {precision:.3}, recall {recall:.3}");
    assert!(
        precision >= 0.95 && recall >= 0.95,
        "aligned: precision {precision:.3}, recall {recall:.3}"
    );
    // Shingle containment is what loses them: every edit breaks n shingles.
    let (_, shingles) = scores(&pairs(&run(&store, Kind::Shingles, None)), &truth);
    eprintln!("shingles: recall {shingles:.3}");
    assert!(
        shingles < recall,
        "shingles {shingles:.3}, aligned {recall:.3}"
    );
}

#[test]
fn known_groups_are_found_with_pairwise_precision_and_recall_of_ninety_percent() {
    let articles = demo_articles();
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
        (Kind::Aligned, 0.9),
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
    for kind in [
        Kind::Aligned,
        Kind::Shingles,
        Kind::Short,
        Kind::Descriptive,
    ] {
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
    for kind in [Kind::Aligned, Kind::Shingles, Kind::Short] {
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

/// The threshold of `aligned` and the comparison with `shingles` (docs/EVALUATION.md,
/// "Near-duplicate groups"): 300 PAN 2013 training source documents cut to `L` words each, the
/// first 60 with two copies whose words are each deleted with probability p/2 or followed by an
/// inserted word (from another source) with probability p/2, for p = 4 % / 8 % and 8 % / 16 %;
/// pairwise precision and recall of the groups by `shingles` at its 0.5 and by `aligned` at 0.5
/// to 0.9. Not run by default (the shared data):
/// `cargo test --release -p uniqcheck-store --test dedup -- --ignored aligned_threshold --nocapture`.
#[test]
#[ignore]
fn aligned_threshold_on_edited_pan_sources() {
    let data = data::data_dir().join("pan13-train/src");
    let mut files: Vec<_> = std::fs::read_dir(&data)
        .unwrap_or_else(|e| panic!("{}: {e}", data.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.truncate(301);
    let texts: Vec<Vec<String>> = files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap();
            String::from_utf8_lossy(&bytes)
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    let (vocabulary, texts) = texts.split_last().unwrap();
    // A fixed linear congruential generator: the same copies on every machine.
    let mut state = 7u64;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for (p1, p2) in [(0.04, 0.08), (0.08, 0.16)] {
        for len in [40, 150, 300] {
            let mut edit = |words: &[String], p: f64| {
                let mut out = Vec::new();
                for w in words {
                    let r = random();
                    if r >= p / 2.0 {
                        out.push(w.clone());
                    }
                    if r > 1.0 - p / 2.0 {
                        let k = (random() * vocabulary.len() as f64) as usize;
                        out.push(vocabulary[k.min(vocabulary.len() - 1)].clone());
                    }
                }
                out.join(" ")
            };
            let mut docs = Vec::new();
            let mut truth = HashSet::new();
            for (i, words) in texts.iter().enumerate() {
                let words = &words[100.min(words.len())..(100 + len).min(words.len())];
                let text = words.join(" ");
                // A few sources are binary data the engine refuses (the last one, the vocabulary,
                // is fine as words).
                let analysed =
                    uniqcheck::Document::analyze(&text, Format::Plain, &Params::default(), 1 << 20);
                if words.len() < 20 || analysed.is_err() {
                    continue;
                }
                docs.push((format!("d{i}/0"), text));
                if i < 60 {
                    docs.push((format!("d{i}/1"), edit(words, p1)));
                    docs.push((format!("d{i}/2"), edit(words, p2)));
                    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                        truth.insert((format!("d{i}/{a}"), format!("d{i}/{b}")));
                    }
                }
            }
            let (_dir, store) = store_of(&docs);
            let mut line = format!("p {p1}/{p2}, {len} words:");
            let (precision, recall) = scores(&pairs(&run(&store, Kind::Shingles, None)), &truth);
            line += &format!(" shingles {precision:.3}/{recall:.3};");
            for t in [0.5, 0.6, 0.7, 0.8, 0.9] {
                let (precision, recall) =
                    scores(&pairs(&run(&store, Kind::Aligned, Some(t))), &truth);
                line += &format!(" aligned {t} {precision:.3}/{recall:.3}");
            }
            eprintln!("{line}");
        }
    }
}
