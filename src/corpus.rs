//! Index stage, in memory: a set of analysed source documents and the inverted indexes that find
//! a draft's candidates without comparing it with every document.
//!
//! Three indexes answer "which documents could this draft match": the exact-duplicate hash, the
//! fingerprint keys (winnowed shingles; every draft shingle is looked up, so any shared run of
//! `w + n - 1` words is found), and, for short drafts, the longest-words hashes. Only the best
//! [`CheckOptions::max_candidates`] candidates by shared keys are aligned in full.
//! Cost of a check: O(draft shingles × documents sharing each key) to rank, plus one alignment
//! per candidate: it grows with what the draft shares, not with the corpus.

use crate::document::Document;
use crate::hash::PrehashedMap;
use crate::pair::{find, is_short};
use crate::report::{Method, Report, SourceInfo};
use crate::shingle::key32;
use crate::{CheckOptions, Error, Format, Params};

#[derive(Debug, Clone)]
struct Entry {
    info: SourceInfo,
    doc: Document,
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
    by_key: PrehashedMap<u32, Vec<u32>>,
    by_exact: PrehashedMap<u64, Vec<u32>>,
    by_long: PrehashedMap<u32, Vec<u32>>,
}

fn push_once(list: &mut Vec<u32>, doc: u32) {
    if list.last() != Some(&doc) {
        list.push(doc);
    }
}

impl Corpus {
    /// An empty corpus whose documents will be analysed with `params`.
    pub fn new(params: Params) -> Result<Corpus, Error> {
        params.validate()?;
        Ok(Corpus {
            params,
            entries: Vec::new(),
            by_key: PrehashedMap::default(),
            by_exact: PrehashedMap::default(),
            by_long: PrehashedMap::default(),
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
        let id = self.entries.len() as u32;
        for f in &doc.fingerprints {
            push_once(self.by_key.entry(f.key).or_default(), id);
        }
        push_once(self.by_exact.entry(doc.exact).or_default(), id);
        for &h in &doc.short.hashes {
            push_once(self.by_long.entry(h).or_default(), id);
        }
        self.entries.push(Entry { info, doc });
        id as usize
    }

    /// Checks a draft against the corpus.
    ///
    /// Errors: those of [`Document::analyze`] (empty, too large, binary).
    pub fn check(&self, draft: &str, format: Format, opts: &CheckOptions) -> Result<Report, Error> {
        let doc = Document::analyze(draft, format, &self.params, opts.max_text_bytes)?;
        Ok(self.check_document(&doc, opts))
    }

    /// The candidates for `draft`, best first: (document index, shared keys).
    pub fn candidates(&self, draft: &Document, opts: &CheckOptions) -> Vec<(usize, usize)> {
        let mut score: PrehashedMap<u32, usize> = PrehashedMap::default();
        // An exact duplicate outranks everything.
        for &d in self.by_exact.get(&draft.exact).into_iter().flatten() {
            *score.entry(d).or_default() += usize::MAX / 4;
        }
        let mut keys: Vec<u32> = draft.shingles.iter().map(|s| key32(s.hash)).collect();
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            for &d in self.by_key.get(&k).into_iter().flatten() {
                *score.entry(d).or_default() += 1;
            }
        }
        if is_short(draft, opts) {
            for h in &draft.short.hashes {
                for &d in self.by_long.get(h).into_iter().flatten() {
                    *score.entry(d).or_default() += 1;
                }
            }
        }
        let mut ranked: Vec<(usize, usize)> =
            score.into_iter().map(|(d, s)| (d as usize, s)).collect();
        ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(opts.max_candidates);
        ranked
    }

    /// Checks an analysed draft (analysed with [`Corpus::params`]).
    pub fn check_document(&self, draft: &Document, opts: &CheckOptions) -> Report {
        let findings: Vec<_> = self
            .candidates(draft, opts)
            .into_iter()
            .map(|(d, _)| {
                let e = &self.entries[d];
                find(draft, &e.doc, e.info.clone(), &self.params, opts, false)
            })
            .collect();
        let method = if findings.iter().any(|f| f.exact) {
            Method::Exact
        } else if is_short(draft, opts) {
            Method::Short
        } else {
            Method::Shingles
        };
        Report::build(draft, findings, method)
    }
}
