//! Behaviour of the store and the packs written from it: round trips through the one pack codec,
//! atomic pack generations under a concurrent reader. (Crash safety of `uniqcheck index` is the
//! CLI's test: server/tests/index_crash.rs.)

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use uniqcheck::pack::{decode, PackError, PackedDocument};
use uniqcheck::{Document, Format, Params};
use uniqcheck_store::packs::{write_packs, LoadManifest, Manifest, MANIFEST};
use uniqcheck_store::{NewDocument, Store, StoreError, Upsert};

#[path = "../../server/tests/common/mod.rs"]
mod common;
use common::prose;

fn new_doc(i: u64, words: usize) -> NewDocument {
    NewDocument {
        url: format!("https://example.com/{i}"),
        title: format!("Post {i}"),
        text: prose(i, words),
        format: Format::Plain,
    }
}

fn fill(store: &mut Store, range: std::ops::Range<u64>, words: usize) {
    let p = *store.params();
    let docs = range
        .map(|i| {
            let d = new_doc(i, words);
            let a = Document::analyze(&d.text, d.format, &p, 1 << 20).unwrap();
            (d, a)
        })
        .collect();
    store.upsert_batch(docs).unwrap();
}

fn stored(store: &Store) -> Vec<PackedDocument> {
    let mut all = Vec::new();
    store
        .for_each_packed(|_, d| {
            all.push(d);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    all
}

/// Reads every shard a manifest names and checks it is complete; the documents, in order.
fn read_generation(dir: &Path, manifest: &Manifest) -> Result<Vec<PackedDocument>, String> {
    let mut docs = Vec::new();
    for shard in &manifest.shards {
        let bytes =
            std::fs::read(dir.join(&shard.name)).map_err(|e| format!("{}: {e}", shard.name))?;
        if bytes.len() as u64 != shard.bytes {
            return Err(format!(
                "{}: {} bytes, manifest says {}",
                shard.name,
                bytes.len(),
                shard.bytes
            ));
        }
        let pack = decode(&bytes).map_err(|e| format!("{}: {e}", shard.name))?;
        pack.check_compatible(&manifest.params)
            .map_err(|e| e.to_string())?;
        if pack.documents.len() != shard.documents {
            return Err(format!("{}: wrong document count", shard.name));
        }
        docs.extend(pack.documents);
    }
    Ok(docs)
}

#[test]
fn packs_hold_exactly_the_stored_documents_in_content_named_shards() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    fill(&mut store, 0..60, 150);
    let out = dir.path().join("packs");
    let manifest = write_packs(&store, &out, 8 * 1024).unwrap();
    assert!(manifest.shards.len() > 3, "{manifest:?}");
    assert_eq!(manifest.documents, 60);
    assert_eq!(manifest.changes, store.changes().unwrap());
    assert_eq!(manifest, Manifest::load(&out).unwrap());
    for s in &manifest.shards {
        assert!(s.bytes <= 8 * 1024 || s.documents == 1, "{s:?}");
        assert_eq!(s.name, format!("{}.uqp", &s.sha256[..16]));
    }
    let docs = read_generation(&out, &manifest).unwrap();
    assert_eq!(
        docs,
        stored(&store),
        "shards decode to exactly the stored documents"
    );
    assert!(docs
        .iter()
        .enumerate()
        .all(|(i, d)| d.info.id == (i + 1).to_string()
            && d.info.url == format!("https://example.com/{i}")
            && d.info.title == format!("Post {i}")));

    // Adding documents leaves every shard but the last untouched (it grows, or new ones follow).
    fill(&mut store, 60..62, 150);
    let next = write_packs(&store, &out, 8 * 1024).unwrap();
    let n = manifest.shards.len();
    assert_eq!(next.shards[..n - 1], manifest.shards[..n - 1]);
    assert!(next.shards.len() > n || next.shards[n - 1] != manifest.shards[n - 1]);
    assert_eq!(read_generation(&out, &next).unwrap(), stored(&store));
    // The previous generation is still complete for readers that are mid-fetch…
    assert!(read_generation(&out, &manifest).is_ok());
    // …and goes once a newer generation replaces it.
    fill(&mut store, 62..63, 150);
    let third = write_packs(&store, &out, 8 * 1024).unwrap();
    let names: HashSet<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let expected: HashSet<String> = third
        .shards
        .iter()
        .chain(&next.shards)
        .map(|s| s.name.clone())
        .chain([MANIFEST.to_owned()])
        .collect();
    assert_eq!(names, expected);
}

#[test]
fn an_empty_store_writes_a_manifest_without_shards() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let m = write_packs(&store, &dir.path().join("p"), 1024).unwrap();
    assert_eq!((m.documents, m.shards.len()), (0, 0));
    assert_eq!(Manifest::load(&dir.path().join("p")).unwrap(), m);
}

#[test]
fn damaged_shards_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    fill(&mut store, 0..5, 100);
    let out = dir.path().join("p");
    let m = write_packs(&store, &out, 1 << 20).unwrap();
    let mut bytes = std::fs::read(out.join(&m.shards[0].name)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    let err = decode(&bytes).unwrap_err();
    assert!(matches!(err, PackError::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("damaged"), "{err}");
    let err = decode(&bytes[..bytes.len() - 10]).unwrap_err();
    assert!(
        matches!(
            err,
            PackError::Checksum { .. } | PackError::Truncated { .. }
        ),
        "{err}"
    );
}

#[test]
fn a_reader_never_sees_a_manifest_naming_a_missing_or_partial_shard() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let out = dir.path().join("p");
    let mut store = Store::open(&db, Params::default()).unwrap();
    fill(&mut store, 0..40, 120);
    write_packs(&store, &out, 4 * 1024).unwrap();
    let done = AtomicBool::new(false);
    let (reads, retries) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let (mut reads, mut retries) = (0, 0);
            while !done.load(Ordering::Relaxed) {
                let before = std::fs::read(out.join(MANIFEST)).expect("manifest is always there");
                let manifest: Manifest =
                    serde_json::from_slice(&before).expect("manifest is whole");
                match read_generation(&out, &manifest) {
                    Ok(docs) => {
                        assert_eq!(docs.len(), manifest.documents);
                        reads += 1;
                    }
                    Err(e) => {
                        // Allowed only when the writer has since moved on by two generations
                        // (the previous one is kept): the manifest must have changed.
                        let now = std::fs::read(out.join(MANIFEST)).unwrap();
                        assert_ne!(now, before, "the current manifest names a bad shard: {e}");
                        retries += 1;
                    }
                }
            }
            (reads, retries)
        });
        for round in 0..50u64 {
            fill(&mut store, 100 + round..101 + round, 80);
            if round % 7 == 0 {
                store.delete(1 + round as i64).unwrap();
            }
            write_packs(&store, &out, 4 * 1024).unwrap();
        }
        done.store(true, Ordering::Relaxed);
        reader.join().unwrap()
    });
    assert!(
        reads > 0,
        "the reader read no generation ({retries} retries)"
    );
    let last = Manifest::load(&out).unwrap();
    assert_eq!(read_generation(&out, &last).unwrap(), stored(&store));
}

#[test]
fn changes_counts_writes_and_only_writes() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    fill(&mut store, 0..3, 60);
    assert_eq!(store.changes().unwrap(), 1, "one batch, one change");
    let p = *store.params();
    let same: Vec<_> = (0..3)
        .map(|i| {
            let d = new_doc(i, 60);
            let a = Document::analyze(&d.text, d.format, &p, 1 << 20).unwrap();
            (d, a)
        })
        .collect();
    let results = store.upsert_batch(same).unwrap();
    assert!(results.iter().all(|r| matches!(r, Upsert::Unchanged(_))));
    assert_eq!(store.changes().unwrap(), 1);
    assert_eq!(store.count().unwrap(), 3);
    let got = store.get(2).unwrap().unwrap();
    assert_eq!(got.url, "https://example.com/1");
    assert!(store.get(99).unwrap().is_none());
}

#[test]
fn a_long_word_in_too_many_documents_finds_no_candidates_and_rarer_ones_still_do() {
    use uniqcheck::index::MAX_KEY_DOCS as MAX_LONG_WORD_DOCS;
    use uniqcheck::CheckOptions;
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let p = *store.params();
    let doc = |url: String, text: String| {
        let a = Document::analyze(&text, Format::Plain, &p, 1 << 20).unwrap();
        let d = NewDocument {
            url,
            title: String::new(),
            text,
            format: Format::Plain,
        };
        (d, a)
    };
    // More posts than the limit share one long word with the source, and nothing else.
    let noise = (0..=MAX_LONG_WORD_DOCS)
        .map(|i| {
            doc(
                format!("https://example.com/noise{i}"),
                format!("Internationalization notes number{i} mention nothing else"),
            )
        })
        .collect();
    store.upsert_batch(noise).unwrap();
    let source = "Internationalization of the storefront: translators rewrote checkout \
        instructions, localized currencies, and postponed everything else.";
    let added = store
        .upsert_batch(vec![doc(
            "https://example.com/source".into(),
            source.into(),
        )])
        .unwrap();
    let [Upsert::Added(source_id)] = added[..] else {
        panic!("{added:?}")
    };
    let draft = "Translators rewrote checkout instructions and localized currencies; \
        internationalization of the storefront postponed everything else.";
    let d = Document::analyze(draft, Format::Plain, &p, 1 << 20).unwrap();
    let found = store.candidates(&d, &CheckOptions::default()).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].id as i64, source_id);
    let report = store.check_document(&d, &CheckOptions::default()).unwrap();
    assert_eq!(report.sources.len(), 1);
    assert!(report.uniqueness < 20.0, "{}", report.uniqueness);
}
