//! One draft against one source: exact, short-text and shingle evidence turned into a [`Finding`]
//! with spans in the original texts.
//!
//! A source is known either in full ([`Source::Full`]: its words, so every shingle and spans on both
//! sides) or only as a pack carries it ([`Source::Packed`]: fingerprints and sketches, so draft
//! spans only, and a copied run shorter than `w + n - 1` words may be missed). The alignment
//! itself is [`crate::align`]'s; this module decides what the pair amounts to (an exact duplicate,
//! a short text judged whole, or the aligned fragments) and maps word indices to byte spans.
//!
//! After alignment against a full source, each fragment is widened word by word (stop words
//! included) while the words just outside it are equal on both sides, so a highlight starts and
//! ends on the copied words a reader sees, not only on the content words that shingles are made of.

use crate::align::{against_fingerprints, against_full, Match};
use crate::document::{Document, SourceInfo};
use crate::pack::PackedDocument;
use crate::report::Finding;
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
    if draft.is_short(opts) && draft.short.similarity(&source.short) >= opts.short_similarity {
        // The short-text method judges the draft as a whole: all of it matches this source.
        finding.spans = vec![(all_draft, Some(bytes(source, &all_source)))];
    }
    (finding, detections)
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
    finding.spans = against_fingerprints(draft, &source.fingerprints, params, opts)
        .into_iter()
        .map(|m| (word_range(draft, &m.draft), None))
        .collect();
    if draft.is_short(opts) && draft.short.similarity(&source.short) >= opts.short_similarity {
        finding.spans = vec![(all_draft, None)];
    }
    finding
}

/// What is known between `draft` and `source`, whichever way the source is known (the sketch
/// estimates of resemblance and containment; exact ones need [`find`] with `exact_sets`).
pub fn find_source(
    draft: &Document,
    source: Source<'_>,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    match source {
        Source::Full(info, doc) => find(draft, doc, info.clone(), params, opts, false),
        Source::Packed(p) => find_packed(draft, p, params, opts),
    }
}
