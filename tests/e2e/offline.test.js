// Offline: once the page has been opened, it keeps checking with the server stopped, from what
// its service worker (www/sw.js) cached: the page, the package, the .wasm and the packs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { useDemo, inPage, waitReady, waitReport, uniqueness, marks, paste, article } from "./harness.js";

const demo = useDemo();

test("a reload with the server stopped still checks, from the service worker", async () => {
  const { server, browser } = demo;
  await inPage(browser, server.url, { locale: "en-US" }, async (page) => {
    await waitReady(page);
    const { title, paragraphs } = article("en/balcony-herb-garden.html");
    await paste(page, paragraphs.join("\n\n"));
    await waitReport(page);
    assert.ok((await uniqueness(page)) < 20);

    // The worker is installed, controls the page, and has the packs.
    await page.waitForFunction(
      async () => {
        if (!navigator.serviceWorker.controller) return false;
        const manifest = await caches.match("/packs/manifest.json");
        if (!manifest) return false;
        const { shards } = await manifest.json();
        for (const s of shards) if (!(await caches.match(`/packs/${s.name}`))) return false;
        return Boolean(await caches.match("/pkg/web/uniqcheck_bg.wasm"));
      },
      null,
      { timeout: 20_000, polling: 200 },
    );
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

    // And a new text typed offline is checked too.
    await page.fill("#draft", "");
    await page.click("#draft");
    await page.keyboard.type("Completely fresh words about submarines, violins and winter tyres, nothing else.");
    await waitReport(page);
    assert.equal(await uniqueness(page), 100);
  });
});
