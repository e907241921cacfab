// The package's entry point in browsers and bundlers (wasm-pack's `web` target).
import init, { Checker, readManifest, parseExclusions, version, packFormatVersion, canonicalizerVersion } from "./web/uniqcheck.js";
import { makeLoadChecker, fetchBytesHttp, fetchJsonHttp } from "./loader.js";
import { moduleUrl } from "./module-url.js";

export { Checker, readManifest, parseExclusions, version, packFormatVersion, canonicalizerVersion, moduleUrl };

let ready;

/**
 * Loads and instantiates the WebAssembly module (once; later calls share the first). By default the
 * module `moduleUrl()` names is fetched; pass a URL, a Response, bytes or a WebAssembly.Module to
 * load it from elsewhere.
 */
export function initialize(moduleOrPath) {
  ready ??= init({ module_or_path: moduleOrPath ?? moduleUrl() });
  return ready.then(() => undefined);
}

const load = makeLoadChecker({ Checker, readManifest }, fetchBytesHttp, fetchJsonHttp);

/**
 * Fetches a pack manifest and its page table and returns a checker that fetches the rest as checks
 * need it (`check` is async); `downloadAll()` fetches everything for offline use.
 */
export async function loadChecker(manifestUrl, options = {}) {
  await initialize(options.wasm);
  const href = new URL(String(manifestUrl), globalThis.location?.href).href;
  return load(href, options);
}
