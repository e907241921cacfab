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

use super::seeds::Match;
use super::words::Words;
use std::collections::HashMap;
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

/// One side's sentences as weighted term vectors.
struct Side {
    /// Content-word range of each sentence.
    ranges: Vec<Range<usize>>,
    /// Each sentence's distinct terms with their counts, sorted by term.
    terms: Vec<Vec<(u32, u32)>>,
}

impl Side {
    fn new(words: &Words) -> Side {
        let ranges = sentences(&words.sentences, words.hashes.len());
        let terms = ranges
            .iter()
            .map(|r| {
                let mut t: Vec<u32> = words.hashes[r.clone()].to_vec();
                t.sort_unstable();
                let mut counted: Vec<(u32, u32)> = Vec::with_capacity(t.len());
                for h in t {
                    match counted.last_mut() {
                        Some((last, c)) if *last == h => *c += 1,
                        _ => counted.push((h, 1)),
                    }
                }
                counted
            })
            .collect();
        Side { ranges, terms }
    }

    /// Content-word range of sentences `s`.
    fn words(&self, s: &Range<usize>) -> Range<usize> {
        self.ranges[s.start].start..self.ranges[s.end - 1].end
    }
}

/// Content-word ranges of the sentences starting at `starts` in a text of `len` content words,
/// short ones joined to the next: the units of rewrite detection, and of the sentence keys that
/// retrieve its sources ([`crate::index::sentence_keys`]).
pub(crate) fn sentences(starts: &[u32], len: usize) -> Vec<Range<usize>> {
    let mut bounds: Vec<usize> = starts
        .iter()
        .map(|&s| s as usize)
        .filter(|&s| s < len)
        .collect();
    if bounds.first() != Some(&0) {
        bounds.insert(0, 0);
    }
    let mut out: Vec<Range<usize>> = Vec::with_capacity(bounds.len());
    let mut open = 0;
    for k in 0..bounds.len() {
        let end = bounds.get(k + 1).copied().unwrap_or(len);
        if end - open >= MIN_SENTENCE_WORDS || k + 1 == bounds.len() {
            out.push(open..end);
            open = end;
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// The sentence frequencies of both sides, as inverse weights `ln(N / df)`.
struct Weights {
    idf: HashMap<u32, f64>,
}

impl Weights {
    fn new(a: &Side, b: &Side) -> Weights {
        let mut df: HashMap<u32, u32> = HashMap::new();
        for terms in a.terms.iter().chain(&b.terms) {
            for &(t, _) in terms {
                *df.entry(t).or_insert(0) += 1;
            }
        }
        let n = (a.terms.len() + b.terms.len()) as f64;
        let idf = df
            .into_iter()
            .map(|(t, d)| (t, (n / f64::from(d)).ln()))
            .collect();
        Weights { idf }
    }

    fn of(&self, t: u32) -> f64 {
        self.idf.get(&t).copied().unwrap_or(0.0)
    }

    /// The tf-isf vector of a run of sentences (summed term counts), sorted by term.
    fn vector(&self, side: &Side, s: Range<usize>) -> Vec<(u32, f64)> {
        let mut sum: HashMap<u32, u32> = HashMap::new();
        for terms in &side.terms[s] {
            for &(t, c) in terms {
                *sum.entry(t).or_insert(0) += c;
            }
        }
        let mut v: Vec<(u32, f64)> = sum
            .into_iter()
            .map(|(t, c)| (t, f64::from(c) * self.of(t)))
            .collect();
        v.sort_unstable_by_key(|&(t, _)| t);
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

/// Cosine of two sparse vectors sorted by term.
fn cosine(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let norm = |v: &[(u32, f64)]| v.iter().map(|&(_, w)| w * w).sum::<f64>().sqrt();
    let det = norm(a) * norm(b);
    if det == 0.0 {
        return 0.0;
    }
    dot_and_shared(a, b).0 / det
}

/// A seed: draft sentence, source sentence.
type Seed = (usize, usize);

/// Sentence pairs similar enough to seed a passage.
fn seeds(draft: &Side, source: &Side, w: &Weights, opts: &RewriteOptions) -> Vec<Seed> {
    // A sentence's terms are already counted and sorted: weigh them in place.
    let vectors = |side: &Side| -> Vec<Vec<(u32, f64)>> {
        side.terms
            .iter()
            .map(|terms| {
                terms
                    .iter()
                    .map(|&(t, c)| (t, f64::from(c) * w.of(t)))
                    .collect()
            })
            .collect()
    };
    let (dv, sv) = (vectors(draft), vectors(source));
    let norm = |v: &[(u32, f64)]| v.iter().map(|&(_, x)| x * x).sum::<f64>().sqrt();
    let snorm: Vec<f64> = sv.iter().map(|v| norm(v)).collect();
    let mut postings: HashMap<u32, Vec<u32>> = HashMap::new();
    for (s, v) in sv.iter().enumerate() {
        for &(t, _) in v {
            postings.entry(t).or_default().push(s as u32);
        }
    }
    let mut seen = vec![false; sv.len()];
    let mut touched: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (d, v) in dv.iter().enumerate() {
        // Candidates: the source sentences sharing a term held by few of them. A term in more
        // sentences than that only adds to a pair another term found (its weight is in the
        // cosine below), so a text repeating itself costs linear time, not quadratic.
        for &(t, _) in v {
            let Some(p) = postings.get(&t) else { continue };
            if p.len() > MAX_SENTENCES_PER_TERM {
                continue;
            }
            for &s in p {
                let s = s as usize;
                if !seen[s] {
                    seen[s] = true;
                    touched.push(s);
                }
            }
        }
        let dn = norm(v);
        for &s in &touched {
            seen[s] = false;
            let (dot, shared) = dot_and_shared(v, &sv[s]);
            let det = dn * snorm[s];
            let cos = if det > 0.0 { dot / det } else { 0.0 };
            let dice = 2.0 * shared as f64 / (v.len() + sv[s].len()) as f64;
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

/// Clusters `seeds` with `gap` and keeps the passages that validate, re-clustering the others
/// with smaller gaps.
fn extend(
    seeds: Vec<Seed>,
    gap: usize,
    draft: &Side,
    source: &Side,
    w: &Weights,
    opts: &RewriteOptions,
    out: &mut Vec<Passage>,
) {
    for part in cluster(seeds, gap, 0, true) {
        let (d, s) = extent(&part);
        let sim = cosine(&w.vector(draft, d.clone()), &w.vector(source, s.clone()));
        if sim > opts.validate {
            out.push(Passage {
                seeds: part.len(),
                draft: d,
                source: s,
                sim,
            });
        } else if gap > 0 {
            extend(part, gap - 1, draft, source, w, opts, out);
        }
    }
}

/// Drops passages overlapping a more similar one on the draft side, and short ones.
fn filter(mut passages: Vec<Passage>, draft: &Side, source: &Side, min: usize) -> Vec<Passage> {
    passages.retain(|p| draft.words(&p.draft).len() >= min && source.words(&p.source).len() >= min);
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
    if draft.hashes.is_empty() || source.hashes.is_empty() {
        return Vec::new();
    }
    let (d, s) = (Side::new(draft), Side::new(source));
    let w = Weights::new(&d, &s);
    let seeds = seeds(&d, &s, &w, opts);
    if seeds.is_empty() {
        return Vec::new();
    }
    let run = |gap: usize| {
        let mut found = Vec::new();
        extend(seeds.clone(), gap, &d, &s, &w, opts, &mut found);
        filter(found, &d, &s, opts.min_words)
    };
    let mut passages = run(opts.gap);
    if opts.summary_gap > opts.gap {
        let summary = run(opts.summary_gap);
        let words = |ps: &[Passage], f: &dyn Fn(&Passage) -> usize| ps.iter().map(f).sum::<usize>();
        let dw = words(&summary, &|p| d.words(&p.draft).len());
        let sw = words(&summary, &|p| s.words(&p.source).len());
        if sw > 0 && sw >= SUMMARY_RATIO * dw {
            passages = summary;
        }
    }
    passages
        .iter()
        .map(|p| Match {
            draft: d.words(&p.draft),
            source: s.words(&p.source),
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
    let sentences = sentences(&draft.sentences, draft.hashes.len());
    let mut out: Vec<Match> = Vec::new();
    for d in detections {
        let held: std::collections::HashSet<u32> =
            source.hashes[d.source.clone()].iter().copied().collect();
        let first = sentences.partition_point(|r| r.end <= d.draft.start);
        for r in sentences[first..]
            .iter()
            .take_while(|r| r.start < d.draft.end)
        {
            let r = r.start.max(d.draft.start)..r.end.min(d.draft.end);
            let mut terms: Vec<u32> = draft.hashes[r.clone()].to_vec();
            terms.sort_unstable();
            terms.dedup();
            let shared = terms.iter().filter(|t| held.contains(t)).count();
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
