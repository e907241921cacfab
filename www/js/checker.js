// Runs checks in the package's Web Worker, so the page never freezes: one check at a time, started
// ~400 ms after the last keystroke; when the text changes while a check runs, its answer is
// discarded and the newest text is checked next (never a queue of outdated texts).

import { createWorkerChecker } from "/pkg/worker-client.js";

export const DEBOUNCE_MS = 400;

/**
 * @param {{ manifestUrl: string, onProgress: (p: {loaded: number, total: number}) => void,
 *           onResult: (r: { text: string, report: any, sketch: any, ms: number }) => void,
 *           onEmpty: (text: string) => void, onError: (err: Error, text: string) => void,
 *           onStart: (text: string) => void }} opts
 */
export function createCheckRunner(opts) {
  let checker = null;
  let timer = 0;
  let running = false;
  let wanted = null; // the text to check next (null: nothing pending)
  let current = ""; // the editor's latest text: answers for anything else are stale

  const ready = createWorkerChecker(opts.manifestUrl, { onProgress: opts.onProgress }).then((c) => {
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
      opts.onEmpty(text);
      return pump();
    }
    running = true;
    opts.onStart(text);
    const t0 = performance.now();
    try {
      // The worker answers in order; both belong to the same text.
      const [report, sketch] = await Promise.all([checker.check(text), checker.sketch(text)]);
      if (text === current) opts.onResult({ text, report, sketch, ms: Math.round(performance.now() - t0) });
    } catch (err) {
      if (text === current) {
        if (/empty|no words/i.test(err.message)) opts.onEmpty(text);
        else opts.onError(err, text);
      }
    } finally {
      running = false;
    }
    pump();
  }

  return {
    ready,
    /** The text changed: check it after a pause in typing. */
    schedule(text) {
      current = text;
      clearTimeout(timer);
      timer = setTimeout(() => {
        wanted = text;
        pump();
      }, DEBOUNCE_MS);
    },
    /** Check now (a restored draft, the sample). */
    now(text) {
      current = text;
      clearTimeout(timer);
      wanted = text;
      pump();
    },
  };
}
