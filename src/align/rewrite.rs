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
//!    [`MIN_SENTENCE_WORDS`] content words joins the next.
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

use super::probe::Vocabulary;
use super::seeds::Match;
use super::words::{Numbered as NumberedWords, Words};
use crate::hash::PrehashedMap;
use std::ops::Range;

/// Sentences with fewer content words are joined to the next one (a heading, "Dr.", a fragment
/// cut by an abbreviation), as the PAN 2014 winner did with three words.
pub const MIN_SENTENCE_WORDS: usize = 3;
/// A term held by more source sentences than this does not make a sentence pair a candidate
/// seed on its own (it still weighs in the pair's cosine): a text that repeats itself is then
/// checked in linear time. PAN 2013 training gives the same figures with 32, 64 and unbounded.
pub const MAX_SENTENCES_PER_TERM: usize = 64;
/// A draft sentence inside a detection is shown as rewritten when the detection's source passage
/// holds at least this share of its distinct content words, in percent.
pub const REWRITTEN_SHARE: usize = 40;
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
        let ranges = sentences(&words.sentences, words.hashes.len());
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

/// Folded word hashes are below this ([`super::words::fold`]).
const TERMS: usize = 1 << 16;

/// A draft's sentences made once per check, for many sources: their term counts
/// ([`Sentences`]) and, by term, the draft sentences holding it, so that
/// [`DraftSentences::may_seed`] rules most sources out in one pass over their words, without the
/// work of [`rewrites_of`] over both texts.
#[derive(Debug, Clone)]
pub(crate) struct DraftSentences {
    /// The draft's sentences as [`rewrites_of`] reads them.
    pub(crate) sentences: Sentences,
    vocabulary: Vocabulary,
    /// By term rank ([`Vocabulary::rank`]): the draft sentences holding the term, ascending,
    /// `holders[first[r]..first[r + 1]]`.
    first: Vec<u32>,
    holders: Vec<u32>,
}

/// [`DraftSentences::rewrites`]' working memory, kept from one source to the next. Arrays by
/// term are zero between pairs.
#[derive(Default)]
struct Prepared {
    /// The source's terms and sentences.
    source: SourceTerms,
    /// The source's words, numbered.
    numbered: NumberedWords,
    /// The source's sentences as content-word ranges ([`sentences`]), lent to each pair.
    ranges: Vec<Range<usize>>,
    /// By draft sentence: whether it shares with the source sentence at hand a term that at
    /// most [`MAX_SENTENCES_PER_TERM`] source sentences hold (a candidate pair); the
    /// candidates are listed at the start of `touched`.
    candidate: Vec<bool>,
    touched: Vec<u32>,
    /// By draft sentence: the terms it shares with the source sentence at hand (zero between
    /// source sentences; the others are listed at the start of `counted`).
    shared: Vec<u32>,
    counted: Vec<u32>,
    /// By draft sentence: its norm in this pair (NaN until needed).
    norms: Vec<f64>,
    /// By sentence frequency: `ln(N / df)` (NaN until needed).
    by_df: Vec<f64>,
    /// A source sentence's (term, count), sorted by term.
    sorted: Vec<(u32, u32)>,
    /// By term: the source sentences holding it (only while passages are extended).
    df: Vec<u32>,
    /// The source sentences' (term, count) lists, cut as `source.list` is.
    terms: Vec<(u32, u32)>,
    /// By term: summed counts of a run of sentences ([`Vectors::vector`]).
    sum: Vec<u32>,
    summed: Vec<u32>,
}

/// A source's sentences as [`DraftSentences::rewrites`] reads them, in one pass over its
/// numbered words ([`NumberedWords`]: its distinct terms numbered, so that everything kept by
/// term is a table as small as its vocabulary, which stays in cache): each sentence's distinct
/// terms with their counts, in order of first appearance.
#[derive(Default)]
struct SourceTerms {
    /// By number: the term, the source sentences holding it, the draft's rank of it + 1 (0:
    /// the draft does not hold it), and the last sentence holding it + 1 with its place in
    /// `list` there.
    term: Vec<u32>,
    df: Vec<u32>,
    rank: Vec<u32>,
    last: Vec<(u32, u32)>,
    /// By the draft's rank of a term: its number in the source + 1 (0: the source does not
    /// hold it).
    by_rank: Vec<u32>,
    /// Sentence `k` holds `list[at[k]..at[k + 1]]`: (number, count); entries from the last of
    /// `at` on are left from earlier sources.
    list: Vec<(u32, u32)>,
    at: Vec<usize>,
    /// The numbers of `list` whose terms the draft holds, in the same order, cut by `held_at`
    /// as `list` is by `at`: what [`DraftSentences::seeds`] walks, without a branch a term on
    /// whether the draft holds it.
    held: Vec<u32>,
    held_at: Vec<usize>,
}

impl SourceTerms {
    /// The entries of `list` this source wrote.
    fn listed(&self) -> usize {
        self.at.last().copied().unwrap_or(0)
    }

    /// Reads the sentences `ranges` of `words`, ranking its terms in `vocabulary` (the
    /// draft's).
    fn fill(&mut self, words: &NumberedWords, ranges: &[Range<usize>], vocabulary: &Vocabulary) {
        self.term.clear();
        self.term.extend(words.terms.iter().map(|&t| u32::from(t)));
        self.rank.clear();
        self.by_rank.clear();
        self.by_rank.resize(vocabulary.len(), 0);
        for (k, &t) in self.term.iter().enumerate() {
            let rank = vocabulary.rank(t).map_or(0, |r| {
                self.by_rank[r] = k as u32 + 1;
                r as u32 + 1
            });
            self.rank.push(rank);
        }
        self.df.clear();
        self.df.resize(self.term.len(), 0);
        self.last.clear();
        self.last.resize(self.term.len(), (0, 0));
        // A sentence lists at most its words: the list is written into a slice of that size
        // and the tables are local slices, so that no push reloads a vector's length and
        // capacity at every word. The held terms are compacted the same way: every listed term
        // is written, and the count grows by whether the draft holds it. Both slices keep
        // their length from one source to the next (only grown), so that no source pays for
        // clearing them: every entry read is written first, and the list's end is the last of
        // `at`.
        room(&mut self.list, words.numbers.len());
        room(&mut self.held, words.numbers.len());
        self.at.clear();
        self.held_at.clear();
        let (list, last, df) = (&mut self.list[..], &mut self.last[..], &mut self.df[..]);
        let (held, rank) = (&mut self.held[..], &self.rank[..]);
        let (mut len, mut held_len) = (0, 0);
        for (k, r) in ranges.iter().enumerate() {
            let sentence = k as u32 + 1;
            self.at.push(len);
            self.held_at.push(held_len);
            for &number in &words.numbers[r.clone()] {
                let number = usize::from(number);
                let last = &mut last[number];
                if last.0 == sentence {
                    list[last.1 as usize].1 += 1;
                } else {
                    *last = (sentence, len as u32);
                    list[len] = (number as u32, 1);
                    len += 1;
                    held[held_len] = number as u32;
                    held_len += usize::from(rank[number] != 0);
                    df[number] += 1;
                }
            }
        }
        self.at.push(len);
        self.held_at.push(held_len);
    }
}

thread_local! {
    static PREPARED: std::cell::RefCell<Prepared> = std::cell::RefCell::default();
}

impl DraftSentences {
    /// Counts the terms of each sentence of `words` (the draft's) and indexes them by term.
    pub(crate) fn new(words: &Words) -> DraftSentences {
        let sentences = Sentences::new(words);
        let vocabulary = Vocabulary::new(&words.hashes);
        let (mut first, mut holders) = (Vec::new(), Vec::new());
        if !vocabulary.unfolded() {
            let rank = |t: u32| {
                vocabulary
                    .rank(t)
                    .expect("a draft term is in its vocabulary")
            };
            first = vec![0u32; vocabulary.len() + 1];
            for &(t, _) in &sentences.terms {
                first[rank(t) + 1] += 1;
            }
            for r in 1..first.len() {
                first[r] += first[r - 1];
            }
            let mut fill = first.clone();
            holders = vec![0u32; sentences.terms.len()];
            for i in 0..sentences.ranges.len() {
                for &(t, _) in &sentences.terms[sentences.at[i]..sentences.at[i + 1]] {
                    let f = &mut fill[rank(t)];
                    holders[*f as usize] = i as u32;
                    *f += 1;
                }
            }
        }
        DraftSentences {
            sentences,
            vocabulary,
            first,
            holders,
        }
    }

    /// [`rewrites`] of this draft and `source`: the same passages, by the same arithmetic in
    /// the same order, from the source's side. Its sentences' terms are looked up in the
    /// draft's by term (made once per check), so a pair costs a pass over the source's words
    /// and the draft sentences sharing its terms, not a pass over the whole draft; weights are
    /// computed for the sentence pairs whose Dice passes, and the passages extended only from
    /// seeds.
    pub(crate) fn rewrites(&self, source: &Words, opts: &RewriteOptions) -> Vec<Match> {
        let d = &self.sentences;
        // `rewrites_of`'s own early answers (a source's words end its last sentence).
        if d.terms.is_empty()
            || source.hashes.is_empty()
            || d.words() < opts.min_words
            || source.hashes.len() < opts.min_words
        {
            return Vec::new();
        }
        let found = (!self.vocabulary.unfolded())
            .then(|| PREPARED.with_borrow_mut(|w| self.rewrites_in(w, source, opts)))
            .flatten();
        found.unwrap_or_else(|| rewrites_of(d, &Sentences::new(source), opts))
    }

    /// [`DraftSentences::rewrites`], or `None` for a source with unfolded terms.
    fn rewrites_in(
        &self,
        w: &mut Prepared,
        source: &Words,
        opts: &RewriteOptions,
    ) -> Option<Vec<Match>> {
        let (seeds, ranges) = self.seeds(w, source, opts)?;
        if seeds.is_empty() {
            w.ranges = ranges;
            return Some(Vec::new());
        }
        let d = &self.sentences;
        if w.df.len() < TERMS {
            w.df = vec![0; TERMS];
            w.sum = vec![0; TERMS];
        }
        let st = &w.source;
        for (&t, &df) in st.term.iter().zip(&st.df) {
            w.df[t as usize] = df;
        }
        w.terms.clear();
        w.terms.extend(
            st.list[..st.listed()]
                .iter()
                .map(|&(k, c)| (st.term[k as usize], c)),
        );
        let vectors = ByTerm {
            draft: (&d.terms, &d.at),
            source: (&w.terms, &st.at),
            weights: TermWeights {
                draft: self,
                df: &w.df,
                n: (d.ranges.len() + ranges.len()) as f64,
                by_df: &mut w.by_df,
            },
            sum: &mut w.sum,
            summed: &mut w.summed,
        };
        let found = passages(seeds, &d.ranges, &ranges, vectors, opts);
        for &t in &w.source.term {
            w.df[t as usize] = 0;
        }
        w.ranges = ranges;
        Some(found)
    }

    /// The seeds of `seeds` (the same sentence pairs, each found by the same arithmetic), from
    /// the source's side; `None` for a source with unfolded terms.
    /// Also the source's sentences.
    #[allow(clippy::type_complexity)]
    fn seeds(
        &self,
        w: &mut Prepared,
        source: &Words,
        opts: &RewriteOptions,
    ) -> Option<(Vec<Seed>, Vec<Range<usize>>)> {
        let d = &self.sentences;
        if !w.numbered.fill(&source.hashes) {
            return None;
        }
        let numbered = &w.numbered;
        let mut ranges = std::mem::take(&mut w.ranges);
        sentences_into(&source.sentences, source.hashes.len(), &mut ranges);
        w.source.fill(numbered, &ranges, &self.vocabulary);
        let st = &w.source;
        let n = (d.ranges.len() + ranges.len()) as f64;
        reset(&mut w.by_df, d.ranges.len() + ranges.len() + 1, f64::NAN);
        reset(&mut w.candidate, d.ranges.len(), false);
        reset(&mut w.shared, d.ranges.len(), 0);
        // One slot more than the draft's sentences: the slot past the last entry is written too.
        reset(&mut w.counted, d.ranges.len() + 1, 0);
        reset(&mut w.touched, d.ranges.len() + 1, 0);
        reset(&mut w.norms, d.ranges.len(), f64::NAN);
        // ln(N / df), df the sentences of both texts holding the term, as `Weights` has it.
        let by_df = &mut w.by_df;
        let mut idf = |df: u32| {
            let known = &mut by_df[df as usize];
            if known.is_nan() {
                *known = (n / f64::from(df)).ln();
            }
            *known
        };
        let in_draft = |rank: u32| {
            if rank == 0 {
                return &[][..];
            }
            let r = rank as usize - 1;
            &self.holders[self.first[r] as usize..self.first[r + 1] as usize]
        };
        // A pair is a seed when its sentences share a term that at most MAX_SENTENCES_PER_TERM
        // source sentences hold, and its Dice and cosine pass.
        let mut seeds: Vec<Seed> = Vec::new();
        for k in 0..ranges.len() {
            let sv = &st.list[st.at[k]..st.at[k + 1]];
            // The candidates: draft sentences holding a rare term of this sentence. Every
            // draft sentence holding any of its terms counts it as shared, so a candidate's
            // shared terms are counted from the source sentence's side, not over its own.
            // The lists are written without a branch a holder (whether a sentence is new to
            // them is as good as random): each holder is written, the count grows by whether
            // it was new; a draft sentence enters each list at most once a source sentence.
            let (mut counted, mut touched) = (0, 0);
            {
                let (shared, candidate) = (&mut w.shared[..], &mut w.candidate[..]);
                let (counted_at, touched_at) = (&mut w.counted[..], &mut w.touched[..]);
                for &t in &st.held[st.held_at[k]..st.held_at[k + 1]] {
                    let t = t as usize;
                    let rare = st.df[t] as usize <= MAX_SENTENCES_PER_TERM;
                    for &i in in_draft(st.rank[t]) {
                        let i = i as usize;
                        counted_at[counted] = i as u32;
                        counted += usize::from(shared[i] == 0);
                        shared[i] += 1;
                        touched_at[touched] = i as u32;
                        touched += usize::from(rare & !candidate[i]);
                        candidate[i] |= rare;
                    }
                }
            }
            let mut snorm = f64::NAN;
            for &i in &w.touched[..touched] {
                let i = i as usize;
                w.candidate[i] = false;
                let shared = w.shared[i];
                let v = d.sentence(i);
                let dice = 2.0 * shared as f64 / (v.len() + sv.len()) as f64;
                if dice <= opts.dice {
                    continue;
                }
                // The weights, summed in term order as `norm` sums them.
                if snorm.is_nan() {
                    w.sorted.clear();
                    w.sorted.extend(sv.iter().map(|&(t, c)| (t, c)));
                    w.sorted.sort_unstable_by_key(|&(t, _)| st.term[t as usize]);
                    snorm = w
                        .sorted
                        .iter()
                        .map(|&(t, c)| {
                            let t = t as usize;
                            let x =
                                f64::from(c) * idf(in_draft(st.rank[t]).len() as u32 + st.df[t]);
                            x * x
                        })
                        .sum::<f64>()
                        .sqrt();
                }
                // Every term of a draft sentence is the draft's.
                let df = |t: u32| {
                    self.vocabulary.rank(t).map_or(0, |r| {
                        let source = st.by_rank[r]
                            .checked_sub(1)
                            .map_or(0, |k| st.df[k as usize]);
                        self.first[r + 1] - self.first[r] + source
                    })
                };
                if w.norms[i].is_nan() {
                    w.norms[i] = v
                        .iter()
                        .map(|&(t, c)| {
                            let x = f64::from(c) * idf(df(t));
                            x * x
                        })
                        .sum::<f64>()
                        .sqrt();
                }
                // The dot product over the shared terms, in the source sentence's term order.
                let (mut dot, mut j) = (0.0, 0);
                for &(t, c) in w.sorted.iter() {
                    let term = st.term[t as usize];
                    while j < v.len() && v[j].0 < term {
                        j += 1;
                    }
                    if j < v.len() && v[j].0 == term {
                        let x = idf(in_draft(st.rank[t as usize]).len() as u32 + st.df[t as usize]);
                        dot += f64::from(v[j].1) * x * (f64::from(c) * x);
                    }
                }
                let det = w.norms[i] * snorm;
                let cos = if det > 0.0 { dot / det } else { 0.0 };
                if cos > opts.cos {
                    seeds.push((i, k));
                }
            }
            for &i in &w.counted[..counted] {
                w.shared[i as usize] = 0;
            }
        }
        Some((seeds, ranges))
    }

    /// The draft's sentences, as content-word ranges ([`sentences`]).
    pub(crate) fn ranges(&self) -> &[Range<usize>] {
        &self.sentences.ranges
    }

    /// The draft sentences holding term `t`, ascending.
    fn holders(&self, t: u32) -> &[u32] {
        match self.vocabulary.rank(t) {
            Some(r) => &self.holders[self.first[r] as usize..self.first[r + 1] as usize],
            None => &[],
        }
    }
}

/// The tf-isf weights of a pair of texts by term, computed as [`Weights`] computes them (the
/// draft's sentence frequencies from its index, the source's counted per pair), for the terms
/// that need them.
struct TermWeights<'a> {
    draft: &'a DraftSentences,
    /// By term: source sentences holding it.
    df: &'a [u32],
    n: f64,
    by_df: &'a mut Vec<f64>,
}

impl TermWeights<'_> {
    /// `ln(N / df)` of term `t`.
    fn idf(&mut self, t: u32) -> f64 {
        let df = self.draft.holders(t).len() as u32 + self.df[t as usize];
        let known = &mut self.by_df[df as usize];
        if known.is_nan() {
            *known = (self.n / f64::from(df)).ln();
        }
        *known
    }
}

/// [`Vectors`] by term, for [`DraftSentences::rewrites`].
struct ByTerm<'a> {
    /// Each side's sentences' (term, count) lists, in any order within a sentence (a vector is
    /// sorted after summing): `terms[at[i]..at[i + 1]]`.
    draft: (&'a [(u32, u32)], &'a [usize]),
    source: (&'a [(u32, u32)], &'a [usize]),
    weights: TermWeights<'a>,
    /// By term: summed counts, zero between calls.
    sum: &'a mut Vec<u32>,
    summed: &'a mut Vec<u32>,
}

impl Vectors for ByTerm<'_> {
    fn vector(&mut self, draft: bool, s: Range<usize>) -> Vec<(u32, f64)> {
        let (terms, at) = if draft { self.draft } else { self.source };
        for &(t, c) in &terms[at[s.start]..at[s.end]] {
            let sum = &mut self.sum[t as usize];
            if *sum == 0 {
                self.summed.push(t);
            }
            *sum += c;
        }
        self.summed.sort_unstable();
        let mut v = Vec::with_capacity(self.summed.len());
        for &t in self.summed.iter() {
            let c = std::mem::take(&mut self.sum[t as usize]);
            v.push((t, f64::from(c) * self.weights.idf(t)));
        }
        self.summed.clear();
        v
    }
}

/// One side's sentences as term counts, terms numbered from 0 among the distinct terms of both
/// sides ([`numbered`]), so that arrays indexed by term stay as small as the two texts. Each
/// sentence's list keeps the order of its terms (ascending), whatever their numbers: every sum
/// below runs over terms in that order, as over the terms themselves.
struct Side<'a> {
    /// Content-word range of each sentence.
    ranges: &'a [Range<usize>],
    /// Every sentence's distinct terms (numbers) with their counts, in term order: sentence `i`
    /// holds `terms[at[i]..at[i + 1]]`.
    terms: Vec<(u32, u32)>,
    at: &'a [usize],
}

thread_local! {
    /// Number + 1 of each term below 2^16 (folded word hashes, all of them in practice) in the
    /// pair being numbered, 0 between pairs: a term's number in one read.
    static NUMBERS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Both sides with their terms numbered, and each number's term.
fn numbered<'a>(a: &'a Sentences, b: &'a Sentences) -> (Side<'a>, Side<'a>, Vec<u32>) {
    let side = |s: &'a Sentences, number: &mut dyn FnMut(u32) -> u32| Side {
        ranges: &s.ranges,
        terms: s.terms.iter().map(|&(t, c)| (number(t), c)).collect(),
        at: &s.at,
    };
    if a.max.max(b.max) >= 1 << 16 {
        // Numbers by rank: a binary search each.
        let mut union: Vec<u32> = a.terms.iter().chain(&b.terms).map(|&(t, _)| t).collect();
        union.sort_unstable();
        union.dedup();
        let mut rank = |t: u32| union.binary_search(&t).unwrap_or(0) as u32;
        let (sa, sb) = (side(a, &mut rank), side(b, &mut rank));
        return (sa, sb, union);
    }
    NUMBERS.with_borrow_mut(|numbers| {
        numbers.resize(1 << 16, 0);
        // In order of first appearance.
        let mut terms: Vec<u32> = Vec::with_capacity(a.terms.len() + b.terms.len());
        let mut number = |t: u32| {
            let n = &mut numbers[t as usize];
            if *n == 0 {
                terms.push(t);
                *n = terms.len() as u32;
            }
            *n - 1
        };
        let (sa, sb) = (side(a, &mut number), side(b, &mut number));
        for &t in &terms {
            numbers[t as usize] = 0;
        }
        (sa, sb, terms)
    })
}

impl Side<'_> {
    /// Number of sentences.
    fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Sentence `i`'s terms with their counts.
    fn sentence(&self, i: usize) -> &[(u32, u32)] {
        &self.terms[self.at[i]..self.at[i + 1]]
    }
}

/// Content-word ranges of the sentences starting at `starts` in a text of `len` content words,
/// short ones joined to the next: the units of rewrite detection, and of the sentence keys that
/// retrieve its sources ([`crate::index::sentence_keys`]).
pub(crate) fn sentences(starts: &[u32], len: usize) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(starts.len() + 1);
    sentences_into(starts, len, &mut out);
    out
}

/// [`sentences`] into `out` (emptied first), in the memory it has.
fn sentences_into(starts: &[u32], len: usize, out: &mut Vec<Range<usize>>) {
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

/// The sentence frequencies of both sides, as inverse weights `ln(N / df)` by term number, and
/// room to sum a run of sentences' counts.
struct Weights {
    idf: Vec<f64>,
    /// Each number's term.
    terms: Vec<u32>,
    /// Summed counts by term number, all zero between calls of [`Weights::vector`].
    sum: Vec<u32>,
    touched: Vec<u32>,
}

impl Weights {
    fn new(a: &Side<'_>, b: &Side<'_>, numbered: Vec<u32>) -> Weights {
        let terms = numbered.len();
        let mut df = vec![0u32; terms];
        for &(t, _) in a.terms.iter().chain(&b.terms) {
            df[t as usize] += 1;
        }
        let sentences = a.len() + b.len();
        let n = sentences as f64;
        // Most terms are in one, two or three sentences: one logarithm per frequency, not per term.
        let mut by_df: Vec<f64> = vec![f64::NAN; sentences + 1];
        let idf = df
            .iter()
            .map(|&d| {
                let known = &mut by_df[d as usize];
                if known.is_nan() {
                    *known = (n / f64::from(d)).ln();
                }
                *known
            })
            .collect();
        Weights {
            idf,
            terms: numbered,
            sum: vec![0; terms],
            touched: Vec::new(),
        }
    }

    fn of(&self, t: u32) -> f64 {
        self.idf[t as usize]
    }

    /// The tf-isf vector of a run of sentences (summed term counts), by term (not number),
    /// sorted by term.
    fn vector(&mut self, side: &Side, s: Range<usize>) -> Vec<(u32, f64)> {
        for &(t, c) in &side.terms[side.at[s.start]..side.at[s.end]] {
            let sum = &mut self.sum[t as usize];
            if *sum == 0 {
                self.touched.push(t);
            }
            *sum += c;
        }
        let terms = &self.terms;
        self.touched.sort_unstable_by_key(|&t| terms[t as usize]);
        let mut v = Vec::with_capacity(self.touched.len());
        for &t in &self.touched {
            let c = std::mem::take(&mut self.sum[t as usize]);
            v.push((self.terms[t as usize], f64::from(c) * self.idf[t as usize]));
        }
        self.touched.clear();
        v
    }
}

/// Dot product and number of shared terms of two sparse vectors sorted by term.
fn dot_and_shared(a: &[(u32, f64)], b: &[(u32, f64)]) -> (f64, usize) {
    let (mut i, mut j, mut dot, mut shared) = (0, 0, 0.0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += a[i].1 * b[j].1;
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (dot, shared)
}

/// Euclidean norm of a sparse vector.
fn norm(v: &[(u32, f64)]) -> f64 {
    v.iter().map(|&(_, w)| w * w).sum::<f64>().sqrt()
}

/// Cosine of two sparse vectors sorted by term.
fn cosine(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let det = norm(a) * norm(b);
    if det == 0.0 {
        return 0.0;
    }
    dot_and_shared(a, b).0 / det
}

/// A seed: draft sentence, source sentence.
type Seed = (usize, usize);

/// Sentence pairs similar enough to seed a passage.
/// The working arrays of [`seeds`], kept from one pair to the next.
#[derive(Default)]
struct SeedArrays {
    dv: Vec<(u32, f64)>,
    sv: Vec<(u32, f64)>,
    snorm: Vec<f64>,
    first: Vec<u32>,
    fill: Vec<u32>,
    holders: Vec<u32>,
    rare: Vec<u32>,
    touched: Vec<usize>,
    weight: Vec<f64>,
    holds: Vec<u32>,
}

thread_local! {
    static SEED_ARRAYS: std::cell::RefCell<SeedArrays> = std::cell::RefCell::default();
}

/// Empties `v` and fills it with `len` copies of `x`, in the memory it has.
fn reset<T: Clone>(v: &mut Vec<T>, len: usize, x: T) {
    v.clear();
    v.resize(len, x);
}

/// At least `len` entries in `v`, whatever they hold (grown with defaults, never cleared).
fn room<T: Clone + Default>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        v.resize(len, T::default());
    }
}

/// Sentence pairs similar enough to seed a passage.
fn seeds(draft: &Side, source: &Side, w: &Weights, opts: &RewriteOptions) -> Vec<Seed> {
    SEED_ARRAYS.with_borrow_mut(|arrays| seeds_in(arrays, draft, source, w, opts))
}

fn seeds_in(
    arrays: &mut SeedArrays,
    draft: &Side,
    source: &Side,
    w: &Weights,
    opts: &RewriteOptions,
) -> Vec<Seed> {
    let SeedArrays {
        dv,
        sv,
        snorm,
        first,
        fill,
        holders,
        rare,
        touched,
        weight,
        holds,
    } = arrays;
    // A sentence's terms are already counted and sorted: weigh them in place, all sentences of a
    // side in one list, cut as the side's sentences are.
    let weigh = |side: &Side, v: &mut Vec<(u32, f64)>| {
        v.clear();
        v.extend(side.terms.iter().map(|&(t, c)| (t, f64::from(c) * w.of(t))));
    };
    weigh(draft, dv);
    weigh(source, sv);
    let sentence = |side: &Side, i: usize| -> std::ops::Range<usize> { side.at[i]..side.at[i + 1] };
    snorm.clear();
    snorm.extend((0..source.len()).map(|s| norm(&sv[sentence(source, s)])));
    // Term → the source sentences holding it, ascending: counts, then offsets, then fill.
    let terms = w.idf.len();
    reset(first, terms + 1, 0);
    for &(t, _) in &source.terms {
        first[t as usize + 1] += 1;
    }
    for t in 1..first.len() {
        first[t] += first[t - 1];
    }
    fill.clear();
    fill.extend_from_slice(&first[..terms]);
    reset(holders, source.terms.len(), 0);
    for s in 0..source.len() {
        for &(t, _) in source.sentence(s) {
            holders[fill[t as usize] as usize] = s as u32;
            fill[t as usize] += 1;
        }
    }
    // Per source sentence, how many of the draft sentence's terms held by few sentences it
    // holds too (0: not a candidate yet).
    reset(rare, source.len(), 0);
    touched.clear();
    let mut out = Vec::new();
    // The draft sentence's weights by term, and which terms it holds (its number + 1): a dot
    // product then reads the source sentence alone, in its term order, as a merge would.
    reset(weight, terms, 0.0);
    reset(holds, terms, 0);
    for d in 0..draft.len() {
        let v = &dv[sentence(draft, d)];
        let stamp = d as u32 + 1;
        for &(t, x) in v {
            weight[t as usize] = x;
            holds[t as usize] = stamp;
        }
        // Candidates: the source sentences sharing a term held by few of them. A term in more
        // sentences than that only adds to a pair another term found (its weight is in the
        // cosine below), so a text repeating itself costs linear time, not quadratic.
        let mut common = 0;
        for &(t, _) in v {
            let p = &holders[first[t as usize] as usize..first[t as usize + 1] as usize];
            if p.len() > MAX_SENTENCES_PER_TERM {
                common += 1;
                continue;
            }
            for &s in p {
                let s = s as usize;
                if rare[s] == 0 {
                    touched.push(s);
                }
                rare[s] += 1;
            }
        }
        let dn = norm(v);
        for &s in touched.iter() {
            let most_shared = std::mem::take(&mut rare[s]) + common;
            let sv = &sv[sentence(source, s)];
            // Dice of the most terms the pair can share: when even that is too low, so is the
            // pair's own, and its dot product is not needed.
            if 2.0 * f64::from(most_shared) / (v.len() + sv.len()) as f64 <= opts.dice {
                continue;
            }
            let (mut dot, mut shared) = (0.0, 0);
            for &(t, x) in sv {
                if holds[t as usize] == stamp {
                    dot += weight[t as usize] * x;
                    shared += 1;
                }
            }
            let det = dn * snorm[s];
            let cos = if det > 0.0 { dot / det } else { 0.0 };
            let dice = 2.0 * shared as f64 / (v.len() + sv.len()) as f64;
            if cos > opts.cos && dice > opts.dice {
                out.push((d, s));
            }
        }
        touched.clear();
    }
    out
}

/// Splits `seeds` wherever more than `gap` sentences separate neighbours on `side` (0 draft,
/// 1 source), then each part on the other side, until nothing splits.
fn cluster(mut seeds: Vec<Seed>, gap: usize, side: usize, first: bool) -> Vec<Vec<Seed>> {
    let at = |s: &Seed| if side == 0 { s.0 } else { s.1 };
    seeds.sort_unstable_by_key(|s| (at(s), if side == 0 { s.1 } else { s.0 }));
    let mut parts: Vec<Vec<Seed>> = Vec::new();
    for s in seeds {
        match parts.last_mut() {
            Some(p) if at(&s) - p.last().map_or(0, at) <= gap + 1 => p.push(s),
            _ => parts.push(vec![s]),
        }
    }
    if parts.len() <= 1 && !first {
        return parts;
    }
    parts
        .into_iter()
        .flat_map(|p| cluster(p, gap, 1 - side, false))
        .collect()
}

/// A passage pair, in sentences, with the cosine of its summed vectors.
#[derive(Debug, Clone)]
struct Passage {
    draft: Range<usize>,
    source: Range<usize>,
    sim: f64,
    seeds: usize,
}

fn extent(seeds: &[Seed]) -> (Range<usize>, Range<usize>) {
    let d = seeds.iter().map(|s| s.0);
    let s = seeds.iter().map(|s| s.1);
    (
        d.clone().min().unwrap_or(0)..d.max().map_or(0, |x| x + 1),
        s.clone().min().unwrap_or(0)..s.max().map_or(0, |x| x + 1),
    )
}

/// The tf-isf vector of a run of sentences (summed term counts), by term, sorted by term.
trait Vectors {
    /// Of draft sentences `s` (`draft`), or of source sentences `s`.
    fn vector(&mut self, draft: bool, s: Range<usize>) -> Vec<(u32, f64)>;
}

/// [`Vectors`] of two numbered sides ([`numbered`]).
struct Numbered<'a> {
    draft: &'a Side<'a>,
    source: &'a Side<'a>,
    w: Weights,
}

impl Vectors for Numbered<'_> {
    fn vector(&mut self, draft: bool, s: Range<usize>) -> Vec<(u32, f64)> {
        self.w
            .vector(if draft { self.draft } else { self.source }, s)
    }
}

/// The similarity of passage pairs, each pair computed once per call of [`rewrites`]: the
/// extension asks for the same pair again whenever a smaller gap leaves a cluster whole, and the
/// summary run asks again for the normal run's pairs.
struct Similarity<V> {
    vectors: V,
    known: PrehashedMap<(u64, u64), f64>,
}

impl<V: Vectors> Similarity<V> {
    /// Cosine of the summed vectors of draft sentences `d` and source sentences `s`.
    fn of(&mut self, d: &Range<usize>, s: &Range<usize>) -> f64 {
        let key = |r: &Range<usize>| (r.start as u64) << 32 | r.end as u64;
        let k = (key(d), key(s));
        if let Some(&sim) = self.known.get(&k) {
            return sim;
        }
        let dv = self.vectors.vector(true, d.clone());
        let sv = self.vectors.vector(false, s.clone());
        let sim = cosine(&dv, &sv);
        self.known.insert(k, sim);
        sim
    }
}

/// Clusters `seeds` with `gap` and keeps the passages that validate, re-clustering the others
/// with smaller gaps.
fn extend<V: Vectors>(
    seeds: Vec<Seed>,
    gap: usize,
    sim: &mut Similarity<V>,
    opts: &RewriteOptions,
    out: &mut Vec<Passage>,
) {
    for part in cluster(seeds, gap, 0, true) {
        let (d, s) = extent(&part);
        let similarity = sim.of(&d, &s);
        if similarity > opts.validate {
            out.push(Passage {
                seeds: part.len(),
                draft: d,
                source: s,
                sim: similarity,
            });
        } else if gap > 0 {
            extend(part, gap - 1, sim, opts, out);
        }
    }
}

/// Drops passages overlapping a more similar one on the draft side, and short ones.
fn filter(
    mut passages: Vec<Passage>,
    draft: &[Range<usize>],
    source: &[Range<usize>],
    min: usize,
) -> Vec<Passage> {
    passages
        .retain(|p| words(draft, &p.draft).len() >= min && words(source, &p.source).len() >= min);
    passages.sort_by(|a, b| {
        b.sim
            .total_cmp(&a.sim)
            .then(b.draft.len().cmp(&a.draft.len()))
            .then(a.draft.start.cmp(&b.draft.start))
    });
    let mut kept: Vec<Passage> = Vec::new();
    for p in passages {
        if kept
            .iter()
            .all(|k| k.draft.end <= p.draft.start || p.draft.end <= k.draft.start)
        {
            kept.push(p);
        }
    }
    kept.sort_by_key(|p| p.draft.start);
    kept
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

/// Content-word range of sentences `s` of a text whose sentences are `ranges`.
fn words(ranges: &[Range<usize>], s: &Range<usize>) -> Range<usize> {
    ranges[s.start].start..ranges[s.end - 1].end
}

/// The passages that `seeds` extend to ([`extend`], [`filter`]), the summary run's when the
/// draft summarizes the source, as content-word ranges.
fn passages<V: Vectors>(
    seeds: Vec<Seed>,
    draft: &[Range<usize>],
    source: &[Range<usize>],
    vectors: V,
    opts: &RewriteOptions,
) -> Vec<Match> {
    let mut sim = Similarity {
        vectors,
        known: PrehashedMap::default(),
    };
    let mut run = |gap: usize| {
        let mut found = Vec::new();
        extend(seeds.clone(), gap, &mut sim, opts, &mut found);
        filter(found, draft, source, opts.min_words)
    };
    let mut passages = run(opts.gap);
    if opts.summary_gap > opts.gap {
        let summary = run(opts.summary_gap);
        let sum = |ps: &[Passage], f: &dyn Fn(&Passage) -> usize| ps.iter().map(f).sum::<usize>();
        let dw = sum(&summary, &|p| words(draft, &p.draft).len());
        let sw = sum(&summary, &|p| words(source, &p.source).len());
        if sw > 0 && sw >= SUMMARY_RATIO * dw {
            passages = summary;
        }
    }
    passages
        .iter()
        .map(|p| Match {
            draft: words(draft, &p.draft),
            source: words(source, &p.source),
            seeds: p.seeds,
        })
        .collect()
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
/// [`REWRITTEN_SHARE`] of them, clipped to the detection and joined where they touch, each with
/// the detection's source passage. A sentence of the writer's own that a detection spans between
/// two reused ones (a detection joins its pieces over a few sentences) shares only the topic's
/// words, and is not marked.
pub fn rewritten(draft: &Words, source: &Words, detections: &[Match]) -> Vec<Match> {
    if detections.is_empty() {
        return Vec::new();
    }
    rewritten_in(
        &sentences(&draft.sentences, draft.hashes.len()),
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
            if shared * 100 < terms.len() * REWRITTEN_SHARE {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Words from a few terms (so sentences share some), sentences of 3 to 12 words.
    fn text() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
        prop::collection::vec(
            (prop::collection::vec(0u32..40, 3..12), any::<bool>()),
            1..12,
        )
        .prop_map(|sentences| {
            let (mut words, mut starts) = (Vec::new(), Vec::new());
            for (s, _) in sentences {
                starts.push(words.len() as u32);
                words.extend(s);
            }
            (words, starts)
        })
    }

    proptest! {
        /// Terms from 2^16 on (not folded) are numbered by binary search instead of the dense
        /// table: the passages are those of the same texts with their terms below 2^16, in the
        /// same order.
        #[test]
        fn large_terms_find_the_same_passages((dw, ds) in text(), (sw, ss) in text()) {
            let words = |w: &[u32], s: &[u32], shift: u32| Words {
                hashes: w.iter().map(|&h| h * 1000 + shift).collect(),
                shingles: Vec::new(),
                sentences: s.to_vec(),
            };
            let opts = RewriteOptions { min_words: 3, ..Default::default() };
            let small = rewrites(&words(&dw, &ds, 7), &words(&sw, &ss, 7), &opts);
            let large = rewrites(&words(&dw, &ds, 1 << 20), &words(&sw, &ss, 1 << 20), &opts);
            prop_assert_eq!(small, large);
        }
    }

    proptest! {
        /// The draft prepared once per check finds the passages of `rewrites_of`, also for a
        /// source that repeats terms in more than MAX_SENTENCES_PER_TERM sentences; with few
        /// terms, sentences share enough of them to seed.
        /// [`sentences`] streamed is the joining of short sentences it was as a list of
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
            prop_assert_eq!(sentences(&starts, len), reference);
        }

        #[test]
        fn a_prepared_draft_finds_the_passages_of_rewrites_of(
            (dw, ds) in text(),
            (sw, ss) in text(),
            repeat in 1usize..12,
            min_words in 3usize..25,
        ) {
            let words = |w: &[u32], s: &[u32]| Words {
                hashes: w.iter().map(|&h| h * 1543 % 65_536).collect(),
                shingles: Vec::new(),
                sentences: s.to_vec(),
            };
            // The source repeated, so that some of its terms are in many sentences.
            let (mut rw, mut rs) = (Vec::new(), Vec::new());
            for _ in 0..repeat {
                rs.extend(ss.iter().map(|&x| x + rw.len() as u32));
                rw.extend_from_slice(&sw);
            }
            let opts = RewriteOptions { min_words, ..Default::default() };
            let draft = words(&dw, &ds);
            let prepared = DraftSentences::new(&draft);
            for source in [words(&sw, &ss), words(&rw, &rs), draft.clone()] {
                let expected = rewrites(&draft, &source, &opts);
                prop_assert_eq!(prepared.rewrites(&source, &opts), expected);
            }
        }
    }

    /// A long source with many distinct terms finds what [`rewrites`] finds.
    #[test]
    fn a_source_of_many_terms_finds_the_passages_of_rewrites_of() {
        let folded = |t: u32| t * 1543 % 65_536;
        // The draft: 30 sentences of 10 distinct terms.
        let (mut dw, mut ds) = (Vec::new(), Vec::new());
        for k in 0..30u32 {
            ds.push(dw.len() as u32);
            dw.extend((0..10).map(|i| folded(10 * k + i)));
        }
        // The source: 200 sentences, of new terms but for the draft's sentences in the middle
        // in the other order, two words of each replaced.
        let (mut sw, mut ss) = (Vec::new(), Vec::new());
        for k in 0..200u32 {
            ss.push(sw.len() as u32);
            if (100..130).contains(&k) {
                let d = 129 - k;
                sw.extend((0..10).map(|i| {
                    if i % 4 == 1 {
                        folded(20_000 + 10 * d + i)
                    } else {
                        folded(10 * d + i)
                    }
                }));
            } else {
                sw.extend((0..9).map(|i| folded(1_000 + 9 * k + i)));
            }
        }
        let words = |w: Vec<u32>, s: Vec<u32>| Words {
            hashes: w,
            shingles: Vec::new(),
            sentences: s,
        };
        let (draft, source) = (words(dw, ds), words(sw, ss));
        let opts = RewriteOptions::default();
        let expected = rewrites(&draft, &source, &opts);
        assert!(!expected.is_empty());
        assert_eq!(
            DraftSentences::new(&draft).rewrites(&source, &opts),
            expected
        );
    }

    #[test]
    fn large_terms_find_a_reordered_text() {
        let words = (0..40u32).map(|i| (i % 13) << 20 | i).collect::<Vec<_>>();
        let mut reordered = words[20..].to_vec();
        reordered.extend_from_slice(&words[..20]);
        let text = |w: Vec<u32>| Words {
            hashes: w,
            shingles: Vec::new(),
            sentences: vec![0, 5, 10, 15, 20, 25, 30, 35],
        };
        let found = rewrites(&text(reordered), &text(words), &RewriteOptions::default());
        assert!(!found.is_empty());
    }

    #[test]
    fn short_sentences_join_the_next() {
        assert_eq!(sentences(&[0, 2, 6, 7], 10), vec![0..6, 6..10]);
        assert_eq!(sentences(&[], 4), vec![0..4]);
        assert_eq!(sentences(&[3], 5), vec![0..3, 3..5]);
    }

    fn m(d: Range<usize>, s: Range<usize>) -> Match {
        Match {
            draft: d,
            source: s,
            seeds: 1,
        }
    }

    #[test]
    fn passages_widen_the_copies_they_meet_and_stand_alone_elsewhere() {
        let copies = vec![m(10..20, 100..110)];
        let passages = [m(5..30, 95..130), m(40..60, 200..220), m(12..18, 500..506)];
        let all = combine(copies, &passages);
        let spans: Vec<_> = all
            .iter()
            .map(|d| (d.draft.clone(), d.source.clone()))
            .collect();
        // The second overlaps the first's draft side only: the longer of the two stays.
        assert_eq!(spans, vec![(5..30, 95..130), (40..60, 200..220)]);
    }

    #[test]
    fn clusters_split_on_both_sides() {
        let seeds = vec![(0, 0), (1, 1), (2, 30), (10, 2)];
        let mut parts = cluster(seeds, 4, 0, true);
        parts.sort();
        assert_eq!(
            parts,
            vec![vec![(0, 0), (1, 1)], vec![(2, 30)], vec![(10, 2)]]
        );
    }
}
