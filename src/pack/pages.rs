//! The retrieval index of packs: pages of sorted postings, named by their generation and their
//! place, and the small table that says how many there are.
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
//! - **Pages named by number** (format 6). A page's name is its generation and its place,
//!   `i/<generation, 16 hex>/<list>-<number, hex>.uqi` ([`page_file`]), so a check computes the
//!   names of its pages from the [`Table`] alone (`<16 hex>.uqt`, named by the manifest: the
//!   generation id and per list its page count `P`) and fetches them in one round: no table
//!   parts (format 5), no table growing with the index (format 4). The writer chooses `P` (a
//!   power of two) by what a typical draft reads of the list, files counted
//!   ([`Builder`](super::Builder); docs/FORMAT.md, "The balance").
//!
//! The generation id is content: the first 8 bytes of the SHA-256 of the generation's pages in
//! order (each encoded with a generation of 0; [`super::Builder::finish`]), so two generations
//! with different pages never share a page name, and a name still means the same bytes
//! forever: a client caches pages like every other pack file. Every page carries its generation,
//! list, number and page count, and a checker refuses a page whose generation or place is not
//! the one its name and the table give (`PackIndex::add`): a stale page of an older generation
//! served under the current name is refused. The table and the record list are still named by
//! their content ([`content_id`]), which the checker verifies.
//!
//! Byte layouts, inside the pack envelope ([`super::frame`]):
//! ```text
//! page:  u64 generation | u8 list | varint page number | varint pages in the list
//!        | varint key count | per key: varint key delta | varint doc count | varint doc deltas …
//! table: varint n | varint window | u64 generation | per list, in list order: varint page count P
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

/// The most pages a list may have (2²²): a table saying more is refused, so a hostile table
/// cannot make "download everything" name billions of files. At the balance's smallest pages
/// (256 bytes, [`MIN_PAGE_BYTES`](super::MIN_PAGE_BYTES)) it is 1 GB of postings a list, some
/// 8 million documents; a larger index gets larger pages.
pub const MAX_PAGES: u32 = 1 << 22;

/// The 64-bit name of a content-named file (page table, record list): the first 8 bytes of the
/// SHA-256 of `bytes`, big-endian, so that its 16 hex digits are the digest's first 16. A
/// checker verifies a table and a record list by comparing it with the name the manifest gives;
/// a generation id is the same function over the generation's pages.
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

/// The file of page `number` of `list` in the generation `generation`:
/// `i/<generation, 16 hex>/<list>-<number, hex without leading zeros>.uqi`.
///
/// # Example
/// ```
/// use uniqcheck::pack::page_file;
/// assert_eq!(page_file(0x0123_4567_89ab_cdef, 2, 0x1f), "i/0123456789abcdef/2-1f.uqi");
/// ```
pub fn page_file(generation: u64, list: u8, number: u32) -> String {
    format!("i/{generation:016x}/{list}-{number:x}.uqi")
}

/// The generation, list and page number of a page file's path, when it is exactly what
/// [`page_file`] writes for a list of this format (lowercase hex, no leading zeros).
///
/// # Example
/// ```
/// use uniqcheck::pack::parse_page_file;
/// assert_eq!(parse_page_file("i/0123456789abcdef/2-1f.uqi"), Some((0x0123_4567_89ab_cdef, 2, 31)));
/// assert_eq!(parse_page_file("i/0123456789abcdef/2-01f.uqi"), None);
/// assert_eq!(parse_page_file("i/0123456789abcdef/3-0.uqi"), None);
/// ```
pub fn parse_page_file(path: &str) -> Option<(u64, u8, u32)> {
    let (generation, file) = path.strip_prefix("i/")?.split_once('/')?;
    let (list, number) = file.strip_suffix(".uqi")?.split_once('-')?;
    let hex = |s: &str| s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if generation.len() != 16 || !hex(generation) || !hex(number) || number.len() > 8 {
        return None;
    }
    let generation = u64::from_str_radix(generation, 16).ok()?;
    let list = list.parse::<u8>().ok().filter(|&l| l < LISTS)?;
    let number = u32::from_str_radix(number, 16).ok()?;
    (page_file(generation, list, number) == path).then_some((generation, list, number))
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
/// `<16 hex>.uqt`, `<16 hex>.uqa`, `<16 hex>.uqbl` (a bilingual table), a page file exactly as [`page_file`] writes it or a record
/// file exactly as [`record_file`] writes it. Servers check a requested path with it before
/// touching the file system.
///
/// # Example
/// ```
/// use uniqcheck::pack::is_pack_file;
/// assert!(is_pack_file("i/0123456789abcdef/0-0.uqi"));
/// assert!(is_pack_file("i/0123456789abcdef/2-3ff.uqi"));
/// assert!(!is_pack_file("i/0123456789abcdef.uqi"));
/// assert!(!is_pack_file("t/0123456789abcdef.uqp"));
/// assert!(is_pack_file("0123456789abcdef.uqbl"));
/// assert!(!is_pack_file("../0123456789abcdef.uqbl"));
/// assert!(!is_pack_file("i/0123456789abcdef/0-00.uqi"));
/// assert!(!is_pack_file("i/0123456789ABCDEF/0-0.uqi"));
/// assert!(!is_pack_file("i/../0123456789abcdef/0-0.uqi"));
/// assert!(is_pack_file("r/48/12345.uqr"));
/// assert!(!is_pack_file("r/0/12345.uqr"));
/// assert!(!is_pack_file("manifest.json"));
/// ```
pub fn is_pack_file(path: &str) -> bool {
    use super::manifest::is_content_name;
    if path.starts_with("i/") {
        return parse_page_file(path).is_some();
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
    ["uqt", "uqa", "uqbl"]
        .iter()
        .any(|extension| is_content_name(path, extension))
}

/// One page of postings: sorted keys, each with the ascending record numbers holding it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    /// The id of its generation ([`Table::generation`]; 0 while the writer computes it).
    pub generation: u64,
    /// [`LIST_FINGERPRINTS`], [`LIST_LONG_WORDS`] or [`LIST_SENTENCES`].
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
    /// A page from `(key, doc)` postings sorted by key then doc, all of this page, of generation
    /// 0 (the writer stamps the generation once every page is made: [`super::Builder::finish`]).
    pub fn from_sorted(list: u8, number: u32, count: u32, postings: &[(u32, u64)]) -> Page {
        let mut page = Page {
            generation: 0,
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
            w.u64(self.generation);
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

/// A page's body: generation, list, number, count, then its keys and their records.
fn read_page(r: &mut Reader<'_>) -> Result<Page, PackError> {
    let generation = r.u64()?;
    let at = r.offset();
    let list = r.u8()?;
    if list >= LISTS {
        return Err(r.corrupt(at, format!("unknown list {list}")));
    }
    let number = r.varint_u32("page number")?;
    let count = r.varint_u32("page count")?;
    if number >= count || count > MAX_PAGES {
        return Err(r.corrupt(at, format!("page {number} of {count}")));
    }
    // A key takes at least 2 bytes (delta and doc count).
    let n = r.count("key count", 2)?;
    let mut page = Page {
        generation,
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

/// The page table (`<16 hex>.uqt`, named by the manifest): the anchors' `n` and window, the
/// generation id its pages carry and are named by, and per list its page count. A check computes
/// the names of the pages its keys fall in from it ([`page_file`]; docs/FORMAT.md, "Page
/// table"): it is the same few bytes however large the index grows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// Words per shingle of the anchors (`Params::n`).
    pub n: usize,
    /// Winnowing window of the anchors.
    pub window: usize,
    /// The generation id: the first 8 bytes of the SHA-256 of the generation's pages, in list
    /// and page order, each encoded with a generation of 0 ([`super::Builder::finish`]).
    pub generation: u64,
    /// Pages of each list ([`LIST_FINGERPRINTS`], [`LIST_LONG_WORDS`], [`LIST_SENTENCES`]): 1 to
    /// [`MAX_PAGES`] each.
    pub pages: [u32; LISTS as usize],
}

impl Table {
    /// Pages in `list` (0 for a list this format does not have).
    pub fn page_count(&self, list: u8) -> u32 {
        self.pages.get(usize::from(list)).copied().unwrap_or(0)
    }

    /// The file of page `number` of `list` of this generation.
    pub fn page_file(&self, list: u8, number: u32) -> String {
        page_file(self.generation, list, number)
    }

    /// Encodes the table for an index of documents analysed with `params`.
    pub fn encode(&self, params: &Params) -> Vec<u8> {
        frame::write(Kind::Table, canon_of(params), |w: &mut Writer| {
            w.len(self.n);
            w.len(self.window);
            w.u64(self.generation);
            for &pages in &self.pages {
                w.varint(u64::from(pages));
            }
        })
    }

    /// Decodes a table: every list has 1 to [`MAX_PAGES`] pages (the writer cuts at least one,
    /// and a list of none could not hold its keys). Never panics.
    pub fn decode(bytes: &[u8], params: &Params) -> Result<Table, PackError> {
        frame::decode(Kind::Table, bytes, |canon, r| {
            check_canon(canon, params)?;
            let n = r.varint_u32("n")? as usize;
            let window = r.varint_u32("window")? as usize;
            let generation = r.u64()?;
            let mut pages = [0; LISTS as usize];
            for list in &mut pages {
                let at = r.offset();
                let count = r.varint_u32("page count")?;
                if count == 0 || count > MAX_PAGES {
                    return Err(
                        r.corrupt(at, format!("a list of {count} pages (1 to {MAX_PAGES})"))
                    );
                }
                *list = count;
            }
            Ok(Table {
                n,
                window,
                generation,
                pages,
            })
        })
    }
}

/// The file of the bilingual table ([`crate::bilingual`]) whose 64-bit name is `id`
/// ([`content_id`] of its bytes), as packs written with one hold it beside the page table.
pub fn bilingual_file(id: u64) -> String {
    format!("{id:016x}.uqbl")
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
        let table = Table {
            n: 4,
            window: 16,
            generation: 0xfeed_0000_0000_beef,
            pages: [3, 1, 5],
        };
        let bytes = table.encode(&p);
        assert_eq!(Table::decode(&bytes, &p).unwrap(), table);
        assert_eq!(table.page_count(LIST_LONG_WORDS), 1);
        assert_eq!(table.page_count(LIST_SENTENCES), 5);
        assert_eq!(table.page_count(LISTS), 0);
        assert_eq!(
            table.page_file(LIST_SENTENCES, 4),
            "i/feed00000000beef/2-4.uqi"
        );
        // Envelope (14), n, window, the generation, three page counts: the same few bytes at
        // any size.
        assert_eq!(bytes.len(), 14 + 2 + 8 + 3);
        let mut page = Page::from_sorted(LIST_SENTENCES, 1, 4, &[(u32::MAX / 4 + 9, 3)]);
        page.generation = table.generation;
        assert_eq!(Page::decode(&page.encode(&p), &p).unwrap(), page);
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
                w.u64(0);
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
                w.u64(0);
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

    /// Every list of a table has 1 to `MAX_PAGES` pages; a page says a place a table can give.
    #[test]
    fn a_table_of_no_pages_or_too_many_is_refused() {
        let p = Params::default();
        let good = || Table {
            n: 4,
            window: 16,
            generation: 7,
            pages: [4, 1, MAX_PAGES],
        };
        assert!(Table::decode(&good().encode(&p), &p).is_ok());
        for list in 0..usize::from(LISTS) {
            for bad in [0, MAX_PAGES + 1, u32::MAX] {
                let mut table = good();
                table.pages[list] = bad;
                let err = Table::decode(&table.encode(&p), &p).unwrap_err();
                assert_eq!(err.code(), "pack_corrupt", "list {list}, {bad}: {err}");
            }
        }
        for (number, count) in [(0, MAX_PAGES + 1), (4, 4)] {
            let page = Page::from_sorted(LIST_FINGERPRINTS, number, count, &[]);
            let err = Page::decode(&page.encode(&p), &p).unwrap_err();
            assert_eq!(err.code(), "pack_corrupt", "{number} of {count}: {err}");
        }
    }

    /// Page paths are exactly what `page_file` writes: servers refuse every other path.
    #[test]
    fn page_paths_are_strict() {
        let good = "i/00000000000000ff/1-a.uqi";
        assert_eq!(parse_page_file(good), Some((255, 1, 10)));
        assert_eq!(
            parse_page_file(&page_file(u64::MAX, 2, u32::MAX)),
            Some((u64::MAX, 2, u32::MAX))
        );
        for bad in [
            "i/00000000000000ff/1-A.uqi",
            "i/00000000000000FF/1-a.uqi",
            "i/00000000000000ff/1-0a.uqi",
            "i/00000000000000ff/01-a.uqi",
            "i/00000000000000ff/+1-a.uqi",
            "i/00000000000000ff/1-+a.uqi",
            "i/00000000000000ff/3-a.uqi",
            "i/00000000000000ff/1-a.uqi/",
            "i/00000000000000ff/1-.uqi",
            "i/00000000000000ff/-a.uqi",
            "i/00000000000000ff/1-100000000.uqi",
            "i/0000000000000ff/1-a.uqi",
            "i/00000000000000ff/../1-a.uqi",
            "i/../00000000000000ff/1-a.uqi",
            "i/00000000000000ff/1-a.uqp",
            "i/00000000000000ff1-a.uqi",
            "/i/00000000000000ff/1-a.uqi",
        ] {
            assert_eq!(parse_page_file(bad), None, "{bad}");
            assert!(!is_pack_file(bad), "{bad}");
        }
    }
}
