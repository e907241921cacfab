//! PAN's character-level measures of text alignment: precision, recall, granularity, plagdet.
//!
//! As defined by Potthast, Stein, Barrón-Cedeño and Rosso, "An Evaluation Framework for
//! Plagiarism Detection" (COLING 2010), and computed exactly as the official scorer
//! `pan13-text-alignment-perfmeasures.py` computes them (macro-averaged):
//!
//! - a plagiarism **case** and a **detection** are both an [`Annotation`]: a character range in a
//!   suspicious document and one in a source document;
//! - a detection *detects* a case when they overlap on BOTH sides (same documents, at least one
//!   character shared in the suspicious range and one in the source range);
//! - **recall** = mean over cases s of |⋃_{r detects s} (s ⊓ r)| / |s|, where |s| counts the
//!   characters of both ranges and s ⊓ r is the overlap on each side; cases that nothing detects
//!   count 0;
//! - **precision** = the same with the roles swapped (mean over detections);
//! - **granularity** = mean, over the cases detected at least once, of the number of detections
//!   detecting them;
//! - **plagdet** = F1(precision, recall) / log2(1 + granularity).
//!
//! Edge cases follow the official script: no cases and no detections → recall = precision = 1;
//! one of them empty → 0; no detections or no detected case → granularity 1; precision and
//! recall both 0 → plagdet 0. Identical annotations count once (the script reads them into sets).

use serde::Serialize;
use std::collections::HashMap;

/// A pair of character ranges: `[this_offset, this_offset + this_length)` in the suspicious
/// document `this_ref`, `[source_offset, source_offset + source_length)` in `source_ref`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Annotation {
    /// The suspicious document (PAN's `this_reference`, the XML's `reference`).
    pub this_ref: String,
    /// First character in the suspicious document.
    pub this_offset: usize,
    /// Characters in the suspicious document.
    pub this_length: usize,
    /// The source document.
    pub source_ref: String,
    /// First character in the source document.
    pub source_offset: usize,
    /// Characters in the source document.
    pub source_length: usize,
}

impl Annotation {
    /// An annotation from `[toff, tlen, soff, slen]`.
    pub fn new(this_ref: &str, source_ref: &str, [toff, tlen, soff, slen]: [usize; 4]) -> Self {
        Annotation {
            this_ref: this_ref.to_owned(),
            this_offset: toff,
            this_length: tlen,
            source_ref: source_ref.to_owned(),
            source_offset: soff,
            source_length: slen,
        }
    }

    fn this_end(&self) -> usize {
        self.this_offset + self.this_length
    }

    fn source_end(&self) -> usize {
        self.source_offset + self.source_length
    }

    /// True when `other` overlaps this annotation on both sides (the script's `is_overlapping`).
    pub fn overlaps(&self, other: &Annotation) -> bool {
        self.this_ref == other.this_ref
            && other.this_end() > self.this_offset
            && other.this_offset < self.this_end()
            && self.source_ref == other.source_ref
            && other.source_end() > self.source_offset
            && other.source_offset < self.source_end()
    }
}

/// Precision, recall, granularity and plagdet of a set of detections against a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    /// Macro-averaged character precision, 0..=1.
    pub precision: f64,
    /// Macro-averaged character recall, 0..=1.
    pub recall: f64,
    /// Detections per detected case, ≥ 1.
    pub granularity: f64,
    /// F1 / log2(1 + granularity), 0..=1.
    pub plagdet: f64,
}

impl Scores {
    /// Scores `detections` against `cases` (duplicates in either count once).
    pub fn compute(cases: &[Annotation], detections: &[Annotation]) -> Scores {
        let cases = dedup(cases);
        let detections = dedup(detections);
        let recall = macro_recall(&cases, &detections);
        let precision = macro_recall(&detections, &cases);
        let granularity = granularity(&cases, &detections);
        Scores {
            precision,
            recall,
            granularity,
            plagdet: plagdet(recall, precision, granularity),
        }
    }
}

fn dedup(annotations: &[Annotation]) -> Vec<Annotation> {
    let mut v = annotations.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// Annotations grouped by (suspicious, source) document: only these can overlap.
fn index(annotations: &[Annotation]) -> HashMap<(&str, &str), Vec<&Annotation>> {
    let mut map: HashMap<(&str, &str), Vec<&Annotation>> = HashMap::new();
    for a in annotations {
        map.entry((a.this_ref.as_str(), a.source_ref.as_str()))
            .or_default()
            .push(a);
    }
    map
}

/// Length of the union of ranges.
fn union_len(mut ranges: Vec<(usize, usize)>) -> usize {
    ranges.sort_unstable();
    let mut total = 0;
    let mut current: Option<(usize, usize)> = None;
    for (s, e) in ranges.into_iter().filter(|(s, e)| s < e) {
        match current {
            Some((cs, ce)) if s <= ce => current = Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                total += ce - cs;
                current = Some((s, e));
            }
            None => current = Some((s, e)),
        }
    }
    total + current.map_or(0, |(s, e)| e - s)
}

/// Share of `case`'s characters (both sides) covered by the `detections` that overlap it.
pub fn case_recall(case: &Annotation, detections: &[&Annotation]) -> f64 {
    let total = case.this_length + case.source_length;
    let hits: Vec<&&Annotation> = detections.iter().filter(|d| case.overlaps(d)).collect();
    if hits.is_empty() || total == 0 {
        return 0.0;
    }
    let clip = |s: usize, e: usize, lo: usize, hi: usize| (s.max(lo), e.min(hi));
    let this = union_len(
        hits.iter()
            .map(|d| {
                clip(
                    d.this_offset,
                    d.this_end(),
                    case.this_offset,
                    case.this_end(),
                )
            })
            .collect(),
    );
    let source = union_len(
        hits.iter()
            .map(|d| {
                clip(
                    d.source_offset,
                    d.source_end(),
                    case.source_offset,
                    case.source_end(),
                )
            })
            .collect(),
    );
    (this + source) as f64 / total as f64
}

/// Macro-averaged recall of `detections` over `cases`; with the arguments swapped, precision.
pub fn macro_recall(cases: &[Annotation], detections: &[Annotation]) -> f64 {
    if cases.is_empty() && detections.is_empty() {
        return 1.0;
    }
    if cases.is_empty() || detections.is_empty() {
        return 0.0;
    }
    let by_pair = index(detections);
    let sum: f64 = cases
        .iter()
        .filter_map(|c| {
            by_pair
                .get(&(c.this_ref.as_str(), c.source_ref.as_str()))
                .map(|dets| case_recall(c, dets))
        })
        .sum();
    sum / cases.len() as f64
}

/// Mean number of detections per detected case (1 when nothing is detected).
pub fn granularity(cases: &[Annotation], detections: &[Annotation]) -> f64 {
    if detections.is_empty() {
        return 1.0;
    }
    let by_pair = index(detections);
    let (mut detected, mut total) = (0usize, 0usize);
    for c in cases {
        if let Some(dets) = by_pair.get(&(c.this_ref.as_str(), c.source_ref.as_str())) {
            let k = dets.iter().filter(|d| c.overlaps(d)).count();
            detected += (k > 0) as usize;
            total += k;
        }
    }
    if detected == 0 {
        1.0
    } else {
        total as f64 / detected as f64
    }
}

/// F1 of precision and recall, divided by log2(1 + granularity); 0 when both are 0.
pub fn plagdet(recall: f64, precision: f64, granularity: f64) -> f64 {
    if (recall == 0.0 && precision == 0.0) || recall < 0.0 || precision < 0.0 || granularity < 1.0 {
        return 0.0;
    }
    (2.0 * recall * precision / (recall + precision)) / (1.0 + granularity).log2()
}

/// `part / whole`, or `None` when `whole` is 0 (a share of nothing is not 0 %: the tables
/// print it as absent).
pub(crate) fn ratio(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(t: &str, toff: usize, tlen: usize, s: &str, soff: usize, slen: usize) -> Annotation {
        Annotation::new(t, s, [toff, tlen, soff, slen])
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-7
    }

    #[test]
    fn perfect_detection_scores_one() {
        let case = a("s1", 10, 100, "r1", 50, 120);
        let both = [case];
        let s = Scores::compute(&both, &both);
        assert_eq!(
            s,
            Scores {
                precision: 1.0,
                recall: 1.0,
                granularity: 1.0,
                plagdet: 1.0
            }
        );
    }

    #[test]
    fn half_covered_case_has_recall_one_half() {
        let case = a("s1", 0, 100, "r1", 0, 100);
        let det = a("s1", 0, 50, "r1", 0, 50);
        let s = Scores::compute(&[case], &[det]);
        assert!(close(s.recall, 0.5));
        assert!(close(s.precision, 1.0));
        assert!(close(s.granularity, 1.0));
        assert!(close(s.plagdet, 2.0 / 3.0));
    }

    #[test]
    fn a_case_found_in_two_pieces_has_granularity_two() {
        let case = a("s1", 0, 100, "r1", 0, 100);
        let dets = [a("s1", 0, 50, "r1", 0, 50), a("s1", 50, 50, "r1", 50, 50)];
        let s = Scores::compute(&[case], &dets);
        assert!(close(s.recall, 1.0));
        assert!(close(s.precision, 1.0));
        assert!(close(s.granularity, 2.0));
        assert!(close(s.plagdet, 1.0 / 3f64.log2()));
    }

    #[test]
    fn a_detection_without_a_case_has_precision_zero() {
        let case = a("s1", 0, 100, "r1", 0, 100);
        // Overlaps on the suspicious side only: another source passage, so no detection.
        let wrong_source = a("s1", 0, 100, "r1", 500, 100);
        let s = Scores::compute(
            std::slice::from_ref(&case),
            std::slice::from_ref(&wrong_source),
        );
        assert_eq!((s.precision, s.recall, s.plagdet), (0.0, 0.0, 0.0));
        assert_eq!(s.granularity, 1.0);
        // One right, one wrong: precision is the mean over detections.
        let s = Scores::compute(std::slice::from_ref(&case), &[case.clone(), wrong_source]);
        assert!(close(s.precision, 0.5) && close(s.recall, 1.0));
        // No case at all (a no-plagiarism pair) and one detection.
        let s = Scores::compute(&[], &[case]);
        assert_eq!(
            (s.precision, s.recall, s.granularity, s.plagdet),
            (0.0, 0.0, 1.0, 0.0)
        );
    }

    #[test]
    fn empty_inputs_have_the_official_values() {
        let s = Scores::compute(&[], &[]);
        assert_eq!(
            (s.precision, s.recall, s.granularity, s.plagdet),
            (1.0, 1.0, 1.0, 1.0)
        );
        let case = a("s1", 0, 100, "r1", 0, 100);
        let s = Scores::compute(&[case], &[]);
        assert_eq!(
            (s.precision, s.recall, s.granularity, s.plagdet),
            (0.0, 0.0, 1.0, 0.0)
        );
    }

    #[test]
    fn duplicates_count_once() {
        let case = a("s1", 0, 100, "r1", 0, 100);
        let twice = [case.clone(), case];
        let s = Scores::compute(&twice[..1], &twice);
        assert_eq!(s.granularity, 1.0);
    }

    /// The external-detection cases of the official script's own unit tests.
    #[test]
    fn agrees_with_the_official_unit_tests() {
        let ann1 = a("tref1", 0, 100, "sref1", 0, 100);
        let ann3 = a("tref1", 100, 100, "sref1", 100, 100);
        let ann4 = a("tref1", 0, 200, "sref1", 0, 200);
        let ann7 = a("tref2", 0, 100, "sref2", 0, 100);
        let ann9 = a("tref2", 50, 100, "sref2", 50, 100);
        let ann10 = a("tref2", 25, 75, "sref2", 25, 75);
        let recall = macro_recall;
        assert_eq!(
            recall(&[ann1.clone(), ann7.clone()], std::slice::from_ref(&ann1)),
            0.5
        );
        assert_eq!(
            recall(std::slice::from_ref(&ann1), std::slice::from_ref(&ann7)),
            0.0
        );
        let cr = case_recall;
        assert_eq!(cr(&ann1, &[&ann3]), 0.0);
        assert_eq!(cr(&ann1, &[&ann4, &ann7]), 1.0);
        assert_eq!(cr(&ann1, &[&ann7, &ann9]), 0.0);
        assert_eq!(cr(&ann7, &[&ann9]), 0.5);
        assert_eq!(cr(&ann7, &[&ann10]), 0.75);
        assert_eq!(cr(&ann7, &[&ann9, &ann10]), 0.75);
        let precision = |c: &[Annotation], d: &[Annotation]| macro_recall(d, c);
        assert_eq!(
            precision(&[ann1.clone(), ann7.clone()], std::slice::from_ref(&ann1)),
            1.0
        );
        assert_eq!(
            precision(std::slice::from_ref(&ann1), std::slice::from_ref(&ann4)),
            0.5
        );
        assert_eq!(
            precision(std::slice::from_ref(&ann7), std::slice::from_ref(&ann10)),
            1.0
        );
        assert_eq!(
            precision(std::slice::from_ref(&ann7), &[ann9.clone(), ann10.clone()]),
            0.75
        );
        assert_eq!(
            precision(std::slice::from_ref(&ann1), &[ann3.clone(), ann4.clone()]),
            0.25
        );
        assert_eq!(granularity(&[], &[]), 1.0);
        assert_eq!(
            granularity(
                std::slice::from_ref(&ann1),
                &[ann3.clone(), ann4.clone(), ann1.clone()]
            ),
            2.0
        );
        assert_eq!(
            granularity(&[ann1.clone(), ann3.clone()], std::slice::from_ref(&ann4)),
            1.0
        );
        assert!(close(plagdet(1.0, 1.0, 2.0), 0.630_929_75));
        assert!(close(plagdet(0.25, 0.75, 2.0), 0.236_598_65));
        assert_eq!(plagdet(0.5, 1.0, 1.0), 2.0 / 3.0);
    }
}
