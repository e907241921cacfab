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

/// The message of the JS Error a facade call threw.
fn message(err: JsError) -> String {
    let v: JsValue = err.into();
    assert!(
        v.is_instance_of::<js_sys::Error>(),
        "errors must be JS Error objects"
    );
    String::from(v.unchecked_into::<js_sys::Error>().message())
}

#[wasm_bindgen_test]
fn checks_a_draft_with_utf16_spans() {
    let mut checker = Checker::new(None).unwrap();
    let bytes = pack_of(
        &[
            ("garden", ARTICLE),
            (
                "other",
                "Совсем другая статья о велосипедах, городских маршрутах и выборе шлема для детей.",
            ),
        ],
        Params::default(),
    );
    assert_eq!(checker.add_pack(&bytes).unwrap(), 2);
    assert_eq!(
        checker.add_pack(&bytes).unwrap(),
        0,
        "the same pack twice adds nothing"
    );
    assert_eq!(checker.document_count(), 2);

    // Emoji (surrogate pairs), a combining accent and CRLF before the copy shift UTF-16 offsets.
    let intro = "Мой сад 🌻🍂 и е\u{301}го секреты.\r\nЗаписки садовода, год второй.\r\n";
    let draft = format!("{intro}{ARTICLE}");
    let report = checker.check(&draft, None).unwrap();
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
    let c = checker.compare(&a, &b, None).unwrap();
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
    assert!(message(checker.check("   \n ", None).unwrap_err()).contains("empty"));
    assert!(message(checker.add_pack(b"not a pack at all").unwrap_err()).contains("pack"));
    let good = pack_of(&[("garden", ARTICLE)], Params::default());
    let truncated = message(checker.add_pack(&good[..good.len() / 2]).unwrap_err());
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
    assert!(message(checker.add_pack(&other).unwrap_err()).contains("n = 5"));
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
    assert!(message(small.check(ARTICLE, None).unwrap_err()).contains("too large"));
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
        let mut bytes = good.clone();
        if i % 2 == 0 {
            let at = rand() as usize % bytes.len();
            bytes[at] ^= (rand() as u8) | 1;
        } else {
            bytes.truncate(rand() as usize % bytes.len());
        }
        assert!(checker.add_pack(&bytes).is_err());
    }
    // Still alive and well.
    assert_eq!(checker.add_pack(&good).unwrap(), 1);
    assert!(num(&checker.check(ARTICLE, None).unwrap(), "uniqueness") == 0.0);
}
