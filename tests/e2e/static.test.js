// Static hosting (issue 14): `uniqcheck pack -o DIR` writes a folder that any static file server
// can serve, without `uniqcheck serve`. Here a plain one from npm (http-server) serves the page
// (www/), the package (pkg/) and the packs, under a path of the site's choosing that the page is
// pointed at (<meta name="uniqcheck-manifest">); the page's answer is the native CLI's on the
// same folder (`uniqcheck check --packs DIR`).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, BIN, CORPUS, BASE_URL, launchBrowser, inPage, waitReady, waitReport, uniqueness, printedMarks, paste, article, artifact } from "./harness.js";

let dir, site, packs, server, browser, url;

/** A free loopback port. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "uniqcheck-static-"));
  site = join(dir, "site");
  cpSync(join(ROOT, "www"), site, { recursive: true, dereference: true });
  cpSync(join(ROOT, "pkg"), join(site, "pkg"), { recursive: true });
  const db = join(dir, "demo.db");
  execFileSync(BIN, ["index", CORPUS, "--db", db, "--base-url", BASE_URL], { stdio: ["ignore", "ignore", "pipe"] });
  packs = join(site, "data", "packs");
  execFileSync(BIN, ["pack", "--db", db, "-o", packs], { stdio: ["ignore", "ignore", "pipe"] });
  const index = join(site, "index.html");
  const html = readFileSync(index, "utf8");
  const pointed = html.replace('content="/packs/manifest.json"', 'content="/data/packs/manifest.json"');
  assert.notEqual(pointed, html, "index.html names its manifest in a meta tag");
  writeFileSync(index, pointed);

  const port = await freePort();
  server = spawn(join(ROOT, "node_modules", ".bin", "http-server"), [site, "-a", "127.0.0.1", "-p", String(port), "-s"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (i > 100) throw new Error("http-server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("packs written by `uniqcheck pack -o DIR`, served by a plain static server: the page checks with the CLI's answer", async () => {
  const a = article("ru/chugunnaya-skovoroda.html");
  const b = article("en/sourdough-starter.html");
  const own = "Собственный абзац автора о поездке на дачу, где он впервые попробовал печь хлеб на углях.";
  const draft = [own, ...a.paragraphs.slice(0, 3), own, ...b.paragraphs.slice(1, 3)].join("\n\n");
  const draftFile = join(dir, "draft.txt");
  writeFileSync(draftFile, draft);
  const native = JSON.parse(
    execFileSync(BIN, ["check", draftFile, "--packs", packs, "--json", "--units", "utf16"], { encoding: "utf8" }),
  );
  assert.equal(native.sources.length, 2);

  await inPage(browser, url, { locale: "ru-RU" }, async (page) => {
    const fetched = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await waitReady(page);
    assert.match(await page.textContent("#corpus-info"), /30 документам/);
    await paste(page, draft);
    await waitReport(page);
    assert.ok(Math.abs((await uniqueness(page)) - native.uniqueness) < 0.051, `page ${await uniqueness(page)}, CLI ${native.uniqueness}`);
    const titles = await page.locator("#sources .source-title").allTextContents();
    assert.deepEqual(titles.map((t) => t.trim()), native.sources.map((s) => s.title));
    // The highlights are the CLI's fragments (each line of one is marked on its own; the print
    // copy holds all of the text's marks, the editor those of the lines in view).
    const found = await printedMarks(page);
    const shown = JSON.stringify(found.map((m) => [m.start, m.end]));
    for (const f of native.fragments) {
      assert.ok(found.some((m) => m.start === f.start) && found.some((m) => m.end === f.end), `[${f.start}, ${f.end}) in ${shown}`);
    }
    for (const m of found) {
      assert.ok(native.fragments.some((f) => f.start <= m.start && m.end <= f.end), `[${m.start}, ${m.end}) is a CLI fragment's`);
    }
    await page.screenshot({ path: artifact("static-hosting-ru.png") });

    // The files came from the folder the page was pointed at, and the service worker keeps them there.
    // Polled from here: `page.waitForFunction` takes an async predicate's promise for a truthy answer.
    const kept = () =>
      page.evaluate(async () => {
        if (!navigator.serviceWorker.controller) return false;
        const keys = await (await caches.open("uniqcheck-packs")).keys();
        const paths = keys.map((k) => new URL(k.url).pathname);
        return paths.some((p) => /^\/data\/packs\/i\/[0-9a-f]{16}\/[0-2]-[0-9a-f]+\.uqi$/.test(p)) && paths.some((p) => /^\/data\/packs\/r\//.test(p));
      });
    for (const until = Date.now() + 20_000; !(await kept()); await page.waitForTimeout(200)) {
      assert.ok(Date.now() < until, "the service worker keeps the files under /data/packs/ within 20 s");
    }
    assert.ok(!fetched.some((p) => p.startsWith("/packs/")), `nothing from /packs/: ${fetched.join(" ")}`);
  });
});
