//! The scores of each kind of rewrite, and of every rewritten kind together: the measured
//! characters summed over the kind's pairs, the shares taken of the sums.

use super::measure::{Counts, PairResult};
use super::pairs::Pair;
use super::synonymizer::SynonymCounts;
use super::Kind;
use crate::measures::{ratio, Annotation, Scores};
use serde::Serialize;

/// The scores of one kind.
#[derive(Debug, Clone, Serialize)]
pub struct KindScores {
    /// The kind's name.
    pub kind: &'static str,
    /// Pairs.
    pub pairs: usize,
    /// Pairs with any detection.
    pub flagged: usize,
    /// Summed character counts.
    pub chars: Counts,
    /// Detections: share of the rewritten characters covered (`None` without any).
    pub recall: Option<f64>,
    /// Detections: share of the detected characters that are rewritten (`None`: nothing detected).
    pub precision: Option<f64>,
    /// The highlight (fragments): share of the rewritten characters covered.
    pub highlight_recall: Option<f64>,
    /// The highlight: share of the highlighted characters that are rewritten.
    pub highlight_precision: Option<f64>,
    /// Copies and rewrites as the report marks them: share of the rewritten characters covered.
    pub marked_recall: Option<f64>,
    /// ... and share of the marked characters that are rewritten.
    pub marked_precision: Option<f64>,
    /// Detections, source side: share of the source characters pointed at inside the passages.
    pub source_precision: Option<f64>,
    /// PAN's macro measures of the detections (both sides).
    pub pan: Scores,
    /// What the synonymizer did (synonyms and heavy).
    pub synonym_counts: SynonymCounts,
}

/// The name of the row that pools every kind but [`Kind::None`].
pub const ALL_REWRITTEN: &str = "all rewritten";

fn score(name: &'static str, pairs: &[Pair], mine: &[&PairResult]) -> KindScores {
    let mut c = Counts::default();
    let mut sc = SynonymCounts::default();
    for r in mine {
        c += r.counts;
        let p = &pairs[r.pair].counts;
        sc.words += p.words;
        sc.known += p.known;
        sc.replaced += p.replaced;
        sc.inflected += p.inflected;
    }
    let cases: Vec<Annotation> = mine.iter().flat_map(|r| r.cases.clone()).collect();
    let dets: Vec<Annotation> = mine.iter().flat_map(|r| r.detections.clone()).collect();
    KindScores {
        kind: name,
        pairs: mine.len(),
        flagged: mine.iter().filter(|r| !r.detections.is_empty()).count(),
        recall: ratio(c.detected_true, c.truth),
        precision: ratio(c.detected_true, c.detected),
        highlight_recall: ratio(c.highlighted_true, c.truth),
        highlight_precision: ratio(c.highlighted_true, c.highlighted),
        marked_recall: ratio(c.marked_true, c.truth),
        marked_precision: ratio(c.marked_true, c.marked),
        source_precision: ratio(c.source_detected_true, c.source_detected),
        chars: c,
        pan: Scores::compute(&cases, &dets),
        synonym_counts: sc,
    }
}

/// Scores per kind, in `kinds` order, then [`ALL_REWRITTEN`]: every pair of the other kinds
/// together (characters summed, so each kind weighs by its rewritten characters).
pub fn summarize(pairs: &[Pair], results: &[PairResult], kinds: &[Kind]) -> Vec<KindScores> {
    let mut out: Vec<KindScores> = kinds
        .iter()
        .map(|&kind| {
            let mine: Vec<&PairResult> = results
                .iter()
                .filter(|r| pairs[r.pair].kind == kind)
                .collect();
            score(kind.name(), pairs, &mine)
        })
        .collect();
    let rewritten: Vec<&PairResult> = results
        .iter()
        .filter(|r| pairs[r.pair].kind != Kind::None && kinds.contains(&pairs[r.pair].kind))
        .collect();
    out.push(score(ALL_REWRITTEN, pairs, &rewritten));
    out
}
