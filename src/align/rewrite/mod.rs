//! Rewrites: passages of a draft written from a source with their words swapped, reordered,
//! merged, split or shortened, found sentence by sentence.
//!
//! Shingles find copies: a rewrite keeps few runs of four content words, but a rewritten sentence
//! keeps much of its source sentence's vocabulary. This is the seed–extend–filter scheme of the
//! PAN 2014 text-alignment winner (Sanchez-Perez, Gelbukh, Sidorov, "Adaptive Algorithm for
//! Plagiarism Detection", CLEF 2015), on the engine's content words (stemmed, stop words out,
//! folded to 16 bits as records keep them), so it runs alike against a full text and a record:
//!
//! 1. **Sentences**: the texts' sentences ([`crate::Document::sentences`]); one of fewer than
//!    [`crate::sentences::MIN_SENTENCE_WORDS`] content words joins the next.
//! 2. **Seeds**: sentence pairs whose tf-isf vectors (term frequency × log of the pair's sentence
//!    count over the sentences holding the term, both texts together) have cosine above
//!    `cos` and whose word sets have Dice above `dice`.
//! 3. **Extension**: seeds are clustered by alternately splitting them, on the draft side and on
//!    the source side, wherever more than `gap` sentences separate neighbours, until nothing
//!    splits; a cluster is a passage pair from its first to its last sentence on each side. A
//!    passage pair whose summed vectors have cosine at most `validate` is clustered again with a
//!    gap one smaller, down to 0.
//! 4. **Filtering**: of passages overlapping on the draft side, the more similar stays; a passage
//!    shorter than `min_words` content words on either side goes.
//! 5. **Summaries**: the extension runs again with the summary gap; when those passages' source
//!    sides are at least [`SUMMARY_RATIO`] times longer than their draft sides, the draft
//!    summarizes the source and the summary passages are the answer.
//!
//! Cost: linear in the two texts plus, for each draft sentence, one sparse dot product per source
//! sentence sharing with it a term that at most [`MAX_SENTENCES_PER_TERM`] source sentences hold;
//! O(seeds log seeds) to cluster.

mod fast;
mod passages;
mod reference;
#[cfg(test)]
mod tests;

// The stages' files share this module's types and each other's items: one family of private
// items, split by what each part does, not an API between them.
use self::passages::*;
use self::reference::*;
use super::probe::Vocabulary;
use super::seeds::Match;
use super::words::{Numbered as NumberedWords, Words};
use crate::hash::PrehashedMap;
use std::ops::Range;

pub(crate) use self::fast::DraftSentences;

/// A term held by more source sentences than this does not make a sentence pair a candidate
/// seed on its own (it still weighs in the pair's cosine): a text that repeats itself is then
/// checked in linear time. PAN 2013 training gives the same figures with 32, 64 and unbounded.
pub const MAX_SENTENCES_PER_TERM: usize = 64;
/// A draft sentence inside a detection is shown as rewritten when the detection's source passage
/// holds at least this share of its distinct content words, in percent.
pub const REWRITTEN_SHARE: usize = 40;
/// ... and at least this many of them: two words a short sentence of the writer's own shares
/// with the passage (the topic's words, a name) are no evidence of its own that it was rewritten.
pub const REWRITTEN_MIN_WORDS: usize = 3;
/// The draft summarizes the source when the summary passages' source sides hold this many times
/// the content words of their draft sides (the PAN 2014 winner's heuristic, on characters).
pub const SUMMARY_RATIO: usize = 3;

/// The thresholds of rewrite detection (defaults from the PAN 2014 winner; docs/EVALUATION.md
/// says how each was checked on the PAN 2013 training corpus).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RewriteOptions {
    /// A seed's sentence pair must have tf-isf cosine above this.
    pub cos: f64,
    /// ... and Dice over the two word sets above this.
    pub dice: f64,
    /// A passage pair must have tf-isf cosine above this, summed over its sentences.
    pub validate: f64,
    /// Largest run of sentences without a seed, on either side, inside one passage.
    pub gap: usize,
    /// The same for summaries: a summary's sentences each condense several of the source's.
    pub summary_gap: usize,
    /// A passage needs at least this many content words on each side: 20, about 230 characters
    /// (the PAN 2014 winner kept 150): same-topic texts share a similar sentence now and then,
    /// two or three of them seldom. On PAN 2013 training 12 flagged 1.9 % of the no-reuse pairs,
    /// 20 flags 0.9 % (7 of those 9 by copies alone) for 0.015 less on random obfuscation.
    pub min_words: usize,
    /// A sentence pair below the seed thresholds but with tf-isf cosine above this ...
    pub weak_cos: f64,
    /// ... and Dice above this is a weak pair: a seed only on a chain ([`RewriteOptions::chain`]).
    pub weak_dice: f64,
    /// Weak pairs become seeds when at least this many pairs (weak ones or seeds) follow each
    /// other in order on both sides, each at most [`RewriteOptions::chain_step`] sentences after
    /// the previous: a paraphrase restates its source sentence after sentence, while texts on
    /// one topic share a similar sentence here and there, seldom several in the same order.
    /// 0: no chains. Chosen on PAN 2013 training and the tuning set `eval/data/today`
    /// (docs/EVALUATION.md, "Chains of weak pairs").
    pub chain: usize,
    /// The largest step of a chain, in sentences, on each side (1: consecutive sentences).
    pub chain_step: usize,
}

impl Default for RewriteOptions {
    fn default() -> Self {
        RewriteOptions {
            cos: 0.33,
            dice: 0.33,
            validate: 0.34,
            gap: 4,
            summary_gap: 24,
            min_words: 20,
            weak_cos: 0.2,
            weak_dice: 0.15,
            chain: 4,
            chain_step: 2,
        }
    }
}

impl RewriteOptions {
    /// The lowest Dice a pair can have and still count (as a seed or a weak pair).
    pub(crate) fn dice_floor(&self) -> f64 {
        if self.chain > 0 {
            self.dice.min(self.weak_dice)
        } else {
            self.dice
        }
    }

    /// Whether a pair of this cosine and Dice is a seed (`Some(true)`), a weak pair
    /// (`Some(false)`) or neither.
    pub(crate) fn pair(&self, cos: f64, dice: f64) -> Option<bool> {
        if cos > self.cos && dice > self.dice {
            Some(true)
        } else if self.chain > 0 && cos > self.weak_cos && dice > self.weak_dice {
            Some(false)
        } else {
            None
        }
    }
}

/// A text's sentences as term counts, terms as they are (folded word hashes): what rewrite
/// detection needs of one side, made once per text ([`Sentences::new`]) however many texts it
/// is compared with.
#[derive(Debug, Clone, Default)]
pub struct Sentences {
    /// Content-word range of each sentence ([`sentences`]).
    ranges: Vec<Range<usize>>,
    /// Every sentence's distinct terms with their counts, ascending: sentence `i` holds
    /// `terms[at[i]..at[i + 1]]`.
    terms: Vec<(u32, u32)>,
    at: Vec<usize>,
    /// The text's largest term.
    max: u32,
}

impl Sentences {
    /// Counts the terms of each sentence of `words`.
    pub fn new(words: &Words) -> Sentences {
        let ranges = crate::sentences::ranges(&words.sentences, words.hashes.len());
        let mut terms: Vec<(u32, u32)> = Vec::with_capacity(words.hashes.len());
        let mut at = Vec::with_capacity(ranges.len() + 1);
        let longest = ranges.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut sorted: Vec<u32> = Vec::with_capacity(longest);
        for r in &ranges {
            let open = terms.len();
            at.push(open);
            sorted.clear();
            sorted.extend_from_slice(&words.hashes[r.clone()]);
            sorted.sort_unstable();
            for &t in &sorted {
                match terms[open..].last_mut() {
                    Some((last, c)) if *last == t => *c += 1,
                    _ => terms.push((t, 1)),
                }
            }
        }
        at.push(terms.len());
        let max = words.hashes.iter().copied().max().unwrap_or(0);
        Sentences {
            ranges,
            terms,
            at,
            max,
        }
    }

    /// Content words of the text (the end of its last sentence).
    fn words(&self) -> usize {
        self.ranges.last().map_or(0, |r| r.end)
    }

    /// Sentence `i`'s distinct terms with their counts, ascending.
    fn sentence(&self, i: usize) -> &[(u32, u32)] {
        &self.terms[self.at[i]..self.at[i + 1]]
    }
}

/// The rewritten passages of `draft` in `source`, as content-word ranges on both sides (`seeds`
/// counts the seed sentence pairs behind each).
///
/// # Example
/// ```
/// use uniqcheck::align::{rewrite::{rewrites, RewriteOptions}, Words};
/// // Two sentences of five words; the draft reorders the source's first sentence.
/// let source = Words::from_hashes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4).with_sentences(vec![0, 5]);
/// let draft = Words::from_hashes(&[5, 3, 1, 4, 2, 20, 21, 22, 23, 24], 4).with_sentences(vec![0, 5]);
/// let found = rewrites(&draft, &source, &RewriteOptions { min_words: 5, ..Default::default() });
/// assert_eq!((found[0].draft.clone(), found[0].source.clone()), (0..5, 0..5));
/// ```
pub fn rewrites(draft: &Words, source: &Words, opts: &RewriteOptions) -> Vec<Match> {
    rewrites_of(&Sentences::new(draft), &Sentences::new(source), opts)
}

/// [`rewrites`] of two texts' [`Sentences`].
pub fn rewrites_of(draft: &Sentences, source: &Sentences, opts: &RewriteOptions) -> Vec<Match> {
    // A passage needs `min_words` content words on each side: a text with fewer has none.
    if draft.terms.is_empty()
        || source.terms.is_empty()
        || draft.words() < opts.min_words
        || source.words() < opts.min_words
    {
        return Vec::new();
    }
    let (d, s, terms) = numbered(draft, source);
    let w = Weights::new(&d, &s, terms);
    let seeds = seeds(&d, &s, &w, opts);
    if seeds.is_empty() {
        return Vec::new();
    }
    let vectors = Numbered {
        draft: &d,
        source: &s,
        w,
    };
    passages(seeds, d.ranges, s.ranges, vectors, opts)
}

/// Detections from both kinds of evidence: each rewritten passage that overlaps a copy's
/// detection on both sides widens it (the copy was part of a reworded passage), any other is a
/// detection of its own; of detections still overlapping on the draft side, the longer stays.
pub fn combine(copies: Vec<Match>, passages: &[Match]) -> Vec<Match> {
    let overlaps = |a: &Range<usize>, b: &Range<usize>| a.start < b.end && b.start < a.end;
    let mut all = copies;
    for p in passages {
        let mut joined = false;
        for d in all.iter_mut() {
            if overlaps(&d.draft, &p.draft) && overlaps(&d.source, &p.source) {
                d.draft = d.draft.start.min(p.draft.start)..d.draft.end.max(p.draft.end);
                d.source = d.source.start.min(p.source.start)..d.source.end.max(p.source.end);
                joined = true;
            }
        }
        if !joined {
            all.push(p.clone());
        }
    }
    all.sort_by_key(|m| (std::cmp::Reverse(m.draft.len()), m.draft.start));
    let mut kept: Vec<Match> = Vec::with_capacity(all.len());
    for m in all {
        if kept.iter().all(|k| !overlaps(&k.draft, &m.draft)) {
            kept.push(m);
        }
    }
    kept.sort_by_key(|m| (m.draft.start, m.source.start));
    kept
}

/// The parts of `detections` that a reader should see as rewritten: the draft sentences inside
/// each detection whose distinct content words the detection's source passage holds for at least
/// [`REWRITTEN_SHARE`] of them and at least [`REWRITTEN_MIN_WORDS`], clipped to the detection and
/// joined where they touch, each with the detection's source passage. A sentence of the writer's
/// own that a detection spans between two reused ones (a detection joins its pieces over a few
/// sentences) or reaches past a copy's end shares only the topic's words, and is not marked.
pub fn rewritten(draft: &Words, source: &Words, detections: &[Match]) -> Vec<Match> {
    if detections.is_empty() {
        return Vec::new();
    }
    rewritten_in(
        &crate::sentences::ranges(&draft.sentences, draft.hashes.len()),
        draft,
        source,
        detections,
    )
}

/// [`rewritten`] with the draft's sentences ([`sentences`]) made beforehand.
pub(crate) fn rewritten_in(
    sentences: &[Range<usize>],
    draft: &Words,
    source: &Words,
    detections: &[Match],
) -> Vec<Match> {
    let mut out: Vec<Match> = Vec::new();
    let distinct = |to: &mut Vec<u32>, words: &[u32]| {
        to.clear();
        to.extend_from_slice(words);
        to.sort_unstable();
        to.dedup();
    };
    let (mut held, mut terms) = (Vec::new(), Vec::new());
    for d in detections {
        distinct(&mut held, &source.hashes[d.source.clone()]);
        let first = sentences.partition_point(|r| r.end <= d.draft.start);
        for r in sentences[first..]
            .iter()
            .take_while(|r| r.start < d.draft.end)
        {
            let r = r.start.max(d.draft.start)..r.end.min(d.draft.end);
            distinct(&mut terms, &draft.hashes[r.clone()]);
            let shared = crate::sketch::intersection_size(&terms, &held);
            if shared < REWRITTEN_MIN_WORDS || shared * 100 < terms.len() * REWRITTEN_SHARE {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.draft.end == r.start && last.source == d.source => {
                    last.draft.end = r.end;
                }
                _ => out.push(Match {
                    draft: r,
                    source: d.source.clone(),
                    seeds: d.seeds,
                }),
            }
        }
    }
    out
}
