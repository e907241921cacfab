// The Web Worker side of createWorkerChecker: owns one Checker, answers requests by id.
import { loadChecker } from "./index.js";

let checker;

const methods = {
  async load(manifestUrl, options, id) {
    checker?.free();
    checker = await loadChecker(manifestUrl, {
      ...options,
      onProgress: (progress) => self.postMessage({ id, progress }),
    });
    return { documentCount: checker.documentCount, manifest: checker.manifest, params: checker.params };
  },
  check: (text, options) => need().check(text, options),
  compare: (a, b, options) => need().compare(a, b, options),
  sketch: (text, options) => need().sketch(text, options),
  documentCount: () => need().documentCount,
};

function need() {
  if (!checker) throw new Error("uniqcheck: the worker has no checker yet (load() first)");
  return checker;
}

self.onmessage = async ({ data }) => {
  const { id, method, args } = data ?? {};
  try {
    const fn = methods[method];
    if (!fn) throw new Error(`uniqcheck: unknown worker method ${JSON.stringify(method)}`);
    const result = await fn(...(args ?? []), id);
    self.postMessage({ id, result });
  } catch (err) {
    // Errors do not survive postMessage as themselves: send what the page needs, the code above all.
    self.postMessage({
      id,
      error: { message: String(err?.message ?? err), name: err?.name ?? "Error", code: err?.code, status: err?.status },
    });
  }
};
