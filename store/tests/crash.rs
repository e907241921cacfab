//! Crash safety of the store's writes with key runs merged as they pile up: a process writing
//! batches (a merge every few batches, in the transaction of the batch that triggers it) is
//! killed mid-run; every committed document is complete, whichever runs hold its pairs, nothing
//! is half-merged (no pair twice, no run whose blobs disagree with its count, no blob of no run),
//! and writing again finishes the job. The same for bulk writes ([`Store::set_bulk`]), which leave
//! the runs unmerged until their end. (`uniqcheck index` killed mid-run is the
//! CLI's test: server/tests/index_crash.rs.)
//!
//! The writer is this test binary itself, run again as a child with `UNIQCHECK_CRASH_DB` set
//! (the ignored test `writer`), so that it can be killed with SIGKILL, as a crash would stop it
//! (server/tests/common/kill.rs, shared with the CLI's crash test).

use rusqlite::types::FromSql;
use rusqlite::{Connection, OpenFlags};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use uniqcheck::index::List;
use uniqcheck::{Document, Format, Params};
use uniqcheck_store::Store;

#[path = "../../server/tests/common/mod.rs"]
mod common;
use common::{new_doc, prose};
#[path = "../../server/tests/common/kill.rs"]
mod kill;
use kill::kill_when;

const DOCUMENTS: u64 = 2_000;
const BATCH: u64 = 10;
/// The size ratio of the lists' levels: the smallest, so merges (of a batch's run into the
/// level above, cascading) come at nearly every batch.
const RATIO: u64 = 2;
const WORDS: usize = 200;

/// Writes documents `from..DOCUMENTS` in batches of [`BATCH`], merging with [`RATIO`]; `bulk`:
/// as `uniqcheck index` does ([`Store::set_bulk`]), the runs left unmerged until one merge at
/// the end.
fn write(path: &Path, from: u64, bulk: bool) {
    let mut store = Store::open(path, Params::default()).unwrap();
    store.set_merge_ratio(RATIO);
    store.set_bulk(bulk).unwrap();
    let p = Params::default();
    let mut i = from;
    while i < DOCUMENTS {
        let batch = (i..(i + BATCH).min(DOCUMENTS))
            .map(|j| {
                let d = new_doc(j, WORDS);
                let a = Document::analyze(&d.text, d.format, &p, 1 << 20).unwrap();
                Store::prepare(d, &a, &p).unwrap()
            })
            .collect();
        store.write_batch(batch).unwrap();
        i += BATCH;
    }
    if bulk {
        store.finish_bulk(true).unwrap();
    }
}

/// The child: writes until killed. Ignored unless run by the parent, which sets the store path.
#[test]
#[ignore = "run by the tests that kill it"]
fn writer() {
    if let Some(path) = std::env::var_os("UNIQCHECK_CRASH_DB") {
        let bulk = std::env::var_os("UNIQCHECK_CRASH_BULK").is_some();
        write(Path::new(&path), 0, bulk);
    }
}

/// The keys of one list per document, read through every run ([`Store::key_pairs`], which
/// checks every blob, each run's count, and that no blob is left of a dropped run).
fn pairs_per_doc(store: &Store, list: List) -> HashMap<i64, HashSet<i64>> {
    let mut pairs: HashMap<i64, HashSet<i64>> = HashMap::new();
    for (key, doc) in store.key_pairs(list).unwrap() {
        // A pair in two runs would be a half-done merge.
        assert!(
            pairs.entry(doc as i64).or_default().insert(i64::from(key)),
            "{list:?} {key} {doc} twice"
        );
    }
    pairs
}

/// The rows of a query of two columns.
fn rows<A: FromSql, B: FromSql>(conn: &Connection, sql: &str) -> Vec<(A, B)> {
    conn.prepare(sql)
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Every document present is complete: its fingerprint and long-word pairs are those of its
/// text's analysis, no pair belongs to a missing document, and the database is intact.
/// Returns the count.
fn assert_complete(path: &Path) -> usize {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let docs: Vec<(i64, String)> = rows(&conn, "SELECT id, url FROM documents");
    let store = Store::open_existing(path).unwrap();
    let fingerprints = pairs_per_doc(&store, List::Fingerprints);
    let long_words = pairs_per_doc(&store, List::LongWords);
    pairs_per_doc(&store, List::Sentences);
    let ids: HashSet<i64> = docs.iter().map(|d| d.0).collect();
    assert!(fingerprints.keys().all(|d| ids.contains(d)));
    assert!(long_words.keys().all(|d| ids.contains(d)));
    let p = Params::default();
    for (id, url) in &docs {
        let i: u64 = url.rsplit('/').next().unwrap().parse().unwrap();
        let a = Document::analyze(&prose(i, WORDS), Format::Plain, &p, 1 << 20).unwrap();
        let keys: HashSet<i64> = a.fingerprints.iter().map(|f| i64::from(f.key)).collect();
        let words: HashSet<i64> = a.short.hashes.iter().map(|&h| i64::from(h)).collect();
        assert_eq!(
            fingerprints.get(id).cloned().unwrap_or_default(),
            keys,
            "{url}"
        );
        assert_eq!(
            long_words.get(id).cloned().unwrap_or_default(),
            words,
            "{url}"
        );
    }
    docs.len()
}

#[test]
fn killing_a_writer_that_merges_loses_no_committed_batch() {
    // Three kills at different points of the run, so that some land in a merge's transaction
    // (merges of up to 2^k batches cascade at every second batch).
    for at in [300, 710, 1_150] {
        kill_after(at, false);
    }
}

#[test]
fn killing_a_bulk_writer_loses_no_committed_batch_and_the_next_write_merges_its_runs() {
    // Bulk writing leaves a run per batch and list, and checkpoints only at the end: killed, the
    // store keeps every committed batch, complete, and a normal write merges the runs again.
    for at in [300, 1_150] {
        kill_after(at, true);
    }
}

/// Runs a writer into a fresh store (`bulk`: in bulk mode), kills it once it has committed `at`
/// documents (and merged, unless `bulk`), and checks what is left, then finishes the job with
/// normal writes.
fn kill_after(at: i64, bulk: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["writer", "--exact", "--ignored", "--test-threads", "1"])
        .env("UNIQCHECK_CRASH_DB", &db)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if bulk {
        command.env("UNIQCHECK_CRASH_BULK", "1");
    }
    let mut child = command.spawn().unwrap();
    // Kill it once some merges are done (a run of a level above 0) and more batches are on
    // their way: mid-merge too, as merges are most of the writer's work at these sizes.
    let (mut seen, mut merged) = (0, 0);
    let killed = kill_when(&mut child, || {
        let counts =
            Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY).and_then(|c| {
                c.query_row(
                    "SELECT (SELECT COUNT(*) FROM documents),
                            (SELECT COUNT(*) FROM runs WHERE level > 0)",
                    [],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
                )
            });
        if let Ok((docs, large)) = counts {
            (seen, merged) = (docs, large);
        }
        seen >= at && (bulk || merged > 0)
    });
    assert!(
        killed,
        "the writer finished or failed before it could be killed ({seen} documents seen, {at} awaited)"
    );
    assert!(bulk || merged > 0, "no merge before the kill");

    let present = assert_complete(&db);
    assert!(
        present >= seen as usize && present < DOCUMENTS as usize,
        "{present} present, {seen} seen"
    );
    assert_eq!(present as u64 % BATCH, 0, "only whole batches: {present}");

    // Writing again finishes the job, and merges as writes do.
    write(&db, present as u64, false);
    assert_eq!(assert_complete(&db), DOCUMENTS as usize);
    // At most one run a level of size in each list, as if no bulk write had been.
    let conn = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut levels = HashSet::new();
    let runs: Vec<(i64, i64)> = rows(&conn, "SELECT list, rows FROM runs");
    for (list, rows) in runs {
        let level = uniqcheck_store::runs::size_level(rows as u64, RATIO);
        assert!(
            levels.insert((list, level)),
            "list {list}: two runs of level {level}"
        );
    }
}
