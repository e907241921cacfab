//! The key lists in a backend: each list's runs written, read, merged, compacted and their
//! pairs removed, through the [`Storage`] and [`Transaction`] primitives; the blobs' codec and
//! the merge policy are [`crate::runs`]'s. Written once for every backend.
//!
//! Every write of a run (a batch's, a merge's, a migration's) goes through [`NewRun`]: its blobs
//! go in as its partitions fill, its row once it is finished. A merge ([`merge_runs`]) streams:
//! it reads each run [`MERGE_READ_CHUNKS`] chunks at a time, deleting each blob as it is read,
//! so memory holds a few chunks per run and the merged run reuses the pages of those it
//! replaces. Every blob read is checked ([`runs::Chunk::parse`], [`runs::parse_spill`]) and a
//! damaged one is [`StoreError::DamagedIndex`], naming its list and row id.

use uniqcheck::index::List;

use crate::backend::{BlobKind, RunInfo, Storage, Transaction};
use crate::document::Keys;
use crate::error::{Result, StoreError};
use crate::runs::{self, Pair};

/// The key lists' names, by number (0 fingerprints, 1 long words, 2 sentences; the order of a
/// `keys` blob's lists): how messages name them.
pub(crate) const LIST_NAMES: [&str; 3] = ["fingerprints", "longwords", "sentences"];

/// The number of `list`'s key list.
pub(crate) fn list_index(list: List) -> usize {
    match list {
        List::Fingerprints => 0,
        List::LongWords => 1,
        List::Sentences => 2,
    }
}

/// A document id as the runs keep it; [`StoreError::IdRange`] beyond u32.
pub(crate) fn doc_u32(db: &impl Storage, id: i64) -> Result<u32> {
    u32::try_from(id).map_err(|_| StoreError::IdRange {
        path: db.name().to_owned(),
        id,
    })
}

/// The damage of a blob of `list`'s runs, as the store's error.
pub(crate) fn damaged_index(
    db: &impl Storage,
    list: usize,
    id: i64,
    why: impl std::fmt::Display,
) -> StoreError {
    StoreError::DamagedIndex {
        path: db.name().to_owned(),
        list: LIST_NAMES[list],
        id,
        why: why.to_string(),
    }
}

/// Document `id`'s pairs in each key list, ascending, as listed by its `keys` blob: what an
/// update or a delete removes. A blob that does not decode is [`StoreError::Damaged`]: nothing
/// is removed then, since the caller's transaction is rolled back.
pub(crate) fn stored_pairs(
    db: &impl Storage,
    id: i64,
    url: &str,
    blob: &[u8],
) -> Result<[Vec<Pair>; 3]> {
    let keys = decode_keys(db, id, url, blob)?;
    let doc = doc_u32(db, id)?;
    let pairs = |list: &[u32]| list.iter().map(|&k| (k, doc)).collect();
    Ok([
        pairs(&keys.fingerprints),
        pairs(&keys.long_words),
        pairs(&keys.sentences),
    ])
}

/// Document `id`'s `keys` blob, decoded; [`StoreError::Damaged`] when it does not add up.
pub(crate) fn decode_keys(db: &impl Storage, id: i64, url: &str, blob: &[u8]) -> Result<Keys> {
    Keys::decode(blob).ok_or_else(|| StoreError::Damaged {
        path: db.name().to_owned(),
        id,
        url: url.to_owned(),
        why: "its list of index keys does not add up".into(),
    })
}

/// A pair as one number of the same order: one comparison instead of two, so a batch's pairs
/// sort faster (368,640 random pairs, a batch of 20 Newsgroups: 12-19 ms against 19-22 ms).
pub(crate) fn pair_order(pair: &Pair) -> u64 {
    u64::from(pair.0) << 32 | u64::from(pair.1)
}

/// Writes `pairs` (strictly ascending) as a new run of `list`, at the level of its size under
/// `ratio`: its chunks, its spills and its row. Nothing for no pairs.
pub(crate) fn write_run(
    tx: &impl Transaction,
    list: usize,
    ratio: u64,
    pairs: &[Pair],
) -> Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    let mut run = NewRun::new(tx, pairs.len() as u64)?;
    for &pair in pairs {
        run.push(pair)?;
    }
    run.finish(list, ratio).map(drop)
}

/// A run being written into the store, its pairs given one at a time in ascending order: its
/// blobs go in as its partitions fill ([`runs::RunWriter`]), its row once it is finished.
/// What every write of a run goes through (a batch's, a merge's, the migration's).
pub(crate) struct NewRun<'t, T> {
    tx: &'t T,
    id: i64,
    bits: u32,
    writer: runs::RunWriter,
}

impl<'t, T: Transaction> NewRun<'t, T> {
    /// A run of about `pairs` pairs: its partition bits are chosen for that many.
    pub(crate) fn new(tx: &'t T, pairs: u64) -> Result<NewRun<'t, T>> {
        let bits = runs::bits_for(pairs);
        Ok(NewRun {
            tx,
            id: tx.next_run_id()?,
            bits,
            writer: runs::RunWriter::new(bits),
        })
    }

    /// Adds `pair`, at least the last one added (an equal one is kept once).
    pub(crate) fn push(&mut self, pair: Pair) -> Result<()> {
        let (tx, id) = (self.tx, self.id);
        self.writer
            .push(pair, &mut |blob| insert_blob(tx, id, blob))
    }

    /// Writes the last blobs and the run's row in `list`, at the level of its size under
    /// `ratio` (no row for a run without pairs); returns its pairs.
    pub(crate) fn finish(self, list: usize, ratio: u64) -> Result<u64> {
        let (tx, id) = (self.tx, self.id);
        let rows = self.writer.finish(&mut |blob| insert_blob(tx, id, blob))?;
        if rows > 0 {
            let run = RunInfo {
                id,
                rows: rows as i64,
                bits: self.bits,
            };
            tx.insert_run(list, runs::size_level(rows, ratio), &run)?;
        }
        Ok(rows)
    }
}

/// One blob of run `run`: a chunk or a spilled key's documents.
fn insert_blob(tx: &impl Transaction, run: i64, blob: runs::Blob) -> Result<()> {
    match blob {
        runs::Blob::Chunk(part, data) => {
            tx.insert_blob(BlobKind::Chunk, runs::chunk_id(run, part), &data)
        }
        runs::Blob::Spill(key, data) => {
            tx.insert_blob(BlobKind::Spill, runs::spill_id(run, key), &data)
        }
    }
}

/// Deletes a run: its row, its chunks, its spills.
fn drop_run(tx: &impl Transaction, run: i64) -> Result<()> {
    let (first, last) = runs::run_ids(run);
    tx.delete_run(run)?;
    tx.delete_blobs(BlobKind::Chunk, first, last)?;
    tx.delete_blobs(BlobKind::Spill, first, last)
}

/// The damage of a run whose pairs are not its row's count.
fn miscounted(db: &impl Storage, list: usize, run: &RunInfo, read: i64) -> StoreError {
    damaged_index(
        db,
        list,
        run.id,
        format!(
            "run {} holds {} pairs, its row says {}",
            run.id, read, run.rows
        ),
    )
}

/// Every pair of a run, ascending, read chunk by chunk with its spilled keys' documents;
/// [`StoreError::DamagedIndex`] for a damaged blob or a run whose pairs are not its `rows`.
pub(crate) fn read_run(db: &impl Storage, list: usize, run: &RunInfo) -> Result<Vec<Pair>> {
    let (first, last) = runs::run_ids(run.id);
    let mut out: Vec<Pair> = Vec::with_capacity(usize::try_from(run.rows).unwrap_or(0));
    db.blob_range(BlobKind::Chunk, first, last, usize::MAX, |id, blob| {
        let chunk = runs::Chunk::parse(blob, id as u32, run.bits)
            .map_err(|e| damaged_index(db, list, id, e))?;
        let (spilled, mut pairs) = chunk.to_parts();
        for (key, count) in spilled {
            let sid = runs::spill_id(run.id, key);
            let docs = read_spill(db, list, sid, count)?;
            pairs.extend(docs.into_iter().map(|d| (key, d)));
        }
        if chunk.spilled_len() > 0 {
            pairs.sort_unstable();
        }
        out.extend(pairs);
        Ok(())
    })?;
    if out.len() as i64 != run.rows {
        return Err(miscounted(db, list, run, out.len() as i64));
    }
    Ok(out)
}

/// A spilled key's documents (`count` of them, as its chunk says).
pub(crate) fn read_spill(db: &impl Storage, list: usize, id: i64, count: u32) -> Result<Vec<u32>> {
    let blob = db
        .blob(BlobKind::Spill, id)?
        .ok_or_else(|| damaged_index(db, list, id, "a spilled key without its blob"))?;
    runs::parse_spill(&blob, count).map_err(|e| damaged_index(db, list, id, e))
}

/// The chunks a streaming merge reads of a run at a time: 32 chunks, about 64 KB, one
/// statement instead of 32.
const MERGE_READ_CHUNKS: usize = 32;

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
    fn fill(&mut self, tx: &impl Transaction, list: usize) -> Result<bool> {
        let last = runs::run_ids(self.run.id).1;
        while self.at == self.pairs.len() {
            self.pairs.clear();
            self.at = 0;
            let mut blobs: Vec<(i64, Vec<u8>)> = Vec::new();
            tx.blob_range(
                BlobKind::Chunk,
                self.next,
                last,
                MERGE_READ_CHUNKS,
                |id, blob| {
                    blobs.push((id, blob.to_vec()));
                    Ok(())
                },
            )?;
            let Some(&(end, _)) = blobs.last() else {
                if self.read != self.run.rows {
                    return Err(miscounted(tx, list, &self.run, self.read));
                }
                return Ok(false);
            };
            for (id, blob) in &blobs {
                let chunk = runs::Chunk::parse(blob, *id as u32, self.run.bits)
                    .map_err(|e| damaged_index(tx, list, *id, e))?;
                let (spilled, mut pairs) = chunk.to_parts();
                for &(key, count) in &spilled {
                    let sid = runs::spill_id(self.run.id, key);
                    let docs = read_spill(tx, list, sid, count)?;
                    pairs.extend(docs.into_iter().map(|d| (key, d)));
                    tx.delete_blobs(BlobKind::Spill, sid, sid)?;
                }
                if !spilled.is_empty() {
                    pairs.sort_unstable();
                }
                self.pairs.extend(pairs);
            }
            tx.delete_blobs(BlobKind::Chunk, self.next, end)?;
            self.next = end + 1;
            self.read += self.pairs.len() as i64;
        }
        Ok(true)
    }
}

/// Merges `merged` (runs of `list`) into one new run, its level that of its size under
/// `ratio`, and drops them: a k-way merge that reads each run a few chunks at a time and writes
/// the new run's blobs as its partitions fill ([`runs::RunWriter`]), so memory holds
/// [`MERGE_READ_CHUNKS`] chunks (and their spilled keys' documents) per run, not the runs. A
/// pair in two runs is kept once.
pub(crate) fn merge_runs(
    tx: &impl Transaction,
    list: usize,
    merged: &[RunInfo],
    ratio: u64,
) -> Result<()> {
    let total: i64 = merged.iter().map(|r| r.rows.max(0)).sum();
    let mut out = NewRun::new(tx, total as u64)?;
    let mut live: Vec<RunCursor> = Vec::with_capacity(merged.len());
    for run in merged {
        let mut cursor = RunCursor::new(*run);
        if cursor.fill(tx, list)? {
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
        if !cursor.fill(tx, list)? {
            live.swap_remove(best);
        }
    }
    out.finish(list, ratio)?;
    for run in merged {
        drop_run(tx, run.id)?;
    }
    Ok(())
}

/// Merges `list`'s runs as [`runs::plan_merge`] says until each level of size holds at most
/// one run.
pub(crate) fn compact(tx: &impl Transaction, list: usize, ratio: u64) -> Result<()> {
    loop {
        let all = tx.runs(list)?;
        let rows: Vec<u64> = all.iter().map(|r| r.rows.max(0) as u64).collect();
        let Some(merged) = runs::plan_merge(&rows, ratio) else {
            return Ok(());
        };
        let merged: Vec<RunInfo> = merged.into_iter().map(|i| all[i]).collect();
        merge_runs(tx, list, &merged, ratio)?;
    }
}

/// Removes `pairs` (ascending) from `list`'s runs: the chunks (and spills) of their keys are
/// read, filtered and rewritten, an emptied chunk, spill or run deleted. Pairs not held are
/// passed over.
pub(crate) fn remove_pairs(tx: &impl Transaction, list: usize, pairs: &[Pair]) -> Result<()> {
    if pairs.is_empty() {
        return Ok(());
    }
    for run in tx.runs(list)? {
        let ids = chunk_ids(&run, pairs.iter().map(|p| p.0));
        let mut found: Vec<(i64, Vec<u8>)> = Vec::new();
        tx.blobs(BlobKind::Chunk, &ids, |id, blob| {
            found.push((id, blob.to_vec()));
            Ok(())
        })?;
        let mut removed = 0i64;
        for (id, blob) in found {
            let chunk = runs::Chunk::parse(&blob, id as u32, run.bits)
                .map_err(|e| damaged_index(tx, list, id, e))?;
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
                let mut docs = read_spill(tx, list, sid, count)?;
                docs.retain(|d| pairs[lo..hi].binary_search(&(key, *d)).is_err());
                let gone = count as usize - docs.len();
                if gone == 0 {
                    continue;
                }
                changed = true;
                removed += gone as i64;
                entry.1 = docs.len() as u32;
                if docs.is_empty() {
                    tx.delete_blobs(BlobKind::Spill, sid, sid)?;
                } else {
                    tx.update_blob(BlobKind::Spill, sid, &runs::encode_spill(&docs))?;
                }
            }
            if !changed {
                continue;
            }
            spilled.retain(|e| e.1 > 0);
            if spilled.is_empty() && inline.is_empty() {
                tx.delete_blobs(BlobKind::Chunk, id, id)?;
            } else {
                tx.update_blob(BlobKind::Chunk, id, &runs::encode_chunk(&spilled, &inline))?;
            }
        }
        if removed == run.rows {
            drop_run(tx, run.id)?;
        } else if removed > 0 {
            tx.set_run_rows(run.id, run.rows - removed)?;
        }
    }
    Ok(())
}

/// The ids of `run`'s chunks that may hold `keys` (ascending): one per partition.
pub(crate) fn chunk_ids(run: &RunInfo, keys: impl Iterator<Item = u32>) -> Vec<i64> {
    let mut ids: Vec<i64> = Vec::new();
    for key in keys {
        let id = runs::chunk_id(run.id, runs::partition(key, run.bits));
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }
    ids
}
