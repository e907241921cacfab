//! Sketch stage: a K-value MinHash signature of a document's shingle set, plus the set's size.
//!
//! Each shingle hash is folded to 32 bits, `x = lo32(h) XOR hi32(h)`, and slot `i` holds the low
//! 16 bits of the minimum over the set of `h_i(x) = (x XOR b_i) * a_i mod 2^32`, with `a_i` odd
//! and `a_i`, `b_i` drawn from a fixed SplitMix64 stream: the same on every platform, so sketches
//! made natively and in WebAssembly compare. 32-bit lanes are what makes the K hash functions
//! cheap: the inner loop vectorizes (AVX2 natively where the processor has it, else SSE2;
//! `simd128` in WebAssembly), where 64-bit multiplies stay scalar. The minimum is decided by the product's high bits, which every
//! input bit reaches; the accuracy test below holds the family to the ±0.1-in-95 %-of-trials bar. Keeping 16 bits of each
//! minimum is b-bit minwise hashing (Li & König 2010): unequal minima collide with probability
//! 2^-16, a bias of at most 1.5·10^-5 on resemblance, for half the bytes in every pack. The fraction of equal slots estimates resemblance
//! (Jaccard) `|A∩B| / |A∪B|` with standard error `sqrt(J(1-J)/K)`; with the set sizes it also
//! estimates containment `|A∩B| / |A|`, the question "how much of my draft is in there".

use crate::hash::SplitMix64;

const SEED: u64 = 0x756e_6971_6368_6b31; // "uniqchk1"

/// A MinHash signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sketch {
    /// K values (the low 16 bits of each minimum), one per hash function; all 0 for an empty set.
    pub mins: Vec<u32>,
    /// Number of distinct shingles in the set.
    pub set_size: u32,
}

/// The K hash functions' coefficients: odd multipliers `a` and XOR masks `b`.
fn coefficients(k: usize) -> (Vec<u32>, Vec<u32>) {
    let mut rng = SplitMix64(SEED);
    (0..k)
        .map(|_| {
            let r = rng.next_u64();
            ((r >> 32) as u32 | 1, r as u32)
        })
        .unzip()
}

/// The coefficients of up to this many hash functions are computed once per process.
const CACHED_K: usize = 1024;

/// The first `k` hash functions' coefficients, computed once for the `k` parameters allow
/// (a prefix of the stream is the same functions).
fn coefficients_cached(k: usize) -> std::borrow::Cow<'static, (Vec<u32>, Vec<u32>)> {
    static TABLE: std::sync::OnceLock<(Vec<u32>, Vec<u32>)> = std::sync::OnceLock::new();
    if k > CACHED_K {
        return std::borrow::Cow::Owned(coefficients(k));
    }
    std::borrow::Cow::Borrowed(TABLE.get_or_init(|| coefficients(CACHED_K)))
}

/// Lowers each `mins[i]` to the minimum over `set` of `h_i`; the loop over `i` is what vectorizes.
#[inline(always)]
fn minima(set: &[u64], a: &[u32], b: &[u32], mins: &mut [u32]) {
    for &x in set {
        let x = (x ^ (x >> 32)) as u32;
        for ((m, &a), &b) in mins.iter_mut().zip(a).zip(b) {
            *m = (*m).min((x ^ b).wrapping_mul(a));
        }
    }
}

/// [`minima`] in WebAssembly SIMD: sixteen hash functions at a time, their minima held in four
/// `v128` registers over the whole set, where the plain loop loads and stores every minimum for
/// every element (a blocked plain loop does not help: LLVM vectorizes it across the set, and V8
/// spills the forty-eight vectors that takes). About 4-10 % more `Checker.sketch` throughput in
/// Node (docs/PERFORMANCE.md, "wasm against native"); the same minima.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn minima_simd128(set: &[u64], a: &[u32], b: &[u32], mins: &mut [u32]) {
    use std::arch::wasm32::{i32x4_mul, u32x4, u32x4_min, u32x4_splat, v128, v128_xor};
    const V: usize = 4;
    let full = mins.len() / (4 * V) * (4 * V);
    let load = |s: &[u32], i: usize| u32x4(s[i], s[i + 1], s[i + 2], s[i + 3]);
    for j in (0..full).step_by(4 * V) {
        let va: [v128; V] = std::array::from_fn(|v| load(a, j + 4 * v));
        let vb: [v128; V] = std::array::from_fn(|v| load(b, j + 4 * v));
        let mut vm: [v128; V] = std::array::from_fn(|v| load(mins, j + 4 * v));
        for &x in set {
            let x = u32x4_splat((x ^ (x >> 32)) as u32);
            for v in 0..V {
                vm[v] = u32x4_min(vm[v], i32x4_mul(v128_xor(x, vb[v]), va[v]));
            }
        }
        for (v, m) in vm.into_iter().enumerate() {
            // SAFETY: a v128 is sixteen bytes, as four u32 are, and every bit pattern is a u32.
            let m: [u32; 4] = unsafe { std::mem::transmute(m) };
            mins[j + 4 * v..j + 4 * v + 4].copy_from_slice(&m);
        }
    }
    minima(set, &a[full..], &b[full..], &mut mins[full..]);
}

/// [`minima`] compiled for AVX2: eight lanes, and a 32-bit multiply in one instruction, where the
/// x86_64 baseline (SSE2) has four lanes and builds that multiply out of two 64-bit ones.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn minima_avx2(set: &[u64], a: &[u32], b: &[u32], mins: &mut [u32]) {
    minima(set, a, b, mins);
}

/// The distinct values of `hashes`, in the order they first come. Linear probing in a table at
/// most half full, indexed by the top bits (uniform for hashes; any values are still handled
/// correctly, only slower); 0 marks an empty place, so the value 0 is tracked on its own.
fn distinct(hashes: impl ExactSizeIterator<Item = u64>) -> Vec<u64> {
    let bits = (2 * hashes.len())
        .max(16)
        .next_power_of_two()
        .trailing_zeros();
    let mask = (1usize << bits) - 1;
    let mut table = vec![0u64; 1 << bits];
    let mut out = Vec::with_capacity(hashes.len());
    let mut zero = false;
    for h in hashes {
        if h == 0 {
            if !zero {
                zero = true;
                out.push(0);
            }
            continue;
        }
        let mut i = (h >> (64 - bits)) as usize;
        loop {
            let t = table[i];
            if t == h {
                break;
            }
            if t == 0 {
                table[i] = h;
                out.push(h);
                break;
            }
            i = (i + 1) & mask;
        }
    }
    out
}

/// Sorts and deduplicates shingle hashes into a set.
pub fn shingle_set(hashes: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut set: Vec<u64> = hashes.into_iter().collect();
    set.sort_unstable();
    set.dedup();
    set
}

impl Sketch {
    /// Sketches a set of distinct shingle hashes (see [`shingle_set`]) with `k` hash functions.
    /// Cost: O(k · |set|).
    ///
    /// # Example
    /// ```
    /// use uniqcheck::sketch::{Sketch, shingle_set};
    /// let a = Sketch::from_set(&shingle_set(1..=1000u64), 128);
    /// let b = Sketch::from_set(&shingle_set(501..=1500u64), 128);
    /// assert!((a.resemblance(&b) - 1.0 / 3.0).abs() < 0.15);
    /// ```
    pub fn from_set(set: &[u64], k: usize) -> Sketch {
        let ab = coefficients_cached(k);
        let (a, b) = (&ab.0[..k], &ab.1[..k]);
        let mut mins = vec![u32::MAX; k];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            unsafe { minima_avx2(set, a, b, &mut mins) };
        } else {
            minima(set, a, b, &mut mins);
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        minima_simd128(set, a, b, &mut mins);
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        minima(set, a, b, &mut mins);
        for m in &mut mins {
            *m = if set.is_empty() { 0 } else { *m & 0xFFFF };
        }
        Sketch {
            mins,
            set_size: set.len().min(u32::MAX as usize) as u32,
        }
    }

    /// Sketches the set of `hashes` (any order, repeats allowed): the same sketch as
    /// `Sketch::from_set(&shingle_set(hashes), k)`, without sorting. The repeats are dropped
    /// through a small open-addressing table (the hashes are uniform, so their top bits index
    /// it), in the order the hashes come: the minima do not depend on the order.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::sketch::{Sketch, shingle_set};
    /// let h = [9u64, 3, 9, 1 << 63, 0, 3];
    /// assert_eq!(Sketch::from_hashes(&h, 64), Sketch::from_set(&shingle_set(h), 64));
    /// ```
    pub fn from_hashes(hashes: &[u64], k: usize) -> Sketch {
        Sketch::from_set(&distinct(hashes.iter().copied()), k)
    }

    /// [`Self::from_hashes`] of the shingles' hashes, read from the shingles (the pipeline's
    /// case) rather than gathered in a vector first.
    pub fn from_shingles(shingles: &[crate::shingle::Shingle], k: usize) -> Sketch {
        Sketch::from_set(&distinct(shingles.iter().map(|s| s.hash)), k)
    }

    /// Estimated resemblance `|A∩B| / |A∪B|` in 0..=1. Sketches of different K compare over the
    /// shorter one's slots; two empty sets have resemblance 0.
    pub fn resemblance(&self, other: &Sketch) -> f64 {
        if self.set_size == 0 || other.set_size == 0 {
            return 0.0;
        }
        let k = self.mins.len().min(other.mins.len());
        if k == 0 {
            return 0.0;
        }
        let equal = self
            .mins
            .iter()
            .zip(&other.mins)
            .filter(|(a, b)| a == b)
            .count();
        equal as f64 / k as f64
    }

    /// Estimated containment of this set in `other`: `|A∩B| / |A|`, in 0..=1.
    pub fn containment_in(&self, other: &Sketch) -> f64 {
        let j = self.resemblance(other);
        containment_from_resemblance(j, self.set_size, other.set_size)
    }
}

/// `|A∩B| / |A|` from `J = |A∩B| / |A∪B|` and the set sizes: `|A∩B| = J (|A| + |B|) / (1 + J)`.
pub fn containment_from_resemblance(j: f64, a: u32, b: u32) -> f64 {
    if a == 0 {
        return 0.0;
    }
    let inter = j * (f64::from(a) + f64::from(b)) / (1.0 + j);
    (inter / f64::from(a)).clamp(0.0, 1.0)
}

/// Exact resemblance `|A∩B| / |A∪B|` and containment `|A∩B| / |A|` of two texts' shingle
/// hashes (any order, repeats allowed): 0 where the denominator is empty.
///
/// # Example
/// ```
/// let (r, c) = uniqcheck::sketch::exact_similarity([1, 2, 2], [2, 3, 4]);
/// assert_eq!((r, c), (0.25, 0.5));
/// ```
pub fn exact_similarity(
    a: impl IntoIterator<Item = u64>,
    b: impl IntoIterator<Item = u64>,
) -> (f64, f64) {
    let (a, b) = (shingle_set(a), shingle_set(b));
    let inter = intersection_size(&a, &b);
    let union = a.len() + b.len() - inter;
    let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    (share(inter, union), share(inter, a.len()))
}

/// Exact size of the intersection of two sorted, deduplicated sets.
pub fn intersection_size<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::fmix64;
    use proptest::prelude::*;

    fn set_of(range: std::ops::Range<u64>, salt: u64) -> Vec<u64> {
        shingle_set(range.map(|v| fmix64(v ^ salt)))
    }

    /// At K = 128 the resemblance estimate is within ±0.1 of the exact value in at least 95 % of
    /// random trials. The property is a rate, so it is measured over many trials at once (a
    /// per-case threshold over a handful of trials would fail by chance even for ideal hashing):
    /// 3,000 random pairs of sets of 20–2,000 shingles with random overlap.
    #[test]
    fn resemblance_within_0_1_in_95_percent_of_trials() {
        let mut rng = crate::hash::SplitMix64(0xC0FFEE);
        let trials = 3000;
        let mut good = 0;
        for _ in 0..trials {
            let la = 20 + rng.next_u64() % 2000;
            let lb = 20 + rng.next_u64() % 2000;
            let shared = rng.next_u64() % (la.min(lb) + 1);
            let salt = rng.next_u64();
            let a = set_of(0..la, salt);
            let b = set_of(la - shared..la - shared + lb, salt);
            let inter = intersection_size(&a, &b) as f64;
            let exact = inter / (a.len() as f64 + b.len() as f64 - inter);
            let est = Sketch::from_set(&a, 128).resemblance(&Sketch::from_set(&b, 128));
            good += ((est - exact).abs() <= 0.1) as usize;
        }
        let rate = good as f64 / trials as f64;
        assert!(
            rate >= 0.95,
            "only {:.1} % of trials within ±0.1",
            100.0 * rate
        );
    }

    proptest! {
        /// Estimates stay in range and are symmetric for any pair of sets.
        #[test]
        fn estimates_are_bounded_and_symmetric(a in proptest::collection::vec(any::<u64>(), 0..300), b in proptest::collection::vec(any::<u64>(), 0..300)) {
            let (sa, sb) = (Sketch::from_set(&shingle_set(a), 64), Sketch::from_set(&shingle_set(b), 64));
            let r = sa.resemblance(&sb);
            prop_assert!((0.0..=1.0).contains(&r));
            prop_assert_eq!(r, sb.resemblance(&sa));
            prop_assert!((0.0..=1.0).contains(&sa.containment_in(&sb)));
        }
    }

    #[test]
    fn identical_disjoint_and_contained() {
        let a = set_of(0..300, 7);
        let b = set_of(1000..1300, 7);
        let sa = Sketch::from_set(&a, 128);
        assert_eq!(sa.resemblance(&sa), 1.0);
        assert!(sa.resemblance(&Sketch::from_set(&b, 128)) < 0.05);
        let big = set_of(0..1200, 7);
        let c = sa.containment_in(&Sketch::from_set(&big, 128));
        assert!(
            c > 0.8,
            "a draft wholly inside a larger text: containment {c}"
        );
        assert_eq!(Sketch::from_set(&[], 128).resemblance(&sa), 0.0);
    }

    proptest! {
        /// Deduplicating through the table gives the sorted set's sketch and size, on uniform
        /// hashes and on values crowded into a few top bits (long probe runs), with repeats.
        #[test]
        fn from_hashes_is_from_set(
            v in proptest::collection::vec(any::<u64>(), 0..400),
            small in proptest::collection::vec(0u64..50, 0..400),
            k in 16usize..200,
        ) {
            for h in [v.clone(), small, [v.clone(), v].concat()] {
                prop_assert_eq!(Sketch::from_hashes(&h, k), Sketch::from_set(&shingle_set(h.iter().copied()), k));
                let shingles: Vec<crate::shingle::Shingle> =
                    h.iter().map(|&hash| crate::shingle::Shingle { hash, first: 0 }).collect();
                prop_assert_eq!(Sketch::from_shingles(&shingles, k), Sketch::from_hashes(&h, k));
                let mut d = distinct(h.iter().copied());
                d.sort_unstable();
                prop_assert_eq!(d, shingle_set(h));
            }
        }
    }

    #[test]
    fn cached_coefficients_are_the_stream() {
        for k in [1, 16, 128, 1024, 1025] {
            let c = coefficients_cached(k);
            assert_eq!((c.0[..k].to_vec(), c.1[..k].to_vec()), coefficients(k));
        }
    }

    // Golden values: a change here changes every stored sketch (bump the pack format version).
    const PINNED_FIRST_MINS: [u32; 4] = [24_737, 31_132, 45_650, 61_133];

    #[test]
    fn coefficients_are_fixed_across_builds() {
        // Pinned: packs written by one build must be read by another.
        let s = Sketch::from_set(&[1, 2, 3], 16);
        assert_eq!(s.mins.len(), 16);
        assert_eq!(&s.mins[..4], &PINNED_FIRST_MINS);
        assert_eq!(coefficients(2).0, coefficients(3).0[..2].to_vec());
        assert!(coefficients(64).0.iter().all(|a| a & 1 == 1));
    }
}
