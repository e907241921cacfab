//! [`StoreOf`]: a store on any [`Backend`], its whole API written once over the backend's
//! primitives: indexing (the add-or-replace rule, a batch's pairs as one run per list, a
//! replaced document's pairs removed, the levels of runs kept by merging), deleting, listing,
//! merging, bulk loads, statistics, and checks ([`Index`](uniqcheck::Index), in
//! [`crate::index`]).

use serde::Serialize;
use std::collections::{HashMap, HashSet};
use uniqcheck::index::{self, Candidate, DocId, List};
use uniqcheck::pack::Record;
use uniqcheck::pair::Draft;
use uniqcheck::{CheckOptions, Document, Format, Params, Report, SourceInfo};

use crate::backend::{Backend, BlobKind, DocumentRow, RecordRow, Storage, Transaction};
use crate::document::{
    decide, decide_prepared, unix_now, Decision, Known, NewDocument, Prepared, StoredDocument,
    Upsert,
};
use crate::error::{Result, StoreError};
use crate::lists::{self, damaged_index, doc_u32, list_index, pair_order, LIST_NAMES};
use crate::meta;
use crate::runs::{self, Pair};

/// The default of [`Store::merge_ratio`](StoreOf::merge_ratio): the size ratio of a key list's
/// levels ([`runs::plan_merge`]). Level `l` holds runs of `ratio^l` to `ratio^(l+1) - 1` pairs
/// and at most one run once a write's merges are done, so a list has at most
/// `log_ratio(pairs) + 1` runs whatever its writes' sizes, and a pair is rewritten at most
/// `ratio` times a level (about ratio/2 on average). A larger ratio leaves fewer runs for each
/// lookup to read (about 1.3 ms of CPU per large run and 1,000-word draft at a million
/// documents) and rewrites more bytes. Chosen by measurement (docs/PERFORMANCE.md, "Levels by
/// size"): 8 keeps at most 7 runs a list for a million documents written one a write
/// (simulated; levels by count of merges, fanout 2: up to 19) and 7 for 20,000 (measured;
/// fanout 2: 14); the store benchmark's million in writes of 4,096 held at most 4 runs a list
/// and wrote 29.6 GB (ratio 4: 5 runs, 25.3 GB; fanout 2 by count: 7 runs, 21.7 GB).
pub const MERGE_RATIO: u64 = 8;

/// Runs a key list may hold while writing in bulk ([`Store::set_bulk`](StoreOf::set_bulk))
/// before a write merges them as writes do: every check reads every run (about 1.3 ms of CPU
/// per large run per 1,000-word draft at a million documents), so a server checking the store
/// during a load of hundreds of batches (or after a load that stopped midway) stays within a
/// few runs' cost; a load of up to 16 batches (65,000 documents) still merges only at its end.
pub const BULK_MAX_RUNS: usize = 16;

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
    /// Bytes the store takes on disk: for SQLite, the database file plus its WAL.
    pub file_bytes: u64,
    /// The `changes` counter.
    pub changes: i64,
    /// Key runs of each list (fingerprints, long words, sentences;
    /// [`Store::runs`](StoreOf::runs)): a check reads each, so one a list is the fastest
    /// ([`Store::merge`](StoreOf::merge)).
    pub key_runs: [usize; 3],
}

/// An open store on backend `B` ([`crate::Store`]: on SQLite). Sharing: as `B` allows (an
/// SQLite store is `Send` but not `Sync`, one connection: share it behind a `Mutex`).
#[derive(Debug)]
pub struct StoreOf<B> {
    pub(crate) db: B,
    params: Params,
    merge_ratio: u64,
    /// Whether writes leave their runs unmerged and the backend defers its upkeep
    /// ([`Store::set_bulk`](StoreOf::set_bulk)).
    bulk: bool,
}

impl<B: Backend> StoreOf<B> {
    /// The store on `db`, whose schema is current, in the state every opening starts from: the
    /// default merge ratio, not in bulk. With `params`, the store must have been made with them
    /// ([`StoreError::ParamsMismatch`]); without, they are the store's own. Either way its
    /// canonicalizer and pack format must be this build's ([`StoreError::Version`]).
    pub(crate) fn on(db: B, params: Option<Params>) -> Result<StoreOf<B>> {
        let stored = meta::stored_params(&db)?;
        let params = match params {
            None => stored,
            Some(params) => {
                let differences = stored.differences(&params);
                if !differences.is_empty() {
                    return Err(StoreError::ParamsMismatch {
                        path: db.name().to_owned(),
                        differences,
                    });
                }
                params
            }
        };
        Ok(StoreOf {
            db,
            params,
            merge_ratio: MERGE_RATIO,
            bulk: false,
        })
    }

    /// The engine parameters every stored document was analysed with.
    pub fn params(&self) -> &Params {
        &self.params
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

    /// Indexes documents already analysed with [`Store::params`](StoreOf::params) (in
    /// parallel, by the caller), in one transaction: all of them are written, or none. A URL
    /// seen twice in the batch is updated by its later occurrence.
    /// [`Store::prepare`](StoreOf::prepare) then [`Store::write_batch`](StoreOf::write_batch),
    /// so a caller with threads to spare should call those instead, preparing on its analysis
    /// threads.
    ///
    /// Errors: an empty URL, a document whose MinHash sketch does not have the store's `k` (it was
    /// analysed with other parameters), database failures; nothing is written then.
    pub fn upsert_batch(&mut self, docs: Vec<(NewDocument, Document)>) -> Result<Vec<Upsert>> {
        let params = self.params;
        let prepared = docs
            .into_iter()
            .map(|(new, doc)| Prepared::new(new, &doc, &params))
            .collect::<Result<Vec<_>>>()?;
        self.write_batch(prepared)
    }

    /// Everything the store writes of one analysed document, computed without the store: the text
    /// hash, the encoded record, the sorted keys of each index. The part of indexing that needs no
    /// database, so that indexers run it on their analysis threads and leave the single
    /// writer nothing but the writes. `params` are the store's
    /// ([`Store::params`](StoreOf::params)), which [`Store::write_batch`](StoreOf::write_batch)
    /// checks.
    ///
    /// Errors: an empty URL, a document whose MinHash sketch does not have `params.k` (it was
    /// analysed with other parameters).
    pub fn prepare(new: NewDocument, doc: &Document, params: &Params) -> Result<Prepared> {
        Prepared::new(new, doc, params)
    }

    /// Writes documents made by [`Store::prepare`](StoreOf::prepare) in one transaction: all of
    /// them are written, or none. A URL seen twice in the batch is updated by its later
    /// occurrence; a URL the store holds with the same text and title is left as it is. The
    /// batch's pairs become one new run per list, a replaced document's old pairs are removed
    /// from the runs holding them, and when a level of size
    /// ([`Store::merge_ratio`](StoreOf::merge_ratio)) then holds two runs, the same transaction
    /// merges them ([`runs::plan_merge`]).
    ///
    /// Errors: a document prepared with other parameters than the store's, a document id beyond
    /// u32 ([`StoreError::IdRange`]), a damaged run ([`StoreError::DamagedIndex`]), database
    /// failures; nothing is written then.
    pub fn write_batch(&mut self, docs: Vec<Prepared>) -> Result<Vec<Upsert>> {
        if let Some(other) = docs.iter().find(|d| d.params != self.params) {
            return Err(StoreError::InvalidDocument(format!(
                "{} was prepared for other parameters than the store's",
                other.url
            )));
        }
        let now = unix_now();
        let tx = self.db.begin()?;
        let mut results = Vec::with_capacity(docs.len());
        // The pairs of the whole batch, one list per key list, written as one run each at the
        // end; and the old pairs of the documents it replaces, removed before.
        let mut rows: [Vec<Pair>; 3] = Default::default();
        let mut removed: [Vec<Pair>; 3] = Default::default();
        let mut pending: HashSet<i64> = HashSet::new();
        let mut next_rev: i64 = meta::number(&tx, "revs")?;
        for doc in &docs {
            let known = tx.find(&doc.url)?;
            let decision = decide_prepared(known.as_ref().map(|(k, _)| k), doc);
            if let Decision::Unchanged(id) = decision {
                results.push(Upsert::Unchanged(id));
                continue;
            }
            next_rev += 1;
            let keys = doc.keys.encode();
            let row = DocumentRow {
                title: &doc.title,
                text_hash: &doc.text_hash,
                words: doc.words,
                exact: doc.exact,
                updated: now,
                record: &doc.record,
                rev: next_rev,
                keys: &keys,
            };
            let (id, result) = match (decision, known) {
                (Decision::Replace(id), Some((_, old_keys))) => {
                    tx.update_document(id, &row)?;
                    let old = lists::stored_pairs(&tx, id, &doc.url, &old_keys)?;
                    for (list, pairs) in removed.iter_mut().zip(old) {
                        list.extend(pairs);
                    }
                    if pending.contains(&id) {
                        // Its URL came earlier in this batch: those pairs are not written yet.
                        let id = doc_u32(&tx, id)?;
                        for list in &mut rows {
                            list.retain(|r| r.1 != id);
                        }
                    }
                    (id, Upsert::Updated(id))
                }
                _ => {
                    let id = tx.insert_document(&doc.url, &row)?;
                    (id, Upsert::Added(id))
                }
            };
            pending.insert(id);
            let doc_id = doc_u32(&tx, id)?;
            for (list, keys) in rows.iter_mut().zip(doc.keys.lists()) {
                list.extend(keys.iter().map(|&k| (k, doc_id)));
            }
            results.push(result);
        }
        if results.iter().any(|r| !matches!(r, Upsert::Unchanged(_))) {
            for (list, (mut new, mut old)) in rows.into_iter().zip(removed).enumerate() {
                old.sort_unstable_by_key(pair_order);
                old.dedup();
                lists::remove_pairs(&tx, list, &old)?;
                new.sort_unstable_by_key(pair_order);
                lists::write_run(&tx, list, self.merge_ratio, &new)?;
                if !self.bulk || tx.runs(list)?.len() > BULK_MAX_RUNS {
                    lists::compact(&tx, list, self.merge_ratio)?;
                }
            }
            tx.bump_changes()?;
            tx.set_meta("revs", &next_rev.to_string())?;
        }
        tx.commit()?;
        Ok(results)
    }

    /// The size ratio of the key lists' levels ([`MERGE_RATIO`] unless set): a write merges
    /// runs until each level (`ratio^l` to `ratio^(l+1) - 1` pairs) holds at most one.
    pub fn merge_ratio(&self) -> u64 {
        self.merge_ratio
    }

    /// Sets [`Store::merge_ratio`](StoreOf::merge_ratio) for this connection (not stored): a
    /// larger ratio leaves fewer runs for checks to read and rewrites each pair more times; a
    /// smaller one the reverse. Values below 2 count as 2. `u64::MAX` never merges (until
    /// [`Store::merge`](StoreOf::merge)).
    pub fn set_merge_ratio(&mut self, ratio: u64) {
        self.merge_ratio = ratio;
    }

    /// Merges each key list's runs into one, in one transaction (writes merge runs of a level
    /// of size when it holds two, [`Store::merge_ratio`](StoreOf::merge_ratio)). Checks give the
    /// same answers before and after; a store that will only be read is faster to query with
    /// one run per list.
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), database failures; nothing is
    /// written then.
    pub fn merge(&mut self) -> Result<()> {
        let tx = self.db.begin()?;
        for list in 0..LIST_NAMES.len() {
            let all = tx.runs(list)?;
            if all.len() > 1 {
                lists::merge_runs(&tx, list, &all, self.merge_ratio)?;
            }
        }
        tx.commit()
    }

    /// Switches bulk writing on or off. On, [`Store::write_batch`](StoreOf::write_batch) leaves
    /// each batch's runs unmerged (until a list holds more than [`BULK_MAX_RUNS`]) and the
    /// backend defers its upkeep (SQLite's automatic checkpoints wait until the log holds 256
    /// MiB, so that a load of millions of documents does not hold a copy of the whole store in
    /// the log): a bulk load that ends with one merge ([`Store::merge`](StoreOf::merge)) would
    /// otherwise rewrite the runs written so far at nearly every batch (on 20 Newsgroups in
    /// batches of 4,096, a third of the writer's CPU), and copy pages the next batch rewrites
    /// into the store file at every commit. Off again (what
    /// [`Store::finish_bulk`](StoreOf::finish_bulk) does), writes merge as before and the next
    /// commit checkpoints. Crash safety is the same either way: every batch is still one
    /// transaction, synced at its commit, and a store left with extra runs answers as before
    /// and has them merged by its next write.
    ///
    /// Errors: database failures.
    pub fn set_bulk(&mut self, on: bool) -> Result<()> {
        self.db.set_bulk(on)?;
        self.bulk = on;
        Ok(())
    }

    /// Ends bulk writing ([`Store::set_bulk`](StoreOf::set_bulk)): merges each key list's runs
    /// into one when `merge` ([`Store::merge`](StoreOf::merge)), otherwise as writes merge them
    /// (until each level of size holds at most one, [`Store::merge_ratio`](StoreOf::merge_ratio)),
    /// in one transaction; then lets the backend catch up (SQLite copies the write-ahead log
    /// into the store file, a checkpoint, so the log is cut back).
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), database failures.
    pub fn finish_bulk(&mut self, merge: bool) -> Result<()> {
        self.set_bulk(false)?;
        if merge {
            self.merge()?;
        } else {
            self.compact()?;
        }
        self.db.checkpoint()
    }

    /// Merges each key list's runs as writes do ([`runs::plan_merge`]), in one transaction:
    /// nothing when each level of size holds at most one run.
    ///
    /// Errors: a damaged run ([`StoreError::DamagedIndex`]), database failures; nothing is
    /// written then.
    pub fn compact(&mut self) -> Result<()> {
        let tx = self.db.begin()?;
        for list in 0..LIST_NAMES.len() {
            lists::compact(&tx, list, self.merge_ratio)?;
        }
        tx.commit()
    }

    /// How many runs each key list has (fingerprints, long words, sentences): what a lookup
    /// reads one chunk of per key partition.
    pub fn runs(&self) -> Result<[usize; 3]> {
        let mut out = [0; 3];
        for (list, n) in out.iter_mut().enumerate() {
            *n = self.db.runs(list)?.len();
        }
        Ok(out)
    }

    /// Every (key, document) pair of `list`, ascending, read from all its runs, each blob
    /// checked: the store's index as checks see it (for tests and tools; it reads the whole
    /// list).
    ///
    /// Errors: a damaged blob, a run whose pairs are not its count, or a chunk or spill of no
    /// run ([`StoreError::DamagedIndex`]); database failures.
    pub fn key_pairs(&self, list: List) -> Result<Vec<(u32, DocId)>> {
        let li = list_index(list);
        for kind in [BlobKind::Chunk, BlobKind::Spill] {
            if let Some(id) = self.db.orphan(kind)? {
                let why = format!("a row of {} of no run", kind.table());
                return Err(damaged_index(&self.db, li, id, why));
            }
        }
        let mut parts = Vec::new();
        for run in self.db.runs(li)? {
            parts.push(lists::read_run(&self.db, li, &run)?);
        }
        let total: usize = parts.iter().map(Vec::len).sum();
        let merged = runs::merge_sorted(parts);
        if merged.len() != total {
            return Err(damaged_index(&self.db, li, 0, "a pair in two runs"));
        }
        Ok(merged
            .into_iter()
            .map(|(k, d)| (k, DocId::from(d)))
            .collect())
    }

    /// Deletes a document and its key pairs; false when there was none with that id.
    ///
    /// Errors: a damaged `keys` blob ([`StoreError::Damaged`]) or run
    /// ([`StoreError::DamagedIndex`]), database failures; nothing is deleted then.
    pub fn delete(&mut self, id: i64) -> Result<bool> {
        let tx = self.db.begin()?;
        let old = tx.document_keys(id)?;
        let deleted = old.is_some();
        if let Some((url, keys)) = old {
            for (list, pairs) in lists::stored_pairs(&tx, id, &url, &keys)?
                .iter()
                .enumerate()
            {
                lists::remove_pairs(&tx, list, pairs)?;
            }
            tx.delete_document(id)?;
            tx.bump_changes()?;
        }
        tx.commit()?;
        Ok(deleted)
    }

    /// The document with this id.
    pub fn get(&self, id: i64) -> Result<Option<StoredDocument>> {
        self.db.get(id)
    }

    /// What the store knows about `url`, if it holds it.
    pub fn known(&self, url: &str) -> Result<Option<Known>> {
        Ok(self.db.find(url)?.map(|(known, _)| known))
    }

    /// Every stored URL with its [`Known`] state: lets an indexer skip analysing unchanged
    /// documents without asking the store once per file.
    pub fn known_all(&self) -> Result<HashMap<String, Known>> {
        self.db.known_all()
    }

    /// Document `id`'s fingerprint keys, ascending (empty when there is no such document): its
    /// `keys` blob, so no index by document is needed.
    ///
    /// Errors: a damaged blob ([`StoreError::Damaged`]), database failures.
    pub fn fingerprint_keys(&self, id: i64) -> Result<Vec<u32>> {
        let Some((url, blob)) = self.db.document_keys(id)? else {
            return Ok(Vec::new());
        };
        Ok(lists::decode_keys(&self.db, id, &url, &blob)?.fingerprints)
    }

    /// Number of documents.
    pub fn count(&self) -> Result<usize> {
        self.db.count()
    }

    /// The `changes` counter: grows with every write, never goes back.
    pub fn changes(&self) -> Result<i64> {
        meta::number(&self.db, "changes")
    }

    /// Size figures.
    pub fn stats(&self) -> Result<Stats> {
        let (documents, words, record_bytes) = self.db.totals()?;
        let fingerprints: i64 = self.db.runs(0)?.iter().map(|r| r.rows).sum();
        Ok(Stats {
            documents: documents as usize,
            words: words as u64,
            fingerprints: fingerprints as u64,
            record_bytes: record_bytes as u64,
            file_bytes: self.db.size_bytes(),
            changes: self.changes()?,
            key_runs: self.runs()?,
        })
    }

    /// The best candidates for `draft` (analysed with [`Store::params`](StoreOf::params)),
    /// best first: the engine's ranking ([`index::candidates`]) over the store's indexes.
    pub fn candidates(&self, draft: &Document, opts: &CheckOptions) -> Result<Vec<Candidate>> {
        index::candidates(
            self,
            &Draft::new(draft, &self.params).with_bilingual(opts.bilingual.as_deref()),
            opts,
        )
    }

    /// Checks a draft against the store: the engine's [`uniqcheck::check::check`], with candidates found by
    /// lookups in the key lists and aligned against their records. Sources carry draft spans
    /// only (the store keeps no text). Each source's `id` is the document id in decimal.
    ///
    /// Errors: those of [`uniqcheck::check::analyze_draft`] (an invalid option, an empty, too large or
    /// binary draft), a damaged record, and database failures.
    pub fn check(&self, text: &str, format: Format, opts: &CheckOptions) -> Result<Report> {
        uniqcheck::check::check(self, text, format, opts)
    }

    /// [`Store::check`](StoreOf::check) for a draft already analysed with
    /// [`Store::params`](StoreOf::params) ([`uniqcheck::check::check_document`]).
    pub fn check_document(&self, draft: &Document, opts: &CheckOptions) -> Result<Report> {
        uniqcheck::check::check_document(self, draft, opts)
    }

    /// Calls `f` with every document's record number and record (its identity filled in: id,
    /// url, title), in id order, reading one row at a time, from one snapshot of the store.
    pub fn for_each_record<E: From<StoreError>>(
        &self,
        mut f: impl FnMut(u64, Record) -> Result<(), E>,
    ) -> Result<(), E> {
        self.db.all_records(|row, rev| {
            let record = self.decode(&row)?;
            f(rev as u64, record)
        })
    }

    /// Decodes a record read from the store, its identity filled in from its row;
    /// [`StoreError::Damaged`], naming the document, when it does not decode.
    pub(crate) fn decode(&self, row: &RecordRow<'_>) -> Result<Record> {
        let mut record =
            Record::decode(row.record, &self.params).map_err(|e| StoreError::Damaged {
                path: self.db.name().to_owned(),
                id: row.id,
                url: row.url.to_owned(),
                why: e.to_string(),
            })?;
        record.info = SourceInfo {
            id: row.id.to_string(),
            url: row.url.to_owned(),
            title: row.title.to_owned(),
        };
        Ok(record)
    }
}
