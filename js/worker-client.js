// createWorkerChecker: the same checks, run in a Web Worker so the page never blocks.

import { codedError } from "./loader.js";

/**
 * Starts a worker, loads the manifest's packs in it, and returns a checker whose methods return
 * promises. Requests are answered in order; errors reject with the engine's code and message.
 */
export async function createWorkerChecker(manifestUrl, options = {}) {
  const { onProgress, workerUrl, ...loadOptions } = options;
  const worker = new Worker(workerUrl ?? new URL("./worker.js", import.meta.url), { type: "module" });
  let next = 0;
  const pending = new Map();
  worker.onmessage = ({ data }) => {
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
      worker.postMessage({ id, method, args });
    });
  const href = new URL(String(manifestUrl), globalThis.location?.href).href;
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
    params: info.params,
    check: (text, opts) => call("check", [text, opts]),
    compare: (a, b, opts) => call("compare", [a, b, opts]),
    sketch: (text, opts) => call("sketch", [text, opts]),
    /** Reloads the packs (e.g. after the manifest changed); resolves to the new document count. */
    reload: async (url = href, progress) => {
      info = await call("load", [url, loadOptions], progress);
      return info.documentCount;
    },
    terminate: () => worker.terminate(),
  };
}
