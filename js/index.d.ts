// Public types of the uniqcheck npm package. The engine's own types (Checker, Report, CheckOptions,
// ...) are generated from the Rust facade by wasm-bindgen and re-exported here.
export * from "./web/uniqcheck.js";
import type { Checker, CheckerOptions } from "./web/uniqcheck.js";

/** What `manifest.json` next to the packs says (written by `uniqcheck pack` / `uniqcheck serve`). */
export interface Manifest {
  format_version: number;
  engine_version: string;
  canonicalizer: number;
  params: { n: number; w: number; k: number; stop_words: boolean; stemming: boolean };
  /** Documents in all shards. */
  documents: number;
  /** When the packs were written. */
  generated: string | number;
  /** The store's change counter when the packs were written. */
  changes: number;
  shards: { name: string; bytes: number; documents: number; sha256?: string }[];
}

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

/** Fetches a pack manifest and its shards (in parallel, HTTP-cached) and returns a filled Checker. */
export function loadChecker(manifestUrl: string | URL, options?: LoadOptions): Promise<LoadedChecker>;

/** Loads the WebAssembly module once; `loadChecker` and `new Checker` need it done first in browsers. */
export function initialize(moduleOrPath?: LoadOptions["wasm"]): Promise<void>;
