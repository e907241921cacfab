// loadChecker: open the packs a manifest describes, and fetch the rest on demand.
//
// Shared by the browser and Node entry points, which pass in their own wasm bindings and byte
// fetcher. Version-6 packs (docs/FORMAT.md): `manifest.json` is the only file that changes and is
// revalidated every time ("no-cache", an ETag makes that a 304); every other file is named by its
// content (the table, the record list; index pages by their generation, a hash of all of them) or
// is never rewritten, so it is fetched with the HTTP cache's blessing ("force-cache").
// A check asks the engine which files it still needs (index pages, then records),
// fetches them in parallel, hands them over, and asks again until nothing is missing, then checks: the engine keeps what it was given, so a re-check while
// typing fetches only what is new. The engine decides every name fetched; nothing here builds one.

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
  if (err?.name === "AbortError") return err;
  return codedError(err?.code, `${context}: ${err?.message ?? err}`, { cause: err, status: err?.status });
}

/** Downloads at once: enough to fill a connection, few enough to stay polite to a static host. */
const PARALLEL = 8;
/** The engine's codes for a file whose bytes are not what its name promises (worth one refetch). */
const DAMAGED = new Set(["pack_checksum", "pack_truncated", "pack_corrupt"]);
/**
 * `needed` → fetch → add rounds before a check gives up: the engine needs two on a first check
 * (pages, records) and says when it needs nothing; the bound only stops a loop that
 * a misbehaving host could otherwise keep going.
 */
const ROUNDS = 6;
/**
 * The manifest's address as a string, or an `invalid_argument` error in the caller's words: a
 * missing or mistyped argument would otherwise be read as the path "undefined" or "42".
 * `fn` names the function called.
 */
export function manifestArgument(manifestUrl, fn) {
  const ok = (typeof manifestUrl === "string" && manifestUrl.trim() !== "") || manifestUrl instanceof URL;
  if (!ok) {
    const got = manifestUrl === undefined ? "nothing" : typeof manifestUrl === "string" ? "an empty string" : `${typeof manifestUrl} ${String(manifestUrl).slice(0, 40)}`;
    throw codedError(
      "invalid_argument",
      `uniqcheck: ${fn}(manifestUrl) needs the URL or path of a pack manifest (the manifest.json that \`uniqcheck pack\` writes), got ${got}`,
    );
  }
  return String(manifestUrl);
}

/**
 * @param {{ Checker: typeof import("./web/uniqcheck.js").Checker,
 *           readManifest: typeof import("./web/uniqcheck.js").readManifest }} wasm
 */
export function makeLoadChecker(wasm, fetchBytes, fetchJson) {
  return async function loadChecker(manifestUrl, options = {}) {
    const manifestHref = manifestArgument(manifestUrl, "loadChecker");
    if (options === null || typeof options !== "object") {
      throw codedError("invalid_argument", `uniqcheck: loadChecker(manifestUrl, options) takes options as an object, got ${options === null ? "null" : typeof options}`);
    }
    const { onProgress, onFetch, signal } = options;
    const json = await fetchJson(manifestHref, signal);
    let manifest;
    try {
      // The engine reads the manifest and refuses packs it cannot use before anything else is
      // downloaded; the table's name it returns is a pack file's, never a path elsewhere.
      manifest = wasm.readManifest(json);
    } catch (err) {
      throw withContext(err, `uniqcheck: the packs at ${manifestHref} cannot be used`);
    }
    const fetcher = new Fetcher(fetchBytes, manifestHref, onFetch, options.packCache);
    const [table] = await fetcher.fetchAll([manifest.table.name], { onProgress, signal, total: manifest.table.bytes });
    let engine;
    try {
      engine = wasm.Checker.open(json, table.bytes, options.checker);
    } catch (err) {
      throw withContext(err, `uniqcheck: the packs at ${manifestHref} cannot be used`);
    }
    return new PackChecker(engine, fetcher, manifestHref);
  };
}

/**
 * Fetches pack files relative to the manifest, in parallel, counting what it fetched. With
 * `packCache` (the name of a CacheStorage cache a service worker fills, as the page's does), a
 * file found there is read from it instead: pack files never change under their names.
 */
class Fetcher {
  constructor(fetchBytes, manifestHref, onFetch, packCache) {
    this.fetchBytes = fetchBytes;
    this.manifestHref = manifestHref;
    this.onFetch = onFetch;
    this.cacheName = typeof packCache === "string" && typeof globalThis.caches?.has === "function" ? packCache : null;
    this.cache = null;
    this.files = 0;
    this.bytes = 0;
    /** Downloads under way, by name: two checks at once share them. */
    this.inFlight = new Map();
  }

  url(name) {
    return resolve(name, this.manifestHref);
  }

  /** The named cache when this origin has it (never created here: `caches.open` would), else null. */
  async openCache() {
    if (!this.cacheName) return null;
    // Asked again at each call while there is none: the service worker may create it meanwhile.
    this.cache ??= caches
      .has(this.cacheName)
      .then((has) => (has ? caches.open(this.cacheName) : null))
      .catch(() => null);
    const cache = await this.cache;
    if (!cache) this.cache = null;
    return cache;
  }

  /**
   * A file's bytes: from the cache when it holds them, else fetched. `fresh` (after the engine
   * refused a copy) drops any cached copy and asks the server itself, past the HTTP cache.
   */
  async read(cache, url, signal, onChunk, fresh = false) {
    if (fresh) {
      await cache?.delete(url).catch(() => false);
      return this.fetchBytes(url, signal, onChunk, "reload");
    }
    const hit = cache ? await cache.match(url).catch(() => undefined) : undefined;
    if (hit?.ok) {
      const bytes = new Uint8Array(await hit.arrayBuffer());
      onChunk(bytes.length);
      return bytes;
    }
    return this.fetchBytes(url, signal, onChunk);
  }

  /**
   * Fetches `names` (at most PARALLEL at a time); resolves to `[{ name, url, bytes }]` in their
   * order. `handle(file)` runs as each arrives (the checker adds it then). Progress counts bytes
   * and files of this call, bytes from `loaded` (what earlier calls of one download brought);
   * `total` is the bytes expected when known (else 0).
   */
  async fetchAll(names, { onProgress, signal, total = 0, loaded = 0, handle, fetched } = {}) {
    const progress = { loaded, total, files: names.length, filesLoaded: 0 };
    onProgress?.({ ...progress });
    const out = new Array(names.length);
    const cache = await this.openCache();
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const i = next++;
        const name = names[i];
        let pending = this.inFlight.get(name);
        if (!pending) {
          const url = this.url(name);
          pending = this.read(cache, url, signal, (delta) => {
            progress.loaded += delta;
            onProgress?.({ ...progress });
          }).then((bytes) => {
            this.files += 1;
            this.bytes += bytes.length;
            return { name, url, bytes };
          });
          this.inFlight.set(name, pending);
          pending.then(
            () => this.inFlight.delete(name),
            () => this.inFlight.delete(name),
          );
        }
        let file = await pending;
        try {
          handle?.(file);
        } catch (err) {
          // A damaged or stale copy (a cache, a proxy or a disk kept bad bytes under an immutable
          // name) would otherwise be refused forever: fetch it once more from the server itself.
          if (!DAMAGED.has(err?.code)) throw err;
          const bytes = await this.read(cache, file.url, signal, () => {}, true);
          this.files += 1;
          this.bytes += bytes.length;
          file = { name, url: file.url, bytes };
          handle(file);
        }
        progress.filesLoaded += 1;
        onProgress?.({ ...progress });
        out[i] = file;
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(PARALLEL, names.length) }, worker));
    } finally {
      // Whatever arrived, even if another file failed: a service worker may keep it. A caller
      // that passes `fetched` collects the URLs to report them itself, later.
      const urls = out.filter(Boolean).map((f) => f.url);
      if (fetched) fetched.push(...urls);
      else this.report(urls);
    }
    return out;
  }

  /** Tells `onFetch` (the page, which hands them to its service worker) which files arrived. */
  report(urls) {
    if (urls.length) this.onFetch?.(urls);
  }
}

/**
 * A checker over format-4 packs: the engine's `Checker` (`engine`) with the fetching done for
 * it. `check` is async: it fetches what the draft needs first.
 */
class PackChecker {
  constructor(engine, fetcher, manifestUrl) {
    this.engine = engine;
    this.manifestUrl = manifestUrl;
    this._fetcher = fetcher;
  }

  get manifest() {
    return this.engine.manifest;
  }

  get params() {
    return this.engine.params;
  }

  get documentCount() {
    return this.engine.documentCount;
  }

  /** Bytes of index pages and records the engine holds. */
  get loadedBytes() {
    return this.engine.loadedBytes;
  }

  /** Files and bytes fetched so far, the page table included. */
  get fetched() {
    return { files: this._fetcher.files, bytes: this._fetcher.bytes };
  }

  /** The pack files (paths relative to the manifest) a check of `text` still needs; [] = none. */
  needed(text, options) {
    return this.engine.needed(text, options);
  }

  /**
   * Fetches what a check of `text` needs (nothing when it has it), then checks it, aligning at
   * most 50 candidates (the engine's bound for packs) unless `options.maxCandidates` says otherwise. The files
   * fetched are reported to `onFetch` once, after the check: a service worker copying them into
   * its cache then no longer competes with the check's own downloads and alignment.
   */
  async check(text, options, { onProgress, signal } = {}) {
    const fetched = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const names = this.engine.needed(text, options);
        if (!names.length) break;
        await this._fetcher.fetchAll(names, { onProgress, signal, handle: (file) => this._add(file), fetched });
      }
      // Throws `pack_missing` if the engine still lacks a file (it never should after two rounds).
      return this.engine.check(text, options);
    } finally {
      this._fetcher.report(fetched);
    }
  }

  /**
   * Downloads every index page and record not held yet (for offline use: afterwards
   * no check fetches anything). Resolves to what this call fetched.
   */
  async downloadAll({ onProgress, signal } = {}) {
    const before = this.fetched;
    const m = this.manifest;
    const [list] = await this._fetcher.fetchAll([m.records.name], { signal });
    let records;
    try {
      records = this.engine.recordsToFetch(list.bytes);
    } catch (err) {
      throw withContext(err, `uniqcheck: the pack file ${list.url} cannot be used`);
    }
    // Bytes still to come: the manifest gives the totals, the engine holds the rest already.
    const total = Math.max(0, m.index_bytes + m.record_bytes - this.engine.loadedBytes);
    // The engine names every page it lacks from the table: pages and records in one round (a
    // second only if a file was refused and is still missing).
    let names = [...this.engine.allPages(), ...records];
    let loaded = 0;
    for (let round = 0; names.length; round++) {
      if (round === ROUNDS) {
        throw codedError("pack_missing", `uniqcheck: the packs at ${this.manifestUrl} still lack ${names[0]} after ${ROUNDS} rounds`);
      }
      const files = await this._fetcher.fetchAll(names, { onProgress, signal, total, loaded, handle: (f) => this._add(f) });
      loaded += files.reduce((sum, f) => sum + f.bytes.length, 0);
      names = this.engine.allPages();
    }
    const after = this.fetched;
    return { files: after.files - before.files, bytes: after.bytes - before.bytes };
  }

  compare(a, b, options) {
    return this.engine.compare(a, b, options);
  }

  sketch(text, options) {
    return this.engine.sketch(text, options);
  }

  free() {
    this.engine.free();
  }

  _add({ name, url, bytes }) {
    try {
      this.engine.add(name, bytes);
    } catch (err) {
      throw withContext(err, `uniqcheck: the pack file ${url} cannot be used`);
    }
  }
}

/** Resolves a pack file's path (given by the engine) against the manifest's URL (or file path). */
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
