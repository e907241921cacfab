//! The SQLite backend: a store in one SQLite file ([`Store`], [`Sqlite`]).
//!
//! Layout (schema version [`SCHEMA_VERSION`], in `PRAGMA user_version`; `PRAGMA application_id`
//! marks the file as a uniqcheck store):
//!
//! | table | holds |
//! |---|---|
//! | `meta` | engine params (`n`, `w`, `k`, `stop_words`, `stemming`), `canonicalizer`, `format_version`, the `changes` counter, the `revs` counter |
//! | `documents` | one row per URL: title, hash of the text, words, exact-duplicate hash, times, `record`, the encoded [`Record`](uniqcheck::pack::Record) that checks align against (the pack file's bytes), `rev`, the record's number: new whenever the record changes, never reused, so packs can name record files that never change, and `keys`, the document's own keys in the three key lists below (what an update or a delete removes) |
//! | `runs` | one row per run of a key list: its list (0 fingerprints, 1 long words, 2 sentences), its level, its pairs, its partition bits |
//! | `chunks` | the runs' pairs, one blob per (run, partition): row id `run << 32 \| partition` ([`crate::runs`]) |
//! | `spills` | the documents of a run's common keys, one blob per (run, key): row id `run << 32 \| key` |
//!
//! **Key lists packed in runs** (schema 7), as SQLite's FTS5 keeps its index as segment blobs: a
//! batch of 4,096 documents writes one new run per list, a few thousand blobs, instead of
//! 380,000 B-tree rows (schemas 5 and 6 had `WITHOUT ROWID` tables of (key, document), at about
//! 0.5 µs a row, the single writer's whole time). A lookup reads, per run, the chunks of the
//! draft's keys' partitions: one SQL statement over an `rarray` of chunk ids, then a binary
//! search in each chunk.
//!
//! Guarantees of this backend (those of every store are in the crate's documentation):
//! - **Upgraded in place** (`migrate`). A store of schema 2 (which also kept a version-1
//!   sketch of each document, read by nothing since packs version 2) is migrated when opened:
//!   the column is dropped in one transaction. A store of schema 3 gets its `sentences` table,
//!   the keys computed from the stored records (no document is analysed again). A store of
//!   schema 4 gets each document's `keys` blob from its rows and loses the indexes by document
//!   and the foreign keys. A store of schema 5 gets the empty `recent_*` tables; a store of
//!   schema 6 has its key tables (and their `recent_*` twins) read in key order into one run per
//!   list, and dropped. A store whose records are of pack format 2 or 3 has them rewritten as
//!   format 6 writes them (their shingles counted), from the words they hold; of format 4 or 5,
//!   their envelope only (formats 5 and 6 changed the page table alone). Each migration is
//!   one transaction. Older stores lack the records and are refused.
//! - **Crash-safe.** WAL journal, `synchronous = FULL` (the write-ahead log is synced at every
//!   commit, so a committed batch survives power loss too), and every write (a whole batch of
//!   documents, a delete, a merge) is one transaction, `BEGIN IMMEDIATE`: a crash loses at most
//!   the transaction in flight, and two processes never both write.
//! - **One file, one writer.** [`Store`] is `Send` but not `Sync` (one SQLite connection): share
//!   it behind a `Mutex`. Other processes may read meanwhile (WAL), and a writer waits up to 30
//!   seconds for another's transaction.
//!
//! Modules: `schema` (the tables, creating them, checking an existing file's version),
//! `migrate` (schemas 2 to 6 and pack formats 2 and 3 brought up to date), `storage` (the
//! SQL of each [`Storage`](crate::backend::Storage) and
//! [`Transaction`](crate::backend::Transaction) primitive).

use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;
use uniqcheck::Params;

use crate::backend::Backend;
use crate::error::{Result, StoreError};
use crate::store::StoreOf;

pub(crate) mod migrate;
pub(crate) mod schema;
mod storage;
#[cfg(test)]
mod tests;

pub use schema::SCHEMA_VERSION;

/// The store file used when `--db` is not given.
pub const DEFAULT_DB: &str = "uniqcheck.db";

/// A store in one SQLite file: [`StoreOf`] on [`Sqlite`]. Opened by [`Store::open`] or
/// [`Store::open_existing`].
pub type Store = StoreOf<Sqlite>;

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The page cache of a store's connection, in KiB.
const CACHE_KIB: i64 = 65_536;

/// Pages (4 KiB) the write-ahead log may hold before a checkpoint while writing in bulk
/// ([`Store::set_bulk`]): 256 MiB, more than a whole 20 Newsgroups store (one checkpoint at the
/// end, as with none), a bound on the log's size (and on the disk space the load takes beyond
/// the store) at millions of documents.
const BULK_CHECKPOINT_PAGES: i64 = 65_536;

/// Bytes the write-ahead log is truncated to after a checkpoint (`PRAGMA journal_size_limit`).
const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// Bytes of the store file SQLite may map into memory (`PRAGMA mmap_size`): all of it, up to
/// SQLite's own cap.
const MMAP_BYTES: i64 = 1 << 40;

/// An open SQLite store file: the [`Backend`] of [`Store`].
#[derive(Debug)]
pub struct Sqlite {
    conn: Connection,
    path: PathBuf,
    /// The path as messages show it.
    name: String,
}

/// A write transaction on a [`Sqlite`] store (`BEGIN IMMEDIATE`): rolled back when dropped
/// without [`Transaction::commit`](crate::backend::Transaction::commit).
#[derive(Debug)]
pub struct SqliteTx<'c> {
    tx: rusqlite::Transaction<'c>,
    name: &'c str,
}

/// An SQLite connection with the store's name for messages: what [`Sqlite`] and [`SqliteTx`]
/// read through (`storage` implements [`Storage`](crate::backend::Storage) once for both).
trait Sql {
    /// The connection, or the transaction's.
    fn conn(&self) -> &Connection;
    /// The store as messages name it.
    fn store_name(&self) -> &str;
}

impl Sql for Sqlite {
    fn conn(&self) -> &Connection {
        &self.conn
    }
    fn store_name(&self) -> &str {
        &self.name
    }
}

impl Sql for SqliteTx<'_> {
    fn conn(&self) -> &Connection {
        &self.tx
    }
    fn store_name(&self) -> &str {
        self.name
    }
}

impl<'c> SqliteTx<'c> {
    /// A write transaction on `conn` (`BEGIN IMMEDIATE`: two processes must not both write, nor
    /// both create the same store).
    fn begin(conn: &'c mut Connection, name: &'c str) -> Result<SqliteTx<'c>> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        Ok(SqliteTx { tx, name })
    }
}

impl Backend for Sqlite {
    type Tx<'a> = SqliteTx<'a>;

    fn begin(&mut self) -> Result<SqliteTx<'_>> {
        SqliteTx::begin(&mut self.conn, &self.name)
    }

    fn set_bulk(&mut self, on: bool) -> Result<()> {
        // 1,000 pages is SQLite's default.
        let pages = if on { BULK_CHECKPOINT_PAGES } else { 1000 };
        self.conn.pragma_update(None, "wal_autocheckpoint", pages)?;
        Ok(())
    }

    fn checkpoint(&mut self) -> Result<()> {
        // PASSIVE, as SQLite's automatic checkpoints: it copies what it can without waiting for
        // readers of older snapshots (a server checking meanwhile).
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
    }

    fn size_bytes(&self) -> u64 {
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        size(&self.path) + size(Path::new(&wal))
    }
}

/// A path as messages show it.
fn display(path: &Path) -> String {
    path.display().to_string()
}

impl StoreOf<Sqlite> {
    /// Opens the store at `path`, creating it for `params` if the file does not exist.
    ///
    /// Errors: [`StoreError::ParamsMismatch`] when the store was made with other parameters,
    /// [`StoreError::Version`] for another canonicalizer or pack format, [`StoreError::NotAStore`]
    /// for any other file, and I/O or SQLite failures.
    pub fn open(path: &Path, params: Params) -> Result<Store> {
        params.validate()?;
        let mut conn = connect(path, true)?;
        schema::init(&mut conn, path, Some(&params))?;
        StoreOf::on(Sqlite::new(conn, path), Some(params))
    }

    /// Opens an existing store with the parameters it records.
    ///
    /// Errors: [`StoreError::Missing`] when there is no file, [`StoreError::NotAStore`],
    /// [`StoreError::Version`], and I/O or SQLite failures.
    pub fn open_existing(path: &Path) -> Result<Store> {
        if !path.exists() {
            return Err(StoreError::Missing {
                path: display(path),
            });
        }
        let mut conn = connect(path, false)?;
        schema::init(&mut conn, path, None)?;
        StoreOf::on(Sqlite::new(conn, path), None)
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.db.path
    }
}

impl Sqlite {
    fn new(conn: Connection, path: &Path) -> Sqlite {
        Sqlite {
            conn,
            path: path.to_owned(),
            name: display(path),
        }
    }
}

/// Opens the SQLite file with the store's connection settings.
fn connect(path: &Path, create: bool) -> Result<Connection> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let name = display(path);
    let conn = Connection::open_with_flags(path, flags).map_err(|source| StoreError::Open {
        path: name.clone(),
        source,
    })?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // The first read of the header tells a non-SQLite file apart before anything is written.
    let application_id: i32 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotAStore {
                path: name.clone(),
                why: "not an SQLite database".into(),
            },
            _ => StoreError::Open {
                path: name.clone(),
                source: e,
            },
        })?;
    if application_id != 0 && application_id != schema::APPLICATION_ID {
        return Err(StoreError::NotAStore {
            path: name,
            why: format!("an SQLite database of another application, id {application_id:#x}"),
        });
    }
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::NotWal { path: name, mode });
    }
    // FULL: a committed batch survives power loss too, at one fsync per batch.
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Fingerprint keys are random, so inserts touch pages all over the index: a page cache of
    // 64 MiB (instead of 2) keeps them in memory between batches.
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    // A large index run grows the write-ahead log to hundreds of MB (830 MB building a million
    // documents), and SQLite keeps a log file at its largest size while the store is open: cut it
    // back to this after each checkpoint.
    conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
    // A check reads a few MB of chunks and records scattered over the file: mapped, SQLite
    // reads them in place instead of copying each page out of the OS cache into its own cache
    // (at a million documents, the calling thread's CPU a 1,000-word check 21 -> 13 ms under
    // load, the process's 63 -> 54 ms). SQLite caps the size at its SQLITE_MAX_MMAP_SIZE (2 GB
    // by default) and maps nothing where mapping is not supported; the pragma answers with the
    // size granted, read and dropped. The price, as SQLite documents it: a disk's read error in a
    // mapped page stops the process with SIGBUS instead of returning an I/O error (writes do not
    // go through the map, and a damaged page's content is still refused as before).
    conn.prepare(&format!("PRAGMA mmap_size = {MMAP_BYTES}"))?
        .query([])?
        .next()?;
    rusqlite::vtab::array::load_module(&conn)?;
    Ok(conn)
}
