// Public types of the uniqcheck npm package. The engine's own types (Checker, Report, Manifest,
// CheckOptions, UniqcheckError, ErrorCode, ...) are generated from the Rust facade by wasm-bindgen
// and re-exported here.
export * from "./web/uniqcheck.js";
import type { Checker, CheckerOptions, Manifest } from "./web/uniqcheck.js";

/** Download progress, in bytes of shards. */
export interface LoadProgress {
  loaded: number;
  total: number;
  shards: number;
  shardsLoaded: number;
}

export interface LoadOptions {
  /** Called as shards arrive. */
  onProgress?: (progress: LoadProgress) => void;
  /** Cancels the downloads. */
  signal?: AbortSignal;
  /** Overrides for the checker (e.g. `maxTextBytes`); engine parameters come from the manifest. */
  checker?: Pick<CheckerOptions, "maxTextBytes">;
  /** Where to load the `.wasm` from, when not next to the module (browsers and bundlers only). */
  wasm?: string | URL | Response | BufferSource | WebAssembly.Module;
}

/** A Checker filled from a manifest, which it keeps for display ("N documents, indexed on ..."). */
export type LoadedChecker = Checker & { readonly manifest: Manifest };

/**
 * Fetches a pack manifest and its shards (in parallel, HTTP-cached) and returns a filled Checker.
 * Rejects with a `UniqcheckError`: the engine's codes for a manifest or pack it cannot use, and
 * `fetch_failed` / `http_status` (with `status`) / `manifest_invalid` (not JSON) for the
 * downloads. In Node, a file that cannot be read rejects with Node's own error (`code` "ENOENT", ...).
 */
export function loadChecker(manifestUrl: string | URL, options?: LoadOptions): Promise<LoadedChecker>;

/** Loads the WebAssembly module once; `loadChecker` and `new Checker` need it done first in browsers. */
export function initialize(moduleOrPath?: LoadOptions["wasm"]): Promise<void>;
