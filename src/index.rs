//! Index stage: what any index of published documents answers, and the one engine function that
//! ranks a draft's candidates and checks the draft against them.
//!
//! An [`Index`] is a backend: the in-memory [`crate::Corpus`], the CLI's SQLite store, the
//! browser's packs. It answers four questions, each by lookups in an inverted index, never by
//! reading every document: which documents hold these fingerprint keys, which hold these longest
//! words, which have this exact canonical text, and what a candidate's stored record is. Ranking
//! ([`candidates`]) and checking ([`check_document`], [`check`]) are written once, here, so every
//! backend gives the same answer for the same documents.
//!
//! Guarantees of [`candidates`]:
//! - **Any long enough copy is a candidate.** The draft's keys ([`Index::draft_keys`]) are looked
//!   up; content-defined anchoring (winnowing) on both sides means a source sharing a run of
//!   `w + n - 1` content words with the draft (the index's own window `w`) holds one of them.
//! - **Ranking**: an exact duplicate first, then by the number of the draft's distinct keys a
//!   document holds (plus, for a short draft, its shared longest words), ties to the smaller id
//!   (the older document). A key or longest word held by more than [`MAX_KEY_DOCS`] documents
//!   is too common to tell sources apart: it ranks nothing (reading its postings would be most
//!   of a lookup).
//! - **No hidden cap.** Every candidate is aligned, up to [`CheckOptions::max_candidates`]; when
//!   more were found, the weakest are left out and the report says so ([`Report::capped`]).
//!
//! Cost: one lookup per distinct draft key plus O(h log h) to rank the h documents hit; one
//! alignment per candidate. It grows with what the draft shares, not with the corpus.

use crate::document::Document;
use crate::pair::{find_source, Draft, Source};
use crate::report::{Method, Report};
use crate::shingle::key32;
use crate::{CheckOptions, Error, Format, Params};

/// A document's identifier within one index: the position in an in-memory corpus, the row id in
/// a store, the record number in packs. Reports name sources by [`crate::SourceInfo::id`].
pub type DocId = u64;

/// A document that may match a draft, and how strongly the index says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The document.
    pub id: DocId,
    /// The ranking score: shared distinct keys (and longest words, for a short draft), plus
    /// [`EXACT_SCORE`] for an exact duplicate.
    pub score: u64,
}

/// The score that ranks an exact duplicate above any number of shared keys.
pub const EXACT_SCORE: u64 = 1 << 40;

pub use crate::params::MAX_KEY_DOCS;

/// Which inverted list of an index a lookup reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// Fingerprint keys (winnowed shingles) → documents.
    Keys,
    /// Longest-word hashes (short-text signatures) → documents.
    LongWords,
}

/// What an index of published documents answers. Implemented by every backend; the engine ranks
/// and checks through it ([`candidates`], [`check`]).
///
/// Every document must have been analysed with [`Index::params`].
pub trait Index {
    /// Why a lookup failed (I/O, a damaged record, a file not fetched yet); an in-memory index
    /// never fails ([`std::convert::Infallible`]).
    type Error;

    /// The parameters every document was analysed with.
    fn params(&self) -> &Params;

    /// The draft's keys to look up in [`List::Keys`], sorted and distinct. By default every key
    /// of its shingles (the index holds each document's winnowed fingerprints, so any shared run
    /// of `w + n - 1` words shares one); an index of sparser anchors overrides it with the
    /// draft's own anchors, chosen by the same rule.
    fn draft_keys(&self, draft: &Draft<'_>) -> Vec<u32> {
        let mut keys: Vec<u32> = draft.doc.shingles.iter().map(|s| key32(s.hash)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Calls `visit(key, docs)` for each of `keys` (sorted, distinct) that any document holds in
    /// `list`, with those documents in ascending order; for a key held by more than `limit`
    /// documents, `docs` may stop at `limit + 1` (enough to tell it is too common).
    fn postings(
        &self,
        list: List,
        keys: &[u32],
        limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<(), Self::Error>;

    /// Appends the documents whose canonical content hashes to `exact`
    /// ([`Document::exact`](crate::Document)).
    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error>;

    /// Calls `visit` with the stored record of each of `ids`, in the order given; an id the index
    /// does not hold (deleted meanwhile) is passed over.
    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<(), Self::Error>;
}

/// Every candidate for `draft` (prepared with the index's parameters), best first; see the
/// module documentation for the ranking and its guarantee. Not capped: [`check_document`] applies
/// [`CheckOptions::max_candidates`].
pub fn candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    opts: &CheckOptions,
) -> Result<Vec<Candidate>, I::Error> {
    let mut hits: Vec<DocId> = Vec::new();
    let mut collect = |_: u32, docs: &[DocId]| {
        if docs.len() <= MAX_KEY_DOCS {
            hits.extend_from_slice(docs);
        }
    };
    index.postings(
        List::Keys,
        &index.draft_keys(draft),
        MAX_KEY_DOCS,
        &mut collect,
    )?;
    if draft.doc.is_short(opts) {
        let mut words = draft.doc.short.hashes.clone();
        words.sort_unstable();
        words.dedup();
        index.postings(List::LongWords, &words, MAX_KEY_DOCS, &mut collect)?;
    }
    let mut exact = Vec::new();
    index.exact_documents(draft.doc.exact, &mut exact)?;
    // Every hit is one document id; sorting the ids and counting runs beats a hash map of scores
    // for the few hundred to few thousand hits of a draft (benches/peers).
    hits.sort_unstable();
    let mut ranked: Vec<Candidate> = hits
        .chunk_by(|a, b| a == b)
        .map(|run| Candidate {
            id: run[0],
            score: run.len() as u64,
        })
        .collect();
    for d in exact {
        match ranked.binary_search_by_key(&d, |c| c.id) {
            Ok(i) => ranked[i].score += EXACT_SCORE,
            Err(i) => ranked.insert(
                i,
                Candidate {
                    id: d,
                    score: EXACT_SCORE,
                },
            ),
        }
    }
    ranked.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    Ok(ranked)
}

/// The candidates [`check_document`] aligns: [`candidates`] cut at
/// [`CheckOptions::max_candidates`], and whether any were left out.
pub fn checked_candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    opts: &CheckOptions,
) -> Result<(Vec<DocId>, bool), I::Error> {
    let mut ranked = candidates(index, draft, opts)?;
    let capped = ranked.len() > opts.max_candidates;
    ranked.truncate(opts.max_candidates);
    Ok((ranked.into_iter().map(|c| c.id).collect(), capped))
}

/// Checks an analysed draft (analysed with [`Index::params`]) against the index: its
/// [`candidates`], each aligned against its stored record, then the report.
///
/// Errors: only the index's own (an in-memory index has none).
pub fn check_document<I: Index + ?Sized>(
    index: &I,
    draft: &Document,
    opts: &CheckOptions,
) -> Result<Report, I::Error> {
    let params = index.params();
    let draft = Draft::new(draft, params);
    let (ids, capped) = checked_candidates(index, &draft, opts)?;
    let mut findings = Vec::with_capacity(ids.len());
    // In rank order: ties in the report are broken by rank.
    index.records(&ids, &mut |source| {
        findings.push(find_source(&draft, source, params, opts))
    })?;
    let method = Method::decide(draft.doc, &findings, opts);
    let mut report = Report::build(draft.doc, findings, method);
    report.capped = capped;
    Ok(report)
}

/// Validates `opts` and analyses `text` with `params`: the first step of every check.
///
/// Errors: [`Error::InvalidOption`], and those of [`Document::analyze`] (empty, too large, binary).
pub fn analyze_draft(
    text: &str,
    format: Format,
    params: &Params,
    opts: &CheckOptions,
) -> Result<Document, Error> {
    opts.validate()?;
    Document::analyze(text, format, params, opts.max_text_bytes)
}

/// Analyses `text` with the index's parameters ([`analyze_draft`]) and checks it
/// ([`check_document`]).
///
/// Errors: those of [`analyze_draft`], and the index's own.
///
/// # Example
/// ```
/// use uniqcheck::{index, CheckOptions, Format, Params, SourceInfo};
/// # struct Store(uniqcheck::Corpus);
/// # // A fallible backend, as a database is (here one that never fails).
/// # impl index::Index for Store {
/// #     type Error = Box<dyn std::error::Error>;
/// #     fn params(&self) -> &Params { self.0.params() }
/// #     fn postings(&self, l: index::List, k: &[u32], m: usize, v: &mut dyn FnMut(u32, &[index::DocId])) -> Result<(), Self::Error> { Ok(self.0.postings(l, k, m, v).unwrap()) }
/// #     fn exact_documents(&self, e: u64, d: &mut Vec<index::DocId>) -> Result<(), Self::Error> { Ok(self.0.exact_documents(e, d).unwrap()) }
/// #     fn records(&self, ids: &[index::DocId], v: &mut dyn FnMut(uniqcheck::pair::Source<'_>)) -> Result<(), Self::Error> { Ok(self.0.records(ids, v).unwrap()) }
/// # }
/// # use uniqcheck::index::Index;
/// let mut corpus = uniqcheck::Corpus::new(Params::default()).unwrap();
/// let article = "Robust winnowing keeps the rightmost minimum of every window of shingle \
///     hashes, which guarantees that any long enough shared passage yields a fingerprint.";
/// let info = SourceInfo { id: "w".into(), ..Default::default() };
/// corpus.add(info, article, Format::Plain, 1 << 20).unwrap();
/// let store = Store(corpus);
/// let draft = format!("As the paper says: {article}");
/// let report = index::check(&store, &draft, Format::Plain, &CheckOptions::default()).unwrap();
/// assert_eq!(report.sources[0].info.id, "w");
/// assert!(report.uniqueness < 40.0);
/// let err = index::check(&store, "  ", Format::Plain, &CheckOptions::default()).unwrap_err();
/// assert!(err.to_string().contains("empty"), "{err}");
/// ```
pub fn check<I>(
    index: &I,
    text: &str,
    format: Format,
    opts: &CheckOptions,
) -> Result<Report, I::Error>
where
    I: Index + ?Sized,
    I::Error: From<Error>,
{
    let draft = analyze_draft(text, format, index.params(), opts)?;
    check_document(index, &draft, opts)
}

#[cfg(test)]
mod tests {
    use crate::{CheckOptions, Corpus, Format, Params, SourceInfo};

    #[test]
    fn a_cap_on_candidates_is_said_in_the_report() {
        let passage = "Каждый источник, который покрывает часть черновика, должен найтись, а \
            если проверка всё же ограничена, отчёт обязан сказать об этом прямо.";
        let mut corpus = Corpus::new(Params::default()).unwrap();
        for i in 0..5 {
            let info = SourceInfo {
                id: format!("s{i}"),
                ..Default::default()
            };
            let text = format!("Своё вступление номер {i}. {passage}");
            corpus.add(info, &text, Format::Plain, 1 << 20).unwrap();
        }
        let opts = CheckOptions {
            short_threshold: 0,
            ..Default::default()
        };
        let all = corpus.check(passage, Format::Plain, &opts).unwrap();
        assert_eq!((all.sources.len(), all.capped), (5, false));
        let two = CheckOptions {
            max_candidates: 2,
            ..opts
        };
        let capped = corpus.check(passage, Format::Plain, &two).unwrap();
        assert_eq!((capped.sources.len(), capped.capped), (2, true));
        assert_eq!(capped.uniqueness, all.uniqueness);
    }
}
