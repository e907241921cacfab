//! A draft against many sources, from the draft's side: the draft's shingles are indexed once per
//! check ([`DraftIndex`]) and each source's windows of words are looked up in that index
//! ([`Hits`]), instead of indexing every source's shingles and looking every draft shingle up in
//! them. A source then costs one pass over its words, and a window holding a word the draft does
//! not hold ([`Vocabulary`]) cannot match and is not even hashed.
//!
//! Guarantee: [`Hits::positions`] of draft shingle `i` are exactly the source positions whose
//! shingle hash equals that of draft shingle `i`, ascending: what the source's
//! [`super::ShingleIndex`] gives for that hash. So [`against_draft`] finds the fragments and
//! detections that [`super::against_words`] finds for the same two texts.

use super::chain::{chain, word_pairs, EXTENSION_N};
use super::seeds::{align_with, exact_pieces, Match};
use super::words::Words;
use crate::hash::combine;
use crate::shingle::Shingle;
use crate::{CheckOptions, Params};

/// Folded word hashes are below this ([`super::words::fold`]).
const TERMS: usize = 1 << 16;

/// Bits of the word-pair filter ([`Vocabulary::pair_held`]): 2^18 bits, 32 KiB, so that a
/// draft's thousand word pairs set under 0.4 % of them.
const PAIR_BITS: u32 = 18;

/// The filter bit of a pair of folded words.
#[inline]
fn pair_bit(a: u32, b: u32) -> usize {
    ((a << 16 | b).wrapping_mul(0x9e37_79b1) >> (32 - PAIR_BITS)) as usize
}

/// The distinct words of a text as a bitmap over folded hashes, with each word's rank among them,
/// and a filter of its pairs of consecutive words.
#[derive(Debug, Clone)]
pub(crate) struct Vocabulary {
    bits: Vec<u64>,
    /// Bit [`pair_bit`] of each pair of consecutive words is set.
    pairs: Vec<u64>,
    /// Words held in the bitmap's words before each one: the rank of its first bit.
    before: Vec<u32>,
    /// Distinct words.
    len: usize,
    /// Some word is not folded (at or above 2^16): every word counts as held, and none is ranked.
    unfolded: bool,
}

impl Vocabulary {
    /// The vocabulary of `words`.
    pub(crate) fn new(words: &[u32]) -> Vocabulary {
        let mut bits = vec![0u64; TERMS / 64];
        let mut unfolded = false;
        for &w in words {
            if (w as usize) < TERMS {
                bits[w as usize / 64] |= 1 << (w % 64);
            } else {
                unfolded = true;
            }
        }
        let mut pairs = vec![0u64; 1 << (PAIR_BITS - 6)];
        for w in words.windows(2) {
            let bit = pair_bit(w[0], w[1]);
            pairs[bit / 64] |= 1 << (bit % 64);
        }
        let mut before = Vec::with_capacity(bits.len());
        let mut len = 0u32;
        for b in &bits {
            before.push(len);
            len += b.count_ones();
        }
        Vocabulary {
            bits,
            pairs,
            before,
            len: len as usize,
            unfolded,
        }
    }

    /// Whether a word may be in the text (always, when the text has unfolded words).
    #[inline]
    pub(crate) fn holds(&self, w: u32) -> bool {
        self.unfolded || self.bit(w) != 0
    }

    /// The bitmap's bit of word `w`: 1 when `w` is one of the text's folded words, 0 otherwise
    /// (an unfolded `w` too), without a branch.
    #[inline]
    pub(crate) fn bit(&self, w: u32) -> u64 {
        let folded = u64::from(w < TERMS as u32);
        let i = w as usize & (TERMS - 1);
        (self.bits[i / 64] >> (i % 64)) & folded
    }

    /// Whether words `a`, `b` may follow each other in the text: always when they do (and when
    /// the text has unfolded words), seldom otherwise.
    #[inline]
    pub(crate) fn pair_held(&self, a: u32, b: u32) -> bool {
        let bit = pair_bit(a, b);
        self.unfolded || self.pairs[bit / 64] >> (bit % 64) & 1 != 0
    }

    /// The word's number among the text's distinct folded words, by hash (`None`: not held).
    #[inline]
    pub(crate) fn rank(&self, w: u32) -> Option<usize> {
        let w = w as usize;
        let bits = *self.bits.get(w / 64)?;
        let below = 1u64 << (w % 64);
        (bits & below != 0)
            .then(|| self.before[w / 64] as usize + (bits & (below - 1)).count_ones() as usize)
    }

    /// Number of distinct folded words.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Some word is not folded.
    pub(crate) fn unfolded(&self) -> bool {
        self.unfolded
    }
}

/// A draft's shingles of one length by hash: each distinct hash numbered (in order of first
/// appearance), and each shingle's number.
#[derive(Debug, Clone)]
pub(crate) struct ShingleTable {
    n: usize,
    /// Open addressing, linear probing: number + 1, 0 for an empty slot. Slots hold numbers
    /// only and each hash is kept once, by number, so that a long draft's table costs 4 bytes a
    /// slot, not 16.
    slots: Vec<u32>,
    /// By number: the hash.
    hashes: Vec<u64>,
    /// Number of each shingle, in text order.
    ids: Vec<u32>,
    distinct: usize,
    /// By number: the shingles (indices) with that hash, ascending,
    /// `occurrences[first[id]..first[id + 1]]`.
    first: Vec<u32>,
    occurrences: Vec<u32>,
}

impl ShingleTable {
    fn new(shingles: &[Shingle], n: usize) -> ShingleTable {
        let size = (2 * shingles.len()).next_power_of_two().max(16);
        let mut table = ShingleTable {
            n,
            slots: vec![0; size],
            hashes: Vec::new(),
            ids: Vec::with_capacity(shingles.len()),
            distinct: 0,
            first: Vec::new(),
            occurrences: Vec::new(),
        };
        let mask = size - 1;
        for s in shingles {
            let mut i = s.hash as usize & mask;
            let id = loop {
                match table.slots[i] {
                    0 => {
                        table.hashes.push(s.hash);
                        table.distinct += 1;
                        table.slots[i] = table.distinct as u32;
                        break table.distinct - 1;
                    }
                    id if table.hashes[id as usize - 1] == s.hash => break id as usize - 1,
                    _ => i = (i + 1) & mask,
                }
            };
            table.ids.push(id as u32);
        }
        table.first = vec![0; table.distinct + 1];
        for &id in &table.ids {
            table.first[id as usize + 1] += 1;
        }
        for id in 1..table.first.len() {
            table.first[id] += table.first[id - 1];
        }
        let mut fill = table.first.clone();
        table.occurrences = vec![0; table.ids.len()];
        for (i, &id) in table.ids.iter().enumerate() {
            table.occurrences[fill[id as usize] as usize] = i as u32;
            fill[id as usize] += 1;
        }
        table
    }

    /// The draft shingles (indices) with hash number `id`, ascending.
    fn occurrences(&self, id: u32) -> &[u32] {
        &self.occurrences[self.first[id as usize] as usize..self.first[id as usize + 1] as usize]
    }

    /// The number of a hash the draft holds.
    #[inline]
    fn find(&self, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match self.slots[i] {
                0 => return None,
                id if self.hashes[id as usize - 1] == hash => return Some(id - 1),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Number of distinct hashes.
    pub(crate) fn distinct(&self) -> usize {
        self.distinct
    }
}

/// A draft's pairs of consecutive folded words by the two words themselves (`a << 16 | b`),
/// each with its number in the draft's table of pair hashes: a source's pair is looked up
/// without hashing it, and the answer is exact where [`Vocabulary::pair_held`] is a filter.
///
/// Exact because [`combine`] of two folded words is injective (`combine_of_folded_pairs_is_injective`):
/// two pairs have the same hash exactly when they have the same words, so the pairs with a
/// key here are exactly the pairs whose hash the draft's table holds.
#[derive(Debug, Clone)]
struct PairMap {
    /// Open addressing, linear probing, a quarter full at most (a source's pairs are mostly
    /// absent, and an absent key then costs about one read): `key << 32 | number + 1`, 0 free.
    slots: Vec<u64>,
}

impl PairMap {
    /// The map of `words`' consecutive pairs (all folded), numbered as in `table`.
    fn new(words: &[u32], table: &ShingleTable) -> PairMap {
        let size = (4 * table.distinct).next_power_of_two().max(16);
        let mut map = PairMap {
            slots: vec![0; size],
        };
        for (i, w) in words.windows(2).enumerate() {
            let key = w[0] << 16 | w[1];
            let at = map.slot(key);
            map.slots[at] = u64::from(key) << 32 | u64::from(table.ids[i] + 1);
        }
        map
    }

    /// The slot of `key`: its own, or the free one where it would go.
    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9e37_79b1) >> 16) as usize & mask;
        loop {
            let s = self.slots[i];
            if s == 0 || (s >> 32) as u32 == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The number of the draft's pair `a`, `b` (both folded), if the draft has it.
    #[inline]
    fn get(&self, a: u32, b: u32) -> Option<u32> {
        let s = self.slots[self.slot(a << 16 | b)];
        (s != 0).then(|| s as u32 - 1)
    }
}

/// The draft's side of every pair, made once per check: its words' vocabulary, its `n`-word
/// shingles and its word pairs (the extension's shingles), by hash.
#[derive(Debug, Clone)]
pub(crate) struct DraftIndex {
    pub(crate) vocabulary: Vocabulary,
    pub(crate) shingles: ShingleTable,
    pairs: Vec<Shingle>,
    pairs_table: ShingleTable,
    /// The pairs by their words (`None`: the draft has unfolded words).
    pair_map: Option<PairMap>,
}

impl DraftIndex {
    /// Indexes `draft`'s shingles (`n` words) and word pairs.
    pub(crate) fn new(draft: &Words, n: usize) -> DraftIndex {
        let pairs = word_pairs(draft);
        let vocabulary = Vocabulary::new(&draft.hashes);
        let pairs_table = ShingleTable::new(&pairs, EXTENSION_N);
        let pair_map = (!vocabulary.unfolded()).then(|| PairMap::new(&draft.hashes, &pairs_table));
        DraftIndex {
            vocabulary,
            shingles: ShingleTable::new(&draft.shingles, n),
            pairs_table,
            pairs,
            pair_map,
        }
    }
}

/// Where a source's windows match a draft's shingles: for each draft shingle number, the source
/// positions of the same hash. Refilled for each source in the memory of the last.
#[derive(Debug, Default)]
pub(crate) struct Hits {
    /// (draft shingle number, source position), in source order.
    raw: Vec<(u32, u32)>,
    /// By draft shingle number: where its positions start in `positions`, and how many (0 for
    /// a number no window matched; only those in `found` are ever anything else).
    start: Vec<u32>,
    len: Vec<u32>,
    /// The numbers matched, in order of first match.
    found: Vec<u32>,
    positions: Vec<u32>,
    /// The draft shingles (indices) with any position, ascending.
    matched: Vec<u32>,
}

impl Hits {
    /// Looks every window of `table`'s length of `source` up in `table`, skipping those with a
    /// pair of consecutive words that `vocabulary` (the draft's) rules out: a window equal to
    /// a draft shingle has the draft's pairs.
    fn fill(&mut self, table: &ShingleTable, vocabulary: &Vocabulary, source: &[u32]) {
        self.begin(table);
        let n = table.n;
        let mut probe = |first: usize| self.probe(table, source, first);
        if n == 1 {
            for (j, &w) in source.iter().enumerate() {
                if vocabulary.holds(w) {
                    probe(j);
                }
            }
        } else if source.len() >= n {
            // Words ending at `j` whose consecutive pairs all pass the filter, in a row.
            let mut run = 1;
            for j in 1..source.len() {
                run = if vocabulary.pair_held(source[j - 1], source[j]) {
                    run + 1
                } else {
                    1
                };
                if run >= n {
                    probe(j + 1 - n);
                }
            }
        }
        self.finish(table);
    }

    /// Empties the hits, for a source looked up in `table`.
    fn begin(&mut self, table: &ShingleTable) {
        for &id in &self.found {
            self.len[id as usize] = 0;
        }
        self.found.clear();
        self.raw.clear();
        if self.len.len() < table.distinct {
            self.len.resize(table.distinct, 0);
            self.start.resize(table.distinct, 0);
        }
    }

    /// Looks the window of `source` at `first` up in `table`.
    #[inline]
    fn probe(&mut self, table: &ShingleTable, source: &[u32], first: usize) {
        if let Some(id) = table.find(combine(&source[first..first + table.n])) {
            self.hit(id, first as u32);
        }
    }

    /// Draft shingle number `id` at source position `at` (positions ascending).
    #[inline]
    fn hit(&mut self, id: u32, at: u32) {
        self.raw.push((id, at));
        self.count(id);
    }

    /// One more hit of draft shingle number `id`.
    #[inline]
    fn count(&mut self, id: u32) {
        let len = &mut self.len[id as usize];
        if *len == 0 {
            self.found.push(id);
        }
        *len += 1;
    }

    /// Counts the hits of `raw` by number: what [`Hits::hit`] counts as it goes, for hits
    /// gathered into `raw` alone ([`Hits::fill_with_pairs`]).
    fn count_raw(&mut self) {
        for i in 0..self.raw.len() {
            self.count(self.raw[i].0);
        }
    }

    /// [`Hits::fill`] of `index`'s shingles, and of its word pairs into `pairs` up to
    /// [`Hits::finish_pairs`], in one pass over `source`: each pair of consecutive words is
    /// looked up once, exactly ([`PairMap`]), and a window is hashed only when its pairs are all
    /// the draft's. False (nothing filled) when the draft has unfolded words or shingles of
    /// one word.
    fn fill_with_pairs(&mut self, pairs: &mut Hits, index: &DraftIndex, source: &[u32]) -> bool {
        let (table, n) = (&index.shingles, index.shingles.n);
        let Some(map) = index.pair_map.as_ref().filter(|_| n >= 2) else {
            return false;
        };
        self.begin(table);
        pairs.begin(&index.pairs_table);
        // The hits gathered into local vectors and counted afterwards: pushes through `self`
        // would reload the vectors at every word.
        let (mut raw, mut pair_raw) = (
            std::mem::take(&mut self.raw),
            std::mem::take(&mut pairs.raw),
        );
        // Which pairs are worth a look, 64 at a time, without a branch a word: those of two
        // words the draft holds (a pair of the draft's has two of its words: the vocabulary's
        // bitmap, smaller than the map, rules most pairs out), and those with an unfolded word
        // (looked up by hash, as any other window). Only those are then visited, so that a
        // source of words the draft mostly lacks costs no mispredicted branch a word.
        let vocabulary = &index.vocabulary;
        let flags = |w: u32| (vocabulary.bit(w), u64::from(w >= TERMS as u32));
        // Words ending at the last hit `last` whose consecutive pairs are all the draft's, in a
        // row (1 after a miss).
        let (mut run, mut last) = (1, 0);
        let (mut held, mut unfolded) = source.first().map_or((0, 0), |&w| flags(w));
        for block in (1..source.len()).step_by(64) {
            let words = &source[block..source.len().min(block + 64)];
            let mut look = 0u64;
            for (k, &w) in words.iter().enumerate() {
                let (h, u) = flags(w);
                look |= (held & h | unfolded | u) << k;
                (held, unfolded) = (h, u);
            }
            while look != 0 {
                let j = block + look.trailing_zeros() as usize;
                look &= look - 1;
                let (a, b) = (source[j - 1], source[j]);
                let id = if (a | b) >> 16 != 0 {
                    index.pairs_table.find(combine(&source[j - 1..=j]))
                } else {
                    map.get(a, b)
                };
                let Some(id) = id else { continue };
                pair_raw.push((id, j as u32 - 1));
                run = if last + 1 == j { run + 1 } else { 2 };
                last = j;
                if run >= n {
                    let first = j + 1 - n;
                    if let Some(id) = table.find(combine(&source[first..first + n])) {
                        raw.push((id, first as u32));
                    }
                }
            }
        }
        (self.raw, pairs.raw) = (raw, pair_raw);
        self.count_raw();
        self.finish(table);
        true
    }

    /// The pair hits that [`Hits::fill_with_pairs`] gathered, made ready to read.
    fn finish_pairs(&mut self, table: &ShingleTable) {
        self.count_raw();
        self.finish(table);
    }

    /// Places the hits gathered by number, for [`Hits::positions`] and [`Hits::next`].
    fn finish(&mut self, table: &ShingleTable) {
        let mut at = 0;
        for &id in &self.found {
            self.start[id as usize] = at;
            at += self.len[id as usize];
        }
        self.positions.clear();
        self.positions.resize(at as usize, 0);
        // Each number's positions in source order: `start` runs ahead while filling, then back.
        for &(id, s) in &self.raw {
            let start = &mut self.start[id as usize];
            self.positions[*start as usize] = s;
            *start += 1;
        }
        for &id in &self.found {
            self.start[id as usize] -= self.len[id as usize];
        }
        self.matched.clear();
        for &id in &self.found {
            self.matched.extend_from_slice(table.occurrences(id));
        }
        self.matched.sort_unstable();
    }

    /// `align_with`'s `next`: the first draft shingle from `k` on with any position, for
    /// ascending `k` (`at` keeps the place between calls).
    fn next(&self, at: &mut usize, k: usize) -> usize {
        while *at < self.matched.len() && (self.matched[*at] as usize) < k {
            *at += 1;
        }
        self.matched.get(*at).map_or(usize::MAX, |&i| i as usize)
    }

    /// No window matched.
    fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The source positions of draft shingle `i` (of `table`, the table filled from), ascending.
    #[inline]
    fn positions(&self, table: &ShingleTable, i: usize) -> &[u32] {
        let id = table.ids[i] as usize;
        let len = self.len[id] as usize;
        if len == 0 {
            return &[];
        }
        let start = self.start[id] as usize;
        &self.positions[start..start + len]
    }

    /// Distinct draft shingles matched.
    fn shared(&self) -> usize {
        self.found.len()
    }
}

thread_local! {
    /// The hits of the source being aligned, shingles and word pairs, refilled for each source.
    static HITS: std::cell::RefCell<(Hits, Hits)> = std::cell::RefCell::default();
    /// [`distinct_shingles`]' table of hashes (0: a free slot), and the hashes of the text's
    /// windows.
    static SEEN: std::cell::RefCell<(Vec<u64>, Vec<u64>)> = std::cell::RefCell::default();
}

/// What [`against_draft`] finds.
pub(crate) struct Probed {
    /// Highlight fragments and detections, as [`super::against_words`] gives them.
    pub(crate) fragments: Vec<Match>,
    pub(crate) detections: Vec<Match>,
    /// Draft words of the longest fragment before it was cut into word-for-word pieces: a
    /// passage copied with a word changed here and there is still one copy to chain and judge.
    pub(crate) longest: usize,
    /// Distinct draft shingles (`n` words) that the source holds.
    pub(crate) shared: usize,
}

/// The fragments and detections of `draft` (indexed in `index`) in a source whose content words
/// are `source`: those of [`super::against_words`].
pub(crate) fn against_draft(
    draft: &Words,
    index: &DraftIndex,
    source: &[u32],
    params: &Params,
    opts: &CheckOptions,
) -> Probed {
    HITS.with_borrow_mut(|(hits, pair_hits)| {
        let pairs_gathered = hits.fill_with_pairs(pair_hits, index, source);
        if !pairs_gathered {
            hits.fill(&index.shingles, &index.vocabulary, source);
        }
        // Without a matched window every draft shingle's positions are empty: no fragment.
        let fine = if hits.is_empty() {
            Vec::new()
        } else {
            let mut at = 0;
            align_with(
                &draft.shingles,
                |i| hits.positions(&index.shingles, i),
                |k| hits.next(&mut at, k),
                params.n,
                opts.gap,
            )
        };
        let extension = || {
            if pairs_gathered {
                pair_hits.finish_pairs(&index.pairs_table);
            } else {
                pair_hits.fill(&index.pairs_table, &index.vocabulary, source);
            }
            if pair_hits.is_empty() {
                return Vec::new();
            }
            let (pair_hits, mut at) = (&*pair_hits, 0);
            align_with(
                &index.pairs,
                |i| pair_hits.positions(&index.pairs_table, i),
                |k| pair_hits.next(&mut at, k),
                EXTENSION_N,
                opts.gap,
            )
        };
        let (fragments, detections) = chain(fine, extension, params, opts);
        let longest = fragments.iter().map(|f| f.draft.len()).max().unwrap_or(0);
        let positions = |i: usize| hits.positions(&index.shingles, i);
        Probed {
            fragments: exact_pieces(&fragments, positions, params.n),
            longest,
            detections,
            shared: hits.shared(),
        }
    })
}

/// Number of distinct `n`-word shingle hashes of `words` (the size of its shingle set).
pub(crate) fn distinct_shingles(words: &[u32], n: usize) -> usize {
    if n == 0 || words.len() < n {
        return 0;
    }
    let windows = words.len() + 1 - n;
    SEEN.with_borrow_mut(|(slots, hashes)| {
        // The hashes first, then the set: a long text's table is larger than the nearest cache,
        // and with every hash known, each slot is asked for a few windows ahead.
        hashes.clear();
        if n == 4 {
            hashes.extend(words.windows(4).map(|w| {
                let w: &[u32; 4] = w.try_into().expect("a window of 4 words");
                combine(w)
            }));
        } else {
            hashes.extend(words.windows(n).map(combine));
        }
        // Two thirds full at most: a long text's table is cleared and read from beyond the
        // nearest cache, and a smaller one costs fewer of those reads than the longer runs
        // of linear probing cost.
        let size = (windows + windows / 2).next_power_of_two().max(1024);
        slots.clear();
        slots.resize(size, 0);
        let mask = size - 1;
        let (mut distinct, mut zero) = (0, false);
        for (j, &hash) in hashes.iter().enumerate() {
            if let Some(&ahead) = hashes.get(j + SEEN_AHEAD) {
                prefetch(&slots[ahead as usize & mask]);
            }
            if hash == 0 {
                zero = true;
                continue;
            }
            let mut i = hash as usize & mask;
            loop {
                let slot = &mut slots[i];
                if *slot == 0 {
                    *slot = hash;
                    distinct += 1;
                    break;
                }
                if *slot == hash {
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        if slots.capacity() > 4 * size.max(1 << 16) {
            *slots = Vec::new();
            *hashes = Vec::new();
        }
        distinct + usize::from(zero)
    })
}

/// Windows looked ahead of by [`distinct_shingles`].
const SEEN_AHEAD: usize = 8;

/// Asks the processor to bring the cache line of `x` in, for a read soon: a hint only, which
/// changes no result (nothing on targets without one).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86_64 baseline, and a prefetch reads nothing a program
        // can see (it never faults, whatever the address); this one is a live reference's.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::{against_words, ShingleIndex, SourceIndex};
    use crate::sketch::shingle_set;
    use proptest::prelude::*;

    proptest! {
        /// Positions, fragments and detections from the draft's side are those of the source's
        /// shingle index; the shared and distinct counts are those of the two shingle sets.
        #[test]
        fn the_draft_side_finds_what_the_source_index_finds(
            draft in prop::collection::vec(0u32..64, 0..120),
            source in prop::collection::vec(0u32..64, 0..120),
            words in 3u32..64,
            unfolded in any::<bool>(),
        ) {
            let (params, opts) = (Params::default(), CheckOptions::default());
            // Few distinct words (dense matches) or many (sparse ones, clusters opening and
            // closing); unfolded words turn the vocabulary off.
            let word = |i: &u32| {
                let i = *i % words;
                if unfolded && i == 2 { 1 << 20 } else { i * 7919 % 65_536 }
            };
            let words = |w: &[u32]| {
                let hashes: Vec<u32> = w.iter().map(word).collect();
                Words { shingles: crate::shingle::shingles(&hashes, params.n), hashes, sentences: Vec::new() }
            };
            let (d, s) = (words(&draft), words(&source));
            let index = DraftIndex::new(&d, params.n);
            let mut hits = Hits::default();
            hits.fill(&index.shingles, &index.vocabulary, &s.hashes);
            let by_source = ShingleIndex::new(&s.shingles);
            for (i, sh) in d.shingles.iter().enumerate() {
                prop_assert_eq!(hits.positions(&index.shingles, i), by_source.positions(sh.hash));
            }
            let probed = against_draft(&d, &index, &s.hashes, &params, &opts);
            let (fragments, detections) = against_words(&d, &s, &params, &opts);
            prop_assert_eq!(probed.fragments, fragments);
            prop_assert_eq!(probed.detections, detections);
            let (ds, ss) = (
                shingle_set(d.shingles.iter().map(|x| x.hash)),
                shingle_set(s.shingles.iter().map(|x| x.hash)),
            );
            prop_assert_eq!(probed.shared, crate::sketch::intersection_size(&ds, &ss));
            prop_assert_eq!(distinct_shingles(&s.hashes, params.n), ss.len());
            prop_assert_eq!(index.shingles.distinct(), ds.len());
        }
    }

    /// [`PairMap`] is exact: [`combine`] of two folded words is injective. It hashes word by
    /// word, acc ← (acc.rotate_left(27) ^ w) · M (a bijection for each w), then a bijective
    /// finalizer; so two pairs with different first words meet only if the states after their
    /// first words differ in nothing but the 16 bits that the rotation brings to the bottom
    /// (bits 37 to 52), where the second words could cancel them. No two first words give such
    /// states.
    #[test]
    fn combine_of_folded_pairs_is_injective() {
        const M: u64 = 0x9e37_79b9_7f4a_7c15;
        let step = |acc: u64, w: u32| (acc.rotate_left(27) ^ u64::from(w)).wrapping_mul(M);
        let start = 0x243f_6a88_85a3_08d3 ^ 2;
        // The model is `combine` itself.
        for (a, b) in [
            (0, 0),
            (1, 65_535),
            (40_000, 7),
            (65_535, 65_535),
            (9, 1 << 20),
        ] {
            assert_eq!(
                combine(&[a, b]),
                crate::hash::fmix64(step(step(start, a), b))
            );
        }
        let outside = !(0xFFFFu64 << 37);
        let mut seen = std::collections::HashSet::new();
        for a in 0..1u32 << 16 {
            assert!(seen.insert(step(start, a) & outside), "first word {a}");
        }
    }

    #[test]
    fn ranks_number_the_distinct_words_in_hash_order() {
        let v = Vocabulary::new(&[500, 3, 70, 3, 65_535]);
        assert_eq!(v.len(), 4);
        let ranks: Vec<_> = [3, 70, 500, 65_535, 4, 1 << 20].map(|w| v.rank(w)).to_vec();
        assert_eq!(ranks, [Some(0), Some(1), Some(2), Some(3), None, None]);
        assert!(!v.unfolded() && !v.holds(4) && v.holds(500));
        let bits: Vec<_> = [3, 4, 500, 65_535, 1 << 16, 500 | 1 << 16]
            .map(|w| v.bit(w))
            .to_vec();
        assert_eq!(bits, [1, 0, 1, 1, 0, 0]);
        let u = Vocabulary::new(&[1 << 20]);
        assert!(u.unfolded() && u.holds(4));
    }
}
