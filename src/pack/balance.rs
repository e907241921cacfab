//! How the writer cuts a list of the index: its page count `P`, chosen by what a typical check of
//! the list costs (docs/FORMAT.md, "The balance").
//!
//! Pages are named by number (format 6), so a check reads no table but the manifest's few bytes:
//! of a list of `B` index bytes that it looks up `L` keys in, it reads the distinct pages its keys
//! fall in, each about `B / P` bytes plus a file's overhead `H` ([`FILE_OVERHEAD`]), and every
//! file also costs [`FILE_COST`] (`F`): a browser pays for files more than for bytes. `L` keys
//! spread evenly over `P` pages touch `T(P) = P·(1 − (1 − 1/P)^L)` of them on average, so
//! ```text
//! cost(P) = T(P)·(B/P + H + F)
//! ```
//! Once `P` is well past `L`, `T(P)` is nearly `L` and the cost still falls as pages shrink
//! (`L·B/P`): every key costs a file whatever the cut, and smaller pages only save bytes. So the
//! cost alone would cut a large index into ever smaller files; the writer stops at pages of
//! [`MIN_PAGE_BYTES`] (see there for why 256 bytes), and never makes a page over its largest page.
//! `P` is a power of two of least cost between those bounds (ties to fewer pages). Every
//! operation is IEEE arithmetic on the same inputs in the same order (integer powers by repeated
//! squaring, no `powf`), so every platform cuts the same pages.

use super::pages::MAX_PAGES;

/// What the balance counts a file as, in bytes, besides its bytes. A check's budget is 1 MB and
/// 1 s at a million documents (issue 14), and a browser pays about 3 ms of a check's wall time a
/// file on loopback, 8 files at a time (docs/PERFORMANCE.md, "At scale"): a file spends as much of
/// the budget as 3 KB.
pub const FILE_COST: f64 = 3072.0;

/// Bytes every pack file spends besides its postings: the envelope (14) and the header of a page
/// (generation, list, numbers, counts: about 14).
pub const FILE_OVERHEAD: f64 = 28.0;

/// The smallest pages the writer aims at, on average (bytes): a list is cut into no more pages
/// than gives pages of at least this size (a list smaller than it is one page).
///
/// Why 256 bytes: past about `L·(H + F)/2` index bytes a list, the cost alone would cut ever
/// smaller pages (see the module), so a floor must be chosen. A check reads about one page a
/// key whatever the floor, so the floor sets its bytes (the pages its keys touch × their size)
/// and the files a host keeps, not its files. Measured at 11,314 posts (`benches/packs/run.sh
/// 20`, docs/FORMAT.md "The balance"): with a 1 KB floor a check read 431 KB median (4.5 % of the
/// packs), with 512 bytes 283 KB (2.9 %) and 339 KB at most (3.5 %), over the 3 % issue 33
/// allows, since the pages a draft touches are larger than the average (they hold the keys the
/// draft shares with many documents); 256 bytes is the largest power of two under it. Pages of
/// 256 to 512 bytes on average keep a page's response, HTTP headers (~300 bytes) included, well
/// within one TCP segment (1,460 bytes). A million documents make 589,824 pages of 320 bytes on
/// average at this floor (docs/FORMAT.md): fewer files than their million records, not millions.
pub const MIN_PAGE_BYTES: f64 = 256.0;

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
pub fn touched(slots: f64, lookups: usize) -> f64 {
    slots * (1.0 - powi(1.0 - 1.0 / slots, lookups))
}

/// What a check looking up `lookups` keys of a list of `bytes` index bytes reads when it is cut
/// into `pages` pages ([`FILE_COST`] a file included).
pub fn cost(bytes: f64, lookups: usize, pages: u32) -> f64 {
    let p = f64::from(pages);
    touched(p, lookups) * (bytes / p + FILE_OVERHEAD + FILE_COST)
}

/// The page count the writer gives a list of `bytes` index bytes that a typical draft looks up
/// `lookups` keys in: the power of two of least [`cost`] (ties to fewer pages) with pages of at
/// most `max_page_bytes` and at least [`MIN_PAGE_BYTES`] on average (the first bound wins when
/// they cross), at most [`MAX_PAGES`].
pub fn cut(bytes: f64, lookups: usize, max_page_bytes: usize) -> u32 {
    let fewest = (bytes / max_page_bytes.max(1) as f64)
        .ceil()
        .clamp(1.0, f64::from(MAX_PAGES)) as u32;
    let fewest = fewest.next_power_of_two().min(MAX_PAGES);
    let mut best = (f64::INFINITY, fewest);
    let mut pages = fewest;
    loop {
        let here = cost(bytes, lookups.max(1), pages);
        if here < best.0 {
            best = (here, pages);
        }
        if pages >= MAX_PAGES || bytes / f64::from(pages * 2) < MIN_PAGE_BYTES {
            break;
        }
        pages *= 2;
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_index_is_one_page_and_a_large_one_pages_of_a_quarter_kilobyte_or_more() {
        assert_eq!(cut(0.0, 64, 64 * 1024), 1);
        assert_eq!(cut(100.0, 64, 64 * 1024), 1);
        assert_eq!(cut(511.0, 64, 64 * 1024), 1);
        let pages = cut(80e6, 64, 64 * 1024);
        let page = 80e6 / f64::from(pages);
        assert!((256.0..512.0).contains(&page), "{pages} {page}");
    }

    #[test]
    fn no_page_over_the_largest() {
        let pages = cut(1e9, 1, 64 * 1024);
        assert!(1e9 / f64::from(pages) <= 64.0 * 1024.0);
        // The largest wins over the smallest: pages of 512 bytes at most.
        let pages = cut(1e6, 64, 512);
        assert!(1e6 / f64::from(pages) <= 512.0, "{pages}");
        assert_eq!(cut(1e15, 64, 1024), MAX_PAGES);
    }

    /// Every platform must cut the same pages (the golden generation pins a small case). Printed
    /// with `--nocapture` for the docs.
    #[test]
    fn the_cut_of_typical_lists() {
        let cases = [
            (4.0 * 300_000.0, 64, 4096),
            (4.0 * 3_000_000.0, 64, 32768),
            (4.0 * 30_000_000.0, 64, 262144),
            (4.0 * 30_000_000.0, 130, 262144),
            // Even a list that a draft looks up 15 keys in goes to the floor once it is past
            // `L·(H + F)/2` (23 KB): pages of 391 bytes.
            (200_000.0, 15, 512),
        ];
        for (bytes, lookups, want) in cases {
            let got = cut(bytes, lookups, 64 * 1024);
            let c = cost(bytes, lookups, got);
            println!("{bytes} B, {lookups} lookups: {got} pages, cost {c}");
            assert_eq!(got, want, "{bytes} {lookups}");
        }
    }

    #[test]
    fn integer_powers_are_exact_on_small_cases() {
        assert_eq!(powi(0.5, 3), 0.125);
        assert_eq!(powi(3.0, 0), 1.0);
        assert_eq!(powi(2.0, 10), 1024.0);
    }
}
