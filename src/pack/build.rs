//! Building one generation of packs in memory: records in, the files of a pack
//! directory out (records, index pages, the page table, record list) with what
//! the manifest says of them. The CLI's pack writer adds only the disk (atomic writes, deleting old generations); tests
//! and tools build packs with it without a disk.

use super::frame;
use super::pages::{content_id, page_file, page_of, records_file, spread, table_file};
use super::pages::{Page, RecordList, Table};
use super::pages::{LISTS, LIST_FINGERPRINTS, LIST_LONG_WORDS, LIST_SENTENCES};
use super::{record_file, FileRef, Record};
use crate::params::MAX_KEY_DOCS;
use crate::sentences::MAX_SENTENCE_KEY_DOCS;
use crate::Params;

/// Collects documents' records and postings; [`Builder::finish`] cuts the index into pages.
#[derive(Debug, Clone)]
pub struct Builder {
    params: Params,
    window: usize,
    keys: Vec<(u32, u64)>,
    long_words: Vec<(u32, u64)>,
    sentences: Vec<(u32, u64)>,
    revs: Vec<u64>,
    record_bytes: u64,
}

/// The files [`Builder::finish`] makes besides the records, and what the manifest says of them.
#[derive(Debug, Clone)]
pub struct Finished {
    /// `(name, bytes)` of every index page (in list and page order), then the table, then the
    /// record list.
    pub files: Vec<(String, Vec<u8>)>,
    /// The page table.
    pub table: FileRef,
    /// The record list.
    pub records: FileRef,
    /// The generation id every page carries and is named by ([`Table::generation`]).
    pub generation: u64,
    /// Bytes of all index pages.
    pub index_bytes: u64,
    /// Bytes of all records.
    pub record_bytes: u64,
    /// Documents (records) in the generation.
    pub documents: usize,
    /// Their record numbers, ascending.
    pub revs: Vec<u64>,
    /// The parameters every document was analysed with ([`Builder::new`]).
    pub params: Params,
    /// The fingerprints' winnowing window: `params.w` ([`Builder::new`]).
    pub window: usize,
}

impl Builder {
    /// A builder for documents analysed with `params`: their fingerprints winnowed with window
    /// `params.w`, as every index holds them ([`crate::keys`]).
    pub fn new(params: Params) -> Builder {
        Builder {
            params,
            window: params.w,
            keys: Vec::new(),
            long_words: Vec::new(),
            sentences: Vec::new(),
            revs: Vec::new(),
            record_bytes: 0,
        }
    }

    /// Adds the document numbered `rev` (a number never reused for other content); returns its
    /// record file's name and bytes, to be written.
    pub fn add(&mut self, rev: u64, record: &Record) -> (String, Vec<u8>) {
        let keys = record.keys(&self.params);
        self.keys
            .extend(keys.fingerprints.into_iter().map(|k| (spread(k), rev)));
        self.long_words
            .extend(record.short.hashes.iter().map(|&h| (spread(h), rev)));
        self.sentences
            .extend(keys.sentences.into_iter().map(|k| (spread(k), rev)));
        self.revs.push(rev);
        let bytes = record.encode(&self.params);
        self.record_bytes += bytes.len() as u64;
        (record_file(rev), bytes)
    }

    /// Cuts the postings into pages (no page over `page_bytes`), computes the generation id from
    /// them, stamps every page with it and names it by it and its place ([`page_file`]), and
    /// makes the table and the record list (each named by [`content_id`] of its bytes). How many
    /// pages: `balance::cut` (docs/FORMAT.md, "The balance").
    ///
    /// The generation id is the first 8 bytes of the SHA-256 of every page in list and page
    /// order, each as its length (u64, little-endian) and its bytes encoded with a generation
    /// of 0: the same pages give the same id (and names), other pages another.
    pub fn finish(mut self, page_bytes: usize) -> Finished {
        use sha2::{Digest, Sha256};
        let mut pages: Vec<(u8, u32, Vec<u8>)> = Vec::new();
        let mut counts = [0u32; LISTS as usize];
        let mut hasher = Sha256::new();
        for (list, postings, cap) in [
            (LIST_FINGERPRINTS, &mut self.keys, MAX_KEY_DOCS),
            (LIST_LONG_WORDS, &mut self.long_words, MAX_KEY_DOCS),
            (LIST_SENTENCES, &mut self.sentences, MAX_SENTENCE_KEY_DOCS),
        ] {
            sort_and_cap(postings, cap);
            let count = page_count(postings.len(), lookups(list, self.window), page_bytes);
            counts[usize::from(list)] = count;
            let mut rest = &postings[..];
            for number in 0..count {
                let split = rest.partition_point(|&(k, _)| page_of(k, count) <= number);
                let (this, next) = rest.split_at(split);
                rest = next;
                let bytes = Page::from_sorted(list, number, count, this).encode(&self.params);
                hasher.update((bytes.len() as u64).to_le_bytes());
                hasher.update(&bytes);
                pages.push((list, number, bytes));
            }
            // Freed as soon as its pages are made: at a million documents, hundreds of MB.
            *postings = Vec::new();
        }
        let digest = hasher.finalize();
        let generation = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
        let mut files = Vec::with_capacity(pages.len() + 2);
        let mut index_bytes = 0;
        for (list, number, mut bytes) in pages {
            // The generation is the body's first field ([`Page::encode`]).
            frame::patch_body(&mut bytes, 0, &generation.to_le_bytes());
            index_bytes += bytes.len() as u64;
            files.push((page_file(generation, list, number), bytes));
        }
        let table = Table {
            n: self.params.n,
            window: self.window,
            generation,
            pages: counts,
        }
        .encode(&self.params);
        let table_ref = FileRef {
            name: table_file(content_id(&table)),
            bytes: table.len() as u64,
        };
        files.push((table_ref.name.clone(), table));
        self.revs.sort_unstable();
        self.revs.dedup();
        let list = RecordList {
            revs: self.revs.clone(),
        }
        .encode(&self.params);
        let list_ref = FileRef {
            name: records_file(content_id(&list)),
            bytes: list.len() as u64,
        };
        files.push((list_ref.name.clone(), list));
        Finished {
            files,
            table: table_ref,
            records: list_ref,
            generation,
            index_bytes,
            record_bytes: self.record_bytes,
            documents: self.revs.len(),
            revs: self.revs,
            params: self.params,
            window: self.window,
        }
    }
}

/// Keys a typical draft looks up in `list` with window `w`: the fingerprints of a 1,000-word
/// draft (about 550 content words, `2 / (w + 1)` of them fingerprints), a short draft's 15 longest
/// words, or the sentence keys of a 1,000-word draft (three for each sentence of at least 6
/// distinct content words: about 130 for the 20 Newsgroups drafts of benches/packs).
fn lookups(list: u8, w: usize) -> usize {
    match list {
        LIST_FINGERPRINTS => 1100 / (w + 1),
        LIST_SENTENCES => 130,
        _ => 15,
    }
}

/// How many pages `postings` are cut into: the power of two that minimizes what a typical draft
/// fetches of the list, with no page over `max_page_bytes` and none far under
/// [`super::MIN_PAGE_BYTES`] ([`super::balance::cut`]). A posting takes about 4 bytes (key
/// delta, count, record delta).
fn page_count(postings: usize, lookups: usize, max_page_bytes: usize) -> u32 {
    super::balance::cut(postings as f64 * 4.0, lookups, max_page_bytes)
}

/// Sorts postings and keeps at most `cap + 1` documents a key: a key held by more than `cap`
/// (`MAX_KEY_DOCS`, `MAX_SENTENCE_KEY_DOCS`) ranks nothing ([`crate::index`]), and that many are
/// enough to tell.
fn sort_and_cap(postings: &mut Vec<(u32, u64)>, cap: usize) {
    postings.sort_unstable();
    postings.dedup();
    let (mut kept, mut run, mut prev) = (0, 0, None);
    for i in 0..postings.len() {
        let key = postings[i].0;
        run = if prev == Some(key) { run + 1 } else { 1 };
        prev = Some(key);
        if run <= cap + 1 {
            postings[kept] = postings[i];
            kept += 1;
        }
    }
    postings.truncate(kept);
}
