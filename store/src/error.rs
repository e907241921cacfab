//! Why the store failed: [`StoreError`], one type for every backend, each variant carrying the
//! data that explains it.

use uniqcheck::ParamDifference;

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
