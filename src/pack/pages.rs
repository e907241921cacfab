//! The retrieval index of version-2 packs: pages of sorted postings, and the table that names
//! them.
//!
//! A draft has hundreds of keys where a search box has three words, so pages cut by key prefix
//! alone would each hold a few of them and a draft would fetch nearly every page. Two choices
//! keep what a draft fetches small (docs/FORMAT.md, "Why pages of sparse anchors"):
//! - **Sparse anchors.** The index holds each document's *anchors*: its folded shingles
//!   winnowed with a wide window `W` (manifest `window`), about `2 / (W + 1)` of its words. The
//!   draft looks up only its own anchors, chosen by the same rule, and any shared run of
//!   `W + n - 1` content words still shares one (winnowing's guarantee). A 1,000-word draft
//!   looks up about 70 keys instead of 550.
//! - **Pages by key range.** Anchors are window minima, so their keys crowd the small values:
//!   pages store each key spread by a bijection ([`spread`], MurmurHash3's finalizer), and page
//!   `p` of `P` holds the spread keys `s` with `⌊s·P / 2³²⌋ = p` ([`page_of`]), so pages come
//!   out about equal. A draft fetches one page per distinct page of its keys, and the table
//!   costs 12 bytes a page, so the writer balances the two: `P ≈ √(L·B / 12)` pages (rounded up
//!   to a power of two, so boundaries stay put as the index grows) for index
//!   bytes `B` and `L` keys looked up by a typical draft ([`Builder`](super::Builder)).
//!
//! Page files are named by their content (`i/<16 hex digits>.uqi`), so a name always means the
//! same bytes and a client caches them forever; the [`Table`] (`<16 hex>.uqt`), named the same
//! way, lists the pages of both lists in order, and the manifest names the table.
//!
//! Byte layouts, inside the version-2 envelope ([`super::frame`]):
//! ```text
//! page:  u8 list | varint page number | varint pages in the list | varint key count
//!        | per key: varint key delta | varint doc count | varint doc deltas …
//! table: varint n | varint window | varint key pages, u64 × that | varint long-word pages, u64 × that
//! ```
//! Key deltas count from the page's first possible key, then from the previous key (strictly
//! ascending); doc deltas from 0, then from the previous doc (strictly ascending).

use super::bytes::Writer;
use super::frame::{self, Kind};
use super::record::{canon_of, check_canon};
use super::PackError;
use crate::align::Words;
use crate::anchor::winnow;
use crate::Params;

/// The largest page a writer makes (pages are usually far smaller: see [`Builder`](super::Builder)).
pub const PAGE_BYTES: usize = 64 * 1024;

/// The key a page stores for `key`: spread evenly over `u32` by a bijection, so pages of key
/// ranges come out about equal even for window minima.
///
/// # Example
/// ```
/// use uniqcheck::pack::spread;
/// assert_ne!(spread(1), 1);
/// assert_ne!(spread(1), spread(2));
/// ```
pub fn spread(key: u32) -> u32 {
    crate::hash::fmix32(key)
}

/// Which list of the index a page belongs to (the byte stored in the page).
pub const LIST_KEYS: u8 = 0;
/// Longest-word hashes → records.
pub const LIST_LONG_WORDS: u8 = 1;

/// The page of `count` pages that holds `key`.
///
/// # Example
/// ```
/// use uniqcheck::pack::page_of;
/// assert_eq!(page_of(0, 4), 0);
/// assert_eq!(page_of(u32::MAX, 4), 3);
/// assert_eq!(page_of(1 << 31, 4), 2);
/// ```
pub fn page_of(key: u32, count: u32) -> u32 {
    ((u64::from(key) * u64::from(count.max(1))) >> 32) as u32
}

/// The first key page `page` of `count` may hold.
fn first_key(page: u32, count: u32) -> u64 {
    // The smallest k with ⌊k·count / 2³²⌋ = page.
    (u64::from(page) << 32).div_ceil(u64::from(count.max(1)))
}

/// A page file's name for the 64-bit name `id` (the first 8 bytes of its SHA-256).
pub fn page_file(id: u64) -> String {
    format!("i/{id:016x}.uqi")
}

/// The table file's name for the 64-bit name `id`.
pub fn table_file(id: u64) -> String {
    format!("{id:016x}.uqt")
}

/// The file of the record numbered `rev`: records are spread over folders of 1,024.
///
/// # Example
/// ```
/// assert_eq!(uniqcheck::pack::record_file(0x12345), "r/48/12345.uqr");
/// ```
pub fn record_file(rev: u64) -> String {
    format!("r/{:x}/{rev:x}.uqr", rev >> 10)
}

/// Whether `path` (relative to a pack directory) names a content-named file of version-2 packs:
/// `<16 hex>.uqt`, `<16 hex>.uqa`, `i/<16 hex>.uqi` or a record file exactly as [`record_file`]
/// writes it. Servers check a requested path with it before touching the file system.
///
/// # Example
/// ```
/// use uniqcheck::pack::is_pack_file;
/// assert!(is_pack_file("i/0123456789abcdef.uqi"));
/// assert!(is_pack_file("r/48/12345.uqr"));
/// assert!(!is_pack_file("r/0/12345.uqr"));
/// assert!(!is_pack_file("i/../0123456789abcdef.uqi"));
/// assert!(!is_pack_file("manifest.json"));
/// ```
pub fn is_pack_file(path: &str) -> bool {
    use super::manifest::is_content_name;
    if let Some(page) = path.strip_prefix("i/") {
        return is_content_name(page, "uqi");
    }
    if let Some(record) = path.strip_prefix("r/") {
        let rev = record
            .rsplit_once('/')
            .and_then(|(_, file)| file.strip_suffix(".uqr"))
            .filter(|hex| {
                hex.len() <= 16 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            })
            .and_then(|hex| u64::from_str_radix(hex, 16).ok());
        return rev.is_some_and(|rev| record_file(rev) == path);
    }
    is_content_name(path, "uqt") || is_content_name(path, "uqa")
}

/// One page of postings: sorted keys, each with the ascending record numbers holding it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    /// [`LIST_KEYS`] or [`LIST_LONG_WORDS`].
    pub list: u8,
    /// Its number among the list's pages.
    pub number: u32,
    /// How many pages the list has.
    pub count: u32,
    /// Keys, strictly ascending, all with `page_of(key, count) == number`.
    pub keys: Vec<u32>,
    /// `docs[starts[i]..starts[i + 1]]` hold `keys[i]`; `starts.len() == keys.len() + 1`.
    pub starts: Vec<u32>,
    /// Record numbers, ascending within each key.
    pub docs: Vec<u64>,
}

impl Page {
    /// A page from `(key, doc)` postings sorted by key then doc, all of this page.
    pub fn from_sorted(list: u8, number: u32, count: u32, postings: &[(u32, u64)]) -> Page {
        let mut page = Page {
            list,
            number,
            count,
            starts: vec![0],
            ..Page::default()
        };
        for group in postings.chunk_by(|a, b| a.0 == b.0) {
            page.keys.push(group[0].0);
            page.docs.extend(group.iter().map(|&(_, d)| d));
            page.starts.push(page.docs.len() as u32);
        }
        page
    }

    /// The records holding `key` (empty when none does).
    pub fn get(&self, key: u32) -> &[u64] {
        match self.keys.binary_search(&key) {
            Ok(i) => &self.docs[self.starts[i] as usize..self.starts[i + 1] as usize],
            Err(_) => &[],
        }
    }

    /// Encodes the page for an index of documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Page, canon_of(params), |w: &mut Writer| {
            w.u8(self.list);
            w.varint(u64::from(self.number));
            w.varint(u64::from(self.count));
            w.len(self.keys.len());
            let mut prev = first_key(self.number, self.count);
            for (i, &key) in self.keys.iter().enumerate() {
                w.varint(u64::from(key) - prev);
                prev = u64::from(key) + 1;
                let docs = &self.docs[self.starts[i] as usize..self.starts[i + 1] as usize];
                w.len(docs.len());
                let mut last = 0;
                for &d in docs {
                    w.varint(d - last);
                    last = d + 1;
                }
            }
        })
    }

    /// Decodes a page and checks every rule of its layout (keys in the page's range and
    /// ascending, docs ascending) and its canonicalization. Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Page, PackError> {
        let (canon, mut r) = frame::read(Kind::Page, bytes)?;
        check_canon(canon, params)?;
        let at = r.offset();
        let list = r.u8()?;
        if list > LIST_LONG_WORDS {
            return Err(r.corrupt(at, format!("unknown list {list}")));
        }
        let number = r.varint_u32("page number")?;
        let count = r.varint_u32("page count")?;
        if number >= count {
            return Err(r.corrupt(at, format!("page {number} of {count}")));
        }
        // A key takes at least 2 bytes (delta and doc count).
        let n = r.count("key count", 2)?;
        let mut page = Page {
            list,
            number,
            count,
            keys: Vec::with_capacity(n),
            starts: Vec::with_capacity(n + 1),
            docs: Vec::new(),
        };
        page.starts.push(0);
        let end = first_key(number + 1, count);
        let mut prev = first_key(number, count);
        for _ in 0..n {
            let at = r.offset();
            let key = prev.checked_add(r.varint()?).filter(|&k| k < end);
            let Some(key) = key else {
                return Err(r.corrupt(at, format!("a key outside page {number} of {count}")));
            };
            page.keys.push(key as u32);
            prev = key + 1;
            let docs = r.count("doc count", 1)?;
            let mut last = 0u64;
            for _ in 0..docs {
                let at = r.offset();
                let Some(d) = last.checked_add(r.varint()?) else {
                    return Err(r.corrupt(at, "a record number past 2^64"));
                };
                page.docs.push(d);
                last = d.saturating_add(1);
            }
            let Ok(len) = u32::try_from(page.docs.len()) else {
                return Err(r.corrupt(at, "more than 2^32 postings in a page"));
            };
            page.starts.push(len);
        }
        frame::finish(&r)?;
        Ok(page)
    }
}

/// The page table: the names of every page of both lists, in page order, each with the CRC32 its
/// file ends with, so a page from another generation (or any other file) served under a listed
/// name is refused, without the engine computing SHA-256.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// Words per shingle of the anchors (`Params::n`).
    pub n: usize,
    /// Winnowing window of the anchors.
    pub window: usize,
    /// Names ([`page_file`]) of the key pages.
    pub keys: Vec<u64>,
    /// Names of the long-word pages.
    pub long_words: Vec<u64>,
    /// The CRC32 each key page ends with.
    pub key_crcs: Vec<u32>,
    /// The CRC32 each long-word page ends with.
    pub long_word_crcs: Vec<u32>,
}

impl Table {
    /// The pages of `list`.
    pub fn pages(&self, list: u8) -> &[u64] {
        if list == LIST_KEYS {
            &self.keys
        } else {
            &self.long_words
        }
    }

    /// The CRC32s the pages of `list` end with.
    pub fn crcs(&self, list: u8) -> &[u32] {
        if list == LIST_KEYS {
            &self.key_crcs
        } else {
            &self.long_word_crcs
        }
    }

    /// Encodes the table for an index of documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Table, canon_of(params), |w: &mut Writer| {
            w.len(self.n);
            w.len(self.window);
            for list in [LIST_KEYS, LIST_LONG_WORDS] {
                let (ids, crcs) = (self.pages(list), self.crcs(list));
                w.len(ids.len());
                for (i, &id) in ids.iter().enumerate() {
                    w.u64(id);
                    w.u32(crcs.get(i).copied().unwrap_or(0));
                }
            }
        })
    }

    /// Decodes a table. Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Table, PackError> {
        let (canon, mut r) = frame::read(Kind::Table, bytes)?;
        check_canon(canon, params)?;
        let n = r.varint_u32("n")? as usize;
        let window = r.varint_u32("window")? as usize;
        let mut lists = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
        for (ids, crcs) in &mut lists {
            let count = r.count("page count", 12)?;
            ids.reserve(count);
            crcs.reserve(count);
            for _ in 0..count {
                ids.push(r.u64()?);
                crcs.push(r.u32()?);
            }
        }
        frame::finish(&r)?;
        let [(keys, key_crcs), (long_words, long_word_crcs)] = lists;
        Ok(Table {
            n,
            window,
            keys,
            long_words,
            key_crcs,
            long_word_crcs,
        })
    }
}

/// The CRC32 a version-2 file ends with (0 for bytes too short to have one).
pub fn trailing_crc(bytes: &[u8]) -> u32 {
    bytes
        .last_chunk::<4>()
        .map_or(0, |&b| u32::from_le_bytes(b))
}

/// The anchors of a document as a pack index holds them: its folded shingles winnowed with
/// `window`, as keys (sorted, distinct). The writer and [`crate::PackIndex`] use this one rule.
pub fn anchors(words: &Words, window: usize) -> Vec<u32> {
    let mut keys: Vec<u32> = winnow(&words.shingles, window)
        .iter()
        .map(|f| f.key)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The file of the record list whose 64-bit name is `id`.
pub fn records_file(id: u64) -> String {
    format!("{id:016x}.uqa")
}

/// Every live record number of a generation, ascending: what "download everything" fetches, and
/// what a writer keeps when it deletes the files of older generations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordList {
    /// Record numbers, strictly ascending.
    pub revs: Vec<u64>,
}

impl RecordList {
    /// Encodes the list (`varint count | varint deltas`) for documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Records, canon_of(params), |w: &mut Writer| {
            w.len(self.revs.len());
            let mut last = 0;
            for &rev in &self.revs {
                w.varint(rev - last);
                last = rev + 1;
            }
        })
    }

    /// Decodes a list. Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<RecordList, PackError> {
        let (canon, mut r) = frame::read(Kind::Records, bytes)?;
        check_canon(canon, params)?;
        let n = r.count("record count", 1)?;
        let mut revs = Vec::with_capacity(n);
        let mut last = 0u64;
        for _ in 0..n {
            let at = r.offset();
            let Some(rev) = last.checked_add(r.varint()?) else {
                return Err(r.corrupt(at, "a record number past 2^64"));
            };
            revs.push(rev);
            last = rev.saturating_add(1);
        }
        frame::finish(&r)?;
        Ok(RecordList { revs })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pages_round_trip_and_find_their_keys(
            count in 1u32..50,
            raw in prop::collection::vec((any::<u32>(), 0u64..5_000), 0..300),
        ) {
            let p = Params::default();
            let number = page_of(raw.first().map_or(0, |r| r.0), count);
            let mut postings: Vec<(u32, u64)> =
                raw.into_iter().filter(|&(k, _)| page_of(k, count) == number).collect();
            postings.sort_unstable();
            postings.dedup();
            let page = Page::from_sorted(LIST_KEYS, number, count, &postings);
            let back = Page::decode(&page.encode(&p), &p).unwrap();
            prop_assert_eq!(&back, &page);
            for &(k, d) in &postings {
                prop_assert!(back.get(k).contains(&d));
            }
        }

        #[test]
        fn damaged_pages_are_refused(cut in 0usize..400, flip in 0usize..400, bit in 0u8..8) {
            let p = Params::default();
            let postings: Vec<(u32, u64)> = (0..40u32).map(|i| (i * 1000, u64::from(i))).collect();
            let bytes = Page::from_sorted(LIST_KEYS, 0, 1, &postings).encode(&p);
            prop_assert!(Page::decode(&bytes[..cut.min(bytes.len() - 1)], &p).is_err());
            let mut flipped = bytes.clone();
            flipped[flip % bytes.len()] ^= 1 << bit;
            prop_assert!(Page::decode(&flipped, &p).is_err());
        }
    }

    #[test]
    fn a_key_outside_its_page_is_corrupt_and_tables_round_trip() {
        let p = Params::default();
        let page = Page::from_sorted(LIST_KEYS, 0, 2, &[(u32::MAX, 1)]);
        let err = Page::decode(&page.encode(&p), &p).unwrap_err();
        assert_eq!(err.code(), "pack_corrupt", "{err}");
        let table = Table {
            n: 4,
            window: 16,
            keys: vec![1, 2, 3],
            long_words: vec![9],
            key_crcs: vec![7, 8, 9],
            long_word_crcs: vec![1],
        };
        assert_eq!(Table::decode(&table.encode(&p), &p).unwrap(), table);
        assert_eq!(table.pages(LIST_LONG_WORDS), [9]);
        let list = RecordList {
            revs: vec![0, 5, 1 << 40],
        };
        assert_eq!(RecordList::decode(&list.encode(&p), &p).unwrap(), list);
    }
}
