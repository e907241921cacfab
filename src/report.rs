//! Report stage: fragments and rewrites from every source → uniqueness, originality, draft
//! fragments and rewrites, ranked sources.
//!
//! **Uniqueness** is the share of the draft's content words (canonical, non-stop words) NOT covered
//! by any fragment (an exact copy), in percent: the figure and the highlighting always agree,
//! because both come from the same word coverage. **Originality** is the share covered neither by
//! a fragment nor by a rewrite (a passage written from a source with its words swapped or
//! reordered, [`crate::align::rewrite`]), so it is never above uniqueness. A source's **share** is
//! the share of content words covered by its own fragments. Report **fragments** and **rewrites**
//! are the draft's stretches cut wherever the set of matching sources changes, so each carries
//! exactly the sources that match all of it; a rewrite never overlaps a fragment, and one of
//! fewer than [`MIN_REWRITE_WORDS`] content words at a passage's end (a copy's ragged edge) is
//! not shown.
//! Offsets are byte offsets of the original draft until converted with [`Report::map_draft_offsets`].

use crate::document::{Document, SourceInfo};
use crate::exclude::Excluded;
use crate::pair::Finding;
use crate::CheckOptions;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Which method decided the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// n-word shingles, winnowing and alignment.
    Shingles,
    /// The short-text longest-words method (the draft was below the short-text threshold).
    Short,
    /// An exact duplicate of a source (same canonical text).
    Exact,
}

impl Method {
    /// The method that decides a report of `draft` from its `findings`: an exact duplicate first,
    /// then the short-text method for a short draft ([`Document::is_short`]), else shingles.
    pub fn decide(draft: &Document, findings: &[Finding], opts: &CheckOptions) -> Method {
        if findings.iter().any(|f| f.exact && !f.spans.is_empty()) {
            Method::Exact
        } else if draft.is_short(opts) {
            Method::Short
        } else {
            Method::Shingles
        }
    }

    /// The lowercase name used in JSON and on screen.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Shingles => "shingles",
            Method::Short => "short",
            Method::Exact => "exact",
        }
    }
}

/// One matched stretch between the draft and a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairSpan {
    /// `[start, end)` in the draft.
    pub draft: [usize; 2],
    /// `[start, end)` in the source, when the source text is known.
    pub source: Option<[usize; 2]>,
}

/// A source that matches part of the draft.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceMatch {
    /// Identifier, URL and title.
    #[serde(flatten)]
    pub info: SourceInfo,
    /// Share of the draft's content words this source covers, 0..=1.
    pub share: f64,
    /// Content words of the draft this source covers.
    pub words: usize,
    /// Estimated resemblance of the two shingle sets, 0..=1.
    pub resemblance: f64,
    /// Estimated share of the draft's shingles found in the source, 0..=1.
    pub containment: f64,
    /// The draft is an exact duplicate of this source.
    pub exact: bool,
    /// Matched stretches, with source spans when known.
    pub spans: Vec<PairSpan>,
    /// Passages of the draft reused from this source however reworded (copies inside them
    /// included), with the source passage when known.
    #[serde(default)]
    pub rewrites: Vec<PairSpan>,
    /// Passages of the draft translated from this source (in the other language), with the
    /// source passage when known.
    #[serde(default)]
    pub translations: Vec<PairSpan>,
}

/// A highlighted stretch of the draft and the sources matching all of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fragment {
    /// Start offset in the draft.
    pub start: usize,
    /// End offset in the draft (exclusive).
    pub end: usize,
    /// Ids of the matching sources, in the order of [`Report::sources`].
    pub sources: Vec<String>,
}

/// The answer to "how unique is this draft".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Percent of the draft's content words not covered by any fragment, 0..=100.
    pub uniqueness: f64,
    /// Percent of the draft's content words covered neither by a fragment nor by a rewrite,
    /// 0..=`uniqueness`.
    #[serde(default)]
    pub originality: f64,
    /// Content words in the draft (the denominator of uniqueness).
    pub words: usize,
    /// The method that decided.
    pub method: Method,
    /// Highlighted stretches of the draft, in order, non-overlapping.
    pub fragments: Vec<Fragment>,
    /// Rewritten stretches of the draft (reused, but not copied word for word), in order,
    /// overlapping neither each other nor a fragment.
    #[serde(default)]
    pub rewrites: Vec<Fragment>,
    /// Stretches of the draft translated from a source in the other language, in order,
    /// overlapping no fragment, no rewrite and each other.
    #[serde(default)]
    pub translations: Vec<Fragment>,
    /// Matching sources, largest share first.
    pub sources: Vec<SourceMatch>,
    /// More candidates were found than [`CheckOptions::max_candidates`] allows to check: the
    /// rest were left out ([`Report::unchecked`] of them), so the figure may be too high.
    #[serde(default)]
    pub capped: bool,
    /// How many more candidates (documents sharing keys with the draft) were found than were
    /// checked: 0 unless [`Report::capped`].
    #[serde(default)]
    pub unchecked: usize,
    /// What the check left out ([`CheckOptions::exclude`]): sources passed over, quoted words.
    #[serde(default)]
    pub excluded: Excluded,
}

/// A rewrite stretch with fewer content words than this is not shown: what a detection holds
/// beyond a copy's ends is then a word or two, not a rewritten passage.
pub const MIN_REWRITE_WORDS: usize = 3;

/// Draft stretches covered by the ranges `spans` picks of each finding (its copies or its
/// rewrites), cut wherever the set of findings covering them changes: (word range, indices into
/// `findings`), in order.
fn segments(
    findings: &[(Finding, usize)],
    spans: impl Fn(&Finding) -> &[(Range<usize>, Option<Range<usize>>)],
) -> Vec<(Range<usize>, Vec<usize>)> {
    // Sweep over word boundaries: +k where a range of finding k opens, -k where it closes.
    let mut events: Vec<(usize, bool, usize)> = Vec::new();
    for (k, (f, _)) in findings.iter().enumerate() {
        for (r, _) in spans(f) {
            events.push((r.start, true, k));
            events.push((r.end, false, k));
        }
    }
    events.sort_unstable();
    let mut open = vec![0usize; findings.len()];
    let mut out: Vec<(Range<usize>, Vec<usize>)> = Vec::new();
    let mut e = 0;
    while e < events.len() {
        let at = events[e].0;
        while e < events.len() && events[e].0 == at {
            let (_, opens, k) = events[e];
            if opens {
                open[k] += 1;
            } else {
                open[k] -= 1;
            }
            e += 1;
        }
        let Some(&(next, _, _)) = events.get(e) else {
            break;
        };
        let set: Vec<usize> = (0..open.len()).filter(|&k| open[k] > 0).collect();
        if set.is_empty() || next == at {
            continue;
        }
        match out.last_mut() {
            Some((r, s)) if r.end == at && *s == set => r.end = next,
            _ => out.push((at..next, set)),
        }
    }
    out
}

/// Rounds a percentage to one decimal, so JSON and screen show the same figure.
fn percent(uncovered: usize, total: usize) -> f64 {
    if total == 0 {
        return 100.0;
    }
    (1000.0 * uncovered as f64 / total as f64).round() / 10.0
}

impl Report {
    /// Builds the report of `draft` from per-source findings (findings without spans are dropped).
    pub fn build(draft: &Document, findings: Vec<Finding>, method: Method) -> Report {
        let words = &draft.canonical.words;
        let total = draft.content_words();
        let mut is_content = vec![false; words.len()];
        for &i in &draft.canonical.content {
            is_content[i as usize] = true;
        }
        let mut findings: Vec<(Finding, usize)> = findings
            .into_iter()
            .filter(|f| !f.spans.is_empty() || !f.rewrites.is_empty() || !f.translations.is_empty())
            .map(|f| {
                let mut mask = vec![false; words.len()];
                for (r, _) in &f.spans {
                    mask[r.clone()].iter_mut().for_each(|m| *m = true);
                }
                let covered = mask
                    .iter()
                    .zip(&is_content)
                    .filter(|(m, c)| **m && **c)
                    .count();
                (f, covered)
            })
            .collect();
        findings.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(b.0.rewrites.len().cmp(&a.0.rewrites.len()))
                .then(b.0.translations.len().cmp(&a.0.translations.len()))
                .then(b.0.containment.total_cmp(&a.0.containment))
                .then(a.0.info.id.cmp(&b.0.info.id))
        });

        let copies = segments(&findings, |f| &f.spans);
        let mut copied = vec![false; words.len()];
        for (r, _) in &copies {
            copied[r.clone()].iter_mut().for_each(|c| *c = true);
        }
        let content_in = |r: &Range<usize>| is_content[r.clone()].iter().filter(|&&c| c).count();
        let covered_content: usize = copies.iter().map(|(r, _)| content_in(r)).sum();
        // Rewrites: the stretches reused however reworded, less what is copied word for word.
        let mut rewrites: Vec<(Range<usize>, Vec<usize>)> = Vec::new();
        let reused = segments(&findings, |f| &f.rewrites);
        for (r, set) in reused {
            let mut i = r.start;
            while i < r.end {
                let start = i;
                let free = !copied[i];
                while i < r.end && copied[i] != free {
                    i += 1;
                }
                let piece = start..i;
                // A short piece between two copies of one passage is shown: it is what was
                // reworded there. Only the ragged ends of a passage go. Copied content words on
                // both sides make it inside: a copy's stop words (widened over when the source's
                // text is known, not against its record) must not decide.
                let copied_content =
                    |words: Range<usize>| words.into_iter().any(|k| copied[k] && is_content[k]);
                let inside =
                    copied_content(r.start..piece.start) && copied_content(piece.end..r.end);
                let content = content_in(&piece);
                if free && content > 0 && (inside || content >= MIN_REWRITE_WORDS) {
                    rewrites.push((piece, set.clone()));
                }
            }
        }
        let rewritten_content: usize = rewrites.iter().map(|(r, _)| content_in(r)).sum();
        // Translations: what no copy and no rewrite already shows (a draft word is one kind).
        let mut shown = copied;
        for (r, _) in &rewrites {
            shown[r.clone()].iter_mut().for_each(|c| *c = true);
        }
        let mut translations: Vec<(Range<usize>, Vec<usize>)> = Vec::new();
        for (r, set) in segments(&findings, |f| &f.translations) {
            let mut i = r.start;
            while i < r.end {
                while i < r.end && shown[i] {
                    i += 1;
                }
                let start = i;
                while i < r.end && !shown[i] {
                    i += 1;
                }
                let piece = start..i;
                if content_in(&piece) >= MIN_REWRITE_WORDS {
                    translations.push((piece, set.clone()));
                }
            }
        }
        let translated_content: usize = translations.iter().map(|(r, _)| content_in(r)).sum();
        let stretch = |(r, set): (Range<usize>, Vec<usize>)| Fragment {
            start: words[r.start].start as usize,
            end: words[r.end - 1].end as usize,
            sources: set
                .into_iter()
                .map(|k| findings[k].0.info.id.clone())
                .collect(),
        };
        let rewrites: Vec<Fragment> = rewrites.into_iter().map(stretch).collect();
        let translations: Vec<Fragment> = translations.into_iter().map(stretch).collect();
        let fragments: Vec<Fragment> = copies.into_iter().map(stretch).collect();
        let pair_span = |(r, s): &(Range<usize>, Option<Range<usize>>)| PairSpan {
            draft: [words[r.start].start as usize, words[r.end - 1].end as usize],
            source: s.as_ref().map(|s| [s.start, s.end]),
        };
        let sources = findings
            .into_iter()
            .map(|(f, covered)| SourceMatch {
                share: if total == 0 {
                    0.0
                } else {
                    covered as f64 / total as f64
                },
                words: covered,
                resemblance: f.resemblance,
                containment: f.containment,
                exact: f.exact,
                spans: f.spans.iter().map(pair_span).collect(),
                rewrites: f.rewrites.iter().map(pair_span).collect(),
                translations: f.translations.iter().map(pair_span).collect(),
                info: f.info,
            })
            .collect();
        Report {
            uniqueness: percent(total - covered_content.min(total), total),
            originality: percent(
                total - (covered_content + rewritten_content + translated_content).min(total),
                total,
            ),
            words: total,
            method,
            fragments,
            rewrites,
            translations,
            sources,
            capped: false,
            unchecked: 0,
            excluded: Excluded::default(),
        }
    }

    /// This report as if source `id` had not been checked: uniqueness, fragments and shares are
    /// exactly what [`Report::build`] gives from the other sources. Used when a document is
    /// re-published: its own previous version must not make it look copied. Draft offsets must
    /// still be the byte offsets the report was built with.
    pub fn without_source(self, draft: &Document, id: &str, opts: &CheckOptions) -> Report {
        if !self.sources.iter().any(|s| s.info.id == id) {
            return self;
        }
        let words = &draft.canonical.words;
        let word_range = |[start, end]: [usize; 2]| -> Range<usize> {
            let first = words.partition_point(|w| (w.start as usize) < start);
            let last = words.partition_point(|w| (w.end as usize) <= end);
            first..last.max(first)
        };
        let back = |spans: &[PairSpan]| -> Vec<(Range<usize>, Option<Range<usize>>)> {
            spans
                .iter()
                .map(|p| (word_range(p.draft), p.source.map(|[a, b]| a..b)))
                .filter(|(r, _)| !r.is_empty())
                .collect()
        };
        let findings: Vec<Finding> = self
            .sources
            .into_iter()
            .filter(|s| s.info.id != id)
            .map(|s| Finding {
                exact: s.exact,
                resemblance: s.resemblance,
                containment: s.containment,
                spans: back(&s.spans),
                rewrites: back(&s.rewrites),
                translations: back(&s.translations),
                info: s.info,
            })
            .collect();
        let method = Method::decide(draft, &findings, opts);
        Report {
            excluded: self.excluded,
            ..Report::build(draft, findings, method)
        }
    }

    /// Rewrites every draft offset with `f` (e.g. bytes → UTF-16 with an
    /// [`crate::span::OffsetConverter`]).
    pub fn map_draft_offsets(&mut self, f: impl Fn(usize) -> usize) {
        for fr in self
            .fragments
            .iter_mut()
            .chain(&mut self.rewrites)
            .chain(&mut self.translations)
        {
            fr.start = f(fr.start);
            fr.end = f(fr.end);
        }
        for s in &mut self.sources {
            for p in s
                .spans
                .iter_mut()
                .chain(&mut s.rewrites)
                .chain(&mut s.translations)
            {
                p.draft = [f(p.draft[0]), f(p.draft[1])];
            }
        }
    }
}

impl SourceMatch {
    /// Rewrites this source's offsets with `f`.
    pub fn map_source_offsets(&mut self, f: impl Fn(usize) -> usize) {
        for p in self
            .spans
            .iter_mut()
            .chain(&mut self.rewrites)
            .chain(&mut self.translations)
        {
            if let Some(s) = &mut p.source {
                *s = [f(s[0]), f(s[1])];
            }
        }
    }
}

/// Cuts every finding's spans and rewrites where `draft`'s quotations are ([`Document::quoted`],
/// set by [`Document::mark_quotations`]); returns the number of content words quoted. A finding cut
/// anywhere is no longer an exact duplicate. A piece of a span keeps the source passage of the
/// whole span (where the source text is known).
///
/// A piece left between two quotations with at most `gap` content words ([`CheckOptions::gap`]:
/// the unmatched words that join two matched stretches) is dropped: "as the baker says" between
/// two quoted copies was highlighted only because the gap rule joined them, and with both sides
/// quoted nothing copied is left beside it to join.
///
/// [`CheckOptions::gap`]: crate::CheckOptions::gap
pub fn cut_quotations(draft: &Document, findings: &mut [Finding], gap: usize) -> usize {
    let quoted = &draft.quoted;
    if quoted.is_empty() {
        return 0;
    }
    let content = &draft.canonical.content;
    let content_words = |r: &Range<usize>| {
        content.partition_point(|&i| (i as usize) < r.end)
            - content.partition_point(|&i| (i as usize) < r.start)
    };
    let bridge = |r: &Range<usize>| content_words(r) <= gap;
    for f in findings.iter_mut() {
        let before = (f.spans.len(), f.rewrites.len());
        let spans = cut(&f.spans, quoted, bridge);
        let rewrites = cut(&f.rewrites, quoted, bridge);
        f.translations = cut(&f.translations, quoted, bridge);
        if f.exact && (spans != f.spans || before != (spans.len(), rewrites.len())) {
            f.exact = false;
        }
        f.spans = spans;
        f.rewrites = rewrites;
    }
    quoted.iter().map(content_words).sum()
}

type Spans = Vec<(Range<usize>, Option<Range<usize>>)>;

/// `spans` minus the word ranges `holes` (sorted, disjoint), and minus the pieces between two
/// holes that `bridge` says only joined them.
fn cut(spans: &Spans, holes: &[Range<usize>], bridge: impl Fn(&Range<usize>) -> bool) -> Spans {
    let mut out = Vec::with_capacity(spans.len());
    for (r, s) in spans {
        let mut at = r.start;
        let mut after_hole = false;
        let first = holes.partition_point(|h| h.end <= r.start);
        for h in holes[first..].iter().take_while(|h| h.start < r.end) {
            if h.start > at && !(after_hole && bridge(&(at..h.start))) {
                out.push((at..h.start, s.clone()));
            }
            at = at.max(h.end);
            after_hole = true;
        }
        if at < r.end {
            out.push((at..r.end, s.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutting_leaves_the_pieces_outside_the_holes() {
        let s = |r: Range<usize>| (r, Some(0..9));
        let spans = vec![s(0..10), s(12..14), s(20..30)];
        let holes = [2..4, 9..13, 25..40];
        let cut_by = |spans: &Spans, bridge: fn(&Range<usize>) -> bool| {
            let pieces = cut(spans, &holes, bridge);
            assert!(pieces.iter().all(|(_, s)| *s == Some(0..9)));
            pieces
                .into_iter()
                .map(|(r, _)| (r.start, r.end))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            cut_by(&spans, |_| false),
            [(0, 2), (4, 9), (13, 14), (20, 25)]
        );
        // Only a piece between two holes can be a bridge: not one at either end of a span.
        assert_eq!(
            cut_by(&spans, |r| r.len() <= 5),
            [(0, 2), (13, 14), (20, 25)]
        );
        assert_eq!(cut_by(&vec![s(3..14)], |_| true), [(13, 14)]);
        assert_eq!(cut_by(&vec![s(1..12)], |_| true), [(1, 2)]);
    }
}
