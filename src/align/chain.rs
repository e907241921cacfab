//! Chaining: a draft's fragments against one source, joined into detections.
//!
//! Two views come out of one alignment: highlight fragments (exact copies, what uniqueness counts)
//! and detections (one per reused passage, however reworded: chains of fragments along one
//! diagonal, extended by shared word pairs). Guarantees: a highlight is the words of shared runs of
//! `n` content words, word for word (fragments are aligned joined over at most `gap` other words,
//! which is what chains read, then cut to what matches, [`super::seeds`]); every detection holds
//! at least one such run; no detection has more than half of its draft span inside stronger
//! detections.

use super::coverage::Coverage;
use super::seeds::{align, exact_pieces, Match, ShingleIndex, SourceIndex, MAX_ACTIVE};
use super::words::Words;
use crate::shingle::{shingles, Shingle};
use crate::{CheckOptions, Params};

/// Shingle length of the extension evidence: pairs of content words, which survive rewording far
/// more often than the `n` = 4 shingles of the anchors.
pub(crate) const EXTENSION_N: usize = 2;
/// Largest run of unmatched draft or source words between an extension fragment and the chain it
/// joins (anchors join over `merge_gap`).
const EXTENSION_GAP: usize = 24;
/// An extended detection must have matched at least this share of its draft span, in percent:
/// a reworded copy keeps pairs of words every few words; chance pairs of same-topic texts are
/// scattered.
const EXTENSION_DENSITY: usize = 40;

/// The [`EXTENSION_N`]-word shingles of a draft's content words: the draft's side of the
/// extension, indexed once per check ([`super::probe::DraftIndex`]).
pub(crate) fn word_pairs(draft: &Words) -> Vec<Shingle> {
    shingles(&draft.hashes, EXTENSION_N)
}

/// A chain of fragments: one detection.
struct Chain {
    /// The detection's extent (draft and source words) and seed count.
    m: Match,
    /// Draft words covered by all its fragments, each counted once.
    matched: usize,
    /// Draft words covered by its anchors (the `n`-word fragments), each counted once.
    anchored: usize,
    /// The last fragment joined, whose diagonal the next one must continue.
    last: Match,
    /// Its anchors: indices into the fine fragments.
    anchors: Vec<usize>,
}

/// What counts between `draft` and a source: the highlight fragments and the detections.
///
/// Fragments are the draft's `n`-word shingles aligned and joined over `opts.gap`; the callers cut
/// the anchors of counted detections that this returns to their word-for-word pieces for the
/// highlight. Detections chain fragments along one diagonal band over
/// `opts.merge_gap`, so a reworded copy's pieces add up; with `extension`, 2-word shingle
/// fragments join chains too, over [`EXTENSION_GAP`]. A detection counts when its
/// anchors cover `opts.min_fragment_words` draft words, or, extended, when it has an anchor, all
/// its fragments cover `opts.extend_min_words` draft words and at least [`EXTENSION_DENSITY`] %
/// of its span. The anchors of counted detections are the highlight; where counted detections
/// overlap by more than half on the draft side (a passage the source repeats), the one with more
/// matched words is kept.
///
/// Cost: O(f · a) to chain f fragments with at most `MAX_ACTIVE` open chains, and O(d log d) over
/// the draft's d content words to resolve overlaps.
///
/// `fine` are the anchors ([`align`] of the draft's `n`-word shingles); `extension` aligns the
/// draft's [`EXTENSION_N`]-word shingles, and is called only when there is an anchor and
/// `opts.extend_min_words` asks for the extension.
pub(crate) fn chain(
    fine: Vec<Match>,
    extension: impl FnOnce() -> Vec<Match>,
    params: &Params,
    opts: &CheckOptions,
) -> (Vec<Match>, Vec<Match>) {
    if fine.is_empty() {
        // No anchor: no chain can count, whatever the extension would add.
        return (Vec::new(), Vec::new());
    }
    let extra: Vec<Match> = if opts.extend_min_words > 0 {
        extension()
    } else {
        Vec::new()
    };
    // Anchors and extension fragments in draft order; `i < fine.len()` is an anchor.
    let frag = |i: usize| {
        if i < fine.len() {
            &fine[i]
        } else {
            &extra[i - fine.len()]
        }
    };
    let merge_gap = opts.merge_gap.max(opts.gap);
    let diagonal = |m: &Match| m.source.start as i64 - m.draft.start as i64;
    let mut active: Vec<Chain> = Vec::new();
    let mut chains: Vec<Chain> = Vec::new();
    let min = opts.min_fragment_words.max(1);
    // Without extension evidence a chain's matched words are its anchors: `min` alone decides.
    let extended = if extra.is_empty() {
        usize::MAX
    } else {
        opts.extend_min_words.max(1)
    };
    // Only chains that count are kept: a long draft may have millions of chance matches.
    let counts = |c: &Chain| {
        c.anchored >= min
            || (c.anchored > 0
                && c.matched >= extended
                && c.matched * 100 >= EXTENSION_DENSITY * c.m.draft.len())
    };
    let key = |m: &Match| (m.draft.start, m.source.start);
    let (mut a, mut b) = (0, 0);
    while a < fine.len() || b < extra.len() {
        // Both lists are in draft order: merge them.
        let i = if b == extra.len() || (a < fine.len() && key(&fine[a]) <= key(&extra[b])) {
            a += 1;
            a - 1
        } else {
            b += 1;
            fine.len() + b - 1
        };
        let (f, anchor) = (frag(i), i < fine.len());
        let gap = if anchor { merge_gap } else { EXTENSION_GAP };
        let mut k = 0;
        while k < active.len() {
            if active[k].m.draft.end + merge_gap.max(EXTENSION_GAP) < f.draft.start {
                let c = active.swap_remove(k);
                if counts(&c) {
                    chains.push(c);
                }
            } else {
                k += 1;
            }
        }
        // The open chain this fragment continues best: near on both sides, on a near diagonal (a
        // reworded copy drifts by its insertions, deletions and reordering).
        let best = active
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                f.draft.start <= c.m.draft.end + gap
                    && f.source.start <= c.m.source.end + gap
                    && f.source.end + gap >= c.last.source.start
            })
            .map(|(k, c)| (k, (diagonal(&c.last) - diagonal(f)).unsigned_abs() as usize))
            .filter(|&(_, drift)| drift <= merge_gap + params.n)
            .min_by_key(|&(_, drift)| drift)
            .map(|(k, _)| k);
        let new_words = |c: &Chain| f.draft.end.saturating_sub(f.draft.start.max(c.m.draft.end));
        match best {
            Some(k) => {
                let c = &mut active[k];
                c.matched += new_words(c);
                if anchor {
                    // Anchors are in draft order among themselves: count past the last one.
                    let last_anchor = c.anchors.last().map_or(0, |&a| fine[a].draft.end);
                    c.anchored += f.draft.end.saturating_sub(f.draft.start.max(last_anchor));
                    c.anchors.push(i);
                }
                c.m.draft.end = c.m.draft.end.max(f.draft.end);
                c.m.source.start = c.m.source.start.min(f.source.start);
                c.m.source.end = c.m.source.end.max(f.source.end);
                c.m.seeds += f.seeds;
                c.last = f.clone();
            }
            None if active.len() < MAX_ACTIVE => active.push(Chain {
                m: f.clone(),
                matched: f.draft.len(),
                anchored: if anchor { f.draft.len() } else { 0 },
                last: f.clone(),
                anchors: if anchor { vec![i] } else { Vec::new() },
            }),
            None => {}
        }
    }
    chains.extend(active.into_iter().filter(|c| counts(c)));

    let mut keep = vec![false; fine.len()];
    for c in &chains {
        for &i in &c.anchors {
            keep[i] = true;
        }
    }
    let fragments = fine
        .iter()
        .zip(keep)
        .filter(|&(_, k)| k)
        .map(|(f, _)| f.clone())
        .collect();

    // Overlapping detections: strongest first, a detection is dropped when more than half of its
    // draft span is already covered by stronger ones.
    chains.sort_by_key(|c| (std::cmp::Reverse(c.matched), c.m.draft.start));
    let words = chains.iter().map(|c| c.m.draft.end).max().unwrap_or(0);
    let mut covered = Coverage::new(words);
    let mut detections = Vec::with_capacity(chains.len());
    for c in chains {
        let span = c.m.draft.clone();
        if 2 * covered.count(span.clone()) <= span.len() {
            covered.cover(span);
            detections.push(c.m);
        }
    }
    detections.sort_by_key(|m| (m.draft.start, m.source.start));
    (fragments, detections)
}

/// Fragments and detections of `draft` in a source whose every content word is known (its text,
/// or its record): every shingle, and the extension by shared word pairs when
/// `opts.extend_min_words` asks for it.
///
/// # Example
/// ```
/// use uniqcheck::align::{against_words, Words};
/// use uniqcheck::{CheckOptions, Params};
/// let source: Vec<u32> = (100..160).collect();
/// let draft: Vec<u32> = (1..6).chain(110..140).collect();
/// let (p, o) = (Params::default(), CheckOptions::default());
/// let (fragments, detections) =
///     against_words(&Words::from_hashes(&draft, p.n), &Words::from_hashes(&source, p.n), &p, &o);
/// assert_eq!((fragments[0].draft.clone(), fragments[0].source.clone()), (5..35, 10..40));
/// assert_eq!(detections.len(), 1);
/// ```
pub fn against_words(
    draft: &Words,
    source: &Words,
    params: &Params,
    opts: &CheckOptions,
) -> (Vec<Match>, Vec<Match>) {
    let index = ShingleIndex::new(&source.shingles);
    let fine = align(&draft.shingles, &index, params.n, opts.gap);
    let extension = || {
        align(
            &word_pairs(draft),
            &ShingleIndex::new(&word_pairs(source)),
            EXTENSION_N,
            opts.gap,
        )
    };
    let (fragments, detections) = chain(fine, extension, params, opts);
    let positions = |i: usize| index.positions(draft.shingles[i].hash);
    (exact_pieces(&fragments, positions, params.n), detections)
}

/// How many words of `draft` and of `source` their copied passages cover: the fragments of the
/// detections that count (as [`against_words`] finds them, before they are cut to their
/// word-for-word pieces), so a copy with a word changed here and there covers all of itself,
/// while a sentence of its own between two copies does not. Without the extension by word pairs:
/// this measures copies, not rewrites.
///
/// # Example
/// ```
/// use uniqcheck::align::{chain::covered_words, Words};
/// use uniqcheck::{CheckOptions, Params};
/// let source: Vec<u32> = (100..160).collect();
/// let mut draft: Vec<u32> = (1..11).chain(100..140).collect();
/// draft[30] = 9999; // a word changed inside the copy
/// let (p, o) = (Params::default(), CheckOptions::default());
/// let words = |w: &[u32]| Words::from_hashes(w, p.n);
/// assert_eq!(covered_words(&words(&draft), &words(&source), &p, &o), (40, 40));
/// ```
pub fn covered_words(
    draft: &Words,
    source: &Words,
    params: &Params,
    opts: &CheckOptions,
) -> (usize, usize) {
    let index = ShingleIndex::new(&source.shingles);
    let fine = align(&draft.shingles, &index, params.n, opts.gap);
    let opts = CheckOptions {
        extend_min_words: 0,
        ..opts.clone()
    };
    let (fragments, _) = chain(fine, Vec::new, params, &opts);
    let union = |mut ranges: Vec<std::ops::Range<usize>>| {
        ranges.sort_by_key(|r| r.start);
        let (mut total, mut end) = (0, 0);
        for r in ranges {
            total += r.end.saturating_sub(r.start.max(end));
            end = end.max(r.end);
        }
        total
    };
    (
        union(fragments.iter().map(|f| f.draft.clone()).collect()),
        union(fragments.iter().map(|f| f.source.clone()).collect()),
    )
}
