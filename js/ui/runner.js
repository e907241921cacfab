// The check runner every host uses (the page, the CKEditor 5 plugin, <uniq-check>): checks run in
// the package's Web Worker, so typing never freezes; one check at a time, started `debounce` ms
// after the last change; when the text changes while a check runs (or waits for the pack files it
// needs), its answer is discarded and the newest text is checked next (never a queue of outdated
// texts). The worker keeps every file fetched, so a re-check fetches only what is new.

import { createWorkerChecker } from "../worker-client.js";

export const DEBOUNCE_MS = 400;

/**
 * @param {{ manifestUrl?: string | URL, checker?: Promise<any>, debounce?: number, sketch?: boolean,
 *           workerUrl?: string | URL,
 *           checkOptions?: import("../web/uniqcheck.js").CheckOptions
 *             | ((text: string) => import("../web/uniqcheck.js").CheckOptions | undefined
 *                 | Promise<import("../web/uniqcheck.js").CheckOptions | undefined>),
 *           onProgress?: (p: import("../index.js").LoadProgress) => void,
 *           onFetch?: (urls: string[]) => void,
 *           onResult: (r: { text: string, report: any, sketch?: any, ms: number }) => void,
 *           onEmpty?: (text: string) => void,
 *           onError?: (err: import("../web/uniqcheck.js").UniqcheckError, text: string) => void,
 *           onStart?: (text: string) => void }} opts
 *   `checker`: an already started WorkerChecker (a promise of one) to share between hosts;
 *   otherwise one is started for `manifestUrl`. `sketch`: also ask for the sketch (word counts).
 *   `checkOptions`: the engine's CheckOptions for every check (e.g. `{ exclude: { domains,
 *   urls, quotes } }`), or a function of the text about to be checked returning them (or a
 *   promise of them), read when each check starts (the editor hosts add the text's block quotes there); after a change,
 *   `now(text)` checks again.
 */
export function createCheckRunner(opts) {
  const debounce = opts.debounce ?? DEBOUNCE_MS;
  const onEmpty = opts.onEmpty ?? (() => {});
  const onError = opts.onError ?? ((err) => console.warn("uniqcheck:", err.message));
  let checker = null;
  let timer = 0;
  let running = false;
  let wanted = null; // the text to check next (null: nothing pending)
  let current = ""; // the host's latest text: answers for anything else are stale

  const started =
    opts.checker ??
    createWorkerChecker(opts.manifestUrl, {
      onProgress: opts.onProgress,
      onFetch: opts.onFetch,
      workerUrl: opts.workerUrl,
      ...(opts.wasm === undefined ? {} : { wasm: String(opts.wasm) }),
    });
  const ready = Promise.resolve(started).then((c) => {
    checker = c;
    if (wanted !== null) pump();
    return c;
  });

  async function pump() {
    if (!checker || running || wanted === null) return;
    const text = wanted;
    wanted = null;
    if (!/[\p{L}\p{N}]/u.test(text)) {
      // No letters or digits: the engine would refuse it as empty; say so without asking it.
      onEmpty(text);
      return pump();
    }
    running = true;
    opts.onStart?.(text);
    const t0 = performance.now();
    try {
      // Both belong to the same text (the check may first wait for pack files).
      let options = typeof opts.checkOptions === "function" ? opts.checkOptions(text) : opts.checkOptions;
      // A promise of them only when given one (the page's exclusions before the engine has read
      // the list): awaiting a plain value would hand a paste's check over after its task.
      if (typeof options?.then === "function") options = await options;
      const [report, sketch] = await Promise.all([
        checker.check(text, options),
        opts.sketch ? checker.sketch(text) : undefined,
      ]);
      if (text === current) opts.onResult({ text, report, sketch, ms: Math.round(performance.now() - t0) });
    } catch (err) {
      if (text === current) {
        if (err?.code === "empty_text") onEmpty(text);
        else onError(err, text);
      }
    } finally {
      running = false;
    }
    pump();
  }

  return {
    /** Resolves to the WorkerChecker once its packs are loaded (rejects if they cannot be). */
    ready,
    /** The text changed: check it after a pause in typing. */
    schedule(text) {
      current = text;
      clearTimeout(timer);
      timer = setTimeout(() => {
        wanted = text;
        pump();
      }, debounce);
    },
    /** Check now (a button, a restored draft, the sample). */
    now(text) {
      current = text;
      clearTimeout(timer);
      wanted = text;
      pump();
    },
    /** Forget pending work (the host is going away); the checker itself is the owner's to stop. */
    cancel() {
      clearTimeout(timer);
      wanted = null;
      current = null;
    },
  };
}
