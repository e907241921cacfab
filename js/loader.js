// loadChecker: fetch a manifest and its shards, and fill a Checker with them.
//
// Shared by the browser and Node entry points, which pass in their own wasm bindings and byte
// fetcher. Shards are content-hashed and immutable, so they are fetched with the HTTP cache's
// blessing ("force-cache"); the manifest is revalidated every time ("no-cache", an ETag makes that a
// 304). Shards download in parallel but are added in manifest order, so every runtime builds the
// same corpus and gives the same answer.

/**
 * An Error with a stable `code` (one of the engine's `ErrorCode`s; none when `code` is null) for
 * the package's own failures (network, HTTP, worker), and the HTTP `status` where there is one.
 * The engine's errors come with their codes already.
 */
export function codedError(code, message, { cause, status } = {}) {
  const err = new Error(message, cause === undefined ? undefined : { cause });
  if (code != null) err.code = code;
  if (status !== undefined) err.status = status;
  return err;
}

/** `err` with `context` before its message, keeping its code and status (`err` is the cause). */
function withContext(err, context) {
  return codedError(err?.code, `${context}: ${err?.message ?? err}`, { cause: err, status: err?.status });
}

/** @param {{ Checker: typeof import("./web/uniqcheck.js").Checker }} wasm */
export function makeLoadChecker(wasm, fetchBytes, fetchJson) {
  return async function loadChecker(manifestUrl, options = {}) {
    const { onProgress, signal } = options;
    const manifestHref = String(manifestUrl);
    const json = await fetchJson(manifestHref, signal);
    let checker;
    try {
      // The engine reads the manifest and refuses packs it cannot use, before any download.
      checker = wasm.Checker.fromManifest(json, options.checker);
    } catch (err) {
      throw withContext(err, `uniqcheck: the packs at ${manifestHref} cannot be used`);
    }
    const { shards } = checker.manifest;
    const progress = {
      loaded: 0,
      total: shards.reduce((sum, s) => sum + s.bytes, 0),
      shards: shards.length,
      shardsLoaded: 0,
    };
    onProgress?.({ ...progress });
    let bytes;
    try {
      bytes = await Promise.all(
        shards.map(async (shard) => {
          const url = resolve(shard.name, manifestHref);
          const data = await fetchBytes(url, signal, (delta) => {
            progress.loaded += delta;
            onProgress?.({ ...progress });
          });
          progress.shardsLoaded += 1;
          onProgress?.({ ...progress });
          return { url, data };
        }),
      );
    } catch (err) {
      checker.free();
      throw err;
    }
    for (const { url, data } of bytes) {
      try {
        checker.addPack(data);
      } catch (err) {
        checker.free();
        throw withContext(err, `uniqcheck: the pack ${url} cannot be used`);
      }
    }
    return checker;
  };
}

/** Resolves a shard name (checked by the engine) against the manifest's URL (or file path). */
export function resolve(name, manifestHref) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(manifestHref)) return new URL(name, manifestHref).href;
  const slash = Math.max(manifestHref.lastIndexOf("/"), manifestHref.lastIndexOf("\\"));
  return manifestHref.slice(0, slash + 1) + name;
}

/** fetch() failing with coded errors: `fetch_failed` (unreachable), `http_status` (not 2xx). */
async function fetchOk(url, init, what) {
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    // Browsers say only "Failed to fetch" for both a dead server and a CORS refusal: name both.
    throw codedError(
      "fetch_failed",
      `uniqcheck: cannot reach ${url} (${err.message}): the server is down, or it is on another origin that does not allow this one (uniqcheck serve --cors ORIGIN)`,
      { cause: err },
    );
  }
  if (!res.ok) throw codedError("http_status", `uniqcheck: cannot load ${what}${url}: HTTP ${res.status}`, { status: res.status });
  return res;
}

/** fetch() with progress, for browsers and Node 18+. */
export async function fetchBytesHttp(url, signal, onChunk, cache = "force-cache") {
  const res = await fetchOk(url, { signal, cache }, "");
  if (!res.body) {
    const buf = new Uint8Array(await res.arrayBuffer());
    onChunk(buf.length);
    return buf;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    onChunk(value.length);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export async function fetchJsonHttp(url, signal) {
  const res = await fetchOk(url, { signal, cache: "no-cache" }, "the manifest ");
  return parseManifest(await res.text(), url);
}

/** The manifest's JSON text parsed (its shape is the engine's to check). */
export function parseManifest(text, url) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw codedError("manifest_invalid", `uniqcheck: ${url} is not a uniqcheck pack manifest (not JSON)`, { cause: err });
  }
}
