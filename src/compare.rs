//! Two known texts side by side: how much of A is in B, with spans on both sides.

use crate::document::Document;
use crate::document::SourceInfo;
use crate::pair::{find_full, Draft};
use crate::report::{Fragment, Method, PairSpan, Report, SourceMatch};
use crate::{CheckOptions, ComparedText, Error, Format, Params};
use serde::{Deserialize, Serialize};

/// The result of checking text A against text B.
///
/// A is the draft and B the source, and its JSON (the CLI's `compare --json`, the WebAssembly
/// `compare`) names each span pair as a report does: `{"draft": [start, end], "source": [start,
/// end]}` (before 0.2, `a` and `b`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Percent of A's content words not covered by a fragment found in B, 0..=100.
    pub uniqueness: f64,
    /// Exact resemblance of the two shingle sets `|A∩B| / |A∪B|`, 0..=1.
    pub resemblance: f64,
    /// Exact share of A's shingles found in B `|A∩B| / |A|`, 0..=1.
    pub containment: f64,
    /// Content words in A.
    pub words: usize,
    /// The method that decided.
    pub method: Method,
    /// Matched stretches as highlighted: `draft` is the span in A, `source` the span in B (byte
    /// offsets until converted with [`Comparison::map_offsets`]).
    pub fragments: Vec<PairSpan>,
    /// Reused passages, one per passage however reworded (fragments joined over
    /// [`CheckOptions::merge_gap`], extended by shared pairs of words up to
    /// [`CheckOptions::extend_min_words`]): what PAN's text-alignment measures score. They may
    /// include words between fragments that match nothing; where the source repeats a passage,
    /// the draft's copy is one detection.
    pub detections: Vec<PairSpan>,
    /// Percent of A's content words covered neither by a fragment nor by a rewrite, 0..=100.
    #[serde(default)]
    pub originality: f64,
    /// Stretches of A rewritten from B (reused, not copied word for word; [`Report::rewrites`]),
    /// each with the passage of B its detection covers.
    #[serde(default)]
    pub rewrites: Vec<PairSpan>,
    /// Stretches of A translated from B in the other language ([`Report::translations`]), each
    /// with the passage of B it was found in; sought only through a bilingual table
    /// ([`CheckOptions::bilingual`]).
    #[serde(default)]
    pub translations: Vec<PairSpan>,
}

impl Comparison {
    /// Rewrites A's offsets with `fa` and B's with `fb`.
    pub fn map_offsets(&mut self, fa: impl Fn(usize) -> usize, fb: impl Fn(usize) -> usize) {
        let all = self.fragments.iter_mut().chain(&mut self.detections);
        for p in all.chain(&mut self.rewrites).chain(&mut self.translations) {
            p.draft = [fa(p.draft[0]), fa(p.draft[1])];
            if let Some(s) = &mut p.source {
                *s = [fb(s[0]), fb(s[1])];
            }
        }
    }
}

/// Checks text `a` against text `b`.
///
/// Errors: those of [`Document::analyze`] for either text, but an empty one is
/// [`Error::EmptyInComparison`], which says which of the two it is.
///
/// # Example
/// ```
/// use uniqcheck::{compare, CheckOptions, Format, Method, Params};
/// let copied = "the quick brown fox jumps over the lazy dog near the quiet river bank while the \
/// old farmer counts his sheep and the morning mist slowly lifts over green hills";
/// let b = format!("An old fable begins: {copied}, and nobody notices.");
/// let a = format!("Yesterday I wrote: {copied}.");
/// // A text this short is also judged by the short-text method; most of it is copied.
/// let c = compare(&a, Format::Plain, &b, Format::Plain, &Params::default(), &CheckOptions::default()).unwrap();
/// assert_eq!(c.method, Method::Short);
/// assert!(c.uniqueness < 10.0, "{}", c.uniqueness);
/// // ...switch it off to see the shingle fragments, with spans on both sides.
/// let shingles_only = CheckOptions { short_threshold: 0, ..Default::default() };
/// let c = compare(&a, Format::Plain, &b, Format::Plain, &Params::default(), &shingles_only).unwrap();
/// let [start, end] = c.fragments[0].draft;
/// assert_eq!(&a[start..end], copied);
/// let [start, end] = c.fragments[0].source.unwrap();
/// assert_eq!(&b[start..end], copied);
/// assert_eq!(c.detections.len(), 1);
/// ```
pub fn compare(
    a: &str,
    format_a: Format,
    b: &str,
    format_b: Format,
    params: &Params,
    opts: &CheckOptions,
) -> Result<Comparison, Error> {
    let empty = |side| {
        move |e| match e {
            Error::Empty => Error::EmptyInComparison { side },
            e => e,
        }
    };
    let da = crate::check::analyze_draft(a, format_a, params, opts)
        .map_err(empty(ComparedText::Draft))?;
    let db = Document::analyze(b, format_b, params, opts.max_text_bytes)
        .map_err(empty(ComparedText::Source))?;
    let draft = Draft::new(&da, params).with_bilingual(opts.bilingual.as_deref());
    let (mut finding, detections) = find_full(&draft, &db, SourceInfo::default(), params, opts);
    // Quotations of A (when excluded) are cut from what is highlighted and counted; the
    // detections, what PAN scores, stay as found.
    crate::report::cut_quotations(&da, std::slice::from_mut(&mut finding), opts.gap);
    let detections = if finding.exact {
        finding
            .spans
            .iter()
            .map(|(_, s)| PairSpan {
                draft: [0, a.len()],
                source: s.as_ref().map(|s| [s.start, s.end]),
            })
            .collect()
    } else {
        detections
            .into_iter()
            .map(|(d, s)| PairSpan {
                draft: [d.start, d.end],
                source: Some([s.start, s.end]),
            })
            .collect()
    };
    let (resemblance, containment) = (finding.resemblance, finding.containment);
    let method = Method::decide(&da, std::slice::from_ref(&finding), opts);
    let report = Report::build(&da, vec![finding], method);
    // Each report stretch with the source passage that holds it (one source: the first found).
    let with_passage = |stretches: &[Fragment], passages: &dyn Fn(&SourceMatch) -> &[PairSpan]| {
        let passages: Vec<&PairSpan> = report.sources.iter().flat_map(passages).collect();
        stretches
            .iter()
            .map(|r| PairSpan {
                draft: [r.start, r.end],
                source: passages
                    .iter()
                    .find(|p| p.draft[0] <= r.start && r.end <= p.draft[1])
                    .and_then(|p| p.source),
            })
            .collect::<Vec<_>>()
    };
    let rewrites = with_passage(&report.rewrites, &|s| &s.rewrites);
    let translations = with_passage(&report.translations, &|s| &s.translations);
    let fragments = report.sources.into_iter().flat_map(|s| s.spans).collect();
    Ok(Comparison {
        uniqueness: report.uniqueness,
        originality: report.originality,
        rewrites,
        translations,
        resemblance,
        containment,
        words: report.words,
        method,
        fragments,
        detections,
    })
}

#[cfg(test)]
mod empty_tests {
    use super::*;

    #[test]
    fn an_empty_text_is_named_as_the_draft_or_the_source() {
        let text = "Copywriters check their drafts before publishing them on the client's site.";
        let p = Params::default();
        let o = CheckOptions::default();
        let plain = Format::Plain;
        let err = compare(text, plain, " ", plain, &p, &o).unwrap_err();
        assert_eq!(
            err,
            Error::EmptyInComparison {
                side: ComparedText::Source
            }
        );
        assert_eq!(
            err.to_string(),
            "the source (the second text) is empty: it contains no words to compare"
        );
        assert_eq!(err.code(), Error::EMPTY_TEXT);
        let err = compare("", plain, text, plain, &p, &o).unwrap_err();
        assert_eq!(
            err,
            Error::EmptyInComparison {
                side: ComparedText::Draft
            }
        );
        assert!(err
            .to_string()
            .starts_with("the draft (the first text) is empty"));
    }
}
