//! The WebAssembly facade: what JavaScript sees of the engine.
//!
//! A thin shell, no logic of its own: it converts JS values to engine types, calls the engine and
//! converts the answer back, with every offset in UTF-16 code units of the string JavaScript passed
//! in (so `text.slice(start, end)` is the matched text, emoji and all). Every failure becomes a JS
//! `Error` with the engine's message; input is validated before it reaches code that could panic,
//! because a panic in WebAssembly aborts the whole module.

use crate::pack::{self, decode, FORMAT_VERSION};
use crate::report::{Method, Report};
use crate::span::{OffsetConverter, Unit};
use crate::{CheckOptions, Corpus, Document, Format, Params};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Engine parameters. A pack is accepted only when it was built with the same ones. */
export interface CheckerOptions {
  /** Words per shingle, 2..=10. Default 4. */
  n?: number;
  /** Winnowing window in shingles, 1..=64. Default 4. */
  w?: number;
  /** MinHash signature length, 16..=1024. Default 128. */
  k?: number;
  /** Drop Russian and English stop words. Default true. */
  stopWords?: boolean;
  /** Snowball stemming (Russian and English). Default true. */
  stemming?: boolean;
  /** Largest text accepted, in UTF-8 bytes. Default 33554432 (32 MiB). */
  maxTextBytes?: number;
}

/** How one check judges a draft; nothing here changes a pack. */
export interface CheckOptions {
  /** How the text is written. Default "plain". */
  format?: "plain" | "html";
  /** Unmatched words that still join two matched stretches into one highlighted fragment. Default 4. */
  gap?: number;
  /** Unmatched words that still join matches into one detection (a reused passage). Default 32. */
  mergeGap?: number;
  /** Detections whose exact-copy fragments cover fewer content words are dropped. Default 10. */
  minFragmentWords?: number;
  /**
   * In `compare` (both texts known), a detection with an exact copy also counts when its matches,
   * pairs of words included, cover this many content words: reworded passages. 0 turns it off.
   * Default 12.
   */
  extendMinWords?: number;
  /** Drafts with fewer content words are judged by the short-text method. Default 60. */
  shortThreshold?: number;
  /** Short-text similarity (0..1) at which a short draft is a duplicate. Default 0.8. */
  shortSimilarity?: number;
  /** Candidate documents aligned in full, best first. Default 64. */
  maxCandidates?: number;
}

/** Which method decided: n-word shingles, the short-text method, or an exact duplicate. */
export type Method = "shingles" | "short" | "exact";

/** A highlighted stretch of the draft: `text.slice(start, end)`, and the ids of its sources. */
export interface Fragment {
  start: number;
  end: number;
  sources: string[];
}

/** A published document that matches part of the draft. */
export interface SourceMatch {
  id: string;
  url: string;
  title: string;
  /** Share of the draft's content words this source covers, 0..1. */
  share: number;
  /** Content words of the draft this source covers. */
  words: number;
  /** Estimated resemblance (Jaccard) of the shingle sets, 0..1. */
  resemblance: number;
  /** Estimated share of the draft's shingles found in the source, 0..1. */
  containment: number;
  /** The draft is an exact duplicate of this source. */
  exact: boolean;
  /** This source's matched stretches of the draft, `[start, end)` in UTF-16 code units. */
  spans: [number, number][];
}

/** How unique a draft is, and what matches where. */
export interface Report {
  /** Percent of the draft's content words not covered by any fragment, 0..100. */
  uniqueness: number;
  /** Content words in the draft (the denominator of uniqueness). */
  words: number;
  method: Method;
  /** Highlighted stretches, in order, non-overlapping. */
  fragments: Fragment[];
  /** Matching sources, largest share first. */
  sources: SourceMatch[];
}

/** A matched stretch: `a.slice(...a)` matches `b.slice(...b)`. */
export interface PairFragment {
  a: [number, number];
  b: [number, number];
}

/** Text A checked against text B. */
export interface Comparison {
  uniqueness: number;
  /** Exact resemblance of the two shingle sets, 0..1. */
  resemblance: number;
  /** Exact share of A's shingles found in B, 0..1. */
  containment: number;
  words: number;
  method: Method;
  fragments: PairFragment[];
}

/** What the engine makes of one text, for tooling. */
export interface Sketch {
  /** Content words (after stop words). */
  words: number;
  /** All words, stop words included. */
  allWords: number;
  shingles: number;
  fingerprints: number;
  /** Exact-duplicate hash, 16 hex digits. */
  exact: string;
  setSize: number;
  minhash: number[];
}

/** The engine parameters a checker was created with. */
export interface EngineParams {
  n: number;
  w: number;
  k: number;
  stopWords: boolean;
  stemming: boolean;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// A `CheckerOptions` object from JavaScript.
    #[wasm_bindgen(typescript_type = "CheckerOptions")]
    pub type CheckerOptionsArg;
    /// A `CheckOptions` object from JavaScript.
    #[wasm_bindgen(typescript_type = "CheckOptions")]
    pub type CheckOptionsArg;
}

/// Reads the fields of a JS options object (ignored names would hide typos, so they are refused).
trait JsOptions: for<'de> Deserialize<'de> + Default {
    /// What the object is called in messages.
    const NAME: &'static str;
    /// The field names JavaScript may use.
    const FIELDS: &'static [&'static str];
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct JsCheckerOptions {
    n: Option<usize>,
    w: Option<usize>,
    k: Option<usize>,
    stop_words: Option<bool>,
    stemming: Option<bool>,
    max_text_bytes: Option<usize>,
}

impl JsOptions for JsCheckerOptions {
    const NAME: &'static str = "CheckerOptions";
    const FIELDS: &'static [&'static str] =
        &["n", "w", "k", "stopWords", "stemming", "maxTextBytes"];
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct JsCheckOptions {
    format: Option<Format>,
    gap: Option<usize>,
    merge_gap: Option<usize>,
    min_fragment_words: Option<usize>,
    extend_min_words: Option<usize>,
    short_threshold: Option<usize>,
    short_similarity: Option<f64>,
    max_candidates: Option<usize>,
}

impl JsOptions for JsCheckOptions {
    const NAME: &'static str = "CheckOptions";
    const FIELDS: &'static [&'static str] = &[
        "format",
        "gap",
        "mergeGap",
        "minFragmentWords",
        "extendMinWords",
        "shortThreshold",
        "shortSimilarity",
        "maxCandidates",
    ];
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsParams {
    n: usize,
    w: usize,
    k: usize,
    stop_words: bool,
    stemming: bool,
}

#[derive(Serialize)]
struct JsSource {
    id: String,
    url: String,
    title: String,
    share: f64,
    words: usize,
    resemblance: f64,
    containment: f64,
    exact: bool,
    spans: Vec<[usize; 2]>,
}

#[derive(Serialize)]
struct JsReport {
    uniqueness: f64,
    words: usize,
    method: Method,
    fragments: Vec<crate::Fragment>,
    sources: Vec<JsSource>,
}

#[derive(Serialize)]
struct JsPair {
    a: [usize; 2],
    b: [usize; 2],
}

#[derive(Serialize)]
struct JsComparison {
    uniqueness: f64,
    resemblance: f64,
    containment: f64,
    words: usize,
    method: Method,
    fragments: Vec<JsPair>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsSketch {
    words: usize,
    all_words: usize,
    shingles: usize,
    fingerprints: usize,
    exact: String,
    set_size: u32,
    minhash: Vec<u32>,
}

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// Reads an optional options object; `undefined` and `null` mean "all defaults".
fn options<T: JsOptions>(value: Option<impl Into<JsValue>>) -> Result<T, JsError> {
    let Some(value) = value
        .map(Into::into)
        .filter(|v: &JsValue| !v.is_undefined() && !v.is_null())
    else {
        return Ok(T::default());
    };
    let Some(object) = value.dyn_ref::<js_sys::Object>() else {
        return Err(error(format!("{} must be an object", T::NAME)));
    };
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !T::FIELDS.contains(&key.as_str()) {
            return Err(error(format!(
                "invalid {}: unknown field `{key}`, expected one of {}",
                T::NAME,
                T::FIELDS.join(", ")
            )));
        }
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| error(format!("invalid {}: {e}", T::NAME)))
}

/// Plain JS objects (not `Map`s) for every struct, so results read like JSON.
fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(error)
}

fn to_utf16_report(report: Report, text: &str) -> JsReport {
    let utf16 = OffsetConverter::new(text, Unit::Utf16);
    let mut report = report;
    report.map_draft_offsets(|b| utf16.convert(b));
    JsReport {
        uniqueness: report.uniqueness,
        words: report.words,
        method: report.method,
        fragments: report.fragments,
        sources: report
            .sources
            .into_iter()
            .map(|s| JsSource {
                spans: s.spans.iter().map(|p| p.draft).collect(),
                id: s.info.id,
                url: s.info.url,
                title: s.info.title,
                share: s.share,
                words: s.words,
                resemblance: s.resemblance,
                containment: s.containment,
                exact: s.exact,
            })
            .collect(),
    }
}

/// Checks drafts against the published documents of the packs added to it.
#[wasm_bindgen]
pub struct Checker {
    corpus: Corpus,
    max_text_bytes: usize,
    /// CRC32 trailers of the packs already added: adding the same shard twice adds nothing.
    packs_seen: Vec<[u8; 4]>,
}

#[wasm_bindgen]
impl Checker {
    /// A checker with no documents yet. Throws on parameters out of range or unknown options.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<CheckerOptionsArg>) -> Result<Checker, JsError> {
        let o: JsCheckerOptions = self::options(options)?;
        let d = Params::default();
        let params = Params {
            n: o.n.unwrap_or(d.n),
            w: o.w.unwrap_or(d.w),
            k: o.k.unwrap_or(d.k),
            stop_words: o.stop_words.unwrap_or(d.stop_words),
            stemming: o.stemming.unwrap_or(d.stemming),
        };
        let max_text_bytes = o
            .max_text_bytes
            .unwrap_or(CheckOptions::default().max_text_bytes);
        CheckOptions {
            max_text_bytes,
            ..Default::default()
        }
        .validate()
        .map_err(error)?;
        Ok(Checker {
            corpus: Corpus::new(params).map_err(error)?,
            max_text_bytes,
            packs_seen: Vec::new(),
        })
    }

    /// Adds the documents of one pack (a shard file's bytes); returns how many were added (0 when
    /// this very pack was added before). Throws on truncated, corrupted, wrong-version or
    /// wrong-parameter packs, adding nothing.
    #[wasm_bindgen(js_name = addPack)]
    pub fn add_pack(&mut self, bytes: &[u8]) -> Result<u32, JsError> {
        let pack = decode(bytes).map_err(error)?;
        // Past a successful decode the pack ends with its 4-byte CRC.
        let trailer: [u8; 4] = bytes[bytes.len() - 4..].try_into().map_err(error)?;
        if self.packs_seen.contains(&trailer) {
            return Ok(0);
        }
        let added = self.corpus.add_pack(pack).map_err(error)?;
        self.packs_seen.push(trailer);
        Ok(added as u32)
    }

    /// Documents added so far.
    #[wasm_bindgen(getter, js_name = documentCount)]
    pub fn document_count(&self) -> u32 {
        self.corpus.len() as u32
    }

    /// The engine parameters this checker compares with.
    #[wasm_bindgen(getter, unchecked_return_type = "EngineParams")]
    pub fn params(&self) -> Result<JsValue, JsError> {
        let p = self.corpus.params();
        to_js(&JsParams {
            n: p.n,
            w: p.w,
            k: p.k,
            stop_words: p.stop_words,
            stemming: p.stemming,
        })
    }

    /// Checks a draft against every document added. Offsets are UTF-16 code units of `text`.
    /// Throws on an empty text (no words), binary data, or a text over `maxTextBytes`.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn check(&self, text: &str, options: Option<CheckOptionsArg>) -> Result<JsValue, JsError> {
        let (format, opts) = self.check_options(options)?;
        let report = self.corpus.check(text, format, &opts).map_err(error)?;
        to_js(&to_utf16_report(report, text))
    }

    /// Checks text `a` against text `b`, with spans on both sides (UTF-16 code units of each).
    #[wasm_bindgen(unchecked_return_type = "Comparison")]
    pub fn compare(
        &self,
        a: &str,
        b: &str,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, JsError> {
        let (format, opts) = self.check_options(options)?;
        let c = crate::compare(a, format, b, format, self.corpus.params(), &opts).map_err(error)?;
        let (ua, ub) = (
            OffsetConverter::new(a, Unit::Utf16),
            OffsetConverter::new(b, Unit::Utf16),
        );
        to_js(&JsComparison {
            uniqueness: c.uniqueness,
            resemblance: c.resemblance,
            containment: c.containment,
            words: c.words,
            method: c.method,
            fragments: c
                .fragments
                .iter()
                .filter_map(|p| {
                    let s = p.source?;
                    Some(JsPair {
                        a: [ua.convert(p.draft[0]), ua.convert(p.draft[1])],
                        b: [ub.convert(s[0]), ub.convert(s[1])],
                    })
                })
                .collect(),
        })
    }

    /// What the engine makes of one text: word counts, shingles, fingerprints and the sketch.
    #[wasm_bindgen(unchecked_return_type = "Sketch")]
    pub fn sketch(&self, text: &str, options: Option<CheckOptionsArg>) -> Result<JsValue, JsError> {
        let (format, _) = self.check_options(options)?;
        let d = Document::analyze(text, format, self.corpus.params(), self.max_text_bytes)
            .map_err(error)?;
        to_js(&JsSketch {
            words: d.content_words(),
            all_words: d.canonical.words.len(),
            shingles: d.shingles.len(),
            fingerprints: d.fingerprints.len(),
            exact: format!("{:016x}", d.exact),
            set_size: d.sketch.set_size,
            minhash: d.sketch.mins,
        })
    }
}

impl Checker {
    fn check_options(
        &self,
        value: Option<CheckOptionsArg>,
    ) -> Result<(Format, CheckOptions), JsError> {
        let o: JsCheckOptions = options(value)?;
        let d = CheckOptions::default();
        let opts = CheckOptions {
            gap: o.gap.unwrap_or(d.gap),
            merge_gap: o.merge_gap.unwrap_or(d.merge_gap),
            min_fragment_words: o.min_fragment_words.unwrap_or(d.min_fragment_words),
            extend_min_words: o.extend_min_words.unwrap_or(d.extend_min_words),
            short_threshold: o.short_threshold.unwrap_or(d.short_threshold),
            short_similarity: o.short_similarity.unwrap_or(d.short_similarity),
            max_text_bytes: self.max_text_bytes,
            max_candidates: o.max_candidates.unwrap_or(d.max_candidates),
        };
        opts.validate().map_err(error)?;
        Ok((o.format.unwrap_or_default(), opts))
    }
}

/// The engine's version (the npm package's version).
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// The pack format version this module reads; a manifest announcing another cannot be loaded.
#[wasm_bindgen(js_name = packFormatVersion)]
pub fn pack_format_version() -> u16 {
    FORMAT_VERSION
}

/// The canonicalizer version this module's packs must have been built with.
#[wasm_bindgen(js_name = canonicalizerVersion)]
pub fn canonicalizer_version() -> u16 {
    pack::Pack::new(Params::default()).canonicalizer
}
