//! Index stage over packs (format version 7): the backend a browser checks through, holding only
//! the pack files a draft needed.
//!
//! A [`PackIndex`] starts from the manifest and the page table, and answers the engine's
//! [`Index`] questions from the index pages and records added to it. It does no I/O: the caller
//! asks [`PackIndex::needed`] which files a check of a draft still lacks, fetches them, hands
//! them to [`PackIndex::add`], and asks again until nothing is missing (two rounds on a first
//! check: the pages of the draft's keys, whose names the table gives, then the records of its
//! candidates; callers loop until `needed` is empty rather than count rounds). Then
//! [`crate::check::check`] gives the answer the store and the full texts give: the same
//! ranking, the same alignment.
//!
//! Guarantees:
//! - **Only what the draft needs.** A draft looks up its own anchors (its folded shingles
//!   winnowed with the manifest's window, as every document's were) and its sentence keys
//!   ([`crate::sentences::sentence_keys`]), so it fetches one page per distinct page of those
//!   keys and one record per candidate; a re-check fetches only what is new.
//! - **Any shared run of `window + n - 1` content words is found** (winnowing's guarantee), and a
//!   short draft's longest words find short copies as in the store.
//! - **Hostile files are refused**, never trusted: every file is decoded with all checks, and
//!   nothing here panics. The table and the record list must hash to the names the manifest
//!   gives them ([`content_id`]; [`PackError::NameMismatch`] otherwise); a page must be named
//!   for the table's generation and a place the table has, and must say it is that page of that
//!   generation ([`PackError::Generation`], [`PackError::Corrupt`] otherwise), so a stale or
//!   foreign copy served under a page's name is refused. Records are named by number and
//!   checked by their CRC32 and canonicalization, as every file is.
//! - **Translations when the packs carry a table.** Packs written with a bilingual table name it
//!   in the manifest; a check then needs it first (with the pages of the draft's own keys), and
//!   once it is added the draft's translated sentence keys name their pages in the next round
//!   ([`crate::align::translate`]): one file of about 0.8 MB fetched once, never again per check.
//!   A check whose options carry a table of their own uses that one and fetches none.
//! - Exact duplicates are not looked up by their hash: they share every anchor, so they rank
//!   first anyway (a text too short to have an anchor is found by its longest words).

use crate::bilingual::Bilingual;
use crate::document::Document;
use crate::index::{self, DocId, Index, List};
use crate::keys::Keys;
use crate::pack::{
    content_id, is_pack_file, page_of, parse_page_file, record_file, spread, Manifest, PackError,
    Page, Record, RecordList, Table, LISTS, LIST_FINGERPRINTS, LIST_LONG_WORDS, LIST_SENTENCES,
};
use crate::pair::{Draft, Source};
use crate::{CheckOptions, Params};
use std::collections::HashMap;
use std::sync::Arc;

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
    /// The pages added, by (list, number).
    pages: HashMap<(u8, u32), Page>,
    records: HashMap<u64, Record>,
    /// The manifest's bilingual table, once added.
    bilingual: Option<Arc<Bilingual>>,
    loaded_bytes: u64,
}

impl PackIndex {
    /// Opens the packs that `manifest` describes, given the bytes of its page table. The
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
        Ok(PackIndex {
            manifest,
            table,
            pages: HashMap::new(),
            records: HashMap::new(),
            bilingual: None,
            loaded_bytes: 0,
        })
    }

    /// The manifest these packs were opened from.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Bytes of the pages, records and bilingual table added so far.
    pub fn loaded_bytes(&self) -> u64 {
        self.loaded_bytes
    }

    /// Records added so far.
    pub fn loaded_records(&self) -> usize {
        self.records.len()
    }

    /// The files a check of `draft` (analysed with the manifest's parameters) still needs, as
    /// paths relative to the manifest: the pages its keys fall in, named from the table alone;
    /// once every one is added, the records of its candidates. Empty when a check can answer. A
    /// first check takes two rounds (pages, records); call it again after adding what it named,
    /// until it names nothing.
    ///
    /// Errors: none in practice (ranking runs only once every page it reads is added).
    pub fn needed(&self, draft: &Document, opts: &CheckOptions) -> Result<Vec<String>, PackError> {
        let table = opts.bilingual.as_deref().or(self.bilingual.as_deref());
        let draft = Draft::new(draft, &self.manifest.params).with_bilingual(table);
        // The table comes with the first round's pages: the translated keys need it to be named.
        let mut missing: Vec<String> = self.missing_bilingual(opts).into_iter().collect();
        let mut places: Vec<(u8, u32)> = Vec::new();
        let keys = Keys::lookups(&draft.words, &self.manifest.params);
        places.extend(self.page_places(LIST_FINGERPRINTS, &keys.fingerprints));
        places.extend(self.page_places(LIST_SENTENCES, &keys.sentences));
        if let Some((translated, _)) = draft.translated_lookups() {
            places.extend(self.page_places(LIST_SENTENCES, &translated));
        }
        if draft.doc.is_short(opts) {
            places.extend(self.page_places(LIST_LONG_WORDS, &draft.doc.short.hashes));
        }
        places.sort_unstable();
        places.dedup();
        missing.extend(
            places
                .into_iter()
                .filter(|place| !self.pages.contains_key(place))
                .map(|(list, number)| self.table.page_file(list, number)),
        );
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

    /// What "download everything" (offline use) still lacks of the index: the manifest's
    /// bilingual table if it is not added yet, and every page not added yet, named from the table
    /// (at most [`crate::pack::MAX_PAGES`] a list, which the table's decoder enforces). With
    /// [`PackIndex::records_to_fetch`], what it fetches.
    pub fn all_pages(&self) -> Vec<String> {
        let mut pages: Vec<String> = self
            .missing_bilingual(&CheckOptions::default())
            .into_iter()
            .collect();
        for list in 0..LISTS {
            for number in 0..self.table.page_count(list) {
                if !self.pages.contains_key(&(list, number)) {
                    pages.push(self.table.page_file(list, number));
                }
            }
        }
        pages
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

    /// The bilingual table the manifest names, once added: checks through these packs seek
    /// translations with it ([`Index::bilingual`]).
    pub fn bilingual(&self) -> Option<&Arc<Bilingual>> {
        self.bilingual.as_ref()
    }

    /// The manifest's bilingual table when a check with `opts` needs it and it is not added yet.
    fn missing_bilingual(&self, opts: &CheckOptions) -> Option<String> {
        let file = self.manifest.bilingual.as_ref()?;
        (opts.bilingual.is_none() && self.bilingual.is_none()).then(|| file.name.clone())
    }

    /// Adds a fetched file, by the path [`PackIndex::needed`] gave: an index page
    /// (`i/<generation>/<list>-<number>.uqi`), a record (`r/…/….uqr`) or the bilingual table the
    /// manifest names (`<16 hex>.uqbl`). Adding a file twice is harmless.
    ///
    /// Errors: a name that is none of them, a page of another generation or place than the table has
    /// ([`PackError::Manifest`]), every decoding error, a page that says it belongs to another
    /// generation than its name ([`PackError::Generation`]: a stale copy) or to another place
    /// ([`PackError::Corrupt`]).
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), PackError> {
        let params = self.manifest.params;
        if let Some((generation, list, number)) = parse_page_file(name) {
            let count = self.table.page_count(list);
            if generation != self.table.generation || number >= count {
                return Err(PackError::Manifest {
                    what: format!(
                        "the page table does not name {name} (its generation is {:016x}, with \
                         {count} pages in list {list})",
                        self.table.generation
                    ),
                });
            }
            let page = Page::decode(bytes, &params)?;
            // After decoding, so that what is not a page at all (an HTML error page, a truncated
            // download) is named for what it is; before the page is used, so that a page of
            // another generation, well-formed but stale, is refused.
            if page.generation != generation {
                return Err(PackError::Generation {
                    file: name.to_owned(),
                    expected: generation,
                    found: page.generation,
                });
            }
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
            if self.pages.insert((list, number), page).is_none() {
                self.loaded_bytes += bytes.len() as u64;
            }
            return Ok(());
        }
        if let Some(file) = self.manifest.bilingual.as_ref().filter(|f| f.name == name) {
            verify_name(name, bytes)?;
            let table = Bilingual::decode(bytes).map_err(|e| PackError::Corrupt {
                offset: 0,
                what: format!("{name}: {e}"),
            })?;
            // Hashing to its name, it is the table the writer chose: a stemming mismatch is the
            // writer's, as other parameters are.
            table
                .check(params.stemming)
                .map_err(|e| PackError::Manifest {
                    what: format!(
                        "it names the bilingual table {name}, which cannot serve it: {e}"
                    ),
                })?;
            if self.bilingual.is_none() {
                self.loaded_bytes += file.bytes;
            }
            self.bilingual = Some(Arc::new(table));
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
            what: format!(
                "{name:?} is not a pack file name (i/…/….uqi, r/…/….uqr or the manifest's .uqbl)"
            ),
        })
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
}

/// Refuses `bytes` fetched as `name` (a table `<16 hex>.uqt`, a record list `<16 hex>.uqa`)
/// unless the first 8 bytes of their SHA-256 are the 16 hex digits of the name.
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

    fn bilingual(&self) -> Option<&Bilingual> {
        self.bilingual.as_deref()
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
            let Some(page) = self.pages.get(&(list, number)) else {
                return Err(PackError::Missing {
                    file: self.table.page_file(list, number),
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
        // Round 1 fetches the pages (of the sentence list too), round 2 the source's record.
        let mut rounds = 0;
        loop {
            let needed = packs.needed(&draft, &opts).unwrap();
            if needed.is_empty() {
                break;
            }
            rounds += 1;
            assert!(rounds <= 2, "{needed:?}");
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
        for _ in 0..2 {
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

    /// A generation of 40 documents cut into pages of at most 64 bytes, so that every list has
    /// several pages: its manifest and files by name.
    fn many_pages() -> (Manifest, HashMap<String, Vec<u8>>, Vec<String>) {
        let texts: Vec<String> = (0..40)
            .map(|i| format!("{PAGES} Document number {i} adds its own words: w{i}a w{i}b w{i}c."))
            .collect();
        let params = Params::default();
        let mut builder = Builder::new(params);
        let mut files = HashMap::new();
        for (rev, text) in texts.iter().enumerate() {
            let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
            let (name, bytes) = builder.add(
                rev as u64,
                &Record::from_document(SourceInfo::default(), &doc),
            );
            files.insert(name, bytes);
        }
        let done = builder.finish(64);
        let manifest = Manifest::new(&done, 0, 0);
        files.extend(done.files);
        (manifest, files, texts)
    }

    #[test]
    fn tables_and_record_lists_that_do_not_hash_to_their_names_are_refused() {
        let (manifest, files) = packs();
        let table = &files[&manifest.table.name];
        let index = PackIndex::open(manifest.clone(), table).unwrap();
        let other = Table {
            n: 4,
            window: 16,
            generation: 1,
            pages: [1, 1, 1],
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

    /// A page is refused unless its name is of the table's generation and a place the table
    /// has, and it says it is that page of that generation: a stale page of another generation
    /// served under the current name, or a page served at another page's place, is refused.
    #[test]
    fn stale_foreign_or_misplaced_pages_are_refused() {
        let (manifest, files, texts) = many_pages();
        let params = manifest.params;
        let table_bytes = &files[&manifest.table.name];
        let table = Table::decode(table_bytes, &params).unwrap();
        assert!(table.pages.iter().all(|&p| p > 1), "{table:?}");
        let mut index = PackIndex::open(manifest.clone(), table_bytes).unwrap();
        let all = index.all_pages();
        let on_disk = files.keys().filter(|n| n.starts_with("i/")).count();
        assert_eq!(all.len(), on_disk);
        assert!(all.iter().all(|n| files.contains_key(n)), "{all:?}");

        // The first page with keys, and another page of the same list.
        let name = all
            .iter()
            .find(|n| !Page::decode(&files[*n], &params).unwrap().keys.is_empty())
            .unwrap()
            .clone();
        let good = &files[&name];
        let page = Page::decode(good, &params).unwrap();
        assert_eq!(page.generation, table.generation);
        let neighbour = table.page_file(page.list, (page.number + 1) % page.count);

        // Another generation's page of the same place: other postings, its own generation.
        let mut postings: Vec<(u32, u64)> = Vec::new();
        for (i, &key) in page.keys.iter().enumerate() {
            let docs = &page.docs[page.starts[i] as usize..page.starts[i + 1] as usize];
            postings.extend(docs.iter().map(|&d| (key, d)));
        }
        postings.push((postings[0].0, 99));
        postings.sort_unstable();
        let mut stale = Page::from_sorted(page.list, page.number, page.count, &postings);
        stale.generation = table.generation ^ 1;
        let err = index.add(&name, &stale.encode(&params)).unwrap_err();
        assert_eq!(err.code(), "pack_checksum", "{err}");
        assert!(matches!(&err, PackError::Generation { file, .. } if *file == name));
        // Well-formed but at another place: the neighbour's bytes under this name.
        let err = index.add(&name, &files[&neighbour]).unwrap_err();
        assert_eq!(err.code(), "pack_corrupt", "{err}");
        // Names the table does not give: another generation, a page past the list's end.
        let foreign = crate::pack::page_file(table.generation ^ 1, page.list, page.number);
        let err = index.add(&foreign, good).unwrap_err();
        assert_eq!(err.code(), "manifest_invalid", "{err}");
        let past = table.page_file(page.list, page.count);
        let err = index.add(&past, good).unwrap_err();
        assert_eq!(err.code(), "manifest_invalid", "{err}");
        let err = index.add("t/0123456789abcdef.uqp", good).unwrap_err();
        assert_eq!(err.code(), "manifest_invalid", "{err}");
        assert_eq!(index.loaded_bytes(), 0);

        // The right page; then download-everything gets all of them in one round.
        index.add(&name, good).unwrap();
        assert_eq!(index.loaded_bytes(), good.len() as u64);
        assert_eq!(index.all_pages().len(), on_disk - 1);
        for name in index.all_pages() {
            index.add(&name, &files[&name]).unwrap();
        }
        assert!(index.all_pages().is_empty());
        assert_eq!(index.pages.len(), on_disk);
        let draft = Document::analyze(&texts[3], Format::Plain, &params, 1 << 20).unwrap();
        let opts = CheckOptions::default();
        let needed = index.needed(&draft, &opts).unwrap();
        assert!(needed.iter().all(|n| n.starts_with("r/")), "{needed:?}");
    }

    /// A first check names pages, then records: two rounds.
    #[test]
    fn a_check_names_pages_then_records() {
        let (manifest, files, texts) = many_pages();
        let params = manifest.params;
        let mut index = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
        let draft = Document::analyze(&texts[7], Format::Plain, &params, 1 << 20).unwrap();
        let opts = CheckOptions::default();
        let pages = index.needed(&draft, &opts).unwrap();
        assert!(
            !pages.is_empty() && pages.iter().all(|n| n.starts_with("i/")),
            "{pages:?}"
        );
        for name in &pages {
            index.add(name, &files[name]).unwrap();
        }
        let records = index.needed(&draft, &opts).unwrap();
        assert!(
            !records.is_empty() && records.iter().all(|n| n.starts_with("r/")),
            "{records:?}"
        );
        for name in &records {
            index.add(name, &files[name]).unwrap();
        }
        assert!(index.needed(&draft, &opts).unwrap().is_empty());
        let report = crate::check::check_document(&index, &draft, &opts).unwrap();
        assert!(report.uniqueness < 50.0, "{}", report.uniqueness);
    }
}
