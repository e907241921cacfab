//! Older SQLite stores brought up to date in place, when opened ([`super::schema::init`]): each
//! step inside the one transaction of the opening, so a store is migrated whole or not at all,
//! and no document is analysed again (every step works from what the store holds: its records,
//! its keys).
//!
//! | from | step |
//! |---|---|
//! | schema 2 | [`from_2`]: the version-1 sketches dropped |
//! | pack format 2 to 6 | [`pack_format`]: the records rewritten as format 7 writes them (from 4 to 6: the envelope's version only) |
//! | schema 3 | [`from_3`]: the `sentences` table, from the records |
//! | schema 4 | [`from_4`]: each document's `keys` blob; the indexes by document and foreign keys dropped |
//! | schema 5 | [`from_5`]: the empty `recent_*` tables |
//! | schema 6 | [`from_6`]: the key tables read into one run per list ([`crate::lists::NewRun`]) |
//! | schema 7, 8 | [`keys_from_records`]: every document's keys derived again from its record by the engine's one rule |

use rusqlite::params;
use uniqcheck::pack::{Record, FORMAT_VERSION};

use super::schema::RUN_TABLES;
use super::{Sql, SqliteTx};
use crate::backend::Storage;
use crate::document::Keys;
use crate::error::{Result, StoreError};
use crate::lists::{doc_u32, NewRun};
use crate::meta;
use crate::runs::Pair;
use crate::store::MERGE_RATIO;

#[cfg(test)]
mod tests;

/// Schemas 5 and 6's three key tables: (key, document) only, in key order, nothing else.
/// Schema 6 has each twice: these, and the `recent_` ones of the same shape ([`RECENT`]).
/// Read by the migrations only: schema 7 keeps the pairs in runs ([`RUN_TABLES`]).
const KEY_TABLES: &str = "
CREATE TABLE fingerprints (
    key INTEGER NOT NULL,
    doc INTEGER NOT NULL,
    PRIMARY KEY (key, doc)
) WITHOUT ROWID;
CREATE TABLE longwords (
    hash INTEGER NOT NULL,
    doc  INTEGER NOT NULL,
    PRIMARY KEY (hash, doc)
) WITHOUT ROWID;
CREATE TABLE sentences (
    key INTEGER NOT NULL,
    doc INTEGER NOT NULL,
    PRIMARY KEY (key, doc)
) WITHOUT ROWID;
";

/// The prefix of the recent tables' names: `recent_fingerprints` holds the fingerprint rows
/// written since the last merge into `fingerprints`, and so on.
const RECENT: &str = "recent_";

/// Schema 6's key tables and their key columns, in the order of a `keys` blob's lists (and of
/// the `list` numbers of schema 7's runs, [`crate::lists::LIST_NAMES`]).
const KEY_LISTS: [(&str, &str); 3] = [
    ("fingerprints", "key"),
    ("longwords", "hash"),
    ("sentences", "key"),
];

/// Schema 4's `sentences` table (with the foreign key and the index by document that schema 5
/// dropped), which [`from_3`] creates on the way to schema 5.
const SENTENCES_4: &str = "
CREATE TABLE sentences (
    key INTEGER NOT NULL,
    doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    PRIMARY KEY (key, doc)
) WITHOUT ROWID;
CREATE INDEX sentences_doc ON sentences(doc);
";

/// Schema 2 → 3, inside the caller's transaction: drops the version-1 sketch of every document
/// (nothing reads it since packs version 2) and records the pack format of what the store still
/// holds, the version-2 records (schema 2 recorded version 1, its sketches' format), which
/// [`pack_format`] then upgrades. The freed pages are reused by later writes (`VACUUM`
/// returns them to the file system).
pub(crate) fn from_2(tx: &SqliteTx<'_>) -> Result<()> {
    let conn = tx.conn();
    conn.execute_batch("ALTER TABLE documents DROP COLUMN sketch")?;
    conn.execute(
        "UPDATE meta SET value = '2' WHERE key = 'format_version' AND value = '1'",
        [],
    )?;
    Ok(())
}

/// Schema 3 → 4, inside the caller's transaction (after [`pack_format`]): creates the
/// `sentences` table and fills it with every document's sentence keys, computed from its stored
/// record ([`uniqcheck::sentences::sentence_keys`] reads only the record's words and sentence starts), so no
/// document is analysed again. A record that does not decode is refused as damaged, naming it.
///
/// Cost: one record read and about ten key rows per document (seconds for 100,000).
pub(crate) fn from_3(tx: &SqliteTx<'_>) -> Result<()> {
    let params = meta::stored_params(tx)?;
    let conn = tx.conn();
    conn.execute_batch(SENTENCES_4)?;
    let mut rows: Vec<(u32, i64)> = Vec::new();
    {
        let mut read = conn.prepare("SELECT id, url, record FROM documents")?;
        let mut docs = read.query([])?;
        while let Some(row) = docs.next()? {
            let (id, url): (i64, String) = (row.get(0)?, row.get(1)?);
            let blob = row.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
            let record = Record::decode(blob, &params).map_err(|e| StoreError::Damaged {
                path: tx.name().to_owned(),
                id,
                url,
                why: e.to_string(),
            })?;
            rows.extend(
                uniqcheck::sentences::sentence_keys(
                    record.words(),
                    &record.sentences,
                    uniqcheck::sentences::Side::Document,
                )
                .into_iter()
                .map(|k| (k, id)),
            );
        }
    }
    rows.sort_unstable();
    let mut add = conn.prepare("INSERT INTO sentences (key, doc) VALUES (?1, ?2)")?;
    for (key, id) in rows {
        add.execute([i64::from(key), id])?;
    }
    Ok(())
}

/// Schema 4 → 5, inside the caller's transaction: gives every document its `keys` blob, read
/// from its rows through schema 4's indexes by document, then rebuilds the three key tables
/// without those indexes and without the foreign keys (each table is copied in key order, so
/// the copy appends), and drops the old ones. Nothing is analysed again and no key changes:
/// checks find the same candidates.
///
/// Cost: three indexed reads and one write per document, and one copy of every key row
/// (0.7 s for the 18,845 posts of 20 Newsgroups; a million was not measured).
pub(crate) fn from_4(tx: &SqliteTx<'_>) -> Result<()> {
    let conn = tx.conn();
    conn.execute_batch("ALTER TABLE documents ADD COLUMN keys BLOB NOT NULL DEFAULT x''")?;
    {
        let ids: Vec<i64> = conn
            .prepare("SELECT id FROM documents")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut fingerprints =
            conn.prepare("SELECT key FROM fingerprints WHERE doc = ?1 ORDER BY key")?;
        let mut long_words =
            conn.prepare("SELECT hash FROM longwords WHERE doc = ?1 ORDER BY hash")?;
        let mut sentences =
            conn.prepare("SELECT key FROM sentences WHERE doc = ?1 ORDER BY key")?;
        let mut write = conn.prepare("UPDATE documents SET keys = ?2 WHERE id = ?1")?;
        let read = |stmt: &mut rusqlite::Statement<'_>, id: i64| -> rusqlite::Result<Vec<u32>> {
            stmt.query_map([id], |r| r.get::<_, i64>(0))?
                .map(|k| k.map(|k| k as u32))
                .collect()
        };
        for id in ids {
            let keys = Keys {
                fingerprints: read(&mut fingerprints, id)?,
                long_words: read(&mut long_words, id)?,
                sentences: read(&mut sentences, id)?,
            };
            write.execute(params![id, keys.encode()])?;
        }
    }
    conn.execute_batch(&KEY_TABLES.replace("CREATE TABLE ", "CREATE TABLE new_"))?;
    conn.execute_batch(
        "INSERT INTO new_fingerprints (key, doc) SELECT key, doc FROM fingerprints ORDER BY key, doc;
         INSERT INTO new_longwords (hash, doc) SELECT hash, doc FROM longwords ORDER BY hash, doc;
         INSERT INTO new_sentences (key, doc) SELECT key, doc FROM sentences ORDER BY key, doc;
         DROP TABLE fingerprints;
         DROP TABLE longwords;
         DROP TABLE sentences;
         ALTER TABLE new_fingerprints RENAME TO fingerprints;
         ALTER TABLE new_longwords RENAME TO longwords;
         ALTER TABLE new_sentences RENAME TO sentences;",
    )?;
    Ok(())
}

/// The `CREATE TABLE` statements of the three recent tables: [`KEY_TABLES`] under their
/// [`RECENT`] names.
fn recent_tables() -> String {
    KEY_TABLES.replace("CREATE TABLE ", &format!("CREATE TABLE {RECENT}"))
}

/// Schema 5 → 6, inside the caller's transaction: creates the empty recent tables and the
/// `recent_rows` counter. Every key row stays in the large tables, where checks find it as
/// before.
///
/// Cost: nothing per document (three empty tables and one row).
pub(crate) fn from_5(tx: &SqliteTx<'_>) -> Result<()> {
    let conn = tx.conn();
    conn.execute_batch(&recent_tables())?;
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('recent_rows', '0')",
        [],
    )?;
    Ok(())
}

/// Schema 6 → 7, inside the caller's transaction: each key table and its recent twin are read
/// in key order side by side and written as one run per list as they are read
/// ([`crate::runs::RunWriter`]: memory holds a chunk, not the list), then the six tables and the
/// `recent_rows` counter are dropped. No key and no document changes: checks find the same
/// candidates.
///
/// Cost: one ordered read of every key row, and the runs' blobs written (docs/PERFORMANCE.md);
/// the old tables' pages are freed after the runs are written, so the file keeps them free
/// (the next writes reuse them) instead of holding every pair in memory.
pub(crate) fn from_6(tx: &SqliteTx<'_>) -> Result<()> {
    let conn = tx.conn();
    conn.execute_batch(RUN_TABLES)?;
    for (list, (table, key)) in KEY_LISTS.iter().enumerate() {
        let total: i64 = conn.query_row(
            &format!(
                "SELECT (SELECT COUNT(*) FROM {table}) + (SELECT COUNT(*) FROM {RECENT}{table})"
            ),
            [],
            |r| r.get(0),
        )?;
        let mut run = NewRun::new(tx, total.max(0) as u64)?;
        let sql =
            |prefix: &str| format!("SELECT {key}, doc FROM {prefix}{table} ORDER BY {key}, doc");
        let (mut old, mut recent) = (conn.prepare(&sql(""))?, conn.prepare(&sql(RECENT))?);
        let (mut old, mut recent) = (old.query([])?, recent.query([])?);
        let next = |rows: &mut rusqlite::Rows<'_>| -> Result<Option<Pair>> {
            match rows.next()? {
                None => Ok(None),
                Some(row) => {
                    let (key, doc): (i64, i64) = (row.get(0)?, row.get(1)?);
                    Ok(Some((key as u32, doc_u32(tx, doc)?)))
                }
            }
        };
        let (mut a, mut b) = (next(&mut old)?, next(&mut recent)?);
        loop {
            match (a, b) {
                (None, None) => break,
                (Some(p), q) if q.is_none_or(|q| p <= q) => {
                    run.push(p)?;
                    a = next(&mut old)?;
                }
                (_, q) => {
                    run.push(q.expect("the other is none or larger"))?;
                    b = next(&mut recent)?;
                }
            }
        }
        run.finish(list, MERGE_RATIO)?;
    }
    for (table, _) in KEY_LISTS {
        conn.execute_batch(&format!("DROP TABLE {table}; DROP TABLE {RECENT}{table};"))?;
    }
    conn.execute("DELETE FROM meta WHERE key = 'recent_rows'", [])?;
    Ok(())
}

/// Schema 7 or 8 → 9, inside the caller's transaction: every document's retrieval keys derived
/// again from its stored record by the rule every index and every draft now share
/// ([`uniqcheck::keys`]: fingerprints winnowed from the folded words, where schema 7 winnowed the
/// full word hashes and drafts looked up every shingle; sentence keys of ten word pairs a
/// sentence, where schema 8 kept three and schema 7 one pair of every other sentence), its
/// `keys` blob rewritten,
/// and every list's runs replaced by one run of the new pairs. A record that does not decode is
/// refused as damaged, naming it. Nothing is analysed again: the keys are the ones indexing the
/// same text now writes.
///
/// Cost: one record read and write per document, and the pairs of every list held in memory
/// while they are sorted (8 bytes a pair: about 0.8 GB for a million documents of 190 content
/// words).
pub(crate) fn keys_from_records(tx: &SqliteTx<'_>) -> Result<()> {
    let params = meta::stored_params(tx)?;
    let conn = tx.conn();
    let ids: Vec<i64> = conn
        .prepare("SELECT id FROM documents")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut pairs: [Vec<Pair>; 3] = Default::default();
    {
        let mut read = conn.prepare("SELECT url, record FROM documents WHERE id = ?1")?;
        let mut write = conn.prepare("UPDATE documents SET keys = ?2 WHERE id = ?1")?;
        for id in ids {
            let (url, blob): (String, Vec<u8>) =
                read.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let record = Record::decode(&blob, &params).map_err(|e| StoreError::Damaged {
                path: tx.name().to_owned(),
                id,
                url,
                why: e.to_string(),
            })?;
            let keys = Keys::of_record(&record, &params);
            let doc = doc_u32(tx, id)?;
            for (list, keys) in keys.lists().into_iter().enumerate() {
                pairs[list].extend(keys.iter().map(|&k| (k, doc)));
            }
            write.execute(params![id, keys.encode()])?;
        }
    }
    conn.execute_batch("DELETE FROM runs; DELETE FROM chunks; DELETE FROM spills;")?;
    for (list, mut pairs) in pairs.into_iter().enumerate() {
        pairs.sort_unstable();
        let mut run = NewRun::new(tx, pairs.len() as u64)?;
        for pair in pairs {
            run.push(pair)?;
        }
        run.finish(list, MERGE_RATIO)?;
    }
    Ok(())
}

/// Pack format 2 to 6 → 7, inside the caller's transaction, when the store records format 2 to
/// 6: every stored record is rewritten as version 7 writes it ([`Record::upgrade`]: from 2 and 3
/// its shingles counted for the store's `n`, from the words it holds; from 4 to 6 only the
/// envelope's version and CRC32, since versions 5 to 7 changed the index alone),
/// and no document is analysed again. A damaged record is left as it is (reading it reports it, as
/// before). Returns whether it migrated; a store of any other format, or without a valid `n`,
/// is refused when opened ([`meta::stored_params`]).
///
/// Cost: one read, one pass over the words and one write per document (about 20 seconds for
/// a million, docs/PERFORMANCE.md).
pub(crate) fn pack_format(tx: &SqliteTx<'_>) -> Result<bool> {
    if !matches!(
        tx.meta("format_version")?.as_deref(),
        Some("2" | "3" | "4" | "5" | "6")
    ) {
        return Ok(false);
    }
    let Some(n) = tx.meta("n")?.and_then(|n| n.parse::<usize>().ok()) else {
        return Ok(false);
    };
    let conn = tx.conn();
    let ids: Vec<i64> = conn
        .prepare("SELECT id FROM documents")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut read = conn.prepare("SELECT record FROM documents WHERE id = ?1")?;
    let mut write = conn.prepare("UPDATE documents SET record = ?2 WHERE id = ?1")?;
    for id in ids {
        let blob: Vec<u8> = read.query_row([id], |r| r.get(0))?;
        if let Ok(upgraded) = Record::upgrade(&blob, n) {
            write.execute(params![id, upgraded])?;
        }
    }
    conn.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
        [FORMAT_VERSION.to_string()],
    )?;
    Ok(true)
}
