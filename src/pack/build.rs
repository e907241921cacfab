//! Building one generation of packs in memory: records in, the files of a pack
//! directory out (records, index pages, the page table's parts and top, record list) with what
//! the manifest says of them. The CLI's pack writer adds only the disk (atomic writes, deleting old generations); tests
//! and tools build packs with it without a disk.

use super::pages::{content_id, part_file, Part, TableList};
use super::pages::{page_file, page_of, records_file, spread, table_file, Page, RecordList, Table};
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
    /// A part size for every list instead of the balance's (tests of tables of several parts).
    part_size: Option<u32>,
}

/// The files [`Builder::finish`] makes besides the records, and what the manifest says of them.
#[derive(Debug, Clone)]
pub struct Finished {
    /// `(name, bytes)` of every index page and table part, then the table, then the record list.
    pub files: Vec<(String, Vec<u8>)>,
    /// The page table.
    pub table: FileRef,
    /// The record list.
    pub records: FileRef,
    /// Bytes of all index pages and table parts.
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
            part_size: None,
        }
    }

    /// The builder with parts of `part_size` page names (a power of two) in every list whose
    /// page count allows it, instead of the balance's: tables of several parts, for tests.
    #[cfg(test)]
    pub(crate) fn with_part_size(mut self, part_size: u32) -> Builder {
        self.part_size = Some(part_size);
        self
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

    /// Cuts the postings into pages (no page over `page_bytes`), names them in table parts, and
    /// makes the top table and the record list; pages, parts, table and list are each named by
    /// [`content_id`] of their bytes. How many pages and how large the parts:
    /// `balance::cut` (docs/FORMAT.md, "The balance").
    pub fn finish(mut self, page_bytes: usize) -> Finished {
        let mut files = Vec::new();
        let mut index_bytes = 0;
        let mut lists: [TableList; LISTS as usize] = Default::default();
        for (list, postings, cap) in [
            (LIST_FINGERPRINTS, &mut self.keys, MAX_KEY_DOCS),
            (LIST_LONG_WORDS, &mut self.long_words, MAX_KEY_DOCS),
            (LIST_SENTENCES, &mut self.sentences, MAX_SENTENCE_KEY_DOCS),
        ] {
            sort_and_cap(postings, cap);
            let (count, balanced) =
                page_count(postings.len(), lookups(list, self.window), page_bytes);
            let part_size = self.part_size.map_or(balanced, |c| c.min(count));
            let mut names = Vec::with_capacity(count as usize);
            let mut rest = &postings[..];
            for number in 0..count {
                let split = rest.partition_point(|&(k, _)| page_of(k, count) <= number);
                let (this, next) = rest.split_at(split);
                rest = next;
                let bytes = Page::from_sorted(list, number, count, this).encode(&self.params);
                let id = content_id(&bytes);
                index_bytes += bytes.len() as u64;
                names.push(id);
                files.push((page_file(id), bytes));
            }
            let before = files.len();
            let parts = write_parts(list, part_size, &names, &self.params, &mut files);
            // The manifest's index bytes are what downloading the whole index reads.
            index_bytes += files[before..]
                .iter()
                .map(|(_, b)| b.len() as u64)
                .sum::<u64>();
            lists[usize::from(list)] = TableList {
                pages: count,
                part_size,
                parts,
            };
        }
        let table = Table {
            n: self.params.n,
            window: self.window,
            lists,
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

/// How many pages `postings` are cut into and how many page names a table part holds: the
/// powers of two that minimize what a typical draft fetches of the list, with no page over
/// `max_page_bytes` ([`super::balance::cut`]). A posting takes about 4 bytes (key delta,
/// count, record delta).
fn page_count(postings: usize, lookups: usize, max_page_bytes: usize) -> (u32, u32) {
    super::balance::cut(postings as f64 * 4.0, lookups, max_page_bytes)
}

/// Writes the table parts of `list` naming its pages `names` (`part_size` a part, the last
/// fewer) into `files`; returns their names, in order.
fn write_parts(
    list: u8,
    part_size: u32,
    names: &[u64],
    params: &Params,
    files: &mut Vec<(String, Vec<u8>)>,
) -> Vec<u64> {
    let pages = names.len() as u32;
    names
        .chunks(part_size as usize)
        .enumerate()
        .map(|(k, chunk)| {
            let bytes = Part {
                list,
                first: k as u32 * part_size,
                part_size,
                pages,
                names: chunk.to_vec(),
            }
            .encode(params);
            let id = content_id(&bytes);
            files.push((part_file(id), bytes));
            id
        })
        .collect()
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
