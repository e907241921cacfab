// Public types of the uniqcheck npm package. The engine's own types (Checker, Report, Manifest,
// CheckOptions, UniqcheckError, ErrorCode, ...) are generated from the Rust facade by wasm-bindgen
// and re-exported here.
export * from "./web/uniqcheck.js";
import type { Checker, CheckerOptions, CheckOptions, Comparison, EngineParams, Manifest, Report, Sketch } from "./web/uniqcheck.js";

/** Download progress of one operation (opening, a check, `downloadAll`), in bytes and files of packs. */
export interface LoadProgress {
  /** Bytes fetched so far by this operation. */
  loaded: number;
  /** Bytes this operation will fetch, when known in advance (opening, `downloadAll`); 0 when not (a check). */
  total: number;
  /** Files this operation fetches (of the current round, for a check). */
  files: number;
  filesLoaded: number;
}

/** Controls for an operation that may download. */
export interface FetchOptions {
  /** Called as files arrive. */
  onProgress?: (progress: LoadProgress) => void;
  /** Cancels the downloads. */
  signal?: AbortSignal;
}

export interface LoadOptions extends FetchOptions {
  /** Overrides for the checker (e.g. `maxTextBytes`); engine parameters come from the manifest. */
  checker?: Pick<CheckerOptions, "maxTextBytes">;
  /**
   * Called with the URLs of every batch of pack files fetched (opening, each step of
   * `downloadAll`, and a check's files once the check is over): e.g. to hand them to a service
   * worker that keeps them for offline use.
   */
  onFetch?: (urls: string[]) => void;
  /**
   * The name of a CacheStorage cache (filled by a service worker) to read pack files from before
   * the network, in browsers; never created. The package's Web Worker passes `"uniqcheck-packs"`,
   * the cache of the demo page's service worker.
   */
  packCache?: string;
  /** Where to load the `.wasm` from, when not next to the module (browsers and bundlers only). */
  wasm?: string | URL | Response | BufferSource | WebAssembly.Module;
}

/**
 * The engine's `Checker` over packs of the current format (version 6, `packFormatVersion()`), with
 * the downloads done for it: `check` asks the engine which files the draft needs (index
 * pages, then records, until it needs nothing), fetches them in parallel (immutable files from the HTTP cache when there), adds them
 * and checks. The engine keeps what it was given, so a re-check while typing fetches only what is
 * new.
 */
export interface PackChecker {
  /** The engine's own checker (`needed`, `add`, `allPages`, `recordsToFetch`, ...). */
  readonly engine: Checker;
  /** The manifest as the engine read it ("N documents, indexed on ..."). */
  readonly manifest: Manifest;
  /** The manifest's URL (or path in Node); pack files are fetched relative to it. */
  readonly manifestUrl: string;
  readonly params: EngineParams;
  /** Documents in the packs (whether fetched or not). */
  readonly documentCount: number;
  /** Bytes of index pages and records the engine holds. */
  readonly loadedBytes: number;
  /** Files and bytes fetched so far, the page table included. */
  readonly fetched: { files: number; bytes: number };
  /**
   * Fetches what a check of `text` needs, then checks it. Each candidate aligned is one record
   * file to fetch, so the engine aligns at most 50 unless `options.maxCandidates` says
   * otherwise; when more match, the report's `capped` and `unchecked` say so and how many.
   * Rejects with the engine's codes, and `fetch_failed` / `http_status` for a file that cannot
   * be downloaded.
   */
  check(text: string, options?: CheckOptions, fetch?: FetchOptions): Promise<Report>;
  /** The pack files (paths relative to the manifest) a check of `text` still needs; [] = none (the same bound as `check`). */
  needed(text: string, options?: CheckOptions): string[];
  /**
   * Downloads every index page and record not held yet: afterwards no check fetches anything
   * (offline use). Progress `total` is the bytes still to come. Resolves to what it fetched.
   */
  downloadAll(options?: FetchOptions): Promise<{ files: number; bytes: number }>;
  /** Two known texts: nothing to fetch. */
  compare(a: string, b: string, options?: CheckOptions): Comparison;
  sketch(text: string, options?: CheckOptions): Sketch;
  /** Frees the engine's memory. */
  free(): void;
}

/** @deprecated The name of version 1; a loaded checker is a `PackChecker`. */
export type LoadedChecker = PackChecker;

/**
 * Fetches a pack manifest and its page table (nothing else) and returns a `PackChecker`.
 * Rejects with a `UniqcheckError`: the engine's codes for a manifest or table it cannot use
 * (checked before the table is fetched), and `fetch_failed` / `http_status` (with `status`) /
 * `manifest_invalid` (not JSON) for the downloads, `invalid_argument` for a `manifestUrl` that is
 * missing, empty or neither a string nor a URL, or `options` that are not an object. In Node, a
 * file that cannot be read rejects with Node's own error (`code` "ENOENT", ...).
 */
export function loadChecker(manifestUrl: string | URL, options?: LoadOptions): Promise<PackChecker>;

/**
 * Loads the WebAssembly module once; `loadChecker` and `new Checker` need it done first in browsers.
 * Without an argument, the module `moduleUrl()` names.
 */
export function initialize(moduleOrPath?: LoadOptions["wasm"]): Promise<void>;

/**
 * The URL of the `.wasm` this engine runs: `web/uniqcheck_bg.wasm` (WebAssembly SIMD) where the engine
 * has SIMD, otherwise `web/uniqcheck_nosimd_bg.wasm` (the same code and results without SIMD, for
 * Safari before 16.4, Chrome before 91, Firefox before 89). In Node, the Node build's module.
 */
export function moduleUrl(): string;
