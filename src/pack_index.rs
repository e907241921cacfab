//! Index stage over version-2 packs: the backend a browser checks through, holding only the
//! pack files a draft needed.
//!
//! A [`PackIndex`] starts from the manifest and the page table, and answers the engine's
//! [`Index`] questions from the index pages and records added to it. It does no I/O: the caller
//! asks [`PackIndex::needed`] which files a check of a draft still lacks, fetches them, hands them
//! to [`PackIndex::add`], and asks again until nothing is missing (two rounds at most: the pages
//! of the draft's anchors, then the records of its candidates). Then [`crate::index::check`] gives
//! the answer the store and the full texts give: the same ranking, the same alignment.
//!
//! Guarantees:
//! - **Only what the draft needs.** A draft looks up its own anchors (its folded shingles
//!   winnowed with the manifest's window, as every document's were), so it fetches one page per
//!   distinct anchor page and one record per candidate; a re-check fetches only what is new.
//! - **Any shared run of `window + n - 1` content words is found** (winnowing's guarantee), and a
//!   short draft's longest words find short copies as in the store.
//! - **Hostile files are refused**, never trusted: every file is decoded with all checks, a page
//!   must be the one the table names at its place, and nothing here panics.
//! - Exact duplicates are not looked up by their hash: they share every anchor, so they rank
//!   first anyway (a text too short to have an anchor is found by its longest words).

use crate::document::Document;
use crate::index::{self, DocId, Index, List};
use crate::pack::{
    anchors, is_pack_file, page_file, page_of, record_file, spread, trailing_crc, Manifest,
    PackError, Page, Record, RecordList, Table, LIST_KEYS, LIST_LONG_WORDS,
};
use crate::pair::{Draft, Source};
use crate::{CheckOptions, Params};
use std::collections::HashMap;

/// The index of one generation of version-2 packs, filled on demand.
#[derive(Debug, Clone)]
pub struct PackIndex {
    manifest: Manifest,
    table: Table,
    /// Where each page id sits: (list, number).
    places: HashMap<u64, (u8, u32)>,
    pages: HashMap<u64, Page>,
    records: HashMap<u64, Record>,
    loaded_bytes: u64,
}

impl PackIndex {
    /// Opens the packs that `manifest` describes, given the bytes of its page table. The
    /// manifest must suit drafts analysed with its own parameters by this build.
    ///
    /// Errors: [`Manifest::check_compatible`]'s, and a table that does not decode or does not
    /// match the manifest.
    pub fn open(manifest: Manifest, table: &[u8]) -> Result<PackIndex, PackError> {
        let params = manifest.params;
        manifest.check_compatible(&params)?;
        params.validate().map_err(|e| PackError::Manifest {
            what: e.to_string(),
        })?;
        let table = Table::decode(table, &params)?;
        if table.n != params.n || table.window != manifest.window {
            return Err(PackError::Manifest {
                what: format!(
                    "its page table is for n = {}, window {}, the manifest says n = {}, window {}",
                    table.n, table.window, params.n, manifest.window
                ),
            });
        }
        let mut places = HashMap::new();
        for list in [LIST_KEYS, LIST_LONG_WORDS] {
            for (number, &id) in table.pages(list).iter().enumerate() {
                places.insert(id, (list, number as u32));
            }
        }
        Ok(PackIndex {
            manifest,
            table,
            places,
            pages: HashMap::new(),
            records: HashMap::new(),
            loaded_bytes: 0,
        })
    }

    /// The manifest these packs were opened from.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Bytes of the pages and records added so far.
    pub fn loaded_bytes(&self) -> u64 {
        self.loaded_bytes
    }

    /// Records added so far.
    pub fn loaded_records(&self) -> usize {
        self.records.len()
    }

    /// The files a check of `draft` (analysed with the manifest's parameters) still needs, as
    /// paths relative to the manifest: first the index pages its keys fall in; once those are
    /// all added, the records of its candidates. Empty when a check can answer.
    ///
    /// Errors: none in practice (ranking runs only once every page it reads is added).
    pub fn needed(&self, draft: &Document, opts: &CheckOptions) -> Result<Vec<String>, PackError> {
        let draft = Draft::new(draft, &self.manifest.params);
        let mut pages: Vec<u64> = Vec::new();
        let keys = self.draft_keys(&draft);
        pages.extend(self.page_ids(LIST_KEYS, &keys));
        if draft.doc.is_short(opts) {
            pages.extend(self.page_ids(LIST_LONG_WORDS, &draft.doc.short.hashes));
        }
        pages.sort_unstable();
        pages.dedup();
        pages.retain(|id| !self.pages.contains_key(id));
        if !pages.is_empty() {
            return Ok(pages.into_iter().map(page_file).collect());
        }
        let (ids, _) = index::checked_candidates(self, &draft, opts)?;
        Ok(ids
            .into_iter()
            .filter(|id| !self.records.contains_key(id))
            .map(record_file)
            .collect())
    }

    /// Every index page: with [`PackIndex::records_to_fetch`], what "download everything" (offline
    /// use) fetches.
    pub fn all_pages(&self) -> Vec<String> {
        let mut all: Vec<String> = [LIST_KEYS, LIST_LONG_WORDS]
            .iter()
            .flat_map(|&l| self.table.pages(l).iter().copied())
            .filter(|id| !self.pages.contains_key(id))
            .map(page_file)
            .collect();
        all.dedup();
        all
    }

    /// The record files of a record list (the manifest's `records` file) not added yet.
    pub fn records_to_fetch(&self, list: &[u8]) -> Result<Vec<String>, PackError> {
        let list = RecordList::decode(list, &self.manifest.params)?;
        Ok(list
            .revs
            .into_iter()
            .filter(|rev| !self.records.contains_key(rev))
            .map(record_file)
            .collect())
    }

    /// Adds a fetched file, by the path [`PackIndex::needed`] gave: an index page (`i/….uqi`) or
    /// a record (`r/…/….uqr`). Adding a file twice is harmless.
    ///
    /// Errors: a name that is neither, a page the table does not name, and every decoding error.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), PackError> {
        let params = self.manifest.params;
        if let Some(id) = parse_page(name) {
            let Some(&(list, number)) = self.places.get(&id) else {
                return Err(PackError::Manifest {
                    what: format!("the page table does not name {name}"),
                });
            };
            let page = Page::decode(bytes, &params)?;
            let crc = self.table.crcs(list).get(number as usize).copied();
            if crc != Some(trailing_crc(bytes)) {
                return Err(PackError::Corrupt {
                    offset: bytes.len().saturating_sub(4),
                    what: format!(
                        "{name} is not the page the table names (another generation's, or a stale \
                         copy); fetch it again"
                    ),
                });
            }
            let count = self.table.pages(list).len() as u32;
            if (page.list, page.number, page.count) != (list, number, count) {
                return Err(PackError::Corrupt {
                    offset: 0,
                    what: format!(
                        "{name} holds page {} of {} of list {}, the table puts it at page {number} \
                         of {count} of list {list}",
                        page.number, page.count, page.list
                    ),
                });
            }
            if self.pages.insert(id, page).is_none() {
                self.loaded_bytes += bytes.len() as u64;
            }
            return Ok(());
        }
        if let Some(rev) = parse_record(name) {
            let record = Record::decode(bytes, &params)?;
            if self.records.insert(rev, record).is_none() {
                self.loaded_bytes += bytes.len() as u64;
            }
            return Ok(());
        }
        Err(PackError::Manifest {
            what: format!("{name:?} is not a pack file name (i/….uqi or r/…/….uqr)"),
        })
    }

    /// The ids of the pages of `list` that `keys` fall in.
    fn page_ids<'a>(&'a self, list: u8, keys: &'a [u32]) -> impl Iterator<Item = u64> + 'a {
        let pages = self.table.pages(list);
        keys.iter().filter_map(move |&k| {
            pages
                .get(page_of(spread(k), pages.len() as u32) as usize)
                .copied()
        })
    }
}

/// The page id of `i/<16 hex>.uqi`.
fn parse_page(name: &str) -> Option<u64> {
    let hex = name.strip_prefix("i/")?.strip_suffix(".uqi")?;
    is_pack_file(name)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The record number of `r/<hex>/<hex>.uqr`, when the name is exactly [`record_file`]'s.
fn parse_record(name: &str) -> Option<u64> {
    let hex = name.rsplit_once('/')?.1.strip_suffix(".uqr")?;
    (name.starts_with("r/") && is_pack_file(name))
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

impl Index for PackIndex {
    type Error = PackError;

    fn params(&self) -> &Params {
        &self.manifest.params
    }

    /// The draft's own anchors: its folded shingles winnowed with the manifest's window.
    fn draft_keys(&self, draft: &Draft<'_>) -> Vec<u32> {
        anchors(&draft.words, self.manifest.window)
    }

    fn postings(
        &self,
        list: List,
        keys: &[u32],
        _limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<(), PackError> {
        let list = match list {
            List::Keys => LIST_KEYS,
            List::LongWords => LIST_LONG_WORDS,
        };
        let pages = self.table.pages(list);
        for &key in keys {
            let stored = spread(key);
            let Some(&id) = pages.get(page_of(stored, pages.len() as u32) as usize) else {
                continue;
            };
            let Some(page) = self.pages.get(&id) else {
                return Err(PackError::Missing {
                    file: page_file(id),
                });
            };
            let docs = page.get(stored);
            if !docs.is_empty() {
                visit(key, docs);
            }
        }
        Ok(())
    }

    fn exact_documents(&self, _exact: u64, _docs: &mut Vec<DocId>) -> Result<(), PackError> {
        Ok(())
    }

    fn records(&self, ids: &[DocId], visit: &mut dyn FnMut(Source<'_>)) -> Result<(), PackError> {
        for &id in ids {
            match self.records.get(&id) {
                Some(r) => visit(Source::Record(r)),
                None => {
                    return Err(PackError::Missing {
                        file: record_file(id),
                    })
                }
            }
        }
        Ok(())
    }
}
