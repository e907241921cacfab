//! The WebAssembly facade: what JavaScript sees of the engine.
//!
//! A thin shell, no logic of its own: it converts JS values to engine types, calls the engine and
//! serializes the engine's own answer (the same JSON keys as the CLI's `--json`), with every offset
//! in UTF-16 code units of the string JavaScript passed in (so `text.slice(start, end)` is the
//! matched text, emoji and all). Every failure becomes a JS `Error` with the engine's message and
//! its stable `code` ([`Error::CODES`]), wrong argument types included: each argument is checked
//! for its JS type before anything touches it, and input is validated before it reaches code that
//! could panic, because a panic in WebAssembly aborts the whole module.

use crate::canonicalize::CANONICALIZER_VERSION;
use crate::error::ERROR_CODE_TYPESCRIPT;
use crate::pack::{decode, Manifest, PackError, FORMAT_VERSION, MANIFEST_TYPESCRIPT};
use crate::span::{OffsetConverter, Unit};
use crate::{CheckOptions, Corpus, Document, Error, Format, Params};
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODE: &'static str = ERROR_CODE_TYPESCRIPT;

#[wasm_bindgen(typescript_custom_section)]
const MANIFEST: &'static str = MANIFEST_TYPESCRIPT;

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

/**
 * What every uniqcheck function throws: a JS `Error` whose `code` says why, stable across
 * versions (branch on it, translate by it), and whose `message` explains it in English, with the
 * fix (for logs and developers; it may be reworded at any time).
 */
export interface UniqcheckError extends Error {
  code: ErrorCode;
  /** The HTTP status, for `http_status`. */
  status?: number;
}

/** Which method decided: n-word shingles, the short-text method, or an exact duplicate. */
export type Method = "shingles" | "short" | "exact";

/** A highlighted stretch of the draft: `text.slice(start, end)`, and the ids of its sources. */
export interface Fragment {
  start: number;
  end: number;
  /** Ids of the sources matching all of it, in the order of `Report.sources`. */
  sources: string[];
}

/** One stretch of the draft a source matches. */
export interface SourceSpan {
  /** `[start, end)` in the draft. */
  draft: [number, number];
  /** `[start, end)` in the source where its text is known: never from packs, which hold no text. */
  source: [number, number] | null;
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
  /** This source's matched stretches of the draft. */
  spans: SourceSpan[];
}

/** How unique a draft is, and what matches where: the CLI's `check --json`, without its run data. */
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

/** A matched stretch: `a.slice(...f.a)` matches `b.slice(...f.b)` (both texts are known). */
export interface PairFragment {
  a: [number, number];
  b: [number, number];
}

/** Text A checked against text B: the CLI's `compare --json`, without `units`. */
export interface Comparison {
  uniqueness: number;
  /** Exact resemblance of the two shingle sets, 0..1. */
  resemblance: number;
  /** Exact share of A's shingles found in B, 0..1. */
  containment: number;
  words: number;
  method: Method;
  /** Matched stretches as highlighted. */
  fragments: PairFragment[];
  /** One per reused passage however reworded (fragments joined over `mergeGap`). */
  detections: PairFragment[];
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

/// An error on its way to JavaScript, thrown there as a JS `Error` with the message and the
/// stable `code` (a `UniqcheckError` in the `.d.ts`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThrownError {
    /// One of [`Error::CODES`].
    pub code: &'static str,
    /// What went wrong and how to fix it, in English.
    pub message: String,
}

impl ThrownError {
    fn new(code: &'static str, message: impl Display) -> ThrownError {
        ThrownError {
            code,
            message: message.to_string(),
        }
    }
}

impl From<Error> for ThrownError {
    fn from(e: Error) -> ThrownError {
        ThrownError::new(e.code(), e)
    }
}

impl From<PackError> for ThrownError {
    fn from(e: PackError) -> ThrownError {
        ThrownError::new(e.code(), e)
    }
}

impl From<ThrownError> for JsValue {
    fn from(e: ThrownError) -> JsValue {
        let error = js_sys::Error::new(&e.message);
        // Setting a property of a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&error, &"code".into(), &e.code.into());
        error.into()
    }
}

/// What a JS value is, for messages: `typeof`, with `null` told apart from objects.
fn js_type(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    value.js_typeof().as_string().unwrap_or_default()
}

/// A string argument, or an `invalid_argument` error naming it.
fn string_arg(value: &JsValue, name: &str) -> Result<String, ThrownError> {
    value.as_string().ok_or_else(|| {
        ThrownError::new(
            Error::INVALID_ARGUMENT,
            format!("{name} must be a string, not {}", js_type(value)),
        )
    })
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

impl JsCheckerOptions {
    /// The engine parameters asked for, `d`'s where not given.
    fn params(&self, d: Params) -> Params {
        Params {
            n: self.n.unwrap_or(d.n),
            w: self.w.unwrap_or(d.w),
            k: self.k.unwrap_or(d.k),
            stop_words: self.stop_words.unwrap_or(d.stop_words),
            stemming: self.stemming.unwrap_or(d.stemming),
        }
    }
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

/// Reads an optional options object; `undefined` and `null` mean "all defaults".
fn options<T: JsOptions>(value: Option<impl Into<JsValue>>) -> Result<T, ThrownError> {
    let Some(value) = value
        .map(Into::into)
        .filter(|v: &JsValue| !v.is_undefined() && !v.is_null())
    else {
        return Ok(T::default());
    };
    let Some(object) = value.dyn_ref::<js_sys::Object>() else {
        return Err(ThrownError::new(
            Error::INVALID_ARGUMENT,
            format!("{} must be an object, not {}", T::NAME, js_type(&value)),
        ));
    };
    for key in js_sys::Object::keys(object).iter() {
        let key = key.as_string().unwrap_or_default();
        if !T::FIELDS.contains(&key.as_str()) {
            return Err(ThrownError::new(
                Error::INVALID_OPTION,
                format!(
                    "invalid {}: unknown field `{key}`, expected one of {}",
                    T::NAME,
                    T::FIELDS.join(", ")
                ),
            ));
        }
    }
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| ThrownError::new(Error::INVALID_OPTION, format!("invalid {}: {e}", T::NAME)))
}

/// Plain JS objects (not `Map`s) for every struct, so results read like JSON.
fn to_js(value: &impl Serialize) -> Result<JsValue, ThrownError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| ThrownError::new(Error::INTERNAL, e))
}

/// Checks drafts against the published documents of the packs added to it.
#[wasm_bindgen]
pub struct Checker {
    corpus: Corpus,
    max_text_bytes: usize,
    /// CRC32 trailers of the packs already added: adding the same shard twice adds nothing.
    packs_seen: Vec<[u8; 4]>,
    /// The manifest the checker was made from, if any.
    manifest: Option<Manifest>,
}

#[wasm_bindgen]
impl Checker {
    /// A checker with no documents yet. Throws a `UniqcheckError`: `invalid_parameter`,
    /// `invalid_option` (an unknown or mistyped field), `invalid_argument` (not an object).
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<CheckerOptionsArg>) -> Result<Checker, ThrownError> {
        let o: JsCheckerOptions = self::options(options)?;
        Checker::create(o.params(Params::default()), o.max_text_bytes, None)
    }

    /// A checker for the packs a manifest (`manifest.json`, parsed) describes, with its engine
    /// parameters; add its shards with `addPack`. Throws a `UniqcheckError` when this module cannot
    /// use those packs, before any is downloaded: `manifest_invalid` (not a manifest's shape, or an
    /// invalid shard name), `pack_version`, `pack_canonicalizer`, `pack_params` (`options` asks
    /// for other parameters), `invalid_parameter`, `invalid_option`.
    #[wasm_bindgen(js_name = fromManifest)]
    pub fn from_manifest(
        #[wasm_bindgen(unchecked_param_type = "Manifest")] manifest: JsValue,
        options: Option<CheckerOptionsArg>,
    ) -> Result<Checker, ThrownError> {
        let manifest: Manifest =
            serde_wasm_bindgen::from_value(manifest).map_err(|e| PackError::Manifest {
                what: e.to_string(),
            })?;
        let o: JsCheckerOptions = self::options(options)?;
        let params = o.params(manifest.params);
        manifest.check_compatible(&params)?;
        Checker::create(params, o.max_text_bytes, Some(manifest))
    }

    /// Adds the documents of one pack (a shard file's bytes); returns how many were added (0 when
    /// this very pack was added before). Throws a `UniqcheckError`, adding nothing: `pack_magic`,
    /// `pack_version`, `pack_truncated`, `pack_checksum`, `pack_corrupt`, `pack_params`,
    /// `pack_canonicalizer`, `invalid_argument` (not a `Uint8Array`).
    #[wasm_bindgen(js_name = addPack)]
    pub fn add_pack(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<u32, ThrownError> {
        let Some(array) = bytes.dyn_ref::<js_sys::Uint8Array>() else {
            return Err(ThrownError::new(
                Error::INVALID_ARGUMENT,
                format!(
                    "a pack must be a Uint8Array (a shard file's bytes), not {}",
                    js_type(&bytes)
                ),
            ));
        };
        let bytes = array.to_vec();
        let pack = decode(&bytes)?;
        // Past a successful decode the pack ends with its 4-byte CRC.
        let trailer = *bytes.last_chunk::<4>().ok_or(PackError::Truncated {
            offset: 0,
            needed: 4,
        })?;
        if self.packs_seen.contains(&trailer) {
            return Ok(0);
        }
        let added = self.corpus.add_pack(pack)?;
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
    pub fn params(&self) -> Result<JsValue, ThrownError> {
        let p = self.corpus.params();
        to_js(&JsParams {
            n: p.n,
            w: p.w,
            k: p.k,
            stop_words: p.stop_words,
            stemming: p.stemming,
        })
    }

    /// The manifest this checker was made from (`Checker.fromManifest`, `loadChecker`), as the
    /// engine read it; `undefined` for a checker made with `new Checker()`.
    #[wasm_bindgen(getter, unchecked_return_type = "Manifest | undefined")]
    pub fn manifest(&self) -> Result<JsValue, ThrownError> {
        self.manifest.as_ref().map_or(Ok(JsValue::UNDEFINED), to_js)
    }

    /// Checks a draft against every document added. Offsets are UTF-16 code units of `text`.
    /// Throws a `UniqcheckError`: `empty_text` (no words), `binary_text`, `text_too_large` (over
    /// `maxTextBytes`), `invalid_option`, `invalid_argument` (`text` not a string).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, ThrownError> {
        let text = string_arg(&text, "text")?;
        let (format, opts) = self.check_options(options)?;
        let mut report = self.corpus.check(&text, format, &opts)?;
        let utf16 = OffsetConverter::new(&text, Unit::Utf16);
        report.map_draft_offsets(|b| utf16.convert(b));
        to_js(&report)
    }

    /// Checks text `a` against text `b`, with spans on both sides (UTF-16 code units of each).
    /// Throws a `UniqcheckError` as `check` does, for either text.
    #[wasm_bindgen(unchecked_return_type = "Comparison")]
    pub fn compare(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] b: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, ThrownError> {
        let (a, b) = (string_arg(&a, "a")?, string_arg(&b, "b")?);
        let (format, opts) = self.check_options(options)?;
        let mut c = crate::compare(&a, format, &b, format, self.corpus.params(), &opts)?;
        let (ua, ub) = (
            OffsetConverter::new(&a, Unit::Utf16),
            OffsetConverter::new(&b, Unit::Utf16),
        );
        c.map_offsets(|o| ua.convert(o), |o| ub.convert(o));
        to_js(&c)
    }

    /// What the engine makes of one text: word counts, shingles, fingerprints and the sketch.
    /// Throws a `UniqcheckError` as `check` does.
    #[wasm_bindgen(unchecked_return_type = "Sketch")]
    pub fn sketch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, ThrownError> {
        let text = string_arg(&text, "text")?;
        let (format, _) = self.check_options(options)?;
        let d = Document::analyze(&text, format, self.corpus.params(), self.max_text_bytes)?;
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
    fn create(
        params: Params,
        max_text_bytes: Option<usize>,
        manifest: Option<Manifest>,
    ) -> Result<Checker, ThrownError> {
        let max_text_bytes = max_text_bytes.unwrap_or(CheckOptions::default().max_text_bytes);
        CheckOptions {
            max_text_bytes,
            ..Default::default()
        }
        .validate()?;
        Ok(Checker {
            corpus: Corpus::new(params)?,
            max_text_bytes,
            packs_seen: Vec::new(),
            manifest,
        })
    }

    fn check_options(
        &self,
        value: Option<CheckOptionsArg>,
    ) -> Result<(Format, CheckOptions), ThrownError> {
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
        opts.validate()?;
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
    CANONICALIZER_VERSION
}
