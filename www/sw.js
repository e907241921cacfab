// The service worker that makes the page work offline once it has been opened online.
//
// - shards (/packs/<hash>.uqp) are content-hashed and immutable: cache-first, kept forever
//   while a manifest names them;
// - the manifest: network-first (a new corpus shows up at once), the cached copy when offline;
// - the package (/pkg/: glue JS and .wasm): stale-while-revalidate (instant start, updated next time);
// - the page itself: network-first with the cached copy offline, so a page update is never late.
// Everything is precached at install, packs included, so the very first visit is enough: the
// first load's own fetches happened before this worker controlled the page.

const VERSION = "v2";
const CACHE = `uniqcheck-${VERSION}`;

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
];
const PKG = [
  "/pkg/worker-client.js",
  "/pkg/ui/i18n.js",
  "/pkg/ui/report.js",
  "/pkg/ui/report.css",
  "/pkg/ui/runner.js",
  "/pkg/worker.js",
  "/pkg/index.js",
  "/pkg/loader.js",
  "/pkg/web/uniqcheck.js",
  "/pkg/web/uniqcheck_bg.wasm",
];
const MANIFEST = "/packs/manifest.json";
const SHARD = /^\/packs\/[0-9a-f]{16}\.uqp$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...PAGE, ...PKG]);
      await cacheManifestAndShards(cache);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("uniqcheck-") && name !== CACHE) await caches.delete(name);
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
  if (SHARD.test(url.pathname)) return event.respondWith(cacheFirst(req));
  if (url.pathname === MANIFEST) return event.respondWith(manifestNetworkFirst(req));
  if (url.pathname.startsWith("/pkg/")) return event.respondWith(staleWhileRevalidate(event, req));
  event.respondWith(networkFirst(req));
});

async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(req, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
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

async function manifestNetworkFirst(req) {
  const cache = await caches.open(CACHE);
  let res;
  try {
    // The cache mode of the request ("no-cache") is kept: the server answers 304 or the new one.
    res = await fetch(req);
  } catch {
    res = undefined;
  }
  if (res?.ok) {
    const copy = res.clone();
    pruneShards(cache, await res.clone().json().catch(() => null));
    await cache.put(MANIFEST, copy);
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
 * Fetches the manifest and every shard it names into the cache (at install). Only the shard names
 * are read here: whether the packs can be used is the engine's to say when the page loads them.
 */
async function cacheManifestAndShards(cache) {
  try {
    const res = await fetch(MANIFEST, { cache: "no-cache" });
    if (!res.ok) return;
    const manifest = await res.clone().json();
    await cache.put(MANIFEST, res);
    const names = (manifest.shards ?? []).map((s) => s.name).filter((n) => SHARD.test(`/packs/${n}`));
    await cache.addAll(names.map((n) => `/packs/${n}`));
  } catch {
    // The page and package are cached; the packs will be cached as the page fetches them.
  }
}

/** Drops cached shards the current manifest no longer names (they can never be asked for again). */
function pruneShards(cache, manifest) {
  if (!manifest || !Array.isArray(manifest.shards)) return;
  const keep = new Set(manifest.shards.map((s) => `/packs/${s.name}`));
  cache
    .keys()
    .then((keys) =>
      Promise.all(
        keys.filter((k) => SHARD.test(new URL(k.url).pathname) && !keep.has(new URL(k.url).pathname)).map((k) => cache.delete(k)),
      ),
    )
    .catch(() => undefined);
}

/** Tells the open pages whether the corpus came from the network or the offline copy. */
function tell(message) {
  self.clients
    .matchAll({ type: "window" })
    .then((all) => all.forEach((c) => c.postMessage(message)))
    .catch(() => undefined);
}
