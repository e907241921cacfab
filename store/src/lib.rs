//! # uniqcheck-store
//!
//! Where a site's published texts live between indexing and checking: document records and
//! inverted indexes in a database ([`Store`]: one SQLite file; [`StoreOf`] on any backend, each a
//! backend of the engine's [`uniqcheck::Index`]), the pack files written from it for browsers
//! ([`packs`]) and read back as a browser reads them ([`folder`]), and its near-duplicate groups
//! found through its own indexes ([`dedup`]).
//!
//! A library with typed errors ([`StoreError`], [`packs::PacksError`]) and no knowledge of command
//! lines or HTTP: the `uniqcheck` CLI and its server open stores, index into them, check drafts
//! against them and write packs through this crate, and say how to fix each error in their own
//! terms.
//!
//! # Example
//! ```
//! use uniqcheck::{CheckOptions, Format, Params};
//! use uniqcheck_store::{NewDocument, Store, Upsert};
//! let dir = tempfile::tempdir().unwrap();
//! let mut store = Store::open(&dir.path().join("site.db"), Params::default()).unwrap();
//! let text = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не \
//!     отнимал тепло у настоя. Чёрный чай раскрывается за три-пять минут, зелёный за две-три.";
//! let doc = NewDocument { url: "https://example.com/tea".into(), title: "Чай".into(),
//!                         text: text.into(), format: Format::Plain };
//! assert!(matches!(store.upsert(&doc, 1 << 20).unwrap(), Upsert::Added(_)));
//! let report = store.check(text, Format::Plain, &CheckOptions::default()).unwrap();
//! assert_eq!(report.uniqueness, 0.0);
//! assert_eq!(report.sources[0].info.url, "https://example.com/tea");
//! ```
//!
//! # What a store holds
//!
//! Every document's row (URL, title, text hash, times, its record, its `keys`) and three **key
//! lists**, sets of (key, document) pairs: the winnowed fingerprint keys, for ranking candidates;
//! the longest-word hashes, the short-text signatures; the sentence keys of
//! [`uniqcheck::sentences::sentence_keys`], which find the sources of rewritten drafts. Each list is
//! kept as a few sorted **runs** of pairs packed into blobs ([`runs`]: chunks of a key partition,
//! and spills of common keys' documents), as SQLite's FTS5 keeps its index as segment blobs.
//! Runs are **leveled by size** ([`runs::plan_merge`], ratio [`Store::merge_ratio`](StoreOf::merge_ratio)):
//! level `l` holds runs of `ratio^l` to `ratio^(l+1) - 1` pairs, and when a write leaves two runs
//! in one level, the same transaction merges them (with the smaller runs below) into one, a
//! streaming k-way merge a chunk at a time. So whatever the writes' sizes (a document a request
//! or 4,096 a batch), a list has at most `log_ratio(pairs) + 1` runs and a pair is rewritten at
//! most `ratio` times a level. A bulk load ([`Store::set_bulk`](StoreOf::set_bulk), what
//! `uniqcheck index` does) leaves its batches' runs unmerged (up to [`BULK_MAX_RUNS`] a list) and
//! merges once at its end. A lookup reads, per run, the chunks of the draft's keys' partitions
//! (one statement for all of them), then binary-searches each chunk. A document's pairs are
//! found through its `keys` blob (the document's own keys): the chunks holding them are read,
//! filtered and rewritten in the deleting transaction.
//!
//! Guarantees, on every backend:
//! - **One codec.** Records are stored as the pack bytes the browser downloads, so what the store
//!   checks against and what a pack carries cannot drift apart. Their identity (id, url, title)
//!   is left empty in the blobs and filled in from the row when read, so it is kept once and a
//!   title change never leaves a stale copy.
//! - **Never silently compared.** A store remembers the parameters, canonicalizer and pack format
//!   its records and keys were made with; opening it with others is refused ([`StoreError`]).
//! - **All or nothing.** Every write (a whole batch of documents, a delete, a merge) is one
//!   transaction: a crash loses at most the transaction in flight and never leaves a document
//!   without its key pairs, or pairs without their document. A document's pairs are written
//!   and removed in the same transaction as its row and its `keys` blob, which is how they stay
//!   in step without foreign keys.
//! - **Checked on reading.** A chunk or spill blob that is not what its row id says (truncated,
//!   out of order, another partition's keys) is [`StoreError::DamagedIndex`], never a panic
//!   or a wrong answer. Document ids are kept as u32 in the runs: a store whose next id would
//!   not fit refuses the write ([`StoreError::IdRange`]) rather than truncating it.
//! - **The writer only writes.** [`Store::prepare`](StoreOf::prepare) computes all a document's
//!   row values (text hash, record, sorted keys) without the store, so indexers run it on their
//!   analysis threads; [`Store::write_batch`](StoreOf::write_batch) then holds the single writer
//!   for the writes alone.
//! - **Sublinear checks.** [`Store::check`](StoreOf::check) ranks candidates with indexed
//!   lookups of the draft's keys and decodes only the best
//!   [`CheckOptions::max_candidates`](uniqcheck::CheckOptions) records, which it aligns as
//!   against the full texts.
//! - Every write bumps the `changes` counter, so pack writers can tell when packs are stale.
//!
//! # Layout, and a second database
//!
//! What any database does is written once, generic over a [`backend::Backend`]:
//!
//! | module | what |
//! |---|---|
//! | `document` | [`NewDocument`], [`Known`] and the add-or-replace rule [`decide`], [`Prepared`] (a document's row values and keys, computed without the store), [`Upsert`], [`StoredDocument`] |
//! | `store` | [`StoreOf`]: indexing, deleting, listing, merging, bulk loads, statistics, checks |
//! | `index` | `impl Index for StoreOf<B>`: the engine's lookups and records over the runs |
//! | `lists` | the key lists' runs written, read, merged, compacted, pairs removed (through the primitives) |
//! | [`runs`] | the runs' blob codec and the merge policy (levels by size) |
//! | `meta` | the parameters and versions a store records, checked at every opening; its counters |
//! | [`backend`] | the primitives a database supplies: [`backend::Storage`], [`backend::Transaction`], [`backend::Backend`] |
//! | `error` | [`StoreError`] |
//! | [`sqlite`] | the SQLite backend: [`Store`], connection settings, schema, migrations, the SQL of each primitive |
//! | [`packs`], [`dedup`] | packs and near-duplicate groups of any store |
//! | [`folder`] | a pack folder checked as a browser fetches it (`check --packs`, `eval parity`) |
//!
//! **A second backend** (PostgreSQL, say) is one more module beside [`sqlite`]. It implements
//! the three traits of [`backend`]: reading the meta values, the documents' rows (by URL, by id,
//! by exact hash, in batches of ids, all in id order) and the runs' rows and blobs; writing them
//! inside a transaction and committing it; opening a write transaction (one writer at a time);
//! and it creates its tables with the meta values of a new store (`meta::initial`) and opens
//! the store with `StoreOf::on`. It gets the rest for free: the engine's [`uniqcheck::Index`]
//! answers (postings over all runs, the common-key rule, records decoded in batches), the
//! add-or-replace rule, [`Prepared`] rows and `keys` blobs, the runs' codec, writing,
//! streaming merges and levels, removing a document's pairs, the checks of every blob read,
//! the parameter and version checks at opening, [`packs`] and [`dedup`], and every error but
//! its own connection's. Its tables are those of the SQLite schema ([`sqlite`]) or their
//! equivalents; the generic code is statically dispatched (no `dyn` between a check and its
//! rows).
#![deny(missing_docs)]

pub mod backend;
pub mod dedup;
mod document;
mod error;
pub mod folder;
mod index;
mod lists;
mod meta;
pub mod packs;
pub mod runs;
pub mod sqlite;
mod store;

pub use document::{
    decide, text_hash, unix_now, Decision, Known, NewDocument, Prepared, StoredDocument, Upsert,
};
pub use error::{Result, StoreError};
pub use sqlite::{Sqlite, Store, DEFAULT_DB, SCHEMA_VERSION};
pub use store::{Stats, StoreOf, BULK_MAX_RUNS, MERGE_RATIO};
