// The package's entry point in Node (ES modules): wasm-pack's `nodejs` target, loaded synchronously.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { makeLoadChecker, fetchBytesHttp, fetchJsonHttp, parseManifest } from "./loader.js";

const wasm = createRequire(import.meta.url)("./node/uniqcheck.js");
export const { Checker, readManifest, parseExclusions, version, packFormatVersion, canonicalizerVersion } = wasm;

/** Nothing to do in Node (the module is instantiated on import); kept for the same API everywhere. */
export async function initialize() {}

/** The Node build's module (Node has WebAssembly SIMD). */
export function moduleUrl() {
  return new URL("./node/uniqcheck_bg.wasm", import.meta.url).href;
}

const isHttp = (href) => /^https?:/i.test(href);
const toPath = (href) => (href.startsWith("file:") ? fileURLToPath(href) : href);

async function fetchBytes(href, signal, onChunk, cache = "default") {
  if (isHttp(href)) return fetchBytesHttp(href, signal, onChunk, cache);
  const buf = new Uint8Array(await readFile(toPath(href), { signal }));
  onChunk(buf.length);
  return buf;
}

async function fetchJson(href, signal) {
  if (isHttp(href)) return fetchJsonHttp(href, signal);
  return parseManifest(await readFile(toPath(href), { encoding: "utf8", signal }), href);
}

const load = makeLoadChecker(wasm, fetchBytes, fetchJson);

/**
 * Opens the packs of a manifest and returns a checker that reads (or fetches) the files each check
 * needs. `manifestUrl` is an http(s) URL, a file: URL, or a file path (a pack directory written by
 * `uniqcheck pack -o DIR`).
 */
export function loadChecker(manifestUrl, options = {}) {
  return load(manifestUrl instanceof URL ? manifestUrl.href : manifestUrl, options);
}
