//! A fixed-size, direct-mapped cache: surface form of a word → its canonical result.
//!
//! Stemming dominates canonicalization and word frequencies are Zipfian, so remembering results
//! pays; but documents (posts, drafts) are mostly too short for a per-call cache to warm up, so
//! the cache is shared by all calls on a thread. A hash map keyed by heap strings was tried and
//! measured slower than no cache on large inputs: every lookup of a big table costs cache misses
//! for the control bytes, the bucket and the key behind its pointer. Here a lookup touches one
//! 48-byte slot holding the key inline, fetched a few words ahead ([`WordCache::prefetch`]); a
//! collision simply overwrites the slot, which keeps the frequent words resident (they come back
//! before long). The table starts at [`MIN_SLOTS`] and doubles, emptied, each time it has missed
//! as many words as it has slots, up to [`MAX_SLOTS`]: a draft checked in a browser keeps it at
//! 768 KB, indexing a corpus takes it to 6 MB per thread. Words longer than [`KEY`] bytes are not
//! cached (they are rare and usually unique).
//!
//! The result of a word depends on nothing but the word, so the cache cannot change any output.

use super::fold::{Entry, WordCanon};

/// Longest cached word in bytes (17 Cyrillic letters, 34 ASCII ones).
const KEY: usize = 34;
/// Number of slots a table starts with (a power of two): 768 KB, plenty for a draft.
const MIN_SLOTS: usize = 1 << 14;
/// Number of slots a table grows to (a power of two): 6 MB, for the tens of thousands of distinct
/// words of a corpus being indexed (2^15 slots missed 11 % of the words of 20 Newsgroups posts
/// read again, 2^17 slots 5 %, and the misses cost more than the 6 MB's cache misses).
const MAX_SLOTS: usize = 1 << 17;

const HAS_STEM: u8 = 1;
const STOP: u8 = 2;

#[derive(Clone, Copy)]
struct Slot {
    key: [u8; KEY],
    /// Key length; 0 marks an empty slot (words are never empty).
    len: u8,
    flags: u8,
    plain_len: u16,
    stem_len: u16,
    plain_hash: u32,
    stem_hash: u32,
}

const EMPTY: Slot = Slot {
    key: [0; KEY],
    len: 0,
    flags: 0,
    plain_len: 0,
    stem_len: 0,
    plain_hash: 0,
    stem_hash: 0,
};

impl Slot {
    fn entry(&self) -> Entry {
        Entry {
            plain: (self.plain_hash, self.plain_len),
            stemmed: (self.flags & HAS_STEM != 0).then_some((self.stem_hash, self.stem_len)),
            stop: self.flags & STOP != 0,
        }
    }
}

/// Seeded multiply-rotate hash of a short key (only the low bits are used).
#[inline]
fn hash(b: &[u8]) -> usize {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let mut w = [0u8; 8];
    w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(23) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    // The product's high bits depend on every input bit; bring them down to the index bits.
    (h ^ (h >> 29) ^ (h >> 47)) as usize
}

/// Whether `k` (at most [`KEY`] bytes) is the key of a slot (zero beyond its length), compared
/// eight bytes at a time: a call to `memcmp` cost more than the comparison.
#[inline]
fn key_eq(key: &[u8; KEY], k: &[u8]) -> bool {
    let mut chunks = k.chunks_exact(8);
    let mut i = 0;
    for c in &mut chunks {
        if key[i..i + 8] != *c {
            return false;
        }
        i += 8;
    }
    chunks
        .remainder()
        .iter()
        .zip(&key[i..])
        .all(|(a, b)| a == b)
}

/// Where the slot of a word is, whatever the table's size ([`WordCache::slot`]); words too long
/// to cache have none.
pub(crate) type SlotIndex = u32;
const NO_SLOT: SlotIndex = u32::MAX;

/// The per-thread word cache.
pub(crate) struct WordCache {
    slots: Vec<Slot>,
    /// Misses since the table last grew.
    misses: usize,
}

impl WordCache {
    pub(crate) const fn new() -> Self {
        Self {
            slots: Vec::new(),
            misses: 0,
        }
    }

    /// Where `word` lives (a slot that may hold another word).
    #[inline]
    pub(crate) fn slot(word: &str) -> SlotIndex {
        let k = word.as_bytes();
        if k.len() > KEY {
            NO_SLOT
        } else {
            // The low bits index the table at every size, never NO_SLOT.
            (hash(k) as u32) & (MAX_SLOTS as u32 - 1)
        }
    }

    /// The table's current number of slots.
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The index in the table of slot `at` (not `NO_SLOT`).
    #[inline]
    fn index(&self, at: SlotIndex) -> usize {
        at as usize & (self.slots.len().wrapping_sub(1))
    }

    /// Asks the processor to bring slot `i` into its cache, for a lookup a few words later: the
    /// table is larger than a core's L2 cache, and waiting for a slot was the largest single
    /// cost of canonicalization. A hint only (nothing on targets without one).
    #[inline]
    pub(crate) fn prefetch(&self, i: SlotIndex) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = self.slots.get(self.index(i)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch reads nothing a program
            // can see (it never faults, whatever the address).
            unsafe { _mm_prefetch::<_MM_HINT_T0>((s as *const Slot).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// The canonical result of `word`, whose [`Self::slot`] is `at`, from the cache or computed
    /// by `canon` (and remembered).
    #[inline]
    pub(crate) fn get_at(
        &mut self,
        at: SlotIndex,
        word: &str,
        stemming: bool,
        canon: &mut WordCanon,
    ) -> Entry {
        let k = word.as_bytes();
        if at == NO_SLOT {
            return canon.entry(word, stemming);
        }
        if self.slots.is_empty() {
            self.slots = vec![EMPTY; MIN_SLOTS];
        }
        let i = self.index(at);
        let slot = &mut self.slots[i];
        if usize::from(slot.len) == k.len()
            && key_eq(&slot.key, k)
            && (!stemming || slot.flags & HAS_STEM != 0)
        {
            return slot.entry();
        }
        let e = canon.entry(word, stemming);
        self.misses += 1;
        if self.misses >= self.slots.len() && self.slots.len() < MAX_SLOTS {
            self.slots = vec![EMPTY; self.slots.len() * 2];
            self.misses = 0;
            return e;
        }
        let slot = &mut self.slots[i];
        let mut key = [0u8; KEY];
        key[..k.len()].copy_from_slice(k);
        let (stem_hash, stem_len) = e.stemmed.unwrap_or((0, 0));
        *slot = Slot {
            key,
            len: k.len() as u8,
            flags: if e.stemmed.is_some() { HAS_STEM } else { 0 } | if e.stop { STOP } else { 0 },
            plain_len: e.plain.1,
            stem_len,
            plain_hash: e.plain.0,
            stem_hash,
        };
        e
    }
}
