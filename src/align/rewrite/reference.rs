//! The reference path of rewrite detection: both texts' sentences numbered together, tf-isf
//! weights, and the seeds ([`seeds`]) that [`super::rewrites_of`] extends. The fast path
//! ([`super::fast`]) must find what this finds.

use super::*;

/// One side's sentences as term counts, terms numbered from 0 among the distinct terms of both
/// sides ([`numbered`]), so that arrays indexed by term stay as small as the two texts. Each
/// sentence's list keeps the order of its terms (ascending), whatever their numbers: every sum
/// below runs over terms in that order, as over the terms themselves.
pub(super) struct Side<'a> {
    /// Content-word range of each sentence.
    pub(super) ranges: &'a [Range<usize>],
    /// Every sentence's distinct terms (numbers) with their counts, in term order: sentence `i`
    /// holds `terms[at[i]..at[i + 1]]`.
    pub(super) terms: Vec<(u32, u32)>,
    pub(super) at: &'a [usize],
}

thread_local! {
    /// Number + 1 of each term below 2^16 (folded word hashes, all of them in practice) in the
    /// pair being numbered, 0 between pairs: a term's number in one read.
    static NUMBERS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Both sides with their terms numbered, and each number's term.
pub(super) fn numbered<'a>(a: &'a Sentences, b: &'a Sentences) -> (Side<'a>, Side<'a>, Vec<u32>) {
    let side = |s: &'a Sentences, number: &mut dyn FnMut(u32) -> u32| Side {
        ranges: &s.ranges,
        terms: s.terms.iter().map(|&(t, c)| (number(t), c)).collect(),
        at: &s.at,
    };
    if a.max.max(b.max) >= 1 << 16 {
        // Numbers by rank: a binary search each.
        let mut union: Vec<u32> = a.terms.iter().chain(&b.terms).map(|&(t, _)| t).collect();
        union.sort_unstable();
        union.dedup();
        let mut rank = |t: u32| union.binary_search(&t).unwrap_or(0) as u32;
        let (sa, sb) = (side(a, &mut rank), side(b, &mut rank));
        return (sa, sb, union);
    }
    NUMBERS.with_borrow_mut(|numbers| {
        numbers.resize(1 << 16, 0);
        // In order of first appearance.
        let mut terms: Vec<u32> = Vec::with_capacity(a.terms.len() + b.terms.len());
        let mut number = |t: u32| {
            let n = &mut numbers[t as usize];
            if *n == 0 {
                terms.push(t);
                *n = terms.len() as u32;
            }
            *n - 1
        };
        let (sa, sb) = (side(a, &mut number), side(b, &mut number));
        for &t in &terms {
            numbers[t as usize] = 0;
        }
        (sa, sb, terms)
    })
}

impl Side<'_> {
    /// Number of sentences.
    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Sentence `i`'s terms with their counts.
    pub(super) fn sentence(&self, i: usize) -> &[(u32, u32)] {
        &self.terms[self.at[i]..self.at[i + 1]]
    }
}

/// The sentence frequencies of both sides, as inverse weights `ln(N / df)` by term number, and
/// room to sum a run of sentences' counts.
pub(super) struct Weights {
    pub(super) idf: Vec<f64>,
    /// Each number's term.
    pub(super) terms: Vec<u32>,
    /// Summed counts by term number, all zero between calls of [`Weights::vector`].
    pub(super) sum: Vec<u32>,
    pub(super) touched: Vec<u32>,
}

impl Weights {
    pub(super) fn new(a: &Side<'_>, b: &Side<'_>, numbered: Vec<u32>) -> Weights {
        let terms = numbered.len();
        let mut df = vec![0u32; terms];
        for &(t, _) in a.terms.iter().chain(&b.terms) {
            df[t as usize] += 1;
        }
        let sentences = a.len() + b.len();
        let n = sentences as f64;
        // Most terms are in one, two or three sentences: one logarithm per frequency, not per term.
        let mut by_df: Vec<f64> = vec![f64::NAN; sentences + 1];
        let idf = df
            .iter()
            .map(|&d| {
                let known = &mut by_df[d as usize];
                if known.is_nan() {
                    *known = (n / f64::from(d)).ln();
                }
                *known
            })
            .collect();
        Weights {
            idf,
            terms: numbered,
            sum: vec![0; terms],
            touched: Vec::new(),
        }
    }

    pub(super) fn of(&self, t: u32) -> f64 {
        self.idf[t as usize]
    }

    /// The tf-isf vector of a run of sentences (summed term counts), by term (not number),
    /// sorted by term.
    pub(super) fn vector(&mut self, side: &Side, s: Range<usize>) -> Vec<(u32, f64)> {
        for &(t, c) in &side.terms[side.at[s.start]..side.at[s.end]] {
            let sum = &mut self.sum[t as usize];
            if *sum == 0 {
                self.touched.push(t);
            }
            *sum += c;
        }
        let terms = &self.terms;
        self.touched.sort_unstable_by_key(|&t| terms[t as usize]);
        let mut v = Vec::with_capacity(self.touched.len());
        for &t in &self.touched {
            let c = std::mem::take(&mut self.sum[t as usize]);
            v.push((self.terms[t as usize], f64::from(c) * self.idf[t as usize]));
        }
        self.touched.clear();
        v
    }
}

/// Dot product and number of shared terms of two sparse vectors sorted by term.
pub(super) fn dot_and_shared(a: &[(u32, f64)], b: &[(u32, f64)]) -> (f64, usize) {
    let (mut i, mut j, mut dot, mut shared) = (0, 0, 0.0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += a[i].1 * b[j].1;
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (dot, shared)
}

/// Euclidean norm of a sparse vector.
pub(super) fn norm(v: &[(u32, f64)]) -> f64 {
    v.iter().map(|&(_, w)| w * w).sum::<f64>().sqrt()
}

/// Cosine of two sparse vectors sorted by term.
pub(super) fn cosine(a: &[(u32, f64)], b: &[(u32, f64)]) -> f64 {
    let det = norm(a) * norm(b);
    if det == 0.0 {
        return 0.0;
    }
    dot_and_shared(a, b).0 / det
}

/// A seed: draft sentence, source sentence.
pub(super) type Seed = (usize, usize);

/// Sentence pairs similar enough to seed a passage.
/// The working arrays of [`seeds`], kept from one pair to the next.
#[derive(Default)]
pub(super) struct SeedArrays {
    pub(super) dv: Vec<(u32, f64)>,
    pub(super) sv: Vec<(u32, f64)>,
    pub(super) snorm: Vec<f64>,
    pub(super) first: Vec<u32>,
    pub(super) fill: Vec<u32>,
    pub(super) holders: Vec<u32>,
    pub(super) rare: Vec<u32>,
    pub(super) touched: Vec<usize>,
    pub(super) weight: Vec<f64>,
    pub(super) holds: Vec<u32>,
}

thread_local! {
    static SEED_ARRAYS: std::cell::RefCell<SeedArrays> = std::cell::RefCell::default();
}

/// Empties `v` and fills it with `len` copies of `x`, in the memory it has.
pub(super) fn reset<T: Clone>(v: &mut Vec<T>, len: usize, x: T) {
    v.clear();
    v.resize(len, x);
}

/// At least `len` entries in `v`, whatever they hold (grown with defaults, never cleared).
pub(super) fn room<T: Clone + Default>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        v.resize(len, T::default());
    }
}

/// Sentence pairs similar enough to seed a passage.
pub(super) fn seeds(draft: &Side, source: &Side, w: &Weights, opts: &RewriteOptions) -> Vec<Seed> {
    SEED_ARRAYS.with_borrow_mut(|arrays| seeds_in(arrays, draft, source, w, opts))
}

pub(super) fn seeds_in(
    arrays: &mut SeedArrays,
    draft: &Side,
    source: &Side,
    w: &Weights,
    opts: &RewriteOptions,
) -> Vec<Seed> {
    let SeedArrays {
        dv,
        sv,
        snorm,
        first,
        fill,
        holders,
        rare,
        touched,
        weight,
        holds,
    } = arrays;
    // A sentence's terms are already counted and sorted: weigh them in place, all sentences of a
    // side in one list, cut as the side's sentences are.
    let weigh = |side: &Side, v: &mut Vec<(u32, f64)>| {
        v.clear();
        v.extend(side.terms.iter().map(|&(t, c)| (t, f64::from(c) * w.of(t))));
    };
    weigh(draft, dv);
    weigh(source, sv);
    let sentence = |side: &Side, i: usize| -> std::ops::Range<usize> { side.at[i]..side.at[i + 1] };
    snorm.clear();
    snorm.extend((0..source.len()).map(|s| norm(&sv[sentence(source, s)])));
    // Term → the source sentences holding it, ascending: counts, then offsets, then fill.
    let terms = w.idf.len();
    reset(first, terms + 1, 0);
    for &(t, _) in &source.terms {
        first[t as usize + 1] += 1;
    }
    for t in 1..first.len() {
        first[t] += first[t - 1];
    }
    fill.clear();
    fill.extend_from_slice(&first[..terms]);
    reset(holders, source.terms.len(), 0);
    for s in 0..source.len() {
        for &(t, _) in source.sentence(s) {
            holders[fill[t as usize] as usize] = s as u32;
            fill[t as usize] += 1;
        }
    }
    // Per source sentence, how many of the draft sentence's terms held by few sentences it
    // holds too (0: not a candidate yet).
    reset(rare, source.len(), 0);
    touched.clear();
    let mut out = Vec::new();
    let mut weak = Vec::new();
    // The draft sentence's weights by term, and which terms it holds (its number + 1): a dot
    // product then reads the source sentence alone, in its term order, as a merge would.
    reset(weight, terms, 0.0);
    reset(holds, terms, 0);
    for d in 0..draft.len() {
        let v = &dv[sentence(draft, d)];
        let stamp = d as u32 + 1;
        for &(t, x) in v {
            weight[t as usize] = x;
            holds[t as usize] = stamp;
        }
        // Candidates: the source sentences sharing a term held by few of them. A term in more
        // sentences than that only adds to a pair another term found (its weight is in the
        // cosine below), so a text repeating itself costs linear time, not quadratic.
        let mut common = 0;
        for &(t, _) in v {
            let p = &holders[first[t as usize] as usize..first[t as usize + 1] as usize];
            if p.len() > MAX_SENTENCES_PER_TERM {
                common += 1;
                continue;
            }
            for &s in p {
                let s = s as usize;
                if rare[s] == 0 {
                    touched.push(s);
                }
                rare[s] += 1;
            }
        }
        let dn = norm(v);
        for &s in touched.iter() {
            let most_shared = std::mem::take(&mut rare[s]) + common;
            let sv = &sv[sentence(source, s)];
            // Dice of the most terms the pair can share: when even that is too low, so is the
            // pair's own, and its dot product is not needed.
            if 2.0 * f64::from(most_shared) / (v.len() + sv.len()) as f64 <= opts.dice_floor() {
                continue;
            }
            let (mut dot, mut shared) = (0.0, 0);
            for &(t, x) in sv {
                if holds[t as usize] == stamp {
                    dot += weight[t as usize] * x;
                    shared += 1;
                }
            }
            let det = dn * snorm[s];
            let cos = if det > 0.0 { dot / det } else { 0.0 };
            let dice = 2.0 * shared as f64 / (v.len() + sv.len()) as f64;
            match opts.pair(cos, dice) {
                Some(true) => out.push((d, s)),
                Some(false) => weak.push((d, s)),
                None => {}
            }
        }
        touched.clear();
    }
    let chained = chained(&out, weak, opts);
    out.extend(chained);
    out
}
