//! The codec of the store's key runs (schema 7): a list's (key, document) pairs, sorted,
//! packed into blobs, as SQLite's own FTS5 keeps its index as segment blobs.
//!
//! A **run** is a sorted set of (key, document) pairs of one list (fingerprints, long words or
//! sentences), cut into **partitions** by the top `bits` of the key ([`bits_for`] picks `bits`
//! so that a partition holds about [`CHUNK_PAIRS`] pairs). Each non-empty partition is one
//! **chunk** blob, stored under [`chunk_id`] (`run << 32 | partition`), so all a draft's keys in
//! one run are one primary-key probe each, and a batch of 4,096 documents is a few thousand
//! blob rows instead of 380,000 B-tree rows.
//!
//! A chunk is `n` (u32), then `n` spilled keys as (key u32, documents u32), then the inline pairs
//! as (key u32, document u32); everything little-endian, fixed width, so a binary search reads
//! any pair in place (keys are random, so a delta code would save little on them; one of the
//! documents was not tried). The inline pairs are strictly ascending by (key, document). A key held
//! by more than [`SPILL_DOCS`] documents of the run is **spilled**: the chunk names it with its
//! count, and its documents are one blob of their own under [`spill_id`] (`run << 32 | key`),
//! ascending u32. So a chunk stays about [`CHUNK_PAIRS`] pairs even when a word is in half the
//! documents, and the common-key rule (a key in more than `limit` documents is left out) reads
//! the count in the chunk without the documents.
//!
//! Guarantees:
//! - **Checked on reading.** [`Chunk::parse`] and [`parse_spill`] refuse a blob whose length,
//!   order or keys are not those of a chunk of that partition (truncated, overwritten): a clear
//!   [`Damage`], never a panic, never a wrong answer from a binary search over unsorted data.
//! - **Deterministic.** [`build_run`] of the same pairs gives the same blobs; whether a key is
//!   spilled is written in the chunk, so removing documents never has to move a key back.
//! - Documents are u32: the store refuses larger ids ([`crate::StoreError::IdRange`]) rather
//!   than truncating them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The pairs a chunk holds on average: 256 pairs, 2 KB, half a 4 KB page, so a chunk is read
/// with one page and no overflow page.
pub const CHUNK_PAIRS: u64 = 256;

/// The most documents of a run a key keeps inline in its chunk; a key with more is spilled to a
/// blob of its own.
pub const SPILL_DOCS: usize = 256;

/// The most partition bits a run uses: 2^24 chunks of 256 pairs is 4 billion pairs.
pub const MAX_BITS: u32 = 24;

/// A (key, document) pair.
pub type Pair = (u32, u32);

/// What is wrong with a blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage(pub String);

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The partition bits of a run of `rows` pairs: the fewest with at most [`CHUNK_PAIRS`] pairs a
/// partition on average (at most [`MAX_BITS`]).
pub fn bits_for(rows: u64) -> u32 {
    let mut bits = 0;
    while bits < MAX_BITS && rows > CHUNK_PAIRS << bits {
        bits += 1;
    }
    bits
}

/// The partition of `key` in a run of `bits` partition bits: its top `bits` bits.
pub fn partition(key: u32, bits: u32) -> u32 {
    if bits == 0 {
        0
    } else {
        key >> (32 - bits)
    }
}

/// The keys of partition `part` of `bits` bits: `lo..=hi`.
pub fn partition_keys(part: u32, bits: u32) -> (u32, u32) {
    if bits == 0 {
        (0, u32::MAX)
    } else {
        let lo = part << (32 - bits);
        (lo, lo | (u32::MAX >> bits))
    }
}

/// The row id of a run's chunk.
pub fn chunk_id(run: i64, part: u32) -> i64 {
    run << 32 | i64::from(part)
}

/// The row id of a run's spilled key.
pub fn spill_id(run: i64, key: u32) -> i64 {
    run << 32 | i64::from(key)
}

/// The row ids of every chunk (or spill) of a run: `first..=last`.
pub fn run_ids(run: i64) -> (i64, i64) {
    (run << 32, run << 32 | 0xFFFF_FFFF)
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// A chunk, read in place: its spilled keys (key, documents) and its inline pairs.
#[derive(Debug, Clone, Copy)]
pub struct Chunk<'a> {
    spilled: &'a [u8],
    pairs: &'a [u8],
}

impl<'a> Chunk<'a> {
    /// Reads and checks a chunk of partition `part` of `bits` bits: its length, every key in the
    /// partition, the spilled keys ascending with more than zero documents, the pairs strictly
    /// ascending, no spilled key inline.
    pub fn parse(blob: &'a [u8], part: u32, bits: u32) -> Result<Chunk<'a>, Damage> {
        if blob.len() < 4 {
            return Err(Damage(format!("a chunk of {} bytes", blob.len())));
        }
        let n = u32_at(blob, 0) as usize;
        let head = n
            .checked_mul(8)
            .and_then(|h| h.checked_add(4))
            .filter(|&h| h <= blob.len() && (blob.len() - h) % 8 == 0)
            .ok_or_else(|| {
                Damage(format!(
                    "a chunk of {} bytes cannot hold {n} spilled keys and whole pairs",
                    blob.len()
                ))
            })?;
        let chunk = Chunk {
            spilled: &blob[4..head],
            pairs: &blob[head..],
        };
        // Each list is checked ascending first, in one pass over its bytes (a pair read as one
        // number, key above document); ascending, its keys are all in the partition when its
        // first and last are.
        let (lo, hi) = partition_keys(part, bits);
        let in_part = |k: u32| {
            if (lo..=hi).contains(&k) {
                Ok(())
            } else {
                Err(Damage(format!("key {k:#x} outside partition {part}")))
            }
        };
        let as_number = |p: &[u8]| u64::from(u32_at(p, 0)) << 32 | u64::from(u32_at(p, 4));
        let mut last: Option<u32> = None;
        for spilled in chunk.spilled.chunks_exact(8) {
            let (key, count) = (u32_at(spilled, 0), u32_at(spilled, 4));
            if count == 0 || last.is_some_and(|l| l >= key) {
                return Err(Damage("spilled keys out of order or empty".into()));
            }
            last = Some(key);
        }
        let mut last: Option<u64> = None;
        for pair in chunk.pairs.chunks_exact(8) {
            let pair = as_number(pair);
            if last.is_some_and(|l| l >= pair) {
                return Err(Damage("pairs out of order".into()));
            }
            last = Some(pair);
        }
        if let Some(n) = chunk.spilled_len().checked_sub(1) {
            in_part(chunk.spilled(0).0)?;
            in_part(chunk.spilled(n).0)?;
        }
        if let Some(n) = chunk.len().checked_sub(1) {
            in_part(chunk.pair(0).0)?;
            in_part(chunk.pair(n).0)?;
        }
        if chunk.is_empty() && chunk.spilled_len() == 0 {
            return Err(Damage("an empty chunk".into()));
        }
        let inline = |i| {
            let (a, b) = chunk.inline(chunk.spilled(i).0);
            a < b
        };
        if (0..chunk.spilled_len()).any(inline) {
            return Err(Damage("a spilled key also inline".into()));
        }
        Ok(chunk)
    }

    /// Inline pairs.
    pub fn len(&self) -> usize {
        self.pairs.len() / 8
    }

    /// True when no pair is inline.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Inline pair `i`.
    pub fn pair(&self, i: usize) -> (u32, u32) {
        (u32_at(self.pairs, 8 * i), u32_at(self.pairs, 8 * i + 4))
    }

    /// Spilled keys.
    pub fn spilled_len(&self) -> usize {
        self.spilled.len() / 8
    }

    /// Spilled key `i` and its count of documents.
    pub fn spilled(&self, i: usize) -> (u32, u32) {
        (u32_at(self.spilled, 8 * i), u32_at(self.spilled, 8 * i + 4))
    }

    /// The count of documents of `key` if it is spilled.
    pub fn spilled_count(&self, key: u32) -> Option<u32> {
        let (mut lo, mut hi) = (0, self.spilled_len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (k, n) = self.spilled(mid);
            match k.cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(n),
            }
        }
        None
    }

    /// The range of inline pairs of `key` (empty when it has none).
    pub fn inline(&self, key: u32) -> (usize, usize) {
        let first = |pred: &dyn Fn(u32) -> bool| {
            let (mut lo, mut hi) = (0, self.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                if pred(self.pair(mid).0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        (first(&|k| k < key), first(&|k| k <= key))
    }

    /// Every spilled key with its count, and every inline pair.
    pub fn to_parts(&self) -> (Vec<Pair>, Vec<Pair>) {
        (
            (0..self.spilled_len()).map(|i| self.spilled(i)).collect(),
            (0..self.len()).map(|i| self.pair(i)).collect(),
        )
    }
}

/// A chunk's blob: `spilled` (key, count) ascending, then `pairs` ascending.
pub fn encode_chunk(spilled: &[(u32, u32)], pairs: &[(u32, u32)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + 8 * (spilled.len() + pairs.len()));
    out.extend_from_slice(&(spilled.len() as u32).to_le_bytes());
    for &(a, b) in spilled.iter().chain(pairs) {
        out.extend_from_slice(&a.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
    }
    out
}

/// A spilled key's blob: its documents, ascending.
pub fn encode_spill(docs: &[u32]) -> Vec<u8> {
    docs.iter().flat_map(|d| d.to_le_bytes()).collect()
}

/// Reads and checks a spill blob of `count` documents (the count its chunk gives).
pub fn parse_spill(blob: &[u8], count: u32) -> Result<Vec<u32>, Damage> {
    if blob.len() != 4 * count as usize {
        return Err(Damage(format!(
            "a spilled key of {count} documents in {} bytes",
            blob.len()
        )));
    }
    let docs: Vec<u32> = (0..count as usize).map(|i| u32_at(blob, 4 * i)).collect();
    if docs.windows(2).any(|w| w[0] >= w[1]) {
        return Err(Damage("spilled documents out of order".into()));
    }
    Ok(docs)
}

/// The blobs of a run made of `pairs` (strictly ascending): its partition bits, its chunks as
/// (partition, blob) and its spilled keys as (key, blob), both ascending.
pub struct BuiltRun {
    /// Partition bits ([`bits_for`] of the pairs).
    pub bits: u32,
    /// (partition, chunk blob), ascending, non-empty partitions only.
    pub chunks: Vec<(u32, Vec<u8>)>,
    /// (key, spill blob), ascending.
    pub spills: Vec<(u32, Vec<u8>)>,
}

/// Cuts sorted, distinct `pairs` into a run's blobs ([`BuiltRun`]).
pub fn build_run(pairs: &[(u32, u32)]) -> BuiltRun {
    debug_assert!(pairs.windows(2).all(|w| w[0] < w[1]));
    written(bits_for(pairs.len() as u64), pairs.iter().copied()).0
}

/// The blobs a [`RunWriter`] of `bits` partition bits hands out for `pairs` (ascending, a repeat
/// kept once), filed by kind, with the pairs it counted ([`RunWriter::finish`]).
fn written(bits: u32, pairs: impl IntoIterator<Item = Pair>) -> (BuiltRun, u64) {
    let mut run = BuiltRun {
        bits,
        chunks: Vec::new(),
        spills: Vec::new(),
    };
    let mut writer = RunWriter::new(bits);
    let mut keep = |blob: Blob| -> Result<(), std::convert::Infallible> {
        match blob {
            Blob::Chunk(part, data) => run.chunks.push((part, data)),
            Blob::Spill(key, data) => run.spills.push((key, data)),
        }
        Ok(())
    };
    for pair in pairs {
        let Ok(()) = writer.push(pair, &mut keep);
    }
    let Ok(rows) = writer.finish(&mut keep);
    (run, rows)
}

/// A blob of a run being written: a chunk (partition, blob) or a spilled key (key, blob).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blob {
    /// A partition's chunk.
    Chunk(u32, Vec<u8>),
    /// A spilled key's documents.
    Spill(u32, Vec<u8>),
}

/// Writes a run from its pairs given one at a time, ascending, handing each blob out as soon as
/// its partition is complete: what a merge of runs too large for memory writes through. It
/// holds one partition's pairs at a time (and a spilled key's documents, which are one blob),
/// so memory is bounded by the chunk size, not the run's. The blobs are those [`build_run`]
/// makes of the same pairs with the same bits, in the same order (a partition's spills, then
/// its chunk). A pair equal to the one before is kept once.
#[derive(Debug)]
pub struct RunWriter {
    bits: u32,
    part: u32,
    pending: Vec<Pair>,
    last: Option<Pair>,
    rows: u64,
}

impl RunWriter {
    /// A writer of a run of `bits` partition bits ([`bits_for`] of the pairs it will get, or of
    /// more: a partition then holds fewer pairs, nothing else changes).
    pub fn new(bits: u32) -> RunWriter {
        RunWriter {
            bits,
            part: 0,
            pending: Vec::new(),
            last: None,
            rows: 0,
        }
    }

    /// Adds `pair`, at least the last one added; `out` gets the blobs of the partitions it
    /// completes.
    pub fn push<E>(
        &mut self,
        pair: Pair,
        out: &mut impl FnMut(Blob) -> Result<(), E>,
    ) -> Result<(), E> {
        debug_assert!(self.last.is_none_or(|l| l <= pair));
        if self.last == Some(pair) {
            return Ok(());
        }
        self.last = Some(pair);
        self.rows += 1;
        let part = partition(pair.0, self.bits);
        if part != self.part && !self.pending.is_empty() {
            self.flush(out)?;
        }
        self.part = part;
        self.pending.push(pair);
        Ok(())
    }

    /// Hands out the last partition's blobs; returns the run's pairs (0: no blob was written).
    pub fn finish<E>(mut self, out: &mut impl FnMut(Blob) -> Result<(), E>) -> Result<u64, E> {
        if !self.pending.is_empty() {
            self.flush(out)?;
        }
        Ok(self.rows)
    }

    fn flush<E>(&mut self, out: &mut impl FnMut(Blob) -> Result<(), E>) -> Result<(), E> {
        let mut spilled: Vec<(u32, u32)> = Vec::new();
        let mut inline: Vec<(u32, u32)> = Vec::with_capacity(self.pending.len());
        for group in self.pending.chunk_by(|a, b| a.0 == b.0) {
            if group.len() > SPILL_DOCS {
                let docs: Vec<u32> = group.iter().map(|p| p.1).collect();
                spilled.push((group[0].0, docs.len() as u32));
                out(Blob::Spill(group[0].0, encode_spill(&docs)))?;
            } else {
                inline.extend_from_slice(group);
            }
        }
        out(Blob::Chunk(self.part, encode_chunk(&spilled, &inline)))?;
        self.pending.clear();
        Ok(())
    }
}

/// The level of a run of `rows` pairs under the size ratio `ratio` (at least 2):
/// floor(log_ratio(rows)), so level `l` holds runs of `ratio^l` to `ratio^(l+1) - 1` pairs.
pub fn size_level(rows: u64, ratio: u64) -> u32 {
    let ratio = ratio.max(2);
    let (mut level, mut bound) = (0, ratio);
    while rows >= bound {
        level += 1;
        match bound.checked_mul(ratio) {
            Some(next) => bound = next,
            // ratio^(level+1) is beyond u64: no count reaches it.
            None => return level,
        }
    }
    level
}

/// The merge policy of a key list's runs (leveling by size): which runs (indices into `rows`,
/// the runs' pair counts, ascending) to merge into one next, or `None` when every level of
/// [`size_level`] holds at most one run. The lowest level holding two runs or more is merged,
/// with every run below it (one at most per level, all smaller). Applied after each write until
/// it says `None`, so a list keeps at most one run per level: at most `log_ratio(pairs) + 1`
/// runs, whatever the sizes of the batches (a document a batch or thousands).
///
/// Each merge rewrites each of its pairs once: a pair of a run below the merged level moves up
/// at least one level; a pair of the merged level either moves up or its run grows by at least
/// `ratio^level` pairs (the other run of its level), which it can do at most `ratio - 1` times
/// before it leaves the level. So a pair is rewritten at most `ratio` times a level, at most
/// `ratio × (log_ratio(pairs) + 1)` times in all (a few times a level on average): never the
/// quadratic rewrite of a policy by count of runs (docs/PERFORMANCE.md, "Key runs").
/// `ratio` `u64::MAX` never merges.
pub fn plan_merge(rows: &[u64], ratio: u64) -> Option<Vec<usize>> {
    if ratio == u64::MAX {
        return None;
    }
    let levels: Vec<u32> = rows.iter().map(|&r| size_level(r, ratio)).collect();
    let mut sorted = levels.clone();
    sorted.sort_unstable();
    let full = sorted.windows(2).find(|w| w[0] == w[1])?[0];
    Some((0..rows.len()).filter(|&i| levels[i] <= full).collect())
}

/// Merges ascending runs of pairs into one ascending run (a pair in two runs is kept once).
pub fn merge_sorted(runs: Vec<Vec<(u32, u32)>>) -> Vec<(u32, u32)> {
    let total = runs.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total);
    let mut heap: BinaryHeap<Reverse<(Pair, usize, usize)>> = runs
        .iter()
        .enumerate()
        .filter_map(|(r, run)| run.first().map(|&p| Reverse((p, r, 0))))
        .collect();
    while let Some(Reverse((pair, r, i))) = heap.pop() {
        if out.last() != Some(&pair) {
            out.push(pair);
        }
        // The rest of this run up to the next smallest head goes in without the heap: runs of
        // random keys interleave, but long stretches are common once one run is much larger.
        let next = heap.peek().map(|h| h.0 .0);
        let run = &runs[r];
        let mut j = i + 1;
        while j < run.len() && next.is_none_or(|n| run[j] < n) {
            out.push(run[j]);
            j += 1;
        }
        if j < run.len() {
            heap.push(Reverse((run[j], r, j)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every pair of a built run, read back through [`Chunk::parse`] and [`parse_spill`].
    fn read_back(run: &BuiltRun) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for (part, blob) in &run.chunks {
            let chunk = Chunk::parse(blob, *part, run.bits).unwrap();
            let (spilled, mut pairs) = chunk.to_parts();
            for (key, count) in spilled {
                let blob = &run.spills.iter().find(|s| s.0 == key).unwrap().1;
                pairs.extend(
                    parse_spill(blob, count)
                        .unwrap()
                        .into_iter()
                        .map(|d| (key, d)),
                );
            }
            pairs.sort_unstable();
            out.extend(pairs);
        }
        out
    }

    fn sorted(mut pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    #[test]
    fn bits_keep_chunks_near_their_size() {
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(CHUNK_PAIRS), 0);
        assert_eq!(bits_for(CHUNK_PAIRS + 1), 1);
        assert_eq!(bits_for(1000 * CHUNK_PAIRS), 10);
        assert_eq!(bits_for(u64::MAX), MAX_BITS);
        for bits in [0, 1, 7, 24] {
            for key in [0, 1, 0x8000_0000, u32::MAX, 0x1234_5678] {
                let (lo, hi) = partition_keys(partition(key, bits), bits);
                assert!(lo <= key && key <= hi, "{key:#x} {bits}");
            }
        }
        assert_eq!(chunk_id(3, 5), (3 << 32) + 5);
        let (first, last) = run_ids(3);
        assert!(first <= chunk_id(3, u32::MAX) && chunk_id(3, u32::MAX) <= last);
        assert!(chunk_id(4, 0) > last);
    }

    #[test]
    fn a_common_key_is_spilled_and_counted_in_its_chunk() {
        let mut pairs: Vec<(u32, u32)> = (0..1000).map(|d| (7, d)).collect();
        pairs.extend((0..10).map(|d| (9, d)));
        let run = build_run(&pairs);
        assert_eq!(run.spills.len(), 1);
        let chunk = Chunk::parse(&run.chunks[0].1, run.chunks[0].0, run.bits).unwrap();
        assert_eq!(chunk.spilled_count(7), Some(1000));
        assert_eq!(chunk.spilled_count(9), None);
        assert_eq!(chunk.inline(9), (0, 10));
        assert_eq!(chunk.inline(7), (0, 0));
        assert_eq!(chunk.inline(8), (0, 0));
        assert_eq!(chunk.inline(10), (10, 10));
        assert_eq!(read_back(&run), pairs);
    }

    #[test]
    fn damaged_blobs_are_refused_not_misread() {
        let pairs: Vec<(u32, u32)> = (0..300u32)
            .map(|i| (i.wrapping_mul(2_654_435_761), i))
            .collect();
        let run = build_run(&sorted(pairs));
        let (part, blob) = &run.chunks[0];
        assert!(Chunk::parse(blob, *part, run.bits).is_ok());
        // Truncated: to nothing, mid-header, mid-pair.
        for len in [0, 3, blob.len() - 3, blob.len() - 8] {
            let got = Chunk::parse(&blob[..len], *part, run.bits);
            if len == blob.len() - 8 && blob.len() > 12 {
                // One whole pair less is still a chunk: what a truncation to whole pairs gives.
                assert!(got.is_ok());
            } else {
                assert!(got.is_err(), "{len}");
            }
        }
        // A count of spilled keys beyond the blob.
        let mut bad = blob.clone();
        bad[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Chunk::parse(&bad, *part, run.bits)
            .unwrap_err()
            .0
            .contains("cannot hold"));
        // Pairs out of order, a key of another partition.
        if blob.len() >= 20 {
            let mut swapped = blob.clone();
            let (a, b) = (swapped[4..12].to_vec(), swapped[12..20].to_vec());
            swapped[4..12].copy_from_slice(&b);
            swapped[12..20].copy_from_slice(&a);
            assert!(Chunk::parse(&swapped, *part, run.bits).is_err());
        }
        if run.bits > 0 {
            assert!(Chunk::parse(blob, part ^ 1, run.bits)
                .unwrap_err()
                .0
                .contains("outside"));
        }
        // A key of another partition amid the pairs (the first and last are checked against the
        // partition, the others by order), or amid the spilled keys.
        if run.bits > 0 && blob.len() >= 36 {
            let (lo, hi) = partition_keys(*part, run.bits);
            for outside in [lo.checked_sub(1), hi.checked_add(1)].into_iter().flatten() {
                let mut bad = blob.clone();
                bad[20..24].copy_from_slice(&outside.to_le_bytes());
                assert!(Chunk::parse(&bad, *part, run.bits).is_err(), "{outside:#x}");
            }
        }
        let spilled = encode_chunk(&[(1, 2), (9, 1), (5, 3)], &[(7, 1)]);
        assert!(Chunk::parse(&spilled, 0, 0).is_err());
        assert!(Chunk::parse(&encode_chunk(&[], &[]), 0, 0).is_err());
        assert!(parse_spill(&encode_spill(&[1, 2, 3]), 3).is_ok());
        assert!(parse_spill(&encode_spill(&[1, 2, 3]), 4).is_err());
        assert!(parse_spill(&encode_spill(&[1, 3, 2]), 3).is_err());
        // A spilled key also inline.
        let both = encode_chunk(&[(5, 1)], &[(5, 1)]);
        assert!(Chunk::parse(&both, 0, 0).is_err());
    }

    /// The policy alone over `batches` (the pairs of each write): the most runs a list holds
    /// after a write's merges, and the pairs all merges rewrote.
    fn simulate(batches: impl Iterator<Item = u64>, ratio: u64) -> (usize, u64, u64) {
        let (mut rows, mut most, mut rewritten, mut total) = (Vec::new(), 0, 0, 0);
        for batch in batches {
            rows.push(batch);
            total += batch;
            while let Some(merged) = plan_merge(&rows, ratio) {
                let sum: u64 = merged.iter().map(|&i| rows[i]).sum();
                rewritten += sum;
                let mut i = 0;
                rows.retain(|_| {
                    i += 1;
                    !merged.contains(&(i - 1))
                });
                rows.push(sum);
            }
            let levels: Vec<u32> = rows.iter().map(|&r| size_level(r, ratio)).collect();
            let mut distinct = levels.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                levels.len(),
                "two runs of a level: {rows:?}"
            );
            most = most.max(rows.len());
        }
        (most, rewritten, total)
    }

    #[test]
    fn levels_by_size_bound_runs_and_rewrites_for_any_batch_sizes() {
        let mut x: u64 = 7;
        let mut next = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            x >> 33
        };
        let mixed: Vec<u64> = (0..20_000)
            .map(|_| [1, 1, 1, 100, 10_000, 400_000][next() as usize % 6])
            .collect();
        let cases: [(&str, Vec<u64>); 4] = [
            ("a million single pairs", vec![1; 1_000_000]),
            ("10,000 batches of 100", vec![100; 10_000]),
            ("mixed", mixed),
            ("244 batches of 400,000", vec![400_000; 244]),
        ];
        for ratio in [2, 4, 8, 10] {
            for (what, batches) in &cases {
                let (most, rewritten, total) = simulate(batches.iter().copied(), ratio);
                let levels = u64::from(size_level(total, ratio)) + 1;
                // One run a level at most, and each pair rewritten at most `ratio` times a level.
                assert!(most as u64 <= levels, "{what} ratio {ratio}: {most} runs");
                assert!(
                    rewritten <= ratio * levels * total,
                    "{what} ratio {ratio}: {rewritten} pairs rewritten of {total}"
                );
            }
        }
        // The default ratio on the figures docs/PERFORMANCE.md gives: a million single pairs keep
        // at most 7 runs and rewrite each pair fewer than 30 times on average; a store fed a
        // million documents of ~100 pairs one a write at most 7 runs too.
        let (most, rewritten, total) = simulate(std::iter::repeat_n(1, 1_000_000), 8);
        assert!(most <= 7 && rewritten < 30 * total, "{most} {rewritten}");
        let (most, _, _) = simulate(std::iter::repeat_n(100, 200_000), 8);
        assert!(most <= 7, "{most}");
    }

    #[test]
    fn size_levels_and_the_plan() {
        assert_eq!(size_level(0, 8), 0);
        assert_eq!(size_level(7, 8), 0);
        assert_eq!(size_level(8, 8), 1);
        assert_eq!(size_level(63, 8), 1);
        assert_eq!(size_level(64, 8), 2);
        assert_eq!(size_level(u64::MAX, 2), 63);
        assert_eq!(size_level(u64::MAX, u64::MAX - 1), 1);
        assert_eq!(size_level(5, 0), 2);
        assert_eq!(plan_merge(&[], 8), None);
        assert_eq!(plan_merge(&[1000, 100, 10], 8), None);
        // The lowest level with two runs, and the smaller run below it, never the large one.
        assert_eq!(plan_merge(&[1000, 100, 70, 3], 8), Some(vec![1, 2, 3]));
        assert_eq!(plan_merge(&[5, 3], 8), Some(vec![0, 1]));
        assert_eq!(plan_merge(&[5, 3], u64::MAX), None);
    }

    #[test]
    fn a_streamed_run_is_the_built_run() {
        let pairs: Vec<(u32, u32)> = (0..5000u32)
            .map(|i| {
                (
                    if i % 3 == 0 {
                        42
                    } else {
                        i.wrapping_mul(2_654_435_761)
                    },
                    i,
                )
            })
            .collect();
        let pairs = sorted(pairs);
        let built = build_run(&pairs);
        // Twice each, as a merge of runs sharing pairs would give them.
        let (twice, rows) = written(built.bits, pairs.iter().flat_map(|&p| [p, p]));
        assert_eq!(rows, pairs.len() as u64);
        assert_eq!(twice.chunks, built.chunks);
        assert_eq!(twice.spills, built.spills);
        assert_eq!(built.spills.len(), 1);
        // More bits than the pairs need: smaller partitions, the same pairs.
        let (wide, _) = written(built.bits + 2, pairs.iter().copied());
        assert_eq!(read_back(&wide), pairs);
    }

    proptest! {
        #[test]
        fn built_runs_read_back_as_their_pairs(
            raw in prop::collection::vec((0u32..64, 0u32..2000), 0..3000),
            spread in any::<bool>(),
        ) {
            // Few distinct keys (spills) or keys spread over the whole range (partitions).
            let pairs = sorted(raw.into_iter()
                .map(|(k, d)| (if spread { k.wrapping_mul(0x9E37_79B9) ^ d } else { k }, d))
                .collect());
            let run = build_run(&pairs);
            prop_assert_eq!(read_back(&run), pairs.clone());
            prop_assert!(run.chunks.windows(2).all(|w| w[0].0 < w[1].0));
            for (part, blob) in &run.chunks {
                let chunk = Chunk::parse(blob, *part, run.bits).unwrap();
                // Every key's range is its pairs, every other key's is empty.
                for i in 0..chunk.len() {
                    let (key, _) = chunk.pair(i);
                    let (a, b) = chunk.inline(key);
                    prop_assert!(a <= i && i < b);
                    prop_assert_eq!(b - a, pairs.iter().filter(|p| p.0 == key).count());
                }
            }
        }

        #[test]
        fn merged_runs_are_the_sorted_union(
            runs in prop::collection::vec(prop::collection::vec((0u32..500, 0u32..50), 0..300), 0..6),
        ) {
            let runs: Vec<Vec<(u32, u32)>> = runs.into_iter().map(sorted).collect();
            let all = sorted(runs.concat());
            prop_assert_eq!(merge_sorted(runs), all);
        }
    }
}
