// The service worker that makes the page work offline once it has been opened online.
//
// - pack files (docs/FORMAT.md, version 6) next to the manifest: the page table `<hex>.uqt`, the
//   record list `<hex>.uqa`, the bilingual table `<hex>.uqbl` (when the packs publish one), index
//   pages `i/<generation hex>/<list>-<hex>.uqi` and records `r/<hex>/<hex>.uqr` never
//   change under their names: kept in their own cache (`uniqcheck-packs`) that survives updates
//   of this worker, which the page's Web Worker reads before the network, so files fetched by one
//   check serve every later check and reload, online or not;
// - the manifest: network-first (a new corpus shows up at once), the cached copy when offline;
// - the package (/pkg/: glue JS and .wasm) and the editor (/vendor/codemirror/): stale-while-revalidate
//   (instant start, updated next time);
// - the page itself: network-first with the cached copy offline, so a page update is never late.
//
// The page tells this worker which manifest it uses (`sw.js?manifest=/packs/manifest.json`).
// Checks fetch pack files from the page's Web Worker; the page hands the URLs a check fetched
// over once it is done ("keep" messages), and the files missing from the cache are copied from
// the HTTP cache. "Download everything" fetches every file the same way. At install
// only the manifest and the page table are cached (what a reload needs to open the packs
// offline); the record list is fetched by "download everything" alone (1 MB at a million).
//
// Pruning: each cached pack file is tagged with the generation (page table and record list
// names) it was last used in; when the manifest names a new generation, files used in neither it
// nor the one before are deleted (old generations' index pages, which a new generation renames
// all at once, and records of deleted or changed documents).
//
// Cost: a check at a million documents fetches about 250 files, 8 at a time. A fetch handler on
// their path costs Chromium CPU time, memory and latency for each (on the first visit the page's
// Web Worker is claimed at activation, so every one would pass through here): pack files are not
// answered here but read by that Web Worker from the packs' cache first (js/loader.js,
// `packCache`), then fetched; the page reports a check's files once it is over, and `keep` copies
// the missing ones from the HTTP cache. Measured (benches/packs/browser.mjs, CPU time of a check's
// ~92 files at 10,000 documents): no service worker 480 ms; a fetch handler that lets them pass
// 520; one that fetches them 620; a cache lookup and write on the way 760 (docs/PERFORMANCE.md).
// Lookups are by exact URL (`ignoreSearch` makes Chromium read every entry of the cache).
// Static routes (`InstallEvent.addRoutes`, source "network") would spare pack files this handler
// altogether, but Chromium 156 applies them to the page's own fetches only, not to its Web
// Worker's, which fetch the packs (tried 2026-11-28: workerMatchedSourceType stayed empty).

const VERSION = "v7";
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
// The editor (CodeMirror 6, copied from node_modules by scripts/build-pkg; index.html's import map).
const VENDOR = [
  "view",
  "state",
  "commands",
  "search",
  "language",
  "streamparser",
  "lezer-common",
  "lezer-highlight",
  "lezer-lr",
  "style-mod",
  "w3c-keyname",
  "crelt",
  "find-cluster-break",
].map((name) => `/vendor/codemirror/${name}.js`);
const PKG = [
  "/pkg/worker-client.js",
  "/pkg/ui/i18n.js",
  "/pkg/ui/report.js",
  "/pkg/ui/report.css",
  "/pkg/ui/runner.js",
  "/pkg/ui/tip.js",
  "/pkg/worker.js",
  "/pkg/index.js",
  "/pkg/module-url.js",
  "/pkg/loader.js",
  "/pkg/web/uniqcheck.js",
  "/pkg/web/uniqcheck_results.js",
];

/**
 * The engine's module the page loads (`sw.js?wasm=...`: the build without WebAssembly SIMD, for a
 * browser lacking it, js/index.js `moduleUrl`), kept for offline use; only the package's two.
 */
const WASM = (() => {
  const asked = new URL(self.location.href).searchParams.get("wasm");
  const known = ["/pkg/web/uniqcheck_bg.wasm", "/pkg/web/uniqcheck_nosimd_bg.wasm"];
  return known.includes(asked) ? asked : known[0];
})();

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
const PACK_FILE = /^(?:[0-9a-f]{16}\.uq(?:[ta]|bl)|i\/[0-9a-f]{16}\/[0-2]-(?:0|[1-9a-f][0-9a-f]{0,7})\.uqi|r\/[0-9a-f]{1,16}\/[0-9a-f]{1,16}\.uqr)$/;

/** Whether `path` (of this origin) is an immutable pack file of the page's packs. */
const isPackFile = (path) => path.startsWith(BASE) && PACK_FILE.test(path.slice(BASE.length));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...PAGE, ...VENDOR, ...PKG, WASM]);
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
  // Pack files pass: the page's Web Worker reads them from the packs' cache itself (js/worker.js,
  // `packCache`), so a check's requests do not wait for this worker; a miss goes to the network.
  if (isPackFile(url.pathname)) return;
  if (url.pathname === MANIFEST) return event.respondWith(manifestNetworkFirst(event, req));
  if (url.pathname.startsWith("/pkg/") || url.pathname.startsWith("/vendor/codemirror/")) {
    return event.respondWith(staleWhileRevalidate(event, req));
  }
  event.respondWith(networkFirst(req));
});

self.addEventListener("message", (event) => {
  const { type, urls } = event.data ?? {};
  if (type === "keep" && Array.isArray(urls)) event.waitUntil(keep(urls));
});

/** The packs' cache, opened once while this worker runs. */
let packsCache;
const packs = () => (packsCache ??= caches.open(PACKS_CACHE));

/** A pack file's cache key: its URL without query or fragment (its name says what it holds). */
const packKey = (url) => url.origin + url.pathname;

/** Copies on their way into the cache, by key: a second "keep" of one waits instead of fetching. */
const storing = new Map();

/**
 * Stores `res` under `key` with the generation tag, its body streamed into the cache; resolves
 * when it is written (or could not be: the next check fetches the file again).
 */
function store(cache, key, res, generation) {
  const pending = storing.get(key);
  if (pending) return pending;
  const headers = new Headers(res.headers);
  headers.set(TAG, generation ?? "");
  headers.delete("vary");
  const done = cache
    .put(key, new Response(res.body, { status: 200, statusText: "OK", headers }))
    .catch(() => undefined)
    .finally(() => storing.delete(key));
  storing.set(key, done);
  return done;
}

/**
 * Caches the pack files a check fetched (the page reports every one once the check is over, and
 * after each step of "download everything"): those missing are copied from the HTTP cache, those
 * of an older generation re-tagged with the current one.
 */
async function keep(urls) {
  const [cache, { current }] = await Promise.all([packs(), generations()]);
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
      const key = packKey(url);
      // Being stored for another "keep": wait for that copy.
      if (storing.has(key)) {
        await storing.get(key);
        continue;
      }
      const hit = await cache.match(key);
      if (hit) {
        if (current && hit.headers.get(TAG) !== current) await store(cache, key, hit, current);
        continue;
      }
      try {
        const res = await fetch(key, { cache: "force-cache" });
        if (res.ok) await store(cache, key, res, current);
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
  const cache = await packs();
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
 * reload needs to open the packs offline. Whether they can be used is the engine's to say. The
 * record list is not fetched: only "download everything" reads it.
 */
async function cacheManifestAndTable() {
  try {
    const res = await fetch(MANIFEST, { cache: "no-cache" });
    if (!res.ok) return;
    const manifest = await res.clone().json();
    const cache = await packs();
    await cache.put(MANIFEST, res);
    await newGeneration(cache, manifest);
    if (typeof manifest.table?.name === "string") await keep([BASE + manifest.table.name]);
  } catch {
    // The page and package are cached; the packs will be cached as the page fetches them.
  }
}

let known;
/**
 * The current and previous generations, `{ current, previous }` (null until a manifest is seen),
 * read from the cache once while this worker runs (a promise: the first checks ask at once).
 */
function generations() {
  known ??= packs()
    .then((cache) => cache.match(GENERATIONS))
    .then((hit) => hit?.json())
    .catch(() => null)
    .then((g) => g ?? { current: null, previous: null });
  return known;
}

/** Records the manifest's generation; when it is new, drops files of neither it nor the last one. */
async function newGeneration(cache, manifest) {
  const id = `${manifest.table?.name}+${manifest.records?.name}`;
  const g = await generations();
  if (g.current === id) return;
  const next = { current: id, previous: g.current };
  known = Promise.resolve(next);
  await cache.put(GENERATIONS, new Response(JSON.stringify(next), { headers: { "content-type": "application/json" } }));
  if (g.current === null) return; // the first generation seen: files fetched before it are its own
  const live = new Set([next.current, next.previous]);
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
