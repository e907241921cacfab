//! Index stage: what any index of published documents answers, and the one engine function that
//! ranks a draft's candidates and checks the draft against them.
//!
//! An [`Index`] is a backend: the in-memory [`crate::Corpus`], the CLI's SQLite store, the
//! browser's packs. It answers five questions, each by lookups in an inverted index, never by
//! reading every document: which documents hold these fingerprint keys, which hold these
//! sentence keys, which hold these longest words, which have this exact canonical text, and what
//! a candidate's stored record is. Ranking
//! ([`candidates`]) and checking ([`check_document`], [`check`]) are written once, here, so every
//! backend gives the same answer for the same documents.
//!
//! Guarantees of [`candidates`]:
//! - **Any long enough copy is a candidate.** The draft's keys ([`Index::draft_keys`]) are looked
//!   up; content-defined anchoring (winnowing) on both sides means a source sharing a run of
//!   `w + n - 1` content words with the draft (the index's own window `w`) holds one of them.
//! - **A rewritten text finds its source too.** Synonyms and reordered words or sentences leave
//!   few shared runs; the draft's [`sentence_keys`] (a bottom-2 MinHash of each sentence's word
//!   set, the same rule on both sides) are looked up as well, and a document sharing
//!   [`MIN_SENTENCE_HITS`] of them, or one that no other document holds, is a candidate (a key
//!   held by more than [`MAX_SENTENCE_KEY_DOCS`] documents is a stock sentence and counts for
//!   nothing). Measured in docs/EVALUATION.md ("Retrieval of
//!   rewrites"): through one index, the share of rewritten drafts whose source is found rose
//!   from 82.7 % to 96.3 %, with shuffled words from 4.7 % to 94.0 %.
//! - **Ranking**: an exact duplicate first, then by the number of the draft's distinct keys a
//!   document holds (plus its shared sentence keys, and for a short draft its shared longest
//!   words), ties to the smaller id
//!   (the older document). A key or longest word held by more than [`MAX_KEY_DOCS`] documents
//!   is too common to tell sources apart: it ranks nothing (reading its postings would be most
//!   of a lookup).
//! - **No hidden cap.** Every candidate is aligned, up to [`CheckOptions::max_candidates`]; when
//!   more were found, the report says so and how many were left out ([`Report::capped`],
//!   [`Report::unchecked`]). Those aligned are then chosen to cover the draft: every draft key
//!   that any candidate holds is held by one of them when the bound allows, and the rest go by
//!   rank ([`checked_candidates`]), so that many near-copies of one source never crowd out the
//!   source of another passage.
//!
//! Cost: one lookup per distinct draft key plus O(h log h) to rank the h documents hit; one
//! alignment per candidate. It grows with what the draft shares, not with the corpus.

use crate::align::rewrite::sentences;
use crate::document::Document;
use crate::hash::fmix32;
use crate::pack::Record;
use crate::pair::{find_owned_record, find_source, Draft, Source};
use crate::report::{Finding, Method, Report};
use crate::shingle::key32;
use crate::{CheckOptions, Error, Format, Params};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// Sentence keys ([`sentence_keys`], every document's by the same rule) → documents.
    Sentences,
}

// The constants of sentence keys were chosen on the Russian rewrite benchmark's drafts checked
// through one index and on 20 Newsgroups (docs/EVALUATION.md, "Retrieval of rewrites").

/// A sentence with fewer distinct content words has no sentence key: two words of a short
/// sentence are a stock pair, not evidence of a source. 3, 4 and 5 find the same sources
/// within a point.
pub const MIN_KEY_SENTENCE_WORDS: usize = 4;

/// Only the sentence keys divisible by this are kept, on both sides alike: a content-defined
/// sample that halves what an index holds (about 10 keys for a 190-word post, 29 for 550
/// content words) and what a draft looks up, so that packs of a million documents stay near
/// issue 14's megabyte a check. 1 finds 98.7 % of the shuffled-word drafts' sources, 2 94.0 %,
/// 4 74.4 %.
pub const SENTENCE_KEY_SAMPLE: u32 = 2;

/// A sentence key held by more documents than this is a stock sentence (a header line, a
/// greeting, a formula) and finds no candidate: at [`MAX_KEY_DOCS`] checks of newsgroup posts
/// aligned about twice as many candidates (61 s instead of 28 s for 1,883 posts) for the same
/// findings within 0.2 %.
pub const MAX_SENTENCE_KEY_DOCS: usize = 32;

/// A document that shares no fingerprint key with the draft is a candidate when it shares at
/// least this many of its sentence keys, or one that no other document holds (a pair of words
/// in one sentence of this document only). Any single shared key would find the same sources
/// of the rewrite benchmark (with only 2 shared keys: 80.3 % of the synonym drafts' sources
/// instead of 84.6 %, 79.9 % of the shuffled-word ones instead of 94.0 %), but each candidate is
/// one more record a browser fetches: 196 KB a check of 20 Newsgroups drafts instead of 113 KB.
pub const MIN_SENTENCE_HITS: usize = 2;

/// The sentence keys of a text, from its content words folded to 16 bits as a record keeps them
/// ([`Words::hashes`], [`crate::pack::Record::words`]) and its sentence starts, sorted and
/// distinct: per sentence ([`crate::align::rewrite`]'s sentences, short ones joined to the next)
/// with at least [`MIN_KEY_SENTENCE_WORDS`] distinct words, the two of them whose hashes are
/// smallest under a fixed permutation, as one 32-bit key (a bottom-2 MinHash of the sentence's
/// word set), kept when divisible by [`SENTENCE_KEY_SAMPLE`]. Order-free, so a sentence whose
/// words were shuffled or which moved keeps its key; one with words swapped for synonyms keeps
/// it with probability about J² (J the Jaccard similarity of the two word sets). Every index
/// and every draft use this one rule.
///
/// # Example
/// ```
/// use uniqcheck::index::sentence_keys;
/// // Two sentences of six content words (folded hashes); then each one's words shuffled and
/// // the two sentences swapped.
/// let text: Vec<u16> = vec![11, 12, 13, 14, 15, 16, 21, 22, 23, 24, 25, 26];
/// let rewritten: Vec<u16> = vec![26, 21, 24, 22, 25, 23, 13, 16, 11, 15, 12, 14];
/// let keys = sentence_keys(&text, &[0, 6]);
/// assert!(!keys.is_empty());
/// assert_eq!(sentence_keys(&rewritten, &[0, 6]), keys);
/// assert!(sentence_keys(&text[..3], &[0]).is_empty(), "too short a sentence");
/// ```
pub fn sentence_keys<W: Copy + Into<u32>>(words: &[W], starts: &[u32]) -> Vec<u32> {
    let mut keys = Vec::new();
    let mut set: Vec<u32> = Vec::new();
    for r in sentences(starts, words.len()) {
        set.clear();
        set.extend(words[r].iter().map(|&h| h.into()));
        set.sort_unstable();
        set.dedup();
        if set.len() < MIN_KEY_SENTENCE_WORDS {
            continue;
        }
        // The permutation: fmix32 is a bijection, so distinct words stay distinct.
        let (mut first, mut second) = ((u32::MAX, 0), (u32::MAX, 0));
        for &h in &set {
            let p = fmix32(h);
            if p < first.0 {
                second = first;
                first = (p, h);
            } else if p < second.0 {
                second = (p, h);
            }
        }
        // Folded hashes have 16 bits: the pair is the key, and fmix32 spreads it.
        let key = fmix32(first.1 << 16 ^ second.1);
        if key % SENTENCE_KEY_SAMPLE == 0 {
            keys.push(key);
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys
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

    /// [`Index::postings`] of [`List::Sentences`].
    fn sentence_postings(
        &self,
        keys: &[u32],
        limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<(), Self::Error> {
        self.postings(List::Sentences, keys, limit, visit)
    }

    /// Appends the documents whose canonical content hashes to `exact`
    /// ([`Document::exact`](crate::Document)).
    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<(), Self::Error>;

    /// Calls `visit` with the stored record of each of `ids`, in the order given; an id the index
    /// does not hold (deleted meanwhile) is passed over.
    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<(), Self::Error>;

    /// [`Index::records`], handed over in slices: `visit` is called with consecutive runs of the
    /// records of `ids`, in the order given (an id the index does not hold is passed over), so
    /// that [`check_document`] can align a run's records on several threads. An index that holds
    /// its records in memory (or has decoded them all) hands them over in one slice; by default
    /// one at a time through [`Index::records`], which a backend need not change (its records are
    /// then aligned one after another, on the calling thread).
    fn records_all(
        &self,
        ids: &[DocId],
        visit: &mut dyn FnMut(&[Source<'_>]),
    ) -> Result<(), Self::Error> {
        self.records(ids, &mut |source| visit(&[source]))
    }

    /// The records of `ids` decoded for this check and handed over, in consecutive batches in
    /// the order given (at most one record an id; an id the index does not hold is passed
    /// over), so that [`check_document`] aligns a batch on other threads while the index reads
    /// the next. An index that reads and decodes its records per check (a database) overrides
    /// it; one whose records are in memory need not. Returns `Ok(false)` without calling `visit` when the index
    /// does not hand records over this way (the default): [`check_document`] then asks
    /// [`Index::records_all`].
    fn records_decoded(
        &self,
        ids: &[DocId],
        visit: &mut dyn FnMut(Vec<Record>),
    ) -> Result<bool, Self::Error> {
        let _ = (ids, visit);
        Ok(false)
    }
}

/// Every candidate for `draft` (prepared with the index's parameters), best first; see the
/// module documentation for the ranking and its guarantee. Not capped: [`check_document`] applies
/// [`CheckOptions::max_candidates`].
pub fn candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    opts: &CheckOptions,
) -> Result<Vec<Candidate>, I::Error> {
    Ok(ranked_candidates(index, draft, opts, usize::MAX)?.0)
}

/// Candidates best first, and the (document, draft key) pairs behind their scores, unsorted.
type Ranked = (Vec<Candidate>, Vec<(DocId, u32)>);

/// [`candidates`], and, when more than `max` of them may have been found, every (document, draft
/// key) pair behind their scores (otherwise none): a key is numbered across the lists looked up
/// (anchors, then longest words, then sentence keys), and only keys that rank documents count.
/// One pass of lookups either way.
fn ranked_candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    opts: &CheckOptions,
    max: usize,
) -> Result<Ranked, I::Error> {
    let mut hits: Vec<DocId> = Vec::new();
    // (key number, end in `hits`) of each key whose documents are in `hits`.
    let mut ends: Vec<(u32, usize)> = Vec::new();
    let mut slot = 0u32;
    let mut collect = |_: u32, docs: &[DocId]| {
        if docs.len() <= MAX_KEY_DOCS {
            hits.extend_from_slice(docs);
            ends.push((slot, hits.len()));
        }
        slot += 1;
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
    // (document, whether no other document holds the key, the key's number)
    let mut by_sentence: Vec<(DocId, bool, u32)> = Vec::new();
    index.postings(
        List::Sentences,
        &sentence_keys(&draft.words.hashes, &draft.words.sentences),
        MAX_SENTENCE_KEY_DOCS,
        &mut |_, docs: &[DocId]| {
            if docs.len() <= MAX_SENTENCE_KEY_DOCS {
                by_sentence.extend(docs.iter().map(|&d| (d, docs.len() == 1, slot)));
            }
            slot += 1;
        },
    )?;
    let mut exact = Vec::new();
    index.exact_documents(draft.doc.exact, &mut exact)?;
    // Every candidate is in `hits`, `by_sentence` or `exact`: fewer entries than `max`, no cap.
    let keys = hits.len() + by_sentence.len() + exact.len() > max;
    let mut pairs: Vec<(DocId, u32)> = Vec::new();
    if keys {
        let mut from = 0;
        for &(slot, end) in &ends {
            pairs.extend(hits[from..end].iter().map(|&d| (d, slot)));
            from = end;
        }
    }
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
    by_sentence.sort_unstable();
    let mut found_by_sentences = Vec::new();
    for run in by_sentence.chunk_by(|a, b| a.0 == b.0) {
        let (id, score) = (run[0].0, run.len() as u64);
        let unique = run.iter().any(|&(_, unique, _)| unique);
        let counts = match ranked.binary_search_by_key(&id, |c| c.id) {
            Ok(i) => {
                ranked[i].score += score;
                true
            }
            Err(_) if unique || run.len() >= MIN_SENTENCE_HITS => {
                found_by_sentences.push(Candidate { id, score });
                true
            }
            Err(_) => false,
        };
        if keys && counts {
            pairs.extend(run.iter().map(|&(d, _, k)| (d, k)));
        }
    }
    if !found_by_sentences.is_empty() {
        ranked.extend(found_by_sentences);
        ranked.sort_unstable_by_key(|c| c.id);
    }
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
    Ok((ranked, pairs))
}

/// The candidates [`check_document`] aligns, best first, and how many more were found and left
/// out: every candidate when there are at most [`CheckOptions::max_candidates`]; otherwise that
/// many, chosen to cover the draft ([`cover`]).
pub fn checked_candidates<I: Index + ?Sized>(
    index: &I,
    draft: &Draft<'_>,
    opts: &CheckOptions,
) -> Result<(Vec<DocId>, usize), I::Error> {
    let max = opts.max_candidates;
    // The keys behind each score come with the ranking when it may be capped: one pass of
    // lookups (a store's are most of a check's time in SQLite), and none collected otherwise.
    let (ranked, mut pairs) = ranked_candidates(index, draft, opts, max)?;
    if ranked.len() <= max {
        return Ok((ranked.into_iter().map(|c| c.id).collect(), 0));
    }
    pairs.sort_unstable();
    pairs.dedup();
    let left_out = ranked.len() - max;
    Ok((cover(&ranked, &pairs, max), left_out))
}

/// `max` of `ranked` (best first; `pairs`: the sorted (document, draft key) pairs behind their
/// scores), in rank order: exact duplicates first, then greedily the candidate holding the most
/// draft keys that no chosen one holds (ties to the better rank), until every key held by a
/// candidate is held by a chosen one; then the best ranked of the rest. When near-copies of one
/// source crowd the ranking (a draft quoting a post copied 87 times), the sources of the draft's
/// other passages are chosen all the same, where the best `max` by score would leave them out.
fn cover(ranked: &[Candidate], pairs: &[(DocId, u32)], max: usize) -> Vec<DocId> {
    let keys_of = |id: DocId| {
        let from = pairs.partition_point(|&(d, _)| d < id);
        let to = from + pairs[from..].partition_point(|&(d, _)| d == id);
        pairs[from..to].iter().map(|&(_, k)| k as usize)
    };
    let slots = pairs
        .iter()
        .map(|&(_, k)| k as usize + 1)
        .max()
        .unwrap_or(0);
    let mut covered = vec![false; slots];
    let mut chosen = vec![false; ranked.len()];
    let mut count = 0;
    let choose = |rank: usize, chosen: &mut [bool], covered: &mut [bool], count: &mut usize| {
        chosen[rank] = true;
        for k in keys_of(ranked[rank].id) {
            covered[k] = true;
        }
        *count += 1;
    };
    for (rank, c) in ranked.iter().enumerate().take(max) {
        if c.score >= EXACT_SCORE {
            choose(rank, &mut chosen, &mut covered, &mut count);
        }
    }
    // Lazy greedy: a popped candidate whose count of new keys shrank since it was pushed goes
    // back with the smaller count (counts only shrink, so the top is then the best).
    let mut heap: BinaryHeap<(usize, Reverse<usize>)> = (0..ranked.len())
        .filter(|&rank| !chosen[rank])
        .map(|rank| (keys_of(ranked[rank].id).count(), Reverse(rank)))
        .collect();
    while let Some((gain, Reverse(rank))) = heap.pop() {
        if count >= max || gain == 0 {
            break;
        }
        let now = keys_of(ranked[rank].id).filter(|&k| !covered[k]).count();
        if now < gain {
            heap.push((now, Reverse(rank)));
        } else {
            choose(rank, &mut chosen, &mut covered, &mut count);
        }
    }
    let mut rest = max.saturating_sub(count);
    for c in chosen.iter_mut().filter(|c| !**c) {
        if rest == 0 {
            break;
        }
        *c = true;
        rest -= 1;
    }
    ranked
        .iter()
        .zip(&chosen)
        .filter(|&(_, &c)| c)
        .map(|(c, _)| c.id)
        .collect()
}

/// Checks an analysed draft (analysed with [`Index::params`]) against the index: its
/// [`candidates`], each aligned against its stored record, then the report.
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
    let draft = Draft::new(draft, params);
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
                    .filter(|s| !opts.exclude.excludes_source(s))
                    .copied()
                    .collect();
                excluded.sources += sources.len() - kept.len();
                find_all(&draft, &kept, params, opts, threads, &mut findings);
            })?;
            findings
        }
    };
    excluded.quoted_words = crate::exclude::cut_quotations(draft.doc, &mut findings, opts.gap);
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
    (!opts.exclude.excludes(&record.info)).then(|| find_owned_record(draft, record, params, opts))
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
    crate::exclude::mark_quotations(&mut doc, text, format, &opts.exclude);
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
    use super::{check_document_on, DocId, Index, List, Threads};
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
