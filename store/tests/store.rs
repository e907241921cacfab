//! Behaviour of the store and the packs written from it: round trips through the one pack codec,
//! atomic pack generations under a concurrent reader. (Crash safety of `uniqcheck index` is the
//! CLI's test: server/tests/index_crash.rs.)

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use uniqcheck::pack::{
    content_id, page_file, record_file, PackError, Page, Record, Table, FORMAT_VERSION, LISTS,
    LIST_FINGERPRINTS,
};
use uniqcheck::PackIndex;
use uniqcheck::{Document, Format, Params};
use uniqcheck_store::packs::{write_packs, LoadManifest, Manifest, PackOptions, MANIFEST};
use uniqcheck_store::{NewDocument, Store, StoreError, Upsert, BULK_MAX_RUNS};

#[path = "../../server/tests/common/mod.rs"]
mod common;
use common::{new_doc, prose};

fn fill(store: &mut Store, range: std::ops::Range<u64>, words: usize) {
    let p = *store.params();
    let docs = range
        .map(|i| {
            let d = new_doc(i, words);
            let a = Document::analyze(&d.text, d.format, &p, 1 << 20).unwrap();
            (d, a)
        })
        .collect();
    store.upsert_batch(docs).unwrap();
}

/// A new store with the default parameters in a new temporary folder, which lives as long as
/// the returned guard.
fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.db"), Params::default()).unwrap();
    (dir, store)
}

/// Every stored document's record, by record number.
fn stored(store: &Store) -> BTreeMap<u64, Record> {
    let mut all = BTreeMap::new();
    store
        .for_each_record(|rev, r| {
            all.insert(rev, r);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    all
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, String> {
    std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"))
}

/// Reads every file a manifest leads to (table, every page, the record list, every record) as a
/// browser's "download everything" would, through the engine's PackIndex; the records by number.
fn read_generation(dir: &Path, manifest: &Manifest) -> Result<BTreeMap<u64, Record>, String> {
    let table = read(dir, &manifest.table.name)?;
    if table.len() as u64 != manifest.table.bytes {
        return Err(format!(
            "{}: not the size the manifest says",
            manifest.table.name
        ));
    }
    let mut index = PackIndex::open(manifest.clone(), &table).map_err(|e| e.to_string())?;
    // Every page, named from the table: one round.
    for page in index.all_pages() {
        let bytes = read(dir, &page)?;
        index
            .add(&page, &bytes)
            .map_err(|e| format!("{page}: {e}"))?;
    }
    if !index.all_pages().is_empty() {
        return Err("pages still missing after one round".into());
    }
    let list = read(dir, &manifest.records.name)?;
    let mut records = BTreeMap::new();
    for file in index.records_to_fetch(&list).map_err(|e| e.to_string())? {
        let bytes = read(dir, &file)?;
        let record =
            Record::decode(&bytes, &manifest.params).map_err(|e| format!("{file}: {e}"))?;
        index
            .add(&file, &bytes)
            .map_err(|e| format!("{file}: {e}"))?;
        let rev = u64::from_str_radix(
            file.rsplit('/').next().unwrap().trim_end_matches(".uqr"),
            16,
        )
        .unwrap();
        records.insert(rev, record);
    }
    if records.len() != manifest.documents {
        return Err(format!(
            "{} records, the manifest says {}",
            records.len(),
            manifest.documents
        ));
    }
    Ok(records)
}

/// The names of every page of a generation, from its table.
fn page_names(table: &Table) -> Vec<String> {
    (0..LISTS)
        .flat_map(|list| (0..table.page_count(list)).map(move |n| table.page_file(list, n)))
        .collect()
}

/// Every file under `dir`, as paths relative to it.
fn files(dir: &Path) -> HashSet<String> {
    let mut all = HashSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                all.insert(rel);
            }
        }
    }
    all
}

#[test]
fn packs_hold_exactly_the_stored_records_in_files_that_never_change() {
    let (dir, mut store) = temp_store();
    fill(&mut store, 0..60, 150);
    let out = dir.path().join("packs");
    // Pages of 64 bytes at most: 60 documents are cut into enough pages that two more leave
    // most of them as they were (the balance alone cuts these few postings into 8 pages, every
    // one of which two documents' 20 keys would touch).
    const PAGE: usize = 64;
    let manifest = write_packs(&store, &out, &PackOptions::pages(PAGE)).unwrap();
    assert_eq!(manifest.documents, 60);
    assert_eq!(manifest.changes, store.changes().unwrap());
    assert_eq!(manifest, Manifest::load(&out).unwrap());
    let table =
        Table::decode(&read(&out, &manifest.table.name).unwrap(), &manifest.params).unwrap();
    assert!(table.page_count(LIST_FINGERPRINTS) > 3, "{table:?}");
    let records = read_generation(&out, &manifest).unwrap();
    assert_eq!(
        records,
        stored(&store),
        "the packs hold exactly the stored records"
    );
    assert!(records
        .values()
        .enumerate()
        .all(|(i, r)| r.info.id == (i + 1).to_string()
            && r.info.url == format!("https://example.com/{i}")
            && r.info.title == format!("Post {i}")));
    // The table is named by the first 8 bytes of its SHA-256; pages by the generation (a hash
    // of all of them) and their place, which each carries.
    let table_bytes = read(&out, &manifest.table.name).unwrap();
    let hex: String = Sha256::digest(&table_bytes)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(manifest.table.name, format!("{hex}.uqt"));
    for list in 0..LISTS {
        for number in 0..table.page_count(list) {
            let name = table.page_file(list, number);
            assert_eq!(name, page_file(table.generation, list, number));
            let page = Page::decode(&read(&out, &name).unwrap(), &manifest.params).unwrap();
            assert_eq!(
                (page.generation, page.list, page.number, page.count),
                (table.generation, list, number, table.page_count(list))
            );
        }
    }
    let in_i: HashSet<String> = files(&out)
        .into_iter()
        .filter(|f| f.starts_with("i/"))
        .collect();
    assert_eq!(in_i, page_names(&table).into_iter().collect());

    // The same documents again: the same generation, nothing written.
    let again = write_packs(&store, &out, &PackOptions::pages(PAGE)).unwrap();
    assert_eq!(
        (&again.table, &again.records),
        (&manifest.table, &manifest.records)
    );

    // Adding documents leaves every record file as it was, and writes a new generation's pages
    // in a folder of their own.
    let before = files(&out);
    fill(&mut store, 60..62, 150);
    let next = write_packs(&store, &out, &PackOptions::pages(PAGE)).unwrap();
    assert_eq!(read_generation(&out, &next).unwrap(), stored(&store));
    let next_table = Table::decode(&read(&out, &next.table.name).unwrap(), &next.params).unwrap();
    assert_ne!(next_table.generation, table.generation);
    assert!(page_names(&next_table)
        .iter()
        .all(|n| n.starts_with(&format!("i/{:016x}/", next_table.generation))));
    // The previous generation is still complete for readers that are mid-fetch…
    assert!(read_generation(&out, &manifest).is_ok());
    // …and goes once a newer generation replaces it.
    fill(&mut store, 62..63, 150);
    let third = write_packs(&store, &out, &PackOptions::pages(PAGE)).unwrap();
    assert!(read_generation(&out, &third).is_ok());
    assert!(read_generation(&out, &next).is_ok());
    assert!(read_generation(&out, &manifest).is_err());
    let now = files(&out);
    let gone: Vec<&String> = before.difference(&now).collect();
    assert!(
        gone.iter()
            .all(|f| f.starts_with("i/") || f.ends_with(".uqt") || f.ends_with(".uqa")),
        "{gone:?}"
    );
    // The first generation's page folder is gone whole; the last two stay.
    let folders: HashSet<String> = now
        .iter()
        .filter_map(|f| f.strip_prefix("i/"))
        .filter_map(|f| f.split_once('/'))
        .map(|(g, _)| g.to_owned())
        .collect();
    let third_table =
        Table::decode(&read(&out, &third.table.name).unwrap(), &third.params).unwrap();
    let want: HashSet<String> = [next_table.generation, third_table.generation]
        .iter()
        .map(|g| format!("{g:016x}"))
        .collect();
    assert_eq!(folders, want);
}

#[test]
fn an_empty_store_writes_a_manifest_and_empty_pages() {
    let (dir, store) = temp_store();
    let m = write_packs(&store, &dir.path().join("p"), &PackOptions::pages(1024)).unwrap();
    assert_eq!(m.documents, 0);
    assert_eq!(Manifest::load(&dir.path().join("p")).unwrap(), m);
    assert!(read_generation(&dir.path().join("p"), &m)
        .unwrap()
        .is_empty());
}

#[test]
fn damaged_files_are_refused_clearly() {
    let (dir, mut store) = temp_store();
    fill(&mut store, 0..5, 100);
    let out = dir.path().join("p");
    let m = write_packs(&store, &out, &PackOptions::pages(1 << 20)).unwrap();
    let table = read(&out, &m.table.name).unwrap();
    let mut index = PackIndex::open(m.clone(), &table).unwrap();
    let page = index.all_pages()[0].clone();
    let mut bytes = read(&out, &page).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x5a;
    let err = index.add(&page, &bytes).unwrap_err();
    assert!(matches!(err, PackError::Checksum { .. }), "{err}");
    assert!(err.to_string().contains("damaged"), "{err}");
    let err = index.add(&page, &bytes[..bytes.len() - 10]).unwrap_err();
    assert!(
        matches!(
            err,
            PackError::Checksum { .. } | PackError::Truncated { .. }
        ),
        "{err}"
    );
    // A record handed in as a page, or a page the table does not name.
    let record = read(&out, &record_file(1)).unwrap();
    assert!(index.add(&page, &record).is_err());
    assert!(index
        .add("i/0000000000000000/0-0.uqi", &read(&out, &page).unwrap())
        .is_err());
    assert!(index.add("../secret", b"x").is_err());

    // A page of another generation, served under the name this generation's table gives its
    // place (a stale cache, a mixed-up host), is refused: it says which generation it is of.
    let old_page = read(&out, &page).unwrap();
    fill(&mut store, 5..40, 100);
    let next = write_packs(&store, &out, &PackOptions::pages(1 << 20)).unwrap();
    let table = read(&out, &next.table.name).unwrap();
    let mut index = PackIndex::open(next, &table).unwrap();
    let same_place = index.all_pages()[0].clone();
    assert_ne!(
        same_place, page,
        "the generation changed with the new documents"
    );
    assert_eq!(same_place[19..], page[19..], "{same_place} {page}");
    let err = index.add(&same_place, &old_page).unwrap_err();
    assert_eq!(err.code(), "pack_checksum", "{err}");
    assert_eq!(
        err,
        PackError::Generation {
            file: same_place.clone(),
            expected: u64::from_str_radix(&same_place[2..18], 16).unwrap(),
            found: u64::from_str_radix(&page[2..18], 16).unwrap(),
        }
    );
    assert!(err.to_string().contains("download it again"), "{err}");
    index
        .add(&same_place, &read(&out, &same_place).unwrap())
        .unwrap();
}

#[test]
fn a_reader_never_sees_a_manifest_naming_a_missing_or_partial_file() {
    let (dir, mut store) = temp_store();
    let out = dir.path().join("p");
    fill(&mut store, 0..40, 120);
    write_packs(&store, &out, &PackOptions::pages(1024)).unwrap();
    let done = AtomicBool::new(false);
    let (reads, retries) = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let (mut reads, mut retries) = (0, 0);
            while !done.load(Ordering::Relaxed) {
                let before = std::fs::read(out.join(MANIFEST)).expect("manifest is always there");
                let manifest: Manifest =
                    serde_json::from_slice(&before).expect("manifest is whole");
                match read_generation(&out, &manifest) {
                    Ok(records) => {
                        assert_eq!(records.len(), manifest.documents);
                        reads += 1;
                    }
                    Err(e) => {
                        // Allowed only when the writer has since moved on by two generations
                        // (the previous one is kept): the manifest must have changed.
                        let now = std::fs::read(out.join(MANIFEST)).unwrap();
                        assert_ne!(now, before, "the current manifest names a bad file: {e}");
                        retries += 1;
                    }
                }
            }
            (reads, retries)
        });
        for round in 0..50u64 {
            fill(&mut store, 100 + round..101 + round, 80);
            if round % 7 == 0 {
                store.delete(1 + round as i64).unwrap();
            }
            write_packs(&store, &out, &PackOptions::pages(1024)).unwrap();
        }
        done.store(true, Ordering::Relaxed);
        reader.join().unwrap()
    });
    assert!(
        reads > 0,
        "the reader read no generation ({retries} retries)"
    );
    let last = Manifest::load(&out).unwrap();
    assert_eq!(read_generation(&out, &last).unwrap(), stored(&store));
}

#[test]
fn changes_counts_writes_and_only_writes() {
    let (_dir, mut store) = temp_store();
    fill(&mut store, 0..3, 60);
    assert_eq!(store.changes().unwrap(), 1, "one batch, one change");
    let p = *store.params();
    let same: Vec<_> = (0..3)
        .map(|i| {
            let d = new_doc(i, 60);
            let a = Document::analyze(&d.text, d.format, &p, 1 << 20).unwrap();
            (d, a)
        })
        .collect();
    let results = store.upsert_batch(same).unwrap();
    assert!(results.iter().all(|r| matches!(r, Upsert::Unchanged(_))));
    assert_eq!(store.changes().unwrap(), 1);
    assert_eq!(store.count().unwrap(), 3);
    let got = store.get(2).unwrap().unwrap();
    assert_eq!(got.url, "https://example.com/1");
    assert!(store.get(99).unwrap().is_none());
}

#[test]
fn a_long_word_in_too_many_documents_finds_no_candidates_and_rarer_ones_still_do() {
    use uniqcheck::index::MAX_KEY_DOCS as MAX_LONG_WORD_DOCS;
    use uniqcheck::CheckOptions;
    let (_dir, mut store) = temp_store();
    let p = *store.params();
    let doc = |url: String, text: String| {
        let a = Document::analyze(&text, Format::Plain, &p, 1 << 20).unwrap();
        let d = NewDocument {
            url,
            title: String::new(),
            text,
            format: Format::Plain,
        };
        (d, a)
    };
    // More posts than the limit share one long word with the source, and nothing else.
    let noise = (0..=MAX_LONG_WORD_DOCS)
        .map(|i| {
            doc(
                format!("https://example.com/noise{i}"),
                format!("Internationalization notes number{i} mention nothing else"),
            )
        })
        .collect();
    store.upsert_batch(noise).unwrap();
    let source = "Internationalization of the storefront: translators rewrote checkout \
        instructions, localized currencies, and postponed everything else.";
    let added = store
        .upsert_batch(vec![doc(
            "https://example.com/source".into(),
            source.into(),
        )])
        .unwrap();
    let [Upsert::Added(source_id)] = added[..] else {
        panic!("{added:?}")
    };
    let draft = "Translators rewrote checkout instructions and localized currencies; \
        internationalization of the storefront postponed everything else.";
    let d = Document::analyze(draft, Format::Plain, &p, 1 << 20).unwrap();
    let found = store.candidates(&d, &CheckOptions::default()).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].id as i64, source_id);
    let report = store.check_document(&d, &CheckOptions::default()).unwrap();
    assert_eq!(report.sources.len(), 1);
    assert!(report.uniqueness < 20.0, "{}", report.uniqueness);
}

/// `bytes`, a pack file, with format version `version` and a CRC32 to match.
fn with_version(bytes: &[u8], version: u16) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[4..6].copy_from_slice(&version.to_le_bytes());
    let n = b.len() - 4;
    let crc = crc32fast::hash(&b[..n]).to_le_bytes();
    b[n..].copy_from_slice(&crc);
    b
}

/// Every pack file under `dir` (all but the manifest) and the format version it is in.
fn versions(dir: &Path) -> BTreeMap<String, u16> {
    files(dir)
        .into_iter()
        .filter(|f| f != MANIFEST)
        .map(|f| {
            let b = read(dir, &f).unwrap();
            let version = u16::from_le_bytes([b[4], b[5]]);
            (f, version)
        })
        .collect()
}

/// A record file as format version `version` (2 or 3) wrote it: the words themselves, no
/// shingle count; as version 4, 5 or 6 wrote it, this version's body.
fn old_record(bytes: &[u8], version: u16) -> Vec<u8> {
    if (4..=6).contains(&version) {
        return with_version(bytes, version);
    }
    let record = Record::decode(bytes, &Params::default()).unwrap();
    with_version(&record.encode_version_3(&Params::default()), version)
}

/// A store and its packs as a build of pack format `version` (2 or 3) left them: the store's
/// records in that layout and envelope and `format_version` in its meta; in the packs
/// directory, a manifest of that version naming a table, pages and records of that version,
/// the records under the numbers the next generation uses too. Returns the old table's and
/// pages' names.
fn downgrade_to_format(db: &Path, out: &Path, version: u16) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let blobs: Vec<(i64, Vec<u8>)> = conn
        .prepare("SELECT id, record FROM documents")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (id, blob) in blobs {
        conn.execute(
            "UPDATE documents SET record = ?2 WHERE id = ?1",
            rusqlite::params![id, old_record(&blob, version)],
        )
        .unwrap();
    }
    conn.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
        [version.to_string()],
    )
    .unwrap();

    let mut manifest = Manifest::load(out).unwrap();
    let mut old = Vec::new();
    for (name, found) in versions(out) {
        assert_eq!(found, FORMAT_VERSION, "{name}");
        let bytes = read(out, &name).unwrap();
        if name.starts_with("r/") {
            std::fs::write(out.join(&name), old_record(&bytes, version)).unwrap();
            continue;
        }
        let bytes = with_version(&bytes, version);
        std::fs::remove_file(out.join(&name)).unwrap();
        let id = format!("{:016x}", content_id(&bytes));
        let renamed = if name.starts_with("i/") {
            // Formats 2 to 5 named pages by their content.
            format!("i/{id}.uqi")
        } else {
            let renamed = format!("{id}{}", &name[16..]);
            if name == manifest.table.name {
                manifest.table.name = renamed.clone();
            } else {
                manifest.records.name = renamed.clone();
            }
            renamed
        };
        std::fs::write(out.join(&renamed), &bytes).unwrap();
        old.push(renamed);
    }
    manifest.format_version = version;
    std::fs::write(
        out.join(MANIFEST),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
    old
}

#[test]
fn a_store_and_packs_of_formats_2_to_6_move_to_format_7_without_reindexing() {
    assert_eq!(FORMAT_VERSION, 7);
    for version in [2, 3, 4, 5, 6] {
        moves_to_this_format_without_reindexing(version);
    }
}

fn moves_to_this_format_without_reindexing(version: u16) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let out = dir.path().join("p");
    let mut store = Store::open(&db, Params::default()).unwrap();
    fill(&mut store, 0..30, 150);
    let records = stored(&store);
    let draft = prose(7, 150);
    let opts = uniqcheck::CheckOptions::default();
    let report = store.check(&draft, Format::Plain, &opts).unwrap();
    let changes = store.changes().unwrap();
    write_packs(&store, &out, &PackOptions::pages(512)).unwrap();
    drop(store);
    let old = downgrade_to_format(&db, &out, version);
    assert!(old.iter().any(|f| f.starts_with("i/")) && old.len() > 2);

    // This build refuses every old file with the version code and the fix…
    let before = Manifest::load(&out).unwrap();
    let err = before.check_compatible(&before.params).unwrap_err();
    assert_eq!(err.code(), "pack_version");
    assert!(err.to_string().contains("rebuild the packs"), "{err}");
    let err = Record::decode(&read(&out, &record_file(1)).unwrap(), &before.params).unwrap_err();
    assert_eq!(err.code(), "pack_version", "{err}");

    // …opening the store upgrades its records in place (no document analysed again)…
    let store = Store::open_existing(&db).unwrap();
    assert_eq!(stored(&store), records);
    assert_eq!(store.changes().unwrap(), changes);
    assert_eq!(store.check(&draft, Format::Plain, &opts).unwrap(), report);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let format: String = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'format_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(format, FORMAT_VERSION.to_string());
    drop(conn);

    // …and the next generation rewrites every record under its number, and deletes every file
    // of the old one at once: no reader of this build could use them.
    let m = write_packs(&store, &out, &PackOptions::pages(512)).unwrap();
    assert_eq!(m.format_version, FORMAT_VERSION);
    assert_eq!(read_generation(&out, &m).unwrap(), records);
    let now = versions(&out);
    assert!(now.values().all(|&v| v == FORMAT_VERSION), "{now:?}");
    assert!(old.iter().all(|f| !now.contains_key(f)), "{old:?}");
    assert_eq!(now.keys().filter(|f| f.starts_with("r/")).count(), 30);
    // Opening the upgraded store again changes nothing.
    drop(store);
    let store = Store::open_existing(&db).unwrap();
    assert_eq!(stored(&store), records);
}

#[test]
fn bulk_writes_leave_a_run_a_batch_and_end_as_merged_writes_do() {
    use uniqcheck::index::List;
    use uniqcheck::CheckOptions;
    let dir = tempfile::tempdir().unwrap();
    let open = |name: &str| Store::open(&dir.path().join(name), Params::default()).unwrap();
    let (mut plain, mut bulk, mut compacted) = (open("plain.db"), open("bulk.db"), open("c.db"));
    bulk.set_bulk(true).unwrap();
    compacted.set_bulk(true).unwrap();
    for store in [&mut plain, &mut bulk, &mut compacted] {
        for start in [0, 40, 80] {
            fill(store, start..start + 40, 120);
        }
        // Updates: their old pairs are removed from whichever runs hold them.
        fill(store, 10..20, 90);
    }
    assert_eq!(bulk.runs().unwrap(), [4, 4, 4], "a run a batch and list");
    bulk.finish_bulk(true).unwrap();
    compacted.finish_bulk(false).unwrap();
    plain.merge().unwrap();
    assert_eq!(bulk.runs().unwrap(), [1, 1, 1]);
    assert!(compacted.runs().unwrap().iter().all(|&n| n < 4));
    for list in [List::Fingerprints, List::LongWords, List::Sentences] {
        let pairs = plain.key_pairs(list).unwrap();
        assert_eq!(bulk.key_pairs(list).unwrap(), pairs, "{list:?}");
        assert_eq!(compacted.key_pairs(list).unwrap(), pairs, "{list:?}");
    }
    assert_eq!(stored(&bulk), stored(&plain));
    let opts = CheckOptions::default();
    for draft in [prose(15, 90), prose(50, 120)] {
        let want = plain.check(&draft, Format::Plain, &opts).unwrap();
        assert!(!want.sources.is_empty());
        assert_eq!(bulk.check(&draft, Format::Plain, &opts).unwrap(), want);
        assert_eq!(compacted.check(&draft, Format::Plain, &opts).unwrap(), want);
    }
    // Writes after it merge as before.
    fill(&mut bulk, 120..160, 120);
    assert!(bulk.runs().unwrap().iter().all(|&n| n <= 2));
}

#[test]
fn bulk_writes_merge_once_a_list_holds_more_than_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("b.db"), Params::default()).unwrap();
    store.set_bulk(true).unwrap();
    let mut most = 0;
    for batch in 0..BULK_MAX_RUNS + 4 {
        let first = batch as u64 * 2;
        fill(&mut store, first..first + 2, 60);
        let runs = store.runs().unwrap();
        most = most.max(runs[0]);
        if batch < BULK_MAX_RUNS {
            assert_eq!(runs[0], batch + 1, "a run a batch up to the bound");
        }
    }
    assert_eq!(most, BULK_MAX_RUNS, "never more than the bound");
    assert!(store.runs().unwrap()[0] < BULK_MAX_RUNS, "merged past it");
}

#[test]
fn a_bilingual_table_is_published_by_its_content_kept_while_named_and_then_collected() {
    let (dir, mut store) = temp_store();
    fill(&mut store, 0..5, 100);
    let out = dir.path().join("p");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/bilingual/en-ru.uqbl");
    let shipped = std::fs::read(path).unwrap();
    let table = std::sync::Arc::new(uniqcheck::bilingual::Bilingual::decode(&shipped).unwrap());
    let with = PackOptions {
        bilingual: Some(table),
        ..PackOptions::default()
    };
    let m = write_packs(&store, &out, &with).unwrap();
    let file = m.bilingual.clone().expect("the manifest names the table");
    // The shipped file's own bytes, named by them: a checker verifies the name.
    assert_eq!(read(&out, &file.name).unwrap(), shipped);
    assert_eq!(file.bytes, shipped.len() as u64);
    assert_eq!(file.name, format!("{:016x}.uqbl", content_id(&shipped)));
    assert_eq!(Manifest::load(&out).unwrap(), m);
    let mut index = PackIndex::open(m.clone(), &read(&out, &m.table.name).unwrap()).unwrap();
    assert_eq!(
        index.all_pages()[0],
        file.name,
        "download everything fetches it too"
    );
    index.add(&file.name, &shipped).unwrap();
    assert!(index.bilingual().is_some() && !index.all_pages().contains(&file.name));

    // Written without it: the previous generation's readers still find it, the next one's do not.
    fill(&mut store, 5..8, 100);
    let next = write_packs(&store, &out, &PackOptions::default()).unwrap();
    assert!(next.bilingual.is_none());
    assert!(
        out.join(&file.name).exists(),
        "the previous manifest names it"
    );
    fill(&mut store, 8..9, 100);
    write_packs(&store, &out, &PackOptions::default()).unwrap();
    assert!(
        !out.join(&file.name).exists(),
        "named by neither live generation"
    );
}
