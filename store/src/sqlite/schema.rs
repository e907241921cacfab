//! The store's tables in SQLite (schema [`SCHEMA_VERSION`]): created in an empty file, checked
//! (and migrated, [`super::migrate`]) in an existing one.

use rusqlite::Connection;
use std::path::Path;
use uniqcheck::Params;

use super::{display, migrate, Sql, SqliteTx};
use crate::error::{Result, StoreError};
use crate::meta;

/// Version of the table layout, kept in `PRAGMA user_version`.
pub const SCHEMA_VERSION: i32 = 9;

/// The oldest table layout this build opens: schemas 2 to 8 are migrated in place
/// ([`migrate::from_2`], [`migrate::from_3`], [`migrate::from_4`], [`migrate::from_5`],
/// [`migrate::from_6`], [`migrate::keys_from_records`]); older ones lack the documents' records.
const OLDEST_SCHEMA: i32 = 2;

/// `PRAGMA application_id` of a uniqcheck store: ASCII "UQDB".
pub(crate) const APPLICATION_ID: i32 = 0x5551_4442;

/// The `meta` and `documents` tables.
const SCHEMA: &str = "
CREATE TABLE meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
CREATE TABLE documents (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    url       TEXT UNIQUE NOT NULL,
    title     TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    words     INTEGER NOT NULL,
    exact     INTEGER NOT NULL,
    added     INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    record    BLOB NOT NULL,
    rev       INTEGER UNIQUE NOT NULL,
    keys      BLOB NOT NULL
);
CREATE INDEX documents_exact ON documents(exact);
";

/// The tables of the key runs (schema 7, [`crate::runs`]): `runs` lists them, `chunks` holds
/// their pairs a partition a row, `spills` the documents of their common keys a key a row.
pub(crate) const RUN_TABLES: &str = "
CREATE TABLE runs (
    id    INTEGER PRIMARY KEY,
    list  INTEGER NOT NULL,
    level INTEGER NOT NULL,
    rows  INTEGER NOT NULL,
    bits  INTEGER NOT NULL
);
CREATE TABLE chunks (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL
);
CREATE TABLE spills (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL
);
";

/// Creates the schema in an empty database, or checks the version of an existing one (and
/// migrates it to this one). Returns whether it was created.
pub(crate) fn init(conn: &mut Connection, path: &Path, params: Option<&Params>) -> Result<bool> {
    let name = display(path);
    // IMMEDIATE: two processes creating the same store at once must not both create it.
    let tx = SqliteTx::begin(conn, &name)?;
    let version: i32 = tx
        .conn()
        .query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            path: display(path),
            expected: SCHEMA_VERSION,
            found: version,
        });
    }
    if version == SCHEMA_VERSION {
        if migrate::pack_format(&tx)? {
            tx.tx.commit()?;
        }
        return Ok(false);
    }
    if (OLDEST_SCHEMA..SCHEMA_VERSION).contains(&version) {
        if version == 2 {
            migrate::from_2(&tx)?;
        }
        migrate::pack_format(&tx)?;
        if version <= 3 {
            migrate::from_3(&tx)?;
        }
        if version <= 4 {
            migrate::from_4(&tx)?;
        }
        if version <= 5 {
            migrate::from_5(&tx)?;
        }
        if version <= 6 {
            migrate::from_6(&tx)?;
        }
        migrate::keys_from_records(&tx)?;
        // The steps share one transaction, so no other reader ever sees a step's version:
        // the final one is stamped once, here.
        tx.conn()
            .pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.tx.commit()?;
        return Ok(false);
    }
    if version > 0 {
        return Err(StoreError::OlderSchema {
            path: display(path),
            expected: SCHEMA_VERSION,
            found: version,
        });
    }
    let tables: i64 = tx.conn().query_row(
        "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'",
        [],
        |r| r.get(0),
    )?;
    let Some(params) = params.filter(|_| tables == 0) else {
        let why = if tables == 0 {
            "an empty SQLite database".to_owned()
        } else {
            "an SQLite database with other tables".to_owned()
        };
        return Err(StoreError::NotAStore {
            path: display(path),
            why,
        });
    };
    let conn = tx.conn();
    conn.execute_batch(SCHEMA)?;
    conn.execute_batch(RUN_TABLES)?;
    for (key, value) in meta::initial(params) {
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)",
            [key, &value],
        )?;
    }
    conn.pragma_update(None, "application_id", APPLICATION_ID)?;
    conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.tx.commit()?;
    Ok(true)
}
