//! How the writer cuts a list of the index: its page count `P` and the part size `C` of its
//! two-level page table, chosen together by what a typical check of the list costs
//! (docs/FORMAT.md, "Why pages of sparse fingerprints", the balance).
//!
//! A check of a list that looks up `L` keys reads the top table's `⌈P / C⌉` names (8 bytes
//! each), the distinct parts its keys' pages fall in (each `8·C` bytes of names plus a file's
//! overhead), and the distinct pages (each about `B / P` bytes for `B` index bytes, plus the
//! overhead). Every file also costs [`FILE_COST`]: a browser pays for files more than for bytes.
//! `L` keys spread evenly over `M` slots touch `M·(1 − (1 − 1/M)^L)` of them on average, so
//! ```text
//! cost(P, C) = 8·P/C + T(P/C)·(8·C + H + F) + T(P)·(B/P + H + F),   T(M) = M·(1 − (1 − 1/M)^L)
//! ```
//! with `H` = [`FILE_OVERHEAD`] and `F` = [`FILE_COST`], minimized over powers of two (so page and
//! part boundaries stay put while the index grows, up to a doubling: adding a document rewrites
//! only the pages its keys fall in and the parts naming them), with no page over the writer's
//! largest page. Every operation is IEEE arithmetic on the same inputs in the same order
//! (integer powers by repeated squaring, no `powf`), so every platform cuts the same pages.

/// What the balance counts a file as, in bytes, besides its bytes. A check's budget is 1 MB and
/// 1 s at a million documents (issue 14), and a browser pays about 3 ms of a check's wall time a
/// file on loopback, 8 files at a time (docs/PERFORMANCE.md, "At scale"): a file spends as much of
/// the budget as 3 KB. Measured (docs/FORMAT.md, "The balance"): with 1 KB a file, 100,000
/// documents were cut into parts of 32 pages, and a check read 102 KB in 251 files instead of
/// 274 KB in about 150; with 3 KB they keep one part a list there, and go to two levels where the
/// flat table would cost more than the parts' files (a million documents).
pub const FILE_COST: f64 = 3072.0;

/// Bytes every pack file spends besides its names or postings: the envelope (14) and the header
/// of a page or part (list, numbers, counts: about 6).
pub const FILE_OVERHEAD: f64 = 20.0;

/// `x^n` by repeated squaring: a fixed sequence of IEEE multiplications, the same everywhere.
fn powi(mut x: f64, mut n: usize) -> f64 {
    let mut acc = 1.0;
    while n > 0 {
        if n & 1 == 1 {
            acc *= x;
        }
        x *= x;
        n >>= 1;
    }
    acc
}

/// Distinct slots of `slots` that `lookups` keys spread evenly fall in, on average.
fn touched(slots: f64, lookups: usize) -> f64 {
    slots * (1.0 - powi(1.0 - 1.0 / slots, lookups))
}

/// What a check looking up `lookups` keys of a list of `bytes` index bytes reads when it is cut
/// into `pages` pages named by parts of `part_size` ([`FILE_COST`] a file included).
pub fn cost(bytes: f64, lookups: usize, pages: u32, part_size: u32) -> f64 {
    let p = f64::from(pages);
    let parts = f64::from(pages.div_ceil(part_size));
    let f = FILE_OVERHEAD + FILE_COST;
    8.0 * parts
        + touched(parts, lookups) * (8.0 * f64::from(part_size) + f)
        + touched(p, lookups) * (bytes / p + f)
}

/// The page count and part size the writer gives a list of `bytes` index bytes that a typical
/// draft looks up `lookups` keys in, no page over `max_page_bytes`: the pair of powers of two of
/// least [`cost`] (ties to fewer pages, then to larger parts).
pub fn cut(bytes: f64, lookups: usize, max_page_bytes: usize) -> (u32, u32) {
    let least = (bytes / max_page_bytes.max(1) as f64)
        .ceil()
        .clamp(1.0, f64::from(1u32 << 31)) as u32;
    let least = least.next_power_of_two();
    let mut best = (f64::INFINITY, least, least);
    for p in least.trailing_zeros()..=31 {
        let pages = 1u32 << p;
        for c in (0..=p).rev() {
            let part_size = 1u32 << c;
            let here = cost(bytes, lookups.max(1), pages, part_size);
            if here < best.0 {
                best = (here, pages, part_size);
            }
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_index_is_one_page_and_a_large_one_two_levels() {
        assert_eq!(cut(0.0, 64, 64 * 1024), (1, 1));
        assert_eq!(cut(100.0, 64, 64 * 1024), (1, 1));
        let (pages, part) = cut(80e6, 64, 64 * 1024);
        assert!(pages >= 1 << 15 && part < pages, "{pages} {part}");
        // What a check reads of the table at that size: under 100 KB (issue 33).
        let parts = f64::from(pages / part);
        let table = 8.0 * parts + touched(parts, 64) * 8.0 * f64::from(part);
        assert!(table < 100e3, "{table}");
    }

    #[test]
    fn no_page_over_the_largest() {
        let (pages, _) = cut(1e9, 1, 64 * 1024);
        assert!(1e9 / f64::from(pages) <= 64.0 * 1024.0);
    }

    /// Every platform must cut the same pages (the golden generation pins a small case; these
    /// pin the balance where it chooses two levels). Printed with `--nocapture` for the docs.
    #[test]
    fn the_cut_of_typical_lists() {
        let cases = [
            (4.0 * 300_000.0, 64, (4096, 4096)),
            (4.0 * 3_000_000.0, 64, (8192, 8192)),
            (4.0 * 30_000_000.0, 64, (262144, 64)),
            (4.0 * 30_000_000.0, 29, (131072, 64)),
            // Files dominate: 300 parts would cost more than the flat table.
            (4.0 * 30_000_000.0, 300, (65536, 65536)),
        ];
        for (bytes, lookups, want) in cases {
            let got = cut(bytes, lookups, 64 * 1024);
            let c = cost(bytes, lookups, got.0, got.1);
            println!("{bytes} B, {lookups} lookups: {got:?}, cost {c}");
            assert_eq!(got, want);
        }
    }

    #[test]
    fn integer_powers_are_exact_on_small_cases() {
        assert_eq!(powi(0.5, 3), 0.125);
        assert_eq!(powi(3.0, 0), 1.0);
        assert_eq!(powi(2.0, 10), 1024.0);
    }
}
