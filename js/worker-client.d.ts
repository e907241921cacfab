import type { CheckOptions, Comparison, EngineParams, ParsedExclusions, Report, Sketch } from "./web/uniqcheck.js";
import type { FetchOptions, LoadOptions, LoadProgress, Manifest } from "./index.js";

/**
 * The `PackChecker` API, run in a Web Worker: every method returns a promise, the page never
 * blocks. A check fetches the pack files it needs inside the worker, which keeps them.
 */
export interface WorkerChecker {
  readonly documentCount: number;
  readonly manifest: Manifest;
  readonly manifestUrl: string;
  readonly params: EngineParams;
  /** Bytes of index pages and records the worker's engine holds (as of the last check or download). */
  readonly loadedBytes: number;
  /** Files and bytes fetched so far (as of the last check or download). */
  readonly fetched: { files: number; bytes: number };
  check(text: string, options?: CheckOptions, fetch?: Pick<FetchOptions, "onProgress">): Promise<Report>;
  /** The pack files a check of `text` still needs; [] = none. */
  needed(text: string, options?: CheckOptions): Promise<string[]>;
  /** Downloads every index page and record not held yet (offline use); resolves to what it fetched. */
  downloadAll(options?: Pick<FetchOptions, "onProgress">): Promise<{ files: number; bytes: number }>;
  compare(a: string, b: string, options?: CheckOptions): Promise<Comparison>;
  sketch(text: string, options?: CheckOptions): Promise<Sketch>;
  /** `parseExclusions(text)` of the engine, in the worker: what a writer's list of sites applies, and the lines it leaves out. */
  parseExclusions(text: string): Promise<ParsedExclusions>;
  /** Opens the packs again (e.g. after the manifest changed); resolves to the new document count. */
  reload(manifestUrl?: string | URL, onProgress?: (p: LoadProgress) => void): Promise<number>;
  /** Stops the worker. */
  terminate(): void;
}

export interface WorkerLoadOptions extends Omit<LoadOptions, "signal"> {
  /** The worker script, when not `worker.js` next to this module. */
  workerUrl?: string | URL;
}

/**
 * Starts a Web Worker with a checker opened from `manifestUrl`. Rejects with `invalid_argument`
 * (before any worker starts) when `manifestUrl` is missing, empty or neither a string nor a URL.
 */
export function createWorkerChecker(manifestUrl: string | URL, options?: WorkerLoadOptions): Promise<WorkerChecker>;
