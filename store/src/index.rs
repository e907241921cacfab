//! Every store as one backend of the engine's [`Index`]: a lookup reads, in one statement per
//! list, the chunk of each of the draft's key partitions in every run of the list, and
//! binary-searches them; the records of the candidates are read and decoded in batches while
//! the engine aligns the previous batch.

use std::collections::HashMap;
use uniqcheck::index::{DocId, Index, List};
use uniqcheck::pack::Record;
use uniqcheck::pair::Source;
use uniqcheck::Params;

use crate::backend::{Backend, BlobKind};
use crate::error::{Result, StoreError};
use crate::lists::{chunk_ids, damaged_index, list_index};
use crate::runs;
use crate::store::StoreOf;

/// The records [`Index::records_decoded`] reads and hands over at a time: small enough that the
/// engine's pool starts aligning soon after the candidates are known, large enough that a
/// query's own cost stays small beside its rows'.
const RECORD_BATCH: usize = 32;

/// The store as one backend of the engine's [`Index`]: each lookup is one query of the backend
/// over all of the draft's keys at once.
impl<B: Backend> Index for StoreOf<B> {
    type Error = StoreError;

    fn params(&self) -> &Params {
        StoreOf::params(self)
    }

    fn postings(
        &self,
        list: List,
        keys: &[u32],
        limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<()> {
        let db = &self.db;
        let li = list_index(list);
        let all = db.runs(li)?;
        // One chunk per (run, partition) of the draft's keys, all read by one statement.
        let mut ids: Vec<i64> = Vec::new();
        for run in &all {
            ids.extend(chunk_ids(run, keys.iter().copied()));
        }
        // Each key's documents over all runs (by its position in `keys`), the inline ones
        // found now, the spilled ones read below if the key is kept.
        let mut pairs: Vec<(usize, u32)> = Vec::new();
        let mut counts: Vec<u64> = vec![0; keys.len()];
        let mut spilled: Vec<(i64, usize, u32)> = Vec::new();
        db.blobs(BlobKind::Chunk, &ids, |id, blob| {
            let run = id >> 32;
            let Some(bits) = all.iter().find(|r| r.id == run).map(|r| r.bits) else {
                return Ok(());
            };
            let part = id as u32;
            let chunk =
                runs::Chunk::parse(blob, part, bits).map_err(|e| damaged_index(db, li, id, e))?;
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
            Ok(())
        })?;
        // Common longest words ("organization" is in 44 % of 20 Newsgroups posts) and stock
        // sentences are left out when more than `limit` documents hold them (counted over all
        // runs, their spilled documents unread); keys are rarely that common and are read whole.
        let kept = |at: usize| list == List::Fingerprints || counts[at] <= limit as u64;
        spilled.retain(|s| kept(s.1));
        if !spilled.is_empty() {
            let ids: Vec<i64> = spilled.iter().map(|s| s.0).collect();
            let mut found: HashMap<i64, Vec<u8>> = HashMap::new();
            db.blobs(BlobKind::Spill, &ids, |id, blob| {
                found.insert(id, blob.to_vec());
                Ok(())
            })?;
            for &(id, at, n) in &spilled {
                let blob = found
                    .remove(&id)
                    .ok_or_else(|| damaged_index(db, li, id, "a spilled key without its blob"))?;
                let docs = runs::parse_spill(&blob, n).map_err(|e| damaged_index(db, li, id, e))?;
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
        self.db.exact_documents(exact, docs)
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

    /// In batches of 32 records (`RECORD_BATCH`), each read by one query and decoded before the next is
    /// read: the engine aligns a batch on its pool while this thread reads the next.
    fn records_decoded(&self, ids: &[DocId], visit: &mut dyn FnMut(Vec<Record>)) -> Result<bool> {
        let mut batch: Vec<(usize, Record)> = Vec::with_capacity(RECORD_BATCH);
        for part in ids.chunks(RECORD_BATCH) {
            self.db.records(part, |row| {
                let record = self.decode(&row)?;
                // Rows come in any order (SQLite's in id order); the batch goes in the order
                // asked (rank order).
                let id = row.id as DocId;
                let at = part.iter().position(|&d| d == id).unwrap_or(usize::MAX);
                batch.push((at, record));
                Ok(())
            })?;
            batch.sort_unstable_by_key(|&(at, _)| at);
            visit(batch.drain(..).map(|(_, r)| r).collect());
        }
        Ok(true)
    }
}
