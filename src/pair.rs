//! One draft against one source: exact, short-text and shingle evidence turned into a [`Finding`].
//!
//! A source is known either in full ([`Source::Full`]: its words, so every shingle and spans on both
//! sides) or only as a pack carries it ([`Source::Packed`]: fingerprints and sketches, so draft
//! spans only, and a copied run shorter than `w + n - 1` words may be missed).
//!
//! After alignment against a full source, each fragment is widened word by word (stop words included) while the words
//! just outside it are equal on both sides, so a highlight starts and ends on the copied words a
//! reader sees, not only on the content words that shingles are made of.

use crate::align::{align, FingerprintIndex, Match, ShingleIndex, SourceIndex};
use crate::document::Document;
use crate::pack::PackedDocument;
use crate::report::{Finding, Method, Report, SourceInfo};
use crate::sketch::{containment_from_resemblance, intersection_size, shingle_set};
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

/// What counts between `draft` and a source: the highlight fragments (joined over `opts.gap`)
/// and the detections (joined over `opts.merge_gap`) whose span holds at least
/// `opts.min_fragment_words` highlighted draft words; a fragment is kept when it overlaps a kept
/// detection on the draft side. One alignment decides what is significant (the wide view, where a reworded copy's
/// pieces add up) and what is shown (the narrow view, where the writer's own words between copied
/// ones stay unmarked).
fn significant(
    draft: &Document,
    index: &impl SourceIndex,
    params: &Params,
    opts: &CheckOptions,
) -> (Vec<Match>, Vec<Match>) {
    let fine = align(&draft.shingles, index, params.n, opts.gap);
    let coarse = if opts.merge_gap > opts.gap {
        align(&draft.shingles, index, params.n, opts.merge_gap)
    } else {
        fine.clone()
    };
    let min = opts.min_fragment_words.max(1);
    // Highlighted words inside a detection's draft span: fragments are sorted by draft start and
    // (gap-joined) do not nest, so prefix sums of their lengths answer it in O(log n), however
    // many fragments a long or repetitive draft has.
    let mut prefix = Vec::with_capacity(fine.len() + 1);
    prefix.push(0usize);
    for f in &fine {
        prefix.push(prefix.last().copied().unwrap_or(0) + f.draft.len());
    }
    let matched = |c: &Match| -> usize {
        let i0 = fine.partition_point(|f| f.draft.start < c.draft.start);
        let i1 = fine.partition_point(|f| f.draft.start < c.draft.end);
        let mut words = prefix[i1] - prefix[i0];
        // The fragment reaching past the span's end counts only up to it; one starting before the
        // span counts from its start.
        if i1 > i0 {
            words -= fine[i1 - 1].draft.end.saturating_sub(c.draft.end);
        }
        if i0 > 0 {
            words += fine[i0 - 1]
                .draft
                .end
                .min(c.draft.end)
                .saturating_sub(c.draft.start);
        }
        words
    };
    let detections: Vec<Match> = coarse.into_iter().filter(|c| matched(c) >= min).collect();
    // A fragment is kept when a kept detection overlaps it: the latest detection starting before
    // the fragment ends, with the furthest end so far, decides.
    let mut furthest = Vec::with_capacity(detections.len());
    for c in &detections {
        furthest.push(furthest.last().copied().unwrap_or(0).max(c.draft.end));
    }
    let fragments = fine
        .into_iter()
        .filter(|f| {
            let j = detections.partition_point(|c| c.draft.start < f.draft.end);
            j > 0 && furthest[j - 1] > f.draft.start
        })
        .collect();
    (fragments, detections)
}

/// The highlight fragments of `draft` in `index` (see [`significant`]).
fn fragments(
    draft: &Document,
    index: &impl SourceIndex,
    params: &Params,
    opts: &CheckOptions,
) -> impl Iterator<Item = Match> {
    significant(draft, index, params, opts).0.into_iter()
}

/// The detections between `draft` and a fully known `source`, widened, as (draft byte span, source
/// byte span): one per passage reused, however reworded, which is what PAN's text-alignment
/// measures score. The highlight and uniqueness use the narrower fragments instead.
pub fn detections(
    draft: &Document,
    source: &Document,
    params: &Params,
    opts: &CheckOptions,
) -> Vec<(Range<usize>, Range<usize>)> {
    significant(draft, &ShingleIndex::new(&source.shingles), params, opts)
        .1
        .into_iter()
        .map(|m| {
            let (d, s) = widen(
                draft,
                source,
                word_range(draft, &m.draft),
                word_range(source, &m.source),
            );
            (bytes(draft, &d), bytes(source, &s))
        })
        .collect()
}

/// The aligned fragments of `draft` in a fully known `source`, widened, as (draft word range,
/// source byte span).
pub fn aligned_spans(
    draft: &Document,
    source: &Document,
    index: &ShingleIndex,
    params: &Params,
    opts: &CheckOptions,
) -> Vec<(Range<usize>, Option<Range<usize>>)> {
    fragments(draft, index, params, opts)
        .map(|m| {
            let (d, s) = widen(
                draft,
                source,
                word_range(draft, &m.draft),
                word_range(source, &m.source),
            );
            let span = bytes(source, &s);
            (d, Some(span))
        })
        .collect()
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
    let all_draft = 0..draft.canonical.words.len();
    let all_source = 0..source.canonical.words.len();
    let (resemblance, containment) = if exact_sets {
        let a = shingle_set(draft.shingles.iter().map(|s| s.hash));
        let b = shingle_set(source.shingles.iter().map(|s| s.hash));
        let inter = intersection_size(&a, &b);
        let union = a.len() + b.len() - inter;
        let r = if union == 0 {
            0.0
        } else {
            inter as f64 / union as f64
        };
        let c = if a.is_empty() {
            0.0
        } else {
            inter as f64 / a.len() as f64
        };
        (r, c)
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
        return finding;
    }
    finding.spans = aligned_spans(
        draft,
        source,
        &ShingleIndex::new(&source.shingles),
        params,
        opts,
    );
    if is_short(draft, opts) && draft.short.similarity(&source.short) >= opts.short_similarity {
        // The short-text method judges the draft as a whole: all of it matches this source.
        finding.spans = vec![(all_draft, Some(bytes(source, &all_source)))];
    }
    finding
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
    finding.spans = fragments(
        draft,
        &FingerprintIndex::new(&source.fingerprints),
        params,
        opts,
    )
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
