//! Every near-duplicate group in a store, without comparing all pairs (`uniqcheck dedup`).
//!
//! 1. **Candidates.** Each document is looked up in the store's own indexes exactly as a check of
//!    its text would be ([`uniqcheck::index::candidates`]'s lookups and ranking, composed from the
//!    public [`Index`] API): its winnowed fingerprint keys (read back from the store), its sentence
//!    keys, its longest words when it is short, its exact-duplicate hash; keys held by more than
//!    [`MAX_KEY_DOCS`] other documents (sentence keys: [`MAX_SENTENCE_KEY_DOCS`]) are passed
//!    over, as for a draft that is not in the store. The best `max_candidates` by shared keys are
//!    kept. So the work grows with the documents times their candidates, never with all pairs.
//! 2. **Edges.** Each candidate pair is scored by the chosen near-duplicate method on the stored
//!    records ([`uniqcheck::methods`], folded word hashes; `char-cosine` needs the text, which a
//!    store does not keep); pairs at or above the method's threshold are edges.
//! 3. **Groups: centre-based, complete-link.** Documents are taken in order of most edges first
//!    (ties: the lower id); each one not yet grouped becomes a centre, and its ungrouped
//!    neighbours join it, most similar first, each only if it has an edge to EVERY member already
//!    in the group. So every two members of a group are near-duplicates of each other: a chain
//!    A~B~C~D (each like the next, A unlike D) is never one group, which is how single-link
//!    clustering grows until everything is "similar" at a loose threshold. A pair never proposed
//!    as candidates counts as no edge (a group may split, never chain).
//! 4. **Keep.** In each group the suggested document to keep is the longest (most content words:
//!    the most complete version), ties going to the lowest id (indexed first: the original).

use crate::backend::Backend;
use crate::{StoreError, StoreOf};
use serde::Serialize;
use std::collections::HashMap;
use uniqcheck::index::{DocId, List, EXACT_SCORE, MAX_KEY_DOCS, MIN_SENTENCE_HITS};
use uniqcheck::methods::{AnyMethod, Signature, Text};
use uniqcheck::sentences::{sentence_keys, Side, MAX_SENTENCE_KEY_DOCS};
use uniqcheck::{CheckOptions, Index};

/// Why [`dedup`] failed.
#[derive(Debug, thiserror::Error)]
pub enum DedupError {
    /// The method reads characters, which a store does not keep.
    #[error("the {0} method reads the text's characters, and a store keeps only word hashes: choose another method")]
    NeedsText(&'static str),
    /// A store lookup failed (SQLite, a damaged record).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for DedupError {
    fn from(e: rusqlite::Error) -> Self {
        DedupError::Store(e.into())
    }
}

/// One document of a group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member {
    /// Store id.
    pub id: i64,
    /// URL (or path).
    pub url: String,
    /// Title.
    pub title: String,
    /// Canonical content words.
    pub words: usize,
    /// The method's similarity to the group's centre (1 for the centre).
    pub similarity: f64,
}

/// A near-duplicate group: every two members are near-duplicates by the method.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The centre's id (the group's first member).
    pub centre: i64,
    /// The suggested document to keep: the longest, ties to the lowest id.
    pub keep: i64,
    /// The members, centre first, then by similarity to it.
    pub members: Vec<Member>,
}

/// What [`dedup`] found.
#[derive(Debug, Clone, Serialize)]
pub struct Dedup {
    /// Documents in the store.
    pub documents: usize,
    /// Distinct candidate pairs scored by the method.
    pub candidate_pairs: usize,
    /// Of those, pairs at or above the threshold.
    pub duplicate_pairs: usize,
    /// Groups of two or more documents, largest first (ties: lowest centre id).
    pub groups: Vec<Group>,
}

/// Every document of `store` (as a group member would show it) with what `sign` makes of its
/// record, and the candidate pairs among them (indices into the documents, smaller first, sorted
/// and distinct): each document looked up in the store's own indexes as a check of its text would
/// be, its best `max_candidates` kept. What [`dedup`] scores, and what `uniqcheck study --db`
/// samples to show an operator where their own duplicates separate. `progress(done)` is called
/// after each document is looked up.
///
/// Errors: SQLite failures, damaged records.
#[allow(clippy::type_complexity)] // (documents with their signatures, pairs of them)
pub fn survey<B: Backend, S>(
    store: &StoreOf<B>,
    opts: &CheckOptions,
    max_candidates: usize,
    sign: &mut dyn FnMut(&Text) -> S,
    progress: &mut dyn FnMut(usize),
) -> Result<(Vec<(Member, S)>, Vec<(usize, usize)>), DedupError> {
    let mut docs: Vec<(Member, S)> = Vec::new();
    let mut position: HashMap<DocId, usize> = HashMap::new();
    let mut proposed: Vec<(DocId, DocId)> = Vec::new();
    store.for_each_record(|_, record| -> Result<(), DedupError> {
        let id: i64 = record.info.id.parse().unwrap_or_default();
        // The one lookup the Index API does not offer: the document's own keys.
        let keys = store.fingerprint_keys(id)?;
        let short = record.word_count() < opts.short_threshold;
        let ranked = candidates(store, id as DocId, &keys, &record, short)?;
        let me = id as DocId;
        proposed.extend(
            ranked
                .into_iter()
                .filter(|&c| c != me)
                .take(max_candidates)
                .map(|c| (me.min(c), me.max(c))),
        );
        let text = Text::from_record(&record);
        position.insert(me, docs.len());
        docs.push((
            Member {
                id,
                url: record.info.url.clone(),
                title: record.info.title.clone(),
                words: record.word_count(),
                similarity: 1.0,
            },
            sign(&text),
        ));
        progress(docs.len());
        Ok(())
    })?;
    proposed.sort_unstable();
    proposed.dedup();
    // A candidate deleted meanwhile has no position: no pair.
    let pairs = proposed
        .into_iter()
        .filter_map(|(a, b)| Some((*position.get(&a)?, *position.get(&b)?)))
        .map(|(i, j)| (i.min(j), i.max(j)))
        .collect();
    Ok((docs, pairs))
}

/// Finds every near-duplicate group in `store` by `method`, aligning at most `max_candidates`
/// candidates per document ([`survey`]); `progress(done)` is called after each document is
/// looked up.
///
/// Errors: the method needs characters ([`DedupError::NeedsText`]), SQLite failures, damaged
/// records.
pub fn dedup<B: Backend>(
    store: &StoreOf<B>,
    method: &AnyMethod,
    opts: &CheckOptions,
    max_candidates: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<Dedup, DedupError> {
    if method.kind().needs_characters() {
        return Err(DedupError::NeedsText(method.kind().name()));
    }
    let (docs, proposed) = survey(
        store,
        opts,
        max_candidates,
        &mut |text: &Text| -> Signature { method.signature(text) },
        progress,
    )?;
    let mut edges = Vec::new();
    for &(i, j) in &proposed {
        let s = method.similarity(&docs[i].1, &docs[j].1);
        if method.verdict(s).duplicate {
            edges.push((i, j, s));
        }
    }
    let groups = cluster(docs.len(), &edges)
        .into_iter()
        .map(|g| {
            let members: Vec<Member> = g
                .into_iter()
                .map(|(i, s)| Member {
                    similarity: s,
                    ..docs[i].0.clone()
                })
                .collect();
            let keep = members
                .iter()
                .max_by(|a, b| a.words.cmp(&b.words).then(b.id.cmp(&a.id)))
                .map_or(0, |m| m.id);
            Group {
                centre: members[0].id,
                keep,
                members,
            }
        })
        .collect();
    Ok(Dedup {
        documents: docs.len(),
        candidate_pairs: proposed.len(),
        duplicate_pairs: edges.len(),
        groups,
    })
}

/// A document's candidates, best first: the lookups and ranking of
/// [`uniqcheck::index::candidates`] (shared fingerprint keys and longest words count one each;
/// sentence keys held by at most [`MAX_SENTENCE_KEY_DOCS`] documents add theirs, and alone need
/// [`MIN_SENTENCE_HITS`] of them or one no other document holds; an exact duplicate ranks first).
fn candidates<B: Backend>(
    store: &StoreOf<B>,
    me: DocId,
    keys: &[u32],
    record: &uniqcheck::pack::Record,
    short: bool,
) -> Result<Vec<DocId>, StoreError> {
    // The document holds every key it looks up, where a draft being checked is in no list: the
    // limits count the other documents, and the document is no candidate of its own.
    let others = move |docs: &[DocId]| docs.len() - usize::from(docs.contains(&me));
    let mut hits: Vec<DocId> = Vec::new();
    let mut collect = |_: u32, docs: &[DocId]| {
        if others(docs) <= MAX_KEY_DOCS {
            hits.extend(docs.iter().filter(|&&d| d != me));
        }
    };
    store.postings(List::Fingerprints, keys, MAX_KEY_DOCS + 1, &mut collect)?;
    if short {
        let mut longest = record.short.hashes.clone();
        longest.sort_unstable();
        longest.dedup();
        store.postings(List::LongWords, &longest, MAX_KEY_DOCS + 1, &mut collect)?;
    }
    // (document, whether no other document holds the key)
    let mut by_sentence: Vec<(DocId, bool)> = Vec::new();
    store.postings(
        List::Sentences,
        &sentence_keys(record.words(), &record.sentences, Side::Draft),
        MAX_SENTENCE_KEY_DOCS + 1,
        &mut |_, docs| {
            if others(docs) <= MAX_SENTENCE_KEY_DOCS {
                let unique = others(docs) == 1;
                by_sentence.extend(docs.iter().filter(|&&d| d != me).map(|&d| (d, unique)));
            }
        },
    )?;
    let mut exact = Vec::new();
    store.exact_documents(record.exact, &mut exact)?;
    let mut score: HashMap<DocId, u64> = HashMap::new();
    for d in hits {
        *score.entry(d).or_default() += 1;
    }
    by_sentence.sort_unstable();
    for run in by_sentence.chunk_by(|a, b| a.0 == b.0) {
        let found = score.contains_key(&run[0].0);
        let unique = run.iter().any(|&(_, unique)| unique);
        if found || unique || run.len() >= MIN_SENTENCE_HITS {
            *score.entry(run[0].0).or_default() += run.len() as u64;
        }
    }
    for d in exact.into_iter().filter(|&d| d != me) {
        *score.entry(d).or_default() += EXACT_SCORE;
    }
    let mut ranked: Vec<(DocId, u64)> = score.into_iter().collect();
    ranked.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked.into_iter().map(|(d, _)| d).collect())
}

/// Centre-based complete-link clustering of `n` items over `edges` (i, j, similarity): groups of
/// two or more, each a list of (item, similarity to the centre) with the centre first; every two
/// members of a group are joined by an edge. Largest groups first, then by centre.
///
/// # Example
/// ```
/// // A chain 0-1-2-3: no group holds both ends, nor three links of the chain.
/// let g = uniqcheck_store::dedup::cluster(4, &[(0, 1, 0.7), (1, 2, 0.7), (2, 3, 0.7)]);
/// assert_eq!(g.len(), 2);
/// assert!(g.iter().all(|g| g.len() == 2));
/// ```
pub fn cluster(n: usize, edges: &[(usize, usize, f64)]) -> Vec<Vec<(usize, f64)>> {
    let mut adjacent: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut linked: std::collections::HashSet<(usize, usize)> = Default::default();
    for &(a, b, s) in edges.iter().filter(|e| e.0 != e.1 && e.0 < n && e.1 < n) {
        if linked.insert((a.min(b), a.max(b))) {
            adjacent[a].push((b, s));
            adjacent[b].push((a, s));
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| !adjacent[i].is_empty()).collect();
    order.sort_by(|&a, &b| adjacent[b].len().cmp(&adjacent[a].len()).then(a.cmp(&b)));
    let mut grouped = vec![false; n];
    let mut groups = Vec::new();
    for centre in order {
        if grouped[centre] {
            continue;
        }
        let mut near = adjacent[centre].clone();
        near.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut group = vec![(centre, 1.0)];
        for (m, s) in near {
            let fits = !grouped[m]
                && group
                    .iter()
                    .all(|&(g, _)| linked.contains(&(g.min(m), g.max(m))));
            if fits {
                group.push((m, s));
            }
        }
        if group.len() > 1 {
            for &(m, _) in &group {
                grouped[m] = true;
            }
            groups.push(group);
        }
    }
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].0.cmp(&b[0].0)));
    groups
}

#[cfg(test)]
mod tests {
    use super::cluster;

    #[test]
    fn complete_link_never_chains() {
        // A loose threshold joins every neighbour of a long chain: single-link would make one group.
        let chain: Vec<(usize, usize, f64)> = (0..9).map(|i| (i, i + 1, 0.9)).collect();
        for g in cluster(10, &chain) {
            assert!(g.len() <= 2, "{g:?}");
        }
        // A clique is one group, its best-connected member the centre.
        let clique = [(0, 1, 0.9), (0, 2, 0.8), (1, 2, 0.85), (2, 3, 0.6)];
        let g = cluster(4, &clique);
        assert_eq!(g.len(), 1);
        let mut members: Vec<usize> = g[0].iter().map(|m| m.0).collect();
        assert_eq!(g[0][0].0, 2);
        members.sort();
        assert_eq!(members, vec![0, 1, 2]);
        assert!(cluster(3, &[]).is_empty());
    }
}
