//! Crash safety of `uniqcheck index`: killed mid-run, it loses no committed batch and leaves no
//! document without its index rows; indexing again finishes the job.

use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};
use uniqcheck::index::List;
use uniqcheck::{Document, Format};
use uniqcheck_store::{Store, StoreError};

mod common;
use common::prose;
#[path = "common/kill.rs"]
mod kill;
use kill::kill_when;
#[path = "common/run.rs"]
mod run;
use run::{json, uniqcheck};

/// Every document present has all its fingerprint pairs: as many as distinct keys in the analysis
/// of its file (`corpus`/its URL), read through its record.
fn assert_complete(db: &Path, corpus: &Path) {
    let conn = Connection::open(db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let store = Store::open_existing(db).unwrap();
    // Pairs per document, counted in one pass over every run of the fingerprint list (which
    // also checks every blob, each run's count, and that no blob is left of a dropped run).
    let mut counts: std::collections::HashMap<String, i64> = std::collections::HashMap::new();
    for (_, doc) in store.key_pairs(List::Fingerprints).unwrap() {
        *counts.entry(doc.to_string()).or_default() += 1;
    }
    let mut docs = 0;
    store
        .for_each_record(|_, r| {
            let text = std::fs::read_to_string(corpus.join(&r.info.url)).unwrap();
            let doc = Document::analyze(&text, Format::Plain, store.params(), 1 << 20).unwrap();
            assert_eq!(r.exact, doc.exact, "{} is not {}", r.info.id, r.info.url);
            let keys: HashSet<u32> = doc.fingerprints.iter().map(|f| f.key).collect();
            let rows = counts.get(&r.info.id).copied().unwrap_or(0);
            assert_eq!(
                rows as usize,
                keys.len(),
                "document {} is incomplete",
                r.info.id
            );
            docs += 1;
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(docs, store.count().unwrap());
}

#[test]
fn killing_index_mid_run_loses_no_committed_batch_and_corrupts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    for folder in 0..8 {
        let sub = corpus.join(format!("f{folder}"));
        std::fs::create_dir_all(&sub).unwrap();
        for i in 0..400u64 {
            let seed = folder * 1000 + i;
            std::fs::write(sub.join(format!("{i}.txt")), prose(seed, 300)).unwrap();
        }
    }
    let db = dir.path().join("s.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_uniqcheck"))
        .args([
            "index",
            corpus.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
        .args(["--batch", "40", "--threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once some batches are committed and more are on their way.
    let mut seen = 0;
    let killed = kill_when(&mut child, || {
        // Read-only: opening does not create the database before the writer does.
        seen = Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row("SELECT COUNT(*) FROM documents", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0);
        seen >= 200
    });
    assert!(
        killed,
        "index finished before it could be killed ({seen} documents seen)"
    );

    assert_complete(&db, &corpus);
    let present = Store::open_existing(&db).unwrap().count().unwrap();
    assert!(
        present >= seen as usize && present < 3200,
        "{present} present, {seen} seen"
    );
    assert_eq!(present % 40, 0, "only whole batches are present: {present}");

    // Indexing again finishes the job: what was committed is unchanged, the rest is added.
    let v = json(&uniqcheck(&[
        "index",
        corpus.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["unchanged"].as_u64().unwrap() as usize, present);
    assert_eq!(v["added"].as_u64().unwrap() as usize, 3200 - present);
    assert_complete(&db, &corpus);
}
