//! Translated reuse through the shipped English–Russian table (`data/bilingual/en-ru.uqbl`): a
//! Russian text translated from an English one (and the reverse) is found and shown as a
//! translation, on `compare` and through an index; a text on the same topic written without the
//! source is not; and nothing is sought without the table.

use std::sync::{Arc, OnceLock};
use uniqcheck::bilingual::Bilingual;
use uniqcheck::{compare, CheckOptions, Corpus, Format, Params, SourceInfo};

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
