// The parity of the paths in Chromium (issue 33): the three hand-written drafts of
// tests/data/parity/ checked in the page by the package's Checker, over the packs a real
// `uniqcheck serve` publishes from the demo store, must name the sources `uniqcheck check --db
// --json` names on that store, with uniqueness and originality within 0.5 points. Today all three
// agree (docs/EVALUATION.md, "Parity of the paths"). Run: scripts/test (builds pkg/ and the CLI,
// then `node --test tests/e2e/`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, BIN, useDemo, inPage } from "./harness.js";

const demo = useDemo();
const DIR = join(ROOT, "tests", "data", "parity");
const TOLERANCE = 0.5;

for (const name of ["paraphrase.txt", "heavy-rewrite.txt", "own-text-one-sentence.txt"]) {
  test(`${name}: the page's packs give the CLI's --db sources and figures`, async () => {
    const file = join(DIR, name);
    const native = JSON.parse(execFileSync(BIN, ["check", file, "--db", demo.store.db, "--json"], { encoding: "utf8" }));
    await inPage(demo.browser, `${demo.server.url}/`, {}, async (page) => {
      // A fresh checker, as a page opened for this draft has.
      const got = await page.evaluate(async (text) => {
        const { loadChecker } = await import("/pkg/index.js");
        const checker = await loadChecker("/packs/manifest.json");
        const r = await checker.check(text);
        checker.free();
        return { uniqueness: r.uniqueness, originality: r.originality, words: r.words, sources: r.sources.map((s) => s.url).sort() };
      }, readFileSync(file, "utf8"));
      assert.deepEqual(got.sources, native.sources.map((s) => s.url).sort(), `${name}: the sources of --db`);
      for (const key of ["uniqueness", "originality"]) {
        assert.ok(Math.abs(got[key] - native[key]) <= TOLERANCE, `${name}: ${key} ${got[key]} in Chromium, ${native[key]} through --db`);
      }
      assert.equal(got.words, native.words, name);
    });
  });
}
