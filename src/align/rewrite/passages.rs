//! Extension and filtering, shared by both paths: seeds clustered into passage pairs, validated
//! by their summed vectors, overlaps resolved, and the summary run chosen when the draft
//! condenses the source.

use super::*;

/// Splits `seeds` wherever more than `gap` sentences separate neighbours on `side` (0 draft,
/// 1 source), then each part on the other side, until nothing splits.
pub(super) fn cluster(
    mut seeds: Vec<Seed>,
    gap: usize,
    side: usize,
    first: bool,
) -> Vec<Vec<Seed>> {
    let at = |s: &Seed| if side == 0 { s.0 } else { s.1 };
    seeds.sort_unstable_by_key(|s| (at(s), if side == 0 { s.1 } else { s.0 }));
    let mut parts: Vec<Vec<Seed>> = Vec::new();
    for s in seeds {
        match parts.last_mut() {
            Some(p) if at(&s) - p.last().map_or(0, at) <= gap + 1 => p.push(s),
            _ => parts.push(vec![s]),
        }
    }
    if parts.len() <= 1 && !first {
        return parts;
    }
    parts
        .into_iter()
        .flat_map(|p| cluster(p, gap, 1 - side, false))
        .collect()
}

/// A passage pair, in sentences, with the cosine of its summed vectors.
#[derive(Debug, Clone)]
pub(super) struct Passage {
    pub(super) draft: Range<usize>,
    pub(super) source: Range<usize>,
    pub(super) sim: f64,
    pub(super) seeds: usize,
}

pub(super) fn extent(seeds: &[Seed]) -> (Range<usize>, Range<usize>) {
    let d = seeds.iter().map(|s| s.0);
    let s = seeds.iter().map(|s| s.1);
    (
        d.clone().min().unwrap_or(0)..d.max().map_or(0, |x| x + 1),
        s.clone().min().unwrap_or(0)..s.max().map_or(0, |x| x + 1),
    )
}

/// The tf-isf vector of a run of sentences (summed term counts), by term, sorted by term.
pub(super) trait Vectors {
    /// Of draft sentences `s` (`draft`), or of source sentences `s`.
    fn vector(&mut self, draft: bool, s: Range<usize>) -> Vec<(u32, f64)>;
}

/// [`Vectors`] of two numbered sides ([`numbered`]).
pub(super) struct Numbered<'a> {
    pub(super) draft: &'a Side<'a>,
    pub(super) source: &'a Side<'a>,
    pub(super) w: Weights,
}

impl Vectors for Numbered<'_> {
    fn vector(&mut self, draft: bool, s: Range<usize>) -> Vec<(u32, f64)> {
        self.w
            .vector(if draft { self.draft } else { self.source }, s)
    }
}

/// The similarity of passage pairs, each pair computed once per call of [`rewrites`]: the
/// extension asks for the same pair again whenever a smaller gap leaves a cluster whole, and the
/// summary run asks again for the normal run's pairs.
pub(super) struct Similarity<V> {
    pub(super) vectors: V,
    pub(super) known: PrehashedMap<(u64, u64), f64>,
}

impl<V: Vectors> Similarity<V> {
    /// Cosine of the summed vectors of draft sentences `d` and source sentences `s`.
    pub(super) fn of(&mut self, d: &Range<usize>, s: &Range<usize>) -> f64 {
        let key = |r: &Range<usize>| (r.start as u64) << 32 | r.end as u64;
        let k = (key(d), key(s));
        if let Some(&sim) = self.known.get(&k) {
            return sim;
        }
        let dv = self.vectors.vector(true, d.clone());
        let sv = self.vectors.vector(false, s.clone());
        let sim = cosine(&dv, &sv);
        self.known.insert(k, sim);
        sim
    }
}

/// Clusters `seeds` with `gap` and keeps the passages that validate, re-clustering the others
/// with smaller gaps.
pub(super) fn extend<V: Vectors>(
    seeds: Vec<Seed>,
    gap: usize,
    sim: &mut Similarity<V>,
    opts: &RewriteOptions,
    out: &mut Vec<Passage>,
) {
    for part in cluster(seeds, gap, 0, true) {
        let (d, s) = extent(&part);
        let similarity = sim.of(&d, &s);
        if similarity > opts.validate {
            out.push(Passage {
                seeds: part.len(),
                draft: d,
                source: s,
                sim: similarity,
            });
        } else if gap > 0 {
            extend(part, gap - 1, sim, opts, out);
        }
    }
}

/// Drops passages overlapping a more similar one on the draft side, and short ones.
pub(super) fn filter(
    mut passages: Vec<Passage>,
    draft: &[Range<usize>],
    source: &[Range<usize>],
    min: usize,
) -> Vec<Passage> {
    passages
        .retain(|p| words(draft, &p.draft).len() >= min && words(source, &p.source).len() >= min);
    passages.sort_by(|a, b| {
        b.sim
            .total_cmp(&a.sim)
            .then(b.draft.len().cmp(&a.draft.len()))
            .then(a.draft.start.cmp(&b.draft.start))
    });
    let mut kept: Vec<Passage> = Vec::new();
    for p in passages {
        if kept
            .iter()
            .all(|k| k.draft.end <= p.draft.start || p.draft.end <= k.draft.start)
        {
            kept.push(p);
        }
    }
    kept.sort_by_key(|p| p.draft.start);
    kept
}

/// Content-word range of sentences `s` of a text whose sentences are `ranges`.
pub(super) fn words(ranges: &[Range<usize>], s: &Range<usize>) -> Range<usize> {
    ranges[s.start].start..ranges[s.end - 1].end
}

/// The passages that `seeds` extend to ([`extend`], [`filter`]), the summary run's when the
/// draft summarizes the source, as content-word ranges.
pub(super) fn passages<V: Vectors>(
    seeds: Vec<Seed>,
    draft: &[Range<usize>],
    source: &[Range<usize>],
    vectors: V,
    opts: &RewriteOptions,
) -> Vec<Match> {
    let mut sim = Similarity {
        vectors,
        known: PrehashedMap::default(),
    };
    let mut run = |gap: usize| {
        let mut found = Vec::new();
        extend(seeds.clone(), gap, &mut sim, opts, &mut found);
        filter(found, draft, source, opts.min_words)
    };
    let mut passages = run(opts.gap);
    if opts.summary_gap > opts.gap {
        let summary = run(opts.summary_gap);
        let sum = |ps: &[Passage], f: &dyn Fn(&Passage) -> usize| ps.iter().map(f).sum::<usize>();
        let dw = sum(&summary, &|p| words(draft, &p.draft).len());
        let sw = sum(&summary, &|p| words(source, &p.source).len());
        if sw > 0 && sw >= SUMMARY_RATIO * dw {
            passages = summary;
        }
    }
    passages
        .iter()
        .map(|p| Match {
            draft: words(draft, &p.draft),
            source: words(source, &p.source),
            seeds: p.seeds,
        })
        .collect()
}

/// The weak pairs of `weak` that lie on a chain of at least `opts.chain` pairs of `seeds` and
/// `weak` together, strictly in order on both sides, each at most `opts.chain_step` sentences
/// after the previous one on both sides ([`RewriteOptions::chain`]). The same pairs in any order
/// give the same answer (sorted here), so both seed paths agree. Cost: each pair looks back over
/// the pairs of the `chain_step` draft sentences before it.
pub(super) fn chained(seeds: &[Seed], mut weak: Vec<Seed>, opts: &RewriteOptions) -> Vec<Seed> {
    if opts.chain == 0 || weak.is_empty() {
        return Vec::new();
    }
    weak.sort_unstable();
    weak.dedup();
    let mut all: Vec<(Seed, bool)> = seeds.iter().map(|&s| (s, false)).collect();
    all.extend(weak.iter().map(|&s| (s, true)));
    all.sort_unstable();
    all.dedup_by_key(|(s, _)| *s);
    let step = opts.chain_step;
    // Longest chain ending at each pair, and the pair before it on that chain.
    let mut best = vec![1usize; all.len()];
    let mut prev = vec![usize::MAX; all.len()];
    for i in 0..all.len() {
        let (d, s) = all[i].0;
        for j in (0..i).rev() {
            let (dj, sj) = all[j].0;
            if dj + step < d {
                break;
            }
            if dj < d && sj < s && s <= sj + step && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
                prev[i] = j;
            }
        }
    }
    let mut on_chain = vec![false; all.len()];
    for (end, &length) in best.iter().enumerate() {
        if length < opts.chain {
            continue;
        }
        let mut at = end;
        while at != usize::MAX && !on_chain[at] {
            on_chain[at] = true;
            at = prev[at];
        }
    }
    all.iter()
        .zip(on_chain)
        .filter(|&((_, weak), on)| *weak && on)
        .map(|((s, _), _)| *s)
        .collect()
}
