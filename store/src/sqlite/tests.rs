//! The store's behaviour, through its SQLite backend: writes, updates, deletes, merges and
//! lookups against a reference, damage reported, ids and parameters refused. The fixtures here
//! are shared with the migration tests (`migrate/tests.rs`).

use rusqlite::Connection;
use std::collections::HashMap;
use std::path::Path;
use uniqcheck::index::{DocId, Index, List};
use uniqcheck::{CheckOptions, Document, Format, Params, Report};

use super::{Store, WAL_SIZE_LIMIT};
use crate::document::{text_hash, Keys, NewDocument, Upsert};
use crate::error::StoreError;
use crate::lists::LIST_NAMES;
use crate::runs;

pub(crate) const TEA: &str =
    "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и \
    не отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три, \
    белый можно держать дольше. Хранят чай в плотно закрытой банке вдали от специй и кофе.";

pub(crate) const SHOES: &str = "Running shoes are chosen for the foot, the surface and the usual \
    distance, and their colour comes last. Try them on in the evening, when feet are slightly \
    swollen, and leave a thumbnail of room in front of the big toe.";

pub(crate) fn doc(url: &str, title: &str, text: &str) -> NewDocument {
    NewDocument {
        url: url.into(),
        title: title.into(),
        text: text.into(),
        format: Format::Plain,
    }
}

#[test]
fn the_write_ahead_log_is_cut_back_after_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let limit: i64 = store
        .db
        .conn
        .query_row("PRAGMA journal_size_limit", [], |r| r.get(0))
        .unwrap();
    assert_eq!(limit, WAL_SIZE_LIMIT);
}

/// Document `id`'s fingerprint pairs, read from the runs.
fn fingerprint_rows(store: &Store, id: i64) -> i64 {
    let pairs = store.key_pairs(List::Fingerprints).unwrap();
    pairs.iter().filter(|p| p.1 == id as DocId).count() as i64
}

#[test]
fn a_store_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<Store>();
}

#[test]
fn upsert_add_unchanged_update_delete() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    assert_eq!(store.changes().unwrap(), 0);
    let a = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    assert!(matches!(a, Upsert::Added(_)));
    assert_eq!(store.changes().unwrap(), 1);
    let again = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    assert_eq!(again, Upsert::Unchanged(a.id()));
    assert_eq!(
        store.changes().unwrap(),
        1,
        "an unchanged document writes nothing"
    );
    let retitled = store.upsert(&doc("/tea", "Чай", TEA), 1 << 20).unwrap();
    assert_eq!(retitled, Upsert::Updated(a.id()));
    let changed = store.upsert(&doc("/tea", "Чай", SHOES), 1 << 20).unwrap();
    assert_eq!(changed, Upsert::Updated(a.id()));
    assert_eq!(store.changes().unwrap(), 3);
    let got = store.get(a.id()).unwrap().unwrap();
    assert_eq!((got.url.as_str(), got.title.as_str()), ("/tea", "Чай"));
    assert_eq!(got.text_hash, text_hash(SHOES, Format::Plain));
    // The old fingerprints were replaced, not added to.
    let fresh = Document::analyze(SHOES, Format::Plain, &Params::default(), 1 << 20).unwrap();
    let mut keys: Vec<u32> = fresh.fingerprints.iter().map(|f| f.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(fingerprint_rows(&store, a.id()), keys.len() as i64);

    assert!(store.delete(a.id()).unwrap());
    assert!(!store.delete(a.id()).unwrap());
    assert_eq!(store.count().unwrap(), 0);
    assert_eq!(fingerprint_rows(&store, a.id()), 0);
    assert!(store.key_pairs(List::LongWords).unwrap().is_empty());
    assert!(store.key_pairs(List::Sentences).unwrap().is_empty());
    // An emptied run is deleted with its chunks.
    assert_eq!(store.runs().unwrap(), [0, 0, 0]);
    let chunks: i64 = store
        .db
        .conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM chunks) + (SELECT COUNT(*) FROM spills)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(chunks, 0);
    assert_eq!(store.changes().unwrap(), 4);
    // Ids are never reused.
    let b = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    assert!(b.id() > a.id());
}

#[test]
fn a_url_twice_in_one_batch_keeps_the_later_text_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let p = Params::default();
    let analysed = |t: &str| Document::analyze(t, Format::Plain, &p, 1 << 20).unwrap();
    let results = store
        .upsert_batch(vec![
            (doc("/x", "X", TEA), analysed(TEA)),
            (doc("/x", "X", SHOES), analysed(SHOES)),
        ])
        .unwrap();
    assert!(matches!(results[..], [Upsert::Added(a), Upsert::Updated(b)] if a == b));
    let mut keys: Vec<u32> = analysed(SHOES).fingerprints.iter().map(|f| f.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(fingerprint_rows(&store, results[0].id()), keys.len() as i64);
    assert_eq!(store.changes().unwrap(), 1);
}

#[test]
fn check_finds_the_source_with_its_identity() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let tea = store
        .upsert(&doc("https://x/tea", "Tea", TEA), 1 << 20)
        .unwrap();
    store
        .upsert(&doc("https://x/shoes", "Shoes", SHOES), 1 << 20)
        .unwrap();
    let draft_text = format!("Моё вступление к заметке о чае. {TEA}");
    let opts = CheckOptions {
        short_threshold: 0,
        ..Default::default()
    };
    let report = store.check(&draft_text, Format::Plain, &opts).unwrap();
    assert_eq!(report.sources.len(), 1);
    let s = &report.sources[0];
    assert_eq!(s.info.id, tea.id().to_string());
    assert_eq!(
        (s.info.url.as_str(), s.info.title.as_str()),
        ("https://x/tea", "Tea")
    );
    assert!(s.spans.iter().all(|p| p.source.is_none()));
    assert!(report.uniqueness < 40.0, "{}", report.uniqueness);

    let report = store.check(SHOES, Format::Plain, &opts).unwrap();
    assert!(report.sources[0].exact);
    assert_eq!(report.uniqueness, 0.0);
}

/// A new store at `path` holding the tea, the rewrite's source and the shoes, in that order:
/// the store, the tea's upsert and the source's.
pub(crate) fn three_documents(path: &Path) -> (Store, Upsert, Upsert) {
    let mut store = Store::open(path, Params::default()).unwrap();
    let tea = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    let source = store
        .upsert(&doc("/lighthouses", "Lighthouses", REWRITE_SOURCE), 1 << 20)
        .unwrap();
    store
        .upsert(&doc("/shoes", "Shoes", SHOES), 1 << 20)
        .unwrap();
    (store, tea, source)
}

/// Every pair of the three key lists, in order.
pub(crate) fn key_rows(store: &Store) -> Vec<(String, i64, i64)> {
    let mut rows = Vec::new();
    for (list, table) in [List::Fingerprints, List::LongWords, List::Sentences]
        .into_iter()
        .zip(LIST_NAMES)
    {
        let pairs = store.key_pairs(list).unwrap();
        rows.extend(
            pairs
                .into_iter()
                .map(|(k, d)| (table.to_owned(), i64::from(k), d as i64)),
        );
    }
    rows
}

#[test]
fn a_damaged_key_list_is_reported_and_nothing_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    let tea = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    let rows = key_rows(&store);
    store
        .db
        .conn
        .execute(
            "UPDATE documents SET keys = x'0100000000' WHERE id = ?1",
            [tea.id()],
        )
        .unwrap();
    let err = store.delete(tea.id()).unwrap_err();
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
    assert!(err.to_string().contains("/tea"), "{err}");
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(key_rows(&store), rows);
    assert!(store.fingerprint_keys(tea.id()).is_err());
    assert!(store.fingerprint_keys(tea.id() + 1).unwrap().is_empty());
}

pub(crate) const REWRITE_SOURCE: &str = include_str!("../../../tests/data/rewrite-source.txt");

pub(crate) const REWRITE_DRAFT: &str = include_str!("../../../tests/data/rewrite-draft.txt");

/// The texts of the merge tests: the three of the module and variants of each.
pub(crate) fn texts() -> Vec<String> {
    let mut texts = Vec::new();
    for (i, base) in [REWRITE_SOURCE, TEA, SHOES].iter().enumerate() {
        texts.push(base.to_string());
        texts.push(format!("Вступление номер {i} к тексту. {base}"));
        texts.push(format!(
            "{base} Another closing line, number {i}, of its own."
        ));
    }
    texts
}

/// A document's pairs in the three lists, as the store computes them ([`Store::prepare`]).
type Reference = HashMap<i64, Keys>;

/// The reference's pairs of each list, ascending.
fn reference_pairs(reference: &Reference) -> [Vec<(u32, DocId)>; 3] {
    let mut out: [Vec<(u32, DocId)>; 3] = Default::default();
    for (&id, keys) in reference {
        let lists = [&keys.fingerprints, &keys.long_words, &keys.sentences];
        for (out, list) in out.iter_mut().zip(lists) {
            out.extend(list.iter().map(|&k| (k, id as DocId)));
        }
    }
    for list in &mut out {
        list.sort_unstable();
    }
    out
}

const LISTS: [List; 3] = [List::Fingerprints, List::LongWords, List::Sentences];

/// The store's pairs and lookups are the reference's: every list's pairs, and
/// [`Index::postings`] of all its keys (and some it lacks) at several limits: every key for
/// [`List::Fingerprints`], only those of at most `limit` documents for the others.
fn assert_answers(store: &Store, reference: &Reference, what: &str) {
    let expected = reference_pairs(reference);
    for (list, pairs) in LISTS.iter().zip(&expected) {
        assert_eq!(&store.key_pairs(*list).unwrap(), pairs, "{what} {list:?}");
        let mut keys: Vec<u32> = pairs.iter().map(|p| p.0).collect();
        keys.extend([0, 1, u32::MAX, 0x8000_0000]);
        keys.sort_unstable();
        keys.dedup();
        for limit in [0, 1, 2, 5, 1000] {
            let mut found = Vec::new();
            store
                .postings(*list, &keys, limit, &mut |k, docs| {
                    found.push((k, docs.to_vec()))
                })
                .unwrap();
            let mut want: Vec<(u32, Vec<DocId>)> = Vec::new();
            for group in pairs.chunk_by(|a, b| a.0 == b.0) {
                if *list == List::Fingerprints || group.len() <= limit {
                    want.push((group[0].0, group.iter().map(|p| p.1).collect()));
                }
            }
            assert_eq!(found, want, "{what} {list:?} limit {limit}");
        }
    }
}

/// Texts that share sentences (so keys held by several documents) made of the test texts'
/// sentences, chosen by `seed`.
fn mixed_text(seed: u64) -> String {
    let pool: Vec<&str> = [TEA, SHOES, REWRITE_SOURCE]
        .iter()
        .flat_map(|t| t.split_inclusive(". "))
        .collect();
    let mut x = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let mut out = String::new();
    for _ in 0..2 + seed % 4 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        out += pool[(x >> 33) as usize % pool.len()];
        out.push(' ');
    }
    out
}

/// Random batches of adds and updates (a URL twice in a batch too) and deletes, against
/// stores leveled by size with ratios 2, 3 and 8 and one that never merges: after every step
/// each store's pairs and lookups are the reference's, each list holds at most one run per
/// level of size, and [`Store::merge`] leaves one run per list with the same answers; the
/// stores give the same reports.
#[test]
fn runs_answer_as_the_reference_through_writes_updates_deletes_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let p = Params::default();
    let drafts = [TEA.to_owned(), REWRITE_DRAFT.to_owned(), mixed_text(3)];
    let opts = CheckOptions::default();
    let mut seen: Option<Vec<Report>> = None;
    for fanout in [2, 3, 8, u64::MAX] {
        let mut store = Store::open(&dir.path().join(format!("{fanout}.db")), p).unwrap();
        store.set_merge_ratio(fanout);
        let mut reference = Reference::new();
        let mut x: u64 = 12_345;
        let mut next = |n: u64| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 33) % n
        };
        let mut most_runs = 0;
        for step in 0..40 {
            if step % 7 == 6 {
                let mut ids: Vec<i64> = reference.keys().copied().collect();
                ids.sort_unstable();
                if !ids.is_empty() {
                    let id = ids[next(ids.len() as u64) as usize];
                    assert!(store.delete(id).unwrap());
                    reference.remove(&id);
                }
            } else {
                let batch: Vec<(NewDocument, Document)> = (0..1 + next(4))
                    .map(|_| {
                        let text = mixed_text(next(1000));
                        let new = doc(&format!("/{}", next(14)), "T", &text);
                        let analysed =
                            Document::analyze(&text, Format::Plain, &p, 1 << 20).unwrap();
                        (new, analysed)
                    })
                    .collect();
                let prepared: Vec<Keys> = batch
                    .iter()
                    .map(|(n, d)| Store::prepare(n.clone(), d, &p).unwrap().keys)
                    .collect();
                let results = store.upsert_batch(batch).unwrap();
                for (result, keys) in results.iter().zip(prepared) {
                    if !matches!(result, Upsert::Unchanged(_)) {
                        reference.insert(result.id(), keys);
                    }
                }
            }
            assert_answers(&store, &reference, &format!("fanout {fanout} step {step}"));
            let runs = store.runs().unwrap();
            most_runs = most_runs.max(runs[0]);
            if fanout != u64::MAX {
                for (n, pairs) in runs.iter().zip(reference_pairs(&reference)) {
                    let levels = runs::size_level(pairs.len() as u64, fanout) as usize + 1;
                    assert!(*n <= levels, "ratio {fanout} step {step}: {runs:?}");
                }
            }
        }
        if fanout == u64::MAX {
            assert!(most_runs >= 8, "{most_runs} runs");
        }
        let reports: Vec<Report> = drafts
            .iter()
            .map(|t| store.check(t, Format::Plain, &opts).unwrap())
            .collect();
        assert!(reports.iter().any(|r| !r.sources.is_empty()));
        store.merge().unwrap();
        assert_eq!(store.runs().unwrap(), [1, 1, 1]);
        assert_answers(&store, &reference, &format!("fanout {fanout} merged"));
        let merged: Vec<Report> = drafts
            .iter()
            .map(|t| store.check(t, Format::Plain, &opts).unwrap())
            .collect();
        assert_eq!(merged, reports);
        match &seen {
            None => seen = Some(reports),
            Some(first) => assert_eq!(&reports, first, "fanout {fanout}"),
        }
    }
}

/// A long word in more documents than a chunk keeps inline is spilled to a blob of its own;
/// it is counted over all runs for the common-key rule (left out above the limit, kept at
/// it), read whole for the fingerprint list, and its documents are removed by deletes.
#[test]
fn a_common_key_is_spilled_counted_over_runs_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    store.set_merge_ratio(u64::MAX);
    let p = Params::default();
    let analysed = Document::analyze(TEA, Format::Plain, &p, 1 << 20).unwrap();
    let many = runs::SPILL_DOCS + 20;
    let batch = (0..many)
        .map(|i| (doc(&format!("/a{i}"), "T", TEA), analysed.clone()))
        .collect();
    store.upsert_batch(batch).unwrap();
    for i in 0..3 {
        store
            .upsert(&doc(&format!("/b{i}"), "T", TEA), 1 << 20)
            .unwrap();
    }
    assert_eq!(store.runs().unwrap(), [4, 4, 4]);
    let spills: i64 = store
        .db
        .conn
        .query_row("SELECT COUNT(*) FROM spills", [], |r| r.get(0))
        .unwrap();
    assert!(spills > 0);
    let total = many + 3;
    let keys = Store::prepare(doc("/x", "T", TEA), &analysed, &p)
        .unwrap()
        .keys;
    let found = |store: &Store, list: List, keys: &[u32], limit: usize| {
        let mut found = Vec::new();
        store
            .postings(list, keys, limit, &mut |k, docs| {
                found.push((k, docs.len()))
            })
            .unwrap();
        found
    };
    let all =
        |keys: &[u32], n: usize| -> Vec<(u32, usize)> { keys.iter().map(|&k| (k, n)).collect() };
    assert_eq!(
        found(&store, List::LongWords, &keys.long_words, total),
        all(&keys.long_words, total)
    );
    assert!(found(&store, List::LongWords, &keys.long_words, total - 1).is_empty());
    assert!(found(&store, List::Sentences, &keys.sentences, 10).is_empty());
    assert_eq!(
        found(&store, List::Fingerprints, &keys.fingerprints, 10),
        all(&keys.fingerprints, total)
    );
    // Deletes reach spilled documents and inline ones.
    for id in [1, 2, 100, total as i64] {
        assert!(store.delete(id).unwrap());
    }
    let left = total - 4;
    assert_eq!(
        found(&store, List::LongWords, &keys.long_words, left),
        all(&keys.long_words, left)
    );
    let mut reference = Reference::new();
    for id in 1..=total as i64 {
        if ![1, 2, 100, total as i64].contains(&id) {
            reference.insert(id, keys.clone());
        }
    }
    assert_answers(&store, &reference, "after deletes");
    store.merge().unwrap();
    assert_answers(&store, &reference, "merged");
}

/// A store written one document a write (as the server's API writes) keeps at most one run
/// per level of size in each list after every write, whatever the order of small and large
/// batches, and answers as the reference; what [`runs::plan_merge`]'s simulation proves at
/// scale, through the store's own merges.
#[test]
fn single_document_writes_keep_one_run_a_level_and_answer_as_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let p = Params::default();
    let mut store = Store::open(&dir.path().join("s.db"), p).unwrap();
    store.set_merge_ratio(2);
    let mut reference = Reference::new();
    let mut most = [0; 3];
    for i in 0..120u64 {
        // Mostly single documents, every 50th write a batch of 30.
        let n = if i % 50 == 49 { 30 } else { 1 };
        let batch: Vec<(NewDocument, Document)> = (0..n)
            .map(|j| {
                let text = mixed_text(i * 100 + j);
                let analysed = Document::analyze(&text, Format::Plain, &p, 1 << 20).unwrap();
                (doc(&format!("/{i}/{j}"), "T", &text), analysed)
            })
            .collect();
        let keys: Vec<Keys> = batch
            .iter()
            .map(|(n, d)| Store::prepare(n.clone(), d, &p).unwrap().keys)
            .collect();
        for (result, keys) in store.upsert_batch(batch).unwrap().iter().zip(keys) {
            reference.insert(result.id(), keys);
        }
        let runs = store.runs().unwrap();
        for (list, pairs) in reference_pairs(&reference).iter().enumerate() {
            let levels = runs::size_level(pairs.len() as u64, 2) as usize + 1;
            assert!(runs[list] <= levels, "write {i}: {runs:?}");
            most[list] = most[list].max(runs[list]);
        }
        if i % 20 == 19 {
            assert_answers(&store, &reference, &format!("write {i}"));
        }
    }
    // Several levels were in use at once (the bound was tested, not trivially met).
    assert!(most[0] >= 3, "{most:?}");
}

/// Builds a store of [`texts`] in several runs; returns its reports of three drafts, its
/// pairs and its changes counter.
pub(crate) fn store_of_texts(path: &Path) -> (Vec<Report>, Vec<(String, i64, i64)>, i64) {
    let mut store = Store::open(path, Params::default()).unwrap();
    store.set_merge_ratio(u64::MAX);
    for (i, text) in texts().iter().enumerate() {
        store
            .upsert(&doc(&format!("/{i}"), "T", text), 1 << 20)
            .unwrap();
    }
    store.upsert(&doc("/0", "T", SHOES), 1 << 20).unwrap();
    assert!(store.delete(4).unwrap());
    assert!(store.runs().unwrap()[0] > 1);
    let opts = CheckOptions::default();
    let reports: Vec<Report> = [TEA, REWRITE_DRAFT, SHOES]
        .iter()
        .map(|t| store.check(t, Format::Plain, &opts).unwrap())
        .collect();
    (reports, key_rows(&store), store.changes().unwrap())
}

#[test]
fn damaged_chunks_are_reported_not_misread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    store_of_texts(&path);
    let opts = CheckOptions::default();
    for damage in [
        "UPDATE chunks SET data = substr(data, 1, length(data) - 3)",
        "UPDATE chunks SET data = x'00'",
        "UPDATE chunks SET data = randomblob(length(data))",
        "UPDATE runs SET rows = rows + 1",
        "DELETE FROM chunks WHERE id = (SELECT MIN(c.id) FROM chunks c JOIN runs r ON r.id = c.id >> 32 WHERE r.list = 0)",
    ] {
        let copy = dir.path().join("copy.db");
        std::fs::copy(&path, &copy).unwrap();
        let mut store = Store::open_existing(&copy).unwrap();
        store.db.conn.execute_batch(damage).unwrap();
        let err = match store.key_pairs(List::Fingerprints) {
            Ok(pairs) => panic!("{damage}: read {} pairs", pairs.len()),
            Err(err) => err,
        };
        assert!(
            matches!(err, StoreError::DamagedIndex { .. }),
            "{damage}: {err:?}"
        );
        assert!(err.to_string().contains("fingerprints index"), "{err}");
        // A merge reads every chunk of the runs it merges: it stops at the damage, and
        // writes nothing.
        let before = store.runs().unwrap();
        let err = store.merge().unwrap_err();
        assert!(
            matches!(err, StoreError::DamagedIndex { .. }),
            "{damage}: {err:?}"
        );
        assert_eq!(store.runs().unwrap(), before);
        if !damage.contains("rows") && !damage.contains("DELETE") {
            // Every chunk is damaged: the check reads some and says so.
            let err = store.check(TEA, Format::Plain, &opts).unwrap_err();
            assert!(
                matches!(err, StoreError::DamagedIndex { .. }),
                "{damage}: {err:?}"
            );
            let count = store.count().unwrap();
            assert!(store.delete(1).is_err());
            assert_eq!(store.count().unwrap(), count, "nothing deleted");
        }
        drop(store);
        std::fs::remove_file(&copy).unwrap();
    }
}

#[test]
fn document_ids_beyond_u32_are_refused_not_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    store
        .db
        .conn
        .execute(
            "UPDATE sqlite_sequence SET seq = 4294967295 WHERE name = 'documents'",
            [],
        )
        .unwrap();
    let changes = store.changes().unwrap();
    let err = store
        .upsert(&doc("/shoes", "Shoes", SHOES), 1 << 20)
        .unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::IdRange {
                id: 4_294_967_296,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(store.count().unwrap(), 1);
    assert_eq!(store.changes().unwrap(), changes);
    assert_eq!(key_rows(&store).iter().filter(|r| r.2 != 1).count(), 0);
}

#[test]
fn mismatched_params_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    drop(Store::open(&path, Params::default()).unwrap());
    let other = Params {
        n: 5,
        stemming: false,
        ..Params::default()
    };
    let err = Store::open(&path, other).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("n = 4 in the store, 5 here"), "{msg}");
    assert!(
        msg.contains("stemming = true in the store, false here"),
        "{msg}"
    );
    // The store names no command-line flags: the CLI adds them (tests/cli.rs).
    assert!(!msg.contains("--"), "{msg}");
    let StoreError::ParamsMismatch { differences, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(differences[0].found, uniqcheck::ParamValue::Number(4));
    assert_eq!(
        *Store::open_existing(&path).unwrap().params(),
        Params::default()
    );

    let text = dir.path().join("notes.txt");
    std::fs::write(
        &text,
        "just some text, long enough to fill a database header page",
    )
    .unwrap();
    let err = Store::open_existing(&text).unwrap_err();
    assert!(err.to_string().contains("not a uniqcheck store"), "{err:#}");
    let err = Store::open_existing(&dir.path().join("none.db")).unwrap_err();
    assert!(err.to_string().contains("there is no store"), "{err:#}");

    let foreign = dir.path().join("other.db");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    let err = Store::open(&foreign, Params::default()).unwrap_err();
    assert!(err.to_string().contains("other tables"), "{err:#}");
}
