//! Small, fixed, portable hash mixers shared by the stages.
//!
//! Every value here must be identical on every platform and in every build (native, wasm32),
//! because hashes are stored in packs and compared across machines: only wrapping integer
//! arithmetic on fixed-width types, no `std::hash` (its `RandomState` is seeded per process).

/// The finaliser of MurmurHash3 (fmix64): a bijection on u64 with full avalanche.
#[inline]
pub fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// MurmurHash3's 32-bit finalizer: a bijection of `u32` that spreads any set of keys evenly,
/// e.g. winnowed fingerprint keys, which are window minima and so crowd the small values.
pub fn fmix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x85eb_ca6b);
    x ^= x >> 13;
    x = x.wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// SplitMix64: a deterministic stream of well-distributed u64s from a seed.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next value of the stream.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        fmix64(self.0)
    }
}

/// Folds a sequence of 32-bit word hashes into one 64-bit hash, order-sensitive.
#[inline]
pub fn combine(words: &[u32]) -> u64 {
    let mut acc: u64 = 0x243f_6a88_85a3_08d3 ^ words.len() as u64;
    for &w in words {
        acc = (acc.rotate_left(27) ^ u64::from(w)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fmix64(acc)
}

/// A `Hasher` for keys that are already good hashes (shingle hashes, fingerprint keys): one
/// multiplication instead of SipHash. The multiplication spreads 32-bit keys over all 64 bits,
/// which hashbrown needs (it reads control bits from the top of the hash).
#[derive(Debug, Clone, Copy, Default)]
pub struct PrehashedHasher(u64);

impl std::hash::Hasher for PrehashedHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// A `HashMap` keyed by prehashed values.
pub type PrehashedMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<PrehashedHasher>>;

/// A word hash folded to the 16 bits a record stores: both halves of the CRC32 mixed, so no
/// half is thrown away.
///
/// # Example
/// ```
/// use uniqcheck::hash::fold;
/// assert_eq!(fold(0x1234_5678), 0x1234 ^ 0x5678);
/// ```
#[inline]
pub fn fold(hash: u32) -> u16 {
    ((hash >> 16) ^ hash) as u16
}
