//! One draft against one source: exact, short-text and shingle evidence turned into a [`Finding`].
//!
//! A source is known either in full ([`Source::Full`]: its words, so every shingle and spans on both
//! sides) or only as a pack carries it ([`Source::Packed`]: fingerprints and sketches, so draft
//! spans only, and a copied run shorter than `w + n - 1` words may be missed).
//!
//! Two views come out of one alignment: highlight fragments (exact copies, what uniqueness counts)
//! and detections (one per reused passage, however reworded: chains of fragments along one
//! diagonal, extended by shared word pairs when the source is known in full). Guarantees: a
//! highlight is exact shared runs of `n` content words joined over at most `gap` other words
//! (then widened by equal neighbouring words, below); every detection holds at least one such
//! run; no detection has more than half of its draft span inside stronger detections.
//!
//! After alignment against a full source, each fragment is widened word by word (stop words included) while the words
//! just outside it are equal on both sides, so a highlight starts and ends on the copied words a
//! reader sees, not only on the content words that shingles are made of.

use crate::align::{align, FingerprintIndex, Match, ShingleIndex, SourceIndex, MAX_ACTIVE};
use crate::document::Document;
use crate::pack::PackedDocument;
use crate::report::{Finding, Method, Report, SourceInfo};
use crate::shingle::{shingles, Shingle};
use crate::sketch::{containment_from_resemblance, exact_similarity};
use crate::{CheckOptions, Params};
use std::ops::Range;

/// Word range (indices into `canonical.words`) of content range `r`.
fn word_range(doc: &Document, r: &Range<usize>) -> Range<usize> {
    let c = &doc.canonical.content;
    c[r.start] as usize..c[r.end - 1] as usize + 1
}

/// Widens a matched pair of word ranges while the neighbouring words are equal.
fn widen(
    draft: &Document,
    source: &Document,
    mut d: Range<usize>,
    mut s: Range<usize>,
) -> (Range<usize>, Range<usize>) {
    let (dw, sw) = (&draft.canonical.words, &source.canonical.words);
    while d.start > 0 && s.start > 0 && dw[d.start - 1].hash == sw[s.start - 1].hash {
        d.start -= 1;
        s.start -= 1;
    }
    while d.end < dw.len() && s.end < sw.len() && dw[d.end].hash == sw[s.end].hash {
        d.end += 1;
        s.end += 1;
    }
    (d, s)
}

/// Byte span of a word range.
fn bytes(doc: &Document, r: &Range<usize>) -> Range<usize> {
    let w = &doc.canonical.words;
    w[r.start].start as usize..w[r.end - 1].end as usize
}

/// Shingle length of the extension evidence: pairs of content words, which survive rewording far
/// more often than the `n` = 4 shingles of the anchors.
const EXTENSION_N: usize = 2;
/// Largest run of unmatched draft or source words between an extension fragment and the chain it
/// joins (anchors join over `merge_gap`).
const EXTENSION_GAP: usize = 24;
/// An extended detection must have matched at least this share of its draft span, in percent:
/// a reworded copy keeps pairs of words every few words; chance pairs of same-topic texts are
/// scattered.
const EXTENSION_DENSITY: usize = 40;

/// Weaker evidence that extends detections against a fully known source: the [`EXTENSION_N`]-word
/// shingles of both texts' content words.
struct Extension {
    draft: Vec<Shingle>,
    source: ShingleIndex,
}

impl Extension {
    fn new(draft: &Document, source: &Document) -> Self {
        Extension {
            draft: shingles(&draft.hashes, EXTENSION_N),
            source: ShingleIndex::new(&shingles(&source.hashes, EXTENSION_N)),
        }
    }
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
/// Fragments are the draft's `n`-word shingles aligned and joined over `opts.gap`: the exact
/// copies a writer sees highlighted. Detections chain fragments along one diagonal band over
/// `opts.merge_gap`, so a reworded copy's pieces add up; with `extension` (a fully known source),
/// 2-word shingle fragments join chains too, over [`EXTENSION_GAP`]. A detection counts when its
/// anchors cover `opts.min_fragment_words` draft words, or, extended, when it has an anchor, all
/// its fragments cover `opts.extend_min_words` draft words and at least [`EXTENSION_DENSITY`] %
/// of its span. The anchors of counted detections are the highlight; where counted detections
/// overlap by more than half on the draft side (a passage the source repeats), the one with more
/// matched words is kept.
///
/// Cost: O(f · a) to chain f fragments with at most `MAX_ACTIVE` open chains, and O(d log d) over
/// the draft's d content words to resolve overlaps.
fn significant(
    draft: &Document,
    index: &impl SourceIndex,
    params: &Params,
    opts: &CheckOptions,
    extension: Option<&Extension>,
) -> (Vec<Match>, Vec<Match>) {
    let fine = align(&draft.shingles, index, params.n, opts.gap);
    // `against_full` builds the extension only when `opts.extend_min_words` asks for it.
    let extra: Vec<Match> = extension.map_or_else(Vec::new, |e| {
        align(&e.draft, &e.source, EXTENSION_N, opts.gap)
    });
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

/// Which of `0..len` are covered: cover a range, count the covered in a range, both in
/// O(log len) amortized (each position is covered once: a Fenwick tree of covered positions and a
/// skip list of the next uncovered one).
struct Coverage {
    tree: Vec<u32>,
    next: Vec<u32>,
}

impl Coverage {
    fn new(len: usize) -> Self {
        Coverage {
            tree: vec![0; len + 1],
            next: (0..=len as u32).collect(),
        }
    }

    /// The first uncovered position at or after `i` (`len` if none), shortening paths on the way.
    fn uncovered(&mut self, mut i: usize) -> usize {
        let mut root = i;
        while self.next[root] as usize != root {
            root = self.next[root] as usize;
        }
        while self.next[i] as usize != root {
            let up = self.next[i] as usize;
            self.next[i] = root as u32;
            i = up;
        }
        root
    }

    fn cover(&mut self, r: Range<usize>) {
        let mut i = self.uncovered(r.start);
        while i < r.end {
            let mut t = i + 1;
            while t < self.tree.len() {
                self.tree[t] += 1;
                t += t & t.wrapping_neg();
            }
            self.next[i] = i as u32 + 1;
            i = self.uncovered(i + 1);
        }
    }

    fn prefix(&self, mut i: usize) -> usize {
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i] as usize;
            i &= i - 1;
        }
        sum
    }

    fn count(&self, r: Range<usize>) -> usize {
        self.prefix(r.end) - self.prefix(r.start)
    }
}

/// Fragments and detections of `draft` in a fully known `source`, with the extension.
fn against_full(
    draft: &Document,
    source: &Document,
    params: &Params,
    opts: &CheckOptions,
) -> (Vec<Match>, Vec<Match>) {
    let extension = (opts.extend_min_words > 0).then(|| Extension::new(draft, source));
    significant(
        draft,
        &ShingleIndex::new(&source.shingles),
        params,
        opts,
        extension.as_ref(),
    )
}

/// A match's word ranges on both sides, widened over equal neighbouring words.
fn widened(draft: &Document, source: &Document, m: &Match) -> (Range<usize>, Range<usize>) {
    widen(
        draft,
        source,
        word_range(draft, &m.draft),
        word_range(source, &m.source),
    )
}

/// Everything known between `draft` and `source`. `exact_sets` asks for exact resemblance and
/// containment from the shingle sets instead of the MinHash estimates (affordable for one pair).
pub fn find(
    draft: &Document,
    source: &Document,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
    exact_sets: bool,
) -> Finding {
    find_with_detections(draft, source, info, params, opts, exact_sets).0
}

/// A detection: (draft byte span, source byte span).
pub type Detection = (Range<usize>, Range<usize>);

/// [`find`], and the detections from the same alignment, widened, as (draft byte span, source
/// byte span): one per passage reused, however reworded, which is what PAN's text-alignment
/// measures score (the highlight and uniqueness use the narrower fragments instead). An exact
/// duplicate (`Finding::exact`) has no detections here: it is one whole.
pub fn find_with_detections(
    draft: &Document,
    source: &Document,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
    exact_sets: bool,
) -> (Finding, Vec<Detection>) {
    let all_draft = 0..draft.canonical.words.len();
    let all_source = 0..source.canonical.words.len();
    let (resemblance, containment) = if exact_sets {
        exact_similarity(
            draft.shingles.iter().map(|s| s.hash),
            source.shingles.iter().map(|s| s.hash),
        )
    } else {
        let r = draft.sketch.resemblance(&source.sketch);
        (
            r,
            containment_from_resemblance(r, draft.sketch.set_size, source.sketch.set_size),
        )
    };
    let mut finding = Finding {
        info,
        exact: false,
        resemblance,
        containment,
        spans: Vec::new(),
    };
    if draft.exact == source.exact && draft.hashes == source.hashes {
        finding.exact = true;
        finding
            .spans
            .push((all_draft.clone(), Some(bytes(source, &all_source))));
        return (finding, Vec::new());
    }
    let (fragments, detections) = against_full(draft, source, params, opts);
    finding.spans = fragments
        .iter()
        .map(|m| {
            let (d, s) = widened(draft, source, m);
            (d, Some(bytes(source, &s)))
        })
        .collect();
    let detections = detections
        .iter()
        .map(|m| {
            let (d, s) = widened(draft, source, m);
            (bytes(draft, &d), bytes(source, &s))
        })
        .collect();
    if is_short(draft, opts) && draft.short.similarity(&source.short) >= opts.short_similarity {
        // The short-text method judges the draft as a whole: all of it matches this source.
        finding.spans = vec![(all_draft, Some(bytes(source, &all_source)))];
    }
    (finding, detections)
}

/// Whether the short-text method applies to `draft`.
pub fn is_short(draft: &Document, opts: &CheckOptions) -> bool {
    draft.content_words() < opts.short_threshold
}

/// A source document to check a draft against.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// Known in full: spans on both sides.
    Full(&'a SourceInfo, &'a Document),
    /// Known as a pack carries it: draft spans only.
    Packed(&'a PackedDocument),
}

/// What can be known between `draft` and a packed source, from fingerprints and sketches alone.
pub fn find_packed(
    draft: &Document,
    source: &PackedDocument,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    let resemblance = draft.sketch.resemblance(&source.sketch);
    let containment =
        containment_from_resemblance(resemblance, draft.sketch.set_size, source.sketch.set_size);
    let mut finding = Finding {
        info: source.info.clone(),
        exact: false,
        resemblance,
        containment,
        spans: Vec::new(),
    };
    let all_draft = 0..draft.canonical.words.len();
    if draft.exact == source.exact && draft.content_words() == source.words as usize {
        finding.exact = true;
        finding.spans.push((all_draft, None));
        return finding;
    }
    finding.spans = significant(
        draft,
        &FingerprintIndex::new(&source.fingerprints),
        params,
        opts,
        None,
    )
    .0
    .into_iter()
    .map(|m| (word_range(draft, &m.draft), None))
    .collect();
    if is_short(draft, opts) && draft.short.similarity(&source.short) >= opts.short_similarity {
        finding.spans = vec![(all_draft, None)];
    }
    finding
}

/// Checks `draft` against `sources` (the candidates an index found) and builds the report.
///
/// # Example
/// ```
/// use uniqcheck::{pair::{check_sources, Source}, pack::PackedDocument};
/// use uniqcheck::{CheckOptions, Document, Format, Params, SourceInfo};
/// let p = Params::default();
/// let text = "Robust winnowing keeps the rightmost minimum of every window of shingle hashes, \
///     which guarantees that any long enough shared passage yields a shared fingerprint.";
/// let source = Document::analyze(text, Format::Plain, &p, 1 << 20).unwrap();
/// let packed = PackedDocument::from_document(SourceInfo { id: "w".into(), ..Default::default() }, &source);
/// let draft = Document::analyze(&format!("As the paper says: {text}"), Format::Plain, &p, 1 << 20).unwrap();
/// let opts = CheckOptions { short_threshold: 0, ..Default::default() };
/// let report = check_sources(&draft, [Source::Packed(&packed)], &p, &opts);
/// assert_eq!(report.sources[0].info.id, "w");
/// assert!(report.uniqueness < 40.0);
/// ```
pub fn check_sources<'a>(
    draft: &Document,
    sources: impl IntoIterator<Item = Source<'a>>,
    params: &Params,
    opts: &CheckOptions,
) -> Report {
    let findings: Vec<Finding> = sources
        .into_iter()
        .map(|s| match s {
            Source::Full(info, doc) => find(draft, doc, info.clone(), params, opts, false),
            Source::Packed(p) => find_packed(draft, p, params, opts),
        })
        .collect();
    let method = method_for(draft, &findings, opts);
    Report::build(draft, findings, method)
}

/// The method that decides a report: an exact duplicate first, then the short-text method for a
/// short draft, else shingles.
pub fn method_for(draft: &Document, findings: &[Finding], opts: &CheckOptions) -> Method {
    if findings.iter().any(|f| f.exact && !f.spans.is_empty()) {
        Method::Exact
    } else if is_short(draft, opts) {
        Method::Short
    } else {
        Method::Shingles
    }
}

#[cfg(test)]
mod tests {
    use super::Coverage;
    use proptest::prelude::*;

    proptest! {
        /// Coverage answers as a plain array of flags would, whatever the order of ranges.
        #[test]
        fn coverage_counts_like_flags(ops in prop::collection::vec((0usize..200, 0usize..60, any::<bool>()), 1..60)) {
            let mut covered = Coverage::new(200);
            let mut flags = [false; 200];
            for (start, len, cover) in ops {
                let r = start..(start + len).min(200);
                if cover {
                    covered.cover(r.clone());
                    flags[r].iter_mut().for_each(|f| *f = true);
                } else {
                    let expected = flags[r.clone()].iter().filter(|&&f| f).count();
                    prop_assert_eq!(covered.count(r), expected);
                }
            }
        }
    }
}
