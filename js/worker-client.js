// createWorkerChecker: the same checks, run in a Web Worker so the page never blocks.

import { codedError, manifestArgument } from "./loader.js";

/**
 * Starts a worker, opens the manifest's packs in it, and returns a checker whose methods return
 * promises. A check fetches what it needs in the worker; errors reject with the engine's code
 * and message.
 */
export async function createWorkerChecker(manifestUrl, options = {}) {
  // Before a worker is started: a wrong argument is the caller's, said in its words.
  const manifestHref = manifestArgument(manifestUrl, "createWorkerChecker");
  const { onProgress, onFetch, workerUrl, ...loadOptions } = options;
  const worker = new Worker(workerUrl ?? new URL("./worker.js", import.meta.url), { type: "module" });
  let next = 0;
  const pending = new Map();
  worker.onmessage = ({ data }) => {
    if (data?.fetched) return onFetch?.(data.fetched);
    const p = pending.get(data.id);
    if (!p) return;
    if (data.progress) return p.onProgress?.(data.progress);
    pending.delete(data.id);
    if (data.error) {
      const { message, name, code, status } = data.error;
      const err = codedError(code, message, { status });
      err.name = name;
      p.reject(err);
    } else {
      p.resolve(data.result);
    }
  };
  worker.onerror = (event) => {
    const err = codedError("worker_failed", `uniqcheck: the worker failed: ${event.message ?? "unknown error"}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const call = (method, args, progress) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject, onProgress: progress });
      // Progress only when someone listens: a check's hundreds of files would otherwise post
      // twice as many messages that nobody reads.
      worker.postMessage({ id, method, args, progress: typeof progress === "function" });
    });
  const href = new URL(manifestHref, globalThis.location?.href).href;
  let info;
  try {
    info = await call("load", [href, loadOptions], onProgress);
  } catch (err) {
    worker.terminate();
    throw err;
  }
  return {
    get documentCount() {
      return info.documentCount;
    },
    get manifest() {
      return info.manifest;
    },
    get params() {
      return info.params;
    },
    get loadedBytes() {
      return info.loadedBytes;
    },
    get fetched() {
      return info.fetched;
    },
    manifestUrl: href,
    check: async (text, opts, { onProgress: progress } = {}) => {
      const answer = await call("check", [text, opts], progress);
      info = answer.info;
      return answer.report;
    },
    needed: (text, opts) => call("needed", [text, opts]),
    downloadAll: async ({ onProgress: progress } = {}) => {
      const answer = await call("downloadAll", [], progress);
      info = answer.info;
      return answer.got;
    },
    compare: (a, b, opts) => call("compare", [a, b, opts]),
    sketch: (text, opts) => call("sketch", [text, opts]),
    parseExclusions: (text) => call("parseExclusions", [text]),
    /** Opens the packs again (e.g. after the manifest changed); resolves to the new document count. */
    reload: async (url = href, progress) => {
      info = await call("load", [url, loadOptions], progress);
      return info.documentCount;
    },
    terminate: () => worker.terminate(),
  };
}
