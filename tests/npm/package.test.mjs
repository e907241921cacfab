// Test what ships: pack the npm package, install the tarball into fresh projects, and use it the
// ways users will — Node ES modules, Node require(), and a Vite build run in Debian's Chromium.
// The WebAssembly answer must equal the native CLI's on packs written from the same documents.
//
// Needs pkg/ (scripts/build-pkg) and target/debug/uniqcheck (cargo build -p uniqcheck-cli).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, extname } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "target/debug/uniqcheck");
let tmp, project, tarball, packs, db;

const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts });

before(() => {
  tmp = mkdtempSync(join(tmpdir(), "uniqcheck-npm-"));
  const out = run("npm", ["pack", join(root, "pkg"), "--pack-destination", tmp, "--json"]);
  tarball = join(tmp, JSON.parse(out)[0].filename);
  project = join(tmp, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run("npm", ["install", tarball, "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
  db = join(tmp, "store.db");
  packs = join(tmp, "packs");
  run(cli, ["index", join(root, "examples/corpus"), "--db", db]);
  run(cli, ["pack", "--db", db, "-o", packs]);
});

after(() => rmSync(tmp, { recursive: true, force: true }));

test("the tarball holds the package and nothing else", () => {
  const files = JSON.parse(run("npm", ["pack", join(root, "pkg"), "--dry-run", "--json"]))[0].files.map((f) => f.path);
  for (const f of ["package.json", "index.js", "index.d.ts", "node.mjs", "node.cjs", "worker.js", "web/uniqcheck_bg.wasm", "node/uniqcheck_bg.wasm", "README.md", "LICENSE",
                   "ui/index.js", "ui/report.js", "ui/report.css", "ui/runner.js", "ui/i18n.js", "element.js", "element.d.ts",
                   "textmap.js", "ckeditor5/index.js", "ckeditor5/index.d.ts", "ckeditor5/uniqcheck.js", "ckeditor5/modeltext.js"]) {
    assert.ok(files.includes(f), `${f} is shipped`);
  }
  assert.ok(!files.some((f) => f.endsWith(".rs") || f.startsWith("src/")), "no sources in the tarball");
  const pkg = JSON.parse(readFileSync(join(root, "pkg", "package.json"), "utf8"));
  for (const sub of ["./ui", "./element", "./ckeditor5"]) assert.ok(pkg.exports[sub], `${sub} is exported`);
  // The editor is the integrator's: a peer, optional for users of the engine alone, never bundled.
  assert.ok(pkg.peerDependencies.ckeditor5 && pkg.peerDependenciesMeta.ckeditor5.optional);
  assert.ok(!pkg.dependencies?.ckeditor5 && !files.some((f) => f.includes("vendor")));
});

test("Node ES modules: same uniqueness, fragments and sources as the native check", () => {
  const draft = join(root, "examples/draft.txt");
  const native = JSON.parse(run(cli, ["check", draft, "--db", db, "--json", "--units", "utf16"]));
  writeFileSync(
    join(project, "check.mjs"),
    `import { loadChecker, version } from "uniqcheck";
     import { readFileSync } from "node:fs";
     const checker = await loadChecker(process.argv[2]);
     const report = checker.check(readFileSync(process.argv[3], "utf8"));
     console.log(JSON.stringify({ version: version(), documents: checker.documentCount, manifest: checker.manifest.documents, report }));`,
  );
  const wasm = JSON.parse(run("node", ["check.mjs", join(packs, "manifest.json"), draft], { cwd: project }));
  assert.equal(wasm.documents, wasm.manifest);
  assert.ok(wasm.documents >= 6);
  const r = wasm.report;
  assert.ok(r.uniqueness > 0 && r.uniqueness < 100, `uniqueness ${r.uniqueness}`);
  assert.equal(r.uniqueness, native.uniqueness);
  assert.equal(r.words, native.words);
  assert.equal(r.method, native.method);
  assert.deepEqual(
    r.fragments.map((f) => [f.start, f.end, f.sources]),
    native.fragments.map((f) => [f.start, f.end, f.sources]),
  );
  assert.deepEqual(
    r.sources.map((s) => [s.id, s.url, s.title, s.share]),
    native.sources.map((s) => [s.id, s.url, s.title, s.share]),
  );
  const text = readFileSync(draft, "utf8");
  for (const f of r.fragments) assert.ok(text.slice(f.start, f.end).trim().length > 10);
});

test("Node require(): the CommonJS entry works and errors are Error objects with messages", () => {
  writeFileSync(
    join(project, "check.cjs"),
    `const { Checker, packFormatVersion } = require("uniqcheck");
     const c = new Checker();
     let empty, pack, option;
     try { c.check("   "); } catch (e) { empty = e instanceof Error && e.message; }
     try { c.addPack(new Uint8Array([1, 2, 3])); } catch (e) { pack = e instanceof Error && e.message; }
     try { c.check("word", { shingleSize: 3 }); } catch (e) { option = e instanceof Error && e.message; }
     console.log(JSON.stringify({ empty, pack, option, format: packFormatVersion(), docs: c.documentCount }));`,
  );
  const out = JSON.parse(run("node", ["check.cjs"], { cwd: project }));
  assert.match(out.empty, /empty/);
  assert.match(out.pack, /pack/);
  assert.match(out.option, /unknown field `shingleSize`/);
  assert.equal(out.format, 1);
  assert.equal(out.docs, 0);
});

test("uniqcheck/ui resolves from the installed package: the report's strings and formats", () => {
  writeFileSync(
    join(project, "ui.mjs"),
    `import { createTranslator, messages, band } from "uniqcheck/ui";
     const ru = createTranslator("ru-RU");
     console.log(JSON.stringify({ lang: ru.lang, pct: ru.formatPercent(87.5), button: ru.t("checkButton"),
       en: createTranslator("en").t("sourceShare", { share: "5 %" }), band: band(75), same: Object.keys(messages.ru).length === Object.keys(messages.en).length }));`,
  );
  const out = JSON.parse(run("node", ["ui.mjs"], { cwd: project }));
  assert.deepEqual(out, { lang: "ru", pct: "87,5\u202f%", button: "Проверить уникальность", en: "5 % of the text", band: "mid", same: true });
});

test("UTF-16 spans: emoji, combining marks and CRLF line ends select exactly the copied text", () => {
  writeFileSync(
    join(project, "spans.mjs"),
    `import { Checker } from "uniqcheck";
     const copied = "Заварочный чайник сначала ополаскивают кипятком, чтобы фарфор прогрелся и не отнимал тепло у настоя, а листья раскрылись полностью и отдали аромат";
     const a = "Мой рецепт 🍵🫖 и мои пра\\u0301вила.\\r\\nКороче, вот:\\r\\n" + copied + " 👍🏽 и точка.";
     const b = "В другой статье было сказано: " + copied + ". Конец.";
     const c = new Checker().compare(a, b, { shortThreshold: 0 });
     console.log(JSON.stringify(c.fragments.map((f) => [a.slice(...f.a), b.slice(...f.b)])));`,
  );
  const pairs = JSON.parse(run("node", ["spans.mjs"], { cwd: project }));
  assert.equal(pairs.length, 1);
  assert.ok(pairs[0][0].startsWith("Заварочный чайник"), pairs[0][0]);
  assert.ok(pairs[0][0].endsWith("отдали аромат"), pairs[0][0]);
  assert.equal(pairs[0][0], pairs[0][1]);
});

test("Vite bundles it, and the bundle runs in Chromium", { timeout: 300_000 }, async () => {
  const app = join(tmp, "vite-app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "vite-app", private: true, type: "module" }));
  run("npm", ["install", tarball, "vite@8", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: app });
  writeFileSync(join(app, "index.html"), `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module" src="/main.js"></script></body></html>`);
  writeFileSync(
    join(app, "main.js"),
    `import { initialize, Checker } from "uniqcheck";
     await initialize();
     const text = "Холодный чай настаивают в холодильнике двенадцать часов, процеживают и разбавляют водой по вкусу, добавляя лимон и мяту.";
     const c = new Checker().compare("Мой способ прост. " + text, text, { shortThreshold: 0 });
     window.result = { fragments: c.fragments.length, containment: c.containment };`,
  );
  run(join(app, "node_modules/.bin/vite"), ["build", "--logLevel", "warn"], { cwd: app });
  const assets = readdirSync(join(app, "dist/assets"));
  assert.ok(assets.some((f) => f.endsWith(".wasm")), `a .wasm asset in ${assets}`);

  const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    const path = join(app, "dist", req.url === "/" ? "index.html" : decodeURIComponent(req.url.split("?")[0]));
    if (!path.startsWith(join(app, "dist"))) return res.writeHead(404).end();
    try {
      const body = readFileSync(path);
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const result = await page.waitForFunction(() => window.result, null, { timeout: 30_000 });
    const value = await result.jsonValue();
    assert.equal(value.fragments, 1);
    // A starts with words B lacks, so some of its shingles are new: most, not all, are in B.
    assert.ok(value.containment > 0.7 && value.containment < 1, `containment ${value.containment}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
