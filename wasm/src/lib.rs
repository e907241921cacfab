//! The WebAssembly facade of the uniqcheck engine: what JavaScript sees of it.
//!
//! A thin shell, no logic of its own: it converts JS values to engine types, calls the engine and
//! serializes the engine's own answer (the same JSON keys as the CLI's `--json`), with every offset
//! in UTF-16 code units of the string JavaScript passed in (so `text.slice(start, end)` is the
//! matched text, emoji and all). `sketch`'s answer, made per text in bulk, is built by the
//! module's JavaScript half (`src/results.js`) in one call across the boundary. Every failure
//! becomes a JS `Error` with the engine's message and its stable `code` ([`Error::CODES`]), wrong
//! argument types included: each argument is checked for its JS type before anything touches it,
//! and input is validated before it reaches code that could panic, because a panic in WebAssembly
//! aborts the whole module.
//!
//! Built for `wasm32-unknown-unknown` only (this folder's `.cargo/config.toml`); scripts/build-pkg
//! makes the npm package's module of it, tests/wasm.rs runs it in Node and headless Chromium.
#![deny(missing_docs)]

mod options;

use options::JsParams;
use serde::Serialize;
use std::fmt::Display;
use uniqcheck::canonicalize::{disguises, Disguise, DisguiseKind, CANONICALIZER_VERSION};
use uniqcheck::index::packs::PACK_MAX_CANDIDATES;
use uniqcheck::pack::{Manifest, PackError, FORMAT_VERSION, MANIFEST_TYPESCRIPT};
use uniqcheck::stats::TextStats;
use uniqcheck::{
    CheckOptions, Corpus, Document, Error, Format, OffsetConverter, PackIndex, Params, Unit,
};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODE: &'static str = Error::CODES_TYPESCRIPT;

#[wasm_bindgen(typescript_custom_section)]
const MANIFEST: &'static str = MANIFEST_TYPESCRIPT;

#[wasm_bindgen(typescript_custom_section)]
const TYPES_SECTION: &'static str = TYPES;

/// The facade's own TypeScript types; tests check the options' interfaces against the Rust types
/// (`options.rs`).
#[allow(dead_code)] // read by wasm-bindgen's custom section, which the lint cannot see
const TYPES: &str = r#"
/** Engine parameters. A pack is accepted only when it was built with the same ones. */
export interface CheckerOptions {
  /** Words per shingle, 2..=10. Default 4. */
  n?: number;
  /** Winnowing window in shingles of every index's fingerprints and the draft's, 1..=64. Default 16. */
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
  /**
   * Candidate documents aligned in full (the report's `capped` and `unchecked` say when more matched). When more
   * match, those that cover the draft's keys are chosen first, then the best ranked. Default 500, and 50 for a
   * checker over packs (`Checker.open`, `loadChecker`), which fetches one record each.
   */
  maxCandidates?: number;
  /** Sources and quotations the check leaves out; the report's `excluded` says how much. Default: none. */
  exclude?: Exclusions;
}

/**
 * What a check leaves out, as text.ru, Advego and Copyleaks allow. Applied by the engine: an
 * excluded source is never aligned; quoted words count as not copied.
 */
export interface Exclusions {
  /**
   * Sources published at these URLs. Compared without the scheme, `www.`, the host's case, the
   * port, a `#fragment` and trailing slashes: `https://www.site.ru/a/` is `http://site.ru/a`.
   */
  urls?: string[];
  /** Sources on these domains or their subdomains (`site.ru` also excludes `blog.site.ru`). A URL gives its domain. */
  domains?: string[];
  /**
   * The draft's words inside quotation marks («…», „…“, “…”, "…"; nested; closed within their
   * paragraph, an unclosed one leaves out nothing) count as not copied. Default false.
   */
  quotes?: boolean;
  /**
   * Passages of the draft that are quotations though the text has no quotation marks for them
   * (an editor's block quotes), as `[start, end)` UTF-16 offsets of the text checked; used only
   * with `quotes`. A word wholly inside one counts as quoted. An offset past the text or inside
   * a character throws `invalid_option`. The editor integrations fill it in themselves.
   */
  quoted?: [number, number][];
}

/** A writer's list of their own sites and pages, as `parseExclusions` reads it. */
export interface ParsedExclusions {
  /** What applies: pass `urls` and `domains` on as `CheckOptions.exclude`'s (they always pass its validation). */
  exclusions: { urls: string[]; domains: string[]; quotes: boolean };
  /** The lines left out, in order: for the interface to name each, in its language. */
  refused: ListRefusal[];
}

/** A line of a writer's list left out. */
export interface ListRefusal {
  /** The line's number, from 1. */
  line: number;
  /** The line as typed, trimmed. */
  text: string;
  /** The entry that refused it (the line's first when there are too many). */
  entry: string;
  /** `not_an_address`: an entry names no site or page; `too_many`: past 1,000 entries. */
  reason: "not_an_address" | "too_many";
}

/** What a check left out (`CheckOptions.exclude`). */
export interface Excluded {
  /** Candidate sources passed over because their URL or domain is excluded. */
  sources: number;
  /** Content words of the draft inside quotation marks, counted as not copied. */
  quoted_words: number;
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

/** One stretch of the draft a source matches (the engine's `PairSpan`; a comparison's spans too). */
export interface PairSpan {
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
  /** This source's matched stretches of the draft (exact copies). */
  spans: PairSpan[];
  /** Passages of the draft reused from this source however reworded (copies inside included), with the source passage where its text is known. */
  rewrites: PairSpan[];
  /** Passages of the draft translated from this source in the other language (English, Russian), with the source passage where its text is known. Found only when the checker has a bilingual table. */
  translations: PairSpan[];
}

/** How unique a draft is, and what matches where: the CLI's `check --json`, without its run data. */
export interface Report {
  /** Percent of the draft's content words not covered by any fragment (exact copies), 0..100: the figure text.ru shows. */
  uniqueness: number;
  /** Percent of the draft's content words neither copied nor rewritten, 0..uniqueness. */
  originality: number;
  /** Content words in the draft (the denominator of uniqueness). */
  words: number;
  method: Method;
  /** Highlighted stretches (exact copies), in order, non-overlapping. */
  fragments: Fragment[];
  /** Rewritten stretches (reused, not word for word), in order, overlapping neither each other nor a fragment. */
  rewrites: Fragment[];
  /** Translated stretches (from a source in the other language: English, Russian), in order, overlapping no fragment, no rewrite and each other. Empty unless the checker has a bilingual table. */
  translations: Fragment[];
  /** Matching sources, largest share first. */
  sources: SourceMatch[];
  /** More candidates matched than `maxCandidates` allows to check: the rest were left out (the figure may be too high). */
  capped: boolean;
  /** How many more candidates (documents sharing keys with the draft) matched than were checked: 0 unless `capped`. */
  unchecked: number;
  /** What `CheckOptions.exclude` left out. */
  excluded: Excluded;
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
  /** Matched stretches as highlighted: `a.slice(...f.draft)` matches `b.slice(...f.source)`
   * (both texts are known, so `source` is never null here; before 0.2 these were `{ a, b }`). */
  fragments: PairSpan[];
  /** One per reused passage however reworded (fragments joined over `mergeGap`). */
  detections: PairSpan[];
  /** Percent of A's content words neither copied nor rewritten, 0..uniqueness. */
  originality: number;
  /** Stretches of A rewritten from B (not word for word), each with the passage of B it comes from. */
  rewrites: PairSpan[];
  /** Stretches of A translated from B in the other language (English, Russian), each with the passage of B it was found in. Empty unless a bilingual table is given. */
  translations: PairSpan[];
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
  /** Water and nausea, with the words behind them. */
  stats: TextStats;
  /** Where the text hides look-alike letters or invisible characters, which the check folds. */
  disguises: Disguise[];
}

/** A word of a frequency list and its occurrences (all its forms together). */
export interface WordCount {
  /** The word as first written, lowercased. */
  word: string;
  count: number;
}

/**
 * The figures copywriters compare between services, as Advego defines them (the engine's stop
 * words and word forms: one stem, one word).
 */
export interface TextStats {
  /** All words, stop words included. */
  words: number;
  /** Content words (not stop words). */
  contentWords: number;
  /** "Water": stop words among all words, percent 0..100. */
  water: number;
  /** Classic nausea: √ of the occurrences of the most frequent content word. */
  nauseaClassic: number;
  /** Academic nausea: occurrences of the (up to 10) most frequent repeated content words over all words, percent 0..100. */
  nauseaAcademic: number;
  /** The most frequent content words, most frequent first (at most 10). */
  topWords: WordCount[];
  /** The most frequent stop words ("water"), most frequent first (at most 10). */
  waterWords: WordCount[];
}

/**
 * A stretch the check folds silently: `text.slice(start, end)` (UTF-16) is a word mixing
 * Cyrillic and Latin letters (`"mixed_script"`) or a run of invisible characters
 * (`"invisible"`: zero-width spaces and joiners, soft hyphens, bidi marks…). Ordered by start;
 * an invisible run inside a mixed word overlaps it.
 */
export interface Disguise {
  start: number;
  end: number;
  kind: "mixed_script" | "invisible";
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

#[wasm_bindgen]
extern "C" {
    /// The JS engine's own UTF-8 encoder (browsers, workers and Node all have it).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    /// Writes `source` as UTF-8 into `destination` (lone surrogates become U+FFFD).
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(
        this: &TextEncoder,
        source: &js_sys::JsString,
        destination: &js_sys::Uint8Array,
    ) -> EncodeIntoResult;
    /// What `encodeInto` did.
    type EncodeIntoResult;
    /// Bytes written.
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// Longest string (in UTF-16 code units) [`string_arg`] copies with one `encodeInto` into a
/// buffer of three bytes a unit (the most UTF-8 a unit can take); longer ones go through
/// wasm-bindgen's copy, which sizes its buffer as it goes, so that a large ASCII text does not
/// grow the module's memory (which never shrinks) to three times its size.
const ENCODE_INTO_MAX_UNITS: usize = 1 << 20;

/// A string argument, or an `invalid_argument` error naming it.
///
/// Copied into the module by `TextEncoder.encodeInto`: wasm-bindgen's own copy (`as_string`)
/// walks an ASCII text in a JavaScript loop, a character at a time, which cost about 4 % of
/// `Checker.sketch` in Node (docs/PERFORMANCE.md). The same UTF-8 either way: both encode with
/// the engine's `TextEncoder`, lone surrogates as U+FFFD.
fn string_arg(value: &JsValue, name: &str) -> Result<String, ThrownError> {
    let Some(s) = value.dyn_ref::<js_sys::JsString>() else {
        return Err(ThrownError::new(
            Error::INVALID_ARGUMENT,
            format!("{name} must be a string, not {}", js_type(value)),
        ));
    };
    let units = s.length() as usize;
    if units > ENCODE_INTO_MAX_UNITS {
        return Ok(String::from(s));
    }
    let capacity = units * 3;
    let mut bytes: Vec<u8> = Vec::with_capacity(capacity);
    // SAFETY: the view covers the vector's allocation (`capacity` bytes), and it is used only by
    // `encodeInto`, which calls no Rust code: nothing can grow the memory, move or free the
    // vector while the view exists.
    let view = unsafe { js_sys::Uint8Array::view_mut_raw(bytes.as_mut_ptr(), capacity) };
    let written = ENCODER.with(|e| e.encode_into(s, &view).written()) as usize;
    // SAFETY: `encodeInto` initialized the first `written` bytes (at most the view's length).
    unsafe { bytes.set_len(written.min(capacity)) };
    // UTF-8 by the Encoding standard's definition of `encodeInto`; checked all the same (one
    // validation pass), so that a replaced `TextEncoder` cannot break `String`'s invariant.
    String::from_utf8(bytes).map_err(|e| ThrownError::new(Error::INTERNAL, e))
}

/// Plain JS objects (not `Map`s) for every struct, so results read like JSON.
fn to_js(value: &impl Serialize) -> Result<JsValue, ThrownError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| ThrownError::new(Error::INTERNAL, e))
}

/// Where a checker's documents come from.
enum Backend {
    /// None: a checker for `compare` and `sketch` (a check finds nothing).
    Empty(Corpus),
    /// Format-6 packs ([`uniqcheck::pack::FORMAT_VERSION`]), their files added as a check needs them
    /// (boxed: the index is several maps, far larger than the empty corpus).
    Packs(Box<PackIndex>),
}

/// Checks drafts against published documents: the packs a manifest describes, fetched on demand.
///
/// The loop a caller runs (the npm package's `loadChecker` does it): `needed(text)` names the
/// pack files a check of `text` still lacks; fetch each (relative to the manifest's URL) and
/// `add` it; ask again until the list is empty (two rounds on a first check: index pages, then
/// records; loop until empty rather than count them); then `check(text)`.
#[wasm_bindgen]
pub struct Checker {
    backend: Backend,
    params: Params,
    max_text_bytes: usize,
    /// The English–Russian table its checks and comparisons also seek translations through.
    bilingual: Option<std::sync::Arc<uniqcheck::bilingual::Bilingual>>,
}

/// A byte-array argument, or an `invalid_argument` error naming it.
fn bytes_arg(value: &JsValue, name: &str) -> Result<Vec<u8>, ThrownError> {
    match value.dyn_ref::<js_sys::Uint8Array>() {
        Some(array) => Ok(array.to_vec()),
        None => Err(ThrownError::new(
            Error::INVALID_ARGUMENT,
            format!("{name} must be a Uint8Array, not {}", js_type(value)),
        )),
    }
}

#[wasm_bindgen]
impl Checker {
    /// A checker with no documents (for `compare` and `sketch`). Throws a `UniqcheckError`:
    /// `invalid_parameter`, `invalid_option` (an unknown or mistyped field), `invalid_argument`
    /// (not an object).
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<CheckerOptionsArg>) -> Result<Checker, ThrownError> {
        let (params, max_text_bytes) =
            options::checker_options(options.map(Into::into), Params::default())?;
        Checker::create(Backend::Empty(Corpus::new(params)?), params, max_text_bytes)
    }

    /// A checker for the packs a manifest (`manifest.json`, parsed) describes, given the bytes of
    /// the page table it names (`manifest.table.name`, next to the manifest). Throws a
    /// `UniqcheckError` when this module cannot use those packs, before anything else is
    /// downloaded: `manifest_invalid`, `pack_version`, `pack_canonicalizer`, `pack_params`
    /// (`options` asks for other parameters), a table error (`pack_checksum`, …),
    /// `invalid_parameter`, `invalid_option`, `invalid_argument`.
    pub fn open(
        #[wasm_bindgen(unchecked_param_type = "Manifest")] manifest: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] table: JsValue,
        options: Option<CheckerOptionsArg>,
    ) -> Result<Checker, ThrownError> {
        let manifest = usable_manifest(manifest)?;
        let table = bytes_arg(&table, "the page table")?;
        let (params, max_text_bytes) =
            options::checker_options(options.map(Into::into), manifest.params)?;
        manifest.check_compatible(&params)?;
        let index = PackIndex::open(manifest, &table)?;
        Checker::create(Backend::Packs(Box::new(index)), params, max_text_bytes)
    }

    /// The pack files a check of `text` still needs, as paths relative to the manifest (empty:
    /// `check` can answer). Call again after adding them, until it names nothing: first the index
    /// pages of the draft's keys (named from the page table) and the bilingual table when the
    /// manifest names one that is not added yet, then the pages of the draft's translated keys,
    /// then the records of its candidates. Throws as `check` does.
    pub fn needed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<Vec<String>, ThrownError> {
        let text = string_arg(&text, "text")?;
        let (format, opts) = self.check_options(options, &text)?;
        let Backend::Packs(index) = &self.backend else {
            return Ok(Vec::new());
        };
        let draft = uniqcheck::check::analyze_draft(&text, format, &self.params, &opts)?;
        Ok(index.needed(&draft, &opts)?)
    }

    /// Adds a fetched pack file by the path `needed` (or `allPages`, `recordsToFetch`) gave.
    /// Throws a `UniqcheckError`, adding nothing: `manifest_invalid` (a name the packs do not
    /// have), `pack_checksum`, `pack_truncated`, `pack_corrupt`, `pack_version`, `pack_params`,
    /// `pack_canonicalizer`, `invalid_argument`.
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] bytes: JsValue,
    ) -> Result<(), ThrownError> {
        let name = string_arg(&name, "name")?;
        let bytes = bytes_arg(&bytes, "a pack file")?;
        match &mut self.backend {
            Backend::Packs(index) => Ok(index.add(&name, &bytes)?),
            Backend::Empty(_) => Err(ThrownError::new(
                Error::INVALID_ARGUMENT,
                "this checker has no packs: make it with Checker.open(manifest, table)",
            )),
        }
    }

    /// Seek translations (English ↔ Russian) in every later `check`, `needed` and `compare`
    /// through the table `bytes` (`en-ru.uqbl`, CC BY-SA, fetched apart from this module; its
    /// NOTICE.md says from what), or stop seeking them with `null`. Packs written with a table
    /// (`pack --bilingual`) name it in their manifest, and `needed` names it for the first check:
    /// through them translations are found without this call (`null` then falls back to the
    /// packs' table; a table given here takes its place). Throws a `UniqcheckError`
    /// (`invalid_argument`) naming what is wrong with the bytes, keeping the table it had.
    #[wasm_bindgen(js_name = setBilingual)]
    pub fn set_bilingual(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | null")] bytes: JsValue,
    ) -> Result<(), ThrownError> {
        if bytes.is_null() || bytes.is_undefined() {
            self.bilingual = None;
            return Ok(());
        }
        let bytes = bytes_arg(&bytes, "the bilingual table")?;
        let table = uniqcheck::bilingual::Bilingual::decode(&bytes)
            .and_then(|t| t.check(self.params.stemming).map(|()| t))
            .map_err(|e| ThrownError::new(Error::INVALID_ARGUMENT, e))?;
        self.bilingual = Some(std::sync::Arc::new(table));
        Ok(())
    }

    /// What downloading the whole index (for offline use) still lacks: every index page not added
    /// yet (named from the page table: one round). With `recordsToFetch`, what downloading
    /// everything fetches.
    #[wasm_bindgen(js_name = allPages)]
    pub fn all_pages(&self) -> Vec<String> {
        match &self.backend {
            Backend::Packs(index) => index.all_pages(),
            Backend::Empty(_) => Vec::new(),
        }
    }

    /// The record files of the record list (the bytes of `manifest.records.name`) not added yet.
    #[wasm_bindgen(js_name = recordsToFetch)]
    pub fn records_to_fetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] list: JsValue,
    ) -> Result<Vec<String>, ThrownError> {
        let list = bytes_arg(&list, "the record list")?;
        match &self.backend {
            Backend::Packs(index) => Ok(index.records_to_fetch(&list)?),
            Backend::Empty(_) => Ok(Vec::new()),
        }
    }

    /// Documents in the packs (0 without packs).
    #[wasm_bindgen(getter, js_name = documentCount)]
    pub fn document_count(&self) -> u32 {
        match &self.backend {
            Backend::Packs(index) => index.manifest().documents as u32,
            Backend::Empty(corpus) => corpus.len() as u32,
        }
    }

    /// Bytes of the pack files added so far.
    #[wasm_bindgen(getter, js_name = loadedBytes)]
    pub fn loaded_bytes(&self) -> f64 {
        match &self.backend {
            Backend::Packs(index) => index.loaded_bytes() as f64,
            Backend::Empty(_) => 0.0,
        }
    }

    /// The engine parameters this checker compares with.
    #[wasm_bindgen(getter, unchecked_return_type = "EngineParams")]
    pub fn params(&self) -> Result<JsValue, ThrownError> {
        to_js(&JsParams::from(self.params))
    }

    /// The manifest this checker was opened from, as the engine read it; `undefined` for a
    /// checker made with `new Checker()`.
    #[wasm_bindgen(getter, unchecked_return_type = "Manifest | undefined")]
    pub fn manifest(&self) -> Result<JsValue, ThrownError> {
        match &self.backend {
            Backend::Packs(index) => to_js(index.manifest()),
            Backend::Empty(_) => Ok(JsValue::UNDEFINED),
        }
    }

    /// Checks a draft against the packs. Offsets are UTF-16 code units of `text`. Throws a
    /// `UniqcheckError`: `pack_missing` (a file `needed` names was not added), `empty_text` (no
    /// words), `binary_text`, `text_too_large` (over `maxTextBytes`), `invalid_option`,
    /// `invalid_argument` (`text` not a string).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, ThrownError> {
        let text = string_arg(&text, "text")?;
        let (format, opts) = self.check_options(options, &text)?;
        let mut report = match &self.backend {
            Backend::Packs(index) => {
                let draft = uniqcheck::check::analyze_draft(&text, format, &self.params, &opts)?;
                uniqcheck::check::check_document(index.as_ref(), &draft, &opts)?
            }
            Backend::Empty(corpus) => corpus.check(&text, format, &opts)?,
        };
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
        // Quoted passages are the first text's, as the draft's in `check`.
        let (format, mut opts) = self.check_options(options, &a)?;
        // A comparison has no index to bring a table: the packs' own serves it too.
        if let (None, Backend::Packs(index)) = (&opts.bilingual, &self.backend) {
            opts.bilingual = index.bilingual().cloned();
        }
        let mut c = uniqcheck::compare(&a, format, &b, format, &self.params, &opts)?;
        let (ua, ub) = (
            OffsetConverter::new(&a, Unit::Utf16),
            OffsetConverter::new(&b, Unit::Utf16),
        );
        c.map_offsets(|o| ua.convert(o), |o| ub.convert(o));
        to_js(&c)
    }

    /// What the engine makes of one text: word counts, shingles, fingerprints and the sketch,
    /// water and nausea with the words behind them (`stats`), and the look-alike letters and
    /// invisible characters the check folds (`disguises`, UTF-16 offsets).
    /// Throws a `UniqcheckError` as `check` does.
    #[wasm_bindgen(unchecked_return_type = "Sketch")]
    pub fn sketch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        options: Option<CheckOptionsArg>,
    ) -> Result<JsValue, ThrownError> {
        let text = string_arg(&text, "text")?;
        let (format, _) = self.check_options(options, &text)?;
        let d = Document::analyze(&text, format, &self.params, self.max_text_bytes)?;
        let stats = TextStats::of(&text, format, &d.canonical);
        let utf16 = OffsetConverter::new(&text, Unit::Utf16);
        let disguises: Vec<Disguise> = disguises(&text, format, &d.canonical)
            .into_iter()
            .map(|x| Disguise {
                start: utf16.convert(x.start as usize) as u32,
                end: utf16.convert(x.end as usize) as u32,
                ..x
            })
            .collect();
        Ok(sketch_to_js(&d, &stats, &disguises))
    }
}

#[wasm_bindgen(module = "/src/results.js")]
extern "C" {
    /// Builds a `Sketch` in JavaScript from its numbers and one string (see the file).
    #[wasm_bindgen(js_name = sketchResult)]
    #[allow(clippy::too_many_arguments)]
    fn sketch_result(
        words: u32,
        all_words: u32,
        shingles: u32,
        fingerprints: u32,
        set_size: u32,
        minhash: &[u32],
        stats_words: u32,
        content_words: u32,
        water: f64,
        nausea_classic: f64,
        nausea_academic: f64,
        strings: &str,
        lengths: &[u32],
        counts: &[u32],
        top_count: u32,
        spans: &[u32],
    ) -> JsValue;
}

/// A `Disguise`'s `kind` as JavaScript reads it (serde's name of the variant).
fn kind_name(kind: DisguiseKind) -> &'static str {
    match kind {
        DisguiseKind::MixedScript => "mixed_script",
        DisguiseKind::Invisible => "invisible",
    }
}

/// The `Sketch` of an analysed text, built in JavaScript by `src/results.js` in one call:
/// serde-wasm-bindgen crosses into JavaScript for every field, element and string (a
/// `TextDecoder` call each), which made building the result about an eighth of
/// `Checker.sketch`'s time in Node (docs/PERFORMANCE.md). The strings travel as one, cut by
/// their lengths in UTF-16 code units: the exact hash, the top words, the water words, then the
/// disguises' kinds. The same object as serde made: keys, order and values.
fn sketch_to_js(d: &Document, stats: &TextStats, disguises: &[Disguise]) -> JsValue {
    let words = stats.top_words.iter().chain(&stats.water_words);
    let mut strings = format!("{:016x}", d.exact);
    let mut lengths = vec![strings.len() as u32];
    let mut counts = Vec::with_capacity(stats.top_words.len() + stats.water_words.len());
    for w in words {
        strings.push_str(&w.word);
        lengths.push(w.word.encode_utf16().count() as u32);
        counts.push(w.count);
    }
    let mut spans = Vec::with_capacity(2 * disguises.len());
    for x in disguises {
        let kind = kind_name(x.kind);
        strings.push_str(kind);
        lengths.push(kind.len() as u32);
        spans.extend([x.start, x.end]);
    }
    sketch_result(
        d.content_words() as u32,
        d.canonical.words.len() as u32,
        d.shingles.len() as u32,
        d.fingerprints.len() as u32,
        d.sketch.set_size,
        &d.sketch.mins,
        stats.words,
        stats.content_words,
        stats.water,
        stats.nausea_classic,
        stats.nausea_academic,
        &strings,
        &lengths,
        &counts,
        stats.top_words.len() as u32,
        &spans,
    )
}

impl Checker {
    fn create(
        backend: Backend,
        params: Params,
        max_text_bytes: Option<usize>,
    ) -> Result<Checker, ThrownError> {
        let max_text_bytes = max_text_bytes.unwrap_or(CheckOptions::default().max_text_bytes);
        CheckOptions {
            max_text_bytes,
            ..Default::default()
        }
        .validate()?;
        Ok(Checker {
            backend,
            params,
            max_text_bytes,
            bilingual: None,
        })
    }

    /// The options of a check of `text` (the draft), with `exclude.quoted` turned from its UTF-16
    /// offsets into the engine's bytes.
    fn check_options(
        &self,
        value: Option<CheckOptionsArg>,
        text: &str,
    ) -> Result<(Format, CheckOptions), ThrownError> {
        let (format, mut opts, max_candidates) = options::check_options(value.map(Into::into))?;
        opts.exclude.quoted_to_bytes(text, Unit::Utf16)?;
        opts.max_text_bytes = self.max_text_bytes;
        opts.bilingual = self.bilingual.clone();
        if !max_candidates && matches!(self.backend, Backend::Packs(_)) {
            opts.max_candidates = PACK_MAX_CANDIDATES;
        }
        opts.validate()?;
        Ok((format, opts))
    }
}

/// A parsed manifest this module can use with its own parameters, or why not: its shape, format
/// version, file names, canonicalizer and parameters, in that order.
fn usable_manifest(manifest: JsValue) -> Result<Manifest, ThrownError> {
    let manifest: Manifest =
        serde_wasm_bindgen::from_value(manifest).map_err(|e| PackError::Manifest {
            what: e.to_string(),
        })?;
    manifest.check_compatible(&manifest.params)?;
    manifest.params.validate()?;
    Ok(manifest)
}

/// Reads a manifest (`manifest.json`, parsed) and returns it as the engine reads it, or throws a
/// `UniqcheckError` when this module cannot use its packs: `manifest_invalid`, `pack_version`,
/// `pack_canonicalizer`, `invalid_parameter`. Call it before fetching `manifest.table.name`: a
/// name it returns is a pack file's, never a path elsewhere.
#[wasm_bindgen(js_name = readManifest, unchecked_return_type = "Manifest")]
pub fn read_manifest(
    #[wasm_bindgen(unchecked_param_type = "Manifest")] manifest: JsValue,
) -> Result<JsValue, ThrownError> {
    to_js(&usable_manifest(manifest)?)
}

/// Reads a writer's list of their own sites and pages (one a line, or separated by spaces, commas
/// or semicolons), as a settings box takes it: what applies (`exclusions`, which always passes a
/// check's validation) and the lines left out, each with why (`refused`). A line is taken or left
/// out whole, so a typo never makes a check fail; international domains work in Unicode and in
/// punycode. Throws only for a `text` that is not a string (`invalid_argument`).
#[wasm_bindgen(js_name = parseExclusions, unchecked_return_type = "ParsedExclusions")]
pub fn parse_exclusions(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, ThrownError> {
    let text = string_arg(&text, "text")?;
    to_js(&uniqcheck::exclude::Exclusions::from_list(&text))
}

/// The engine's version (the npm package's version).
#[wasm_bindgen]
pub fn version() -> String {
    uniqcheck::VERSION.to_string()
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
