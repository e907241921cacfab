//! A fixed-size, direct-mapped cache: surface form of a word → its canonical result.
//!
//! Stemming dominates canonicalization and word frequencies are Zipfian, so remembering results
//! pays; but documents (posts, drafts) are mostly too short for a per-call cache to warm up, so
//! the cache is shared by all calls on a thread. A hash map keyed by heap strings was tried and
//! measured slower than no cache on large inputs: every lookup of a big table costs cache misses
//! for the control bytes, the bucket and the key behind its pointer. Here a lookup touches one
//! 48-byte slot holding the key inline; a collision simply overwrites the slot, which keeps the
//! frequent words resident (they come back before long) and bounds memory at 1.5 MB per thread.
//! Words longer than [`KEY`] bytes are not cached (they are rare and usually unique).
//!
//! The result of a word depends on nothing but the word, so the cache cannot change any output.

use super::fold::{Entry, WordCanon};

/// Longest cached word in bytes (17 Cyrillic letters, 34 ASCII ones).
const KEY: usize = 34;
/// Number of slots (a power of two).
const SLOTS: usize = 1 << 15;

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

/// The per-thread word cache.
pub(crate) struct WordCache {
    slots: Vec<Slot>,
}

impl WordCache {
    pub(crate) const fn new() -> Self {
        Self { slots: Vec::new() }
    }

    /// The canonical result of `word`, from the cache or computed by `canon` (and remembered).
    #[inline]
    pub(crate) fn get(&mut self, word: &str, stemming: bool, canon: &mut WordCanon) -> Entry {
        let k = word.as_bytes();
        if k.len() > KEY {
            return canon.entry(word, stemming);
        }
        if self.slots.is_empty() {
            self.slots = vec![EMPTY; SLOTS];
        }
        let slot = &mut self.slots[hash(k) & (SLOTS - 1)];
        if usize::from(slot.len) == k.len()
            && slot.key[..k.len()] == *k
            && (!stemming || slot.flags & HAS_STEM != 0)
        {
            return slot.entry();
        }
        let e = canon.entry(word, stemming);
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
