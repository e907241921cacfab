//! The fast path of rewrite detection: a draft prepared once per check ([`DraftSentences`]) and
//! each source read in one pass over its numbered words, finding the passages of
//! [`super::rewrites_of`] by the same arithmetic in the same order (property-tested against it).

use super::*;

/// Folded word hashes are below this ([`super::words::fold`]).
pub(super) const TERMS: usize = 1 << 16;

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
pub(super) struct Scratch {
    /// The source's terms and sentences.
    pub(super) source: SourceTerms,
    /// The source's words, numbered.
    pub(super) numbered: NumberedWords,
    /// The source's sentences as content-word ranges ([`sentences`]), lent to each pair.
    pub(super) ranges: Vec<Range<usize>>,
    /// By draft sentence: whether it shares with the source sentence at hand a term that at
    /// most [`MAX_SENTENCES_PER_TERM`] source sentences hold (a candidate pair); the
    /// candidates are listed at the start of `touched`.
    pub(super) candidate: Vec<bool>,
    pub(super) touched: Vec<u32>,
    /// By draft sentence: the terms it shares with the source sentence at hand (zero between
    /// source sentences; the others are listed at the start of `counted`).
    pub(super) shared: Vec<u32>,
    pub(super) counted: Vec<u32>,
    /// By draft sentence: its norm in this pair (NaN until needed).
    pub(super) norms: Vec<f64>,
    /// By sentence frequency: `ln(N / df)` (NaN until needed).
    pub(super) by_df: Vec<f64>,
    /// A source sentence's (term, count), sorted by term.
    pub(super) sorted: Vec<(u32, u32)>,
    /// By term: the source sentences holding it (only while passages are extended).
    pub(super) df: Vec<u32>,
    /// The source sentences' (term, count) lists, cut as `source.list` is.
    pub(super) terms: Vec<(u32, u32)>,
    /// By term: summed counts of a run of sentences ([`Vectors::vector`]).
    pub(super) sum: Vec<u32>,
    pub(super) summed: Vec<u32>,
}

/// A source's sentences as [`DraftSentences::rewrites`] reads them, in one pass over its
/// numbered words ([`NumberedWords`]: its distinct terms numbered, so that everything kept by
/// term is a table as small as its vocabulary, which stays in cache): each sentence's distinct
/// terms with their counts, in order of first appearance.
#[derive(Default)]
pub(super) struct SourceTerms {
    /// By number: the term, the source sentences holding it, the draft's rank of it + 1 (0:
    /// the draft does not hold it), and the last sentence holding it + 1 with its place in
    /// `list` there.
    pub(super) term: Vec<u32>,
    pub(super) df: Vec<u32>,
    pub(super) rank: Vec<u32>,
    pub(super) last: Vec<(u32, u32)>,
    /// By the draft's rank of a term: its number in the source + 1 (0: the source does not
    /// hold it).
    pub(super) by_rank: Vec<u32>,
    /// Sentence `k` holds `list[at[k]..at[k + 1]]`: (number, count); entries from the last of
    /// `at` on are left from earlier sources.
    pub(super) list: Vec<(u32, u32)>,
    pub(super) at: Vec<usize>,
    /// The numbers of `list` whose terms the draft holds, in the same order, cut by `held_at`
    /// as `list` is by `at`: what [`DraftSentences::seeds`] walks, without a branch a term on
    /// whether the draft holds it.
    pub(super) held: Vec<u32>,
    pub(super) held_at: Vec<usize>,
}

impl SourceTerms {
    /// The entries of `list` this source wrote.
    pub(super) fn listed(&self) -> usize {
        self.at.last().copied().unwrap_or(0)
    }

    /// Reads the sentences `ranges` of `words`, ranking its terms in `vocabulary` (the
    /// draft's).
    pub(super) fn fill(
        &mut self,
        words: &NumberedWords,
        ranges: &[Range<usize>],
        vocabulary: &Vocabulary,
    ) {
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
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
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
            .then(|| SCRATCH.with_borrow_mut(|w| self.rewrites_in(w, source, opts)))
            .flatten();
        found.unwrap_or_else(|| rewrites_of(d, &Sentences::new(source), opts))
    }

    /// [`DraftSentences::rewrites`], or `None` for a source with unfolded terms.
    pub(super) fn rewrites_in(
        &self,
        w: &mut Scratch,
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
    pub(super) fn seeds(
        &self,
        w: &mut Scratch,
        source: &Words,
        opts: &RewriteOptions,
    ) -> Option<(Vec<Seed>, Vec<Range<usize>>)> {
        let d = &self.sentences;
        if !w.numbered.fill(&source.hashes) {
            return None;
        }
        let numbered = &w.numbered;
        let mut ranges = std::mem::take(&mut w.ranges);
        crate::sentences::ranges_into(&source.sentences, source.hashes.len(), &mut ranges);
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
        let mut weak: Vec<Seed> = Vec::new();
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
                if dice <= opts.dice_floor() {
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
                match opts.pair(cos, dice) {
                    Some(true) => seeds.push((i, k)),
                    Some(false) => weak.push((i, k)),
                    None => {}
                }
            }
            for &i in &w.counted[..counted] {
                w.shared[i as usize] = 0;
            }
        }
        let chained = chained(&seeds, weak, opts);
        seeds.extend(chained);
        Some((seeds, ranges))
    }

    /// The draft's sentences, as content-word ranges ([`sentences`]).
    pub(crate) fn ranges(&self) -> &[Range<usize>] {
        &self.sentences.ranges
    }

    /// The draft sentences holding term `t`, ascending.
    pub(super) fn holders(&self, t: u32) -> &[u32] {
        match self.vocabulary.rank(t) {
            Some(r) => &self.holders[self.first[r] as usize..self.first[r + 1] as usize],
            None => &[],
        }
    }
}

/// The tf-isf weights of a pair of texts by term, computed as [`Weights`] computes them (the
/// draft's sentence frequencies from its index, the source's counted per pair), for the terms
/// that need them.
pub(super) struct TermWeights<'a> {
    pub(super) draft: &'a DraftSentences,
    /// By term: source sentences holding it.
    pub(super) df: &'a [u32],
    pub(super) n: f64,
    pub(super) by_df: &'a mut Vec<f64>,
}

impl TermWeights<'_> {
    /// `ln(N / df)` of term `t`.
    pub(super) fn idf(&mut self, t: u32) -> f64 {
        let df = self.draft.holders(t).len() as u32 + self.df[t as usize];
        let known = &mut self.by_df[df as usize];
        if known.is_nan() {
            *known = (self.n / f64::from(df)).ln();
        }
        *known
    }
}

/// [`Vectors`] by term, for [`DraftSentences::rewrites`].
pub(super) struct ByTerm<'a> {
    /// Each side's sentences' (term, count) lists, in any order within a sentence (a vector is
    /// sorted after summing): `terms[at[i]..at[i + 1]]`.
    pub(super) draft: (&'a [(u32, u32)], &'a [usize]),
    pub(super) source: (&'a [(u32, u32)], &'a [usize]),
    pub(super) weights: TermWeights<'a>,
    /// By term: summed counts, zero between calls.
    pub(super) sum: &'a mut Vec<u32>,
    pub(super) summed: &'a mut Vec<u32>,
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
