//! Translated reuse through the shipped English–Russian table (`data/bilingual/en-ru.uqbl`): a
//! Russian text translated from an English one (and the reverse) is found and shown as a
//! translation, on `compare` and through an index; a text on the same topic written without the
//! source is not; packs that publish the table find it as an index does; and nothing is sought
//! without the table.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use uniqcheck::bilingual::Bilingual;
use uniqcheck::pack::{bilingual_file, content_id, Builder, FileRef, Manifest, Record, PAGE_BYTES};
use uniqcheck::{compare, CheckOptions, Corpus, Document, Format, PackIndex, Params, SourceInfo};

fn table() -> Arc<Bilingual> {
    static TABLE: OnceLock<Arc<Bilingual>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/bilingual/en-ru.uqbl");
            let bytes = std::fs::read(path).expect("the shipped table");
            let t = Bilingual::decode(&bytes).expect("made for this engine's canonicalizer");
            t.check(Params::default().stemming).unwrap();
            Arc::new(t)
        })
        .clone()
}

fn with_table() -> CheckOptions {
    CheckOptions {
        bilingual: Some(table()),
        ..Default::default()
    }
}

/// An English news text of our own (tests/data/translation/, shared by the server's and the
/// WebAssembly tests).
const ENGLISH: &str = include_str!("data/translation/bridge-en.txt");

/// A translator's Russian of [`ENGLISH`], sentence by sentence.
const RUSSIAN: &str = include_str!("data/translation/bridge-ru.txt");

/// Russian on the same topic (a bridge, a city, repairs), written without [`ENGLISH`].
const RUSSIAN_OWN: &str = "Жители района давно жалуются на пробки у въезда на новый мост. \
    По утрам машины стоят в очереди почти час, а водители автобусов опаздывают на смену. \
    Мэрия обещает построить развязку, но денег в бюджете города пока нет. \
    Архитекторы предлагают сделать отдельную полосу для велосипедистов и пешеходов. \
    Соседние магазины выиграли бы от потока людей, считают предприниматели. \
    Обсуждение проекта продолжится на общественных слушаниях в декабре.";

#[test]
fn a_russian_translation_of_an_english_text_is_shown_as_translated() {
    let p = Params::default();
    let c = compare(
        RUSSIAN,
        Format::Plain,
        ENGLISH,
        Format::Plain,
        &p,
        &with_table(),
    )
    .unwrap();
    assert!(!c.translations.is_empty(), "{c:?}");
    assert!(c.fragments.is_empty() && c.rewrites.is_empty());
    assert!(c.originality < 40.0, "originality {}", c.originality);
    // Uniqueness counts copies only: a translation copies no word.
    assert_eq!(c.uniqueness, 100.0);
    for t in &c.translations {
        let [start, end] = t.source.expect("the source passage, its text being known");
        assert!(start < end && end <= ENGLISH.len());
    }
    // The reverse direction, with the same table.
    let back = compare(
        ENGLISH,
        Format::Plain,
        RUSSIAN,
        Format::Plain,
        &p,
        &with_table(),
    )
    .unwrap();
    assert!(back.originality < 40.0, "originality {}", back.originality);
    // Without the table, within one language only: nothing.
    let plain = compare(
        RUSSIAN,
        Format::Plain,
        ENGLISH,
        Format::Plain,
        &p,
        &CheckOptions::default(),
    )
    .unwrap();
    assert!(plain.translations.is_empty());
    assert_eq!(plain.originality, 100.0);
}

#[test]
fn a_text_on_the_same_topic_in_the_other_language_is_not_a_translation() {
    let p = Params::default();
    let c = compare(
        RUSSIAN_OWN,
        Format::Plain,
        ENGLISH,
        Format::Plain,
        &p,
        &with_table(),
    )
    .unwrap();
    assert!(c.translations.is_empty(), "{:?}", c.translations);
    assert_eq!(c.originality, 100.0);
}

#[test]
fn an_index_finds_the_english_source_of_a_russian_translation() {
    let p = Params::default();
    let mut corpus = Corpus::new(p).unwrap();
    let info = |id: &str| SourceInfo {
        id: id.into(),
        ..Default::default()
    };
    corpus
        .add(info("bridge"), ENGLISH, Format::Plain, 1 << 20)
        .unwrap();
    let other = "Astronomers measured the distance to a faint galaxy using the light of distant \
        supernovae, and found that it moves away from us faster than their models predicted.";
    corpus
        .add(info("other"), other, Format::Plain, 1 << 20)
        .unwrap();
    let report = corpus.check(RUSSIAN, Format::Plain, &with_table()).unwrap();
    let ids: Vec<&str> = report.sources.iter().map(|s| s.info.id.as_str()).collect();
    assert_eq!(ids, ["bridge"]);
    assert!(!report.translations.is_empty());
    assert!(
        report.originality < 40.0,
        "originality {}",
        report.originality
    );
    // Without the table the check does not look for the source in the other language.
    let plain = corpus
        .check(RUSSIAN, Format::Plain, &CheckOptions::default())
        .unwrap();
    assert!(plain.sources.is_empty());
    let own = corpus
        .check(RUSSIAN_OWN, Format::Plain, &with_table())
        .unwrap();
    assert!(own.sources.is_empty(), "{:?}", own.sources);
}

/// A generation of packs of [`ENGLISH`] and an unrelated text, publishing the table when
/// `bilingual`: its manifest and files by name, as `uniqcheck pack` writes them.
fn packs(bilingual: bool) -> (Manifest, HashMap<String, Vec<u8>>) {
    let params = Params::default();
    let mut builder = Builder::new(params);
    let mut files = HashMap::new();
    let other = "Astronomers measured the distance to a faint galaxy using the light of distant \
        supernovae, and found that it moves away from us faster than their models predicted.";
    for (rev, (id, text)) in [("bridge", ENGLISH), ("other", other)]
        .into_iter()
        .enumerate()
    {
        let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
        let info = SourceInfo {
            id: id.into(),
            ..Default::default()
        };
        let (name, bytes) = builder.add(rev as u64, &Record::from_document(info, &doc));
        files.insert(name, bytes);
    }
    let done = builder.finish(PAGE_BYTES);
    let mut manifest = Manifest::new(&done, 0, 0);
    files.extend(done.files);
    if bilingual {
        let bytes = table().encode();
        let name = bilingual_file(content_id(&bytes));
        manifest.bilingual = Some(FileRef {
            name: name.clone(),
            bytes: bytes.len() as u64,
        });
        files.insert(name, bytes);
    }
    (manifest, files)
}

/// Adds what `needed` names until it names nothing; the names of every round.
fn fetch(
    packs: &mut PackIndex,
    draft: &Document,
    files: &HashMap<String, Vec<u8>>,
) -> Vec<Vec<String>> {
    let opts = CheckOptions::default();
    let mut rounds = Vec::new();
    loop {
        let needed = packs.needed(draft, &opts).unwrap();
        if needed.is_empty() {
            return rounds;
        }
        assert!(rounds.len() < 4, "{rounds:?}");
        for name in &needed {
            packs.add(name, &files[name]).unwrap();
        }
        rounds.push(needed);
    }
}

#[test]
fn packs_that_publish_the_table_find_a_translation_as_an_index_with_the_table_does() {
    let (manifest, files) = packs(true);
    let params = manifest.params;
    let table_name = manifest.bilingual.clone().unwrap().name;
    let mut packs = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
    let draft = Document::analyze(RUSSIAN, Format::Plain, &params, 1 << 20).unwrap();
    let rounds = fetch(&mut packs, &draft, &files);
    // The table comes in the first round, with the pages of the draft's own keys; the pages of
    // its translated keys and the records after it.
    assert!(rounds[0].contains(&table_name), "{rounds:?}");
    assert!(rounds[1..].iter().flatten().all(|n| *n != table_name));
    assert!(packs.bilingual().is_some());
    let report =
        uniqcheck::check::check_document(&packs, &draft, &CheckOptions::default()).unwrap();
    let ids: Vec<&str> = report.sources.iter().map(|s| s.info.id.as_str()).collect();
    assert_eq!(ids, ["bridge"]);
    let mut corpus = Corpus::new(params).unwrap();
    let info = SourceInfo {
        id: "bridge".into(),
        ..Default::default()
    };
    corpus.add(info, ENGLISH, Format::Plain, 1 << 20).unwrap();
    let expected = corpus.check(RUSSIAN, Format::Plain, &with_table()).unwrap();
    assert_eq!(
        (report.originality, &report.translations),
        (expected.originality, &expected.translations)
    );
    // A second draft needs no table again.
    let again = Document::analyze(ENGLISH, Format::Plain, &params, 1 << 20).unwrap();
    let rounds = fetch(&mut packs, &again, &files);
    assert!(
        rounds.iter().flatten().all(|n| *n != table_name),
        "{rounds:?}"
    );
}

#[test]
fn packs_without_the_table_find_no_translation_and_a_damaged_table_is_refused() {
    let (manifest, files) = packs(false);
    let params = manifest.params;
    let mut plain = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
    let draft = Document::analyze(RUSSIAN, Format::Plain, &params, 1 << 20).unwrap();
    fetch(&mut plain, &draft, &files);
    let report =
        uniqcheck::check::check_document(&plain, &draft, &CheckOptions::default()).unwrap();
    assert!(report.sources.is_empty() && report.translations.is_empty());

    let (manifest, files) = packs(true);
    let name = manifest.bilingual.clone().unwrap().name;
    let mut packs = PackIndex::open(manifest.clone(), &files[&manifest.table.name]).unwrap();
    let mut damaged = files[&name].clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    let err = packs.add(&name, &damaged).unwrap_err();
    assert_eq!(err.code(), "pack_checksum");
    assert!(packs.bilingual().is_none());
    // A name the manifest does not give is not taken for a table.
    let other = bilingual_file(content_id(b"another table"));
    assert!(packs.add(&other, &files[&name]).is_err());
    packs.add(&name, &files[&name]).unwrap();
    assert!(packs.bilingual().is_some());
}
