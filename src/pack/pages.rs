//! The retrieval index of packs: pages of sorted postings, and the two-level table that names
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
//!   out about equal. A draft fetches one page per distinct page of its keys.
//! - **A two-level table** (format 5). Naming every page in one file cost every check
//!   [`TABLE_ENTRY_BYTES`] a page of the index (459 KB at a million documents). The [`Table`]
//!   (`<16 hex>.uqt`, named by the manifest) gives per list its page count `P`, a part size `C`
//!   and the names of its [`Part`]s (`t/<16 hex>.uqp`), each naming `C` consecutive pages; a draft
//!   fetches the top and the parts of its own pages. The writer chooses `P` and `C` (powers of
//!   two, so boundaries stay put while the index grows) by what a typical draft reads of the
//!   list, files counted ([`Builder`](super::Builder); docs/FORMAT.md, "The balance").
//!
//! Every page, table part, table and record list is named by its content, the first 8 bytes of
//! its SHA-256 ([`content_id`]; pages `i/<16 hex digits>.uqi`), so a name always means the same
//! bytes and a client caches them forever. A checker verifies a part against the name the table
//! gives its place and a page against the name its part gives (`PackIndex::add`), and each says
//! where it belongs (list, numbers, counts), so a file served at the wrong place or from another
//! generation is refused.
//!
//! Byte layouts, inside the pack envelope ([`super::frame`]):
//! ```text
//! page:  u8 list | varint page number | varint pages in the list | varint key count
//!        | per key: varint key delta | varint doc count | varint doc deltas …
//! table: varint n | varint window
//!        | per list, in list order: varint page count P | varint part size C | u64 × ⌈P / C⌉
//! part:  u8 list | varint first page | varint part size C | varint page count P
//!        | u64 × min(C, P − first)
//! ```
//! Key deltas count from the page's first possible key, then from the previous key (strictly
//! ascending); doc deltas from 0, then from the previous doc (strictly ascending).

use super::bytes::{Reader, Writer};
use super::frame::{self, Kind};
use super::record::{canon_of, check_canon};
use super::PackError;
use crate::params::MAX_KEY_DOCS;
use crate::sentences::MAX_SENTENCE_KEY_DOCS;
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

/// Which list of the index a page belongs to (the byte stored in the page): fingerprints →
/// records.
pub const LIST_FINGERPRINTS: u8 = 0;
/// Longest-word hashes → records.
pub const LIST_LONG_WORDS: u8 = 1;
/// Sentence keys ([`crate::sentences::sentence_keys`], the records' by the rule drafts use) →
/// records: what finds the source of a rewritten draft.
pub const LIST_SENTENCES: u8 = 2;
/// How many lists the index has: pages carry a list number below it, and the table names the
/// pages of each, in list order. Adding a list means a new `LIST_*` number, its keys in the
/// builder, and a format version bump.
pub const LISTS: u8 = 3;

/// Bytes the table spends on each page: its 64-bit name. What a draft fetches is the table plus
/// one page per distinct page of its keys, which the writer balances with this cost.
pub const TABLE_ENTRY_BYTES: usize = 8;

/// The 64-bit name of a content-named file (index page, page table, record list): the first 8
/// bytes of the SHA-256 of `bytes`, big-endian, so that its 16 hex digits are the digest's
/// first 16. A checker verifies a page by comparing it with the name the table gives.
///
/// # Example
/// ```
/// // SHA-256("abc") = ba7816bf8f01cfea 414140de…
/// assert_eq!(uniqcheck::pack::content_id(b"abc"), 0xba78_16bf_8f01_cfea);
/// ```
pub fn content_id(bytes: &[u8]) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    let mut first = [0; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

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

/// Whether `path` (relative to a pack directory) names a file of packs:
/// `<16 hex>.uqt`, `<16 hex>.uqa`, `t/<16 hex>.uqp`, `i/<16 hex>.uqi` or a record file exactly
/// as [`record_file`] writes it. Servers check a requested path with it before touching the file system.
///
/// # Example
/// ```
/// use uniqcheck::pack::is_pack_file;
/// assert!(is_pack_file("i/0123456789abcdef.uqi"));
/// assert!(is_pack_file("t/0123456789abcdef.uqp"));
/// assert!(!is_pack_file("i/0123456789abcdef.uqp"));
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
    if let Some(part) = path.strip_prefix("t/") {
        return is_content_name(part, "uqp");
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
    /// [`LIST_FINGERPRINTS`] or [`LIST_LONG_WORDS`].
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
        frame::decode(Kind::Page, bytes, |canon, r| {
            check_canon(canon, params)?;
            read_page(r)
        })
    }
}

/// The records a key of `list` may list: a key held by more than the cap ranks nothing, so the
/// writer keeps one more than it, enough to tell ([`super::build`]), and never a key of none.
fn max_key_docs(list: u8) -> usize {
    match list {
        LIST_SENTENCES => MAX_SENTENCE_KEY_DOCS + 1,
        _ => MAX_KEY_DOCS + 1,
    }
}

/// A page's body: list, number, count, then its keys and their records.
fn read_page(r: &mut Reader<'_>) -> Result<Page, PackError> {
    let at = r.offset();
    let list = r.u8()?;
    if list >= LISTS {
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
    let mut floor = first_key(number, count);
    let what = format!("a key of page {number} of {count}");
    for _ in 0..n {
        // Below `end` ≤ 2³², so a u32.
        let key = r.ascending(floor, end, &what)?;
        page.keys.push(key as u32);
        floor = key + 1;
        let docs = r.count_in("doc count", 1, 1, max_key_docs(list))?;
        let mut next = 0;
        for _ in 0..docs {
            let d = r.ascending(next, u64::MAX, "a record number")?;
            page.docs.push(d);
            next = d + 1;
        }
        let Ok(len) = u32::try_from(page.docs.len()) else {
            return Err(r.corrupt(r.offset(), "more than 2^32 postings in a page"));
        };
        page.starts.push(len);
    }
    Ok(page)
}

/// The largest part size a table may give ([`TableList::part_size`]): page numbers are `u32`, so a
/// part of 2³¹ names already covers more pages than a list of `u32::MAX` can use twice over.
pub const MAX_PART_SIZE: u32 = 1 << 31;

/// The top level of the page table (`<16 hex>.uqt`): per list, its page count, the part size `C`
/// its writer chose (a power of two) and the names ([`content_id`]) of its [`Part`]s, in order.
/// Part `k` of a list names that list's pages `k·C .. min((k + 1)·C, P)`. A check fetches this
/// and only the parts its keys' pages fall in (docs/FORMAT.md, "Page table"), so the table part
/// of a check stays small however many pages a list has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// Words per shingle of the anchors (`Params::n`).
    pub n: usize,
    /// Winnowing window of the anchors.
    pub window: usize,
    /// One entry per list ([`LIST_FINGERPRINTS`], [`LIST_LONG_WORDS`], [`LIST_SENTENCES`]).
    pub lists: [TableList; LISTS as usize],
}

/// What the top table says of one list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableList {
    /// Pages in the list (at least 1, at most `u32::MAX`).
    pub pages: u32,
    /// Names a part holds (the last may hold fewer): a power of two, at most the list's page
    /// count rounded up to one (a larger one would only be a second encoding of one part of
    /// all pages) and at most [`MAX_PART_SIZE`].
    pub part_size: u32,
    /// The parts' names ([`part_file`]), `⌈pages / part_size⌉` of them, in page order.
    pub parts: Vec<u64>,
}

impl TableList {
    /// How many parts `pages` pages of parts of `part_size` take.
    pub fn part_count(pages: u32, part_size: u32) -> usize {
        pages.div_ceil(part_size.max(1)) as usize
    }

    /// The part (its index in [`TableList::parts`]) naming page `page`.
    pub fn part_of(&self, page: u32) -> usize {
        (page / self.part_size.max(1)) as usize
    }
}

impl Table {
    /// What the table says of `list` (None for a list this format does not have).
    pub fn list(&self, list: u8) -> Option<&TableList> {
        self.lists.get(usize::from(list))
    }

    /// Pages in `list` (0 for a list this format does not have).
    pub fn page_count(&self, list: u8) -> u32 {
        self.list(list).map_or(0, |l| l.pages)
    }

    /// Encodes the table for an index of documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Table, canon_of(params), |w: &mut Writer| {
            w.len(self.n);
            w.len(self.window);
            for list in &self.lists {
                w.varint(u64::from(list.pages));
                w.varint(u64::from(list.part_size));
                for &id in &list.parts {
                    w.u64(id);
                }
            }
        })
    }

    /// Decodes a table: every list has 1 to 2³² − 1 pages (the writer cuts at least one, and a
    /// list of none could not hold its keys), a part size that is a power of two no larger than
    /// the page count rounded up to one, and exactly as many part names as that takes. Never
    /// panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Table, PackError> {
        frame::decode(Kind::Table, bytes, |canon, r| {
            check_canon(canon, params)?;
            let n = r.varint_u32("n")? as usize;
            let window = r.varint_u32("window")? as usize;
            let mut lists: [TableList; LISTS as usize] = Default::default();
            for list in &mut lists {
                let at = r.offset();
                let pages = r.varint_u32("page count")?;
                if pages == 0 {
                    return Err(r.corrupt(at, "a list of no pages"));
                }
                let at = r.offset();
                let part_size = r.varint_u32("part size")?;
                check_part_size(r, at, part_size, pages)?;
                let count = TableList::part_count(pages, part_size);
                // Checked against the bytes left before anything is allocated for it.
                let names = r.take(count.saturating_mul(TABLE_ENTRY_BYTES))?;
                list.parts = names
                    .chunks_exact(TABLE_ENTRY_BYTES)
                    .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
                    .collect();
                list.pages = pages;
                list.part_size = part_size;
            }
            Ok(Table { n, window, lists })
        })
    }
}

/// Refuses a part size that is not a power of two, or larger than `pages` rounded up to one (or
/// than [`MAX_PART_SIZE`]): the writer never makes one, and a larger size than the list needs
/// would be a second encoding of the same single part.
fn check_part_size(r: &Reader<'_>, at: usize, size: u32, pages: u32) -> Result<(), PackError> {
    let most = pages.checked_next_power_of_two().unwrap_or(MAX_PART_SIZE);
    if !size.is_power_of_two() || size > most {
        return Err(r.corrupt(
            at,
            format!("part size {size} is not a power of two up to {most} for {pages} pages"),
        ));
    }
    Ok(())
}

/// A part of the page table (`t/<16 hex>.uqp`): the names of `part_size` consecutive pages of one
/// list, from page `first` (the last part of a list holds fewer). It says where it belongs (list,
/// first page, part size, pages in the list), so a checker refuses a part served at another
/// place or from another generation's table as it refuses such a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Part {
    /// The list its pages belong to.
    pub list: u8,
    /// The number of its first page: a multiple of `part_size`, below `pages`.
    pub first: u32,
    /// The table's part size for the list (a power of two).
    pub part_size: u32,
    /// Pages in the list.
    pub pages: u32,
    /// Names ([`page_file`]) of pages `first ..`, `min(part_size, pages - first)` of them.
    pub names: Vec<u64>,
}

impl Part {
    /// Encodes the part for an index of documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Part, canon_of(params), |w: &mut Writer| {
            w.u8(self.list);
            w.varint(u64::from(self.first));
            w.varint(u64::from(self.part_size));
            w.varint(u64::from(self.pages));
            for &id in &self.names {
                w.u64(id);
            }
        })
    }

    /// Decodes a part: a known list, a part size as a table may give it, a first page that
    /// starts a part and lies in the list, then exactly the names that part holds. Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Part, PackError> {
        frame::decode(Kind::Part, bytes, |canon, r| {
            check_canon(canon, params)?;
            let at = r.offset();
            let list = r.u8()?;
            if list >= LISTS {
                return Err(r.corrupt(at, format!("unknown list {list}")));
            }
            let at = r.offset();
            let first = r.varint_u32("first page")?;
            let at_size = r.offset();
            let part_size = r.varint_u32("part size")?;
            let at_pages = r.offset();
            let pages = r.varint_u32("page count")?;
            if pages == 0 {
                return Err(r.corrupt(at_pages, "a list of no pages"));
            }
            check_part_size(r, at_size, part_size, pages)?;
            if first >= pages || first % part_size != 0 {
                return Err(r.corrupt(
                    at,
                    format!("page {first} of {pages} does not start a part of {part_size}"),
                ));
            }
            let count = part_size.min(pages - first) as usize;
            let names = r.take(count.saturating_mul(TABLE_ENTRY_BYTES))?;
            let names = names
                .chunks_exact(TABLE_ENTRY_BYTES)
                .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
                .collect();
            Ok(Part {
                list,
                first,
                part_size,
                pages,
                names,
            })
        })
    }
}

/// A table part's file name for the 64-bit name `id` (the first 8 bytes of its SHA-256).
pub fn part_file(id: u64) -> String {
    format!("{PART_DIR}{id:016x}.uqp")
}

/// The folder of table parts within a pack directory.
const PART_DIR: &str = "t/";

/// Whether `name` (as [`crate::PackIndex::needed`] gives it) is a table part rather than a page
/// or a record: what a caller counts as the table's bytes.
pub fn is_table_part(name: &str) -> bool {
    name.starts_with(PART_DIR)
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

    /// Decodes a list: record numbers strictly ascending (below `u64::MAX`, whose successor the
    /// encoder could not compute). Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<RecordList, PackError> {
        frame::decode(Kind::Records, bytes, |canon, r| {
            check_canon(canon, params)?;
            let n = r.count("record count", 1)?;
            let mut revs = Vec::with_capacity(n);
            let mut next = 0;
            for _ in 0..n {
                let rev = r.ascending(next, u64::MAX, "a record number")?;
                revs.push(rev);
                next = rev + 1;
            }
            Ok(RecordList { revs })
        })
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
            let page = Page::from_sorted(LIST_FINGERPRINTS, number, count, &postings);
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
            let bytes = Page::from_sorted(LIST_FINGERPRINTS, 0, 1, &postings).encode(&p);
            prop_assert!(Page::decode(&bytes[..cut.min(bytes.len() - 1)], &p).is_err());
            let mut flipped = bytes.clone();
            flipped[flip % bytes.len()] ^= 1 << bit;
            prop_assert!(Page::decode(&flipped, &p).is_err());
        }
    }

    #[test]
    fn a_key_outside_its_page_is_corrupt_and_tables_round_trip() {
        let p = Params::default();
        let page = Page::from_sorted(LIST_FINGERPRINTS, 0, 2, &[(u32::MAX, 1)]);
        let err = Page::decode(&page.encode(&p), &p).unwrap_err();
        assert_eq!(err.code(), "pack_corrupt", "{err}");
        let list = |pages: u32, part_size: u32, parts: Vec<u64>| TableList {
            pages,
            part_size,
            parts,
        };
        let table = Table {
            n: 4,
            window: 16,
            lists: [
                list(3, 2, vec![1, 2]),
                list(1, 1, vec![9]),
                list(5, 8, vec![4]),
            ],
        };
        let bytes = table.encode(&p);
        assert_eq!(Table::decode(&bytes, &p).unwrap(), table);
        assert_eq!(table.page_count(LIST_LONG_WORDS), 1);
        assert_eq!(table.page_count(LIST_SENTENCES), 5);
        assert_eq!(table.page_count(LISTS), 0);
        assert_eq!(table.lists[0].part_of(2), 1);
        // 8 bytes a part: envelope (14), n, window, three page counts and part sizes, 4 names.
        assert_eq!(bytes.len(), 14 + 8 + 4 * TABLE_ENTRY_BYTES);
        let part = Part {
            list: LIST_FINGERPRINTS,
            first: 2,
            part_size: 2,
            pages: 3,
            names: vec![7],
        };
        assert_eq!(Part::decode(&part.encode(&p), &p).unwrap(), part);
        let list = RecordList {
            revs: vec![0, 5, 1 << 40],
        };
        assert_eq!(RecordList::decode(&list.encode(&p), &p).unwrap(), list);
    }

    /// A page body in a correct envelope, as a hostile writer could make it.
    fn page_of_body(body: impl FnOnce(&mut Writer)) -> Vec<u8> {
        frame::write(Kind::Page, canon_of(&Params::default()), body)
    }

    /// Every key is held by 1 to cap + 1 records (1,001; 33 for a sentence key): a key of no
    /// record would be a second encoding of a page without it, and the writer keeps no more.
    #[test]
    fn keys_of_no_records_or_past_the_cap_are_refused() {
        let p = Params::default();
        let page = |list: u8, docs: usize| {
            page_of_body(|w| {
                w.u8(list);
                w.varint(0);
                w.varint(1);
                w.varint(1);
                w.varint(7);
                w.len(docs);
                (0..docs).for_each(|_| w.varint(0));
            })
        };
        for (list, cap) in [
            (LIST_FINGERPRINTS, MAX_KEY_DOCS),
            (LIST_LONG_WORDS, MAX_KEY_DOCS),
            (LIST_SENTENCES, MAX_SENTENCE_KEY_DOCS),
        ] {
            for docs in [1, cap + 1] {
                let bytes = page(list, docs);
                let back = Page::decode(&bytes, &p).unwrap();
                assert_eq!(back.get(7).len(), docs);
                assert_eq!(back.encode(&p), bytes);
            }
            for docs in [0, cap + 2] {
                let err = Page::decode(&page(list, docs), &p).unwrap_err();
                assert_eq!(err.code(), "pack_corrupt", "list {list}, {docs}: {err}");
                assert!(err.to_string().contains("doc count"), "{err}");
            }
        }
    }

    /// Record number 2⁶⁴ − 1 was accepted, and a delta of 0 after it repeated it (the next
    /// floor saturated): a list or page holding it twice, which the encoder cannot write (its
    /// `rev + 1` overflows).
    #[test]
    fn the_record_number_2_pow_64_minus_1_is_refused() {
        let p = Params::default();
        let list = |revs: &[u64]| {
            frame::write(Kind::Records, canon_of(&p), |w| {
                w.len(revs.len());
                revs.iter().for_each(|&d| w.varint(d));
            })
        };
        let top = list(&[u64::MAX - 1]);
        assert_eq!(RecordList::decode(&top, &p).unwrap().revs, [u64::MAX - 1]);
        for deltas in [&[u64::MAX][..], &[u64::MAX, 0], &[u64::MAX - 1, 0, 0]] {
            let err = RecordList::decode(&list(deltas), &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "{deltas:?}: {err}");
        }
        let page = |deltas: &[u64]| {
            page_of_body(|w| {
                w.u8(LIST_FINGERPRINTS);
                w.varint(0);
                w.varint(1);
                w.varint(1);
                w.varint(0);
                w.len(deltas.len());
                deltas.iter().for_each(|&d| w.varint(d));
            })
        };
        assert_eq!(
            Page::decode(&page(&[u64::MAX - 1]), &p).unwrap().docs,
            [u64::MAX - 1]
        );
        for deltas in [&[u64::MAX][..], &[u64::MAX, 0]] {
            let err = Page::decode(&page(deltas), &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "{deltas:?}: {err}");
        }
    }

    /// Every list of a table has a page: the writer cuts at least one, and a list of none
    /// cannot hold its keys. A part size is a power of two no larger than the list needs, and
    /// the table holds exactly the parts it takes.
    #[test]
    fn a_table_of_no_pages_odd_parts_or_missing_names_is_refused() {
        let p = Params::default();
        let good = || Table {
            n: 4,
            window: 16,
            lists: [
                TableList {
                    pages: 4,
                    part_size: 2,
                    parts: vec![1, 2],
                },
                TableList {
                    pages: 1,
                    part_size: 1,
                    parts: vec![3],
                },
                TableList {
                    pages: 3,
                    part_size: 4,
                    parts: vec![5],
                },
            ],
        };
        assert!(Table::decode(&good().encode(&p), &p).is_ok());
        type Damage = fn(&mut TableList);
        let damages: [Damage; 5] = [
            |l| {
                l.pages = 0;
                l.parts.clear();
            },
            |l| l.part_size = 3,
            |l| l.part_size = 0,
            |l| l.part_size = l.pages.next_power_of_two() * 2,
            |l| l.parts.push(9),
        ];
        for (i, damage) in damages.iter().enumerate() {
            for list in 0..usize::from(LISTS) {
                let mut table = good();
                damage(&mut table.lists[list]);
                let err = Table::decode(&table.encode(&p), &p).unwrap_err();
                assert!(
                    matches!(err.code(), "pack_corrupt" | "pack_truncated"),
                    "damage {i}, list {list}: {err}"
                );
            }
        }
        // One name short: truncated.
        let mut table = good();
        table.lists[2].parts.clear();
        assert!(Table::decode(&table.encode(&p), &p).is_err());
    }

    /// A part says where it belongs, and only places a table can give are accepted: a known
    /// list, a first page that starts a part and lies in the list, exactly its names.
    #[test]
    fn parts_out_of_place_or_of_the_wrong_length_are_refused() {
        let p = Params::default();
        let good = || Part {
            list: LIST_SENTENCES,
            first: 4,
            part_size: 4,
            pages: 6,
            names: vec![1, 2],
        };
        assert_eq!(Part::decode(&good().encode(&p), &p).unwrap(), good());
        type Damage = fn(&mut Part);
        let damages: [Damage; 7] = [
            |x| x.list = LISTS,
            |x| x.first = 2,
            |x| x.first = 8,
            |x| x.part_size = 3,
            |x| x.part_size = 16,
            |x| x.names.push(3),
            |x| {
                x.pages = 0;
                x.first = 0;
            },
        ];
        for (i, damage) in damages.iter().enumerate() {
            let mut part = good();
            damage(&mut part);
            let err = Part::decode(&part.encode(&p), &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "damage {i}: {err}");
        }
        let mut short = good();
        short.names.pop();
        let err = Part::decode(&short.encode(&p), &p).unwrap_err();
        assert_eq!(err.code(), "pack_truncated", "{err}");
    }
}
