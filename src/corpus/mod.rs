//! Index stage, in memory: a set of analysed source documents and the inverted indexes that find
//! a draft's candidates without comparing it with every document.
//!
//! Three indexes answer "which documents could this draft match": the exact-duplicate hash, the
//! fingerprint keys (winnowed shingles; every draft shingle is looked up, so any shared run of
//! `w + n - 1` words is found), and, for short drafts, the longest-words hashes. Only the best
//! [`CheckOptions::max_candidates`] candidates by shared keys are aligned in full.
//! Documents are added as text (kept in full: fragments get spans on both sides) or from packs
//! (fingerprints and sketches only: fragments get draft spans).
//!
//! Cost of a check: O(h log h) to rank the h hits (draft shingles × documents sharing each key),
//! plus one alignment per candidate: it grows with what the draft shares, not with the corpus.
//! Memory: the documents' sketches and fingerprints plus about 8 bytes per distinct key (see
//! `crate::postings`): 100,000 newsgroup posts (7.1 million fingerprints) take about 280 MB in all.

use crate::document::Document;
use crate::pack::{Pack, PackError, PackedDocument};
use crate::pair::{check_sources, is_short, Source};
use crate::postings::Postings;
use crate::report::{Report, SourceInfo};
use crate::shingle::key32;
use crate::short::MAX_LONG_WORD_DOCS;
use crate::{CheckOptions, Error, Format, Params};

#[derive(Debug, Clone)]
struct Entry {
    packed: PackedDocument,
    /// The analysed text, when the document was added as text.
    full: Option<Document>,
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
        let packed = PackedDocument::from_document(info, &doc);
        self.insert(Entry {
            packed,
            full: Some(doc),
        })
    }

    /// Adds a document known only by its sketches (from a pack built with the same parameters).
    pub fn add_packed(&mut self, packed: PackedDocument) -> usize {
        self.insert(Entry { packed, full: None })
    }

    /// Adds every document of a decoded pack, after checking that it was built with this corpus's
    /// parameters and canonicalizer; returns how many were added.
    pub fn add_pack(&mut self, pack: Pack) -> Result<usize, PackError> {
        pack.check_compatible(&self.params)?;
        let n = pack.documents.len();
        for d in pack.documents {
            self.add_packed(d);
        }
        Ok(n)
    }

    fn insert(&mut self, entry: Entry) -> usize {
        let id = self.entries.len() as u32;
        let p = &entry.packed;
        for f in &p.fingerprints {
            self.by_key.push(f.key, id);
        }
        self.by_exact.push(p.exact, id);
        for &h in &p.short.hashes {
            self.by_long.push(h, id);
        }
        self.entries.push(entry);
        id as usize
    }

    /// The documents' sketches, in the order they were added.
    pub fn documents(&self) -> impl Iterator<Item = &PackedDocument> {
        self.entries.iter().map(|e| &e.packed)
    }

    /// Checks a draft against the corpus.
    ///
    /// Errors: [`Error::InvalidOption`], and those of [`Document::analyze`] (empty, too large, binary).
    pub fn check(&self, draft: &str, format: Format, opts: &CheckOptions) -> Result<Report, Error> {
        opts.validate()?;
        let doc = Document::analyze(draft, format, &self.params, opts.max_text_bytes)?;
        Ok(self.check_document(&doc, opts))
    }

    /// The candidates for `draft`, best first: (document index, shared keys).
    pub fn candidates(&self, draft: &Document, opts: &CheckOptions) -> Vec<(usize, usize)> {
        // Every hit is one document id; sorting the ids and counting runs beats a hash map of
        // scores for the few hundred to few thousand hits of a draft (45 → 32 µs per query at
        // 100,000 documents, with the compact postings; benches/peers).
        let mut hits: Vec<u32> = Vec::new();
        let mut keys: Vec<u32> = draft.shingles.iter().map(|s| key32(s.hash)).collect();
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            hits.extend_from_slice(self.by_key.get(&k));
        }
        if is_short(draft, opts) {
            for h in &draft.short.hashes {
                let docs = self.by_long.get(h);
                if docs.len() <= MAX_LONG_WORD_DOCS {
                    hits.extend_from_slice(docs);
                }
            }
        }
        hits.sort_unstable();
        let mut ranked: Vec<(usize, usize)> = hits
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0] as usize, run.len()))
            .collect();
        // An exact duplicate outranks everything.
        for &d in self.by_exact.get(&draft.exact) {
            match ranked.binary_search_by_key(&(d as usize), |c| c.0) {
                Ok(i) => ranked[i].1 += usize::MAX / 4,
                Err(i) => ranked.insert(i, (d as usize, usize::MAX / 4)),
            }
        }
        ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(opts.max_candidates);
        ranked
    }

    /// Checks an analysed draft (analysed with [`Corpus::params`]).
    pub fn check_document(&self, draft: &Document, opts: &CheckOptions) -> Report {
        let sources = self.candidates(draft, opts).into_iter().map(|(d, _)| {
            let e = &self.entries[d];
            match &e.full {
                Some(doc) => Source::Full(&e.packed.info, doc),
                None => Source::Packed(&e.packed),
            }
        });
        check_sources(draft, sources, &self.params, opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            .map(|&(d, _)| corpus.entries[d].packed.info.id.as_str())
            .collect();
        assert_eq!(ids, ["source"], "{found:?}");
        let report = corpus.check_document(&doc, &CheckOptions::default());
        assert_eq!(report.sources.len(), 1);
        assert!(report.uniqueness < 20.0, "{}", report.uniqueness);
    }
}
