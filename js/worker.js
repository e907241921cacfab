// The Web Worker side of createWorkerChecker: owns one PackChecker, answers requests by id.
// A check may wait for downloads; other requests are answered meanwhile (each answer names its
// request), and the engine keeps every file fetched for the next check.
import { initialize, loadChecker, parseExclusions } from "./index.js";

let checker;

/**
 * The cache the page's service worker (www/sw.js) keeps pack files in: when this origin has it,
 * pack files are read from it first, and the service worker lets pack requests pass, so a check's
 * hundreds of requests never wait for it. Another origin has no such cache, and nothing changes.
 */
const PACK_CACHE = "uniqcheck-packs";

/** What the page keeps of the checker between calls. */
const info = () => ({
  documentCount: checker.documentCount,
  manifest: checker.manifest,
  params: checker.params,
  loadedBytes: checker.loadedBytes,
  fetched: checker.fetched,
});

/** Posts a call's progress, when its caller listens (`listens`), else nothing. */
const progress = (id, listens) => (listens ? (p) => self.postMessage({ id, progress: p }) : undefined);

const methods = {
  async load([manifestUrl, options], id, listens) {
    checker?.free();
    checker = undefined;
    checker = await loadChecker(manifestUrl, {
      packCache: PACK_CACHE,
      ...options,
      onProgress: progress(id, listens),
      onFetch: (urls) => self.postMessage({ fetched: urls }),
    });
    return info();
  },
  async check([text, options], id, listens) {
    const report = await need().check(text, options, { onProgress: progress(id, listens) });
    return { report, info: info() };
  },
  async downloadAll(_, id, listens) {
    const got = await need().downloadAll({ onProgress: progress(id, listens) });
    return { got, info: info() };
  },
  needed: ([text, options]) => need().needed(text, options),
  compare: ([a, b, options]) => need().compare(a, b, options),
  sketch: ([text, options]) => need().sketch(text, options),
  // The engine's rule, needing no packs (only the module, which load() initializes too).
  async parseExclusions([text]) {
    await initialize();
    return parseExclusions(text);
  },
  documentCount: () => need().documentCount,
};

function need() {
  if (!checker) throw new Error("uniqcheck: the worker has no checker yet (load() first)");
  return checker;
}

self.onmessage = async ({ data }) => {
  // `progress`: whether the caller listens to this call's progress (an older client sends
  // nothing, and gets it).
  const { id, method, args, progress: listens = true } = data ?? {};
  try {
    const fn = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!fn) throw new Error(`uniqcheck: unknown worker method ${JSON.stringify(method)}`);
    const result = await fn(args ?? [], id, listens !== false);
    self.postMessage({ id, result });
  } catch (err) {
    // Errors do not survive postMessage as themselves: send what the page needs, the code above all.
    self.postMessage({
      id,
      error: { message: String(err?.message ?? err), name: err?.name ?? "Error", code: err?.code, status: err?.status },
    });
  }
};
