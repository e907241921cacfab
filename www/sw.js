// The service worker that makes the page work offline once it has been opened online.
//
// - pack files (docs/FORMAT.md, version 2) next to the manifest: the page table `<hex>.uqt`, the
//   record list `<hex>.uqa`, index pages `i/<hex>.uqi` and records `r/<hex>/<hex>.uqr` never
//   change under their names: cache-first, kept in their own cache (`uniqcheck-packs`) that
//   survives updates of this worker, so files fetched by one check serve every later check and
//   reload, online or not;
// - the manifest: network-first (a new corpus shows up at once), the cached copy when offline;
// - the package (/pkg/: glue JS and .wasm): stale-while-revalidate (instant start, updated next time);
// - the page itself: network-first with the cached copy offline, so a page update is never late.
//
// The page tells this worker which manifest it uses (`sw.js?manifest=/packs/manifest.json`).
// Checks fetch pack files from the page's Web Worker; when that worker is not controlled (the
// very first visit), the page hands the URLs it fetched over ("keep" messages) and they are
// cached from the HTTP cache. "Download everything" fetches every file the same way.
//
// Pruning: each cached pack file is tagged with the generation (page table and record list
// names) it was last used in; when the manifest names a new generation, files used in neither it
// nor the one before are deleted (old index pages, records of deleted or changed documents).

const VERSION = "v4";
const CACHE = `uniqcheck-${VERSION}`;
const PACKS_CACHE = "uniqcheck-packs";
const TAG = "x-uniqcheck-generation";

const PAGE = [
  "/",
  "/style.css",
  "/app.js",
  "/favicon.svg",
  "/js/i18n.js",
  "/js/editor.js",
  "/js/counters.js",
  "/js/export.js",
  "/js/sample.js",
  "/js/history.js",
  "/js/exclusions.js",
];
const PKG = [
  "/pkg/worker-client.js",
  "/pkg/ui/i18n.js",
  "/pkg/ui/report.js",
  "/pkg/ui/report.css",
  "/pkg/ui/runner.js",
  "/pkg/ui/tip.js",
  "/pkg/worker.js",
  "/pkg/index.js",
  "/pkg/loader.js",
  "/pkg/web/uniqcheck.js",
  "/pkg/web/uniqcheck_bg.wasm",
];

/** The manifest's path on this origin (the page's choice), and the folder of its pack files. */
const MANIFEST = (() => {
  const asked = new URL(self.location.href).searchParams.get("manifest");
  try {
    const url = new URL(asked ?? "/packs/manifest.json", self.location.origin);
    if (url.origin === self.location.origin) return url.pathname;
  } catch {
    // Not a URL: the default.
  }
  return "/packs/manifest.json";
})();
const BASE = MANIFEST.slice(0, MANIFEST.lastIndexOf("/") + 1);
const GENERATIONS = `${BASE}.uniqcheck-generations`;
const PACK_FILE = /^(?:[0-9a-f]{16}\.uq[ta]|i\/[0-9a-f]{16}\.uqi|r\/[0-9a-f]{1,16}\/[0-9a-f]{1,16}\.uqr)$/;

/** Whether `path` (of this origin) is an immutable pack file of the page's packs. */
const isPackFile = (path) => path.startsWith(BASE) && PACK_FILE.test(path.slice(BASE.length));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...PAGE, ...PKG]);
      await cacheManifestAndTable();
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("uniqcheck-") && name !== CACHE && name !== PACKS_CACHE) await caches.delete(name);
      }
      // Take over the page that registered us, so its next fetches are cached too.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (isPackFile(url.pathname)) return event.respondWith(packFile(event, url));
  if (url.pathname === MANIFEST) return event.respondWith(manifestNetworkFirst(event, req));
  if (url.pathname.startsWith("/pkg/")) return event.respondWith(staleWhileRevalidate(event, req));
  event.respondWith(networkFirst(req));
});

self.addEventListener("message", (event) => {
  const { type, urls } = event.data ?? {};
  if (type === "keep" && Array.isArray(urls)) event.waitUntil(keep(urls));
});

/** Cache-first for a pack file; a hit is tagged with the current generation. */
async function packFile(event, url) {
  const cache = await caches.open(PACKS_CACHE);
  const { current } = await generations();
  const hit = await cache.match(url.href, { ignoreSearch: true });
  if (hit) {
    if (current && hit.headers.get(TAG) !== current) event.waitUntil(tagged(cache, url, hit.clone(), current));
    return hit;
  }
  // Immutable: the browser's HTTP cache may answer too.
  const res = await fetch(url.href, { cache: "force-cache" });
  if (res.ok) event.waitUntil(tagged(cache, url, res.clone(), current));
  return res;
}

/** Stores `res` for `url` with the generation tag. */
async function tagged(cache, url, res, generation) {
  const headers = new Headers(res.headers);
  headers.set(TAG, generation ?? "");
  headers.delete("vary");
  const body = await res.arrayBuffer();
  await cache.put(url.href, new Response(body, { status: 200, statusText: "OK", headers }));
}

/** Caches pack files the page fetched without going through this worker. */
async function keep(urls) {
  const cache = await caches.open(PACKS_CACHE);
  const { current } = await generations();
  const queue = [...new Set(urls)];
  const one = async () => {
    while (queue.length) {
      let url;
      try {
        url = new URL(queue.pop(), self.location.origin);
      } catch {
        continue;
      }
      if (url.origin !== self.location.origin || !isPackFile(url.pathname)) continue;
      const hit = await cache.match(url.href, { ignoreSearch: true });
      if (hit) {
        if (current && hit.headers.get(TAG) !== current) await tagged(cache, url, hit, current);
        continue;
      }
      try {
        const res = await fetch(url.href, { cache: "force-cache" });
        if (res.ok) await tagged(cache, url, res, current);
      } catch {
        // Gone or offline: the next check fetches it again.
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, one));
}

async function networkFirst(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(req, res.clone());
    return res;
  } catch (err) {
    // Navigations to "/?x" and "/index.html" are the page too.
    const hit =
      (await cache.match(req, { ignoreSearch: true })) ??
      (req.mode === "navigate" ? await cache.match("/") : undefined);
    if (hit) return hit;
    throw err;
  }
}

async function staleWhileRevalidate(event, req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req, { ignoreSearch: true });
  const refresh = fetch(req)
    .then(async (res) => {
      if (res.ok) await cache.put(req, res.clone());
      return res;
    })
    .catch(() => undefined); // offline: the cached copy stands
  if (hit) {
    event.waitUntil(refresh);
    return hit;
  }
  return (await refresh) ?? Response.error();
}

async function manifestNetworkFirst(event, req) {
  const cache = await caches.open(PACKS_CACHE);
  let res;
  try {
    // The cache mode of the request ("no-cache") is kept: the server answers 304 or the new one.
    res = await fetch(req);
  } catch {
    res = undefined;
  }
  if (res?.ok) {
    const copy = res.clone();
    event.waitUntil(
      (async () => {
        const manifest = await res.clone().json().catch(() => null);
        await cache.put(MANIFEST, copy);
        if (manifest) await newGeneration(cache, manifest);
      })(),
    );
    tell({ type: "manifest-source", offline: false });
    return res;
  }
  const hit = await cache.match(MANIFEST);
  if (hit) {
    tell({ type: "manifest-source", offline: true });
    return hit;
  }
  return res ?? Response.error();
}

/**
 * Fetches the manifest and its page table into the cache (at install): with the package, all a
 * reload needs to open the packs offline. Whether they can be used is the engine's to say.
 */
async function cacheManifestAndTable() {
  try {
    const res = await fetch(MANIFEST, { cache: "no-cache" });
    if (!res.ok) return;
    const manifest = await res.clone().json();
    const cache = await caches.open(PACKS_CACHE);
    await cache.put(MANIFEST, res);
    await newGeneration(cache, manifest);
    await keep([BASE + manifest.table?.name, BASE + manifest.records?.name]);
  } catch {
    // The page and package are cached; the packs will be cached as the page fetches them.
  }
}

let known;
/** The current and previous generations, `{ current, previous }` (null until a manifest is seen). */
async function generations() {
  if (!known) {
    const hit = await (await caches.open(PACKS_CACHE)).match(GENERATIONS);
    known = (hit && (await hit.json().catch(() => null))) ?? { current: null, previous: null };
  }
  return known;
}

/** Records the manifest's generation; when it is new, drops files of neither it nor the last one. */
async function newGeneration(cache, manifest) {
  const id = `${manifest.table?.name}+${manifest.records?.name}`;
  const g = await generations();
  if (g.current === id) return;
  known = { current: id, previous: g.current };
  await cache.put(GENERATIONS, new Response(JSON.stringify(known), { headers: { "content-type": "application/json" } }));
  if (g.current === null) return; // the first generation seen: files fetched before it are its own
  const live = new Set([known.current, known.previous]);
  for (const req of await cache.keys()) {
    if (!isPackFile(new URL(req.url).pathname)) continue;
    const res = await cache.match(req);
    if (!live.has(res?.headers.get(TAG))) await cache.delete(req);
  }
}

/** Tells the open pages whether the corpus came from the network or the offline copy. */
function tell(message) {
  self.clients
    .matchAll({ type: "window" })
    .then((all) => all.forEach((c) => c.postMessage(message)))
    .catch(() => undefined);
}
