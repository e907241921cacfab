//! Retrieval: whether a check through an index finds a draft's sources, not only whether two
//! known texts align.
//!
//! - [`rewrites_view`]: every text of the Russian rewrite benchmark ([`crate::rewrites`]) indexed
//!   in one [`Corpus`], each draft checked through [`uniqcheck::check::check`]; per kind, the drafts whose
//!   true source is among the report's sources, and the rewritten characters the report marks
//!   (copies and rewrites) with that source. The writer's own text of a draft is copied from
//!   other texts of the corpus, so it is rightly marked with those: precision counts only what
//!   is marked with the true source.
//! - [`unrelated`]: drafts with no source in the index (20 Newsgroups' test half against its
//!   training half, each test post without its headers and quoted lines, [`body`]): the share
//!   of drafts the report marks anything of, copies or rewrites. Test posts still repeat
//!   training posts (signatures, FAQ passages, cross-posts), so this is an upper bound on false
//!   alarms; what matters is what a change of retrieval adds to it.

use super::measures::ratio;
use super::rewrites::{covered, Kind, Pair, Text};
use crate::{read_error, EvalError, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::ops::Range;
use std::path::Path;
use uniqcheck::{CheckOptions, Corpus, Format, OffsetConverter, Params, SourceInfo, Unit};

/// One draft checked through the index.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct RetrievalCounts {
    /// Drafts.
    pub drafts: usize,
    /// Drafts whose true source is among the report's sources.
    pub found: usize,
    /// Rewritten characters (the truth).
    pub truth: usize,
    /// Characters marked (copies or rewrites) with the true source.
    pub marked: usize,
    /// ... of which rewritten.
    pub marked_true: usize,
    /// Rewritten characters marked with any source.
    pub marked_any_true: usize,
    /// Candidates aligned, summed.
    pub candidates: usize,
}

impl std::ops::AddAssign for RetrievalCounts {
    fn add_assign(&mut self, o: RetrievalCounts) {
        self.drafts += o.drafts;
        self.found += o.found;
        self.truth += o.truth;
        self.marked += o.marked;
        self.marked_true += o.marked_true;
        self.marked_any_true += o.marked_any_true;
        self.candidates += o.candidates;
    }
}

/// The retrieval view of one kind.
#[derive(Debug, Clone, Serialize)]
pub struct RetrievalScores {
    /// The kind's name (or [`crate::rewrites::ALL_REWRITTEN`]).
    pub kind: &'static str,
    /// Summed counts.
    pub counts: RetrievalCounts,
    /// Share of the drafts whose true source the report names.
    pub found: f64,
    /// Share of the rewritten characters marked with the true source.
    pub recall: Option<f64>,
    /// Share of the characters marked with the true source that are rewritten.
    pub precision: Option<f64>,
    /// Share of the rewritten characters marked with any source.
    pub recall_any: Option<f64>,
}

impl RetrievalScores {
    fn new(kind: &'static str, c: RetrievalCounts) -> RetrievalScores {
        RetrievalScores {
            kind,
            found: c.found as f64 / c.drafts.max(1) as f64,
            recall: ratio(c.marked_true, c.truth),
            precision: ratio(c.marked_true, c.marked),
            recall_any: ratio(c.marked_any_true, c.truth),
            counts: c,
        }
    }
}

/// Indexes every text of `texts` (its file name as the source id) in one corpus, checks every
/// draft of `pairs` through it, and scores per kind of `kinds`, then every kind but
/// [`Kind::None`] together.
///
/// Errors: a text or draft the engine refuses.
pub fn rewrites_view(
    pairs: &[Pair],
    texts: &[Text],
    kinds: &[Kind],
    params: &Params,
    opts: &CheckOptions,
) -> Result<Vec<RetrievalScores>> {
    let mut corpus = Corpus::new(*params)?;
    for t in texts {
        let info = SourceInfo {
            id: t.name.clone(),
            ..Default::default()
        };
        corpus
            .add(info, &t.text, Format::Plain, opts.max_text_bytes)
            .map_err(|source| EvalError::Index {
                name: t.name.clone(),
                source,
            })?;
    }
    let results: Vec<(Kind, RetrievalCounts)> = pairs
        .par_iter()
        .map(|p| -> Result<(Kind, RetrievalCounts)> {
            let report = corpus
                .check(&p.draft, Format::Plain, opts)
                .map_err(|source| EvalError::Check {
                    draft: format!("{}/{}", p.kind.name(), p.source),
                    source,
                })?;
            let conv = OffsetConverter::new(&p.draft, Unit::Chars);
            let truth: Vec<Range<usize>> = p.truth.iter().map(|t| t.0.clone()).collect();
            let marks = || report.fragments.iter().chain(&report.rewrites);
            let mine: Vec<Range<usize>> = marks()
                .filter(|f| f.sources.contains(&p.source))
                .map(|f| f.start..f.end)
                .collect();
            let any: Vec<Range<usize>> = marks().map(|f| f.start..f.end).collect();
            let (marked, marked_true) = covered(&conv, &mine, &truth);
            let (truth_chars, _) = covered(&conv, &truth, &truth);
            Ok((
                p.kind,
                RetrievalCounts {
                    drafts: 1,
                    found: usize::from(report.sources.iter().any(|s| s.info.id == p.source)),
                    truth: truth_chars,
                    marked,
                    marked_true,
                    marked_any_true: covered(&conv, &any, &truth).1,
                    candidates: report.sources.len(),
                },
            ))
        })
        .collect::<Result<_>>()?;
    let mut out: Vec<RetrievalScores> = kinds
        .iter()
        .map(|&k| {
            let mut c = RetrievalCounts::default();
            results.iter().filter(|r| r.0 == k).for_each(|r| c += r.1);
            RetrievalScores::new(k.name(), c)
        })
        .collect();
    let mut all = RetrievalCounts::default();
    results
        .iter()
        .filter(|r| r.0 != Kind::None && kinds.contains(&r.0))
        .for_each(|r| all += r.1);
    out.push(RetrievalScores::new(super::rewrites::ALL_REWRITTEN, all));
    Ok(out)
}

/// Drafts with no source in the index, and what the report marks of them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct UnrelatedScores {
    /// Documents indexed.
    pub indexed: usize,
    /// Drafts checked.
    pub drafts: usize,
    /// Drafts the engine refused (empty once canonicalized).
    pub refused: usize,
    /// Drafts with any copy marked.
    pub with_fragments: usize,
    /// Drafts with any rewrite marked.
    pub with_rewrites: usize,
    /// Drafts with anything marked.
    pub with_any: usize,
    /// Drafts with a source named in the report.
    pub with_sources: usize,
    /// Content words of the drafts, and of them marked as rewritten (not copied).
    pub words: usize,
    /// See `words`.
    pub rewritten_words: usize,
    /// Sources named, summed over the drafts.
    pub sources: usize,
    /// The drafts with any rewrite marked, by path.
    pub rewritten_drafts: Vec<String>,
}

/// A post as a draft without a source: its body without the header block (up to the first
/// blank line) and without quoted lines (`>` or `|` first, or an attribution: `writes:`,
/// `wrote:`), which copy other posts.
pub fn body(post: &str) -> String {
    let start = post.find("\n\n").map_or(0, |i| i + 2);
    post[start..]
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with('>')
                || t.starts_with('|')
                || t.contains("writes:")
                || t.contains("wrote:"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every file of the folders under `dir` (a 20 Newsgroups half), sorted by path, read as UTF-8
/// with invalid bytes replaced.
fn read_posts(dir: &Path) -> Result<Vec<(String, String)>> {
    let mut paths = Vec::new();
    for group in std::fs::read_dir(dir).map_err(read_error(dir))? {
        let group = group.map_err(read_error(dir))?.path();
        if group.is_dir() {
            for f in std::fs::read_dir(&group).map_err(read_error(&group))? {
                paths.push(f.map_err(read_error(&group))?.path());
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| Ok((p.display().to_string(), crate::read_text(&p)?)))
        .collect()
}

/// Indexes every post of `train` and checks every `every`-th post of `test` (sorted by path)
/// through it.
///
/// Errors: an unreadable folder or file.
pub fn unrelated(
    train: &Path,
    test: &Path,
    every: usize,
    params: &Params,
    opts: &CheckOptions,
) -> Result<UnrelatedScores> {
    let posts = read_posts(train)?;
    let docs: Vec<(String, uniqcheck::Document)> = posts
        .par_iter()
        .filter_map(|(name, text)| {
            uniqcheck::Document::analyze(text, Format::Plain, params, opts.max_text_bytes)
                .ok()
                .map(|d| (name.clone(), d))
        })
        .collect();
    let mut corpus = Corpus::new(*params)?;
    for (name, d) in docs {
        let info = SourceInfo {
            id: name,
            ..Default::default()
        };
        corpus.add_document(info, d);
    }
    let drafts: Vec<(String, String)> = read_posts(test)?
        .into_iter()
        .step_by(every.max(1))
        .collect();
    let per: Vec<Option<UnrelatedScores>> = drafts
        .par_iter()
        .map(|(name, text)| {
            let report = corpus.check(&body(text), Format::Plain, opts).ok()?;
            let (copies, rewrites) = (!report.fragments.is_empty(), !report.rewrites.is_empty());
            // Content words marked as rewritten: originality's deficit beyond uniqueness'.
            let rewritten = (report.uniqueness - report.originality).max(0.0) / 100.0;
            Some(UnrelatedScores {
                drafts: 1,
                with_fragments: usize::from(copies),
                with_rewrites: usize::from(rewrites),
                with_any: usize::from(copies || rewrites),
                with_sources: usize::from(!report.sources.is_empty()),
                words: report.words,
                rewritten_words: (rewritten * report.words as f64).round() as usize,
                sources: report.sources.len(),
                rewritten_drafts: if rewrites {
                    vec![name.clone()]
                } else {
                    Vec::new()
                },
                ..Default::default()
            })
        })
        .collect();
    let mut s = UnrelatedScores {
        indexed: corpus.len(),
        ..Default::default()
    };
    for r in per {
        let Some(r) = r else {
            s.drafts += 1;
            s.refused += 1;
            continue;
        };
        s.drafts += r.drafts;
        s.with_fragments += r.with_fragments;
        s.with_rewrites += r.with_rewrites;
        s.with_any += r.with_any;
        s.with_sources += r.with_sources;
        s.words += r.words;
        s.rewritten_words += r.rewritten_words;
        s.sources += r.sources;
        s.rewritten_drafts.extend(r.rewritten_drafts);
    }
    Ok(s)
}
