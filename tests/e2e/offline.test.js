// Offline: once the page has been opened, it keeps checking with the server stopped, from what
// its service worker (www/sw.js) cached: the page, the package, the .wasm and the pack files the
// checks fetched; after "download everything", every pack file, so any text is checked offline.
//
// Which files a check needs is the engine's to say: the test asks the npm package in Node
// (loadChecker over HTTP, onFetch) and expects exactly those in the service worker's cache.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { useDemo, startServer, inPage, waitReady, waitReport, uniqueness, figures, marks, paste, article, artifact, ROOT } from "./harness.js";

const demo = useDemo();

/** The paths of the pack files a check of `text` fetches (table included), or all of them. */
async function packFiles(server, text) {
  const { loadChecker } = await import(pathToFileURL(join(ROOT, "pkg", "node.mjs")).href);
  const urls = [];
  const checker = await loadChecker(`${server.url}/packs/manifest.json`, { onFetch: (u) => urls.push(...u) });
  try {
    if (text === undefined) await checker.downloadAll();
    else await checker.check(text);
  } finally {
    checker.free();
  }
  return urls.map((u) => new URL(u).pathname).sort();
}

/** The paths of the pack files (not the manifest) in the page's service worker cache. */
function cachedPackFiles(page) {
  return page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) {
        const path = new URL(req.url).pathname;
        if (/^\/packs\/.+\.uq(?:[tairp]|bl)$/.test(path)) out.push(path);
      }
    }
    return out.sort();
  });
}

/**
 * Waits until the service worker controls the page and holds `paths` and the module `wasm`. Polled
 * from here: `page.waitForFunction` takes an async predicate's promise for a truthy answer at once.
 */
async function waitCached(page, paths, timeout = 20_000, wasm = "/pkg/web/uniqcheck_bg.wasm") {
  const held = (want) =>
    page.evaluate(async ([want, wasm]) => {
      if (!navigator.serviceWorker.controller) return false;
      if (!(await caches.match("/packs/manifest.json"))) return false;
      for (const p of want) if (!(await caches.match(p))) return false;
      return Boolean(await caches.match(wasm));
    }, [want, wasm]);
  const until = Date.now() + timeout;
  while (!(await held(paths))) {
    if (Date.now() > until) throw new Error(`the service worker did not cache ${paths.length} files in ${timeout} ms`);
    await page.waitForTimeout(200);
  }
}

test("the files a check fetched are cached: a reload with the server stopped still checks the draft", async () => {
  const { server, browser } = demo;
  const { title, paragraphs } = article("en/balcony-herb-garden.html");
  const draft = paragraphs.join("\n\n");
  const needed = await packFiles(server, draft);
  const all = await packFiles(server);
  assert.ok(needed.some((p) => p.includes("/i/")) && needed.some((p) => p.includes("/r/")), needed.join());
  assert.ok(needed.length < all.length, `one draft needs ${needed.length} of ${all.length} files`);

  await inPage(browser, server.url, { locale: "en-US" }, async (page) => {
    await waitReady(page);
    await paste(page, draft);
    await waitReport(page);
    assert.ok((await uniqueness(page)) < 20);
    assert.match(await page.textContent("#corpus-info"), /KiB downloaded for checks so far/);
    assert.match(await page.textContent("#offline-all"), /^Download the whole database for offline use \([\d.,]+ KiB\)$/);

    // The worker is installed, controls the page, and has what the check fetched: no more.
    await waitCached(page, needed);
    const cached = await cachedPackFiles(page);
    for (const p of needed) assert.ok(cached.includes(p), `${p} is cached`);
    assert.ok(cached.length < all.length, `only what checks fetched is cached (${cached.length} of ${all.length})`);
    // The draft is saved (debounced) before the reload.
    await page.waitForFunction(() => localStorage.getItem("uniqcheck.draft")?.length > 100);

    await server.stop();
    await page.reload();
    await waitReady(page);
    await waitReport(page);
    assert.ok((await uniqueness(page)) < 20, "the restored draft is checked offline");
    assert.ok((await marks(page)).length > 0);
    assert.ok((await page.locator("#sources .source-title").first().textContent()).includes(title));
    await page.waitForFunction(() => /unreachable/.test(document.getElementById("corpus-info").textContent));
  });
});

test("download everything: every pack file in the cache, then any text is checked offline", async () => {
  // A server of its own (another origin, so another service worker and cache).
  const server = await startServer(demo.store.db);
  try {
    const all = await packFiles(server);
    await inPage(demo.browser, server.url, { locale: "ru-RU" }, async (page) => {
      await waitReady(page);
      const button = page.locator("#offline-all");
      assert.match(await button.textContent(), /^Скачать всю базу для работы без сети \([\d,]+ КиБ\)$/);
      // The service worker first, so that the download passes through it.
      await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 20_000 });
      await page.locator("footer").screenshot({ path: artifact("offline-button-ru.png") });
      await button.click();
      await page.waitForFunction(
        () => document.getElementById("offline-state").textContent.startsWith("Вся база сохранена"),
        null,
        { timeout: 30_000 },
      );
      assert.equal(await button.isVisible(), false, "nothing left to download");
      await page.locator("footer").screenshot({ path: artifact("offline-downloaded-ru.png") });
      await waitCached(page, all);
      assert.deepEqual(await cachedPackFiles(page), all, "every pack file, and only those");

      await server.stop();
      await page.reload();
      await waitReady(page);
      await page.click("#draft");
      await page.keyboard.type("Completely fresh words about submarines, violins and winter tyres, nothing else.");
      await waitReport(page);
      assert.equal(await uniqueness(page), 100);
      const { title, paragraphs } = article("ru/robot-pylesos.html");
      await page.fill("#draft", "");
      await paste(page, paragraphs.join("\n\n"));
      await waitReport(page);
      assert.ok((await uniqueness(page)) < 20, "an article never checked before is found offline");
      assert.ok((await page.locator("#sources .source-title").first().textContent()).includes(title));
      await page.screenshot({ path: artifact("offline-check-ru.png") });
    });
  } finally {
    await server.stop();
  }
});

/**
 * A browser without WebAssembly SIMD (Safari before 16.4, Chrome before 91), emulated in the page:
 * `WebAssembly.validate` refuses bytes holding the SIMD opcode prefix 0xfd, as such a browser
 * refuses the probe that js/index.js `moduleUrl` asks about.
 */
function withoutSimd() {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => !new Uint8Array(bytes.buffer ?? bytes).includes(0xfd) && validate(bytes);
}

test("a browser without WebAssembly SIMD runs the module built without it: the same report, and that module kept offline", async () => {
  // A server of its own: the first test stopped the shared one.
  const server = await startServer(demo.store.db);
  try {
    const { paragraphs } = article("en/balcony-herb-garden.html");
    const draft = paragraphs.join("\n\n");
    /** What the page shows, and the modules its Web Worker fetched. */
    const checked = async (page) => {
      await waitReady(page);
      await paste(page, draft);
      await waitReport(page);
      const worker = page.workers().find((w) => w.url().includes("/pkg/worker.js"));
      return {
        figures: await figures(page),
        marks: await marks(page),
        sources: await page.locator("#sources .source-title").allTextContents(),
        modules: await worker.evaluate(() =>
          performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm")),
        ),
      };
    };
    let simd;
    await inPage(demo.browser, server.url, { locale: "en-US" }, async (page) => {
      simd = await checked(page);
    });
    assert.deepEqual(simd.modules, ["/pkg/web/uniqcheck_bg.wasm"]);
    assert.ok(simd.figures.uniqueness < 20 && simd.marks.length > 0, JSON.stringify(simd.figures));
    await inPage(demo.browser, server.url, { locale: "en-US", initScript: withoutSimd }, async (page) => {
      const plain = await checked(page);
      assert.deepEqual(plain.modules, ["/pkg/web/uniqcheck_nosimd_bg.wasm"]);
      assert.deepEqual({ ...plain, modules: [] }, { ...simd, modules: [] }, "the same report");
      await page.screenshot({ path: artifact("without-simd-en.png") });
      // The service worker keeps the module this browser runs, not the other.
      await waitCached(page, [], 20_000, "/pkg/web/uniqcheck_nosimd_bg.wasm");
      assert.equal(await page.evaluate(async () => Boolean(await caches.match("/pkg/web/uniqcheck_bg.wasm"))), false);
    });
  } finally {
    await server.stop();
  }
});
