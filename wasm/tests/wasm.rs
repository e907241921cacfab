//! The WebAssembly facade, run in Node and in headless Chromium (`wasm-bindgen-test`), against
//! packs built in memory with the engine's own `pack::Builder`.
//! Native builds compile this file to nothing.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, JsString, Reflect};
use std::collections::BTreeMap;
use uniqcheck::canonicalize::CANONICALIZER_VERSION;
use uniqcheck::pack::{Builder, Manifest, Record, FORMAT_VERSION, PAGE_BYTES};
use uniqcheck::{Document, Format, Params, SourceInfo};
use uniqcheck_wasm::{read_manifest, Checker};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

// The runtime is chosen by the runner: Node by default, a browser with WASM_BINDGEN_USE_BROWSER=1.

const ARTICLE: &str = "Осенью сад требует не меньше внимания, чем весной. Опавшие листья лучше не \
сжигать: из них получается отличный компост, который весной вернёт почве питательные вещества. \
Молодые деревья стоит укрыть мешковиной, чтобы мороз не повредил кору. Розы обрезают после первых \
заморозков, оставляя над землёй три или четыре почки. Луковицы тюльпанов высаживают до середины \
октября, пока земля ещё тёплая. Садовый инвентарь перед зимой нужно очистить от земли, просушить и \
смазать маслом, иначе к весне металл покроется ржавчиной. Шланги сворачивают и убирают в сарай, а бочки \
для дождевой воды переворачивают вверх дном, чтобы лёд их не разорвал.";

const OTHER: &str =
    "Совсем другая статья о велосипедах, городских маршрутах и выборе шлема для детей.";

const BIKES: &str = "Городской велосипед выбирают по росту: рама должна оставлять между ногами и \
верхней трубой несколько сантиметров. Для поездок на работу удобнее планетарная втулка, которая \
почти не требует ухода и переключается даже на месте. Крылья и багажник избавят от грязной спины и \
тяжёлого рюкзака, а яркий задний фонарь сделает вечернюю дорогу домой спокойнее. Шины чуть шире \
обычных смягчают трамвайные рельсы и бордюры, а замок лучше брать тяжёлый, U-образный.";

/// One generation of packs, as `uniqcheck pack -o DIR` would write it, in memory.
struct Packs {
    manifest: Manifest,
    /// Every file but the manifest, by its path relative to the manifest.
    files: BTreeMap<String, Vec<u8>>,
}

impl Packs {
    fn build(texts: &[(&str, &str)], params: Params) -> Packs {
        let mut builder = Builder::new(params);
        let mut files = BTreeMap::new();
        for (i, (id, text)) in texts.iter().enumerate() {
            let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
            let info = SourceInfo {
                id: id.to_string(),
                url: format!("https://example.org/{id}"),
                title: id.to_string(),
            };
            let (name, bytes) = builder.add(i as u64 + 1, &Record::from_document(info, &doc));
            files.insert(name, bytes);
        }
        let done = builder.finish(PAGE_BYTES);
        let manifest = Manifest::new(&done, 3, 1_700_000_000);
        files.extend(done.files);
        Packs { manifest, files }
    }

    /// The manifest as JavaScript parses it from `manifest.json`.
    fn manifest_js(&self) -> JsValue {
        json(&serde_json_of(&self.manifest))
    }

    fn file(&self, name: &str) -> &[u8] {
        self.files
            .get(name)
            .unwrap_or_else(|| panic!("no file {name}"))
    }

    fn table(&self) -> &[u8] {
        self.file(&self.manifest.table.name)
    }

    /// A checker opened from these packs, nothing fetched yet.
    fn open(&self) -> Checker {
        Checker::open(self.manifest_js(), bytes(self.table()), None).unwrap()
    }

    /// Index pages (`i/<generation>/<list>-<number>.uqi`).
    fn pages(&self) -> Vec<&str> {
        self.names("i/")
    }

    /// Records (`r/…/….uqr`).
    fn records(&self) -> Vec<&str> {
        self.names("r/")
    }

    fn names(&self, prefix: &str) -> Vec<&str> {
        self.files
            .keys()
            .filter(|n| n.starts_with(prefix))
            .map(String::as_str)
            .collect()
    }

    /// Hands `checker` the files `names` of these packs, as fetched.
    fn add(&self, checker: &mut Checker, names: &[impl AsRef<str>]) {
        for name in names {
            let name = name.as_ref();
            checker.add(s(name), bytes(self.file(name))).unwrap();
        }
    }

    /// Runs the fetch loop `loadChecker` runs: `needed`, add each file, again until nothing is
    /// missing. Returns the rounds it took and the files it added.
    fn fill(&self, checker: &mut Checker, text: &str) -> (usize, Vec<String>) {
        let mut added = Vec::new();
        for round in 0..6 {
            let needed = checker.needed(s(text), None).unwrap();
            if needed.is_empty() {
                return (round, added);
            }
            self.add(checker, &needed);
            added.extend(needed);
        }
        panic!("needed() still names files after 6 rounds");
    }
}

/// A manifest's JSON text, as the server writes it (serde's field names are the wire contract).
fn serde_json_of(m: &Manifest) -> String {
    let v = m
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    String::from(js_sys::JSON::stringify(&v).unwrap())
}

use serde::Serialize;

fn json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap()
}

/// `value` with `key` set to `to` (a JSON value), as a manifest someone edited.
fn with(value: &JsValue, key: &str, to: &str) -> JsValue {
    let copy = json(&String::from(js_sys::JSON::stringify(value).unwrap()));
    Reflect::set(&copy, &key.into(), &json(to)).unwrap();
    copy
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number"))
}

/// The JS Error a facade call threw (it must be one).
fn thrown(err: impl Into<JsValue>) -> js_sys::Error {
    let v: JsValue = err.into();
    assert!(
        v.is_instance_of::<js_sys::Error>(),
        "errors must be JS Error objects"
    );
    v.unchecked_into()
}

/// The message of the JS Error a facade call threw.
fn message(err: impl Into<JsValue>) -> String {
    String::from(thrown(err).message())
}

/// The `code` of the JS Error a facade call threw.
fn code(err: impl Into<JsValue>) -> String {
    let e = thrown(err);
    get(&e, "code")
        .as_string()
        .unwrap_or_else(|| panic!("no code on {e:?}"))
}

/// Bytes as JavaScript passes them: a `Uint8Array`.
fn bytes(b: &[u8]) -> JsValue {
    js_sys::Uint8Array::from(b).into()
}

/// A string as JavaScript passes it.
fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

/// `bytes` with the canonicalizer version of its envelope changed and the CRC32 repaired: a
/// well-formed file from another version of the rules.
fn other_canonicalizer(file: &[u8]) -> Vec<u8> {
    let mut b = file[..file.len() - 4].to_vec();
    let canon = u16::from_le_bytes([b[7], b[8]]) + 1;
    b[7..9].copy_from_slice(&canon.to_le_bytes());
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

fn garden() -> Packs {
    Packs::build(
        &[("garden", ARTICLE), ("other", OTHER), ("bikes", BIKES)],
        Params::default(),
    )
}

#[wasm_bindgen_test]
fn checks_a_draft_with_utf16_spans() {
    let packs = garden();
    let mut checker = packs.open();
    assert_eq!(checker.document_count(), 3);
    assert_eq!(
        checker.loaded_bytes(),
        0.0,
        "nothing fetched before a check"
    );

    // Emoji (surrogate pairs), a combining accent and CRLF before the copy shift UTF-16 offsets.
    let intro = "Мой сад 🌻🍂 и е\u{301}го секреты.\r\nЗаписки садовода, год второй.\r\n";
    let draft = format!("{intro}{ARTICLE}");
    let (rounds, added) = packs.fill(&mut checker, &draft);
    assert_eq!(rounds, 2, "pages, then records: {added:?}");
    assert!(
        added.iter().any(|n| n.starts_with("i/")) && added.iter().any(|n| n.starts_with("r/")),
        "{added:?}"
    );
    assert!(
        added.len() < packs.files.len() - 2,
        "only what the draft needs: {added:?}"
    );
    let loaded = checker.loaded_bytes();
    assert_eq!(
        loaded as usize,
        added.iter().map(|n| packs.file(n).len()).sum::<usize>()
    );

    // Adding a file twice changes nothing a check sees.
    checker
        .add(s(&added[0]), bytes(packs.file(&added[0])))
        .unwrap();
    assert!(checker.needed(s(&draft), None).unwrap().is_empty());

    let report = checker.check(s(&draft), None).unwrap();
    assert!(num(&report, "uniqueness") < 30.0);
    let fragments: Array = get(&report, "fragments").into();
    assert_eq!(fragments.length(), 1);
    let f = fragments.get(0);
    let js = JsString::from(draft.as_str());
    let text = String::from(js.slice(num(&f, "start") as u32, num(&f, "end") as u32));
    assert!(text.starts_with("Осенью сад"), "{text}");
    assert!(ARTICLE.starts_with(&text), "{text}");
    // Records hold every content word: the copy is highlighted to its last word.
    assert!(text.ends_with("не разорвал"), "{text}");
    let sources: Array = get(&report, "sources").into();
    assert_eq!(sources.length(), 1);
    assert_eq!(
        get(&sources.get(0), "url").as_string().unwrap(),
        "https://example.org/garden"
    );
    assert_eq!(get(&report, "method").as_string().unwrap(), "shingles");
    assert_eq!(get(&report, "capped"), JsValue::FALSE);
}

#[wasm_bindgen_test]
fn a_recheck_while_typing_fetches_only_what_is_new() {
    let packs = garden();
    let mut checker = packs.open();
    let (_, first) = packs.fill(&mut checker, ARTICLE);
    // The same text again, and the text with a few words typed at the end: nothing new.
    assert!(checker.needed(s(ARTICLE), None).unwrap().is_empty());
    let typed = format!("{ARTICLE} И ещё пара слов");
    let again = checker.needed(s(&typed), None).unwrap();
    assert!(
        again.iter().all(|n| !first.contains(n)),
        "{again:?} repeats {first:?}"
    );
    // Another article pasted below: only its own files.
    let both = format!("{ARTICLE}\n\n{BIKES}");
    let (_, second) = packs.fill(&mut checker, &both);
    assert!(!second.is_empty());
    assert!(second.iter().all(|n| !first.contains(n)), "{second:?}");
    let report = checker.check(s(&both), None).unwrap();
    let urls: Vec<String> = Array::from(&get(&report, "sources"))
        .iter()
        .map(|s| get(&s, "url").as_string().unwrap())
        .collect();
    assert_eq!(
        urls.len(),
        2,
        "both articles are found: {urls:?} ({second:?})"
    );
}

#[wasm_bindgen_test]
fn a_check_before_its_files_are_added_is_pack_missing() {
    let packs = garden();
    let mut checker = packs.open();
    let err = checker.check(s(ARTICLE), None).unwrap_err();
    assert_eq!(err.code, "pack_missing");
    assert!(err.message.contains("i/"), "{}", err.message);
    // The pages first, named from the table alone.
    let pages = checker.needed(s(ARTICLE), None).unwrap();
    assert!(
        !pages.is_empty() && pages.iter().all(|n| n.starts_with("i/")),
        "{pages:?}"
    );
    // Pages added, records not: still missing, now a record.
    packs.add(&mut checker, &pages);
    let records = checker.needed(s(ARTICLE), None).unwrap();
    assert!(
        !records.is_empty() && records.iter().all(|n| n.starts_with("r/")),
        "{records:?}"
    );
    let err = checker.check(s(ARTICLE), None).unwrap_err();
    assert_eq!(code(err), "pack_missing");
    packs.add(&mut checker, &records);
    assert!(checker.needed(s(ARTICLE), None).unwrap().is_empty());
    assert_eq!(
        num(&checker.check(s(ARTICLE), None).unwrap(), "uniqueness"),
        0.0
    );
}

#[wasm_bindgen_test]
fn download_everything_then_any_draft_needs_nothing() {
    let packs = garden();
    let mut checker = packs.open();
    // Every page, named from the table: one round.
    let pages = checker.all_pages();
    let mut expected_pages = packs.pages();
    expected_pages.sort();
    let mut sorted = pages.clone();
    sorted.sort();
    assert_eq!(sorted, expected_pages);
    packs.add(&mut checker, &pages);
    assert!(checker.all_pages().is_empty());
    let list = packs.file(&packs.manifest.records.name);
    let mut records = checker.records_to_fetch(bytes(list)).unwrap();
    records.sort();
    assert_eq!(records, packs.records());
    packs.add(&mut checker, &records);
    assert!(checker.records_to_fetch(bytes(list)).unwrap().is_empty());
    let all: usize = packs
        .files
        .iter()
        .filter(|(n, _)| n.starts_with("i/") || n.starts_with("r/"))
        .map(|(_, b)| b.len())
        .sum();
    assert_eq!(checker.loaded_bytes() as usize, all);
    for draft in [
        ARTICLE,
        BIKES,
        OTHER,
        "Слово за слово, и вышел совсем новый текст.",
    ] {
        assert!(
            checker.needed(s(draft), None).unwrap().is_empty(),
            "{draft}"
        );
        checker.check(s(draft), None).unwrap();
    }
    assert_eq!(
        code(checker.records_to_fetch(bytes(b"junk")).unwrap_err()),
        "pack_magic"
    );
}

#[wasm_bindgen_test]
fn a_file_under_another_name_is_refused() {
    let packs = garden();
    let mut checker = packs.open();
    let needed = checker.needed(s(ARTICLE), None).unwrap();
    // The first files a check needs: index pages.
    let page = &needed[0];
    assert!(page.starts_with("i/"), "{page}");
    // A page handed in as another page (it says it is elsewhere), or as a record; a record as
    // a page.
    let other_page = packs.pages().into_iter().find(|n| n != page).unwrap();
    let err = checker
        .add(s(other_page), bytes(packs.file(page)))
        .unwrap_err();
    assert_eq!(err.code, "pack_corrupt", "{}", err.message);
    assert!(err.message.contains(other_page), "{}", err.message);
    let record = packs.records()[0];
    assert_eq!(
        code(checker.add(s(record), bytes(packs.file(page))).unwrap_err()),
        "pack_corrupt"
    );
    assert_eq!(
        code(checker.add(s(page), bytes(packs.file(record))).unwrap_err()),
        "pack_corrupt"
    );
    // A page of another generation than the table's, and names that are no pack file's.
    let unknown = "i/0123456789abcdef/0-0.uqi";
    let err = checker
        .add(s(unknown), bytes(packs.file(page)))
        .unwrap_err();
    assert_eq!(err.code, "manifest_invalid");
    assert!(err.message.contains(unknown), "{}", err.message);
    for name in [
        "manifest.json",
        "../i/x.uqi",
        "i/0123456789abcdef.uqi",
        "t/0123456789abcdef.uqp",
        "r/0/01.uqr",
        "https://evil.example/i/0123456789abcdef.uqi",
    ] {
        assert_eq!(
            code(checker.add(s(name), bytes(packs.file(page))).unwrap_err()),
            "manifest_invalid",
            "{name}"
        );
    }
    assert_eq!(checker.loaded_bytes(), 0.0, "refused files add nothing");
    assert_eq!(checker.needed(s(ARTICLE), None).unwrap(), needed);
}

#[wasm_bindgen_test]
fn compare_gives_spans_on_both_sides() {
    let checker = Checker::new(None).unwrap();
    let a = format!("👩‍👩‍👧 Вступление.\r\n{ARTICLE}");
    let b = format!("Совсем другое начало статьи. {ARTICLE} Конец.");
    let c = checker.compare(s(&a), s(&b), None).unwrap();
    let pair = Array::from(&get(&c, "fragments")).get(0);
    let (sa, sb): (Array, Array) = (get(&pair, "draft").into(), get(&pair, "source").into());
    let slice = |s: &str, r: &Array| {
        String::from(JsString::from(s).slice(
            r.get(0).as_f64().unwrap() as u32,
            r.get(1).as_f64().unwrap() as u32,
        ))
    };
    assert_eq!(slice(&a, &sa), slice(&b, &sb));
    assert!(slice(&a, &sa).starts_with("Осенью"));
    // A checker without packs finds nothing and needs nothing.
    assert!(checker.needed(s(ARTICLE), None).unwrap().is_empty());
    assert!(checker.all_pages().is_empty());
    assert_eq!(
        Array::from(&get(&checker.check(s(ARTICLE), None).unwrap(), "sources")).length(),
        0
    );
}

#[wasm_bindgen_test]
fn sketch_gives_stats_and_disguises_in_utf16() {
    let checker = Checker::new(None).unwrap();
    // An emoji (two UTF-16 units) before a word with a Latin "c" among Cyrillic letters, and a
    // zero-width space: the offsets select them in the JS string.
    let text = "🍳 Сковорода, сковороду и сковородой: cковорода на\u{200B}столе.";
    let sketch = checker.sketch(s(text), None).unwrap();
    let stats = get(&sketch, "stats");
    assert_eq!(
        num(&stats, "nauseaClassic"),
        2.0,
        "the four forms of one word: √4"
    );
    let top = Array::from(&get(&stats, "topWords")).get(0);
    assert_eq!(get(&top, "word").as_string().unwrap(), "сковорода");
    assert_eq!(num(&top, "count"), 4.0);
    assert!(num(&stats, "water") > 0.0 && Array::from(&get(&stats, "waterWords")).length() > 0);
    let js = JsString::from(text);
    let found: Vec<(String, String)> = Array::from(&get(&sketch, "disguises"))
        .iter()
        .map(|d| {
            let piece = js.slice(num(&d, "start") as u32, num(&d, "end") as u32);
            (String::from(piece), get(&d, "kind").as_string().unwrap())
        })
        .collect();
    assert_eq!(
        found,
        [
            ("cковорода".to_string(), "mixed_script".to_string()),
            ("\u{200B}".to_string(), "invisible".to_string()),
        ]
    );
}

/// A sketch as serde-wasm-bindgen serialized the engine's values before `src/results.js`
/// built it in JavaScript: what `Checker.sketch` must still return, key for key.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SerdeSketch {
    words: usize,
    all_words: usize,
    shingles: usize,
    fingerprints: usize,
    exact: String,
    set_size: u32,
    minhash: Vec<u32>,
    stats: uniqcheck::stats::TextStats,
    disguises: Vec<uniqcheck::canonicalize::Disguise>,
}

fn serde_sketch(text: &str) -> String {
    use uniqcheck::{OffsetConverter, Unit};
    let d = Document::analyze(text, Format::Plain, &Params::default(), 1 << 25).unwrap();
    let utf16 = OffsetConverter::new(text, Unit::Utf16);
    let disguises = uniqcheck::canonicalize::disguises(text, Format::Plain, &d.canonical)
        .into_iter()
        .map(|x| uniqcheck::canonicalize::Disguise {
            start: utf16.convert(x.start as usize) as u32,
            end: utf16.convert(x.end as usize) as u32,
            ..x
        })
        .collect();
    let sketch = SerdeSketch {
        words: d.content_words(),
        all_words: d.canonical.words.len(),
        shingles: d.shingles.len(),
        fingerprints: d.fingerprints.len(),
        exact: format!("{:016x}", d.exact),
        set_size: d.sketch.set_size,
        minhash: d.sketch.mins.clone(),
        stats: uniqcheck::stats::TextStats::of(text, Format::Plain, &d.canonical),
        disguises,
    };
    let v = sketch
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    String::from(js_sys::JSON::stringify(&v).unwrap())
}

#[wasm_bindgen_test]
fn sketch_is_the_object_serde_made() {
    let checker = Checker::new(None).unwrap();
    let sketch = |text: &JsValue| {
        let v = checker.sketch(text.clone(), None).unwrap();
        String::from(js_sys::JSON::stringify(&v).unwrap())
    };
    // Words outside the BMP (two UTF-16 units a letter) among the top words, both kinds of
    // disguise, stop words, and a text of one word.
    for text in [
        ARTICLE,
        BIKES,
        "🍳 Сковорода, сковороду и сковородой: cковорода на\u{200B}столе.",
        "x𝐀y and x𝐀y and x𝐀y are 𝐁𝐂 and 𝐁𝐂, the ℌ𝔦 of it\u{00AD}s \u{200D}words",
        "слово",
    ] {
        assert_eq!(sketch(&s(text)), serde_sketch(text), "{text}");
    }
    // A lone surrogate in the JS string is read as U+FFFD.
    let units: Vec<u16> = "a lone ? surrogate in a draft"
        .encode_utf16()
        .map(|u| if u == u16::from(b'?') { 0xD800 } else { u })
        .collect();
    let lone = JsValue::from(JsString::from_char_code(&units));
    let expected = serde_sketch(&String::from_utf16_lossy(&units));
    assert_eq!(sketch(&lone), expected);
    let stats = get(
        &checker.sketch(s("x𝐀y x𝐀y 𝐁𝐂 𝐁𝐂 𝐁𝐂"), None).unwrap(),
        "stats",
    );
    let words: Vec<String> = Array::from(&get(&stats, "topWords"))
        .iter()
        .map(|w| get(&w, "word").as_string().unwrap())
        .collect();
    assert_eq!(words, ["𝐁𝐂", "x𝐀y"], "cut by UTF-16 lengths");
}

/// The module is built with `simd128` (scripts/build-pkg, and scripts/test for these tests), where
/// MinHash takes sixteen hash functions at a time and any others one by one: each of K's slots
/// must hold the same minimum whichever way it was computed, as in a longer signature (K's
/// functions are the first K of any longer K's).
#[wasm_bindgen_test]
fn minhash_slots_do_not_depend_on_how_k_splits_into_lanes() {
    use uniqcheck::sketch::{shingle_set, Sketch};
    let set = shingle_set((1..=700u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    let long = Sketch::from_set(&set, 1024);
    assert!(long.mins.iter().any(|&m| m != long.mins[0]));
    for k in [16, 17, 31, 100, 128, 1000] {
        assert_eq!(Sketch::from_set(&set, k).mins, long.mins[..k], "k = {k}");
    }
    assert_eq!(Sketch::from_set(&[], 100).mins, vec![0; 100]);
}

#[wasm_bindgen_test]
fn every_failure_is_a_js_error_with_a_message() {
    let packs = garden();
    let mut checker = packs.open();
    let page = checker.needed(s(ARTICLE), None).unwrap().remove(0);
    assert!(message(checker.check(s("   \n "), None).unwrap_err()).contains("empty"));
    assert!(message(
        checker
            .add(s(&page), bytes(b"not a pack at all"))
            .unwrap_err()
    )
    .contains("pack"));
    let good = packs.file(&page);
    let truncated = message(
        checker
            .add(s(&page), bytes(&good[..good.len() / 2]))
            .unwrap_err(),
    );
    assert!(
        truncated.contains("truncated") || truncated.contains("damaged"),
        "{truncated}"
    );
    // The same corpus packed without stemming: its page's bytes under this table's page name
    // (the first file a check needs).
    let unstemmed = Packs::build(
        &[("garden", ARTICLE), ("other", OTHER), ("bikes", BIKES)],
        Params {
            stemming: false,
            ..Params::default()
        },
    );
    let other = unstemmed.pages()[0];
    assert!(message(
        checker
            .add(s(&page), bytes(unstemmed.file(other)))
            .unwrap_err()
    )
    .contains("stemming = false"));
    assert_eq!(checker.loaded_bytes(), 0.0, "failed files add nothing");
    let missing = message(checker.check(s(ARTICLE), None).unwrap_err());
    let needed = checker.needed(s(ARTICLE), None).unwrap();
    assert!(needed.iter().any(|n| missing.contains(n)), "{missing}");

    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"n".into(), &1.into()).unwrap();
    let err = Checker::new(Some(opts.unchecked_into())).err().unwrap();
    assert!(message(err).contains("parameter n = 1"));
    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"shingle".into(), &4.into()).unwrap();
    assert!(
        message(Checker::new(Some(opts.unchecked_into())).err().unwrap()).contains("unknown field")
    );

    let opts = js_sys::Object::new();
    Reflect::set(&opts, &"maxTextBytes".into(), &100.into()).unwrap();
    let small = Checker::new(Some(opts.unchecked_into())).unwrap();
    assert!(message(small.check(s(ARTICLE), None).unwrap_err()).contains("too large"));
}

#[wasm_bindgen_test]
fn hostile_pack_bytes_never_abort_the_module() {
    let packs = garden();
    let mut checker = packs.open();
    let (_, added) = packs.fill(&mut packs.open(), ARTICLE);
    let table = packs.table().to_vec();
    let list = packs.file(&packs.manifest.records.name).to_vec();
    let mut state = 0x9e37_79b9_u32;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let mut spoil = |good: &[u8], i: usize| {
        let mut b = good.to_vec();
        if i % 2 == 0 {
            let at = rand() as usize % b.len();
            b[at] ^= (rand() as u8) | 1;
        } else {
            b.truncate(rand() as usize % b.len());
        }
        b
    };
    for i in 0..2000 {
        // Index pages and records under their own names, the table, the record list.
        let name = &added[i % added.len()];
        let bad = spoil(packs.file(name), i / added.len());
        assert!(checker.add(s(name), bytes(&bad)).is_err(), "{name}");
        if i % 10 == 0 {
            let bad = spoil(&table, i / 10);
            assert!(Checker::open(packs.manifest_js(), bytes(&bad), None).is_err());
            assert!(checker.records_to_fetch(bytes(&spoil(&list, i))).is_err());
        }
    }
    assert_eq!(checker.loaded_bytes(), 0.0);
    // Still alive and well.
    packs.fill(&mut checker, ARTICLE);
    assert_eq!(
        num(&checker.check(s(ARTICLE), None).unwrap(), "uniqueness"),
        0.0
    );
}

/// The keys of a JS object, sorted.
fn keys(v: &JsValue) -> Vec<String> {
    let mut keys: Vec<String> = js_sys::Object::keys(v.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    keys.sort();
    keys
}

#[wasm_bindgen_test]
fn every_failure_has_a_stable_code() {
    let packs = garden();
    let mut checker = packs.open();
    assert_eq!(
        code(checker.check(s("  ,.; "), None).unwrap_err()),
        "empty_text"
    );
    let binary: String = (0..400u32)
        .map(|i| char::from(b"\0\x01word "[i as usize % 7]))
        .collect();
    assert_eq!(
        code(checker.check(s(&binary), None).unwrap_err()),
        "binary_text"
    );
    assert_eq!(
        code(checker.needed(s(&binary), None).unwrap_err()),
        "binary_text"
    );
    assert_eq!(
        code(checker.check(s(ARTICLE), None).unwrap_err()),
        "pack_missing"
    );
    let page = checker.needed(s(ARTICLE), None).unwrap().remove(0);
    let add = |c: &mut Checker, b: &[u8]| c.add(s(&page), bytes(b)).unwrap_err();
    assert_eq!(code(add(&mut checker, b"<html>")), "pack_magic");
    assert_eq!(code(add(&mut checker, b"UQPK\x09\x00")), "pack_version");
    let good = packs.file(&page).to_vec();
    assert_eq!(code(add(&mut checker, &good[..8])), "pack_truncated");
    let mut damaged = good.clone();
    damaged[20] ^= 0x40;
    assert_eq!(code(add(&mut checker, &damaged)), "pack_checksum");
    let unstemmed = Packs::build(
        &[("garden", ARTICLE)],
        Params {
            stemming: false,
            ..Params::default()
        },
    );
    let err = add(&mut checker, unstemmed.file(unstemmed.pages()[0]));
    assert_eq!(err.code, "pack_params");
    assert!(err.message.contains("stemming = false"), "{}", err.message);
    assert_eq!(
        code(add(&mut checker, &other_canonicalizer(&good))),
        "pack_canonicalizer"
    );
    assert_eq!(checker.loaded_bytes(), 0.0, "failed files add nothing");

    let opts = |key: &str, value: JsValue| {
        let o = js_sys::Object::new();
        Reflect::set(&o, &key.into(), &value).unwrap();
        o
    };
    let err = Checker::new(Some(opts("n", 1.into()).unchecked_into()))
        .err()
        .unwrap();
    assert_eq!(code(err), "invalid_parameter");
    let err = Checker::new(Some(opts("shingle", 4.into()).unchecked_into()))
        .err()
        .unwrap();
    assert_eq!(code(err), "invalid_option");
    let err = Checker::new(Some(opts("n", "four".into()).unchecked_into()))
        .err()
        .unwrap();
    assert_eq!(code(err), "invalid_option");
    let gap = checker.check(
        s(ARTICLE),
        Some(opts("format", "pdf".into()).unchecked_into()),
    );
    assert_eq!(code(gap.unwrap_err()), "invalid_option");
    let gap = checker.needed(s(ARTICLE), Some(opts("gap", (-1).into()).unchecked_into()));
    assert_eq!(code(gap.unwrap_err()), "invalid_option");
    let small = Checker::new(Some(opts("maxTextBytes", 100.into()).unchecked_into())).unwrap();
    assert_eq!(
        code(small.check(s(ARTICLE), None).unwrap_err()),
        "text_too_large"
    );
    assert_eq!(
        code(small.sketch(s(ARTICLE), None).unwrap_err()),
        "text_too_large"
    );
    assert_eq!(
        code(small.compare(s("слово"), s(ARTICLE), None).unwrap_err()),
        "text_too_large"
    );
    let small = Checker::open(
        packs.manifest_js(),
        bytes(packs.table()),
        Some(opts("maxTextBytes", 100.into()).unchecked_into()),
    )
    .unwrap();
    assert_eq!(
        code(small.needed(s(ARTICLE), None).unwrap_err()),
        "text_too_large"
    );
    for c in [
        "empty_text",
        "pack_magic",
        "pack_missing",
        "invalid_argument",
        "manifest_invalid",
    ] {
        assert!(uniqcheck::Error::CODES.contains(&c), "{c}");
    }
}

#[wasm_bindgen_test]
fn wrong_argument_types_are_coded_errors_not_crashes() {
    let packs = garden();
    let mut checker = packs.open();
    let object: JsValue = js_sys::Object::new().into();
    let array: JsValue = js_sys::Array::of1(&1.into()).into();
    let page = checker.needed(s(ARTICLE), None).unwrap().remove(0);
    for (value, kind) in [
        (JsValue::from(42), "number"),
        (object.clone(), "object"),
        (JsValue::NULL, "null"),
        (JsValue::UNDEFINED, "undefined"),
        (JsValue::TRUE, "boolean"),
        (array.clone(), "object"),
    ] {
        let err = checker.check(value.clone(), None).unwrap_err();
        assert_eq!(err.code, "invalid_argument");
        assert_eq!(err.message, format!("text must be a string, not {kind}"));
        let err = checker.needed(value.clone(), None).unwrap_err();
        assert_eq!(err.message, format!("text must be a string, not {kind}"));
        assert_eq!(
            code(checker.sketch(value.clone(), None).unwrap_err()),
            "invalid_argument"
        );
        let err = checker
            .compare(s(ARTICLE), value.clone(), None)
            .unwrap_err();
        assert_eq!(err.message, format!("b must be a string, not {kind}"));
        let err = checker.add(s(&page), value.clone()).unwrap_err();
        assert_eq!(err.code, "invalid_argument");
        assert!(err.message.contains("Uint8Array"), "{}", err.message);
        let err = checker
            .add(value.clone(), bytes(packs.file(&page)))
            .unwrap_err();
        assert_eq!(err.message, format!("name must be a string, not {kind}"));
        let err = checker.records_to_fetch(value.clone()).unwrap_err();
        assert_eq!(err.code, "invalid_argument");
        let err = Checker::open(packs.manifest_js(), value.clone(), None)
            .err()
            .unwrap();
        assert_eq!(err.code, "invalid_argument");
        assert!(err.message.contains("Uint8Array"), "{}", err.message);
    }
    assert_eq!(
        code(checker.add(s(&page), s("UQPK")).unwrap_err()),
        "invalid_argument"
    );
    let as_options = |v: JsValue| Some(v.unchecked_into());
    let err = checker
        .check(s(ARTICLE), as_options(42.into()))
        .unwrap_err();
    assert_eq!(err.code, "invalid_argument");
    assert_eq!(err.message, "CheckOptions must be an object, not number");
    assert_eq!(
        code(Checker::new(Some(s("n=4").unchecked_into())).err().unwrap()),
        "invalid_argument"
    );
    assert_eq!(
        code(
            Checker::open(
                packs.manifest_js(),
                bytes(packs.table()),
                Some(s("n=4").unchecked_into())
            )
            .err()
            .unwrap()
        ),
        "invalid_argument"
    );
    // A checker without packs takes no files.
    let mut empty = Checker::new(None).unwrap();
    assert_eq!(
        code(empty.add(s(&page), bytes(packs.file(&page))).unwrap_err()),
        "invalid_argument"
    );
    // Still alive and well.
    packs.fill(&mut checker, ARTICLE);
    assert_eq!(
        num(&checker.check(s(ARTICLE), None).unwrap(), "uniqueness"),
        0.0
    );
}

#[wasm_bindgen_test]
fn a_checker_from_a_manifest_or_a_coded_refusal() {
    let packs = Packs::build(
        &[("garden", ARTICLE)],
        Params {
            n: 5,
            ..Params::default()
        },
    );
    let m = packs.manifest_js();
    let checker = Checker::open(
        with(&m, "future_field", "[1, 2]"),
        bytes(packs.table()),
        None,
    )
    .expect("unknown manifest fields are ignored");
    assert_eq!(num(&checker.params().unwrap(), "n"), 5.0);
    let read = checker.manifest().unwrap();
    assert_eq!(num(&read, "documents"), 1.0);
    assert_eq!(num(&read, "generated"), 1_700_000_000.0);
    assert_eq!(num(&read, "window"), 16.0);
    assert_eq!(
        get(&get(&read, "table"), "name").as_string().unwrap(),
        packs.manifest.table.name
    );
    assert_eq!(
        keys(&read),
        keys(&m),
        "the manifest as the engine read it has the writer's keys"
    );
    assert_eq!(keys(&read_manifest(m.clone()).unwrap()), keys(&m));
    assert!(Checker::new(None)
        .unwrap()
        .manifest()
        .unwrap()
        .is_undefined());

    // Refused with a code before anything else is fetched, by readManifest and by open alike.
    let refused = |m: JsValue, options: Option<js_sys::Object>| {
        let read = read_manifest(m.clone()).err().map(|e| e.code);
        let err = Checker::open(
            m,
            bytes(packs.table()),
            options.clone().map(JsCast::unchecked_into),
        )
        .err()
        .unwrap();
        if options.is_none() {
            assert_eq!(read, Some(err.code), "{}", err.message);
        }
        (err.code, err.message)
    };
    let newer = (FORMAT_VERSION + 1).to_string();
    let (c, message) = refused(with(&m, "format_version", &newer), None);
    assert_eq!(c, "pack_version");
    assert!(message.contains("upgrade"), "{message}");
    for old in ["1", "2", "3", "4", "5"] {
        let (c, message) = refused(with(&m, "format_version", old), None);
        assert_eq!(c, "pack_version", "{message}");
        assert!(message.contains("rebuild"), "{message}");
    }
    assert_eq!(
        refused(
            with(
                &m,
                "canonicalizer",
                &(CANONICALIZER_VERSION + 1).to_string()
            ),
            None
        )
        .0,
        "pack_canonicalizer"
    );
    let (c, message) = refused(
        with(&m, "table", r#"{"name": "../../etc/passwd", "bytes": 10}"#),
        None,
    );
    assert_eq!(c, "manifest_invalid");
    assert!(message.contains("etc/passwd"), "{message}");
    assert_eq!(
        refused(
            with(
                &m,
                "records",
                r#"{"name": "https://evil.example/0123456789abcdef.uqa", "bytes": 10}"#
            ),
            None
        )
        .0,
        "manifest_invalid"
    );
    assert_eq!(
        refused(
            with(
                &m,
                "params",
                r#"{"n": 1, "w": 16, "k": 128, "stop_words": true, "stemming": true}"#
            ),
            None
        )
        .0,
        "invalid_parameter"
    );
    let (c, message) = refused(json(r#"{"format_version": 3}"#), None);
    assert_eq!(c, "manifest_invalid");
    assert!(message.contains("missing field"), "{message}");
    for junk in [JsValue::from(42), JsValue::NULL, s("manifest.json")] {
        assert_eq!(refused(junk, None).0, "manifest_invalid");
    }
    let n4 = js_sys::Object::new();
    Reflect::set(&n4, &"n".into(), &4.into()).unwrap();
    let (c, message) = refused(m.clone(), Some(n4));
    assert_eq!(c, "pack_params");
    assert!(message.contains("n = 5"), "{message}");

    // The table must be the one the manifest describes.
    let other = garden();
    let err = Checker::open(m.clone(), bytes(other.table()), None)
        .err()
        .unwrap();
    assert_eq!(err.code, "manifest_invalid", "{}", err.message);
    assert!(err.message.contains("n = 4"), "{}", err.message);
    let err = Checker::open(with(&m, "window", "8"), bytes(packs.table()), None)
        .err()
        .unwrap();
    assert_eq!(err.code, "manifest_invalid", "{}", err.message);
    // A table of the same parameters but other documents (a stale cache): it does not hash to
    // the name the manifest gives it.
    let stale = Packs::build(&[("other", OTHER)], packs.manifest.params);
    let err = Checker::open(m.clone(), bytes(stale.table()), None)
        .err()
        .unwrap();
    assert_eq!(err.code, "pack_checksum", "{}", err.message);
    assert!(
        err.message.contains(&packs.manifest.table.name),
        "{}",
        err.message
    );
    let page = packs.pages()[0];
    assert_eq!(
        code(
            Checker::open(m.clone(), bytes(packs.file(page)), None)
                .err()
                .unwrap()
        ),
        "pack_corrupt",
        "an index page is not a page table"
    );
}

#[wasm_bindgen_test]
fn exclusions_leave_out_a_url_and_quotations() {
    let packs = garden();
    let mut checker = packs.open();
    let draft = format!("Вступление о саде.\n{ARTICLE}\nИ о велосипедах: «{BIKES}»");
    packs.fill(&mut checker, &draft);
    let ids = |r: &JsValue| -> Vec<String> {
        Array::from(&get(r, "sources"))
            .iter()
            .map(|s| get(&s, "id").as_string().unwrap())
            .collect()
    };
    let all = checker.check(s(&draft), None).unwrap();
    assert_eq!(ids(&all), ["garden", "bikes"]);
    let excluded = get(&all, "excluded");
    assert_eq!(
        (num(&excluded, "sources"), num(&excluded, "quoted_words")),
        (0.0, 0.0)
    );

    let check = |o: &str| checker.check(s(&draft), Some(json(o).unchecked_into()));
    let url = check(r#"{"exclude": {"urls": ["http://www.example.org/garden/"]}}"#).unwrap();
    assert_eq!(ids(&url), ["bikes"]);
    assert_eq!(num(&get(&url, "excluded"), "sources"), 1.0);
    let share = num(&Array::from(&get(&all, "sources")).get(0), "share");
    let raised = num(&url, "uniqueness") - num(&all, "uniqueness");
    assert!((raised - 100.0 * share).abs() < 0.11, "{raised} {share}");

    let quotes = check(r#"{"exclude": {"quotes": true}}"#).unwrap();
    assert_eq!(ids(&quotes), ["garden"], "the quoted copy is not a copy");
    assert!(num(&get(&quotes, "excluded"), "quoted_words") > 30.0);

    let both = check(r#"{"exclude": {"domains": ["example.org"], "quotes": true}}"#).unwrap();
    assert!(ids(&both).is_empty());
    assert_eq!(num(&both, "uniqueness"), 100.0);
    assert_eq!(num(&get(&both, "excluded"), "sources"), 2.0);

    for bad in [
        r#"{"exclude": {"domains": [""]}}"#,
        r#"{"exclude": {"url": ["https://example.org/"]}}"#,
        r#"{"exclude": {"quotes": "yes"}}"#,
    ] {
        assert_eq!(code(check(bad).unwrap_err()), "invalid_option", "{bad}");
    }
}

#[wasm_bindgen_test]
fn passages_given_as_quotations_in_utf16_are_left_out() {
    let packs = garden();
    let mut checker = packs.open();
    // An editor's block quote: no quotation marks; an emoji before it shifts UTF-16 from chars.
    let draft = format!("Вступление о саде 😀.\n{ARTICLE}\n\n{BIKES}");
    packs.fill(&mut checker, &draft);
    let utf16 = |b: usize| draft[..b].encode_utf16().count();
    let at = draft.find(BIKES).unwrap();
    let (start, end) = (utf16(at), utf16(at + BIKES.len()));
    let check = |o: String| checker.check(s(&draft), Some(json(&o).unchecked_into()));
    let sources = |r: &JsValue| Array::from(&get(r, "sources")).length();
    let given = |quotes: bool| {
        format!(r#"{{"exclude": {{"quotes": {quotes}, "quoted": [[{start}, {end}]]}}}}"#)
    };
    assert_eq!(
        sources(&check(given(false)).unwrap()),
        2,
        "quoted is read with quotes only"
    );
    let r = check(given(true)).unwrap();
    assert_eq!(sources(&r), 1, "the block-quoted copy is not a copy");
    assert!(num(&get(&r, "excluded"), "quoted_words") > 30.0);
    let len = draft.encode_utf16().count();
    let emoji = utf16(draft.find('😀').unwrap());
    for bad in [[0, len + 1], [emoji + 1, end], [end, start]] {
        let o = format!(
            r#"{{"exclude": {{"quotes": true, "quoted": [[{}, {}]]}}}}"#,
            bad[0], bad[1]
        );
        assert_eq!(code(check(o).unwrap_err()), "invalid_option", "{bad:?}");
    }
}

#[wasm_bindgen_test]
fn a_check_over_packs_aligns_at_most_50_candidates_unless_told_and_says_so() {
    let names: Vec<String> = (0..60).map(|i| format!("copy{i}")).collect();
    let texts: Vec<String> = (0..60)
        .map(|i| format!("Заметка садовода номер {i}. {ARTICLE}"))
        .collect();
    let docs: Vec<(&str, &str)> = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let packs = Packs::build(&docs, Params::default());
    let mut checker = packs.open();
    let (_, added) = packs.fill(&mut checker, ARTICLE);
    let records = added.iter().filter(|n| n.starts_with("r/")).count();
    assert_eq!(records, 50, "one record fetched per candidate aligned");
    let report = checker.check(s(ARTICLE), None).unwrap();
    assert_eq!(get(&report, "capped"), JsValue::TRUE);
    assert_eq!(num(&report, "unchecked"), 10.0);
    assert_eq!(Array::from(&get(&report, "sources")).length(), 50);

    let all = js_sys::Object::new();
    Reflect::set(&all, &"maxCandidates".into(), &100.into()).unwrap();
    let all: JsValue = all.into();
    let needed = checker
        .needed(s(ARTICLE), Some(all.clone().unchecked_into()))
        .unwrap();
    packs.add(&mut checker, &needed);
    let report = checker
        .check(s(ARTICLE), Some(all.unchecked_into()))
        .unwrap();
    assert_eq!(get(&report, "capped"), JsValue::FALSE);
    assert_eq!(num(&report, "unchecked"), 0.0);
    assert_eq!(Array::from(&get(&report, "sources")).length(), 60);
}

#[wasm_bindgen_test]
fn reports_have_the_keys_of_the_cli_json() {
    let packs = garden();
    let mut checker = packs.open();
    let draft = format!("Вступление. {ARTICLE}");
    packs.fill(&mut checker, &draft);
    let report = checker.check(s(&draft), None).unwrap();
    assert_eq!(
        keys(&report),
        [
            "capped",
            "excluded",
            "fragments",
            "method",
            "originality",
            "rewrites",
            "sources",
            "translations",
            "unchecked",
            "uniqueness",
            "words"
        ]
    );
    let fragment = Array::from(&get(&report, "fragments")).get(0);
    assert_eq!(keys(&fragment), ["end", "sources", "start"]);
    let source = Array::from(&get(&report, "sources")).get(0);
    assert_eq!(
        keys(&source),
        [
            "containment",
            "exact",
            "id",
            "resemblance",
            "rewrites",
            "share",
            "spans",
            "title",
            "translations",
            "url",
            "words"
        ]
    );
    let span = Array::from(&get(&source, "spans")).get(0);
    assert_eq!(keys(&span), ["draft", "source"]);
    assert!(get(&span, "source").is_null(), "packs hold no source text");
    assert_eq!(Array::from(&get(&span, "draft")).length(), 2);

    let c = checker.compare(s(&draft), s(ARTICLE), None).unwrap();
    assert_eq!(
        keys(&c),
        [
            "containment",
            "detections",
            "fragments",
            "method",
            "originality",
            "resemblance",
            "rewrites",
            "translations",
            "uniqueness",
            "words"
        ]
    );
    for list in ["fragments", "detections"] {
        let pair = Array::from(&get(&c, list)).get(0);
        assert_eq!(keys(&pair), ["draft", "source"], "{list}");
    }
}

/// A value of the wrong type in options is named by its path, with what it must be and what it
/// is: never JavaScript's `Reflect.get called on non-object` nor serde's `expected usize`.
#[wasm_bindgen_test]
fn a_wrongly_typed_option_is_told_in_the_callers_words() {
    let new = |o: &str| message(Checker::new(Some(json(o).unchecked_into())).err().unwrap());
    assert_eq!(
        new(r#"{"n": "4"}"#),
        r#"n must be a whole number, 0 or more (got the string "4")"#
    );
    assert_eq!(
        new(r#"{"stemming": 1}"#),
        "stemming must be true or false (got the number 1)"
    );
    assert_eq!(
        new(r#"{"maxTextBytes": "1000"}"#),
        r#"maxTextBytes must be a whole number, 0 or more (got the string "1000")"#
    );
    let checker = Checker::new(None).unwrap();
    let sketch = |o: &str| {
        let err = checker
            .sketch(s(ARTICLE), Some(json(o).unchecked_into()))
            .unwrap_err();
        (code(JsValue::from(err.clone())), message(err))
    };
    for (options, said) in [
        (
            r#"{"exclude": {"domains": "a.ru"}}"#,
            r#"exclude.domains must be a list (got the string "a.ru")"#,
        ),
        (
            r#"{"exclude": {"urls": 5}}"#,
            "exclude.urls must be a list (got the number 5)",
        ),
        (
            r#"{"exclude": {"domains": [5]}}"#,
            "exclude.domains[0] must be a string (got the number 5)",
        ),
        (
            r#"{"exclude": {"quotes": "yes"}}"#,
            r#"exclude.quotes must be true or false (got the string "yes")"#,
        ),
        (
            r#"{"exclude": "a.ru"}"#,
            r#"exclude must be an object (got the string "a.ru")"#,
        ),
        (
            r#"{"exclude": ["a.ru"]}"#,
            "exclude must be an object (got a list)",
        ),
        (
            r#"{"gap": -1}"#,
            "gap must be a whole number, 0 or more (got the number -1)",
        ),
    ] {
        assert_eq!(
            sketch(options),
            ("invalid_option".to_owned(), said.to_owned())
        );
    }
}

#[wasm_bindgen_test]
fn compare_says_which_text_is_empty() {
    let checker = Checker::new(None).unwrap();
    let err = checker.compare(s(ARTICLE), s(" "), None).unwrap_err();
    assert_eq!(code(JsValue::from(err.clone())), "empty_text");
    assert_eq!(
        message(err),
        "the source (the second text) is empty: it contains no words to compare"
    );
    let err = checker.compare(s(""), s(ARTICLE), None).unwrap_err();
    assert!(message(err).starts_with("the draft (the first text) is empty"));
}

/// `setBilingual`: with the shipped English–Russian table, a Russian translation of an English
/// text is a translation in `compare` and in a check through packs (found by its translated
/// sentence keys), and a damaged table is refused keeping the one the checker had.
#[wasm_bindgen_test]
fn a_translation_is_found_through_the_bilingual_table() {
    const TABLE: &[u8] = include_bytes!("../../data/bilingual/en-ru.uqbl");
    let english = include_str!("../../tests/data/translation/bridge-en.txt");
    let russian = include_str!("../../tests/data/translation/bridge-ru.txt");
    let mut checker = Checker::new(None).unwrap();
    let plain = checker.compare(s(russian), s(english), None).unwrap();
    assert_eq!(Array::from(&get(&plain, "translations")).length(), 0);
    checker.set_bilingual(bytes(TABLE)).unwrap();
    let c = checker.compare(s(russian), s(english), None).unwrap();
    assert!(Array::from(&get(&c, "translations")).length() > 0);
    assert!(num(&c, "originality") < 40.0, "{}", num(&c, "originality"));
    let damaged = &TABLE[..TABLE.len() - 1];
    let err = checker.set_bilingual(bytes(damaged)).unwrap_err();
    assert_eq!(code(err.clone()), "invalid_argument");
    assert!(message(err).contains("damaged"));
    let still = checker.compare(s(russian), s(english), None).unwrap();
    assert!(Array::from(&get(&still, "translations")).length() > 0);
    checker.set_bilingual(JsValue::NULL).unwrap();
    let off = checker.compare(s(russian), s(english), None).unwrap();
    assert_eq!(Array::from(&get(&off, "translations")).length(), 0);

    // Through packs: the English text among others, the Russian draft checked.
    let packs = Packs::build(
        &[("bridge", english), ("bikes", BIKES), ("other", OTHER)],
        Params::default(),
    );
    let mut checker = packs.open();
    let (_, without) = packs.fill(&mut checker, russian);
    checker.set_bilingual(bytes(TABLE)).unwrap();
    // The translated keys make the English text a candidate: more files (its record) to fetch.
    let (_, with) = packs.fill(&mut checker, russian);
    assert!(!with.is_empty(), "fetched {without:?} before the table");
    let report = checker.check(s(russian), None).unwrap();
    let sources = Array::from(&get(&report, "sources"));
    assert_eq!(sources.length(), 1);
    assert_eq!(get(&sources.get(0), "id").as_string().unwrap(), "bridge");
    assert!(Array::from(&get(&report, "translations")).length() > 0);
}

/// Packs that publish the table (`pack --bilingual`): the first check's `needed` names it with
/// the draft's own pages, `add` takes it by that name only, and the check finds the translation
/// without `setBilingual`; `compare` uses it too; a later check fetches it no more.
#[wasm_bindgen_test]
fn packs_that_publish_the_table_are_checked_for_translations_without_set_bilingual() {
    const TABLE: &[u8] = include_bytes!("../../data/bilingual/en-ru.uqbl");
    let english = include_str!("../../tests/data/translation/bridge-en.txt");
    let russian = include_str!("../../tests/data/translation/bridge-ru.txt");
    let mut packs = Packs::build(
        &[("bridge", english), ("bikes", BIKES), ("other", OTHER)],
        Params::default(),
    );
    let name = uniqcheck::pack::bilingual_file(uniqcheck::pack::content_id(TABLE));
    packs.manifest.bilingual = Some(uniqcheck::pack::FileRef {
        name: name.clone(),
        bytes: TABLE.len() as u64,
    });
    packs.files.insert(name.clone(), TABLE.to_vec());
    let mut checker = packs.open();
    let first = checker.needed(s(russian), None).unwrap();
    assert!(first.contains(&name), "{first:?}");
    // Bytes that do not hash to the name are refused as a damaged download.
    let err = checker.add(s(&name), bytes(&TABLE[1..])).unwrap_err();
    assert_eq!(code(err), "pack_checksum");
    let (_, added) = packs.fill(&mut checker, russian);
    assert_eq!(added.iter().filter(|n| **n == name).count(), 1, "{added:?}");
    let report = checker.check(s(russian), None).unwrap();
    let sources = Array::from(&get(&report, "sources"));
    assert_eq!(sources.length(), 1);
    assert_eq!(get(&sources.get(0), "id").as_string().unwrap(), "bridge");
    assert!(Array::from(&get(&report, "translations")).length() > 0);
    let c = checker.compare(s(russian), s(english), None).unwrap();
    assert!(Array::from(&get(&c, "translations")).length() > 0);
    let (_, again) = packs.fill(&mut checker, english);
    assert!(!again.contains(&name), "{again:?}");
}

/// `parseExclusions`: a junk line is named and left out, the rest apply and pass a check's
/// validation; a non-string is a coded error.
#[wasm_bindgen_test]
fn a_list_of_exclusions_names_its_junk_lines_and_keeps_the_rest() {
    let parsed =
        uniqcheck_wasm::parse_exclusions(s("мой-сайт.рф\nне домен !!!\nclient.ru/brief")).unwrap();
    let exclusions = get(&parsed, "exclusions");
    let list = |key: &str| {
        Array::from(&get(&exclusions, key))
            .iter()
            .map(|v| v.as_string().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(list("domains"), ["мой-сайт.рф"]);
    assert_eq!(list("urls"), ["client.ru/brief"]);
    let refused = Array::from(&get(&parsed, "refused"));
    assert_eq!(refused.length(), 1);
    let line = refused.get(0);
    assert_eq!(num(&line, "line"), 2.0);
    assert_eq!(get(&line, "entry").as_string().unwrap(), "не");
    assert_eq!(get(&line, "text").as_string().unwrap(), "не домен !!!");
    assert_eq!(get(&line, "reason").as_string().unwrap(), "not_an_address");
    // What applies is accepted by a check as it is.
    let checker = Checker::new(None).unwrap();
    let options = json(&format!(
        r#"{{"exclude": {{"domains": {:?}, "urls": {:?}}}}}"#,
        list("domains"),
        list("urls")
    ));
    let report = checker.check(
        s("Немного своих слов о погоде и море."),
        Some(options.unchecked_into()),
    );
    assert!(report.is_ok());
    let err = uniqcheck_wasm::parse_exclusions(JsValue::from_f64(42.0)).unwrap_err();
    assert_eq!(code(err), "invalid_argument");
}
