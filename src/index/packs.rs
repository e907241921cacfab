//! Index stage over packs (format version 5): the backend a browser checks through, holding only
//! the pack files a draft needed.
//!
//! A [`PackIndex`] starts from the manifest and the top of the page table, and answers the
//! engine's [`Index`] questions from the table parts, index pages and records added to it. It
//! does no I/O: the caller asks [`PackIndex::needed`] which files a check of a draft still lacks,
//! fetches them, hands them to [`PackIndex::add`], and asks again until nothing is missing (three
//! rounds on a first check: the table parts naming the pages of the draft's keys, those pages,
//! then the records of its candidates; callers loop until `needed` is empty rather than count
//! rounds). Then [`crate::check::check`] gives the answer the store and the full texts give: the
//! same ranking, the same alignment.
//!
//! Guarantees:
//! - **Only what the draft needs.** A draft looks up its own anchors (its folded shingles
//!   winnowed with the manifest's window, as every document's were) and its sentence keys
//!   ([`crate::sentences::sentence_keys`]), so it fetches one table part per distinct part
//!   naming those pages, one page per distinct page and one record per candidate; a re-check
//!   fetches only what is new.
//! - **Any shared run of `window + n - 1` content words is found** (winnowing's guarantee), and a
//!   short draft's longest words find short copies as in the store.
//! - **Hostile files are refused**, never trusted: every file is decoded with all checks, and
//!   nothing here panics. The table and the record list must hash to the names the manifest
//!   gives them, a table part to the name the table gives its place and a page to the name its
//!   part gives its place (the first 8 bytes of its SHA-256, [`content_id`];
//!   [`PackError::NameMismatch`] otherwise), and each says where it belongs (list, number,
//!   counts) and is refused elsewhere, so a stale or foreign copy served under a listed name is
//!   refused. Records are named by number and checked by their
//!   CRC32 and canonicalization, as every file is.
//! - Exact duplicates are not looked up by their hash: they share every anchor, so they rank
//!   first anyway (a text too short to have an anchor is found by its longest words).

use crate::document::Document;
use crate::index::{self, DocId, Index, List};
use crate::keys::Keys;
use crate::pack::{
    content_id, is_pack_file, page_file, page_of, part_file, record_file, spread, Manifest,
    PackError, Page, Part, Record, RecordList, Table, LISTS, LIST_FINGERPRINTS, LIST_LONG_WORDS,
    LIST_SENTENCES,
};
use crate::pair::{Draft, Source};
use crate::{CheckOptions, Params};
use std::collections::HashMap;

/// Candidates a check through packs aligns when its options set no bound of their own (the
/// `Checker` of the npm package fills `CheckOptions::max_candidates` with it): each is one record
/// file to fetch. At a million documents, with hundreds of near-copies of a quoted post, the
/// engine's default of 500 meant about 600 files, 2.3 s a check and a page of 185 MB; 50 finds the
/// same quoted posts, the figure within 0.7 points, with about 150 files (docs/FORMAT.md, "Why a
/// bound on records"). When more match, the report says how many (`capped`, `unchecked`).
pub const PACK_MAX_CANDIDATES: usize = 50;

/// The index of one generation of packs, filled on demand.
#[derive(Debug, Clone)]
pub struct PackIndex {
    manifest: Manifest,
    table: Table,
    /// Where each table part sits: (list, index among the list's parts).
    part_places: HashMap<u64, (u8, usize)>,
    /// The table parts added, by (list, index among the list's parts): each its page names.
    parts: HashMap<(u8, usize), Vec<u64>>,
    /// Where each page a part added names sits: (list, number).
    places: HashMap<u64, (u8, u32)>,
    pages: HashMap<u64, Page>,
    records: HashMap<u64, Record>,
    loaded_bytes: u64,
}

impl PackIndex {
    /// Opens the packs that `manifest` describes, given the bytes of the top of its page table. The
    /// manifest must suit drafts analysed with its own parameters by this build.
    ///
    /// Errors: [`Manifest::check_compatible`]'s, a table that does not decode or does not match
    /// the manifest ([`PackError::Manifest`]), or does not hash to the name the manifest gives it
    /// ([`PackError::NameMismatch`]).
    pub fn open(manifest: Manifest, table_bytes: &[u8]) -> Result<PackIndex, PackError> {
        let params = manifest.params;
        manifest.check_compatible(&params)?;
        params.validate().map_err(|e| PackError::Manifest {
            what: e.to_string(),
        })?;
        let table = Table::decode(table_bytes, &params)?;
        if table.n != params.n || table.window != manifest.window {
            return Err(PackError::Manifest {
                what: format!(
                    "its page table is for n = {}, window {}, the manifest says n = {}, window {}",
                    table.n, table.window, params.n, manifest.window
                ),
            });
        }
        verify_name(&manifest.table.name, table_bytes)?;
        let mut part_places = HashMap::new();
        for list in 0..LISTS {
            for (k, &id) in table.lists[usize::from(list)].parts.iter().enumerate() {
                part_places.insert(id, (list, k));
            }
        }
        Ok(PackIndex {
            manifest,
            table,
            part_places,
            parts: HashMap::new(),
            places: HashMap::new(),
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
    /// paths relative to the manifest: the table parts naming the pages its keys fall in and,
    /// of the parts already added, the pages; once every page is added, the records of its
    /// candidates. Empty when a check can answer. A first check takes three rounds (parts,
    /// pages, records); call it again after adding what it named, until it names nothing.
    ///
    /// Errors: none in practice (ranking runs only once every page it reads is added).
    pub fn needed(&self, draft: &Document, opts: &CheckOptions) -> Result<Vec<String>, PackError> {
        let draft = Draft::new(draft, &self.manifest.params);
        let mut places: Vec<(u8, u32)> = Vec::new();
        let keys = Keys::of(&draft.words, &self.manifest.params);
        places.extend(self.page_places(LIST_FINGERPRINTS, &keys.fingerprints));
        places.extend(self.page_places(LIST_SENTENCES, &keys.sentences));
        if draft.doc.is_short(opts) {
            places.extend(self.page_places(LIST_LONG_WORDS, &draft.doc.short.hashes));
        }
        places.sort_unstable();
        places.dedup();
        let missing = self.missing(places);
        if !missing.is_empty() {
            return Ok(missing);
        }
        let (ids, _) = index::checked_candidates(self, &draft, opts)?;
        Ok(ids
            .into_iter()
            .filter(|id| !self.records.contains_key(id))
            .map(record_file)
            .collect())
    }

    /// Of the pages at `places` (sorted, distinct), what is still missing: the parts naming the
    /// pages of parts not added, and the pages of parts added. Parts first, then pages, each
    /// part and page once.
    fn missing(&self, places: impl IntoIterator<Item = (u8, u32)>) -> Vec<String> {
        let mut parts: Vec<u64> = Vec::new();
        let mut pages: Vec<u64> = Vec::new();
        for (list, number) in places {
            let Some(table) = self.table.list(list) else {
                continue;
            };
            let k = table.part_of(number);
            match self.parts.get(&(list, k)) {
                Some(names) => {
                    let first = k as u32 * table.part_size;
                    if let Some(&id) = names.get((number - first) as usize) {
                        if !self.pages.contains_key(&id) {
                            pages.push(id);
                        }
                    }
                }
                None => parts.extend(table.parts.get(k).copied()),
            }
        }
        parts.dedup();
        pages.sort_unstable();
        pages.dedup();
        parts
            .into_iter()
            .map(part_file)
            .chain(pages.into_iter().map(page_file))
            .collect()
    }

    /// What "download everything" (offline use) still lacks of the index: every table part not
    /// added yet and every page of the parts added. With [`PackIndex::records_to_fetch`], what
    /// it fetches; call it again after adding what it named (the pages of the parts it named
    /// come next), until it names nothing.
    pub fn all_pages(&self) -> Vec<String> {
        // By the parts the table names and the names the added parts hold, never by the page
        // counts: a count is a varint, and a hostile table's 2³² − 1 pages would be a loop of
        // that length, where names take 8 bytes of a verified file each.
        let mut parts = Vec::new();
        let mut pages = Vec::new();
        for list in 0..LISTS {
            for (k, &id) in self.table.lists[usize::from(list)].parts.iter().enumerate() {
                match self.parts.get(&(list, k)) {
                    Some(names) => pages.extend(
                        names
                            .iter()
                            .filter(|page| !self.pages.contains_key(page))
                            .copied(),
                    ),
                    None => parts.push(id),
                }
            }
        }
        pages.sort_unstable();
        pages.dedup();
        parts
            .into_iter()
            .map(part_file)
            .chain(pages.into_iter().map(page_file))
            .collect()
    }

    /// The record files of a record list (the manifest's `records` file) not added yet.
    ///
    /// Errors: every decoding error, and a list that does not hash to the name the manifest
    /// gives it ([`PackError::NameMismatch`]).
    pub fn records_to_fetch(&self, list: &[u8]) -> Result<Vec<String>, PackError> {
        let revs = RecordList::decode(list, &self.manifest.params)?.revs;
        verify_name(&self.manifest.records.name, list)?;
        Ok(revs
            .into_iter()
            .filter(|rev| !self.records.contains_key(rev))
            .map(record_file)
            .collect())
    }

    /// Adds a fetched file, by the path [`PackIndex::needed`] gave: a table part (`t/….uqp`), an
    /// index page (`i/….uqi`) or a record (`r/…/….uqr`). Adding a file twice is harmless.
    ///
    /// Errors: a name that is none of these, a part the table does not name or a page no part
    /// added names ([`PackError::Manifest`]), every decoding error, a part or page whose bytes
    /// do not hash to its name ([`PackError::NameMismatch`]: a damaged or stale copy) or that
    /// sits elsewhere in the table than it says ([`PackError::Corrupt`]).
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), PackError> {
        let params = self.manifest.params;
        if let Some(id) = parse_named(name, "t/", ".uqp") {
            return self.add_part(id, name, bytes);
        }
        if let Some(id) = parse_named(name, "i/", ".uqi") {
            let Some(&(list, number)) = self.places.get(&id) else {
                return Err(PackError::Manifest {
                    what: format!("no table part added names {name}"),
                });
            };
            let page = Page::decode(bytes, &params)?;
            // After decoding, so that what is not a page at all (an HTML error page, a truncated
            // download) is named for what it is; before the page is used, so that a page of
            // another generation, well-formed but stale, is refused.
            verify_name(name, bytes)?;
            let count = self.table.page_count(list);
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
            what: format!("{name:?} is not a pack file name (t/….uqp, i/….uqi or r/…/….uqr)"),
        })
    }

    /// Adds the table part `name` (whose id is `id`): the table must name it, its bytes must
    /// hash to that name, and it must say it is the part the table puts there.
    fn add_part(&mut self, id: u64, name: &str, bytes: &[u8]) -> Result<(), PackError> {
        let Some(&(list, k)) = self.part_places.get(&id) else {
            return Err(PackError::Manifest {
                what: format!("the page table does not name {name}"),
            });
        };
        let part = Part::decode(bytes, &self.manifest.params)?;
        // As for pages: what is not a part at all is named for what it is, and a well-formed
        // part of another generation is refused before a name of it is believed.
        verify_name(name, bytes)?;
        let table = &self.table.lists[usize::from(list)];
        let first = k as u32 * table.part_size;
        let place = (list, first, table.part_size, table.pages);
        if (part.list, part.first, part.part_size, part.pages) != place {
            return Err(PackError::Corrupt {
                offset: 0,
                what: format!(
                    "{name} names pages from {} of {} of list {} in parts of {}, the table puts \
                     it at page {first} of {} of list {list} in parts of {}",
                    part.first, part.pages, part.list, part.part_size, table.pages, table.part_size
                ),
            });
        }
        if self.parts.contains_key(&(list, k)) {
            return Ok(());
        }
        for (i, &page) in part.names.iter().enumerate() {
            self.places.insert(page, (list, first + i as u32));
        }
        self.parts.insert((list, k), part.names);
        self.loaded_bytes += bytes.len() as u64;
        Ok(())
    }

    /// The places (list, page number) of the pages of `list` that `keys` fall in.
    fn page_places<'a>(
        &'a self,
        list: u8,
        keys: &'a [u32],
    ) -> impl Iterator<Item = (u8, u32)> + 'a {
        let count = self.table.page_count(list);
        keys.iter()
            .filter(move |_| count > 0)
            .map(move |&k| (list, page_of(spread(k), count)))
    }

    /// The id of the page at `number` of `list`, once the part naming it is added.
    fn page_id(&self, list: u8, number: u32) -> Option<u64> {
        let table = self.table.list(list)?;
        let k = table.part_of(number);
        let names = self.parts.get(&(list, k))?;
        names
            .get((number - k as u32 * table.part_size) as usize)
            .copied()
    }
}

/// Refuses `bytes` fetched as `name` (a page `i/<16 hex>.uqi`, a table `<16 hex>.uqt`, a record
/// list `<16 hex>.uqa`) unless the first 8 bytes of their SHA-256 are the 16 hex digits of the
/// name: computing it costs the engine about as much as decoding the file, and it lets the table
/// hold nothing but names (docs/FORMAT.md, "Page table").
fn verify_name(name: &str, bytes: &[u8]) -> Result<(), PackError> {
    let stem = name.rsplit('/').next().unwrap_or(name);
    let expected = stem
        .get(..16)
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| PackError::Manifest {
            what: format!("{name:?} is not named by its content"),
        })?;
    let found = content_id(bytes);
    if found != expected {
        return Err(PackError::NameMismatch {
            file: name.to_owned(),
            expected,
            found,
        });
    }
    Ok(())
}

/// The id of a content-named file `<prefix><16 hex><suffix>` (a part `t/….uqp`, a page
/// `i/….uqi`).
fn parse_named(name: &str, prefix: &str, suffix: &str) -> Option<u64> {
    let hex = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
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

    fn postings(
        &self,
        list: List,
        keys: &[u32],
        _limit: usize,
        visit: &mut dyn FnMut(u32, &[DocId]),
    ) -> Result<(), PackError> {
        let list = match list {
            List::Fingerprints => LIST_FINGERPRINTS,
            List::LongWords => LIST_LONG_WORDS,
            List::Sentences => LIST_SENTENCES,
        };
        let count = self.table.page_count(list);
        if count == 0 {
            return Ok(());
        }
        for &key in keys {
            let stored = spread(key);
            let number = page_of(stored, count);
            let Some(id) = self.page_id(list, number) else {
                let k = self.table.lists[usize::from(list)].part_of(number);
                let part = self.table.lists[usize::from(list)].parts.get(k).copied();
                return Err(PackError::Missing {
                    file: part.map_or_else(|| format!("page {number} of list {list}"), part_file),
                });
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
            visit(Source::Record(self.record(id)?));
        }
        Ok(())
    }

    /// All of them in one slice, once every one is here (a missing one fails the check before
    /// any is aligned, as [`Index::records`] fails at it).
    fn records_all(
        &self,
        ids: &[DocId],
        visit: &mut dyn FnMut(&[Source<'_>]),
    ) -> Result<(), PackError> {
        let sources = ids
            .iter()
            .map(|&id| self.record(id).map(Source::Record))
            .collect::<Result<Vec<_>, _>>()?;
        visit(&sources);
        Ok(())
    }
}

impl PackIndex {
    /// The record of `id`, which must have been added.
    fn record(&self, id: DocId) -> Result<&Record, PackError> {
        self.records.get(&id).ok_or_else(|| PackError::Missing {
            file: record_file(id),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{Builder, FileRef, PAGE_BYTES};
    use crate::{Format, SourceInfo};

    const PAGES: &str = "Pages are named by the first eight bytes of their hash, and the \
        checker hashes every page it is given before it believes a single posting of it.";

    /// A generation of two documents: its manifest and files by name.
    fn packs() -> (Manifest, HashMap<String, Vec<u8>>) {
        packs_of(&[
            PAGES,
            "A stale copy of a page from another generation is refused, because its bytes no \
             longer hash to the name the table gives its place.",
        ])
    }

    /// A generation of `texts`: its manifest and files by name.
    fn packs_of(texts: &[&str]) -> (Manifest, HashMap<String, Vec<u8>>) {
        let params = Params::default();
        let mut builder = Builder::new(params);
        let mut files = HashMap::new();
        for (rev, text) in texts.iter().enumerate() {
            let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
            let info = SourceInfo::default();
            let (name, bytes) = builder.add(rev as u64, &Record::from_document(info, &doc));
            files.insert(name, bytes);
        }
        let done = builder.finish(PAGE_BYTES);
        let manifest = Manifest::new(&done, 0, 0);
        files.extend(done.files);
        (manifest, files)
    }

    #[test]
    fn a_rewritten_text_finds_its_source_in_the_packs_as_in_a_corpus() {
        let source = include_str!("../../tests/data/rewrite-source.txt");
        let (manifest, files) = packs_of(&[PAGES, source]);
        let params = manifest.params;
        let mut packs = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
        let text = include_str!("../../tests/data/rewrite-draft.txt");
        let draft = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
        let opts = CheckOptions::default();
        // Round 1 fetches the table parts, round 2 pages of the sentence list too, round 3 the
        // source's record.
        let mut rounds = 0;
        loop {
            let needed = packs.needed(&draft, &opts).unwrap();
            if needed.is_empty() {
                break;
            }
            rounds += 1;
            assert!(rounds <= 3, "{needed:?}");
            for name in needed {
                packs.add(&name, &files[&name]).unwrap();
            }
        }
        assert_eq!(packs.loaded_records(), 1);
        let report = crate::check::check_document(&packs, &draft, &opts).unwrap();
        assert_eq!(report.sources.len(), 1);
        assert!(!report.rewrites.is_empty());
        assert!(report.originality < 10.0, "{}", report.originality);
        let mut corpus = crate::Corpus::new(params).unwrap();
        for t in [PAGES, source] {
            let doc = Document::analyze(t, Format::Plain, &params, 1 << 20).unwrap();
            corpus.add_record(SourceInfo::default(), &doc);
        }
        let records = corpus.check_document(&draft, &opts);
        assert_eq!(
            (report.uniqueness, report.originality, report.rewrites.len()),
            (
                records.uniqueness,
                records.originality,
                records.rewrites.len()
            )
        );
    }

    /// The report of `draft` checked through packs of `texts`, fetching what `needed` names
    /// until nothing is missing, and through a corpus of the same records.
    fn through_packs_and_records(texts: &[&str], draft: &str) -> (crate::Report, crate::Report) {
        let (manifest, files) = packs_of(texts);
        let params = manifest.params;
        let mut packs = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
        let draft = Document::analyze(draft, Format::Plain, &params, 1 << 20).unwrap();
        let opts = CheckOptions::default();
        for _ in 0..4 {
            for name in packs.needed(&draft, &opts).unwrap() {
                packs.add(&name, &files[&name]).unwrap();
            }
        }
        assert!(packs.needed(&draft, &opts).unwrap().is_empty());
        let mut corpus = crate::Corpus::new(params).unwrap();
        for t in texts {
            let doc = Document::analyze(t, Format::Plain, &params, 1 << 20).unwrap();
            corpus.add_record(SourceInfo::default(), &doc);
        }
        let packed = crate::check::check_document(&packs, &draft, &opts).unwrap();
        (packed, corpus.check_document(&draft, &opts))
    }

    /// Issue 33: one copied sentence of 12 content words, too short for a shared run of 19 (the
    /// fingerprints' guarantee), with a phrase inserted, in the writer's own text: found through
    /// packs as through the records, by its sentence keys.
    #[test]
    fn one_copied_sentence_with_a_phrase_inserted_is_found_through_packs() {
        let source = "Sourdough needs patience more than skill. Feed the starter with equal \
            weights of rye flour and lukewarm water every morning, and keep the jar loosely \
            covered on a warm kitchen shelf. After a week it doubles within hours.";
        let other = "Mechanical keyboards differ mostly in their switches: linear ones feel \
            smooth, tactile ones bump, and clicky ones announce every keystroke to the room.";
        let draft = "Our cycling club meets on Saturdays near the old railway bridge. Beginners \
            ride the short loop along the river while the others climb the hill road. Feed \
            the starter with equal weights of rye flour and, as grandmother did, lukewarm water \
            every morning, and keep the jar loosely covered on a warm kitchen shelf. Helmets \
            are required, and everyone brings a spare inner tube and a pump.";
        let (packed, records) = through_packs_and_records(&[PAGES, other, source], draft);
        assert_eq!(packed.sources.len(), 1, "{packed:?}");
        assert!(packed.uniqueness < 80.0, "{}", packed.uniqueness);
        assert_eq!(
            (packed.uniqueness, packed.originality, packed.sources.len()),
            (
                records.uniqueness,
                records.originality,
                records.sources.len()
            )
        );
    }

    /// Adds every table part `all_pages` names, until it names pages only; returns those.
    fn add_parts(index: &mut PackIndex, files: &HashMap<String, Vec<u8>>) -> Vec<String> {
        loop {
            let names = index.all_pages();
            let parts: Vec<&String> = names.iter().filter(|n| n.starts_with("t/")).collect();
            if parts.is_empty() {
                return names;
            }
            for name in parts {
                index.add(name, &files[name]).unwrap();
            }
        }
    }

    #[test]
    fn files_that_do_not_hash_to_their_names_are_refused() {
        let (manifest, files) = packs();
        let table = &files[&manifest.table.name];
        let mut index = PackIndex::open(manifest.clone(), table).unwrap();
        let parts_bytes = index.loaded_bytes();
        let (name, page) = add_parts(&mut index, &files)
            .into_iter()
            .map(|name| {
                let page = Page::decode(&files[&name], &manifest.params).unwrap();
                (name, page)
            })
            .find(|(_, page)| !page.keys.is_empty())
            .unwrap();
        let good = &files[&name];

        // A well-formed page of the same place with other postings (another generation's).
        let mut postings: Vec<(u32, u64)> = Vec::new();
        for (i, &key) in page.keys.iter().enumerate() {
            let docs = &page.docs[page.starts[i] as usize..page.starts[i + 1] as usize];
            postings.extend(docs.iter().map(|&d| (key, d)));
        }
        postings.push((postings[0].0, 99));
        postings.sort_unstable();
        let stale = Page::from_sorted(page.list, page.number, page.count, &postings)
            .encode(&manifest.params);
        let err = index.add(&name, &stale).unwrap_err();
        assert_eq!(err.code(), "pack_checksum", "{err}");
        assert!(matches!(&err, PackError::NameMismatch { file, .. } if *file == name));
        let with_parts = index.loaded_bytes();
        assert!(with_parts > parts_bytes);
        index.add(&name, good).unwrap();
        assert_eq!(index.loaded_bytes(), with_parts + good.len() as u64);

        // The table and the record list must be the ones the manifest names.
        let one = |id| crate::pack::TableList {
            pages: 1,
            part_size: 1,
            parts: vec![id],
        };
        let other = Table {
            n: 4,
            window: 16,
            lists: [one(1), one(2), one(3)],
        }
        .encode(&manifest.params);
        let err = PackIndex::open(manifest.clone(), &other).unwrap_err();
        assert!(matches!(err, PackError::NameMismatch { .. }), "{err}");
        let list = &files[&manifest.records.name];
        assert_eq!(index.records_to_fetch(list).unwrap().len(), 2);
        let renamed = Manifest {
            records: FileRef {
                name: "0123456789abcdef.uqa".into(),
                bytes: 1,
            },
            ..manifest
        };
        let index = PackIndex::open(renamed, table).unwrap();
        let err = index.records_to_fetch(list).unwrap_err();
        assert_eq!(err.code(), "pack_checksum", "{err}");
    }

    /// A table part is refused unless the table names it, it hashes to that name, and it says
    /// it is the part the table puts there; a page is refused until a part added names it.
    #[test]
    fn stale_foreign_or_misplaced_table_parts_are_refused() {
        let texts: Vec<String> = (0..40)
            .map(|i| format!("{PAGES} Document number {i} adds its own words: w{i}a w{i}b w{i}c."))
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let params = Params::default();
        let mut builder = Builder::new(params).with_part_size(2);
        let mut files = HashMap::new();
        for (rev, text) in texts.iter().enumerate() {
            let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
            let (name, bytes) = builder.add(
                rev as u64,
                &Record::from_document(SourceInfo::default(), &doc),
            );
            files.insert(name, bytes);
        }
        // Small pages, so that lists have several pages and parts.
        let done = builder.finish(64);
        let manifest = Manifest::new(&done, 0, 0);
        files.extend(done.files);
        let table_bytes = &files[&manifest.table.name];
        let table = Table::decode(table_bytes, &params).unwrap();
        let fp = &table.lists[usize::from(LIST_FINGERPRINTS)];
        assert!(fp.parts.len() > 1, "{fp:?}");
        let mut index = PackIndex::open(manifest.clone(), table_bytes).unwrap();

        // A page before the part naming it: not known yet.
        let first = index.all_pages();
        assert!(first.iter().all(|n| n.starts_with("t/")), "{first:?}");
        let part_name = part_file(fp.parts[1]);
        let part = Part::decode(&files[&part_name], &params).unwrap();
        let page_name = page_file(part.names[0]);
        let err = index.add(&page_name, &files[&page_name]).unwrap_err();
        assert_eq!(err.code(), "manifest_invalid", "{err}");

        // Another generation's part for the same place: well-formed, refused by its name.
        let mut stale = part.clone();
        stale.names[0] ^= 1;
        let err = index.add(&part_name, &stale.encode(&params)).unwrap_err();
        assert_eq!(err.code(), "pack_checksum", "{err}");
        // A part the table names elsewhere, served here: refused by its name too.
        let other = part_file(fp.parts[0]);
        let err = index.add(&part_name, &files[&other]).unwrap_err();
        assert_eq!(err.code(), "pack_checksum", "{err}");
        // A part of the table that says it is elsewhere (a table naming a misplaced part).
        let mut misplaced_table = table.clone();
        misplaced_table.lists[usize::from(LIST_FINGERPRINTS)]
            .parts
            .swap(0, 1);
        let misplaced_bytes = misplaced_table.encode(&params);
        let renamed = Manifest {
            table: FileRef {
                name: crate::pack::table_file(content_id(&misplaced_bytes)),
                bytes: misplaced_bytes.len() as u64,
            },
            ..manifest.clone()
        };
        let mut misplaced = PackIndex::open(renamed, &misplaced_bytes).unwrap();
        let err = misplaced.add(&part_name, &files[&part_name]).unwrap_err();
        assert_eq!(err.code(), "pack_corrupt", "{err}");
        assert_eq!(misplaced.loaded_bytes(), 0);
        // A name the table does not give.
        let err = index
            .add("t/0123456789abcdef.uqp", &files[&part_name])
            .unwrap_err();
        assert_eq!(err.code(), "manifest_invalid", "{err}");

        // The right part: its pages can be added, and download-everything gets all of them.
        index.add(&part_name, &files[&part_name]).unwrap();
        index.add(&page_name, &files[&page_name]).unwrap();
        loop {
            let names = index.all_pages();
            if names.is_empty() {
                break;
            }
            for name in names {
                index.add(&name, &files[&name]).unwrap();
            }
        }
        let pages = files.keys().filter(|n| n.starts_with("i/")).count();
        assert_eq!(index.pages.len(), pages);
        let draft = Document::analyze(texts[3], Format::Plain, &params, 1 << 20).unwrap();
        let opts = CheckOptions::default();
        let needed = index.needed(&draft, &opts).unwrap();
        assert!(needed.iter().all(|n| n.starts_with("r/")), "{needed:?}");
    }
}
