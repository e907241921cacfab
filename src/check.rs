//! Check stage: a draft against an [`Index`], from candidates to the report. The one function
//! every check runs through, whatever the backend ([`crate::Corpus`] in memory, the CLI's store,
//! the browser's packs), so that every backend gives the same answer for the same documents.
//!
//! [`check`] analyses the text ([`analyze_draft`]: the engine's parameters, the draft's
//! quotations when they are excluded), then [`check_document`] takes the index's
//! [`crate::index::checked_candidates`], aligns each against its stored record
//! ([`crate::pair::find_source`]), passes over excluded sources, cuts findings at excluded
//! quotations ([`crate::report::cut_quotations`]) and builds the [`Report`].
//!
//! Guarantees: the report is the same on one thread and on several (findings are kept in rank
//! order); no hidden cap (a report capped at [`CheckOptions::max_candidates`] says so, with how
//! many were left out); excluded sources are never aligned.

use crate::document::Document;
use crate::index::{checked_candidates, Corpus, DocId, Index};
use crate::pack::Record;
use crate::pair::{find_owned_record, find_source, Draft, Finding, Source};
use crate::report::{Method, Report};
use crate::{CheckOptions, Error, Format, Params};

/// Checks an analysed draft (analysed with [`Index::params`]) against the index: its
/// [`crate::index::candidates`], each aligned against its stored record, then the report.
///
/// Natively, the records an index hands over together ([`Index::records_all`]) are aligned on
/// several threads (rayon's global pool: as many threads as `available_parallelism`, or
/// `RAYON_NUM_THREADS`) when they hold at least [`PARALLEL_MIN_WORDS`] content words in all;
/// each finding is the same whichever thread made it and they are kept in rank order, so the
/// report is the same as on one thread. An index that hands its records over decoded in batches
/// ([`Index::records_decoded`], a database) has each batch aligned on the pool while it reads
/// the next, once the records handed over hold [`PARALLEL_MIN_WORDS`] content words. In
/// WebAssembly everything runs on the calling thread.
///
/// Errors: only the index's own (an in-memory index has none).
pub fn check_document<I: Index + ?Sized>(
    index: &I,
    draft: &Document,
    opts: &CheckOptions,
) -> Result<Report, I::Error> {
    check_document_on(index, draft, opts, Threads::Auto)
}

/// Whether [`check_document`] aligns candidates on several threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Threads {
    /// Several when the records handed over together are enough work ([`PARALLEL_MIN_WORDS`]).
    Auto,
    /// The calling thread only (the tests' reference).
    #[cfg(test)]
    One,
    /// Several whenever more than one record is handed over (the tests' other side).
    #[cfg(test)]
    Many,
}

impl Threads {
    /// Whether records holding `words` content words in all (counted only where that decides)
    /// are aligned on the pool (never in WebAssembly, which has one thread).
    fn parallel(self, words: impl FnOnce() -> usize) -> bool {
        #[cfg(target_arch = "wasm32")]
        return {
            let _ = (self, words);
            false
        };
        #[cfg(not(target_arch = "wasm32"))]
        match self {
            Threads::Auto => rayon::current_num_threads() > 1 && words() >= PARALLEL_MIN_WORDS,
            #[cfg(test)]
            Threads::One => false,
            #[cfg(test)]
            Threads::Many => true,
        }
    }
}

/// The content words (of all the records handed over together) from which [`check_document`]
/// aligns them on several threads. Below, the records are aligned on the calling thread: waking
/// the pool and handing work back costs more than it saves. Chosen by measurement
/// (docs/PERFORMANCE.md, "Candidates aligned on several threads").
pub const PARALLEL_MIN_WORDS: usize = 4_000;

/// [`check_document`], aligning as `threads` says.
fn check_document_on<I: Index + ?Sized>(
    index: &I,
    draft: &Document,
    opts: &CheckOptions,
    threads: Threads,
) -> Result<Report, I::Error> {
    let params = index.params();
    let table = opts.bilingual.as_deref().or(index.bilingual());
    let draft = Draft::new(draft, params).with_bilingual(table);
    let (ids, left_out) = checked_candidates(index, &draft, opts)?;
    let mut excluded = crate::Excluded::default();
    // In rank order: ties in the report are broken by rank.
    let mut findings = match find_decoded(index, &draft, &ids, params, opts, threads)? {
        Some((findings, left)) => {
            excluded.sources = left;
            findings
        }
        None => {
            let mut findings = Vec::with_capacity(ids.len());
            index.records_all(&ids, &mut |sources| {
                // Each source's URL is normalized once, here (with exclusions), not counted then
                // filtered.
                let kept: Vec<Source<'_>> = sources
                    .iter()
                    .filter(|s| !opts.exclude.excludes(&s.info().url))
                    .copied()
                    .collect();
                excluded.sources += sources.len() - kept.len();
                find_all(&draft, &kept, params, opts, threads, &mut findings);
            })?;
            findings
        }
    };
    excluded.quoted_words = crate::report::cut_quotations(draft.doc, &mut findings, opts.gap);
    let method = Method::decide(draft.doc, &findings, opts);
    let mut report = Report::build(draft.doc, findings, method);
    (report.capped, report.excluded) = (left_out > 0, excluded);
    report.unchecked = left_out;
    Ok(report)
}

/// The finding of `record`, or `None` when the options exclude it.
fn find_kept(
    draft: &Draft<'_>,
    record: Record,
    params: &Params,
    opts: &CheckOptions,
) -> Option<Finding> {
    (!opts.exclude.excludes(&record.info.url))
        .then(|| find_owned_record(draft, record, params, opts))
}

/// The findings of the records of `ids` in their order, and how many records were excluded, when
/// the index hands them over decoded ([`Index::records_decoded`]); `None` when it does not.
///
/// Natively each record is aligned (and its exclusion decided) on rayon's pool as soon as its
/// batch is handed over, while the index reads the next batch on this thread; once the records
/// handed over hold [`PARALLEL_MIN_WORDS`] content words (before, on this thread), as
/// [`find_all`] decides for records handed over together. Each finding goes to the slot of its
/// record's position, so the order is the rank's whichever thread finishes first. In
/// WebAssembly each batch is aligned on the calling thread as it comes.
fn find_decoded<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    ids: &[DocId],
    params: &Params,
    opts: &CheckOptions,
    threads: Threads,
) -> Result<Option<(Vec<Finding>, usize)>, I::Error> {
    use std::sync::OnceLock;
    let slots: Vec<OnceLock<Option<Finding>>> = (0..ids.len()).map(|_| OnceLock::new()).collect();
    let find = |slot: &OnceLock<Option<Finding>>, record: Record| {
        let _ = slot.set(find_kept(draft, record, params, opts));
    };
    // One task a record, which it owns: work stealing spreads the few long records.
    #[cfg(not(target_arch = "wasm32"))]
    let (handed, next) = rayon::in_place_scope(|scope| {
        hand_over(
            index,
            ids,
            &slots,
            threads,
            &mut |slot, record, parallel| {
                if parallel {
                    scope.spawn(move |_| find(slot, record));
                } else {
                    find(slot, record);
                }
            },
        )
    })?;
    #[cfg(target_arch = "wasm32")]
    let (handed, next) = hand_over(index, ids, &slots, threads, &mut |slot, record, _| {
        find(slot, record)
    })?;
    if !handed {
        return Ok(None);
    }
    let mut findings = Vec::with_capacity(next);
    let mut excluded = 0;
    for slot in slots.into_iter().take(next) {
        match slot.into_inner().flatten() {
            Some(finding) => findings.push(finding),
            None => excluded += 1,
        }
    }
    Ok(Some((findings, excluded)))
}

/// [`find_decoded`]'s reading: hands each record the index hands over to `align` with its slot
/// (its position in `ids`) and whether its batch goes to the pool; returns whether the index
/// handed records over and how many.
fn hand_over<'s, I: Index + ?Sized>(
    index: &I,
    ids: &[DocId],
    slots: &'s [std::sync::OnceLock<Option<Finding>>],
    threads: Threads,
    align: &mut dyn FnMut(&'s std::sync::OnceLock<Option<Finding>>, Record, bool),
) -> Result<(bool, usize), I::Error> {
    let (mut next, mut words) = (0, 0);
    let handed = index.records_decoded(ids, &mut |batch| {
        words += batch.iter().map(|r| r.word_count()).sum::<usize>();
        let parallel = threads.parallel(|| words);
        assert!(
            next + batch.len() <= slots.len(),
            "Index::records_decoded handed over more records than ids asked for"
        );
        let batch_slots = &slots[next..next + batch.len()];
        next += batch.len();
        for (slot, record) in batch_slots.iter().zip(batch) {
            align(slot, record, parallel);
        }
    })?;
    Ok((handed, next))
}

/// Appends the finding of each of `sources` to `findings`, in their order: on several threads
/// when `threads` and the work call for it (natively), otherwise on this one.
fn find_all(
    draft: &Draft<'_>,
    sources: &[Source<'_>],
    params: &Params,
    opts: &CheckOptions,
    threads: Threads,
    findings: &mut Vec<Finding>,
) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        let words = || {
            sources
                .iter()
                .map(|s| match s {
                    Source::Full(_, doc) => doc.hashes.len(),
                    Source::Record(r) => r.word_count(),
                })
                .sum::<usize>()
        };
        let parallel = sources.len() > 1 && threads.parallel(words);
        if parallel {
            // An indexed parallel iterator: `par_extend` keeps the order of `sources`, and work
            // stealing spreads the few long records (the 5 % longest candidates are half of the
            // alignment time) over the threads.
            findings.par_extend(
                sources
                    .par_iter()
                    .with_max_len(1)
                    .map(|&s| find_source(draft, s, params, opts)),
            );
            return;
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = threads;
    findings.extend(sources.iter().map(|&s| find_source(draft, s, params, opts)));
}

/// Validates `opts` and analyses `text` with `params` (marking its quotations when they are
/// excluded): the first step of every check.
///
/// Errors: [`Error::InvalidOption`], and those of [`Document::analyze`] (empty, too large, binary).
pub fn analyze_draft(
    text: &str,
    format: Format,
    params: &Params,
    opts: &CheckOptions,
) -> Result<Document, Error> {
    opts.validate()?;
    let mut doc = Document::analyze(text, format, params, opts.max_text_bytes)?;
    doc.mark_quotations(text, format, &opts.exclude);
    Ok(doc)
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
/// let report = uniqcheck::check::check(&store, &draft, Format::Plain, &CheckOptions::default()).unwrap();
/// assert_eq!(report.sources[0].info.id, "w");
/// assert!(report.uniqueness < 40.0);
/// let err = uniqcheck::check::check(&store, "  ", Format::Plain, &CheckOptions::default()).unwrap_err();
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

// The in-memory corpus's own checks are written here, beside the driver they call, so that the
// index layer (which holds `Corpus`) never imports the layer above it.
impl Corpus {
    /// Checks a draft against the corpus ([`check`]).
    ///
    /// Errors: [`Error::InvalidOption`], and those of [`Document::analyze`] (empty, too large, binary).
    pub fn check(&self, draft: &str, format: Format, opts: &CheckOptions) -> Result<Report, Error> {
        let draft = analyze_draft(draft, format, self.params(), opts)?;
        Ok(self.check_document(&draft, opts))
    }

    /// Checks an analysed draft (analysed with [`Corpus::params`]; [`check_document`]).
    pub fn check_document(&self, draft: &Document, opts: &CheckOptions) -> Report {
        check_document(self, draft, opts).unwrap_or_else(|e| match e {})
    }
}

#[cfg(test)]
mod tests {
    use super::{check_document_on, Threads};
    use crate::index::{DocId, Index, List};
    use crate::pack::Record;
    use crate::pair::Source;
    use crate::{CheckOptions, Corpus, Document, Format, Params, SourceInfo};

    /// A corpus as [`Index`] with only the required methods: records one at a time, by the
    /// default [`Index::records_all`].
    struct OneByOne<'a>(&'a Corpus);

    impl Index for OneByOne<'_> {
        type Error = std::convert::Infallible;
        fn params(&self) -> &Params {
            self.0.params()
        }
        fn postings(
            &self,
            list: List,
            keys: &[u32],
            limit: usize,
            visit: &mut dyn FnMut(u32, &[DocId]),
        ) -> Result<(), Self::Error> {
            self.0.postings(list, keys, limit, visit)
        }
        fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error> {
            self.0.exact_documents(exact, docs)
        }
        fn records(
            &self,
            ids: &[DocId],
            visit: &mut dyn FnMut(Source<'_>),
        ) -> Result<(), Self::Error> {
            self.0.records(ids, visit)
        }
    }

    /// A corpus as [`Index`] whose every document is known by its record, handed over decoded
    /// in batches of `batch` ([`Index::records_decoded`]), or not at all when `batch` is 0 (then
    /// by [`Index::records`], one at a time).
    struct Decoded<'a> {
        corpus: &'a Corpus,
        batch: usize,
    }

    impl Decoded<'_> {
        fn record(&self, id: DocId) -> Option<Record> {
            let mut record = None;
            let Ok(()) = self.corpus.records(&[id], &mut |s| {
                record = Some(match s {
                    Source::Record(r) => r.clone(),
                    Source::Full(info, doc) => Record::from_document(info.clone(), doc),
                })
            });
            record
        }
    }

    impl Index for Decoded<'_> {
        type Error = std::convert::Infallible;
        fn params(&self) -> &Params {
            self.corpus.params()
        }
        fn postings(
            &self,
            list: List,
            keys: &[u32],
            limit: usize,
            visit: &mut dyn FnMut(u32, &[DocId]),
        ) -> Result<(), Self::Error> {
            self.corpus.postings(list, keys, limit, visit)
        }
        fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error> {
            self.corpus.exact_documents(exact, docs)
        }
        fn records(
            &self,
            ids: &[DocId],
            visit: &mut dyn FnMut(Source<'_>),
        ) -> Result<(), Self::Error> {
            for r in ids.iter().filter_map(|&id| self.record(id)) {
                visit(Source::Record(&r));
            }
            Ok(())
        }
        fn records_decoded(
            &self,
            ids: &[DocId],
            visit: &mut dyn FnMut(Vec<Record>),
        ) -> Result<bool, Self::Error> {
            if self.batch == 0 {
                return Ok(false);
            }
            for part in ids.chunks(self.batch) {
                visit(part.iter().filter_map(|&id| self.record(id)).collect());
            }
            Ok(true)
        }
    }

    const SOURCE: &str = include_str!("../tests/data/rewrite-source.txt");
    const REWRITE: &str = include_str!("../tests/data/rewrite-draft.txt");

    #[test]
    fn candidates_aligned_on_several_threads_give_the_report_of_one_thread() {
        let passage =
            "Winnowing keeps the rightmost minimum of every window of shingle hashes, so \
            any long enough run of words that two documents share yields at least one common \
            fingerprint, whatever surrounds it, and the index holds only those fingerprints.";
        let params = Params::default();
        // Copies of the passage and of the rewrite benchmark's source, each with words of its
        // own, some known by text and some by record, some excluded by their URL; different
        // findings share ids, so that the report's order among them is the rank's.
        let mut corpus = Corpus::new(params).unwrap();
        for i in 0..40 {
            let text = match i % 4 {
                0 => format!("Copy {i} of the passage. {passage} Its own ending number {i}."),
                1 => format!("{SOURCE}\n\nAppended note {i} about something else entirely."),
                2 => format!("Part {i}: {passage}\n\n{SOURCE}"),
                _ => passage.replace("window", &format!("window{i}")),
            };
            let info = SourceInfo {
                id: format!("s{}", i % 5),
                url: format!("https://site{}.example/{i}", i % 3),
                ..Default::default()
            };
            let doc = Document::analyze(&text, Format::Plain, &params, 1 << 20).unwrap();
            if i % 2 == 0 {
                corpus.add_document(info, doc);
            } else {
                corpus.add_record(info, &doc);
            }
        }
        let draft = format!("My introduction.\n\n{passage}\n\n{REWRITE}\n\nAnd {passage}");
        let exclude = crate::exclude::Exclusions {
            domains: vec!["site2.example".into()],
            ..Default::default()
        };
        for opts in [
            CheckOptions::default(),
            CheckOptions {
                exclude,
                ..Default::default()
            },
            CheckOptions {
                max_candidates: 7,
                ..Default::default()
            },
        ] {
            let doc = super::analyze_draft(&draft, Format::Plain, &params, &opts).unwrap();
            let json = |threads: Threads, by_one: bool| {
                let report = if by_one {
                    check_document_on(&OneByOne(&corpus), &doc, &opts, threads)
                } else {
                    check_document_on(&corpus, &doc, &opts, threads)
                };
                serde_json::to_string(&report.unwrap_or_else(|e| match e {})).unwrap()
            };
            let one = json(Threads::One, false);
            let report: crate::Report = serde_json::from_str(&one).unwrap();
            assert!(report.sources.len() > 5, "{}", report.sources.len());
            let excluding = !opts.exclude.domains.is_empty();
            assert_eq!(report.excluded.sources > 0, excluding);
            assert_eq!(json(Threads::Many, false), one);
            assert_eq!(json(Threads::Auto, false), one);
            assert_eq!(json(Threads::Many, true), one, "records one at a time");
            // Records handed over decoded, in batches, aligned as they come: the report of
            // the same records handed over one at a time, on one thread.
            let decoded = |batch: usize, threads: Threads| {
                let index = Decoded {
                    corpus: &corpus,
                    batch,
                };
                let report = check_document_on(&index, &doc, &opts, threads);
                serde_json::to_string(&report.unwrap_or_else(|e| match e {})).unwrap()
            };
            let one = decoded(0, Threads::One);
            let report: crate::Report = serde_json::from_str(&one).unwrap();
            assert!(report.sources.len() > 5, "{}", report.sources.len());
            assert_eq!(report.excluded.sources > 0, excluding);
            for batch in [1, 3, 1000] {
                for threads in [Threads::One, Threads::Many, Threads::Auto] {
                    assert_eq!(
                        decoded(batch, threads),
                        one,
                        "batches of {batch}, {threads:?}"
                    );
                }
            }
        }
    }

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
        assert_eq!(
            (all.unchecked, capped.unchecked),
            (0, 3),
            "three more were found"
        );
        assert_eq!(capped.uniqueness, all.uniqueness);
    }

    #[test]
    fn a_cap_keeps_the_sources_of_every_passage_before_more_copies_of_one() {
        // A long passage copied by six documents, a short one by one: capped at two, the best two
        // by score would be two copies of the long passage, and the short one's source lost.
        let long = "Winnowing keeps the rightmost minimum of every window of shingle hashes, so \
            any long enough run of words that two documents share yields at least one common \
            fingerprint, whatever surrounds it, and the index holds only those fingerprints, a \
            small fraction of every shingle, which keeps it small enough for a browser to fetch.";
        let short = "Sentence keys pair the two rarest words of each sentence, so shuffled \
            words and moved sentences keep them, and a rewritten source is found all the same.";
        let mut corpus = Corpus::new(Params::default()).unwrap();
        let mut add = |id: &str, text: String| {
            let info = SourceInfo {
                id: id.into(),
                ..Default::default()
            };
            corpus.add(info, &text, Format::Plain, 1 << 20).unwrap();
        };
        for i in 0..6 {
            add(
                &format!("long{i}"),
                format!("Copy number {i} of it. {long}"),
            );
        }
        add("short", format!("Quoted here: {short}"));
        let draft = format!("{long}\n\n{short}");
        let opts = CheckOptions {
            max_candidates: 2,
            ..Default::default()
        };
        let all = corpus
            .check(&draft, Format::Plain, &CheckOptions::default())
            .unwrap();
        assert_eq!((all.sources.len(), all.capped), (7, false));
        let capped = corpus.check(&draft, Format::Plain, &opts).unwrap();
        let ids: Vec<&str> = capped.sources.iter().map(|s| s.info.id.as_str()).collect();
        assert_eq!(ids.len(), 2);
        assert!(ids.contains(&"short"), "{ids:?}");
        assert!(ids.iter().any(|id| id.starts_with("long")), "{ids:?}");
        assert_eq!((capped.capped, capped.unchecked), (true, 5));
        assert_eq!(capped.uniqueness, all.uniqueness);
    }
}
