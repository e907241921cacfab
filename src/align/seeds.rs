//! Seeds: matched shingles of a draft and one source, merged into fragments.
//!
//! Each draft shingle found in the source is a *seed*: draft words `d..d+n` match source words
//! `s..s+n`. Seeds are merged, in draft order, into clusters that stay close on both sides: a seed
//! joins a cluster when at most `gap` unmatched words separate it from the cluster on the draft
//! side and on the source side (so a passage with a word changed here and there stays ONE
//! fragment, while two passages separated by more than `gap` new words stay TWO). Among clusters
//! that fit, the one on the nearest diagonal (`s - d`) wins, which keeps reordered sentences apart.
//! What the writer sees as copied is a fragment cut back to its seeds' words (`exact_pieces`):
//! the changed word is in the passage, not in the copy.
//!
//! Cost: O(draft shingles × active clusters); shingles that occur more than [`MAX_OCCURRENCES`]
//! times in the source (boilerplate, repetitive text) only continue existing clusters, so
//! pathological inputs stay linear.

use crate::postings::Postings;
use crate::shingle::Shingle;
use std::ops::Range;

/// Source positions looked at per draft shingle before a shingle counts as boilerplate.
pub const MAX_OCCURRENCES: usize = 8;
/// Most clusters kept open at once.
pub(crate) const MAX_ACTIVE: usize = 64;

/// Where a draft shingle occurs in a source.
pub trait SourceIndex {
    /// Source positions (first content word of the matching shingle), ascending.
    fn positions(&self, hash: u64) -> &[u32];
}

/// A source's shingles: every shingle hash and its positions.
#[derive(Debug, Clone, Default)]
pub struct ShingleIndex {
    map: Postings<u64>,
}

impl ShingleIndex {
    /// Indexes a source's shingles, given in text order (as [`crate::shingle::shingles`] makes
    /// them), so that each hash's positions come out ascending.
    pub fn new(shingles: &[Shingle]) -> Self {
        let mut map = Postings::default();
        map.reserve(shingles.len());
        for s in shingles {
            map.push(s.hash, s.first);
        }
        ShingleIndex { map }
    }

    /// Indexes `shingles` instead of what it held, as [`ShingleIndex::new`] would, in the memory
    /// it already has: one index serves the sources of a check one after another.
    pub fn refill(&mut self, shingles: &[Shingle]) {
        self.map.clear_for(shingles.len());
        for s in shingles {
            self.map.push(s.hash, s.first);
        }
    }

    /// Number of distinct shingle hashes.
    pub fn distinct(&self) -> usize {
        self.map.len()
    }
}

impl SourceIndex for ShingleIndex {
    fn positions(&self, hash: u64) -> &[u32] {
        self.map.get(&hash)
    }
}

/// A fragment: content-word ranges (end exclusive) on the draft and on the source side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Draft content words covered.
    pub draft: Range<usize>,
    /// Source content words covered.
    pub source: Range<usize>,
    /// How many seeds (matched shingles) the fragment holds.
    pub seeds: usize,
}

#[derive(Debug, Clone)]
struct Cluster {
    m: Match,
    last_d: usize,
    last_s: usize,
}

impl Cluster {
    fn diagonal(&self) -> i64 {
        self.last_s as i64 - self.last_d as i64
    }
}

/// Aligns a draft's shingles (`n` words each) against a source. Returns fragments ordered by their
/// draft start; fragments may overlap on the draft side when the source repeats a passage.
///
/// # Example
/// ```
/// use uniqcheck::{align::{align, ShingleIndex}, shingle::shingles};
/// let source: Vec<u32> = (100..140).collect();
/// // A draft: 5 new words, source words 110..130 with word 120 changed, 5 new words.
/// let mut draft: Vec<u32> = (1..6).chain(110..130).chain(1000..1005).collect();
/// draft[5 + 10] = 9999;
/// let m = align(&shingles(&draft, 4), &ShingleIndex::new(&shingles(&source, 4)), 4, 4);
/// assert_eq!(m.len(), 1);
/// assert_eq!((m[0].draft.clone(), m[0].source.clone()), (5..25, 10..30));
/// ```
pub fn align(draft: &[Shingle], source: &impl SourceIndex, n: usize, gap: usize) -> Vec<Match> {
    align_with(draft, |i| source.positions(draft[i].hash), |i| i, n, gap)
}

/// [`align`] with the source positions of draft shingle `i` given by `positions(i)` (ascending,
/// as [`SourceIndex::positions`] of its hash would give them): the same fragments, whether the
/// source's shingles were indexed or the source's windows were looked up in the draft's
/// ([`super::probe`]). `next(k)` is the first draft shingle from `k` on with any position (or
/// any shingle from `k` on, `draft.len()` for none): while no cluster is open, the shingles
/// before it change nothing and are passed over.
pub(crate) fn align_with<'a>(
    draft: &[Shingle],
    positions: impl Fn(usize) -> &'a [u32],
    mut next: impl FnMut(usize) -> usize,
    n: usize,
    gap: usize,
) -> Vec<Match> {
    let mut active: Vec<Cluster> = Vec::new();
    let mut done: Vec<Match> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < draft.len() {
        if active.is_empty() {
            k = next(k);
            if k >= draft.len() {
                break;
            }
        }
        let sh = &draft[k];
        k += 1;
        let d = sh.first as usize;
        // Clusters that this and every later seed is too far from are final.
        let mut i = 0;
        while i < active.len() {
            if active[i].m.draft.end + gap < d {
                done.push(active.swap_remove(i).m);
            } else {
                i += 1;
            }
        }
        let positions = positions(k - 1);
        if positions.is_empty() {
            continue;
        }
        candidates.clear();
        if positions.len() <= MAX_OCCURRENCES {
            candidates.extend(positions.iter().map(|&s| s as usize));
        } else {
            // Boilerplate: only the position that continues an open cluster's diagonal, or the
            // first occurrence when nothing is open.
            for c in &active {
                let predicted = c.last_s as i64 + (d - c.last_d) as i64;
                if predicted >= 0 && positions.binary_search(&(predicted as u32)).is_ok() {
                    candidates.push(predicted as usize);
                }
            }
            if candidates.is_empty() {
                candidates.push(positions[0] as usize);
            }
            candidates.sort_unstable();
            candidates.dedup();
        }
        for &s in &candidates {
            let diagonal = s as i64 - d as i64;
            let best = active
                .iter()
                .enumerate()
                .filter(|(_, c)| s <= c.m.source.end + gap && s + gap >= c.last_s)
                .min_by_key(|(_, c)| (c.diagonal() - diagonal).abs())
                .filter(|(_, c)| (c.diagonal() - diagonal).unsigned_abs() as usize <= gap + n)
                .map(|(i, _)| i);
            match best {
                Some(i) => {
                    let c = &mut active[i];
                    c.m.draft.end = c.m.draft.end.max(d + n);
                    c.m.source.start = c.m.source.start.min(s);
                    c.m.source.end = c.m.source.end.max(s + n);
                    c.m.seeds += 1;
                    c.last_d = d;
                    c.last_s = s;
                }
                None if active.len() < MAX_ACTIVE => active.push(Cluster {
                    m: Match {
                        draft: d..d + n,
                        source: s..s + n,
                        seeds: 1,
                    },
                    last_d: d,
                    last_s: s,
                }),
                None => {}
            }
        }
    }
    done.extend(active.into_iter().map(|c| c.m));
    done.sort_by_key(|m| (m.draft.start, m.source.start));
    done
}

/// The word-for-word parts of `fragments` (as [`align_with`] made them, from the same
/// `positions`): each fragment cut to the runs of draft words that a matched shingle covers, each
/// run on one diagonal, with the source words its shingles matched. A fragment joins its seeds
/// over up to `gap` changed words, which is right for chaining a reworded copy; what the writer
/// sees as copied is only what matches word for word, so a changed word inside a copied sentence
/// is left to the rewrite (or to nobody). Pieces keep the fragments' order; a piece starts where
/// the one before it ended when their seeds overlap on the draft side (a word deleted from the
/// source leaves the draft contiguous on a new diagonal).
///
/// Cost: one binary search per draft shingle inside a fragment.
pub(crate) fn exact_pieces<'a>(
    fragments: &[Match],
    positions: impl Fn(usize) -> &'a [u32],
    n: usize,
) -> Vec<Match> {
    let mut out: Vec<Match> = Vec::with_capacity(fragments.len());
    for m in fragments {
        if m.draft.len() < n || m.source.len() < n {
            continue;
        }
        // The diagonal (source − draft) of the last seed taken: the next seed is looked for
        // there first, so a passage the source repeats is followed where the fragment runs.
        let mut diagonal = m.source.start as i64 - m.draft.start as i64;
        let mut current: Option<Match> = None;
        for d in m.draft.start..=m.draft.end - n {
            let all = positions(d);
            // Positions whose shingle lies inside the fragment's source words.
            let lo = all.partition_point(|&p| (p as usize) < m.source.start);
            let hi = all.partition_point(|&p| p as usize + n <= m.source.end);
            if lo >= hi {
                continue;
            }
            let inside = &all[lo..hi];
            let predicted = (d as i64 + diagonal).max(0);
            let at = inside.partition_point(|&p| i64::from(p) < predicted);
            let p = [at.checked_sub(1), Some(at)]
                .into_iter()
                .flatten()
                .filter_map(|k| inside.get(k))
                .min_by_key(|&&p| (i64::from(p) - predicted).unsigned_abs())
                .map_or(inside[0], |&p| p) as usize;
            let on = p as i64 - d as i64;
            match current.as_mut() {
                Some(c) if d <= c.draft.end && on == diagonal => {
                    c.draft.end = d + n;
                    c.source.end = c.source.end.max(p + n);
                    c.seeds += 1;
                }
                _ => {
                    // Overlapping the piece before on the draft side: start where it ended.
                    let skip = current
                        .as_ref()
                        .map_or(0, |c| c.draft.end.saturating_sub(d));
                    out.extend(current.take());
                    current = Some(Match {
                        draft: d + skip..d + n,
                        source: p + skip..p + n,
                        seeds: 1,
                    });
                }
            }
            diagonal = on;
        }
        out.extend(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shingle::shingles;

    #[test]
    fn a_refilled_index_answers_as_a_new_one() {
        let (a, b) = (
            shingles(&[1, 2, 3, 4, 1, 2, 3, 4, 5], 4),
            shingles(&[9, 8, 7, 6, 5], 4),
        );
        let mut index = ShingleIndex::new(&a);
        index.refill(&b);
        let fresh = ShingleIndex::new(&b);
        for s in a.iter().chain(&b) {
            assert_eq!(index.positions(s.hash), fresh.positions(s.hash));
        }
        assert_eq!((index.distinct(), fresh.distinct()), (2, 2));
        index.refill(&a);
        assert_eq!(index.positions(a[0].hash), [0, 4]);
        assert_eq!(index.distinct(), 5);
    }

    fn run(draft: &[u32], source: &[u32]) -> Vec<Match> {
        align(
            &shingles(draft, 4),
            &ShingleIndex::new(&shingles(source, 4)),
            4,
            4,
        )
    }

    #[test]
    fn verbatim_copy_is_one_fragment_with_both_spans() {
        let source: Vec<u32> = (0..50).collect();
        let draft: Vec<u32> = (500..510).chain(20..40).chain(600..610).collect();
        assert_eq!(
            run(&draft, &source),
            vec![Match {
                draft: 10..30,
                source: 20..40,
                seeds: 17
            }]
        );
    }

    #[test]
    fn two_passages_separated_by_new_text_stay_two() {
        let source: Vec<u32> = (0..100).collect();
        let draft: Vec<u32> = (10..25).chain(500..512).chain(60..75).collect();
        let m = run(&draft, &source);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].draft.clone(), m[0].source.clone()), (0..15, 10..25));
        assert_eq!((m[1].draft.clone(), m[1].source.clone()), (27..42, 60..75));
    }

    #[test]
    fn inserted_and_deleted_words_keep_one_fragment() {
        let source: Vec<u32> = (0..60).collect();
        let mut draft: Vec<u32> = (0..60).collect();
        draft.insert(20, 7777); // a word added
        draft.remove(41); // a word dropped
        let m = run(&draft, &source);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].draft.clone(), m[0].source.clone()), (0..60, 0..60));
    }

    /// [`exact_pieces`] of [`run`]'s fragments: (draft, source) ranges.
    fn pieces(draft: &[u32], source: &[u32]) -> Vec<(Range<usize>, Range<usize>)> {
        let (d, s) = (shingles(draft, 4), ShingleIndex::new(&shingles(source, 4)));
        let fragments = align(&d, &s, 4, 4);
        exact_pieces(&fragments, |i| s.positions(d[i].hash), 4)
            .into_iter()
            .map(|m| (m.draft, m.source))
            .collect()
    }

    #[test]
    fn pieces_are_what_matches_word_for_word() {
        let source: Vec<u32> = (0..60).collect();
        // A word changed: one fragment, two pieces, the changed word in neither.
        let mut draft = source.clone();
        draft[30] = 7777;
        assert_eq!(run(&draft, &source).len(), 1);
        assert_eq!(pieces(&draft, &source), [(0..30, 0..30), (31..60, 31..60)]);
        // A word added: the same, on two diagonals.
        let mut draft = source.clone();
        draft.insert(20, 7777);
        assert_eq!(pieces(&draft, &source), [(0..20, 0..20), (21..61, 20..60)]);
        // A word dropped: the draft is copied word for word throughout, on two diagonals that
        // meet without overlapping.
        let mut draft = source.clone();
        draft.remove(41);
        assert_eq!(pieces(&draft, &source), [(0..41, 0..41), (41..59, 42..60)]);
        // A verbatim copy and a text the source repeats: the fragments themselves.
        assert_eq!(pieces(&source, &source), [(0..60, 0..60)]);
        let repetitive: Vec<u32> = (0..3_000).map(|i| i % 7).collect();
        assert_eq!(pieces(&repetitive, &repetitive), [(0..3_000, 0..3_000)]);
    }

    #[test]
    fn reordered_sentences_are_each_found() {
        let source: Vec<u32> = (0..45).collect();
        let draft: Vec<u32> = (30..45).chain(15..30).chain(0..15).collect();
        let m = run(&draft, &source);
        let mut spans: Vec<_> = m
            .iter()
            .map(|m| (m.draft.clone(), m.source.clone()))
            .collect();
        spans.sort_by_key(|s| s.0.start);
        assert_eq!(
            spans,
            vec![(0..15, 30..45), (15..30, 15..30), (30..45, 0..15)]
        );
    }

    #[test]
    fn repetitive_text_stays_bounded_and_aligned() {
        let source: Vec<u32> = (0..30_000).map(|i| i % 7).collect();
        let draft = source.clone();
        let m = run(&draft, &source);
        assert!(m.len() <= 4, "{} fragments", m.len());
        assert_eq!(m.iter().map(|m| m.draft.end).max(), Some(30_000));
        assert_eq!(m.iter().map(|m| m.draft.start).min(), Some(0));
    }
}
