//! The storage primitives a database supplies to be a store: what [`StoreOf`](crate::StoreOf)'s
//! generic code (the engine's [`Index`](uniqcheck::Index) answers, the add-or-replace rule, the
//! runs of keys, their merges and compaction, the records) reads and writes through.
//!
//! Three traits, statically dispatched (a store is generic over its backend, never `dyn`):
//! - [`Storage`]: reading, on the backend's connection and inside its transactions: the meta
//!   values, the documents' rows (by URL, by id, by exact hash, all of them in id order), the
//!   runs of each key list and their blobs (chunks and spills, keyed by the row ids of
//!   [`crate::runs`]).
//! - [`Transaction`]: writing, inside one transaction: documents' rows, meta values, runs' rows
//!   and blobs; all of a transaction is committed or none.
//! - [`Backend`]: the connection: opening a write transaction (one writer at a time, the others
//!   wait for it), bulk-writing hints, a checkpoint, and the bytes the store takes.
//!
//! A primitive answers only what its database holds: it never parses a blob (the generic code
//! checks every chunk, spill, record and `keys` blob it reads and reports the damage, naming
//! [`Storage::name`]), and never decides what to write. The tables it keeps are those of
//! [`Sqlite`](crate::sqlite::Sqlite)'s schema or their equivalents: `meta` (key, value text),
//! `documents` (id, url unique, title, text hash, words, exact hash with an index, added,
//! updated, record, rev unique, keys), `runs` (id, list, level, rows, bits), `chunks` and
//! `spills` (id, data).

use std::collections::HashMap;
use uniqcheck::index::DocId;

use crate::document::{Known, StoredDocument};
use crate::error::{Result, StoreError};

/// A run of a key list as its row lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunInfo {
    /// The run's id, above every earlier run's ([`Transaction::next_run_id`]); its blobs' row
    /// ids are `id << 32 | …` ([`crate::runs::chunk_id`], [`crate::runs::spill_id`]).
    pub id: i64,
    /// The pairs it holds.
    pub rows: i64,
    /// Its partition bits (at most [`crate::runs::MAX_BITS`]).
    pub bits: u32,
}

/// The two kinds of a run's blobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlobKind {
    /// A partition's pairs ([`crate::runs::Chunk`]), under [`crate::runs::chunk_id`].
    Chunk,
    /// A common key's documents ([`crate::runs::parse_spill`]), under [`crate::runs::spill_id`].
    Spill,
}

impl BlobKind {
    /// The name of the kind's table, as messages name it: `chunks` or `spills`.
    pub fn table(self) -> &'static str {
        match self {
            BlobKind::Chunk => "chunks",
            BlobKind::Spill => "spills",
        }
    }
}

/// The values a write sets in a document's row besides its URL (and `added`, which a new row
/// takes from `updated`).
#[derive(Debug, Clone, Copy)]
pub struct DocumentRow<'a> {
    /// Its title.
    pub title: &'a str,
    /// [`text_hash`](crate::text_hash) of its text.
    pub text_hash: &'a str,
    /// Its canonical content words.
    pub words: i64,
    /// Its exact-duplicate hash ([`Document::exact`](uniqcheck::Document), as `i64`).
    pub exact: i64,
    /// The time of the write, unix seconds.
    pub updated: i64,
    /// The encoded record, its identity left empty.
    pub record: &'a [u8],
    /// The record's number: new with every write of the row, never reused.
    pub rev: i64,
    /// The document's `keys` blob: its keys in each list, what an update or a delete removes.
    pub keys: &'a [u8],
}

/// A document's record as read: its identity and the encoded record.
#[derive(Debug, Clone, Copy)]
pub struct RecordRow<'a> {
    /// The document's id.
    pub id: i64,
    /// Its URL.
    pub url: &'a str,
    /// Its title.
    pub title: &'a str,
    /// The encoded record (its identity left empty).
    pub record: &'a [u8],
}

/// Reading a store's database, on its connection or inside a [`Transaction`] (which sees its
/// own writes). Each method is one statement (or one per batch of ids) of the database's own;
/// the visiting ones hand over rows as they are read, blobs in place.
pub trait Storage {
    /// The store as messages name it (the path of an SQLite file).
    fn name(&self) -> &str;

    /// The meta value of `key`, if any.
    fn meta(&self, key: &str) -> Result<Option<String>>;

    /// What the store knows about `url`, and the document's `keys` blob.
    fn find(&self, url: &str) -> Result<Option<(Known, Vec<u8>)>>;

    /// Every stored URL with its [`Known`] state.
    fn known_all(&self) -> Result<HashMap<String, Known>>;

    /// The listing of document `id`.
    fn get(&self, id: i64) -> Result<Option<StoredDocument>>;

    /// Document `id`'s URL and `keys` blob.
    fn document_keys(&self, id: i64) -> Result<Option<(String, Vec<u8>)>>;

    /// Appends the ids of the documents whose exact-duplicate hash is `exact`.
    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<()>;

    /// Visits the records of those of `ids` the store holds, in any order (one statement for
    /// all of them).
    fn records(&self, ids: &[DocId], visit: impl FnMut(RecordRow<'_>) -> Result<()>) -> Result<()>;

    /// Visits every document's record and record number (`rev`), in id order, one row at a
    /// time, from one snapshot.
    fn all_records<E: From<StoreError>>(
        &self,
        visit: impl FnMut(RecordRow<'_>, i64) -> Result<(), E>,
    ) -> Result<(), E>;

    /// The number of documents.
    fn count(&self) -> Result<usize>;

    /// The documents, their words summed, their records' bytes summed.
    fn totals(&self) -> Result<(i64, i64, i64)>;

    /// The runs of key list `list` (0 fingerprints, 1 long words, 2 sentences), oldest first.
    fn runs(&self, list: usize) -> Result<Vec<RunInfo>>;

    /// The blob `id` of `kind`.
    fn blob(&self, kind: BlobKind, id: i64) -> Result<Option<Vec<u8>>>;

    /// Visits the blobs of `kind` among `ids` (ascending), in any order, by one statement.
    fn blobs(
        &self,
        kind: BlobKind,
        ids: &[i64],
        visit: impl FnMut(i64, &[u8]) -> Result<()>,
    ) -> Result<()>;

    /// Visits the first `limit` blobs of `kind` with ids in `first..=last`, ascending.
    fn blob_range(
        &self,
        kind: BlobKind,
        first: i64,
        last: i64,
        limit: usize,
        visit: impl FnMut(i64, &[u8]) -> Result<()>,
    ) -> Result<()>;

    /// The id of a blob of `kind` that belongs to no run, if any.
    fn orphan(&self, kind: BlobKind) -> Result<Option<i64>>;
}

/// Writing, inside one transaction: dropped without [`Transaction::commit`], nothing of it is
/// written.
pub trait Transaction: Storage {
    /// Inserts a new document's row (`added` = `updated`); returns its id, above every id the
    /// store ever gave.
    fn insert_document(&self, url: &str, row: &DocumentRow<'_>) -> Result<i64>;

    /// Rewrites document `id`'s row.
    fn update_document(&self, id: i64, row: &DocumentRow<'_>) -> Result<()>;

    /// Deletes document `id`'s row.
    fn delete_document(&self, id: i64) -> Result<()>;

    /// Sets the meta value of `key`, which exists.
    fn set_meta(&self, key: &str, value: &str) -> Result<()>;

    /// Adds one to the `changes` meta value.
    fn bump_changes(&self) -> Result<()>;

    /// The id of the next run: above every run's.
    fn next_run_id(&self) -> Result<i64>;

    /// Inserts a run's row in `list`, at `level`, once its blobs are written.
    fn insert_run(&self, list: usize, level: u32, run: &RunInfo) -> Result<()>;

    /// Sets the pairs a run holds.
    fn set_run_rows(&self, id: i64, rows: i64) -> Result<()>;

    /// Deletes a run's row (not its blobs).
    fn delete_run(&self, id: i64) -> Result<()>;

    /// Inserts a new blob.
    fn insert_blob(&self, kind: BlobKind, id: i64, data: &[u8]) -> Result<()>;

    /// Rewrites a blob.
    fn update_blob(&self, kind: BlobKind, id: i64, data: &[u8]) -> Result<()>;

    /// Deletes the blobs of `kind` with ids in `first..=last`.
    fn delete_blobs(&self, kind: BlobKind, first: i64, last: i64) -> Result<()>;

    /// Commits the transaction: all of it is written, durably, or none
    /// ([`StoreError::Write`]).
    fn commit(self) -> Result<()>
    where
        Self: Sized;
}

/// A store's open database: what [`StoreOf`](crate::StoreOf) holds.
pub trait Backend: Storage {
    /// A write transaction on it.
    type Tx<'a>: Transaction
    where
        Self: 'a;

    /// Opens a write transaction, waiting for another writer's to end.
    fn begin(&mut self) -> Result<Self::Tx<'_>>;

    /// Bulk writing on or off: how the database may defer its own upkeep (SQLite's
    /// checkpoints) while a load writes many batches; never at the cost of a committed batch.
    fn set_bulk(&mut self, on: bool) -> Result<()>;

    /// Brings the database's files up to date after a bulk load (SQLite copies its write-ahead
    /// log into the store file), without waiting for readers.
    fn checkpoint(&mut self) -> Result<()>;

    /// The bytes the store takes on disk (for SQLite, the file and its write-ahead log).
    fn size_bytes(&self) -> u64;
}
