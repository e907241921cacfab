//! The document store itself: one SQLite file holding every indexed document's record and the
//! inverted indexes that find a draft's candidates without reading every document.
//!
//! Layout (schema version [`SCHEMA_VERSION`], in `PRAGMA user_version`; `PRAGMA application_id`
//! marks the file as a uniqcheck store):
//!
//! | table | holds |
//! |---|---|
//! | `meta` | engine params (`n`, `w`, `k`, `stop_words`, `stemming`), `canonicalizer`, `format_version`, the `changes` counter, the `revs` counter |
//! | `documents` | one row per URL: title, hash of the text, words, exact-duplicate hash, times, `record`, the encoded [`Record`] that checks align against (the pack file's bytes), `rev`, the record's number: new whenever the record changes, never reused, so packs can name record files that never change, and `keys`, the document's own keys in the three key lists below (what an update or a delete removes) |
//! | `runs` | one row per run of a key list: its list (0 fingerprints, 1 long words, 2 sentences), its level, its pairs, its partition bits |
//! | `chunks` | the runs' pairs, one blob per (run, partition): row id `run << 32 \| partition` ([`crate::runs`]) |
//! | `spills` | the documents of a run's common keys, one blob per (run, key): row id `run << 32 \| key` |
//!
//! **Key lists packed in runs** (schema 7). The three key lists (the winnowed fingerprint keys,
//! for ranking candidates; the longest-word hashes, the short-text signatures; the sentence keys
//! of [`index::sentence_keys`], which find the sources of rewritten drafts) are sets of (key,
//! document) pairs. Each is kept as a few sorted **runs** of pairs packed into blobs
//! ([`crate::runs`]), as SQLite's FTS5 keeps its index as segment blobs: a batch of 4,096
//! documents writes one new run per list, a few thousand blobs, instead of 380,000 B-tree rows
//! (schemas 5 and 6 had `WITHOUT ROWID` tables of (key, document), at about 0.5 µs a row, the
//! single writer's whole time). Runs are **leveled by size** ([`runs::plan_merge`], ratio
//! [`Store::merge_ratio`]): level `l` holds runs of `ratio^l` to `ratio^(l+1) - 1` pairs, and
//! when a write leaves two runs in one level, the same transaction merges them (with the smaller
//! runs below) into one, a streaming k-way merge a chunk at a time. So whatever the writes' sizes
//! (a document a request or 4,096 a batch), a list has at most `log_ratio(pairs) + 1` runs and a
//! pair is rewritten at most `ratio` times a level. A bulk load ([`Store::set_bulk`], what
//! `uniqcheck index` does) leaves its batches' runs unmerged (up to [`BULK_MAX_RUNS`] a list)
//! and merges once at its end. A lookup reads,
//! per run, the chunks of the draft's keys' partitions: one SQL statement over an `rarray` of
//! chunk ids, then a binary search in each chunk. A document's pairs are found through its
//! `keys` blob (the document's own keys, what an update or a delete removes): the chunks holding
//! them are read, filtered and rewritten in the deleting transaction.
//!
//! Guarantees:
//! - **One codec.** Records are stored as the pack bytes the browser downloads, so what the store
//!   checks against and what a pack carries cannot drift apart. Their identity (id, url, title)
//!   is left empty in the blobs and filled in from the row when read, so it is kept once and a
//!   title change never leaves a stale copy.
//! - **Never silently compared.** A store remembers the parameters, canonicalizer and pack format
//!   its records and keys were made with; opening it with others is refused ([`StoreError`]).
//! - **Upgraded in place.** A store of schema 2 (which also kept a version-1 sketch of each
//!   document, read by nothing since packs version 2) is migrated when opened: the column is
//!   dropped in one transaction. A store of schema 3 gets its `sentences` table, the keys
//!   computed from the stored records (no document is analysed again). A store of schema 4 gets
//!   each document's `keys` blob from its rows and loses the indexes by document and the
//!   foreign keys. A store of schema 5 gets the empty `recent_*` tables; a store of schema 6 has
//!   its key tables (and their `recent_*` twins) read in key order into one run per list, and
//!   dropped. A store whose records are of pack format 2 or 3 has them rewritten as format 4
//!   writes them (their shingles counted), from the words they hold. Each
//!   migration is one transaction. Older stores lack the records and are refused.
//! - **Crash-safe.** WAL journal, `synchronous = FULL` (the write-ahead log is synced at every
//!   commit, so a committed batch survives power loss too), and every write (a whole batch of
//!   documents, a delete) is one transaction: a crash loses at most the transaction in flight and
//!   never leaves a document without its key pairs, or pairs without their document. A
//!   document's pairs are written and removed in the same transaction as its row and its
//!   `keys` blob, which is how they stay in step without foreign keys. A merge of runs is part
//!   of the transaction of the batch that triggers it: all of it happens, or none.
//! - **Checked on reading.** A chunk or spill blob that is not what its row id says (truncated,
//!   out of order, another partition's keys) is [`StoreError::DamagedIndex`], never a panic
//!   or a wrong answer. Document ids are kept as u32 in the runs: a store whose next id would
//!   not fit refuses the write ([`StoreError::IdRange`]) rather than truncating it.
//! - **The writer only writes.** [`Store::prepare`] computes all a document's row values (text
//!   hash, record, sorted keys) without the store, so indexers run it on their analysis threads;
//!   [`Store::write_batch`] then holds the single SQLite connection for the writes alone.
//! - **Sublinear checks.** [`Store::check`] ranks candidates with indexed SQL queries over the
//!   draft's keys (passed as one `rarray` parameter) and decodes only the best
//!   [`CheckOptions::max_candidates`] records, which it aligns as against the full texts.
//! - Every write bumps the `changes` counter, so pack writers can tell when packs are stale.
//!
//! [`Store`] is `Send` but not `Sync` (one SQLite connection): share it behind a `Mutex`.

use rusqlite::types::Value;
use rusqlite::vtab::array;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use uniqcheck::canonicalize::CANONICALIZER_VERSION;
use uniqcheck::index::{self, Candidate, DocId, Index, List};
use uniqcheck::pack::{Record, FORMAT_VERSION};
use uniqcheck::pair::{Draft, Source};
use uniqcheck::{CheckOptions, Document, Format, ParamDifference, Params, Report, SourceInfo};

use crate::runs::{self, Pair};

/// Version of the table layout, kept in `PRAGMA user_version`.
pub const SCHEMA_VERSION: i32 = 7;

/// The oldest table layout this build opens: schemas 2 to 6 are migrated in place
/// ([`migrate_from_2`], [`migrate_from_3`], [`migrate_from_4`], [`migrate_from_5`],
/// [`migrate_from_6`]); older ones
/// lack the documents' records.
const OLDEST_SCHEMA: i32 = 2;

/// `PRAGMA application_id` of a uniqcheck store: ASCII "UQDB".
const APPLICATION_ID: i32 = 0x5551_4442;

/// The store file used when `--db` is not given.
pub const DEFAULT_DB: &str = "uniqcheck.db";

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

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
/// the `list` numbers of schema 7's runs; the table names name the lists in messages).
const KEY_LISTS: [(&str, &str); 3] = [
    ("fingerprints", "key"),
    ("longwords", "hash"),
    ("sentences", "key"),
];

/// The default of [`Store::merge_ratio`]: the size ratio of a key list's levels
/// ([`runs::plan_merge`]). Level `l` holds runs of `ratio^l` to `ratio^(l+1) - 1` pairs and at
/// most one run once a write's merges are done, so a list has at most `log_ratio(pairs) + 1`
/// runs whatever its writes' sizes, and a pair is rewritten at most `ratio` times a level
/// (about ratio/2 on average). A larger ratio leaves fewer runs for each lookup to read (about
/// 1.3 ms of CPU per large run and 1,000-word draft at a million documents) and rewrites more
/// bytes. Chosen by measurement (docs/PERFORMANCE.md, "Levels by size"): 8 keeps at most 7
/// runs a list for a million documents written one a write (simulated; levels by count of
/// merges, fanout 2: up to 19) and 7 for 20,000 (measured; fanout 2: 14); the store
/// benchmark's million in writes of 4,096 held at most 4 runs a list and wrote 29.6 GB (ratio
/// 4: 5 runs, 25.3 GB; fanout 2 by count: 7 runs, 21.7 GB).
pub const MERGE_RATIO: u64 = 8;

/// The tables of the key runs (schema 7, [`crate::runs`]): `runs` lists them, `chunks` holds
/// their pairs a partition a row, `spills` the documents of their common keys a key a row.
const RUN_TABLES: &str = "
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

/// The page cache of a store's connection, in KiB.
const CACHE_KIB: i64 = 65_536;

/// Schema 4's `sentences` table (with the foreign key and the index by document that schema 5
/// dropped), which [`migrate_from_3`] creates on the way to schema 5.
const SENTENCES_4: &str = "
CREATE TABLE sentences (
    key INTEGER NOT NULL,
    doc INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    PRIMARY KEY (key, doc)
) WITHOUT ROWID;
CREATE INDEX sentences_doc ON sentences(doc);
";

/// Why the store failed. Each variant carries the data that explains it; messages name no
/// command-line flags (the CLI says how to fix each in its own terms).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store's documents were analysed with other engine parameters.
    #[error(
        "{path} was indexed with other engine parameters ({})",
        differences.iter().map(|d| d.describe("store")).collect::<Vec<_>>().join(", ")
    )]
    ParamsMismatch {
        /// The store file.
        path: String,
        /// Each parameter that differs (`found` is the store's value).
        differences: Vec<ParamDifference>,
    },
    /// The store was made by a build with other canonicalization rules or pack format.
    #[error(
        "{path} was indexed with {what} version {found}, this uniqcheck uses version {expected}: \
         its records would not match"
    )]
    Version {
        /// The store file.
        path: String,
        /// "canonicalizer" or "pack format".
        what: &'static str,
        /// This build's version.
        expected: u16,
        /// The store's.
        found: u16,
    },
    /// The store's table layout is newer than this build knows.
    #[error(
        "{path} was made by a newer uniqcheck (store schema {found}, this build knows {expected}): \
         upgrade uniqcheck"
    )]
    NewerSchema {
        /// The store file.
        path: String,
        /// This build's schema version.
        expected: i32,
        /// The file's.
        found: i32,
    },
    /// The store's table layout is older than this build reads: it lacks what checks now need
    /// (the documents' records), which only their texts can give.
    #[error(
        "{path} was made by an older uniqcheck (store schema {found}, this build reads {expected}) \
         and lacks the documents' records"
    )]
    OlderSchema {
        /// The store file.
        path: String,
        /// This build's schema version.
        expected: i32,
        /// The file's.
        found: i32,
    },
    /// The file is not a uniqcheck store.
    #[error("{path} is not a uniqcheck store ({why})")]
    NotAStore {
        /// The file.
        path: String,
        /// What it is instead.
        why: String,
    },
    /// There is no file.
    #[error("there is no store at {path}")]
    Missing {
        /// The path given.
        path: String,
    },
    /// SQLite could not open the file.
    #[error("cannot open the store {path}")]
    Open {
        /// The store file.
        path: String,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
    /// The file system refused the write-ahead log the store's crash safety relies on.
    #[error("cannot switch {path} to WAL mode (got {mode}); is it on a network file system?")]
    NotWal {
        /// The store file.
        path: String,
        /// The journal mode SQLite reported instead.
        mode: String,
    },
    /// A stored record cannot be read back.
    #[error(
        "the record of document {id} ({url}) in {path} is damaged: {why}; re-index that document"
    )]
    Damaged {
        /// The store file.
        path: String,
        /// The document's id.
        id: i64,
        /// Its URL.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// A blob of a key list's runs is damaged (truncated, out of order, another partition's
    /// keys), or a run does not hold the pairs its row says: checks cannot trust that list.
    #[error(
        "the {list} index of {path} is damaged (row {id}: {why}); re-index the documents into a new store"
    )]
    DamagedIndex {
        /// The store file.
        path: String,
        /// The list: `fingerprints`, `longwords` or `sentences`.
        list: &'static str,
        /// The row id of the damaged chunk, spill or run.
        id: i64,
        /// What is wrong with it.
        why: String,
    },
    /// A document id beyond what the key runs hold (u32): the write is refused rather than
    /// truncating it.
    #[error("document id {id} in {path} is beyond the 4,294,967,295 the store's key lists hold")]
    IdRange {
        /// The store file.
        path: String,
        /// The id.
        id: i64,
    },
    /// A document given to index is not acceptable (no URL, analysed with other parameters).
    #[error("{0}")]
    InvalidDocument(String),
    /// A document's text could not be analysed (empty, binary, too large).
    #[error("cannot index {url}")]
    Analysis {
        /// The document's URL.
        url: String,
        /// The engine's refusal.
        #[source]
        source: uniqcheck::Error,
    },
    /// A draft could not be checked: an invalid option, or an empty, binary or too large text.
    #[error(transparent)]
    Engine(#[from] uniqcheck::Error),
    /// A write could not be committed; nothing of it was written.
    #[error("cannot write to {path}")]
    Write {
        /// The store file.
        path: String,
        /// SQLite's reason.
        #[source]
        source: rusqlite::Error,
    },
    /// Any other SQLite failure.
    #[error("the store's database failed")]
    Sqlite(#[from] rusqlite::Error),
}

/// What store operations return.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A document as listed by the store (no record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredDocument {
    /// Store id: stable, never reused.
    pub id: i64,
    /// Unique URL (or path) of the document.
    pub url: String,
    /// Title.
    pub title: String,
    /// [`text_hash`] of the indexed text.
    pub text_hash: String,
    /// Canonical content words.
    pub words: u32,
    /// When it was first indexed, unix seconds.
    pub added: i64,
    /// When its text or title last changed, unix seconds.
    pub updated: i64,
}

/// What [`Store::upsert`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "result", content = "id", rename_all = "lowercase")]
pub enum Upsert {
    /// A new URL: a document was added.
    Added(i64),
    /// A known URL whose text or title changed: its record and index rows were replaced.
    Updated(i64),
    /// A known URL with the same text and title: nothing was written.
    Unchanged(i64),
}

impl Upsert {
    /// The document's id.
    pub fn id(&self) -> i64 {
        match *self {
            Upsert::Added(id) | Upsert::Updated(id) | Upsert::Unchanged(id) => id,
        }
    }
}

/// A document to index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDocument {
    /// Unique URL (or path); re-indexing the same URL updates the document.
    pub url: String,
    /// Title shown with matches.
    pub title: String,
    /// The text.
    pub text: String,
    /// How the text is written.
    pub format: Format,
}

/// What the store knows about a URL: enough to tell that re-indexing it would change nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// Document id.
    pub id: i64,
    /// [`text_hash`] of its text.
    pub text_hash: String,
    /// Its title.
    pub title: String,
}

impl Known {
    /// True when indexing `doc` (whose [`text_hash`] is `hash`) would leave this document as is.
    pub fn unchanged(&self, doc: &NewDocument, hash: &str) -> bool {
        self.same(hash, &doc.title)
    }

    /// The one rule of [`Known::unchanged`], on a text hash and a title.
    fn same(&self, hash: &str, title: &str) -> bool {
        self.text_hash == hash && self.title == title
    }
}

/// A document ready to be written by [`Store::write_batch`]: what [`Store::prepare`] computes
/// from an analysed document (its text is not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    url: String,
    title: String,
    text_hash: String,
    words: i64,
    exact: i64,
    record: Vec<u8>,
    keys: Keys,
    params: Params,
}

impl Prepared {
    /// The document's URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// A document's keys in each index, each list sorted and without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Keys {
    fingerprints: Vec<u32>,
    long_words: Vec<u32>,
    sentences: Vec<u32>,
}

impl Keys {
    /// The `keys` blob: the three list lengths, then the lists, each key a little-endian `u32`
    /// (random keys gain nothing from a variable-length code).
    fn encode(&self) -> Vec<u8> {
        let lists = [&self.fingerprints, &self.long_words, &self.sentences];
        let mut out = Vec::with_capacity(12 + 4 * lists.iter().map(|l| l.len()).sum::<usize>());
        for list in lists {
            out.extend_from_slice(&(list.len() as u32).to_le_bytes());
        }
        for list in lists {
            for key in list {
                out.extend_from_slice(&key.to_le_bytes());
            }
        }
        out
    }

    /// Reads a `keys` blob; `None` when its lengths do not add up to its size.
    fn decode(blob: &[u8]) -> Option<Keys> {
        let words: Vec<u32> = blob
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if blob.len() % 4 != 0 || words.len() < 3 {
            return None;
        }
        let (lens, mut rest) = words.split_at(3);
        let total = lens
            .iter()
            .try_fold(0usize, |t, &n| t.checked_add(n as usize))?;
        if total != rest.len() {
            return None;
        }
        let mut take = |n: u32| {
            let (list, tail) = rest.split_at(n as usize);
            rest = tail;
            list.to_vec()
        };
        Some(Keys {
            fingerprints: take(lens[0]),
            long_words: take(lens[1]),
            sentences: take(lens[2]),
        })
    }
}

/// What indexing a document does to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A URL the store does not know: the document is added.
    Add,
    /// A known URL whose text or title changed: the document with this id is replaced.
    Replace(i64),
    /// A known URL with the same text and title: the document with this id is left as is.
    Unchanged(i64),
}

/// What indexing `doc` does, given what the store knows about its URL (`None`: nothing). The
/// text is hashed, not analysed, so an unchanged document costs no analysis. The one rule for
/// the CLI's `index`, the HTTP API and [`Store::upsert_batch`].
///
/// # Example
/// ```
/// use uniqcheck::Format;
/// use uniqcheck_store::{decide, text_hash, Decision, Known, NewDocument};
/// let doc = NewDocument { url: "u".into(), title: "T".into(), text: "Tea".into(), format: Format::Plain };
/// assert_eq!(decide(None, &doc), Decision::Add);
/// let known = Known { id: 7, text_hash: text_hash("Tea", Format::Plain), title: "T".into() };
/// assert_eq!(decide(Some(&known), &doc), Decision::Unchanged(7));
/// let known = Known { title: "Old".into(), ..known };
/// assert_eq!(decide(Some(&known), &doc), Decision::Replace(7));
/// ```
pub fn decide(known: Option<&Known>, doc: &NewDocument) -> Decision {
    match known {
        None => Decision::Add,
        Some(k) if k.unchanged(doc, &text_hash(&doc.text, doc.format)) => Decision::Unchanged(k.id),
        Some(k) => Decision::Replace(k.id),
    }
}

/// Size figures of a store.
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    /// Documents.
    pub documents: usize,
    /// Their canonical content words, summed.
    pub words: u64,
    /// Fingerprint rows.
    pub fingerprints: u64,
    /// Bytes of stored records.
    pub record_bytes: u64,
    /// Size of the database file plus its WAL.
    pub file_bytes: u64,
    /// The `changes` counter.
    pub changes: i64,
    /// Key runs of each list (fingerprints, long words, sentences; [`Store::runs`]): a check
    /// reads each, so one a list is the fastest ([`Store::merge`]).
    pub key_runs: [usize; 3],
}

/// Hex of the first 128 bits of SHA-256 over the format tag and the text's UTF-8 bytes: equal
/// exactly when re-indexing would produce the same record and keys.
pub fn text_hash(text: &str, format: Format) -> String {
    let mut h = Sha256::new();
    h.update(match format {
        Format::Plain => b"plain\n".as_slice(),
        Format::Html => b"html\n".as_slice(),
    });
    h.update(text.as_bytes());
    let digest = h.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// An open store.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    params: Params,
    merge_ratio: u64,
    /// Whether writes leave their runs unmerged and SQLite's checkpoints wait
    /// ([`Store::set_bulk`]).
    bulk: bool,
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// Runs a key list may hold while writing in bulk ([`Store::set_bulk`]) before a write merges
/// them as writes do: every check reads every run (about 1.3 ms of CPU per large run per
/// 1,000-word draft at a million documents), so a server checking the store during a load of
/// hundreds of batches (or after a load that stopped midway) stays within a few runs' cost; a
/// load of up to 16 batches (65,000 documents) still merges only at its end.
pub const BULK_MAX_RUNS: usize = 16;

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
    if application_id != 0 && application_id != APPLICATION_ID {
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
    array::load_module(&conn)?;
    Ok(conn)
}

fn meta_get(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?)
}

fn meta_number<T: std::str::FromStr>(conn: &Connection, path: &Path, key: &str) -> Result<T> {
    let value = meta_get(conn, key)?.ok_or_else(|| StoreError::NotAStore {
        path: display(path),
        why: format!("its meta table has no {key}"),
    })?;
    value.parse().map_err(|_| StoreError::NotAStore {
        path: display(path),
        why: format!("its meta value {key} = {value:?} is not valid"),
    })
}

/// Creates the schema in an empty database, or checks the version of an existing one. Returns
/// whether it was created.
fn init_schema(conn: &mut Connection, path: &Path, params: Option<&Params>) -> Result<bool> {
    // IMMEDIATE: two processes creating the same store at once must not both create it.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            path: display(path),
            expected: SCHEMA_VERSION,
            found: version,
        });
    }
    if version == SCHEMA_VERSION {
        if migrate_pack_format(&tx)? {
            tx.commit()?;
        }
        return Ok(false);
    }
    if (OLDEST_SCHEMA..SCHEMA_VERSION).contains(&version) {
        if version == 2 {
            migrate_from_2(&tx)?;
        }
        migrate_pack_format(&tx)?;
        if version <= 3 {
            migrate_from_3(&tx, path)?;
        }
        if version <= 4 {
            migrate_from_4(&tx)?;
        }
        if version <= 5 {
            migrate_from_5(&tx)?;
        }
        migrate_from_6(&tx, path)?;
        // The steps share one transaction, so no other reader ever sees a step's version:
        // the final one is stamped once, here.
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        return Ok(false);
    }
    if version > 0 {
        return Err(StoreError::OlderSchema {
            path: display(path),
            expected: SCHEMA_VERSION,
            found: version,
        });
    }
    let tables: i64 = tx.query_row(
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
    tx.execute_batch(SCHEMA)?;
    tx.execute_batch(RUN_TABLES)?;
    let meta = [
        ("n", params.n.to_string()),
        ("w", params.w.to_string()),
        ("k", params.k.to_string()),
        ("stop_words", params.stop_words.to_string()),
        ("stemming", params.stemming.to_string()),
        ("canonicalizer", CANONICALIZER_VERSION.to_string()),
        ("format_version", FORMAT_VERSION.to_string()),
        ("engine_version", uniqcheck::VERSION.to_owned()),
        ("created", unix_now().to_string()),
        ("changes", "0".to_owned()),
        ("revs", "0".to_owned()),
    ];
    for (key, value) in meta {
        tx.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)",
            [key, &value],
        )?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(true)
}

/// Schema 2 → 3, inside the caller's transaction: drops the version-1 sketch of every document
/// (nothing reads it since packs version 2) and records the pack format of what the store still
/// holds, the version-2 records (schema 2 recorded version 1, its sketches' format), which
/// [`migrate_pack_format`] then upgrades. The freed pages are reused by later writes (`VACUUM`
/// returns them to the file system).
fn migrate_from_2(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    tx.execute_batch("ALTER TABLE documents DROP COLUMN sketch")?;
    tx.execute(
        "UPDATE meta SET value = '2' WHERE key = 'format_version' AND value = '1'",
        [],
    )?;
    Ok(())
}

/// Schema 3 → 4, inside the caller's transaction (after [`migrate_pack_format`]): creates the
/// `sentences` table and fills it with every document's sentence keys, computed from its stored
/// record ([`index::sentence_keys`] reads only the record's words and sentence starts), so no
/// document is analysed again. A record that does not decode is refused as damaged, naming it.
///
/// Cost: one record read and about ten key rows per document (seconds for 100,000).
fn migrate_from_3(tx: &rusqlite::Transaction<'_>, path: &Path) -> Result<()> {
    let params = stored_params(tx, path)?;
    tx.execute_batch(SENTENCES_4)?;
    let mut rows: Vec<(u32, i64)> = Vec::new();
    {
        let mut read = tx.prepare("SELECT id, url, record FROM documents")?;
        let mut docs = read.query([])?;
        while let Some(row) = docs.next()? {
            let (id, url): (i64, String) = (row.get(0)?, row.get(1)?);
            let blob = row.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
            let record = Record::decode(blob, &params).map_err(|e| StoreError::Damaged {
                path: display(path),
                id,
                url,
                why: e.to_string(),
            })?;
            rows.extend(
                index::sentence_keys(record.words(), &record.sentences)
                    .into_iter()
                    .map(|k| (k, id)),
            );
        }
    }
    rows.sort_unstable();
    let mut add = tx.prepare("INSERT INTO sentences (key, doc) VALUES (?1, ?2)")?;
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
fn migrate_from_4(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    tx.execute_batch("ALTER TABLE documents ADD COLUMN keys BLOB NOT NULL DEFAULT x''")?;
    {
        let ids: Vec<i64> = tx
            .prepare("SELECT id FROM documents")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut fingerprints =
            tx.prepare("SELECT key FROM fingerprints WHERE doc = ?1 ORDER BY key")?;
        let mut long_words =
            tx.prepare("SELECT hash FROM longwords WHERE doc = ?1 ORDER BY hash")?;
        let mut sentences = tx.prepare("SELECT key FROM sentences WHERE doc = ?1 ORDER BY key")?;
        let mut write = tx.prepare("UPDATE documents SET keys = ?2 WHERE id = ?1")?;
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
    tx.execute_batch(&KEY_TABLES.replace("CREATE TABLE ", "CREATE TABLE new_"))?;
    tx.execute_batch(
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
fn migrate_from_5(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    tx.execute_batch(&recent_tables())?;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('recent_rows', '0')",
        [],
    )?;
    Ok(())
}

/// Schema 6 → 7, inside the caller's transaction: each key table and its recent twin are read
/// in key order side by side and written as one run per list as they are read
/// ([`runs::RunWriter`]: memory holds a chunk, not the list), then the six tables and the
/// `recent_rows` counter are dropped. No key and no document changes: checks find the same
/// candidates.
///
/// Cost: one ordered read of every key row, and the runs' blobs written (docs/PERFORMANCE.md);
/// the old tables' pages are freed after the runs are written, so the file keeps them free
/// (the next writes reuse them) instead of holding every pair in memory.
fn migrate_from_6(tx: &rusqlite::Transaction<'_>, path: &Path) -> Result<()> {
    tx.execute_batch(RUN_TABLES)?;
    for (list, (table, key)) in KEY_LISTS.iter().enumerate() {
        let total: i64 = tx.query_row(
            &format!(
                "SELECT (SELECT COUNT(*) FROM {table}) + (SELECT COUNT(*) FROM {RECENT}{table})"
            ),
            [],
            |r| r.get(0),
        )?;
        let mut run = NewRun::new(tx, total.max(0) as u64)?;
        let sql =
            |prefix: &str| format!("SELECT {key}, doc FROM {prefix}{table} ORDER BY {key}, doc");
        let (mut old, mut recent) = (tx.prepare(&sql(""))?, tx.prepare(&sql(RECENT))?);
        let (mut old, mut recent) = (old.query([])?, recent.query([])?);
        let next = |rows: &mut rusqlite::Rows<'_>| -> Result<Option<Pair>> {
            match rows.next()? {
                None => Ok(None),
                Some(row) => {
                    let (key, doc): (i64, i64) = (row.get(0)?, row.get(1)?);
                    Ok(Some((key as u32, doc_u32(path, doc)?)))
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
        tx.execute_batch(&format!("DROP TABLE {table}; DROP TABLE {RECENT}{table};"))?;
    }
    tx.execute("DELETE FROM meta WHERE key = 'recent_rows'", [])?;
    Ok(())
}

/// A document id as the runs keep it; [`StoreError::IdRange`] beyond u32.
fn doc_u32(path: &Path, id: i64) -> Result<u32> {
    u32::try_from(id).map_err(|_| StoreError::IdRange {
        path: display(path),
        id,
    })
}

/// A run of a key list, as the `runs` table lists it.
#[derive(Debug, Clone, Copy)]
struct RunInfo {
    id: i64,
    rows: i64,
    bits: u32,
}

/// The runs of `list`, oldest first.
fn list_runs(conn: &Connection, list: usize) -> Result<Vec<RunInfo>> {
    let mut stmt =
        conn.prepare_cached("SELECT id, rows, bits FROM runs WHERE list = ?1 ORDER BY id")?;
    let runs = stmt.query_map([list as i64], |r| {
        Ok(RunInfo {
            id: r.get(0)?,
            rows: r.get(1)?,
            bits: r.get::<_, i64>(2)?.clamp(0, i64::from(runs::MAX_BITS)) as u32,
        })
    })?;
    Ok(runs.collect::<rusqlite::Result<_>>()?)
}

/// Writes `pairs` (strictly ascending) as a new run of `list`, at the level of its size under
/// `ratio`: its chunks, its spills and its `runs` row. Nothing for no pairs.
fn write_run(conn: &Connection, list: usize, ratio: u64, pairs: &[Pair]) -> Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    let mut run = NewRun::new(conn, pairs.len() as u64)?;
    for &pair in pairs {
        run.push(pair)?;
    }
    run.finish(list, ratio).map(drop)
}

/// A run being written into the store, its pairs given one at a time in ascending order: its
/// blobs go in as its partitions fill ([`runs::RunWriter`]), its `runs` row once it is finished.
/// What every write of a run goes through (a batch's, a merge's, the migration's).
struct NewRun<'c> {
    conn: &'c Connection,
    id: i64,
    bits: u32,
    writer: runs::RunWriter,
}

impl<'c> NewRun<'c> {
    /// A run of about `pairs` pairs: its partition bits are chosen for that many.
    fn new(conn: &'c Connection, pairs: u64) -> Result<NewRun<'c>> {
        let bits = runs::bits_for(pairs);
        Ok(NewRun {
            conn,
            id: new_run_id(conn)?,
            bits,
            writer: runs::RunWriter::new(bits),
        })
    }

    /// Adds `pair`, at least the last one added (an equal one is kept once).
    fn push(&mut self, pair: Pair) -> Result<()> {
        let (conn, id) = (self.conn, self.id);
        self.writer
            .push(pair, &mut |blob| insert_blob(conn, id, blob))
    }

    /// Writes the last blobs and the run's row in `list`, at the level of its size under
    /// `ratio` (no row for a run without pairs); returns its pairs.
    fn finish(self, list: usize, ratio: u64) -> Result<u64> {
        let (conn, id) = (self.conn, self.id);
        let rows = self
            .writer
            .finish(&mut |blob| insert_blob(conn, id, blob))?;
        if rows > 0 {
            let level = i64::from(runs::size_level(rows, ratio));
            insert_run_row(conn, id, list, level, rows, self.bits)?;
        }
        Ok(rows)
    }
}

/// The id of the next run: above every run's, so its blobs' row ids are new too.
fn new_run_id(conn: &Connection) -> Result<i64> {
    Ok(
        conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM runs", [], |r| {
            r.get(0)
        })?,
    )
}

/// A run's `runs` row, once its blobs are written.
fn insert_run_row(
    conn: &Connection,
    id: i64,
    list: usize,
    level: i64,
    rows: u64,
    bits: u32,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO runs (id, list, level, rows, bits) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, list as i64, level, rows as i64, bits])?;
    Ok(())
}

/// One blob of run `run`: a chunk or a spilled key's documents.
fn insert_blob(conn: &Connection, run: i64, blob: runs::Blob) -> Result<()> {
    match blob {
        runs::Blob::Chunk(part, data) => conn
            .prepare_cached("INSERT INTO chunks (id, data) VALUES (?1, ?2)")?
            .execute(params![runs::chunk_id(run, part), data])?,
        runs::Blob::Spill(key, data) => conn
            .prepare_cached("INSERT INTO spills (id, data) VALUES (?1, ?2)")?
            .execute(params![runs::spill_id(run, key), data])?,
    };
    Ok(())
}

/// Deletes a run: its row, its chunks, its spills.
fn drop_run(conn: &Connection, run: i64) -> Result<()> {
    let (first, last) = runs::run_ids(run);
    conn.prepare_cached("DELETE FROM runs WHERE id = ?1")?
        .execute([run])?;
    conn.prepare_cached("DELETE FROM chunks WHERE id BETWEEN ?1 AND ?2")?
        .execute([first, last])?;
    conn.prepare_cached("DELETE FROM spills WHERE id BETWEEN ?1 AND ?2")?
        .execute([first, last])?;
    Ok(())
}

/// The damage of a blob of `list`'s runs, as the store's error.
fn damaged_index(path: &Path, list: usize, id: i64, why: impl std::fmt::Display) -> StoreError {
    StoreError::DamagedIndex {
        path: display(path),
        list: KEY_LISTS[list].0,
        id,
        why: why.to_string(),
    }
}

/// Every pair of a run, ascending, read chunk by chunk with its spilled keys' documents;
/// [`StoreError::DamagedIndex`] for a damaged blob or a run whose pairs are not its `rows`.
fn read_run(conn: &Connection, path: &Path, list: usize, run: &RunInfo) -> Result<Vec<Pair>> {
    let (first, last) = runs::run_ids(run.id);
    let mut chunks =
        conn.prepare_cached("SELECT id, data FROM chunks WHERE id BETWEEN ?1 AND ?2 ORDER BY id")?;
    let mut spill = conn.prepare_cached("SELECT data FROM spills WHERE id = ?1")?;
    let mut rows = chunks.query([first, last])?;
    let mut out: Vec<Pair> = Vec::with_capacity(usize::try_from(run.rows).unwrap_or(0));
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let blob = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        let chunk = runs::Chunk::parse(blob, id as u32, run.bits)
            .map_err(|e| damaged_index(path, list, id, e))?;
        let (spilled, mut pairs) = chunk.to_parts();
        for (key, count) in spilled {
            let sid = runs::spill_id(run.id, key);
            let docs = read_spill(&mut spill, path, list, sid, count)?;
            pairs.extend(docs.into_iter().map(|d| (key, d)));
        }
        if chunk.spilled_len() > 0 {
            pairs.sort_unstable();
        }
        out.extend(pairs);
    }
    if out.len() as i64 != run.rows {
        return Err(damaged_index(
            path,
            list,
            run.id,
            format!(
                "run {} holds {} pairs, its row says {}",
                run.id,
                out.len(),
                run.rows
            ),
        ));
    }
    Ok(out)
}

/// A spilled key's documents (`count` of them, as its chunk says).
fn read_spill(
    stmt: &mut rusqlite::CachedStatement<'_>,
    path: &Path,
    list: usize,
    id: i64,
    count: u32,
) -> Result<Vec<u32>> {
    let blob: Option<Vec<u8>> = stmt.query_row([id], |r| r.get(0)).optional()?;
    let blob =
        blob.ok_or_else(|| damaged_index(path, list, id, "a spilled key without its blob"))?;
    runs::parse_spill(&blob, count).map_err(|e| damaged_index(path, list, id, e))
}

/// The chunks a streaming merge reads of a run at a time: 32 chunks, about 64 KB, one
/// statement instead of 32.
const MERGE_READ_CHUNKS: i64 = 32;

/// A run read a few chunks at a time for a streaming merge: the pairs of its current chunks (their
/// spilled keys' documents included) and where the next chunk starts. Each blob is deleted as
/// it is read (the merge is one transaction: all of it happens or none), so the merged run
/// reuses the pages of the runs it replaces and the file does not grow by a run's size.
struct RunCursor {
    run: RunInfo,
    next: i64,
    pairs: Vec<Pair>,
    at: usize,
    read: i64,
}

impl RunCursor {
    fn new(run: RunInfo) -> RunCursor {
        RunCursor {
            run,
            next: runs::run_ids(run.id).0,
            pairs: Vec::new(),
            at: 0,
            read: 0,
        }
    }

    /// The smallest pair not yet taken.
    fn head(&self) -> Pair {
        self.pairs[self.at]
    }

    /// Reads the next chunks ([`MERGE_READ_CHUNKS`] at most) once the current ones are taken;
    /// false at the end of the run, whose pairs must then be its `rows`
    /// ([`StoreError::DamagedIndex`] otherwise, or for a damaged blob).
    fn fill(&mut self, conn: &Connection, path: &Path, list: usize) -> Result<bool> {
        let last = runs::run_ids(self.run.id).1;
        while self.at == self.pairs.len() {
            self.pairs.clear();
            self.at = 0;
            let blobs: Vec<(i64, Vec<u8>)> = conn
                .prepare_cached(
                    "SELECT id, data FROM chunks WHERE id BETWEEN ?1 AND ?2 ORDER BY id LIMIT ?3",
                )?
                .query_map([self.next, last, MERGE_READ_CHUNKS], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            let Some(&(end, _)) = blobs.last() else {
                if self.read != self.run.rows {
                    return Err(damaged_index(
                        path,
                        list,
                        self.run.id,
                        format!(
                            "run {} holds {} pairs, its row says {}",
                            self.run.id, self.read, self.run.rows
                        ),
                    ));
                }
                return Ok(false);
            };
            let mut spill = conn.prepare_cached("SELECT data FROM spills WHERE id = ?1")?;
            for (id, blob) in &blobs {
                let chunk = runs::Chunk::parse(blob, *id as u32, self.run.bits)
                    .map_err(|e| damaged_index(path, list, *id, e))?;
                let (spilled, mut pairs) = chunk.to_parts();
                for &(key, count) in &spilled {
                    let sid = runs::spill_id(self.run.id, key);
                    let docs = read_spill(&mut spill, path, list, sid, count)?;
                    pairs.extend(docs.into_iter().map(|d| (key, d)));
                    conn.prepare_cached("DELETE FROM spills WHERE id = ?1")?
                        .execute([sid])?;
                }
                if !spilled.is_empty() {
                    pairs.sort_unstable();
                }
                self.pairs.extend(pairs);
            }
            conn.prepare_cached("DELETE FROM chunks WHERE id BETWEEN ?1 AND ?2")?
                .execute([self.next, end])?;
            self.next = end + 1;
            self.read += self.pairs.len() as i64;
        }
        Ok(true)
    }
}

/// Merges `merged` (runs of `list`) into one new run, its level that of its size under
/// `ratio`, and drops them: a k-way merge that reads each run a few chunks at a time and writes
/// the new run's blobs as its partitions fill ([`runs::RunWriter`]), so memory holds
/// [`MERGE_READ_CHUNKS`] chunks (and their spilled keys' documents) per run, not the runs. A pair in two runs is kept once.
fn merge_runs(
    conn: &Connection,
    path: &Path,
    list: usize,
    merged: &[RunInfo],
    ratio: u64,
) -> Result<()> {
    let total: i64 = merged.iter().map(|r| r.rows.max(0)).sum();
    let mut out = NewRun::new(conn, total as u64)?;
    let mut live: Vec<RunCursor> = Vec::with_capacity(merged.len());
    for run in merged {
        let mut cursor = RunCursor::new(*run);
        if cursor.fill(conn, path, list)? {
            live.push(cursor);
        }
    }
    while !live.is_empty() {
        // The run with the smallest head gives all its pairs up to the next smallest head
        // without comparing again: runs of random keys interleave, but long stretches are
        // common once one run is much larger than the others.
        let mut best = 0;
        let mut second: Option<Pair> = None;
        for i in 1..live.len() {
            let head = live[i].head();
            if head < live[best].head() {
                let was = live[best].head();
                second = Some(second.map_or(was, |s| s.min(was)));
                best = i;
            } else {
                second = Some(second.map_or(head, |s| s.min(head)));
            }
        }
        let cursor = &mut live[best];
        while cursor.at < cursor.pairs.len() && second.is_none_or(|s| cursor.pairs[cursor.at] <= s)
        {
            out.push(cursor.pairs[cursor.at])?;
            cursor.at += 1;
        }
        if !cursor.fill(conn, path, list)? {
            live.swap_remove(best);
        }
    }
    out.finish(list, ratio)?;
    for run in merged {
        drop_run(conn, run.id)?;
    }
    Ok(())
}

/// Merges `list`'s runs as [`runs::plan_merge`] says until each level of size holds at most
/// one run.
fn compact(conn: &Connection, path: &Path, list: usize, ratio: u64) -> Result<()> {
    loop {
        let all = list_runs(conn, list)?;
        let rows: Vec<u64> = all.iter().map(|r| r.rows.max(0) as u64).collect();
        let Some(merged) = runs::plan_merge(&rows, ratio) else {
            return Ok(());
        };
        let merged: Vec<RunInfo> = merged.into_iter().map(|i| all[i]).collect();
        merge_runs(conn, path, list, &merged, ratio)?;
    }
}

/// Removes `pairs` (ascending) from `list`'s runs: the chunks (and spills) of their keys are
/// read, filtered and rewritten, an emptied chunk, spill or run deleted. Pairs not held are
/// passed over.
fn remove_pairs(conn: &Connection, path: &Path, list: usize, pairs: &[Pair]) -> Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    let mut spill_read = conn.prepare_cached("SELECT data FROM spills WHERE id = ?1")?;
    let mut spill_write = conn.prepare_cached("UPDATE spills SET data = ?2 WHERE id = ?1")?;
    let mut spill_delete = conn.prepare_cached("DELETE FROM spills WHERE id = ?1")?;
    let mut chunk_write = conn.prepare_cached("UPDATE chunks SET data = ?2 WHERE id = ?1")?;
    let mut chunk_delete = conn.prepare_cached("DELETE FROM chunks WHERE id = ?1")?;
    for run in list_runs(conn, list)? {
        let ids = chunk_ids(&run, pairs.iter().map(|p| p.0));
        let mut read = conn.prepare_cached(
            "SELECT c.id, c.data FROM rarray(?1) AS k CROSS JOIN chunks AS c ON c.id = k.value",
        )?;
        let found: Vec<(i64, Vec<u8>)> = read
            .query_map([int_array(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut removed = 0i64;
        for (id, blob) in found {
            let chunk = runs::Chunk::parse(&blob, id as u32, run.bits)
                .map_err(|e| damaged_index(path, list, id, e))?;
            let (mut spilled, mut inline) = chunk.to_parts();
            let before = inline.len();
            inline.retain(|p| pairs.binary_search(p).is_err());
            let mut changed = inline.len() != before;
            removed += (before - inline.len()) as i64;
            for entry in spilled.iter_mut() {
                let (key, count) = *entry;
                let lo = pairs.partition_point(|p| p.0 < key);
                let hi = pairs.partition_point(|p| p.0 <= key);
                if lo == hi {
                    continue;
                }
                let sid = runs::spill_id(run.id, key);
                let mut docs = read_spill(&mut spill_read, path, list, sid, count)?;
                docs.retain(|d| pairs[lo..hi].binary_search(&(key, *d)).is_err());
                let gone = count as usize - docs.len();
                if gone == 0 {
                    continue;
                }
                changed = true;
                removed += gone as i64;
                entry.1 = docs.len() as u32;
                if docs.is_empty() {
                    spill_delete.execute([sid])?;
                } else {
                    spill_write.execute(params![sid, runs::encode_spill(&docs)])?;
                }
            }
            if !changed {
                continue;
            }
            spilled.retain(|e| e.1 > 0);
            if spilled.is_empty() && inline.is_empty() {
                chunk_delete.execute([id])?;
            } else {
                chunk_write.execute(params![id, runs::encode_chunk(&spilled, &inline)])?;
            }
        }
        if removed == run.rows {
            drop_run(conn, run.id)?;
        } else if removed > 0 {
            conn.prepare_cached("UPDATE runs SET rows = rows - ?2 WHERE id = ?1")?
                .execute([run.id, removed])?;
        }
    }
    Ok(())
}

/// The ids of `run`'s chunks that may hold `keys` (ascending): one per partition.
fn chunk_ids(run: &RunInfo, keys: impl Iterator<Item = u32>) -> Vec<i64> {
    let mut ids: Vec<i64> = Vec::new();
    for key in keys {
        let id = runs::chunk_id(run.id, runs::partition(key, run.bits));
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }
    ids
}

/// Pack format 2 or 3 → 4, inside the caller's transaction, when the store records format 2 or
/// 3: every stored record is rewritten as version 4 writes it ([`Record::upgrade`]: its
/// shingles counted for the store's `n`, from the words it holds), and no
/// document is analysed again. A damaged record is left as it is (reading it reports it, as
/// before). Returns whether it migrated; a store of any other format, or without a valid `n`,
/// is refused by [`stored_params`].
///
/// Cost: one read, one pass over the words and one write per document (about 20 seconds for
/// a million, docs/PERFORMANCE.md).
fn migrate_pack_format(tx: &rusqlite::Transaction<'_>) -> Result<bool> {
    if !matches!(meta_get(tx, "format_version")?.as_deref(), Some("2" | "3")) {
        return Ok(false);
    }
    let Some(n) = meta_get(tx, "n")?.and_then(|n| n.parse::<usize>().ok()) else {
        return Ok(false);
    };
    let ids: Vec<i64> = tx
        .prepare("SELECT id FROM documents")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut read = tx.prepare("SELECT record FROM documents WHERE id = ?1")?;
    let mut write = tx.prepare("UPDATE documents SET record = ?2 WHERE id = ?1")?;
    for id in ids {
        let blob: Vec<u8> = read.query_row([id], |r| r.get(0))?;
        if let Ok(upgraded) = Record::upgrade(&blob, n) {
            write.execute(params![id, upgraded])?;
        }
    }
    tx.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
        [FORMAT_VERSION.to_string()],
    )?;
    Ok(true)
}

/// The parameters recorded in the store, after checking its canonicalizer and format versions.
fn stored_params(conn: &Connection, path: &Path) -> Result<Params> {
    for (what, key, expected) in [
        ("canonicalizer", "canonicalizer", CANONICALIZER_VERSION),
        ("pack format", "format_version", FORMAT_VERSION),
    ] {
        let found: u16 = meta_number(conn, path, key)?;
        if found != expected {
            return Err(StoreError::Version {
                path: display(path),
                what,
                expected,
                found,
            });
        }
    }
    let params = Params {
        n: meta_number(conn, path, "n")?,
        w: meta_number(conn, path, "w")?,
        k: meta_number(conn, path, "k")?,
        stop_words: meta_number(conn, path, "stop_words")?,
        stemming: meta_number(conn, path, "stemming")?,
    };
    params.validate().map_err(|e| StoreError::NotAStore {
        path: display(path),
        why: format!("its parameters are invalid: {e}"),
    })?;
    Ok(params)
}

/// A `rarray` parameter of integers.
fn int_array(values: impl IntoIterator<Item = i64>) -> array::Array {
    Rc::new(values.into_iter().map(Value::Integer).collect())
}

impl Store {
    /// Opens the store at `path`, creating it for `params` if the file does not exist.
    ///
    /// Errors: [`StoreError::ParamsMismatch`] when the store was made with other parameters,
    /// [`StoreError::Version`] for another canonicalizer or pack format, [`StoreError::NotAStore`]
    /// for any other file, and I/O or SQLite failures.
    pub fn open(path: &Path, params: Params) -> Result<Store> {
        params.validate()?;
        let mut conn = connect(path, true)?;
        init_schema(&mut conn, path, Some(&params))?;
        let stored = stored_params(&conn, path)?;
        let differences = stored.differences(&params);
        if !differences.is_empty() {
            return Err(StoreError::ParamsMismatch {
                path: display(path),
                differences,
            });
        }
        Ok(Store::opened(conn, path, params))
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
        init_schema(&mut conn, path, None)?;
        let params = stored_params(&conn, path)?;
        Ok(Store::opened(conn, path, params))
    }

    /// The store on `conn`, its schema current and `params` its own, in the state every opening
    /// starts from: the default merge ratio, not in bulk.
    fn opened(conn: Connection, path: &Path, params: Params) -> Store {
        Store {
            conn,
            path: path.to_owned(),
            params,
            merge_ratio: MERGE_RATIO,
            bulk: false,
        }
    }

    /// The engine parameters every stored document was analysed with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The store file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Analyses `doc` (refusing texts over `max_bytes`, binary or empty ones) and indexes it in
    /// one transaction. An unchanged document is not even analysed.
    pub fn upsert(&mut self, doc: &NewDocument, max_bytes: usize) -> Result<Upsert> {
        if let Decision::Unchanged(id) = decide(self.known(&doc.url)?.as_ref(), doc) {
            return Ok(Upsert::Unchanged(id));
        }
        let analysed = Document::analyze(&doc.text, doc.format, &self.params, max_bytes).map_err(
            |source| StoreError::Analysis {
                url: doc.url.clone(),
                source,
            },
        )?;
        let mut done = self.upsert_batch(vec![(doc.clone(), analysed)])?;
        Ok(done.remove(0))
    }

    /// Indexes documents already analysed with [`Store::params`] (in parallel, by the caller), in
    /// one transaction: all of them are written, or none. A URL seen twice in the batch is
    /// updated by its later occurrence. [`Store::prepare`] then [`Store::write_batch`], so a
    /// caller with threads to spare should call those instead, preparing on its analysis threads.
    ///
    /// Errors: an empty URL, a document whose MinHash sketch does not have the store's `k` (it was
    /// analysed with other parameters), SQLite failures; nothing is written then.
    pub fn upsert_batch(&mut self, docs: Vec<(NewDocument, Document)>) -> Result<Vec<Upsert>> {
        let params = self.params;
        let prepared = docs
            .into_iter()
            .map(|(new, doc)| Store::prepare(new, &doc, &params))
            .collect::<Result<Vec<_>>>()?;
        self.write_batch(prepared)
    }

    /// Everything the store writes of one analysed document, computed without the store: the text
    /// hash, the encoded record, the sorted keys of each index. The part of indexing that needs no
    /// database, so that indexers run it on their analysis threads and leave the single SQLite
    /// writer nothing but the writes. `params` are the store's ([`Store::params`]), which
    /// [`Store::write_batch`] checks.
    ///
    /// Errors: an empty URL, a document whose MinHash sketch does not have `params.k` (it was
    /// analysed with other parameters).
    pub fn prepare(new: NewDocument, doc: &Document, params: &Params) -> Result<Prepared> {
        if new.url.is_empty() {
            return Err(StoreError::InvalidDocument(format!(
                "a document without a URL cannot be indexed (title {:?})",
                new.title
            )));
        }
        if doc.sketch.mins.len() != params.k {
            return Err(StoreError::InvalidDocument(format!(
                "{} was analysed with other parameters (a sketch of {} values, the store's k is {})",
                new.url,
                doc.sketch.mins.len(),
                params.k
            )));
        }
        let record = Record::from_document(SourceInfo::default(), doc);
        let sorted = |mut keys: Vec<u32>| {
            keys.sort_unstable();
            keys.dedup();
            keys
        };
        let keys = Keys {
            fingerprints: sorted(doc.fingerprints.iter().map(|f| f.key).collect()),
            long_words: sorted(doc.short.hashes.clone()),
            sentences: sorted(index::sentence_keys(record.words(), &record.sentences)),
        };
        Ok(Prepared {
            text_hash: text_hash(&new.text, new.format),
            url: new.url,
            title: new.title,
            words: i64::from(u32::try_from(doc.content_words()).unwrap_or(u32::MAX)),
            exact: doc.exact as i64,
            record: record.encode(params),
            keys,
            params: *params,
        })
    }

    /// Writes documents made by [`Store::prepare`] in one transaction: all of them are written,
    /// or none. A URL seen twice in the batch is updated by its later occurrence; a URL the store
    /// holds with the same text and title is left as it is. The batch's pairs become one new run
    /// per list, a replaced document's old pairs are removed from the runs holding them, and
    /// when a level of size ([`Store::merge_ratio`]) then holds two runs, the same transaction
    /// merges them ([`runs::plan_merge`]).
    ///
    /// Errors: a document prepared with other parameters than the store's, a document id beyond
    /// u32 ([`StoreError::IdRange`]), a damaged run ([`StoreError::DamagedIndex`]), SQLite
    /// failures; nothing is written then.
    pub fn write_batch(&mut self, docs: Vec<Prepared>) -> Result<Vec<Upsert>> {
        if let Some(other) = docs.iter().find(|d| d.params != self.params) {
            return Err(StoreError::InvalidDocument(format!(
                "{} was prepared for other parameters than the store's",
                other.url
            )));
        }
        let now = unix_now();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut results = Vec::with_capacity(docs.len());
        // The pairs of the whole batch, one list per key list, written as one run each at the
        // end; and the old pairs of the documents it replaces, removed before.
        let mut rows: [Vec<Pair>; 3] = Default::default();
        let mut removed: [Vec<Pair>; 3] = Default::default();
        let mut pending: HashSet<i64> = HashSet::new();
        let mut next_rev: i64 = meta_number(&tx, &self.path, "revs")?;
        {
            let mut find = tx.prepare_cached(
                "SELECT id, text_hash, title, keys FROM documents WHERE url = ?1",
            )?;
            let mut insert = tx.prepare_cached(&written_sql(true))?;
            let mut update = tx.prepare_cached(&written_sql(false))?;
            for doc in &docs {
                let known = find
                    .query_row([&doc.url], |r| {
                        Ok((
                            Known {
                                id: r.get(0)?,
                                text_hash: r.get(1)?,
                                title: r.get(2)?,
                            },
                            r.get::<_, Vec<u8>>(3)?,
                        ))
                    })
                    .optional()?;
                let (decision, old_keys) = match known {
                    None => (Decision::Add, Vec::new()),
                    Some((k, _)) if k.same(&doc.text_hash, &doc.title) => {
                        (Decision::Unchanged(k.id), Vec::new())
                    }
                    Some((k, blob)) => (Decision::Replace(k.id), blob),
                };
                if let Decision::Unchanged(id) = decision {
                    results.push(Upsert::Unchanged(id));
                    continue;
                }
                next_rev += 1;
                let keys = doc.keys.encode();
                // The columns of [`WRITTEN_COLUMNS`], in its order, after the URL or the id.
                let values = params![
                    doc.title,
                    doc.text_hash,
                    doc.words,
                    doc.exact,
                    now,
                    doc.record,
                    next_rev,
                    keys
                ];
                let (id, result) = match decision {
                    Decision::Replace(id) => {
                        let mut bound: Vec<&dyn rusqlite::ToSql> = vec![&id];
                        bound.extend_from_slice(values);
                        update.execute(&*bound)?;
                        let old = stored_pairs(&self.path, id, &doc.url, &old_keys)?;
                        for (list, pairs) in removed.iter_mut().zip(old) {
                            list.extend(pairs);
                        }
                        if pending.contains(&id) {
                            // Its URL came earlier in this batch: those pairs are not written yet.
                            let id = doc_u32(&self.path, id)?;
                            for list in &mut rows {
                                list.retain(|r| r.1 != id);
                            }
                        }
                        (id, Upsert::Updated(id))
                    }
                    _ => {
                        let mut bound: Vec<&dyn rusqlite::ToSql> = vec![&doc.url];
                        bound.extend_from_slice(values);
                        let id: i64 = insert.query_row(&*bound, |r| r.get(0))?;
                        (id, Upsert::Added(id))
                    }
                };
                pending.insert(id);
                let lists = [
                    &doc.keys.fingerprints,
                    &doc.keys.long_words,
                    &doc.keys.sentences,
                ];
                let doc_id = doc_u32(&self.path, id)?;
                for (list, keys) in rows.iter_mut().zip(lists) {
                    list.extend(keys.iter().map(|&k| (k, doc_id)));
                }
                results.push(result);
            }
        }
        if results.iter().any(|r| !matches!(r, Upsert::Unchanged(_))) {
            for (list, (mut new, mut old)) in rows.into_iter().zip(removed).enumerate() {
                old.sort_unstable_by_key(pair_order);
                old.dedup();
                remove_pairs(&tx, &self.path, list, &old)?;
                new.sort_unstable_by_key(pair_order);
                write_run(&tx, list, self.merge_ratio, &new)?;
                if !self.bulk || list_runs(&tx, list)?.len() > BULK_MAX_RUNS {
                    compact(&tx, &self.path, list, self.merge_ratio)?;
                }
            }
            bump_changes(&tx)?;
            tx.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'revs'",
                [next_rev.to_string()],
            )?;
        }
        tx.commit().map_err(|source| StoreError::Write {
            path: display(&self.path),
            source,
        })?;
        Ok(results)
    }

    /// The size ratio of the key lists' levels ([`MERGE_RATIO`] unless set): a write merges
    /// runs until each level (`ratio^l` to `ratio^(l+1) - 1` pairs) holds at most one.
    pub fn merge_ratio(&self) -> u64 {
        self.merge_ratio
    }

    /// Sets [`Store::merge_ratio`] for this connection (not stored): a larger ratio leaves fewer
    /// runs for checks to read and rewrites each pair more times; a smaller one the reverse.
    /// Values below 2 count as 2. `u64::MAX` never merges (until [`Store::merge`]).
    pub fn set_merge_ratio(&mut self, ratio: u64) {
        self.merge_ratio = ratio;
    }

    /// Merges each key list's runs into one, in one transaction (writes merge runs of a level
    /// of size when it holds two, [`Store::merge_ratio`]). Checks give the same answers before and
    /// after; a store that will only be read is faster to query with one run per list.
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), SQLite failures; nothing is
    /// written then.
    pub fn merge(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for list in 0..KEY_LISTS.len() {
            let all = list_runs(&tx, list)?;
            if all.len() > 1 {
                merge_runs(&tx, &self.path, list, &all, self.merge_ratio)?;
            }
        }
        tx.commit().map_err(|source| StoreError::Write {
            path: display(&self.path),
            source,
        })?;
        Ok(())
    }

    /// Switches bulk writing on or off. On, [`Store::write_batch`] leaves each batch's runs
    /// unmerged (until a list holds more than [`BULK_MAX_RUNS`]) and SQLite's automatic
    /// checkpoints wait until the log holds 256 MiB (`BULK_CHECKPOINT_PAGES`, so that a load of
    /// millions of documents does not hold a copy of the whole store in the log): a bulk load
    /// that ends with one merge ([`Store::merge`]) would otherwise rewrite the runs written so far at nearly every batch
    /// (on 20 Newsgroups in batches of 4,096, a third of the writer's CPU), and copy pages the
    /// next batch rewrites into the store file at every commit. Off again (what
    /// [`Store::finish_bulk`] does), writes merge as before and the next commit checkpoints.
    /// Crash safety is the same either way: every batch is still one transaction, synced at
    /// its commit, and a store left with extra runs answers as before and has them merged by
    /// its next write.
    ///
    /// Errors: SQLite failures.
    pub fn set_bulk(&mut self, on: bool) -> Result<()> {
        // 1,000 pages is SQLite's default.
        let pages = if on { BULK_CHECKPOINT_PAGES } else { 1000 };
        self.conn.pragma_update(None, "wal_autocheckpoint", pages)?;
        self.bulk = on;
        Ok(())
    }

    /// Ends bulk writing ([`Store::set_bulk`]): merges each key list's runs into one when
    /// `merge` ([`Store::merge`]), otherwise as writes merge them (until each level of size holds
    /// at most one, [`Store::merge_ratio`]), in one transaction; then copies the write-ahead log
    /// into the store file (a checkpoint) so the log is cut back.
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), SQLite failures.
    pub fn finish_bulk(&mut self, merge: bool) -> Result<()> {
        self.set_bulk(false)?;
        if merge {
            self.merge()?;
        } else {
            self.compact()?;
        }
        // PASSIVE, as SQLite's automatic checkpoints: it copies what it can without waiting for
        // readers of older snapshots (a server checking meanwhile).
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// Merges each key list's runs as writes do ([`runs::plan_merge`]), in one transaction:
    /// nothing when each level of size holds at most one run.
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), SQLite failures; nothing is
    /// written then.
    pub fn compact(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for list in 0..KEY_LISTS.len() {
            compact(&tx, &self.path, list, self.merge_ratio)?;
        }
        tx.commit().map_err(|source| StoreError::Write {
            path: display(&self.path),
            source,
        })?;
        Ok(())
    }

    /// How many runs each key list has (fingerprints, long words, sentences): what a lookup
    /// reads one chunk of per key partition.
    pub fn runs(&self) -> Result<[usize; 3]> {
        let mut out = [0; 3];
        for (list, n) in out.iter_mut().enumerate() {
            *n = list_runs(&self.conn, list)?.len();
        }
        Ok(out)
    }

    /// Every (key, document) pair of `list`, ascending, read from all its runs, each blob
    /// checked: the store's index as checks see it (for tests and tools; it reads the whole
    /// list).
    ///
    /// Errors: a damaged blob, a run whose pairs are not its count, or a chunk or spill of no
    /// run ([`StoreError::DamagedIndex`]); SQLite failures.
    pub fn key_pairs(&self, list: List) -> Result<Vec<(u32, DocId)>> {
        let li = list_index(list);
        for table in ["chunks", "spills"] {
            let orphan: Option<i64> = self
                .conn
                .query_row(
                    &format!(
                        "SELECT id FROM {table} WHERE (id >> 32) NOT IN (SELECT id FROM runs) LIMIT 1"
                    ),
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = orphan {
                return Err(damaged_index(
                    &self.path,
                    li,
                    id,
                    format!("a row of {table} of no run"),
                ));
            }
        }
        let mut parts = Vec::new();
        for run in list_runs(&self.conn, li)? {
            parts.push(read_run(&self.conn, &self.path, li, &run)?);
        }
        let total: usize = parts.iter().map(Vec::len).sum();
        let merged = runs::merge_sorted(parts);
        if merged.len() != total {
            return Err(damaged_index(&self.path, li, 0, "a pair in two runs"));
        }
        Ok(merged
            .into_iter()
            .map(|(k, d)| (k, DocId::from(d)))
            .collect())
    }

    /// Deletes a document and its key pairs; false when there was none with that id.
    ///
    /// Errors: a damaged `keys` blob ([`StoreError::Damaged`]) or run
    /// ([`StoreError::DamagedIndex`]), SQLite failures; nothing is deleted then.
    pub fn delete(&mut self, id: i64) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let old: Option<(String, Vec<u8>)> = tx
            .query_row("SELECT url, keys FROM documents WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        let deleted = old.is_some();
        if let Some((url, keys)) = old {
            for (list, pairs) in stored_pairs(&self.path, id, &url, &keys)?
                .iter()
                .enumerate()
            {
                remove_pairs(&tx, &self.path, list, pairs)?;
            }
            tx.execute("DELETE FROM documents WHERE id = ?1", [id])?;
            bump_changes(&tx)?;
        }
        tx.commit()?;
        Ok(deleted)
    }

    /// The document with this id.
    pub fn get(&self, id: i64) -> Result<Option<StoredDocument>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id, url, title, text_hash, words, added, updated FROM documents WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(StoredDocument {
                    id: r.get(0)?,
                    url: r.get(1)?,
                    title: r.get(2)?,
                    text_hash: r.get(3)?,
                    words: r.get(4)?,
                    added: r.get(5)?,
                    updated: r.get(6)?,
                })
            })
            .optional()?)
    }

    /// What the store knows about `url`, if it holds it.
    pub fn known(&self, url: &str) -> Result<Option<Known>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, text_hash, title FROM documents WHERE url = ?1")?
            .query_row([url], |r| {
                Ok(Known {
                    id: r.get(0)?,
                    text_hash: r.get(1)?,
                    title: r.get(2)?,
                })
            })
            .optional()?)
    }

    /// Every stored URL with its [`Known`] state: lets an indexer skip analysing unchanged
    /// documents without asking the store once per file.
    pub fn known_all(&self) -> Result<HashMap<String, Known>> {
        let mut stmt = self
            .conn
            .prepare("SELECT url, id, text_hash, title FROM documents")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Known {
                    id: r.get(1)?,
                    text_hash: r.get(2)?,
                    title: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Document `id`'s fingerprint keys, ascending (empty when there is no such document): its
    /// `keys` blob, so no index by document is needed.
    ///
    /// Errors: a damaged blob ([`StoreError::Damaged`]), SQLite failures.
    pub fn fingerprint_keys(&self, id: i64) -> Result<Vec<u32>> {
        let row: Option<(String, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT url, keys FROM documents WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let Some((url, blob)) = row else {
            return Ok(Vec::new());
        };
        let keys = Keys::decode(&blob).ok_or_else(|| StoreError::Damaged {
            path: display(&self.path),
            id,
            url,
            why: "its list of index keys does not add up".into(),
        })?;
        Ok(keys.fingerprints)
    }

    /// Number of documents.
    pub fn count(&self) -> Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM documents", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// The `changes` counter: grows with every write, never goes back.
    pub fn changes(&self) -> Result<i64> {
        meta_number(&self.conn, &self.path, "changes")
    }

    /// Size figures.
    pub fn stats(&self) -> Result<Stats> {
        let (documents, words, record_bytes): (i64, i64, i64) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(words), 0), COALESCE(SUM(LENGTH(record)), 0)
             FROM documents",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let fingerprints: i64 = self.conn.query_row(
            "SELECT COALESCE(SUM(rows), 0) FROM runs WHERE list = 0",
            [],
            |r| r.get(0),
        )?;
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        Ok(Stats {
            documents: documents as usize,
            words: words as u64,
            fingerprints: fingerprints as u64,
            record_bytes: record_bytes as u64,
            file_bytes: size(&self.path) + size(Path::new(&wal)),
            changes: self.changes()?,
            key_runs: self.runs()?,
        })
    }

    /// The best candidates for `draft` (analysed with [`Store::params`]), best first: the
    /// engine's ranking ([`index::candidates`]) over the store's indexes.
    pub fn candidates(&self, draft: &Document, opts: &CheckOptions) -> Result<Vec<Candidate>> {
        index::candidates(self, &Draft::new(draft, &self.params), opts)
    }

    /// Checks a draft against the store: the engine's [`index::check`], with candidates found by
    /// SQL lookups and aligned against their records. Sources carry draft spans only (the store
    /// keeps no text). Each source's `id` is the document id in decimal.
    ///
    /// Errors: those of [`index::analyze_draft`] (an invalid option, an empty, too large or
    /// binary draft), a damaged record, and SQLite failures.
    pub fn check(&self, text: &str, format: Format, opts: &CheckOptions) -> Result<Report> {
        uniqcheck::check::check(self, text, format, opts)
    }

    /// [`Store::check`] for a draft already analysed with [`Store::params`]
    /// ([`index::check_document`]).
    pub fn check_document(&self, draft: &Document, opts: &CheckOptions) -> Result<Report> {
        uniqcheck::check::check_document(self, draft, opts)
    }

    /// Calls `f` with every document's record number and record (its identity filled in: id,
    /// url, title), in id order, reading one row at a time, from one snapshot of the store.
    pub fn for_each_record<E: From<StoreError>>(
        &self,
        mut f: impl FnMut(u64, Record) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, url, title, record, rev FROM documents ORDER BY id")
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([]).map_err(StoreError::from)?;
        while let Some(row) = rows.next().map_err(StoreError::from)? {
            let (info, mut record) = self.read_row(row, |blob| {
                Record::decode(blob, &self.params).map_err(|e| e.to_string())
            })?;
            record.info = info;
            let rev: i64 = row.get(4).map_err(StoreError::from)?;
            f(rev as u64, record)?;
        }
        Ok(())
    }

    /// Reads an `(id, url, title, blob)` row: the row's identity, and the blob decoded by
    /// `decode` (a damaged blob is [`StoreError::Damaged`], naming the document).
    fn read_row<T>(
        &self,
        row: &rusqlite::Row<'_>,
        decode: impl FnOnce(&[u8]) -> std::result::Result<T, String>,
    ) -> Result<(SourceInfo, T)> {
        let (id, url, title): (i64, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
        let blob = row.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?;
        let value = decode(blob).map_err(|why| StoreError::Damaged {
            path: display(&self.path),
            id,
            url: url.clone(),
            why,
        })?;
        let info = SourceInfo {
            id: id.to_string(),
            url,
            title,
        };
        Ok((info, value))
    }
}

/// The store as one backend of the engine's [`Index`]: each lookup is one indexed SQL query over
/// all of the draft's keys at once (passed as one `rarray` parameter).
impl Index for Store {
    type Error = StoreError;

    fn params(&self) -> &Params {
        &self.params
    }

    fn postings(
        &self,
        list: List,
        keys: &[u32],
        limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<()> {
        let li = list_index(list);
        let all = list_runs(&self.conn, li)?;
        // One chunk per (run, partition) of the draft's keys, all read by one statement.
        let mut ids: Vec<i64> = Vec::new();
        for run in &all {
            ids.extend(chunk_ids(run, keys.iter().copied()));
        }
        let mut read = self.conn.prepare_cached(
            "SELECT c.id, c.data FROM rarray(?1) AS k CROSS JOIN chunks AS c ON c.id = k.value",
        )?;
        let mut rows = read.query([int_array(ids)])?;
        // Each key's documents over all runs (by its position in `keys`), the inline ones
        // found now, the spilled ones read below if the key is kept.
        let mut pairs: Vec<(usize, u32)> = Vec::new();
        let mut counts: Vec<u64> = vec![0; keys.len()];
        let mut spilled: Vec<(i64, usize, u32)> = Vec::new();
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let run = id >> 32;
            let Some(bits) = all.iter().find(|r| r.id == run).map(|r| r.bits) else {
                continue;
            };
            let part = id as u32;
            let blob = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
            let chunk = runs::Chunk::parse(blob, part, bits)
                .map_err(|e| damaged_index(&self.path, li, id, e))?;
            let (lo, hi) = runs::partition_keys(part, bits);
            let first = keys.partition_point(|&k| k < lo);
            let last = keys.partition_point(|&k| k <= hi);
            for (at, &key) in keys.iter().enumerate().take(last).skip(first) {
                let (a, b) = chunk.inline(key);
                counts[at] += (b - a) as u64;
                pairs.extend((a..b).map(|i| (at, chunk.pair(i).1)));
                if let Some(n) = chunk.spilled_count(key) {
                    counts[at] += u64::from(n);
                    spilled.push((runs::spill_id(run, key), at, n));
                }
            }
        }
        drop(rows);
        // Common longest words ("organization" is in 44 % of 20 Newsgroups posts) and stock
        // sentences are left out when more than `limit` documents hold them (counted over all
        // runs, their spilled documents unread); keys are rarely that common and are read whole.
        let kept = |at: usize| list == List::Keys || counts[at] <= limit as u64;
        spilled.retain(|s| kept(s.1));
        if !spilled.is_empty() {
            let mut read = self.conn.prepare_cached(
                "SELECT s.id, s.data FROM rarray(?1) AS k CROSS JOIN spills AS s ON s.id = k.value",
            )?;
            let mut found: HashMap<i64, Vec<u8>> = read
                .query_map([int_array(spilled.iter().map(|s| s.0))], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            for &(id, at, n) in &spilled {
                let blob = found.remove(&id).ok_or_else(|| {
                    damaged_index(&self.path, li, id, "a spilled key without its blob")
                })?;
                let docs = runs::parse_spill(&blob, n)
                    .map_err(|e| damaged_index(&self.path, li, id, e))?;
                pairs.extend(docs.into_iter().map(|d| (at, d)));
            }
        }
        pairs.retain(|p| kept(p.0));
        pairs.sort_unstable();
        let mut docs = Vec::new();
        for group in pairs.chunk_by(|a, b| a.0 == b.0) {
            docs.clear();
            docs.extend(group.iter().map(|&(_, d)| DocId::from(d)));
            visit(keys[group[0].0], &docs);
        }
        Ok(())
    }

    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id FROM documents WHERE exact = ?1")?;
        for doc in stmt.query_map([exact as i64], |r| r.get::<_, i64>(0))? {
            docs.push(doc? as DocId);
        }
        Ok(())
    }

    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<()> {
        self.records_all(ids, &mut |sources| sources.iter().for_each(|&s| visit(s)))
    }

    /// All of them in one slice, once decoded (as [`Index::records_decoded`] reads them).
    fn records_all(&self, ids: &[DocId], visit: &mut dyn FnMut(&[Source<'_>])) -> Result<()> {
        let mut all: Vec<Record> = Vec::with_capacity(ids.len());
        self.records_decoded(ids, &mut |batch| all.extend(batch))?;
        let sources: Vec<Source<'_>> = all.iter().map(Source::Record).collect();
        visit(&sources);
        Ok(())
    }

    /// In batches of [`RECORD_BATCH`], each read by one query and decoded before the next is
    /// read: the engine aligns a batch on its pool while this thread reads the next.
    fn records_decoded(&self, ids: &[DocId], visit: &mut dyn FnMut(Vec<Record>)) -> Result<bool> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, url, title, record FROM documents WHERE id IN rarray(?1)",
        )?;
        let mut batch: Vec<(usize, Record)> = Vec::with_capacity(RECORD_BATCH);
        for part in ids.chunks(RECORD_BATCH) {
            let mut rows = stmt.query([int_array(part.iter().map(|&id| id as i64))])?;
            while let Some(row) = rows.next()? {
                let (info, mut record) = self.read_row(row, |blob| {
                    Record::decode(blob, &self.params).map_err(|e| e.to_string())
                })?;
                let id = row.get::<_, i64>(0)? as DocId;
                record.info = info;
                // Rows come in id order; the batch goes in the order asked (rank order).
                let at = part.iter().position(|&d| d == id).unwrap_or(usize::MAX);
                batch.push((at, record));
            }
            batch.sort_unstable_by_key(|&(at, _)| at);
            visit(batch.drain(..).map(|(_, r)| r).collect());
        }
        Ok(true)
    }
}

/// The records [`Store`]'s [`Index::records_decoded`] reads and hands over at a time: small
/// enough that the engine's pool starts aligning soon after the candidates are known, large
/// enough that a query's own cost stays small beside its rows'.
const RECORD_BATCH: usize = 32;

/// The `documents` columns a write sets besides the URL and `added`, in the order of the values
/// [`Store::write_batch`] binds after the URL (a new document) or the id (a known one).
const WRITTEN_COLUMNS: [&str; 8] = [
    "title",
    "text_hash",
    "words",
    "exact",
    "updated",
    "record",
    "rev",
    "keys",
];

/// The statement that writes a document's row from [`WRITTEN_COLUMNS`] (bound as ?2, ?3, …):
/// `insert`, a new one (?1 the URL; `added` is `updated`), returning its id; otherwise the
/// update of a known one (?1 its id). `OR ROLLBACK`: a failed write fails its whole batch
/// anyway, and without the default `ABORT` SQLite needs no statement journal to undo the one
/// statement, a copy of each page the row touches (a tenth of the row writes' time).
fn written_sql(insert: bool) -> String {
    let at = |i: usize| format!("?{}", i + 2);
    if insert {
        let updated = WRITTEN_COLUMNS
            .iter()
            .position(|&c| c == "updated")
            .unwrap_or(0);
        let values: Vec<String> = (0..WRITTEN_COLUMNS.len()).map(at).collect();
        format!(
            "INSERT OR ROLLBACK INTO documents (url, added, {}) VALUES (?1, {}, {}) RETURNING id",
            WRITTEN_COLUMNS.join(", "),
            at(updated),
            values.join(", ")
        )
    } else {
        let sets: Vec<String> = WRITTEN_COLUMNS
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = {}", at(i)))
            .collect();
        format!(
            "UPDATE OR ROLLBACK documents SET {} WHERE id = ?1",
            sets.join(", ")
        )
    }
}

/// Document `id`'s pairs in each key list, ascending, as listed by its `keys` blob: what an
/// update or a delete removes. A blob that does not decode is [`StoreError::Damaged`]: nothing
/// is removed then, since the caller's transaction is rolled back.
fn stored_pairs(path: &Path, id: i64, url: &str, blob: &[u8]) -> Result<[Vec<Pair>; 3]> {
    let keys = Keys::decode(blob).ok_or_else(|| StoreError::Damaged {
        path: display(path),
        id,
        url: url.to_owned(),
        why: "its list of index keys does not add up".into(),
    })?;
    let doc = doc_u32(path, id)?;
    let pairs = |list: &[u32]| list.iter().map(|&k| (k, doc)).collect();
    Ok([
        pairs(&keys.fingerprints),
        pairs(&keys.long_words),
        pairs(&keys.sentences),
    ])
}

/// A pair as one number of the same order: one comparison instead of two, so a batch's pairs
/// sort faster (368,640 random pairs, a batch of 20 Newsgroups: 12-19 ms against 19-22 ms).
fn pair_order(pair: &Pair) -> u64 {
    u64::from(pair.0) << 32 | u64::from(pair.1)
}

/// The position of `list`'s table in [`KEY_LISTS`].
fn list_index(list: List) -> usize {
    match list {
        List::Keys => 0,
        List::LongWords => 1,
        List::Sentences => 2,
    }
}

fn bump_changes(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    tx.execute(
        "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'changes'",
        [],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEA: &str = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и \
        не отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три, \
        белый можно держать дольше. Хранят чай в плотно закрытой банке вдали от специй и кофе.";
    const SHOES: &str = "Running shoes are chosen for the foot, the surface and the usual \
        distance, and their colour comes last. Try them on in the evening, when feet are slightly \
        swollen, and leave a thumbnail of room in front of the big toe.";

    fn doc(url: &str, title: &str, text: &str) -> NewDocument {
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
            .conn
            .query_row("PRAGMA journal_size_limit", [], |r| r.get(0))
            .unwrap();
        assert_eq!(limit, WAL_SIZE_LIMIT);
    }

    /// Document `id`'s fingerprint pairs, read from the runs.
    fn fingerprint_rows(store: &Store, id: i64) -> i64 {
        let pairs = store.key_pairs(List::Keys).unwrap();
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

    /// Turns a fresh store back into the layout schema 6 had: the three key tables and their
    /// recent twins (the pairs of odd documents in the recent ones, as if not merged yet), the
    /// `recent_rows` counter, no runs, user_version 6.
    fn downgrade_to_schema_6(path: &Path) {
        let store = Store::open_existing(path).unwrap();
        let lists: Vec<Vec<(u32, DocId)>> = [List::Keys, List::LongWords, List::Sentences]
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

    /// Turns a fresh store back into the layout schema 5 had: every key row in the large
    /// tables, no recent tables, no `recent_rows`, user_version 5.
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

    /// A new store at `path` holding the tea, the rewrite's source and the shoes, in that order:
    /// the store, the tea's upsert and the source's.
    fn three_documents(path: &Path) -> (Store, Upsert, Upsert) {
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

    /// A migrated store ends at the current schema version.
    fn assert_current_schema(store: &Store) {
        let version: i32 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    /// Every pair of the three key lists, in order.
    fn key_rows(store: &Store) -> Vec<(String, i64, i64)> {
        let mut rows = Vec::new();
        for (list, (table, _)) in [List::Keys, List::LongWords, List::Sentences]
            .into_iter()
            .zip(KEY_LISTS)
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

    /// Names of the indexes the store's schema declares (the automatic ones of primary and
    /// unique keys aside) and of the tables with foreign keys.
    fn indexes_and_foreign_keys(store: &Store) -> (Vec<String>, Vec<String>) {
        let names = |sql: &str| -> Vec<String> {
            let mut stmt = store.conn.prepare(sql).unwrap();
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

    #[test]
    fn a_damaged_key_list_is_reported_and_nothing_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
        let tea = store.upsert(&doc("/tea", "Tea", TEA), 1 << 20).unwrap();
        let rows = key_rows(&store);
        store
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
            meta_get(&store.conn, "format_version").unwrap().as_deref(),
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

    const REWRITE_SOURCE: &str = include_str!("../../tests/data/rewrite-source.txt");
    const REWRITE_DRAFT: &str = include_str!("../../tests/data/rewrite-draft.txt");

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

    /// The texts of the merge tests: the three of the module and variants of each.
    fn texts() -> Vec<String> {
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

    const LISTS: [List; 3] = [List::Keys, List::LongWords, List::Sentences];

    /// The store's pairs and lookups are the reference's: every list's pairs, and
    /// [`Index::postings`] of all its keys (and some it lacks) at several limits: every key for
    /// [`List::Keys`], only those of at most `limit` documents for the others.
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
                    if *list == List::Keys || group.len() <= limit {
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
        let all = |keys: &[u32], n: usize| -> Vec<(u32, usize)> {
            keys.iter().map(|&k| (k, n)).collect()
        };
        assert_eq!(
            found(&store, List::LongWords, &keys.long_words, total),
            all(&keys.long_words, total)
        );
        assert!(found(&store, List::LongWords, &keys.long_words, total - 1).is_empty());
        assert!(found(&store, List::Sentences, &keys.sentences, 10).is_empty());
        assert_eq!(
            found(&store, List::Keys, &keys.fingerprints, 10),
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
    fn store_of_texts(path: &Path) -> (Vec<Report>, Vec<(String, i64, i64)>, i64) {
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

    /// The tables of a store's schema, sorted.
    fn tables(store: &Store) -> Vec<String> {
        let mut stmt = store
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
            assert_eq!(meta_get(&store.conn, "recent_rows").unwrap(), None);
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
            store.conn.execute_batch(damage).unwrap();
            let err = match store.key_pairs(List::Keys) {
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
}
