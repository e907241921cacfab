// loadChecker: fetch a manifest and its shards, and fill a Checker with them.
//
// Shared by the browser and Node entry points, which pass in their own wasm bindings and byte
// fetcher. Shards are content-hashed and immutable, so they are fetched with the HTTP cache's
// blessing ("force-cache"); the manifest is revalidated every time ("no-cache", an ETag makes that a
// 304). Shards download in parallel but are added in manifest order, so every runtime builds the
// same corpus and gives the same answer.

/** @param {{ Checker: any, packFormatVersion: () => number, canonicalizerVersion: () => number }} wasm */
export function makeLoadChecker(wasm, fetchBytes, fetchJson) {
  return async function loadChecker(manifestUrl, options = {}) {
    const { onProgress, signal } = options;
    const manifestHref = String(manifestUrl);
    const manifest = await fetchJson(manifestHref, signal);
    checkManifest(manifest, manifestHref, wasm);
    const p = manifest.params;
    const checker = new wasm.Checker({
      n: p.n,
      w: p.w,
      k: p.k,
      stopWords: p.stop_words,
      stemming: p.stemming,
      ...(options.checker ?? {}),
    });
    const shards = manifest.shards ?? [];
    const progress = {
      loaded: 0,
      total: shards.reduce((sum, s) => sum + (s.bytes ?? 0), 0),
      shards: shards.length,
      shardsLoaded: 0,
    };
    onProgress?.({ ...progress });
    const bytes = await Promise.all(
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
    for (const { url, data } of bytes) {
      try {
        checker.addPack(data);
      } catch (err) {
        checker.free?.();
        throw new Error(`uniqcheck: the pack ${url} cannot be used: ${err.message}`, { cause: err });
      }
    }
    Object.defineProperty(checker, "manifest", { value: manifest, enumerable: true });
    return checker;
  };
}

/** Resolves a shard name against the manifest's URL (or file path). */
export function resolve(name, manifestHref) {
  if (!/^[0-9a-f]{16}\.uqp$/.test(name)) {
    throw new Error(`uniqcheck: the manifest names an invalid shard ${JSON.stringify(name)}`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(manifestHref)) return new URL(name, manifestHref).href;
  const slash = Math.max(manifestHref.lastIndexOf("/"), manifestHref.lastIndexOf("\\"));
  return manifestHref.slice(0, slash + 1) + name;
}

function checkManifest(manifest, href, wasm) {
  if (!manifest || typeof manifest !== "object" || !manifest.params || !Array.isArray(manifest.shards)) {
    throw new Error(`uniqcheck: ${href} is not a uniqcheck pack manifest`);
  }
  const ours = wasm.packFormatVersion();
  if (manifest.format_version !== ours) {
    const fix =
      manifest.format_version > ours
        ? "upgrade the uniqcheck package to one that reads it"
        : "rebuild the packs with this version (`uniqcheck pack`, or restart `uniqcheck serve`)";
    throw new Error(
      `uniqcheck: the packs at ${href} are format v${manifest.format_version}, this package reads v${ours}: ${fix}`,
    );
  }
  const canon = wasm.canonicalizerVersion();
  if (manifest.canonicalizer !== undefined && manifest.canonicalizer !== canon) {
    throw new Error(
      `uniqcheck: the packs at ${href} were built with canonicalizer v${manifest.canonicalizer}, this package has v${canon}: rebuild the packs with this version`,
    );
  }
}

/** fetch() with progress, for browsers and Node 18+. */
export async function fetchBytesHttp(url, signal, onChunk, cache = "force-cache") {
  const res = await fetch(url, { signal, cache });
  if (!res.ok) throw new Error(`uniqcheck: cannot load ${url}: HTTP ${res.status}`);
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
  let res;
  try {
    res = await fetch(url, { signal, cache: "no-cache" });
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    // Browsers say only "Failed to fetch" for both a dead server and a CORS refusal: name both.
    throw new Error(
      `uniqcheck: cannot reach ${url} (${err.message}): the server is down, or it is on another origin that does not allow this one (uniqcheck serve --cors ORIGIN)`,
      { cause: err },
    );
  }
  if (!res.ok) throw new Error(`uniqcheck: cannot load the manifest ${url}: HTTP ${res.status}`);
  try {
    return await res.json();
  } catch (err) {
    throw new Error(`uniqcheck: ${url} is not a uniqcheck pack manifest (not JSON)`, { cause: err });
  }
}
