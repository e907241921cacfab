//! Index stage: what any index of published documents answers, and the one engine function that
//! ranks a draft's candidates among them.
//!
//! An [`Index`] is a backend: the in-memory [`Corpus`] ([`corpus`]), the browser's packs
//! ([`PackIndex`], [`packs`]), the CLI's SQLite store (the `uniqcheck-store` crate). It answers
//! five questions, each by lookups in an inverted index, never by
//! reading every document: which documents hold these fingerprint keys, which hold these
//! sentence keys, which hold these longest words, which have this exact canonical text, and what
//! a candidate's stored record is. Ranking ([`candidates`]) is written once, here, and checking
//! once in [`crate::check`], so every backend gives the same answer for the same documents.
//!
//! Guarantees of [`candidates`]:
//! - **One rule for every backend.** A document's keys and the draft's are chosen by one rule
//!   ([`crate::keys`]): whatever a draft must share with a document to make it a candidate is the
//!   same in memory, in a store and in packs, so every backend finds the same candidates.
//! - **Any long enough copy is a candidate.** The draft's fingerprints are looked up; winnowing
//!   on both sides with the window `w` means a source sharing a run of `w + n - 1` content words
//!   with the draft holds one of them.
//! - **A copied sentence and a rewritten text find their source too.** A single sentence, synonyms
//!   and reordered words or sentences leave few shared runs; the draft's
//!   [`crate::sentences::sentence_keys`] (two word pairs of a bottom-5 MinHash of each sentence's
//!   word set, among the ten every document holds) are looked up as well, and a document sharing [`MIN_SENTENCE_HITS`] of them, or
//!   one that no other document holds, is a candidate, at most [`MAX_SENTENCE_CANDIDATES`] of
//!   them, the strongest (a key held by more than [`crate::sentences::MAX_SENTENCE_KEY_DOCS`]
//!   documents is a stock sentence and counts for nothing). Measured in docs/EVALUATION.md
//!   ("Retrieval of rewrites", "One rule for every index").
//! - **Ranking**: an exact duplicate first, then by the number of the draft's distinct keys a
//!   document holds (plus its shared sentence keys, and for a short draft its shared longest
//!   words), ties to the smaller id
//!   (the older document). A key or longest word held by more than [`MAX_KEY_DOCS`] documents
//!   is too common to tell sources apart: it ranks nothing (reading its postings would be most
//!   of a lookup).
//! - **No hidden cap.** Every candidate is aligned, up to [`CheckOptions::max_candidates`]; when
//!   more were found, the report says so and how many were left out ([`crate::Report::capped`],
//!   [`crate::Report::unchecked`]). Those aligned are then chosen to cover the draft: every draft key
//!   that any candidate holds is held by one of them when the bound allows, and the rest go by
//!   rank ([`checked_candidates`]), so that many near-copies of one source never crowd out the
//!   source of another passage.
//!
//! Cost: one lookup per distinct draft key plus O(h log h) to rank the h documents hit; one
//! alignment per candidate. It grows with what the draft shares, not with the corpus.

pub mod corpus;
pub mod packs;

pub use corpus::Corpus;
pub use packs::PackIndex;

use crate::keys::Keys;
use crate::pack::Record;
use crate::pair::{Draft, Source};
use crate::{CheckOptions, Params};
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
use crate::sentences::{Side, MAX_SENTENCE_KEY_DOCS};

/// Which inverted list of an index a lookup reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// Fingerprints (winnowed shingle keys, [`crate::anchor`]) → documents.
    Fingerprints,
    /// Longest-word hashes (short-text signatures) → documents.
    LongWords,
    /// Sentence keys ([`crate::sentences::sentence_keys`], every document's by the same rule) → documents.
    Sentences,
}

/// A document that shares no fingerprint key with the draft is a candidate when it shares at
/// least this many of its sentence keys, or one that no other document holds (a pair of words
/// in one sentence of this document only), up to [`MAX_SENTENCE_CANDIDATES`]. Chosen with one
/// key a sentence (2026-11-24): any single shared key found the same sources of the rewrite
/// benchmark, but each candidate is one more record a browser fetches (196 KB a check of 20
/// Newsgroups drafts instead of 113 KB). With three keys a sentence (2026-11-27), never letting
/// one key suffice found 94.6 % of the rewrite benchmark's sources instead of 97.7 %.
pub const MIN_SENTENCE_HITS: usize = 2;

/// A document is a candidate by translated sentence keys alone when they come from at least
/// this many sentences of the draft ([`crate::sentences::translated_keys_in_order`]). Chosen on
/// the tuning set (docs/EVALUATION.md, "Translated reuse").
pub const MIN_TRANSLATED_SENTENCES: usize = 2;

/// At most this many documents are candidates by sentence keys alone (those sharing no
/// fingerprint with the draft): the strongest, two keys of one draft sentence first, then by
/// shared keys. Word pairs are weak evidence one by one, and a long draft shares some with many
/// documents on its topic by chance: a PAN 2013 suspicious document (about 700 sentence keys)
/// had about 200 such candidates, so the browser's bound of 50 records
/// ([`crate::index::packs::PACK_MAX_CANDIDATES`]) and the store's 500 aligned different ones and
/// named different sources for 9 % of them. With 20, the packs and the store agree on 99.4 % of
/// PAN's suspicious documents (10: 99.8 %, 30: 98.9 %), and the rewrite benchmark's sources are
/// found as without a bound (97.7 %); 20 leaves room for the chance matches that multiply at
/// scale (docs/EVALUATION.md, "Parity of the paths").
pub const MAX_SENTENCE_CANDIDATES: usize = 20;

/// What an index of published documents answers. Implemented by every backend; the engine ranks
/// and checks through it ([`candidates`], [`crate::check::check`]).
///
/// Every document must have been analysed with [`Index::params`].
pub trait Index {
    /// Why a lookup failed (I/O, a damaged record, a file not fetched yet); an in-memory index
    /// never fails ([`std::convert::Infallible`]).
    type Error;

    /// The parameters every document was analysed with.
    fn params(&self) -> &Params;

    /// The bilingual table that comes with the index (packs written with one): a check seeks
    /// translations with it when its options give none ([`CheckOptions::bilingual`]).
    fn bilingual(&self) -> Option<&crate::bilingual::Bilingual> {
        None
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
    /// that [`crate::check::check_document`] can align a run's records on several threads. An index that holds
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
    /// over), so that [`crate::check::check_document`] aligns a batch on other threads while the index reads
    /// the next. An index that reads and decodes its records per check (a database) overrides
    /// it; one whose records are in memory need not. Returns `Ok(false)` without calling `visit` when the index
    /// does not hand records over this way (the default): [`crate::check::check_document`] then asks
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
/// module documentation for the ranking and its guarantee. Not capped: [`crate::check::check_document`] applies
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
    // The draft's keys by the rule every index holds its documents' by.
    let (keys, sentence_numbers) =
        Keys::with_sentence_numbers(&draft.words, index.params(), Side::Draft);
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
        List::Fingerprints,
        &keys.fingerprints,
        MAX_KEY_DOCS,
        &mut collect,
    )?;
    if draft.doc.is_short(opts) {
        let mut words = draft.doc.short.hashes.clone();
        words.sort_unstable();
        words.dedup();
        index.postings(List::LongWords, &words, MAX_KEY_DOCS, &mut collect)?;
    }
    // (document, the key's draft sentence, whether no other document holds the key, the key's
    // number)
    let mut by_sentence: Vec<(DocId, u32, bool, u32)> = Vec::new();
    index.postings(
        List::Sentences,
        &keys.sentences,
        MAX_SENTENCE_KEY_DOCS,
        &mut |key, docs: &[DocId]| {
            if docs.len() <= MAX_SENTENCE_KEY_DOCS {
                // The key's draft sentence (the first, for a key of several).
                let sentence = keys
                    .sentences
                    .binary_search(&key)
                    .map_or(u32::MAX, |i| sentence_numbers[i]);
                by_sentence.extend(docs.iter().map(|&d| (d, sentence, docs.len() == 1, slot)));
            }
            slot += 1;
        },
    )?;
    // (document, the key's draft sentence, the key's number) of the keys a source in the other
    // language may hold (a draft sought as a translation, [`CheckOptions::bilingual`]).
    let mut by_translation: Vec<(DocId, u32, u32)> = Vec::new();
    if let Some((translated, numbers)) = draft.translated_lookups() {
        index.postings(
            List::Sentences,
            &translated,
            MAX_SENTENCE_KEY_DOCS,
            &mut |key, docs: &[DocId]| {
                if docs.len() <= MAX_SENTENCE_KEY_DOCS {
                    let sentence = translated
                        .binary_search(&key)
                        .map_or(u32::MAX, |i| numbers[i]);
                    by_translation.extend(docs.iter().map(|&d| (d, sentence, slot)));
                }
                slot += 1;
            },
        )?;
    }
    let mut exact = Vec::new();
    index.exact_documents(draft.doc.exact, &mut exact)?;
    // Every candidate is in `hits`, `by_sentence`, `by_translation` or `exact`: fewer entries
    // than `max`, no cap.
    let collect_pairs = hits.len() + by_sentence.len() + by_translation.len() + exact.len() > max;
    let mut pairs: Vec<(DocId, u32)> = Vec::new();
    if collect_pairs {
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
    // (strength, the document's entries in `by_sentence`) of each document found by sentence
    // keys alone: strength orders them for the bound below.
    let mut found: Vec<((bool, u64), std::ops::Range<usize>)> = Vec::new();
    let mut from = 0;
    for run in by_sentence.chunk_by(|a, b| a.0 == b.0) {
        let entries = from..from + run.len();
        from = entries.end;
        let (id, score) = (run[0].0, run.len() as u64);
        let unique = run.iter().any(|&(_, _, unique, _)| unique);
        // Sorted by draft sentence within the document: fewer sentences than keys means two
        // keys of one sentence, its words in the document's sentence too.
        let strong = run.chunk_by(|a, b| a.1 == b.1).count() < run.len();
        match ranked.binary_search_by_key(&id, |c| c.id) {
            Ok(i) => {
                ranked[i].score += score;
                if collect_pairs {
                    pairs.extend(run.iter().map(|&(d, _, _, k)| (d, k)));
                }
            }
            Err(_) if unique || run.len() >= MIN_SENTENCE_HITS => {
                found.push(((strong, score), entries));
            }
            Err(_) => {}
        }
    }
    if found.len() > MAX_SENTENCE_CANDIDATES {
        // The strongest: two keys of one sentence first, then the most keys, ties to the
        // smaller id. A sort by strength alone, then by id, so every backend keeps the same.
        found.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then(by_sentence[a.1.start].0.cmp(&by_sentence[b.1.start].0))
        });
        found.truncate(MAX_SENTENCE_CANDIDATES);
    }
    let mut found_by_sentences = Vec::with_capacity(found.len());
    for ((_, score), entries) in found {
        let run = &by_sentence[entries];
        found_by_sentences.push(Candidate {
            id: run[0].0,
            score,
        });
        if collect_pairs {
            pairs.extend(run.iter().map(|&(d, _, _, k)| (d, k)));
        }
    }
    if !found_by_sentences.is_empty() {
        ranked.extend(found_by_sentences);
        ranked.sort_unstable_by_key(|c| c.id);
    }
    // A translation follows its source sentence by sentence: a document counts when keys of at
    // least [`MIN_TRANSLATED_SENTENCES`] draft sentences find it (one sentence's pair of
    // translated words is a stock pair of the topic as often as not).
    by_translation.sort_unstable();
    let mut translated = Vec::new();
    for run in by_translation.chunk_by(|a, b| a.0 == b.0) {
        let sentences = run.chunk_by(|a, b| a.1 == b.1).count();
        if sentences < MIN_TRANSLATED_SENTENCES {
            continue;
        }
        if collect_pairs {
            pairs.extend(run.iter().map(|&(d, _, k)| (d, k)));
        }
        match ranked.binary_search_by_key(&run[0].0, |c| c.id) {
            Ok(i) => ranked[i].score += sentences as u64,
            Err(_) => translated.push(Candidate {
                id: run[0].0,
                score: sentences as u64,
            }),
        }
    }
    if translated.len() > MAX_SENTENCE_CANDIDATES {
        // As for sentence keys alone: the strongest (keys of the most draft sentences), ties to
        // the smaller id, so that every backend keeps the same and a long draft on a common
        // topic does not make hundreds of chance candidates at scale.
        translated.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
        translated.truncate(MAX_SENTENCE_CANDIDATES);
    }
    if !translated.is_empty() {
        ranked.extend(translated);
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

/// The candidates [`crate::check::check_document`] aligns, best first, and how many more were found and left
/// out: every candidate when there are at most [`CheckOptions::max_candidates`]; otherwise that
/// many, chosen to cover the draft (exact duplicates first, then greedily the candidate holding the
/// most draft keys that no chosen one holds, then by rank).
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
