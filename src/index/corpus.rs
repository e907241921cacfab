//! Index stage, in memory: a set of analysed source documents and the inverted indexes that find
//! a draft's candidates without comparing it with every document.
//!
//! Three indexes answer "which documents could this draft match": the exact-duplicate hash, the
//! fingerprint keys (winnowed shingles; every draft shingle is looked up, so any shared run of
//! `w + n - 1` words is found), and, for short drafts, the longest-words hashes. Only the best
//! [`CheckOptions::max_candidates`] candidates by shared keys are aligned in full ([`crate::index`]).
//! Documents are added as text (kept in full: fragments get spans on both sides) or kept as their
//! record only, as the store keeps them ([`Corpus::add_record`]: every content word in 2 bytes,
//! the same alignment, fragments get draft spans). Ranking and checking are the engine's
//! ([`crate::index`]); the corpus is one backend of [`Index`].
//!
//! Cost of a check: O(h log h) to rank the h hits (draft shingles × documents sharing each key),
//! plus one alignment per candidate: it grows with what the draft shares, not with the corpus.
//! Memory: the documents (analysed texts, or records) plus about 8 bytes per distinct key (see
//! `crate::postings`).

use crate::align::Words;
use crate::document::{Document, SourceInfo};
use crate::index::{self, Candidate, DocId, Index, List};
use crate::keys::Keys;
use crate::pack::Record;
use crate::pair::{Draft, Source};
use crate::postings::Postings;
use crate::{CheckOptions, Error, Format, Params};

/// What the corpus keeps of one document: what its checks align against.
#[derive(Debug, Clone)]
enum Entry {
    /// Added as text: the analysed text, so spans on both sides.
    Full(SourceInfo, Document),
    /// Added as its record: every content word, draft spans only.
    Record(Record),
}

impl Entry {
    /// What a check aligns against.
    fn source(&self) -> Source<'_> {
        match self {
            Entry::Full(info, doc) => Source::Full(info, doc),
            Entry::Record(r) => Source::Record(r),
        }
    }

    #[cfg(test)]
    fn info(&self) -> &SourceInfo {
        match self {
            Entry::Full(info, _) => info,
            Entry::Record(r) => &r.info,
        }
    }
}

/// An in-memory corpus of source documents.
///
/// # Example
/// ```
/// use uniqcheck::{CheckOptions, Corpus, Format, Params, SourceInfo};
/// let mut corpus = Corpus::new(Params::default()).unwrap();
/// let article = "Winnowing keeps the minimum hash of every window of shingles, so documents that \
///     share a long enough run of words always share a fingerprint, wherever the run appears.";
/// let info = SourceInfo { id: "a1".into(), url: String::new(), title: "Winnowing".into() };
/// corpus.add(info, article, Format::Plain, 1 << 20).unwrap();
/// let draft = format!("My own introduction comes first. {article}");
/// let report = corpus.check(&draft, Format::Plain, &CheckOptions::default()).unwrap();
/// assert!(report.uniqueness < 50.0);
/// assert_eq!(report.sources[0].info.id, "a1");
/// ```
#[derive(Debug, Clone)]
pub struct Corpus {
    params: Params,
    entries: Vec<Entry>,
    by_key: Postings<u32>,
    by_exact: Postings<u64>,
    by_long: Postings<u32>,
    by_sentence: Postings<u32>,
}

impl Corpus {
    /// An empty corpus whose documents will be analysed with `params`.
    pub fn new(params: Params) -> Result<Corpus, Error> {
        params.validate()?;
        Ok(Corpus {
            params,
            entries: Vec::new(),
            by_key: Postings::default(),
            by_exact: Postings::default(),
            by_long: Postings::default(),
            by_sentence: Postings::default(),
        })
    }

    /// The parameters every document was analysed with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no document was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Analyses and adds a source document; returns its index.
    pub fn add(
        &mut self,
        info: SourceInfo,
        text: &str,
        format: Format,
        max_bytes: usize,
    ) -> Result<usize, Error> {
        let doc = Document::analyze(text, format, &self.params, max_bytes)?;
        Ok(self.add_document(info, doc))
    }

    /// Adds an already analysed document (it must have been analysed with [`Corpus::params`]).
    pub fn add_document(&mut self, info: SourceInfo, doc: Document) -> usize {
        self.index(&doc);
        self.entries.push(Entry::Full(info, doc));
        self.entries.len() - 1
    }

    /// Adds an analysed document (analysed with [`Corpus::params`]) but keeps only its
    /// [`Record`], as the store does: it is found as [`Corpus::add_document`] finds it and
    /// aligned alike ([`Source::Record`]), with spans in the draft only, in about 2 bytes a
    /// content word (its shingles counted, as a stored record's) instead of the whole analysis.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{CheckOptions, Corpus, Document, Format, Params, SourceInfo};
    /// let mut corpus = Corpus::new(Params::default()).unwrap();
    /// let article = "Records keep every content word of a published text in two bytes, so a \
    ///     check aligns a draft against them as against the text, without keeping the text.";
    /// let doc = Document::analyze(article, Format::Plain, corpus.params(), 1 << 20).unwrap();
    /// corpus.add_record(SourceInfo { id: "r1".into(), ..Default::default() }, &doc);
    /// let draft = format!("A sentence of my own. {article}");
    /// let report = corpus.check(&draft, Format::Plain, &CheckOptions::default()).unwrap();
    /// assert_eq!(report.sources[0].info.id, "r1");
    /// assert!(report.sources[0].spans[0].source.is_none(), "no text, no source span");
    /// ```
    pub fn add_record(&mut self, info: SourceInfo, doc: &Document) -> usize {
        self.index(doc);
        let mut record = Record::from_document(info, doc);
        record.count_shingles(self.params.n);
        self.entries.push(Entry::Record(record));
        self.entries.len() - 1
    }

    /// Indexes the next document's keys, sentence keys, exact hash and longest words.
    fn index(&mut self, doc: &Document) {
        let id = self.entries.len() as u32;
        let words =
            Words::from_hashes(&doc.hashes, self.params.n).with_sentences(doc.sentences.clone());
        let keys = Keys::of(&words, &self.params);
        for key in keys.fingerprints {
            self.by_key.push(key, id);
        }
        for key in keys.sentences {
            self.by_sentence.push(key, id);
        }
        self.by_exact.push(doc.exact, id);
        for &h in &doc.short.hashes {
            self.by_long.push(h, id);
        }
    }

    /// The candidates for `draft`, best first ([`index::candidates`]); ids are indices in the
    /// order documents were added.
    pub fn candidates(&self, draft: &Document, opts: &CheckOptions) -> Vec<Candidate> {
        index::candidates(
            self,
            &Draft::new(draft, &self.params).with_bilingual(opts.bilingual.as_deref()),
            opts,
        )
        .unwrap_or_else(|e| match e {})
    }
}

impl Corpus {
    /// The document of `id`, if there is one.
    fn entry(&self, id: DocId) -> Option<&Entry> {
        self.entries.get(usize::try_from(id).ok()?)
    }
}

/// Visits the documents of each of `keys` in `postings`.
fn visit_postings<K: Copy + Eq + std::hash::Hash>(
    postings: &Postings<K>,
    keys: &[K],
    visit: &mut dyn FnMut(K, &[DocId]),
) {
    let mut docs: Vec<DocId> = Vec::new();
    for &k in keys {
        let held = postings.get(&k);
        if !held.is_empty() {
            docs.clear();
            docs.extend(held.iter().map(|&d| DocId::from(d)));
            visit(k, &docs);
        }
    }
}

impl Index for Corpus {
    type Error = std::convert::Infallible;

    fn params(&self) -> &Params {
        &self.params
    }

    fn postings(
        &self,
        list: List,
        keys: &[u32],
        _limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<(), Self::Error> {
        let postings = match list {
            List::Fingerprints => &self.by_key,
            List::LongWords => &self.by_long,
            List::Sentences => &self.by_sentence,
        };
        visit_postings(postings, keys, visit);
        Ok(())
    }

    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error> {
        docs.extend(self.by_exact.get(&exact).iter().map(|&d| DocId::from(d)));
        Ok(())
    }

    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<(), Self::Error> {
        for e in ids.iter().filter_map(|&d| self.entry(d)) {
            visit(e.source());
        }
        Ok(())
    }

    /// All of them in one slice: they are in memory.
    fn records_all(
        &self,
        ids: &[DocId],
        visit: &mut dyn FnMut(&[Source<'_>]),
    ) -> Result<(), Self::Error> {
        let sources: Vec<Source<'_>> = ids
            .iter()
            .filter_map(|&d| self.entry(d))
            .map(Entry::source)
            .collect();
        visit(&sources);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::MAX_KEY_DOCS as MAX_LONG_WORD_DOCS;

    const SOURCE: &str = "Internationalization of the storefront: translators rewrote checkout \
        instructions, localized currencies, and postponed everything else.";

    /// `MAX_LONG_WORD_DOCS + 1` posts sharing only one long word with SOURCE, then SOURCE.
    fn corpus() -> Corpus {
        let mut corpus = Corpus::new(Params::default()).unwrap();
        for i in 0..=MAX_LONG_WORD_DOCS {
            let text = format!("Internationalization notes number{i} mention nothing else");
            let info = SourceInfo {
                id: format!("noise{i}"),
                ..Default::default()
            };
            corpus.add(info, &text, Format::Plain, 1 << 20).unwrap();
        }
        let info = SourceInfo {
            id: "source".into(),
            ..Default::default()
        };
        corpus.add(info, SOURCE, Format::Plain, 1 << 20).unwrap();
        corpus
    }

    #[test]
    fn a_long_word_in_too_many_documents_finds_no_candidates_and_rarer_ones_still_do() {
        let corpus = corpus();
        let draft = "Translators rewrote checkout instructions and localized currencies; \
            internationalization of the storefront postponed everything else.";
        let doc = Document::analyze(draft, Format::Plain, corpus.params(), 1 << 20).unwrap();
        let found = corpus.candidates(&doc, &CheckOptions::default());
        let ids: Vec<&str> = found
            .iter()
            .map(|c| corpus.entries[c.id as usize].info().id.as_str())
            .collect();
        assert_eq!(ids, ["source"], "{found:?}");
        let report = corpus.check_document(&doc, &CheckOptions::default());
        assert_eq!(report.sources.len(), 1);
        assert!(report.uniqueness < 20.0, "{}", report.uniqueness);
    }

    const REWRITE_SOURCE: &str = include_str!("../../tests/data/rewrite-source.txt");
    const REWRITE_DRAFT: &str = include_str!("../../tests/data/rewrite-draft.txt");

    #[test]
    fn a_rewritten_text_finds_its_source_by_its_sentence_keys_alone() {
        let params = Params::default();
        let analyze = |t: &str| Document::analyze(t, Format::Plain, &params, 1 << 20).unwrap();
        let (draft, source) = (analyze(REWRITE_DRAFT), analyze(REWRITE_SOURCE));
        // Synonyms, reordered words and shuffled sentences: the draft shares no fingerprint with
        // the source, so only the sentence keys can find it.
        let keys = |doc: &Document| {
            let words =
                Words::from_hashes(&doc.hashes, params.n).with_sentences(doc.sentences.clone());
            Keys::of(&words, &params)
        };
        let source_keys = keys(&source).fingerprints;
        let shared = keys(&draft)
            .fingerprints
            .iter()
            .filter(|k| source_keys.binary_search(k).is_ok())
            .count();
        assert_eq!(shared, 0);
        for as_record in [false, true] {
            let mut corpus = Corpus::new(params).unwrap();
            for (id, text) in [("other", SOURCE), ("source", REWRITE_SOURCE)] {
                let info = SourceInfo {
                    id: id.into(),
                    ..Default::default()
                };
                let doc = analyze(text);
                if as_record {
                    corpus.add_record(info, &doc);
                } else {
                    corpus.add_document(info, doc);
                }
            }
            let report = corpus.check_document(&draft, &CheckOptions::default());
            let ids: Vec<&str> = report.sources.iter().map(|s| s.info.id.as_str()).collect();
            assert_eq!(ids, ["source"], "{report:?}");
            assert!(!report.rewrites.is_empty());
            // Hardly a copy, and all of it rewritten.
            assert!(report.uniqueness > 90.0, "{}", report.uniqueness);
            assert!(report.originality < 10.0, "{}", report.originality);
        }
    }
}
