//! The migrations: stores turned back into the layouts of schemas 2 to 7 (from a store this
//! build writes) are opened, migrated, and answer as before.

use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;
use uniqcheck::index::{DocId, List};
use uniqcheck::pack::FORMAT_VERSION;
use uniqcheck::{CheckOptions, Format, Params, Report, SourceInfo};

use super::{recent_tables, KEY_LISTS, KEY_TABLES, RECENT};
use crate::backend::Storage;
use crate::error::StoreError;
use crate::sqlite::tests::{
    doc, key_rows, store_of_texts, three_documents, REWRITE_DRAFT, REWRITE_SOURCE, SHOES, TEA,
};
use crate::sqlite::{Store, SCHEMA_VERSION};

/// Turns a fresh store back into the layout schema 6 had: the three key tables and their
/// recent twins (the pairs of odd documents in the recent ones, as if not merged yet), the
/// `recent_rows` counter, no runs, user_version 6.
fn downgrade_to_schema_6(path: &Path) {
    let store = Store::open_existing(path).unwrap();
    let lists: Vec<Vec<(u32, DocId)>> = [List::Fingerprints, List::LongWords, List::Sentences]
        .iter()
        .map(|&l| store.key_pairs(l).unwrap())
        .collect();
    drop(store);
    let mut conn = Connection::open(path).unwrap();
    let tx = conn.transaction().unwrap();
    tx.execute_batch(KEY_TABLES).unwrap();
    tx.execute_batch(&recent_tables()).unwrap();
    let mut recent = 0;
    for ((table, key), pairs) in KEY_LISTS.iter().zip(&lists) {
        for &(k, d) in pairs {
            let prefix = if d % 2 == 1 { RECENT } else { "" };
            recent += usize::from(d % 2 == 1);
            tx.prepare_cached(&format!(
                "INSERT INTO {prefix}{table} ({key}, doc) VALUES (?1, ?2)"
            ))
            .unwrap()
            .execute([i64::from(k), d as i64])
            .unwrap();
        }
    }
    tx.execute_batch(&format!(
        "DROP TABLE runs; DROP TABLE chunks; DROP TABLE spills;
         INSERT INTO meta (key, value) VALUES ('recent_rows', '{recent}');
         PRAGMA user_version = 6;"
    ))
    .unwrap();
    tx.commit().unwrap();
}

/// Turns the schema-7 store at `$UNIQCHECK_DOWNGRADE_DB` into a schema-6 one (the key
/// tables and their recent twins, every odd document's pairs recent), to measure the
/// migration at scale: open it afterwards (the store benchmark with `STORE_DIR` does).
#[test]
#[ignore = "a tool: set UNIQCHECK_DOWNGRADE_DB"]
fn downgrade_a_store_to_schema_6() {
    if let Some(path) = std::env::var_os("UNIQCHECK_DOWNGRADE_DB") {
        downgrade_to_schema_6(Path::new(&path));
    }
}

/// Turns a fresh store back into the layout schema 5 had: every key row in the large
/// tables, no recent tables, no `recent_rows`, user_version 5.
fn downgrade_to_schema_5(path: &Path) {
    downgrade_to_schema_6(path);
    let conn = Connection::open(path).unwrap();
    let mut sql = String::new();
    for (table, key) in KEY_LISTS {
        sql += &format!(
            "INSERT INTO {table} ({key}, doc) SELECT {key}, doc FROM {RECENT}{table};
             DROP TABLE {RECENT}{table};"
        );
    }
    sql += "DELETE FROM meta WHERE key = 'recent_rows'; PRAGMA user_version = 5;";
    conn.execute_batch(&sql).unwrap();
}

/// Turns a fresh store back into the layout schema 4 had: no `keys` column, each key table
/// with a foreign key to `documents` and an index by document, user_version 4.
fn downgrade_to_schema_4(path: &Path) {
    downgrade_to_schema_5(path);
    let conn = Connection::open(path).unwrap();
    let mut sql = "ALTER TABLE documents DROP COLUMN keys;".to_owned();
    for (table, key) in [
        ("fingerprints", "key"),
        ("longwords", "hash"),
        ("sentences", "key"),
    ] {
        sql += &format!(
            "CREATE TABLE old_{table} (
                 {key} INTEGER NOT NULL,
                 doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                 PRIMARY KEY ({key}, doc)
             ) WITHOUT ROWID;
             INSERT INTO old_{table} SELECT {key}, doc FROM {table};
             DROP TABLE {table};
             ALTER TABLE old_{table} RENAME TO {table};
             CREATE INDEX {table}_doc ON {table}(doc);"
        );
    }
    sql += "PRAGMA user_version = 4;";
    conn.execute_batch(&sql).unwrap();
}

/// A migrated store ends at the current schema version.
fn assert_current_schema(store: &Store) {
    let version: i32 = store
        .db
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

/// Names of the indexes the store's schema declares (the automatic ones of primary and
/// unique keys aside) and of the tables with foreign keys.
fn indexes_and_foreign_keys(store: &Store) -> (Vec<String>, Vec<String>) {
    let names = |sql: &str| -> Vec<String> {
        let mut stmt = store.db.conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.map(Result::unwrap).collect()
    };
    (
        names("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1"),
        names(
            "SELECT DISTINCT m.name FROM sqlite_schema m, pragma_foreign_key_list(m.name) f
             WHERE m.type = 'table' ORDER BY 1",
        ),
    )
}

#[test]
fn a_schema_4_store_gets_its_key_lists_and_loses_its_indexes_by_document() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let (store, tea, source) = three_documents(&path);
    let opts = CheckOptions::default();
    let reports: Vec<Report> = [TEA, REWRITE_DRAFT, SHOES]
        .iter()
        .map(|t| store.check(t, Format::Plain, &opts).unwrap())
        .collect();
    let rows = key_rows(&store);
    let keys: Vec<Vec<u32>> = (1..=3)
        .map(|id| store.fingerprint_keys(id).unwrap())
        .collect();
    let changes = store.changes().unwrap();
    assert_eq!(
        indexes_and_foreign_keys(&store),
        (vec!["documents_exact".to_owned()], vec![])
    );
    drop(store);

    downgrade_to_schema_4(&path);
    assert!(!columns(&path).contains(&"keys".to_owned()));
    let mut store = Store::open_existing(&path).unwrap();
    assert_current_schema(&store);
    // The layout of a new store: no index by document, no foreign key.
    assert_eq!(
        indexes_and_foreign_keys(&store),
        (vec!["documents_exact".to_owned()], vec![])
    );
    // Nothing else changed: the rows, the key lists, the counters, the answers.
    assert_eq!(key_rows(&store), rows);
    let migrated: Vec<Vec<u32>> = (1..=3)
        .map(|id| store.fingerprint_keys(id).unwrap())
        .collect();
    assert_eq!(migrated, keys);
    assert_eq!(store.changes().unwrap(), changes);
    for (text, report) in [TEA, REWRITE_DRAFT, SHOES].iter().zip(&reports) {
        assert_eq!(&store.check(text, Format::Plain, &opts).unwrap(), report);
    }
    // The migrated key lists are what updates and deletes remove: no row is left behind.
    store
        .upsert(&doc("/lighthouses", "Lighthouses", TEA), 1 << 20)
        .unwrap();
    assert!(store.delete(tea.id()).unwrap());
    // What is left is exactly the rows of the two documents as a new store holds them.
    let mut fresh = Store::open(&dir.path().join("fresh.db"), Params::default()).unwrap();
    let a = fresh.upsert(&doc("/a", "A", TEA), 1 << 20).unwrap();
    fresh.upsert(&doc("/b", "B", SHOES), 1 << 20).unwrap();
    let id_here = |d: i64| if d == a.id() { source.id() } else { 3 };
    let mut expected: Vec<(String, i64, i64)> = key_rows(&fresh)
        .into_iter()
        .map(|(t, k, d)| (t, k, id_here(d)))
        .collect();
    expected.sort();
    let mut left = key_rows(&store);
    left.sort();
    assert_eq!(left, expected);
}

/// Turns a fresh store back into the layout schema 2 had: a `sketch` column, the pack
/// format of its sketches (1) in `meta`, user_version 2.
fn downgrade_to_schema_2(path: &Path) {
    downgrade_to_schema_4(path);
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "ALTER TABLE documents ADD COLUMN sketch BLOB NOT NULL DEFAULT x'55515042';
         UPDATE meta SET value = '1' WHERE key = 'format_version';
         DROP TABLE sentences;
         PRAGMA user_version = 2;",
    )
    .unwrap();
}

fn columns(path: &Path) -> Vec<String> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT name FROM pragma_table_info('documents')")
        .unwrap();
    let names = stmt.query_map([], |r| r.get(0)).unwrap();
    names.collect::<rusqlite::Result<_>>().unwrap()
}

#[test]
fn a_schema_2_store_is_migrated_in_place_and_older_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let mut store = Store::open(&path, Params::default()).unwrap();
    let tea = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
    store
        .upsert(&doc("/shoes", "Shoes", SHOES), 1 << 20)
        .unwrap();
    let opts = CheckOptions::default();
    let before = store.check(TEA, Format::Plain, &opts).unwrap();
    let changes = store.changes().unwrap();
    drop(store);
    downgrade_to_schema_2(&path);
    assert!(columns(&path).contains(&"sketch".to_owned()));

    let store = Store::open_existing(&path).unwrap();
    assert!(!columns(&path).contains(&"sketch".to_owned()));
    assert_current_schema(&store);
    assert_eq!(
        store.db.meta("format_version").unwrap().as_deref(),
        Some(FORMAT_VERSION.to_string().as_str())
    );
    // Nothing else changed: the documents, their records and keys, the counters.
    assert_eq!(store.count().unwrap(), 2);
    assert_eq!(store.changes().unwrap(), changes);
    assert_eq!(store.check(TEA, Format::Plain, &opts).unwrap(), before);
    assert!(before.sources[0].exact);
    assert_eq!(before.sources[0].info.id, tea.id().to_string());
    drop(store);
    let mut store = Store::open(&path, Params::default()).unwrap();
    assert!(store.upsert(&doc("/tea", "Tea", SHOES), 1 << 20).is_ok());

    // Schema 1 had no records: refused, never migrated.
    drop(store);
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 1)
        .unwrap();
    let err = Store::open_existing(&path).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::OlderSchema {
                found: 1,
                expected: SCHEMA_VERSION,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("older uniqcheck"), "{err}");
}

fn sentence_rows(store: &Store) -> Vec<(i64, i64)> {
    let pairs = store.key_pairs(List::Sentences).unwrap();
    pairs
        .into_iter()
        .map(|(k, d)| (i64::from(k), d as i64))
        .collect()
}

#[test]
fn a_rewritten_text_finds_its_source_and_a_schema_3_store_gets_its_sentence_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let (mut store, _, source) = three_documents(&path);
    // Synonyms, reordered words, shuffled sentences (src/corpus's test shows that no shingle
    // of the draft is a fingerprint of the source): found by its sentence keys.
    let opts = CheckOptions::default();
    let report = store.check(REWRITE_DRAFT, Format::Plain, &opts).unwrap();
    let ids: Vec<&str> = report.sources.iter().map(|s| s.info.id.as_str()).collect();
    assert_eq!(ids, [source.id().to_string()]);
    assert!(!report.rewrites.is_empty());
    assert!(report.originality < 10.0, "{}", report.originality);
    // The full texts give the same answer.
    let mut corpus = uniqcheck::Corpus::new(Params::default()).unwrap();
    for text in [TEA, REWRITE_SOURCE, SHOES] {
        corpus
            .add(SourceInfo::default(), text, Format::Plain, 1 << 20)
            .unwrap();
    }
    let full = corpus.check(REWRITE_DRAFT, Format::Plain, &opts).unwrap();
    assert_eq!(
        (full.uniqueness, full.originality),
        (report.uniqueness, report.originality)
    );
    // Updating a document replaces its sentence keys.
    let rows = sentence_rows(&store);
    assert!(rows.iter().any(|r| r.1 == source.id()));
    store
        .upsert(&doc("/lighthouses", "Lighthouses", SHOES), 1 << 20)
        .unwrap();
    let shoes: Vec<i64> = sentence_rows(&store)
        .into_iter()
        .filter(|r| r.1 == source.id())
        .map(|r| r.0)
        .collect();
    let shoes_keys: Vec<i64> = rows
        .iter()
        .filter(|r| r.1 == source.id() + 1)
        .map(|r| r.0)
        .collect();
    assert_eq!(shoes, shoes_keys);
    store
        .upsert(&doc("/lighthouses", "Lighthouses", REWRITE_SOURCE), 1 << 20)
        .unwrap();
    let rows = sentence_rows(&store);
    drop(store);

    // Schema 3 had no sentence keys: they are computed from the stored records.
    downgrade_to_schema_4(&path);
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch("DROP TABLE sentences; PRAGMA user_version = 3;")
        .unwrap();
    drop(conn);
    let store = Store::open_existing(&path).unwrap();
    assert_current_schema(&store);
    assert_eq!(sentence_rows(&store), rows);
    assert_eq!(
        store.check(REWRITE_DRAFT, Format::Plain, &opts).unwrap(),
        report
    );
}

/// The tables of a store's schema, sorted.
fn tables(store: &Store) -> Vec<String> {
    let mut stmt = store
        .db
        .conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY 1")
        .unwrap();
    let rows = stmt.query_map([], |r| r.get(0)).unwrap();
    rows.map(Result::unwrap).collect()
}

#[test]
fn schema_6_and_5_stores_get_one_run_per_list_and_answer_as_before() {
    for from in [6, 5] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let (reports, rows, changes) = store_of_texts(&path);
        if from == 6 {
            downgrade_to_schema_6(&path);
            let conn = Connection::open(&path).unwrap();
            let recent: i64 = conn
                .query_row("SELECT COUNT(*) FROM recent_fingerprints", [], |r| r.get(0))
                .unwrap();
            assert!(recent > 0, "rows in the recent tables too");
        } else {
            downgrade_to_schema_5(&path);
        }
        let mut store = Store::open_existing(&path).unwrap();
        assert_current_schema(&store);
        assert_eq!(
            tables(&store),
            ["chunks", "documents", "meta", "runs", "spills"],
            "schema {from}"
        );
        assert_eq!(store.db.meta("recent_rows").unwrap(), None);
        assert_eq!(store.runs().unwrap(), [1, 1, 1]);
        assert_eq!(key_rows(&store), rows, "schema {from}");
        assert_eq!(store.changes().unwrap(), changes);
        let opts = CheckOptions::default();
        for (text, report) in [TEA, REWRITE_DRAFT, SHOES].iter().zip(&reports) {
            assert_eq!(&store.check(text, Format::Plain, &opts).unwrap(), report);
        }
        // Updates and deletes reach the migrated run.
        store.upsert(&doc("/1", "T", TEA), 1 << 20).unwrap();
        assert!(store.delete(3).unwrap());
        let left: HashSet<i64> = key_rows(&store).iter().map(|r| r.2).collect();
        assert!(!left.contains(&3) && left.contains(&2));
    }
}

/// Schemas 7 and 8 held keys by other rules (schema 7: fingerprints of the full word hashes, one
/// sentence key of every other sentence; schema 8: three sentence keys a sentence, where schema 9
/// holds ten): here a store whose keys are all gone stands for each, every blob empty and no run.
/// Opened, every document's keys are derived again from its record, and the store answers as one
/// indexed by this build.
#[test]
fn schema_7_and_8_stores_get_their_keys_again_from_their_records() {
    for version in [7, 8] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let (reports, rows, changes) = store_of_texts(&path);
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(&format!(
                "UPDATE documents SET keys = x'000000000000000000000000';
                 DELETE FROM runs; DELETE FROM chunks; DELETE FROM spills;
                 PRAGMA user_version = {version};"
            ))
            .unwrap();
        }
        let store = Store::open_existing(&path).unwrap();
        assert_current_schema(&store);
        assert_eq!(store.runs().unwrap(), [1, 1, 1], "schema {version}");
        assert_eq!(key_rows(&store), rows, "schema {version}");
        assert_eq!(store.changes().unwrap(), changes);
        let opts = CheckOptions::default();
        for (text, report) in [TEA, REWRITE_DRAFT, SHOES].iter().zip(&reports) {
            assert_eq!(&store.check(text, Format::Plain, &opts).unwrap(), report);
        }
    }
}
