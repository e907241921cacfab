//! Sentence stage: a text's sentences as content-word ranges, and the sentence keys every index
//! holds for them.
//!
//! Sentences are the units of rewrite detection ([`crate::align::rewrite`]) and of the keys that
//! retrieve a rewritten draft's sources ([`sentence_keys`]): one rule for both, so that a draft
//! and an index cut a text alike. A sentence runs from one sentence start
//! ([`crate::Document::sentences`]) to the next; one of fewer than [`MIN_SENTENCE_WORDS`] content
//! words joins the next.
//!
//! Guarantees: [`ranges`] cover the text's content words in order, without gaps or overlaps;
//! [`sentence_keys`] depend only on each sentence's word set (not on word or sentence order), and
//! the same words and starts give the same keys on every side (a draft, a store, packs).

use crate::hash::fmix32;
use std::ops::Range;

/// Sentences with fewer content words are joined to the next one (a heading, "Dr.", a fragment
/// cut by an abbreviation), as the PAN 2014 winner did with three words.
pub const MIN_SENTENCE_WORDS: usize = 3;

// The constants of sentence keys were chosen on the Russian rewrite benchmark's drafts checked
// through one index and on 20 Newsgroups (docs/EVALUATION.md, "Retrieval of rewrites").

/// A document's sentence keys are the pairs among its sentence's this many words whose hashes
/// are smallest under a fixed permutation (a bottom-5 MinHash of its word set: ten keys a
/// sentence), and a draft looks up two of its own: the pair of its first and second words and
/// the pair of its third and fourth ([`DRAFT_PAIRS`]). Lookups are what a check pays for (in a
/// browser each is a file, and files, not bytes, are a check's time); keys a document holds are
/// index bytes, which a sentence page of the balance's size absorbs. Two lookups into ten keys
/// keep a sentence with a share of its words changed more often than the three lookups into
/// three keys of the rule before (a bottom-3 sample, every pair on both sides): on the rewrite
/// benchmark through one index 97.9 % of sources found instead of 97.7 (synonym drafts 90.2
/// instead of 89.7), 29 of 40 of today's summaries instead of 27, with a third fewer lookups;
/// four words (six keys) found 96.9 % and 25 summaries, six words (fifteen keys) 98.1 % and 29
/// (docs/EVALUATION.md, "Retrieval of rewrites").
pub const SENTENCE_KEY_WORDS: usize = 5;

/// The pairs a draft looks up among its sentence's [`SENTENCE_KEY_WORDS`] smallest words, by
/// their places in permutation order: two disjoint pairs, so that one changed word (which can
/// take the place of at most one of them) leaves the other among the source's ten.
pub const DRAFT_PAIRS: [(usize, usize); 2] = [(0, 1), (2, 3)];

/// A sentence with fewer distinct content words has no sentence key: two words of a short
/// sentence are a stock pair, not evidence of a source, and each key is one more page a
/// browser fetches. 6 instead of 4 finds 97.7 % of the rewrite benchmark's sources instead of
/// 98.2 % (8: 97.0 %), and a check of 20 Newsgroups drafts through packs fetches 254 KB instead
/// of 316 KB (docs/EVALUATION.md, "Retrieval of rewrites", measured with the rule before). A
/// copied sentence of 8 content words has 6 distinct ones unless it repeats itself.
pub const MIN_KEY_SENTENCE_WORDS: usize = 6;

/// A sentence key held by more documents than this is a stock sentence (a header line, a
/// greeting, a formula) and finds no candidate: at [`crate::index::MAX_KEY_DOCS`] checks of newsgroup posts
/// aligned about twice as many candidates (61 s instead of 28 s for 1,883 posts) for the same
/// findings within 0.2 %.
pub const MAX_SENTENCE_KEY_DOCS: usize = 32;

/// Which side of a lookup a text is: a document every index holds, or a draft looking its
/// sources up. A document keeps every pair of its sentences' smallest words, a draft looks up
/// [`DRAFT_PAIRS`] of its own; a draft's keys are among the keys the same text has as a
/// document, so a verbatim copy always shares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A document as every index holds it: ten keys a sentence.
    Document,
    /// A draft: two keys a sentence.
    Draft,
}

/// The sentence keys of a text, from its content words folded to 16 bits as a record keeps them
/// ([`crate::align::Words::hashes`], [`crate::pack::Record::words`]) and its sentence starts, sorted and
/// distinct: per sentence ([`ranges`], short ones joined to the next)
/// with at least [`MIN_KEY_SENTENCE_WORDS`] distinct words, the [`SENTENCE_KEY_WORDS`] of them
/// whose hashes are smallest under a fixed permutation, and pairs of those as 32-bit keys: every
/// pair for a [`Side::Document`], [`DRAFT_PAIRS`] for a [`Side::Draft`]. Order-free, so a
/// sentence whose words were shuffled or which moved keeps its keys; a draft's sentence with a
/// few words changed or inserted most often shares one with its source. Every index and every draft use this one rule ([`crate::keys`]).
///
/// # Example
/// ```
/// use uniqcheck::sentences::{sentence_keys, Side};
/// // Two sentences of six content words (folded hashes); then each one's words shuffled and
/// // the two sentences swapped.
/// let text: Vec<u16> = vec![11, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 26];
/// let rewritten: Vec<u16> = vec![26, 21, 24, 22, 25, 23, 13, 16, 11, 15, 12, 14];
/// let keys = sentence_keys(&text, &[0, 6], Side::Document);
/// assert_eq!(keys.len(), 20, "ten keys a sentence");
/// assert_eq!(sentence_keys(&rewritten, &[0, 6], Side::Document), keys);
/// let lookups = sentence_keys(&rewritten, &[0, 6], Side::Draft);
/// assert_eq!(lookups.len(), 4, "two lookups a sentence");
/// assert!(lookups.iter().all(|k| keys.binary_search(k).is_ok()));
/// assert!(sentence_keys(&text[..3], &[0], Side::Document).is_empty(), "too short a sentence");
/// ```
pub fn sentence_keys<W: Copy + Into<u32>>(words: &[W], starts: &[u32], side: Side) -> Vec<u32> {
    let mut keys: Vec<u32> = sentence_keys_in_order(words, starts, side)
        .into_iter()
        .map(|(key, _)| key)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The sentence keys of [`sentence_keys`], each with the number of the sentence it is a key of
/// (among [`ranges`]), in sentence order: what tells a candidate sharing two keys of one
/// sentence from one sharing two words of two sentences by chance
/// ([`crate::index::candidates`]).
pub fn sentence_keys_in_order<W: Copy + Into<u32>>(
    words: &[W],
    starts: &[u32],
    side: Side,
) -> Vec<(u32, u32)> {
    let mut keys = Vec::new();
    let mut set: Vec<u32> = Vec::new();
    for (number, r) in ranges(starts, words.len()).into_iter().enumerate() {
        set.clear();
        set.extend(words[r].iter().map(|&h| h.into()));
        set.sort_unstable();
        set.dedup();
        if set.len() < MIN_KEY_SENTENCE_WORDS {
            continue;
        }
        // The permutation: fmix32 is a bijection, so distinct words stay distinct.
        let mut bottom = [(u32::MAX, 0u32); SENTENCE_KEY_WORDS];
        for &h in &set {
            let p = fmix32(h);
            if p < bottom[SENTENCE_KEY_WORDS - 1].0 {
                let at = bottom.partition_point(|&(q, _)| q < p);
                bottom.copy_within(at..SENTENCE_KEY_WORDS - 1, at + 1);
                bottom[at] = (p, h);
            }
        }
        let key = |i: usize, j: usize| (pair_key(bottom[i].1, bottom[j].1), number as u32);
        match side {
            Side::Document => {
                for i in 0..SENTENCE_KEY_WORDS {
                    for j in i + 1..SENTENCE_KEY_WORDS {
                        keys.push(key(i, j));
                    }
                }
            }
            Side::Draft => keys.extend(DRAFT_PAIRS.iter().map(|&(i, j)| key(i, j))),
        }
    }
    keys
}

/// The key of two folded words, the one first in permutation order first: folded hashes have 16
/// bits, so the pair is the key, and fmix32 spreads it. One function for a document's keys and a
/// translation's lookups, which must meet.
fn pair_key(first: u32, second: u32) -> u32 {
    fmix32(first << 16 ^ second)
}

/// A translated sentence's lookups are the pairs among this many of its possible words (each
/// word's translations in the source's language, and the word itself) whose hashes are smallest
/// under the sentence keys' permutation: the source sentence's [`SENTENCE_KEY_WORDS`] smallest
/// words are among the words its translation may use, so a pair of them is among these when a
/// translator chose them and few other possible words precede them. Chosen on the tuning set
/// (docs/EVALUATION.md, "Translated reuse").
pub const TRANSLATED_KEY_WORDS: usize = 8;

/// The sentence keys a translation of a sentence may share with its source, from the sentence's
/// possible words in the other language (`sets`: per sentence, folded hashes, any order), each
/// with its sentence's number: every pair among the [`TRANSLATED_KEY_WORDS`] smallest under the
/// permutation, as a document's keys pair its own ([`sentence_keys`]). A set of fewer than
/// [`MIN_KEY_SENTENCE_WORDS`] distinct words has none.
pub fn translated_keys_in_order(sets: &[Vec<u32>]) -> Vec<(u32, u32)> {
    let mut keys = Vec::new();
    for (number, set) in sets.iter().enumerate() {
        let mut ordered: Vec<(u32, u32)> = set.iter().map(|&h| (fmix32(h), h)).collect();
        ordered.sort_unstable();
        ordered.dedup();
        if ordered.len() < MIN_KEY_SENTENCE_WORDS {
            continue;
        }
        let bottom = &ordered[..ordered.len().min(TRANSLATED_KEY_WORDS)];
        for (i, a) in bottom.iter().enumerate() {
            for b in &bottom[i + 1..] {
                keys.push((pair_key(a.1, b.1), number as u32));
            }
        }
    }
    keys
}

/// Content-word ranges of the sentences starting at `starts` in a text of `len` content words,
/// short ones joined to the next: the units of rewrite detection, and of the sentence keys that
/// retrieve its sources ([`sentence_keys`]).
pub fn ranges(starts: &[u32], len: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(starts.len() + 1);
    ranges_into(starts, len, &mut out);
    out
}

/// [`ranges`] into `out` (emptied first), in the memory it has.
pub(crate) fn ranges_into(starts: &[u32], len: usize, out: &mut Vec<Range<usize>>) {
    out.clear();
    // The starts within the text, after a 0 unless they begin with one: each ends the sentence
    // before it (the first opens the text), and the text's end ends the last.
    let mut within = starts
        .iter()
        .map(|&s| s as usize)
        .filter(|&s| s < len)
        .peekable();
    within.next_if_eq(&0);
    let mut open = 0;
    for end in within {
        if end - open >= MIN_SENTENCE_WORDS {
            out.push(open..end);
            open = end;
        }
    }
    out.push(open..len);
    out.retain(|r| !r.is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// [`ranges`] streamed is the joining of short sentences it was as a list of
        /// bounds (the reference below, the implementation before).
        #[test]
        fn sentences_are_those_of_the_bounds(
            mut starts in prop::collection::vec(0u32..40, 0..12),
            len in 0usize..40,
        ) {
            starts.sort_unstable();
            let reference = {
                let mut within = starts.iter().map(|&s| s as usize).filter(|&s| s < len).peekable();
                let mut bounds = Vec::new();
                if within.peek() != Some(&0) {
                    bounds.push(0);
                }
                bounds.extend(within);
                let (mut out, mut open) = (Vec::new(), 0);
                for k in 0..bounds.len() {
                    let end = bounds.get(k + 1).copied().unwrap_or(len);
                    if end - open >= MIN_SENTENCE_WORDS || k + 1 == bounds.len() {
                        out.push(open..end);
                        open = end;
                    }
                }
                out.retain(|r| !r.is_empty());
                out
            };
            prop_assert_eq!(ranges(&starts, len), reference);
        }
    }

    #[test]
    fn short_sentences_join_the_next() {
        assert_eq!(ranges(&[0, 2, 6, 7], 10), vec![0..6, 6..10]);
        assert_eq!(ranges(&[], 4), vec![0..4]);
        assert_eq!(ranges(&[3], 5), vec![0..3, 3..5]);
    }
}
