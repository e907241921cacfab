//! The WebAssembly facade, run in Node and in headless Chromium (`wasm-bindgen-test`).
//! Native builds compile this file to nothing.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, JsString, Reflect};
use uniqcheck::pack::{encode, Pack, PackedDocument};
use uniqcheck::wasm::Checker;
use uniqcheck::{Document, Format, Params, SourceInfo};
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

fn pack_of(texts: &[(&str, &str)], params: Params) -> Vec<u8> {
    let mut pack = Pack::new(params);
    for (id, text) in texts {
        let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
        let info = SourceInfo {
            id: id.to_string(),
            url: format!("https://example.org/{id}"),
            title: id.to_string(),
        };
        pack.documents
            .push(PackedDocument::from_document(info, &doc));
    }
    encode(&pack)
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

/// Pack bytes as JavaScript passes them: a `Uint8Array`.
fn bytes(b: &[u8]) -> JsValue {
    js_sys::Uint8Array::from(b).into()
}

/// A string as JavaScript passes it.
fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

#[wasm_bindgen_test]
fn checks_a_draft_with_utf16_spans() {
    let mut checker = Checker::new(None).unwrap();
    let pack = pack_of(
        &[
            ("garden", ARTICLE),
            (
                "other",
                "Совсем другая статья о велосипедах, городских маршрутах и выборе шлема для детей.",
            ),
        ],
        Params::default(),
    );
    assert_eq!(checker.add_pack(bytes(&pack)).unwrap(), 2);
    assert_eq!(
        checker.add_pack(bytes(&pack)).unwrap(),
        0,
        "the same pack twice adds nothing"
    );
    assert_eq!(checker.document_count(), 2);

    // Emoji (surrogate pairs), a combining accent and CRLF before the copy shift UTF-16 offsets.
    let intro = "Мой сад 🌻🍂 и е\u{301}го секреты.\r\nЗаписки садовода, год второй.\r\n";
    let draft = format!("{intro}{ARTICLE}");
    let report = checker.check(s(&draft), None).unwrap();
    assert!(num(&report, "uniqueness") < 30.0);
    let fragments: Array = get(&report, "fragments").into();
    assert_eq!(fragments.length(), 1);
    let f = fragments.get(0);
    let js = JsString::from(draft.as_str());
    let text = String::from(js.slice(num(&f, "start") as u32, num(&f, "end") as u32));
    assert!(text.starts_with("Осенью сад"), "{text}");
    // From fingerprints alone the end may fall short of the copy by up to w - 1 content words.
    assert!(ARTICLE.starts_with(&text), "{text}");
    assert!(
        text.chars().count() + 30 >= ARTICLE.chars().count(),
        "{text}"
    );
    let sources: Array = get(&report, "sources").into();
    assert_eq!(
        get(&sources.get(0), "url").as_string().unwrap(),
        "https://example.org/garden"
    );
    assert_eq!(get(&report, "method").as_string().unwrap(), "shingles");
}

#[wasm_bindgen_test]
fn compare_gives_spans_on_both_sides() {
    let checker = Checker::new(None).unwrap();
    let a = format!("👩‍👩‍👧 Вступление.\r\n{ARTICLE}");
    let b = format!("Совсем другое начало статьи. {ARTICLE} Конец.");
    let c = checker.compare(s(&a), s(&b), None).unwrap();
    let pair = Array::from(&get(&c, "fragments")).get(0);
    let (sa, sb): (Array, Array) = (get(&pair, "a").into(), get(&pair, "b").into());
    let slice = |s: &str, r: &Array| {
        String::from(JsString::from(s).slice(
            r.get(0).as_f64().unwrap() as u32,
            r.get(1).as_f64().unwrap() as u32,
        ))
    };
    assert_eq!(slice(&a, &sa), slice(&b, &sb));
    assert!(slice(&a, &sa).starts_with("Осенью"));
}

#[wasm_bindgen_test]
fn every_failure_is_a_js_error_with_a_message() {
    let mut checker = Checker::new(None).unwrap();
    assert!(message(checker.check(s("   \n "), None).unwrap_err()).contains("empty"));
    assert!(message(checker.add_pack(bytes(b"not a pack at all")).unwrap_err()).contains("pack"));
    let good = pack_of(&[("garden", ARTICLE)], Params::default());
    let truncated = message(
        checker
            .add_pack(bytes(&good[..good.len() / 2]))
            .unwrap_err(),
    );
    assert!(
        truncated.contains("truncated") || truncated.contains("damaged"),
        "{truncated}"
    );
    let other = pack_of(
        &[("garden", ARTICLE)],
        Params {
            n: 5,
            ..Params::default()
        },
    );
    assert!(message(checker.add_pack(bytes(&other)).unwrap_err()).contains("n = 5"));
    assert_eq!(checker.document_count(), 0, "failed packs add nothing");

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
    let mut checker = Checker::new(None).unwrap();
    let good = pack_of(&[("garden", ARTICLE)], Params::default());
    let mut state = 0x9e37_79b9_u32;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for i in 0..2000 {
        let mut b = good.clone();
        if i % 2 == 0 {
            let at = rand() as usize % b.len();
            b[at] ^= (rand() as u8) | 1;
        } else {
            b.truncate(rand() as usize % b.len());
        }
        assert!(checker.add_pack(bytes(&b)).is_err());
    }
    // Still alive and well.
    assert_eq!(checker.add_pack(bytes(&good)).unwrap(), 1);
    assert!(num(&checker.check(s(ARTICLE), None).unwrap(), "uniqueness") == 0.0);
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
    let mut checker = Checker::new(None).unwrap();
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
        code(checker.add_pack(bytes(b"<html>")).unwrap_err()),
        "pack_magic"
    );
    assert_eq!(
        code(checker.add_pack(bytes(b"UQPK\x09\x00")).unwrap_err()),
        "pack_version"
    );
    let good = pack_of(&[("garden", ARTICLE)], Params::default());
    assert_eq!(
        code(checker.add_pack(bytes(&good[..8])).unwrap_err()),
        "pack_truncated"
    );
    let mut damaged = good.clone();
    damaged[20] ^= 0x40;
    assert_eq!(
        code(checker.add_pack(bytes(&damaged)).unwrap_err()),
        "pack_checksum"
    );
    let other = pack_of(
        &[("garden", ARTICLE)],
        Params {
            k: 64,
            ..Params::default()
        },
    );
    let err = checker.add_pack(bytes(&other)).unwrap_err();
    assert_eq!(err.code, "pack_params");
    assert!(err.message.contains("k = 64"), "{}", err.message);
    let mut old = Pack::new(Params::default());
    old.canonicalizer += 1;
    assert_eq!(
        code(checker.add_pack(bytes(&encode(&old))).unwrap_err()),
        "pack_canonicalizer"
    );
    assert_eq!(checker.document_count(), 0, "failed packs add nothing");

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
    for c in [
        "empty_text",
        "pack_magic",
        "invalid_argument",
        "manifest_invalid",
    ] {
        assert!(uniqcheck::Error::CODES.contains(&c), "{c}");
    }
}

#[wasm_bindgen_test]
fn wrong_argument_types_are_coded_errors_not_crashes() {
    let mut checker = Checker::new(None).unwrap();
    let object: JsValue = js_sys::Object::new().into();
    let array: JsValue = js_sys::Array::of1(&1.into()).into();
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
        assert_eq!(
            code(checker.sketch(value.clone(), None).unwrap_err()),
            "invalid_argument"
        );
        let err = checker
            .compare(s(ARTICLE), value.clone(), None)
            .unwrap_err();
        assert_eq!(err.message, format!("b must be a string, not {kind}"));
        let err = checker.add_pack(value.clone()).unwrap_err();
        assert_eq!(err.code, "invalid_argument");
        assert!(err.message.contains("Uint8Array"), "{}", err.message);
    }
    assert_eq!(
        code(checker.add_pack(s("UQPK")).unwrap_err()),
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
    // Still alive and well.
    assert_eq!(
        checker
            .add_pack(bytes(&pack_of(&[("garden", ARTICLE)], Params::default())))
            .unwrap(),
        1
    );
    assert_eq!(
        num(&checker.check(s(ARTICLE), None).unwrap(), "uniqueness"),
        0.0
    );
}

/// A manifest as the server writes it, parsed by JavaScript.
fn manifest(format_version: u16, canonicalizer: u16, n: usize, shard: &str) -> JsValue {
    js_sys::JSON::parse(&format!(
        r#"{{"format_version": {format_version}, "engine_version": "0.1.0",
            "params": {{"n": {n}, "w": 4, "k": 128, "stop_words": true, "stemming": true}},
            "canonicalizer": {canonicalizer}, "documents": 1, "generated": 1700000000,
            "generated_iso": "2023-11-14T22:13:20Z", "changes": 3, "future_field": [1, 2],
            "shards": [{{"name": "{shard}", "bytes": 1234, "documents": 1, "sha256": "ab"}}]}}"#
    ))
    .unwrap()
}

#[wasm_bindgen_test]
fn a_checker_from_a_manifest_or_a_coded_refusal() {
    let (fmt, canon) = (
        uniqcheck::pack::FORMAT_VERSION,
        uniqcheck::canonicalize::CANONICALIZER_VERSION,
    );
    let shard = "0123456789abcdef.uqp";
    let mut checker = Checker::from_manifest(manifest(fmt, canon, 5, shard), None).unwrap();
    assert_eq!(num(&checker.params().unwrap(), "n"), 5.0);
    let m = checker.manifest().unwrap();
    assert_eq!(num(&m, "documents"), 1.0);
    assert_eq!(num(&m, "generated"), 1_700_000_000.0);
    let shards = Array::from(&get(&m, "shards"));
    assert_eq!(get(&shards.get(0), "name").as_string().unwrap(), shard);
    assert!(Checker::new(None)
        .unwrap()
        .manifest()
        .unwrap()
        .is_undefined());
    // Its shards are packs with the manifest's parameters.
    let pack = pack_of(
        &[("garden", ARTICLE)],
        Params {
            n: 5,
            ..Params::default()
        },
    );
    assert_eq!(checker.add_pack(bytes(&pack)).unwrap(), 1);

    let refused = |m: JsValue, options: Option<js_sys::Object>| {
        let err = Checker::from_manifest(m, options.map(JsCast::unchecked_into))
            .err()
            .unwrap();
        (err.code, err.message)
    };
    let (c, message) = refused(manifest(fmt + 1, canon, 4, shard), None);
    assert_eq!(c, "pack_version");
    assert!(message.contains("upgrade"), "{message}");
    assert_eq!(
        refused(manifest(fmt, canon + 1, 4, shard), None).0,
        "pack_canonicalizer"
    );
    assert_eq!(
        refused(manifest(fmt, canon, 4, "../secret.uqp"), None).0,
        "manifest_invalid"
    );
    assert_eq!(
        refused(manifest(fmt, canon, 1, shard), None).0,
        "invalid_parameter"
    );
    let (c, message) = refused(
        js_sys::JSON::parse(r#"{"format_version": 1}"#).unwrap(),
        None,
    );
    assert_eq!(c, "manifest_invalid");
    assert!(message.contains("missing field"), "{message}");
    for junk in [JsValue::from(42), JsValue::NULL, s("manifest.json")] {
        assert_eq!(refused(junk, None).0, "manifest_invalid");
    }
    let n4 = js_sys::Object::new();
    Reflect::set(&n4, &"n".into(), &4.into()).unwrap();
    let (c, message) = refused(manifest(fmt, canon, 5, shard), Some(n4));
    assert_eq!(c, "pack_params");
    assert!(message.contains("n = 5"), "{message}");
}

#[wasm_bindgen_test]
fn reports_have_the_keys_of_the_cli_json() {
    let mut checker = Checker::new(None).unwrap();
    checker
        .add_pack(bytes(&pack_of(&[("garden", ARTICLE)], Params::default())))
        .unwrap();
    let report = checker
        .check(s(&format!("Вступление. {ARTICLE}")), None)
        .unwrap();
    assert_eq!(
        keys(&report),
        ["fragments", "method", "sources", "uniqueness", "words"]
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
            "share",
            "spans",
            "title",
            "url",
            "words"
        ]
    );
    let span = Array::from(&get(&source, "spans")).get(0);
    assert_eq!(keys(&span), ["draft", "source"]);
    assert!(get(&span, "source").is_null(), "packs hold no source text");
    assert_eq!(Array::from(&get(&span, "draft")).length(), 2);

    let c = checker
        .compare(s(&format!("Вступление. {ARTICLE}")), s(ARTICLE), None)
        .unwrap();
    assert_eq!(
        keys(&c),
        [
            "containment",
            "detections",
            "fragments",
            "method",
            "resemblance",
            "uniqueness",
            "words"
        ]
    );
    for list in ["fragments", "detections"] {
        let pair = Array::from(&get(&c, list)).get(0);
        assert_eq!(keys(&pair), ["a", "b"], "{list}");
    }
}
