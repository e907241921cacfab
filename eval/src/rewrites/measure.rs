//! Running the engine on a pair and measuring what it found against the truth, in characters on
//! the draft side (and the source side for the detections), as [`Counts`] and as PAN
//! annotations.

use super::corpus::Text;
use super::pairs::Pair;
use crate::measures::Annotation;
use crate::pan::annotation_span;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use uniqcheck::pair::find_with_detections;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{
    CheckOptions, Document, Format, Method, OffsetConverter, Params, Report, SourceInfo, Unit,
};

/// What the engine found in one pair, as draft and source byte ranges.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// Detections: (draft, source).
    pub detections: Vec<(Range<usize>, Range<usize>)>,
    /// The report's fragments (copies, what uniqueness counts), draft side.
    pub fragments: Vec<Range<usize>>,
    /// The report's rewrites (reused but not copied word for word, what originality counts
    /// besides the copies), draft side.
    pub rewrites: Vec<Range<usize>>,
    /// The report's uniqueness, percent.
    pub uniqueness: f64,
    /// The report's originality, percent.
    pub originality: f64,
}

/// Runs the engine's `compare` path on (draft, source): analysis, the synonym table when there
/// is one (both sides), [`find_with_detections`], the report.
///
/// Errors: the engine's (an empty text).
pub fn find(
    draft: &str,
    source: &str,
    params: &Params,
    opts: &CheckOptions,
    synonyms: Option<&Synonyms>,
) -> Result<Found, uniqcheck::Error> {
    let analyze = |t: &str| -> Result<Document, uniqcheck::Error> {
        let d = Document::analyze(t, Format::Plain, params, opts.max_text_bytes)?;
        Ok(match synonyms {
            Some(s) => s.apply(d, params),
            None => d,
        })
    };
    let (da, db) = (analyze(draft)?, analyze(source)?);
    let (finding, detections) = find_with_detections(&da, &db, SourceInfo::default(), params, opts);
    let detections = if finding.exact {
        vec![(0..draft.len(), 0..source.len())]
    } else {
        detections
    };
    let method = Method::decide(&da, std::slice::from_ref(&finding), opts);
    let report = Report::build(&da, vec![finding], method);
    Ok(Found {
        detections,
        fragments: report.fragments.iter().map(|f| f.start..f.end).collect(),
        rewrites: report.rewrites.iter().map(|f| f.start..f.end).collect(),
        uniqueness: report.uniqueness,
        originality: report.originality,
    })
}

/// Characters of the union of `ranges` (byte ranges of `text`), and of its intersection with
/// the union of `truth` (the retrieval view counts the same way).
pub(crate) fn covered(
    conv: &OffsetConverter<'_>,
    ranges: &[Range<usize>],
    truth: &[Range<usize>],
) -> (usize, usize) {
    let union = |v: &[Range<usize>]| -> Vec<Range<usize>> {
        let mut v: Vec<Range<usize>> = v.iter().filter(|r| r.start < r.end).cloned().collect();
        v.sort_by_key(|r| r.start);
        let mut out: Vec<Range<usize>> = Vec::new();
        for r in v {
            match out.last_mut() {
                Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
                _ => out.push(r),
            }
        }
        out
    };
    let chars = |r: &Range<usize>| conv.convert(r.end) - conv.convert(r.start);
    let (a, t) = (union(ranges), union(truth));
    let total = a.iter().map(chars).sum();
    let mut inside = 0;
    for x in &a {
        for y in &t {
            let r = x.start.max(y.start)..x.end.min(y.end);
            if r.start < r.end {
                inside += chars(&r);
            }
        }
    }
    (total, inside)
}

/// Character counts of one pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Rewritten characters of the draft (the truth).
    pub truth: usize,
    /// Characters the detections cover.
    pub detected: usize,
    /// ... of which rewritten.
    pub detected_true: usize,
    /// Characters the highlight (copies) covers.
    pub highlighted: usize,
    /// ... of which rewritten.
    pub highlighted_true: usize,
    /// Characters marked as copies or rewrites.
    pub marked: usize,
    /// ... of which rewritten.
    pub marked_true: usize,
    /// Source characters the detections point at, and of which in the source passages.
    pub source_detected: usize,
    /// See `source_detected`.
    pub source_detected_true: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.truth += o.truth;
        self.detected += o.detected;
        self.detected_true += o.detected_true;
        self.highlighted += o.highlighted;
        self.highlighted_true += o.highlighted_true;
        self.marked += o.marked;
        self.marked_true += o.marked_true;
        self.source_detected += o.source_detected;
        self.source_detected_true += o.source_detected_true;
    }
}

/// One pair, measured.
#[derive(Debug, Clone)]
pub struct PairResult {
    /// Index into the benchmark's pairs.
    pub pair: usize,
    /// Character counts.
    pub counts: Counts,
    /// Detections, as PAN annotations in characters (draft = `this`).
    pub detections: Vec<Annotation>,
    /// The truth, as PAN annotations.
    pub cases: Vec<Annotation>,
    /// The engine refused a text.
    pub error: Option<String>,
}

/// Measures one pair's findings.
pub fn measure(
    pair: &Pair,
    source: &str,
    found: &Found,
) -> (Counts, Vec<Annotation>, Vec<Annotation>) {
    let (cd, cs) = (
        OffsetConverter::new(&pair.draft, Unit::Chars),
        OffsetConverter::new(source, Unit::Chars),
    );
    let truth_d: Vec<Range<usize>> = pair.truth.iter().map(|t| t.0.clone()).collect();
    let truth_s: Vec<Range<usize>> = pair.truth.iter().map(|t| t.1.clone()).collect();
    let det_d: Vec<Range<usize>> = found.detections.iter().map(|d| d.0.clone()).collect();
    let det_s: Vec<Range<usize>> = found.detections.iter().map(|d| d.1.clone()).collect();
    let (truth, _) = covered(&cd, &truth_d, &truth_d);
    let (detected, detected_true) = covered(&cd, &det_d, &truth_d);
    let (highlighted, highlighted_true) = covered(&cd, &found.fragments, &truth_d);
    let both: Vec<Range<usize>> = found
        .fragments
        .iter()
        .chain(&found.rewrites)
        .cloned()
        .collect();
    let (marked, marked_true) = covered(&cd, &both, &truth_d);
    let (source_detected, source_detected_true) = covered(&cs, &det_s, &truth_s);
    let draft = format!("{}/{}", pair.kind.name(), pair.source);
    let ann = |d: &Range<usize>, s: &Range<usize>| {
        Annotation::new(&draft, &pair.source, annotation_span(&cd, &cs, d, s))
    };
    (
        Counts {
            truth,
            detected,
            detected_true,
            highlighted,
            highlighted_true,
            marked,
            marked_true,
            source_detected,
            source_detected_true,
        },
        found.detections.iter().map(|(d, s)| ann(d, s)).collect(),
        pair.truth.iter().map(|(d, s)| ann(d, s)).collect(),
    )
}

/// Runs the engine on every pair (rayon's current pool).
pub fn run(
    pairs: &[Pair],
    texts: &[Text],
    params: &Params,
    opts: &CheckOptions,
    synonyms: Option<&Synonyms>,
) -> Vec<PairResult> {
    let by_name: HashMap<&str, &Text> = texts.iter().map(|t| (t.name.as_str(), t)).collect();
    pairs
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let source = &by_name[p.source.as_str()].text;
            match find(&p.draft, source, params, opts, synonyms) {
                Ok(found) => {
                    let (counts, detections, cases) = measure(p, source, &found);
                    PairResult {
                        pair: i,
                        counts,
                        detections,
                        cases,
                        error: None,
                    }
                }
                Err(e) => PairResult {
                    pair: i,
                    counts: Counts::default(),
                    detections: Vec::new(),
                    cases: Vec::new(),
                    error: Some(e.to_string()),
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewrites::synonymizer::SynonymCounts;
    use crate::rewrites::Kind;

    #[test]
    fn a_copied_passage_is_found_and_measured() {
        let passage = "Освещающие акцию блоггеры сообщили, что автобусы с милицией стали занимать \
            площадь у памятника Юрию Долгорукому ещё с пятнадцати часов дня, центральная часть \
            площади была огорожена. Ко времени начала акции вокруг огороженной территории \
            собралось множество журналистов и прохожих, по мере прибытия самих участников акции \
            милиция начала планомерно их задерживать и заталкивать в автобусы.";
        let source = format!(
            "Начало акции было намечено на вечер. {passage} Всего задержано тридцать человек."
        );
        let own = "Компания представила новый смартфон с большим экраном и мощным процессором, \
            продажи стартуют осенью, цена пока не объявлена, аналитики ожидают высокого спроса.";
        let draft = format!("{own}\n\n{passage}\n\n{own}");
        let d0 = draft.find(passage).unwrap();
        let s0 = source.find(passage).unwrap();
        let pair = Pair {
            source: "s".into(),
            split: "dev".into(),
            kind: Kind::Verbatim,
            truth: vec![(d0..d0 + passage.len(), s0..s0 + passage.len())],
            draft,
            counts: SynonymCounts::default(),
        };
        let opts = CheckOptions::default();
        let found = find(&pair.draft, &source, &Params::default(), &opts, None).unwrap();
        let (c, dets, cases) = measure(&pair, &source, &found);
        assert_eq!(c.truth, passage.chars().count());
        assert!(c.detected_true as f64 > 0.95 * c.truth as f64, "{c:?}");
        assert!(c.detected_true as f64 > 0.95 * c.detected as f64, "{c:?}");
        assert!(c.highlighted_true > 0 && c.highlighted_true <= c.highlighted);
        assert_eq!(cases.len(), 1);
        assert!(!dets.is_empty());
        // Through a synonym table that maps nothing, the same.
        let empty = Synonyms::default();
        let again = find(
            &pair.draft,
            &source,
            &Params::default(),
            &opts,
            Some(&empty),
        )
        .unwrap();
        assert_eq!(again.detections, found.detections);
    }

    #[test]
    fn covered_counts_characters() {
        let text = "аб вг де";
        let conv = OffsetConverter::new(text, Unit::Chars);
        // "аб вг" (bytes 0..9) and "вг де" (5..14) against the truth "вг" (5..9).
        let truth: Vec<Range<usize>> = std::iter::once(5..9).collect();
        assert_eq!(covered(&conv, &[0..9, 5..14], &truth), (8, 2));
        assert_eq!(covered(&conv, &[], &truth), (0, 0));
    }
}
