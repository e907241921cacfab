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
//! - **Any long enough copy is a candidate.** Every distinct key of the draft's shingles is looked
//!   up, and winnowing keeps one fingerprint per window of `w` shingles, so a source sharing a run
//!   of `w + n - 1` content words with the draft holds at least one of the keys.
//! - **Ranking**: an exact duplicate first, then by the number of the draft's distinct keys a
//!   document holds (plus, for a short draft, its shared longest words; a word held by more than
//!   [`MAX_LONG_WORD_DOCS`] documents ranks nothing), ties to the smaller id (the older document).
//! - At most [`CheckOptions::max_candidates`] candidates are aligned in full.
//!
//! Cost: one lookup per distinct draft key plus O(h log h) to rank the h documents hit; one
//! alignment per candidate. It grows with what the draft shares, not with the corpus.

use crate::document::Document;
use crate::pair::{find_source, Draft, Source};
use crate::report::{Method, Report};
use crate::shingle::key32;
use crate::short::MAX_LONG_WORD_DOCS;
use crate::{CheckOptions, Error, Format, Params};

/// A document's identifier within one index: the position in an in-memory corpus, the row id in
/// a store. Reports name sources by [`crate::SourceInfo::id`], not by this.
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

/// What an index of published documents answers. Implemented by every backend; the engine ranks
/// and checks through it ([`candidates`], [`check`]).
///
/// Every document must have been analysed with [`Index::params`].
pub trait Index {
    /// Why a lookup failed (I/O, a damaged record); an in-memory index never fails
    /// ([`std::convert::Infallible`]).
    type Error;

    /// The parameters every document was analysed with.
    fn params(&self) -> &Params;

    /// For the draft's distinct fingerprint `keys` (sorted ascending), appends to `counts` each
    /// document holding any of them, with how many of the keys it holds, once per document, in
    /// any order.
    fn fingerprint_counts(
        &self,
        keys: &[u32],
        counts: &mut Vec<(DocId, u64)>,
    ) -> Result<(), Self::Error>;

    /// For the draft's longest-word `hashes` (distinct), appends to `counts` each document whose
    /// short-text signature holds any of them, with how many, once per document, leaving out every
    /// hash held by more than `max_docs` documents.
    fn long_word_counts(
        &self,
        hashes: &[u32],
        max_docs: usize,
        counts: &mut Vec<(DocId, u64)>,
    ) -> Result<(), Self::Error>;

    /// Appends the documents whose canonical content hashes to `exact`
    /// ([`Document::exact`](crate::Document)).
    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error>;

    /// Calls `visit` with the stored record of each of `ids`, in the order given; an id the index
    /// does not hold (deleted meanwhile) is passed over.
    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<(), Self::Error>;
}

/// The candidates for `draft` (analysed with the index's parameters), best first; see the module
/// documentation for the ranking and its guarantee.
pub fn candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Document,
    opts: &CheckOptions,
) -> Result<Vec<Candidate>, I::Error> {
    let mut keys: Vec<u32> = draft.shingles.iter().map(|s| key32(s.hash)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut counts: Vec<(DocId, u64)> = Vec::new();
    index.fingerprint_counts(&keys, &mut counts)?;
    if draft.is_short(opts) {
        let mut hashes = draft.short.hashes.clone();
        hashes.sort_unstable();
        hashes.dedup();
        index.long_word_counts(&hashes, MAX_LONG_WORD_DOCS, &mut counts)?;
    }
    let mut exact = Vec::new();
    index.exact_documents(draft.exact, &mut exact)?;
    counts.extend(exact.into_iter().map(|d| (d, EXACT_SCORE)));
    // A document may come from several lookups: sum its scores.
    counts.sort_unstable_by_key(|&(d, _)| d);
    let mut ranked: Vec<Candidate> = counts
        .chunk_by(|a, b| a.0 == b.0)
        .map(|run| Candidate {
            id: run[0].0,
            score: run.iter().map(|&(_, s)| s).sum(),
        })
        .collect();
    ranked.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
    ranked.truncate(opts.max_candidates);
    Ok(ranked)
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
    let ids: Vec<DocId> = candidates(index, draft, opts)?
        .into_iter()
        .map(|c| c.id)
        .collect();
    let params = index.params();
    let draft = Draft::new(draft, params);
    let mut findings = Vec::with_capacity(ids.len());
    // In rank order: ties in the report are broken by rank.
    index.records(&ids, &mut |source| {
        findings.push(find_source(&draft, source, params, opts))
    })?;
    let method = Method::decide(draft.doc, &findings, opts);
    Ok(Report::build(draft.doc, findings, method))
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
/// #     fn fingerprint_counts(&self, k: &[u32], c: &mut Vec<(index::DocId, u64)>) -> Result<(), Self::Error> { Ok(self.0.fingerprint_counts(k, c).unwrap()) }
/// #     fn long_word_counts(&self, h: &[u32], m: usize, c: &mut Vec<(index::DocId, u64)>) -> Result<(), Self::Error> { Ok(self.0.long_word_counts(h, m, c).unwrap()) }
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
