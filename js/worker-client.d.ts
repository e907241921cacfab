import type { CheckOptions, Comparison, EngineParams, Report, Sketch } from "./web/uniqcheck.js";
import type { LoadOptions, LoadProgress, Manifest } from "./index.js";

/** The Checker API, run in a Web Worker: every method returns a promise, the page never blocks. */
export interface WorkerChecker {
  readonly documentCount: number;
  readonly manifest: Manifest;
  readonly params: EngineParams;
  check(text: string, options?: CheckOptions): Promise<Report>;
  compare(a: string, b: string, options?: CheckOptions): Promise<Comparison>;
  sketch(text: string, options?: CheckOptions): Promise<Sketch>;
  /** Loads the packs again (e.g. after the manifest changed); resolves to the new document count. */
  reload(manifestUrl?: string | URL, onProgress?: (p: LoadProgress) => void): Promise<number>;
  /** Stops the worker. */
  terminate(): void;
}

export interface WorkerLoadOptions extends Omit<LoadOptions, "signal"> {
  /** The worker script, when not `worker.js` next to this module. */
  workerUrl?: string | URL;
}

/** Starts a Web Worker with a Checker loaded from `manifestUrl`. */
export function createWorkerChecker(manifestUrl: string | URL, options?: WorkerLoadOptions): Promise<WorkerChecker>;
