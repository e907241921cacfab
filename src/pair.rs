//! One draft against one source: exact, short-text and shingle evidence turned into a [`Finding`]
//! with spans in the original texts.
//!
//! A source is known in full ([`Source::Full`]: its text, so spans on both sides) or by its
//! record ([`Source::Record`]: every content word, so the same alignment, with spans in the draft
//! only). The alignment itself is [`crate::align`]'s, on folded words ([`Words`]) so that a text
//! and its record align alike; this module decides what the pair amounts to (an exact duplicate,
//! a short text judged whole, or the aligned fragments) and maps word indices to byte spans.
//! Resemblance and containment are exact, from the two shingle sets, either way.
//!
//! After alignment against a full source, each fragment is widened word by word (stop words
//! included) while the words just outside it are equal on both sides, so a highlight starts and
//! ends on the copied words a reader sees, not only on the content words that shingles are made of.

use crate::align::probe::{against_draft, distinct_shingles, DraftIndex};
use crate::align::rewrite::{combine, rewritten_in, DraftSentences, RewriteOptions};
use crate::align::translate::{self, DraftTranslations};
use crate::align::words::fold;
use crate::align::{Match, Words};
use crate::bilingual::Bilingual;
use crate::document::{Document, SourceInfo};
use crate::pack::Record;
use crate::{CheckOptions, Params};
use std::ops::Range;
use std::sync::OnceLock;

/// What was found between the draft and one source, in draft word indices (all words).
#[derive(Debug, Clone)]
pub struct Finding {
    /// The source.
    pub info: SourceInfo,
    /// Exact duplicate.
    pub exact: bool,
    /// Resemblance of the shingle sets.
    pub resemblance: f64,
    /// Containment of the draft's shingles in the source.
    pub containment: f64,
    /// Draft word ranges (indices into `canonical.words`) with source byte spans when known.
    pub spans: Vec<(Range<usize>, Option<Range<usize>>)>,
    /// Reused passages however reworded, as draft word ranges with source byte spans when known.
    pub rewrites: Vec<(Range<usize>, Option<Range<usize>>)>,
    /// Passages translated from the source (in the other language), the same way; found only
    /// when the draft carries a bilingual table ([`Draft::with_bilingual`]).
    pub translations: Vec<(Range<usize>, Option<Range<usize>>)>,
}

/// A draft as every pair needs it: the analysed document and its folded words, made once per
/// check rather than once per source.
#[derive(Debug, Clone)]
pub struct Draft<'a> {
    /// The analysed draft.
    pub doc: &'a Document,
    /// Its content words as alignment reads them.
    pub words: Words,
    /// Its side of every alignment, made when the first source is aligned (ranking candidates
    /// alone never needs it). A `OnceLock`, so that candidates can be aligned on several threads
    /// against one draft ([`crate::check::check_document`]): the first to need it makes it.
    side: OnceLock<Side>,
    n: usize,
    /// The table that carries its words into the other language, if translations are sought.
    bilingual: Option<&'a Bilingual>,
    /// Its words' translations through `bilingual` (none without a table, or when no word has
    /// one), looked up once for both retrieval and alignment.
    translations: OnceLock<Option<DraftTranslations>>,
}

/// The draft's side of every alignment.
#[derive(Debug, Clone)]
struct Side {
    /// Its shingles and word pairs by hash, and its vocabulary: each source's windows are looked
    /// up in them ([`crate::align::probe`]).
    index: DraftIndex,
    /// Its sentences' term counts, indexed by term: the draft's side of rewrite detection.
    sentences: DraftSentences,
}

impl<'a> Draft<'a> {
    /// Prepares `doc` (analysed with `params`) for alignment.
    pub fn new(doc: &'a Document, params: &Params) -> Self {
        let words = Words::from_hashes(&doc.hashes, params.n).with_sentences(doc.sentences.clone());
        Draft {
            doc,
            words,
            side: OnceLock::new(),
            n: params.n,
            bilingual: None,
            translations: OnceLock::new(),
        }
    }

    /// The same draft, also sought as a translation of sources in the other language through
    /// `table` (which must be made for the draft's params, [`Bilingual::check`] with their stemming).
    pub fn with_bilingual(self, table: Option<&'a Bilingual>) -> Self {
        Draft {
            bilingual: table.filter(|t| !t.is_empty()),
            side: OnceLock::new(),
            translations: OnceLock::new(),
            ..self
        }
    }

    /// The sentence keys its sources in the other language may hold, with each key's sentence
    /// number ([`DraftTranslations::lookups`]); `None` without a bilingual table.
    pub(crate) fn translated_lookups(&self) -> Option<(Vec<u32>, Vec<u32>)> {
        Some(self.translations()?.lookups(&self.words))
    }

    /// Its words' translations, looked up on first use.
    fn translations(&self) -> Option<&DraftTranslations> {
        self.translations
            .get_or_init(|| {
                let table = self.bilingual?;
                Some(DraftTranslations::new(&self.doc.hashes, |h| {
                    table.translations(h)
                }))
                .filter(|t| !t.is_empty())
            })
            .as_ref()
    }

    fn side(&self) -> &Side {
        self.side.get_or_init(|| Side {
            index: DraftIndex::new(&self.words, self.n),
            sentences: DraftSentences::new(&self.words),
        })
    }

    /// Resemblance and containment of the draft's shingle set and a source's, from the distinct
    /// draft shingles the source holds (`shared`) and the source's distinct shingles:
    /// [`crate::sketch::exact_similarity`] of the two sets.
    fn similarity(&self, shared: usize, source: usize) -> (f64, f64) {
        // A source holds at least the shingles it shares: a record from a hostile pack may claim
        // fewer (its count is checked to be possible, not recounted), and must not make the
        // resemblance exceed 1.
        let source = source.max(shared);
        let draft = self.side().index.shingles.distinct();
        let union = draft + source - shared;
        let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        (share(shared, union), share(shared, draft))
    }
}

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

/// Marks `finding` as an exact duplicate. The same content words make the same shingle set, so
/// resemblance and containment are 1, also for texts too short to have a shingle (whose empty
/// sets would otherwise give 0 next to "exact").
fn mark_exact(finding: &mut Finding) {
    finding.exact = true;
    finding.resemblance = 1.0;
    finding.containment = 1.0;
}

/// A pair sharing an exact copy of this many content words (about 250 characters of text) is a
/// verbatim copy: its shingle detections are exact, and sentence-level passages would only blur
/// their ends. The PAN 2014 winner made the same switch at a 256-character common substring;
/// on PAN 2013 training, 20, 25 and 30 give verbatim 0.921, 0.921, 0.918 and summaries 0.53,
/// 0.57, 0.58 (docs/EVALUATION.md).
const VERBATIM_WORDS: usize = 25;

/// What one draft and one source whose content words are known amount to, in content words.
struct Aligned {
    finding: Finding,
    /// Highlight fragments and detections (empty for an exact duplicate).
    fragments: Vec<Match>,
    detections: Vec<Match>,
    /// The parts of the detections shown as rewritten ([`rewritten`]).
    rewritten: Vec<Match>,
    /// The parts of translated passages shown as translated.
    translated: Vec<Match>,
    /// The short-text method judges the draft a copy of this source as a whole.
    short_match: bool,
}

/// A source as [`align_pair`] reads it, whether known by its text or by its record.
struct SourceSide<'a> {
    /// Its folded words and sentence starts (its shingles are not read).
    words: &'a Words,
    /// The number of its distinct shingles, when known (a record); counted otherwise.
    distinct: Option<usize>,
    exact: u64,
    short: &'a crate::short::ShortSignature,
}

/// The one alignment of a pair, whether the source is known by its text or by its record.
/// Resemblance and containment are computed when `similarity` asks for them or the pair has
/// something to show (fragments, rewrites, a short-text match); otherwise they are left at 0.
fn align_pair(
    draft: &Draft<'_>,
    source_side: SourceSide<'_>,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
    similarity: bool,
) -> Aligned {
    let SourceSide {
        words: source,
        distinct,
        exact,
        short,
    } = source_side;
    let mut finding = Finding {
        info,
        exact: false,
        resemblance: 0.0,
        containment: 0.0,
        spans: Vec::new(),
        rewrites: Vec::new(),
        translations: Vec::new(),
    };
    if draft.doc.exact == exact && draft.words.hashes == source.hashes {
        mark_exact(&mut finding);
        return Aligned {
            finding,
            fragments: Vec::new(),
            detections: Vec::new(),
            rewritten: Vec::new(),
            translated: Vec::new(),
            short_match: false,
        };
    }
    let side = draft.side();
    let probed = against_draft(&draft.words, &side.index, &source.hashes, params, opts);
    let verbatim = probed.longest >= VERBATIM_WORDS;
    let detections = if verbatim {
        probed.detections
    } else {
        let passages = side.sentences.rewrites(source, &RewriteOptions::default());
        combine(probed.detections, &passages)
    };
    let short_match =
        draft.doc.is_short(opts) && draft.doc.short.similarity(short) >= opts.short_similarity;
    let rewritten = rewritten_in(side.sentences.ranges(), &draft.words, source, &detections);
    let translated = draft
        .translations()
        .and_then(|t| translate::translations(&draft.words, t, source, &RewriteOptions::default()))
        .map(|(carried, passages)| {
            rewritten_in(side.sentences.ranges(), &carried, source, &passages)
        })
        .unwrap_or_default();
    let shown = !probed.fragments.is_empty() || !rewritten.is_empty() || !translated.is_empty();
    if similarity || short_match || shown {
        let distinct = distinct.unwrap_or_else(|| distinct_shingles(&source.hashes, params.n));
        (finding.resemblance, finding.containment) = draft.similarity(probed.shared, distinct);
    }
    Aligned {
        finding,
        fragments: probed.fragments,
        detections,
        rewritten,
        translated,
        short_match,
    }
}

thread_local! {
    /// [`find_record`]'s source words (shingles not made, as [`unshingled`]), refilled for each
    /// record.
    static RECORD: std::cell::RefCell<Words> = std::cell::RefCell::default();
}

/// A source's folded words and sentence starts, as [`align_pair`] reads them: its shingles are
/// not made (the draft's side is indexed instead, [`crate::align::probe`]).
fn unshingled(hashes: Vec<u32>, sentences: Vec<u32>) -> Words {
    Words {
        hashes,
        shingles: Vec::new(),
        sentences,
    }
}

/// Everything known between `draft` and a fully known `source`, with spans on both sides.
pub fn find(
    draft: &Document,
    source: &Document,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    find_with_detections(draft, source, info, params, opts).0
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
) -> (Finding, Vec<Detection>) {
    find_full(&Draft::new(draft, params), source, info, params, opts)
}

pub(crate) fn find_full(
    draft: &Draft<'_>,
    source: &Document,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
) -> (Finding, Vec<Detection>) {
    let words = unshingled(
        source.hashes.iter().map(|&h| u32::from(fold(h))).collect(),
        source.sentences.clone(),
    );
    let a = align_pair(
        draft,
        SourceSide {
            words: &words,
            distinct: None,
            exact: source.exact,
            short: &source.short,
        },
        info,
        params,
        opts,
        true,
    );
    let doc = draft.doc;
    let all_draft = 0..doc.canonical.words.len();
    let all_source = 0..source.canonical.words.len();
    let mut finding = a.finding;
    let whole = (all_draft, Some(bytes(source, &all_source)));
    if finding.exact {
        finding.spans = vec![whole];
        return (finding, Vec::new());
    }
    // A fragment's or a rewrite's span: draft words, and the source's bytes.
    let span = |m: &Match| {
        let (d, s) = widened(doc, source, m);
        (d, Some(bytes(source, &s)))
    };
    finding.spans = a.fragments.iter().map(span).collect();
    let detections = a
        .detections
        .iter()
        .map(|m| {
            let (d, s) = widened(doc, source, m);
            (bytes(doc, &d), bytes(source, &s))
        })
        .collect();
    if a.short_match {
        // The short-text method judges the draft as a whole: all of it matches this source.
        finding.spans = vec![whole];
    } else {
        // A rewrite is a run of whole sentences, not a copy: it is not widened over equal
        // neighbouring words (which would reach into a copy's ragged end), so it covers the same
        // draft words as against the source's record.
        let whole_sentences = |ms: &[Match]| {
            ms.iter()
                .map(|m| {
                    let s = word_range(source, &m.source);
                    (word_range(doc, &m.draft), Some(bytes(source, &s)))
                })
                .collect()
        };
        finding.rewrites = whole_sentences(&a.rewritten);
        finding.translations = whole_sentences(&a.translated);
    }
    (finding, detections)
}

/// What is known between `draft` and a source known by its record: the same alignment as
/// against its text, with spans in the draft only and no widening over stop words (a record has
/// content words only), so a highlight starts and ends on content words. A finding with nothing
/// to show (no span, no rewrite: a report leaves it out) has resemblance and containment 0,
/// not computed.
pub fn find_record(
    draft: &Draft<'_>,
    record: &Record,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    find_record_as(draft, record, record.info.clone(), params, opts)
}

/// [`find_record`] of a record the caller is done with: its identity moves into the finding
/// instead of being copied (three strings a candidate).
pub fn find_owned_record(
    draft: &Draft<'_>,
    mut record: Record,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    let info = std::mem::take(&mut record.info);
    find_record_as(draft, &record, info, params, opts)
}

/// [`find_record`], the finding naming the source `info`.
fn find_record_as(
    draft: &Draft<'_>,
    record: &Record,
    info: SourceInfo,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    // The record's words, in the memory of the last record's.
    let a = RECORD.with_borrow_mut(|words| {
        words.hashes.clear();
        words
            .hashes
            .extend(record.words().iter().map(|&h| u32::from(h)));
        words.sentences.clear();
        words.sentences.extend_from_slice(&record.sentences);
        align_pair(
            draft,
            SourceSide {
                words,
                distinct: record.distinct_shingles(params.n),
                exact: record.exact,
                short: &record.short,
            },
            info,
            params,
            opts,
            false,
        )
    });
    let doc = draft.doc;
    let mut finding = a.finding;
    let draft_only = |ms: &[Match]| {
        ms.iter()
            .map(|m| (word_range(doc, &m.draft), None))
            .collect()
    };
    if finding.exact || a.short_match {
        finding.spans = vec![(0..doc.canonical.words.len(), None)];
    } else {
        finding.spans = draft_only(&a.fragments);
        finding.rewrites = draft_only(&a.rewritten);
        finding.translations = draft_only(&a.translated);
    }
    finding
}

/// A source document to check a draft against.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// Known in full: spans on both sides.
    Full(&'a SourceInfo, &'a Document),
    /// Known by its record: every content word, draft spans only.
    Record(&'a Record),
}

impl Source<'_> {
    /// Who the source is.
    pub fn info(&self) -> &SourceInfo {
        match self {
            Source::Full(info, _) => info,
            Source::Record(r) => &r.info,
        }
    }
}

/// What is known between `draft` and `source`, whichever way the source is known.
pub fn find_source(
    draft: &Draft<'_>,
    source: Source<'_>,
    params: &Params,
    opts: &CheckOptions,
) -> Finding {
    match source {
        Source::Full(info, doc) => find_full(draft, doc, info.clone(), params, opts).0,
        Source::Record(r) => find_record(draft, r, params, opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sketch::exact_similarity;
    use crate::Format;
    use proptest::prelude::*;

    proptest! {
        /// Resemblance and containment from the draft's side are those of the two shingle sets,
        /// repeated shingles included.
        #[test]
        fn similarity_from_the_draft_side_is_the_exact_one(
            draft in prop::collection::vec(0u32..12, 0..60),
            source in prop::collection::vec(0u32..12, 0..60),
        ) {
            let params = Params::default();
            let text = |w: &[u32]| w.iter().map(|i| format!("word{i}x")).collect::<Vec<_>>().join(" ");
            let Ok(doc) = Document::analyze(&text(&draft), Format::Plain, &params, 1 << 20) else {
                return Ok(());
            };
            let draft = Draft::new(&doc, &params);
            // The source's words are the draft's, in another order and number.
            let pool = &doc.hashes;
            let source: Vec<u32> = source.iter().map(|&i| pool[i as usize % pool.len()]).collect();
            let source = Words::from_hashes(&source, params.n);
            let expected = exact_similarity(
                draft.words.shingles.iter().map(|s| s.hash),
                source.shingles.iter().map(|s| s.hash),
            );
            let opts = CheckOptions::default();
            let probed = against_draft(&draft.words, &draft.side().index, &source.hashes, &params, &opts);
            let distinct = distinct_shingles(&source.hashes, params.n);
            prop_assert_eq!(draft.similarity(probed.shared, distinct), expected);
        }
    }
}
