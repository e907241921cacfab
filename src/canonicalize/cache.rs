//! A fixed-size, 4-way set-associative cache: surface form of a word → its canonical result.
//!
//! Stemming dominates canonicalization and word frequencies are Zipfian, so remembering results
//! pays; but documents (posts, drafts) are mostly too short for a per-call cache to warm up, so
//! the cache is shared by all calls on a thread. A hash map keyed by heap strings was tried and
//! measured slower than no cache on large inputs: every lookup of a big table costs cache misses
//! for the control bytes, the bucket and the key behind its pointer. Here a word has one *set* of
//! four 48-byte slots holding their keys inline (192 bytes, three cache lines, aligned). A word
//! found in a slot moves one slot up (it swaps with the one before), and a word missing from
//! its set takes the last slot, so the frequent words settle in the first slots: the two fetched
//! a few words ahead ([`WordCache::prefetch`]), where 96 % of the lookups of the `ratio` bench's
//! posts end (89 % in the first). Four ways instead of one (direct-mapped, as before) cut the
//! misses on those 2,053 posts read again from 4.2 % of the words to 0.4 % (a simulation of both
//! policies on the same words; first in, first out gave 0.9 %), and a miss costs a stemming
//! (about half a microsecond). The table starts at [`MIN_SETS`] and doubles, keeping its words,
//! each time it has missed as many words as it has slots, up to [`MAX_SETS`]: a draft checked in
//! a browser keeps it at 768 KB, indexing a corpus takes it to 6 MB per thread. Words longer
//! than [`KEY`] bytes are not cached (they are rare and usually unique).
//!
//! Words of at most [`SHORT`] bytes (most words of English text, Russian words of up to four
//! letters) live in a second, denser table instead: one 64-byte line a set of four 16-byte slots,
//! each holding the word's bytes as one number and only the form asked for (stemmed or not, part
//! of the key), so that the sets of the frequent words fit in a core's L2 cache. In the large
//! table their lookups mostly waited for memory: the prefetch did not hide it, even with every
//! word's set prefetched a whole text ahead, and a 768 KB table (fewer waits, more stemming) cut
//! those waits by two thirds.
//!
//! WebAssembly has no prefetch instruction: there the sets of a text's words are read in one pass
//! before its lookups ([`WordCache::touch`]), with their misses in flight together.
//!
//! The result of a word depends on nothing but the word, so the cache cannot change any output.

use super::fold::{Entry, WordCanon};

/// Longest cached word in bytes (17 Cyrillic letters, 34 ASCII ones).
const KEY: usize = 34;
/// Slots per set.
const WAYS: usize = 4;
/// Number of sets a table starts with (a power of two): 768 KB, plenty for a draft.
const MIN_SETS: usize = 1 << 12;
/// Number of sets a table grows to (a power of two): 6 MB, for the tens of thousands of distinct
/// words of a corpus being indexed (2^15 direct-mapped slots missed 11 % of the words of
/// 20 Newsgroups posts read again, 2^17 slots 5 %, and the misses cost more than the 6 MB's
/// cache misses).
const MAX_SETS: usize = 1 << 15;

/// Longest word of the short table, in bytes: the word is its key, one number.
const SHORT: usize = 8;
/// Slots per set of the short table.
const SHORT_WAYS: usize = 4;
/// Sets a short table starts with: 256 KB, plenty for a draft.
const SHORT_MIN_SETS: usize = 1 << 12;
/// Sets a short table grows to: 2 MB, 131,072 words (the `ratio` bench's 2,053 posts have 56,112
/// distinct forms, of all lengths). A miss costs a stemming, more than waiting for memory: in
/// three alternating rounds 1 MB made the analysis 4 % slower, 512 KB 12 %, and 4 MB gained
/// nothing beyond the noise.
const SHORT_MAX_SETS: usize = 1 << 15;
/// Marks the set index of a short word.
const SHORT_BIT: SlotIndex = 1 << 31;

const HAS_STEM: u8 = 1;
const STOP: u8 = 2;

#[derive(Clone, Copy)]
struct Slot {
    /// The key's first 32 bytes, eight to a word, little-endian, zero beyond its length.
    key: [u64; 4],
    /// Its bytes 32 and 33.
    tail: u16,
    /// Key length; 0 marks an empty slot (words are never empty).
    len: u8,
    flags: u8,
    plain_len: u16,
    stem_len: u16,
    plain_hash: u32,
    stem_hash: u32,
}

/// The slots a word may live in, the most often found first; one set fills three cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Set {
    ways: [Slot; WAYS],
}

const EMPTY: Slot = Slot {
    key: [0; 4],
    tail: 0,
    len: 0,
    flags: 0,
    plain_len: 0,
    stem_len: 0,
    plain_hash: 0,
    stem_hash: 0,
};

const EMPTY_SET: Set = Set {
    ways: [EMPTY; WAYS],
};

/// A slot of the short table: a word of at most [`SHORT`] bytes and its canonical form, for one
/// stemming setting.
#[derive(Clone, Copy)]
struct ShortSlot {
    /// The word's bytes, little-endian, zero above them.
    key: u64,
    /// CRC32 of the canonical form.
    hash: u32,
    /// Its length in characters.
    form_len: u8,
    /// The word's length in bytes, plus [`STEMMED`] when the form is stemmed; 0 marks an empty
    /// slot.
    meta: u8,
    /// A stop word.
    stop: bool,
    _pad: u8,
}

/// [`ShortSlot::meta`]: the form is the stemmed one.
const STEMMED: u8 = 0x80;

impl Held for ShortSlot {
    fn free(&self) -> bool {
        self.meta == 0
    }

    /// At most eight bytes: one chunk, the key.
    fn hash(&self) -> usize {
        let len = usize::from(self.meta & !STEMMED);
        finish(mix(len as u64, self.key))
    }
}

/// Four slots of the short table in one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct ShortSet {
    ways: [ShortSlot; SHORT_WAYS],
}

const EMPTY_SHORT_SET: ShortSet = ShortSet {
    ways: [ShortSlot {
        key: 0,
        hash: 0,
        form_len: 0,
        meta: 0,
        stop: false,
        _pad: 0,
    }; SHORT_WAYS],
};

impl Held for Slot {
    fn free(&self) -> bool {
        self.len == 0
    }

    /// The chunks are the key's, then the tail's.
    fn hash(&self) -> usize {
        let len = usize::from(self.len);
        let chunks = self.key.iter().copied().chain([u64::from(self.tail)]);
        finish(chunks.take(len.div_ceil(8)).fold(len as u64, mix))
    }
}

impl Slot {
    fn entry(&self) -> Entry {
        Entry {
            plain: (self.plain_hash, self.plain_len),
            stemmed: (self.flags & HAS_STEM != 0).then_some((self.stem_hash, self.stem_len)),
            stop: self.flags & STOP != 0,
        }
    }
}

/// The `n` bytes (1 to 8) of `t` at `pos` as a little-endian word, zero above them: one load
/// and a mask where eight bytes can be read, which is everywhere but the last bytes of a text.
#[inline(always)]
fn chunk(t: &[u8], pos: usize, n: usize) -> u64 {
    debug_assert!((1..=8).contains(&n) && pos + n <= t.len());
    match t.get(pos..pos + 8) {
        Some(w) => {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            let v = u64::from_le_bytes(b);
            if n >= 8 {
                v
            } else {
                v & ((1u64 << (8 * n)) - 1)
            }
        }
        None => t[pos..pos + n]
            .iter()
            .rev()
            .fold(0, |v, &byte| (v << 8) | u64::from(byte)),
    }
}

/// The word `t[a..b]` (at most [`KEY`] bytes) as a slot stores it.
#[inline(always)]
fn key_of(t: &[u8], a: usize, b: usize) -> ([u64; 4], u16) {
    let len = b - a;
    let mut key = [0u64; 4];
    for (c, k) in key.iter_mut().enumerate() {
        let off = 8 * c;
        if off >= len {
            break;
        }
        *k = chunk(t, a + off, (len - off).min(8));
    }
    let tail = if len > 32 {
        chunk(t, a + 32, len - 32) as u16
    } else {
        0
    };
    (key, tail)
}

/// Seeded multiply-rotate hash of the word `t[a..b]` (at most [`KEY`] bytes; only the low bits
/// are used): [`mix`] of its eight-byte chunks.
#[inline]
fn hash(t: &[u8], a: usize, b: usize) -> usize {
    let len = b - a;
    let mut h = len as u64;
    let mut off = 0;
    while off < len {
        h = mix(h, chunk(t, a + off, (len - off).min(8)));
        off += 8;
    }
    finish(h)
}

/// One chunk of a word into [`hash`]'s state. A slot keeps its word as those chunks, so a stored
/// word's hash is computed the same way ([`Slot::hash`], [`ShortSlot::hash`]) when a table grows.
#[inline(always)]
fn mix(h: u64, chunk: u64) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    (h.rotate_left(23) ^ chunk).wrapping_mul(K)
}

/// [`hash`]'s answer from its state: the product's high bits depend on every input bit; they are
/// brought down to the index bits.
#[inline(always)]
fn finish(h: u64) -> usize {
    (h ^ (h >> 29) ^ (h >> 47)) as usize
}

/// Whether the word `t[a..b]`, as long as the slot's key, is that key: compared eight bytes at
/// a time (a call to `memcmp` cost more than the comparison).
#[inline]
fn key_eq(slot: &Slot, t: &[u8], a: usize, b: usize) -> bool {
    let len = b - a;
    for (c, &k) in slot.key.iter().enumerate() {
        let off = 8 * c;
        if off >= len {
            return true;
        }
        if k != chunk(t, a + off, (len - off).min(8)) {
            return false;
        }
    }
    len <= 32 || u64::from(slot.tail) == chunk(t, a + 32, len - 32)
}

/// Where the set of a word is, whatever the tables' sizes ([`WordCache::slot`]): a set of the short
/// table when [`SHORT_BIT`] is set; words too long to cache have none.
pub(crate) type SlotIndex = u32;
const NO_SLOT: SlotIndex = u32::MAX;

/// The per-thread word cache.
pub(crate) struct WordCache {
    sets: Vec<Set>,
    /// Misses since the table last grew.
    misses: usize,
    /// The short table, and its misses since it last grew.
    short: Vec<ShortSet>,
    short_misses: usize,
}

impl WordCache {
    pub(crate) const fn new() -> Self {
        Self {
            sets: Vec::new(),
            misses: 0,
            short: Vec::new(),
            short_misses: 0,
        }
    }

    /// Where the word `text[a..b]` lives (a set that may hold other words).
    #[inline]
    pub(crate) fn slot(text: &str, a: usize, b: usize) -> SlotIndex {
        if b - a > KEY {
            NO_SLOT
        } else {
            // The low bits index the table at every size, never NO_SLOT.
            let h = hash(text.as_bytes(), a, b) as u32;
            if b - a <= SHORT {
                SHORT_BIT | (h & (SHORT_MAX_SETS as u32 - 1))
            } else {
                h & (MAX_SETS as u32 - 1)
            }
        }
    }

    /// The table's current number of slots.
    #[cfg(test)]
    pub(crate) fn slots(&self) -> (usize, usize) {
        (self.short.len() * SHORT_WAYS, self.sets.len() * WAYS)
    }

    /// The index in the table of set `at` (not `NO_SLOT`).
    #[inline]
    fn index(&self, at: SlotIndex) -> usize {
        at as usize & (self.sets.len().wrapping_sub(1))
    }

    /// Asks the processor to bring the first two cache lines of set `i` (its first two slots)
    /// into its cache, for a lookup a few words later: the table is larger than a core's L2
    /// cache, and waiting for a slot was the largest single cost of canonicalization. Fetching
    /// all three lines of the set stalled on the processor's outstanding misses; one line was
    /// 2 % slower than two. A hint only (nothing on targets without one).
    #[inline]
    pub(crate) fn prefetch(&self, i: SlotIndex) {
        #[cfg(target_arch = "x86_64")]
        if i & SHORT_BIT != 0 && i != NO_SLOT {
            if let Some(s) = self
                .short
                .get(i as usize & self.short.len().wrapping_sub(1))
            {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                // SAFETY: as below; the line is the set's.
                unsafe { _mm_prefetch::<_MM_HINT_T0>((s as *const ShortSet).cast::<i8>()) };
            }
        } else if let Some(s) = self.sets.get(self.index(i)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = (s as *const Set).cast::<i8>();
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch reads nothing a program
            // can see (it never faults, whatever the address). Both lines are the set's.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Reads the first slot of the set of every word in `slots`, in one pass ahead of their
    /// lookups: the reads do not depend on each other, so the processor has many of the sets'
    /// misses in flight at once, where the lookups, one word after another, would wait for each
    /// in turn. For targets without a prefetch instruction (WebAssembly); see [`Self::prefetch`].
    /// In V8, `canonicalize` on 3,000 posts took 48.8 → 45.9 ms with it, the whole analysis
    /// 75.8 → 69.3 ms (`examples/throughput.rs --stages`, best of five alternated rounds).
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn touch(&self, slots: impl Iterator<Item = SlotIndex>) {
        let mut seen = 0u64;
        let (short, long) = (
            self.short.len().wrapping_sub(1),
            self.sets.len().wrapping_sub(1),
        );
        for i in slots {
            if i == NO_SLOT {
                continue;
            }
            if i & SHORT_BIT != 0 {
                if let Some(s) = self.short.get(i as usize & short) {
                    seen ^= s.ways[0].key;
                }
            } else if let Some(s) = self.sets.get(i as usize & long) {
                // The set's first two lines, as `prefetch` fetches them.
                seen ^= s.ways[0].key[0] ^ s.ways[1].key[2];
            }
        }
        std::hint::black_box(seen);
    }

    /// The canonical result of the word `text[a..b]` (a char range), whose [`Self::slot`] is
    /// `at`, from the cache or computed by `canon` (and remembered).
    #[inline]
    pub(crate) fn get_at(
        &mut self,
        at: SlotIndex,
        text: &str,
        (a, b): (usize, usize),
        stemming: bool,
        canon: &mut WordCanon,
    ) -> Entry {
        let t = text.as_bytes();
        if at == NO_SLOT {
            return canon.entry(&text[a..b], stemming);
        }
        if at & SHORT_BIT != 0 {
            return self.get_short(at, text, (a, b), stemming, canon);
        }
        if self.sets.is_empty() {
            self.sets = vec![EMPTY_SET; MIN_SETS];
        }
        let i = self.index(at);
        let set = &mut self.sets[i];
        // An empty slot has length 0, which no word has.
        let found = set
            .ways
            .iter()
            .position(|s| usize::from(s.len) == b - a && key_eq(s, t, a, b));
        if let Some(w) = found {
            if !stemming || set.ways[w].flags & HAS_STEM != 0 {
                let e = set.ways[w].entry();
                if w > 0 {
                    set.ways.swap(w - 1, w);
                }
                return e;
            }
        }
        self.miss_long(i, found, text, (a, b), stemming, canon)
    }

    /// [`Self::get_at`]'s miss: the word canonicalized and stored. Out of the lookup loop in
    /// WebAssembly (misses are rare once the cache is warm, and V8 compiles the loop better
    /// without their code): in V8 `canonicalize` took 43.8 → 42.5 ms and the sketch's work
    /// 87.8 → 85.5 ms (`examples/throughput.rs --stages`, medians of eight alternated runs).
    /// Natively inlined, as it was.
    #[cfg_attr(not(target_arch = "x86_64"), cold, inline(never))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    fn miss_long(
        &mut self,
        i: usize,
        found: Option<usize>,
        text: &str,
        (a, b): (usize, usize),
        stemming: bool,
        canon: &mut WordCanon,
    ) -> Entry {
        let t = text.as_bytes();
        let e = canon.entry(&text[a..b], stemming);
        if grow_on_miss(&mut self.sets, &mut self.misses, MAX_SETS) {
            return e;
        }
        let set = &mut self.sets[i];
        // The word found without its stem is replaced where it is; a new word takes the first
        // empty slot, or the last one.
        let w = found
            .or_else(|| set.ways.iter().position(|s| s.len == 0))
            .unwrap_or(WAYS - 1);
        let (key, tail) = key_of(t, a, b);
        let (stem_hash, stem_len) = e.stemmed.unwrap_or((0, 0));
        set.ways[w] = Slot {
            key,
            tail,
            len: (b - a) as u8,
            flags: if e.stemmed.is_some() { HAS_STEM } else { 0 } | if e.stop { STOP } else { 0 },
            plain_len: e.plain.1,
            stem_len,
            plain_hash: e.plain.0,
            stem_hash,
        };
        e
    }

    /// [`Self::get_at`] for a word of at most [`SHORT`] bytes.
    #[inline]
    fn get_short(
        &mut self,
        at: SlotIndex,
        text: &str,
        (a, b): (usize, usize),
        stemming: bool,
        canon: &mut WordCanon,
    ) -> Entry {
        if self.short.is_empty() {
            self.short = vec![EMPTY_SHORT_SET; SHORT_MIN_SETS];
        }
        let i = at as usize & (self.short.len() - 1);
        let key = chunk(text.as_bytes(), a, b - a);
        let meta = (b - a) as u8 | if stemming { STEMMED } else { 0 };
        let set = &mut self.short[i];
        if let Some(w) = set.ways.iter().position(|s| s.key == key && s.meta == meta) {
            let s = set.ways[w];
            if w > 0 {
                set.ways.swap(w - 1, w);
            }
            let form = (s.hash, u16::from(s.form_len));
            return Entry {
                plain: form,
                stemmed: stemming.then_some(form),
                stop: s.stop,
            };
        }
        self.miss_short(i, key, meta, text, (a, b), stemming, canon)
    }

    /// [`Self::get_short`]'s miss, marked as [`Self::miss_long`]; wasm-opt -O3 inlines it back
    /// (one caller), which measured the same as keeping it out (`--no-inline`).
    #[cfg_attr(not(target_arch = "x86_64"), cold, inline(never))]
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[allow(clippy::too_many_arguments)]
    fn miss_short(
        &mut self,
        i: usize,
        key: u64,
        meta: u8,
        text: &str,
        (a, b): (usize, usize),
        stemming: bool,
        canon: &mut WordCanon,
    ) -> Entry {
        let e = canon.entry(&text[a..b], stemming);
        if grow_on_miss(&mut self.short, &mut self.short_misses, SHORT_MAX_SETS) {
            return e;
        }
        let (hash, form_len) = e.form(stemming);
        // A form longer than a byte counts (an expansion by NFKC) is not remembered.
        if let Ok(form_len) = u8::try_from(form_len) {
            let set = &mut self.short[i];
            let w = set
                .ways
                .iter()
                .position(|s| s.meta == 0)
                .unwrap_or(SHORT_WAYS - 1);
            set.ways[w] = ShortSlot {
                key,
                hash,
                form_len,
                meta,
                stop: e.stop,
                _pad: 0,
            };
        }
        e
    }
}

/// A slot of either table, as [`grow_on_miss`] moves it.
trait Held: Copy {
    /// Whether it holds no word.
    fn free(&self) -> bool;
    /// [`hash`] of the word it holds.
    fn hash(&self) -> usize;
}

/// A set of either table, as [`grow_on_miss`] moves its words.
trait Ways: Copy {
    type Slot: Held;
    /// A set without words.
    const EMPTY: Self;
    fn ways(&self) -> &[Self::Slot];
    fn ways_mut(&mut self) -> &mut [Self::Slot];
}

impl Ways for Set {
    type Slot = Slot;
    const EMPTY: Self = EMPTY_SET;
    fn ways(&self) -> &[Slot] {
        &self.ways
    }
    fn ways_mut(&mut self) -> &mut [Slot] {
        &mut self.ways
    }
}

impl Ways for ShortSet {
    type Slot = ShortSlot;
    const EMPTY: Self = EMPTY_SHORT_SET;
    fn ways(&self) -> &[ShortSlot] {
        &self.ways
    }
    fn ways_mut(&mut self) -> &mut [ShortSlot] {
        &mut self.ways
    }
}

/// Counts a miss of `table` and doubles it once it has missed as many words as it has slots, up
/// to `max` sets, moving the words it holds into their sets of the larger table; returns whether
/// it grew (the word just computed is then not stored: its set was an index into the old table).
/// The one growth rule of both tables. Both are held while the words move (6 + 3 MB for the
/// large table at its largest): emptied instead, every frequent word missed again after each
/// growth, half a microsecond a stemming (docs/PERFORMANCE.md).
#[inline]
fn grow_on_miss<S: Ways>(table: &mut Vec<S>, misses: &mut usize, max: usize) -> bool {
    *misses += 1;
    let slots = table.len() * S::EMPTY.ways().len();
    if *misses < slots || table.len() >= max {
        return false;
    }
    // Each word goes to the set its hash names, in the order held (the most often found first):
    // a set's words go to two sets of the larger table that take words from no other set, so
    // each has room.
    let mut grown = vec![S::EMPTY; table.len() * 2];
    let mask = grown.len() - 1;
    for slot in table.iter().flat_map(|s| s.ways()).filter(|s| !s.free()) {
        let ways = grown[slot.hash() & mask].ways_mut();
        if let Some(free) = ways.iter_mut().find(|s| s.free()) {
            *free = *slot;
        }
    }
    *table = grown;
    *misses = 0;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys read eight bytes at a time, with and without bytes after them in the text, are the
    /// words: equal exactly when the words are, whatever their length (up to [`KEY`]).
    #[test]
    fn keys_are_the_words() {
        let words = [
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "превосходительств",
            "превосходительсте",
            "ёж",
            "abcdefghijklmnopqrstuvwxyz0123456",
            "abcdefghijklmnopqrstuvwxyz01234567",
            "abcdefghijklmnopqrstuvwxyz01234568",
        ];
        for x in words {
            for y in words {
                // `x` alone, and followed by more text (the loads then read past the word).
                for tx in [x.to_string(), format!("{x} and more text")] {
                    let (tb, yb) = (tx.as_bytes(), y.as_bytes());
                    let slot = {
                        let (key, tail) = key_of(yb, 0, yb.len());
                        Slot {
                            key,
                            tail,
                            len: yb.len() as u8,
                            ..EMPTY
                        }
                    };
                    let same = x.len() == y.len() && key_eq(&slot, tb, 0, x.len());
                    assert_eq!(same, x == y, "{x:?} {y:?}");
                    assert_eq!(key_of(tb, 0, x.len()), key_of(x.as_bytes(), 0, x.len()));
                    assert_eq!(hash(tb, 0, x.len()), hash(x.as_bytes(), 0, x.len()));
                }
            }
        }
    }

    #[test]
    fn a_set_is_three_cache_lines_and_a_short_set_one() {
        assert_eq!(std::mem::size_of::<Slot>(), 48);
        assert_eq!(std::mem::size_of::<Set>(), 192);
        assert_eq!(std::mem::align_of::<Set>(), 64);
        assert_eq!(std::mem::size_of::<ShortSlot>(), 16);
        assert_eq!(std::mem::size_of::<ShortSet>(), 64);
        assert_eq!(std::mem::align_of::<ShortSet>(), 64);
    }

    /// Words of up to [`SHORT`] bytes go to the short table, longer ones to the large one, the
    /// longest to none.
    #[test]
    fn short_words_take_the_short_table() {
        for (w, short) in [
            ("a", true),
            ("abcdefgh", true),
            ("ёжик", true),
            ("abcdefghi", false),
        ] {
            let at = WordCache::slot(w, 0, w.len());
            assert_eq!(at & SHORT_BIT != 0, short, "{w}");
            assert_ne!(at, NO_SLOT);
        }
        let long = "a".repeat(KEY + 1);
        assert_eq!(WordCache::slot(&long, 0, long.len()), NO_SLOT);
    }

    /// Five short words of one set: a word found moves up a slot, a new word replaces the last
    /// one, the stemming setting is part of the key, and every answer is the word's.
    #[test]
    fn short_words_move_up_and_the_form_asked_for_is_the_key() {
        let mut cache = WordCache::new();
        let mut canon = WordCanon::new();
        let at = SHORT_BIT | 7;
        let held = |cache: &WordCache| -> Vec<(u64, u8)> {
            let set = &cache.short[7];
            set.ways.iter().map(|s| (s.key, s.meta)).collect()
        };
        let key = |w: &str, stem: bool| {
            (
                chunk(w.as_bytes(), 0, w.len()),
                w.len() as u8 | if stem { STEMMED } else { 0 },
            )
        };
        let get = |cache: &mut WordCache, canon: &mut WordCanon, w: &str, stem: bool| {
            // Only words of at most SHORT bytes ever get a short slot ([`WordCache::slot`]).
            assert!(w.len() <= SHORT, "{w} is not a short word");
            let e = cache.get_at(at, w, (0, w.len()), stem, canon);
            let expected = canon.entry(w, stem);
            assert_eq!(e.form(stem), expected.form(stem), "{w}");
            assert_eq!(e.stop, expected.stop, "{w}");
        };
        for w in ["running", "the", "cats", "ёжик"] {
            get(&mut cache, &mut canon, w, true);
        }
        let keys = |ws: &[(&str, bool)]| ws.iter().map(|&(w, s)| key(w, s)).collect::<Vec<_>>();
        assert_eq!(
            held(&cache),
            keys(&[
                ("running", true),
                ("the", true),
                ("cats", true),
                ("ёжик", true)
            ])
        );
        get(&mut cache, &mut canon, "cats", true);
        assert_eq!(
            held(&cache),
            keys(&[
                ("running", true),
                ("cats", true),
                ("the", true),
                ("ёжик", true)
            ])
        );
        // Unstemmed, "running" is another key: a miss, which takes the last slot.
        get(&mut cache, &mut canon, "running", false);
        assert_eq!(
            held(&cache),
            keys(&[
                ("running", true),
                ("cats", true),
                ("the", true),
                ("running", false)
            ])
        );
        get(&mut cache, &mut canon, "running", false);
        assert_eq!(
            held(&cache),
            keys(&[
                ("running", true),
                ("cats", true),
                ("running", false),
                ("the", true)
            ])
        );
        assert_eq!(cache.short_misses, 5);
    }

    /// A table that grows keeps the words it held: each is found afterwards (no miss), with
    /// its own answer, and a stored word's hash is the one its text gives. Both tables.
    #[test]
    fn a_growing_table_keeps_its_words() {
        for (prefix, short) in [("w", true), ("longword", false)] {
            let mut cache = WordCache::new();
            let mut canon = WordCanon::new();
            let words: Vec<String> = (0..SHORT_MIN_SETS.max(MIN_SETS) * SHORT_WAYS.max(WAYS))
                .map(|n| format!("{prefix}{n:x}"))
                .collect();
            assert!(words.iter().all(|w| (w.len() <= SHORT) == short));
            let get = |cache: &mut WordCache, canon: &mut WordCanon, w: &str| {
                let e = cache.get_at(WordCache::slot(w, 0, w.len()), w, (0, w.len()), true, canon);
                assert_eq!(e.form(true), canon.entry(w, true).form(true), "{w}");
                assert_eq!(e.stop, canon.entry(w, true).stop, "{w}");
            };
            let size = |cache: &WordCache| {
                if short {
                    cache.short.len()
                } else {
                    cache.sets.len()
                }
            };
            let misses = |cache: &WordCache| {
                if short {
                    cache.short_misses
                } else {
                    cache.misses
                }
            };
            // Every word but the last is a miss, one short of growing.
            for w in &words[..words.len() - 1] {
                get(&mut cache, &mut canon, w);
            }
            assert_eq!(size(&cache), if short { SHORT_MIN_SETS } else { MIN_SETS });
            let held: Vec<&String> = words
                .iter()
                .filter(|w| {
                    let k = key_of(w.as_bytes(), 0, w.len());
                    if short {
                        let key = chunk(w.as_bytes(), 0, w.len());
                        let set = &cache.short
                            [WordCache::slot(w, 0, w.len()) as usize & (cache.short.len() - 1)];
                        set.ways.iter().any(|s| {
                            s.key == key
                                && s.meta != 0
                                && s.hash() == hash(w.as_bytes(), 0, w.len())
                        })
                    } else {
                        let set = &cache.sets[cache.index(WordCache::slot(w, 0, w.len()))];
                        set.ways.iter().any(|s| {
                            (s.key, s.tail) == k
                                && s.len != 0
                                && s.hash() == hash(w.as_bytes(), 0, w.len())
                        })
                    }
                })
                .collect();
            assert!(
                held.len() > words.len() / 2,
                "{} of {} held",
                held.len(),
                words.len()
            );
            get(&mut cache, &mut canon, &words[words.len() - 1]);
            assert_eq!(
                size(&cache),
                2 * if short { SHORT_MIN_SETS } else { MIN_SETS }
            );
            assert_eq!(misses(&cache), 0);
            for w in held {
                get(&mut cache, &mut canon, w);
            }
            assert_eq!(
                misses(&cache),
                0,
                "every word held before growing is found after it"
            );
        }
    }

    /// Five words of one set: a word found moves up a slot, a new word replaces the last one,
    /// and every answer is the word's.
    #[test]
    fn found_words_move_up_and_new_ones_take_the_last_slot() {
        let mut cache = WordCache::new();
        let mut canon = WordCanon::new();
        let at = 7;
        let held = |cache: &WordCache| -> Vec<u64> {
            let set = &cache.sets[cache.index(at)];
            set.ways.iter().map(|s| s.key[0]).collect()
        };
        let key = |w: &str| key_of(w.as_bytes(), 0, w.len()).0[0];
        let keys = |ws: &[&str]| ws.iter().map(|w| key(w)).collect::<Vec<_>>();
        for w in ["alpha", "beta", "gamma", "delta"] {
            let e = cache.get_at(at, w, (0, w.len()), true, &mut canon);
            assert_eq!(e.form(true), canon.entry(w, true).form(true));
        }
        assert_eq!(held(&cache), keys(&["alpha", "beta", "gamma", "delta"]));
        let e = cache.get_at(at, "gamma", (0, 5), true, &mut canon);
        assert_eq!(e.form(true), canon.entry("gamma", true).form(true));
        assert_eq!(held(&cache), keys(&["alpha", "gamma", "beta", "delta"]));
        cache.get_at(at, "epsilon", (0, 7), true, &mut canon);
        assert_eq!(held(&cache), keys(&["alpha", "gamma", "beta", "epsilon"]));
        // Found (its stem is not needed): answered from its slot, and moved up.
        let e = cache.get_at(at, "beta", (0, 4), false, &mut canon);
        assert_eq!(e.plain, canon.entry("beta", false).plain);
        assert_eq!(cache.misses, 5);
        assert_eq!(held(&cache), keys(&["alpha", "beta", "gamma", "epsilon"]));
    }
}
