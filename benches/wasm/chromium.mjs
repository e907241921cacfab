// Check latency in Debian's headless Chromium: a 5,000-word draft against packs of 10,000
// documents (20 Newsgroups posts indexed by the native CLI and served by `uniqcheck serve`), and
// re-checks after a one-word edit. Prints medians as one JSON line.
//
// Usage: node benches/wasm/chromium.mjs [DATA_DIR]   (needs pkg/ and target/release/uniqcheck)
//   UNIQCHECK_BIN: another CLI; BENCH_DOCS (10000): posts indexed; BENCH_RUNS (21): checks timed
//   of each kind (benches/wasm/run.sh's smoke run makes both small).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../..", import.meta.url));
const data = process.argv[2] ?? process.env.UNIQCHECK_DATA ?? join(root, "../shared/data");
const news = join(data, "20news-bydate");
const cli = process.env.UNIQCHECK_BIN ?? join(root, "target/release/uniqcheck");
const DOCS = Number(process.env.BENCH_DOCS) || 10_000;
const RUNS = Number(process.env.BENCH_RUNS) || 21;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const all = files(news).sort();
if (all.length < DOCS + 200) throw new Error(`need ${DOCS + 200} posts under ${news}`);
// A fixed shuffle: the first 10,000 posts are indexed, the rest are unseen; the draft quotes
// three indexed posts among text from unseen ones.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const shuffled = all.map((p) => [rand(), p]).sort((a, b) => a[0] - b[0]).map(([, p]) => p);
const indexed = shuffled.slice(0, DOCS);
const unseen = shuffled.slice(DOCS);
const read = (p) => new TextDecoder().decode(readFileSync(p));

const tmp = mkdtempSync(join(tmpdir(), "uniqcheck-bench-"));
const jsonl = join(tmp, "corpus.jsonl");
writeFileSync(jsonl, indexed.map((p) => JSON.stringify({ url: `news:${p.slice(news.length + 1)}`, title: p.split("/").slice(-2).join("/"), text: read(p) })).join("\n"));
execFileSync(cli, ["index", jsonl, "--db", join(tmp, "db")], { stdio: "ignore" });

const draftWords = [];
// (Posts 17, 42 % and 90 % of the way into the indexed ones: 17, 4242 and 9000 of 10,000.)
for (const p of [indexed[17], ...unseen.slice(0, 20), indexed[Math.floor(DOCS * 0.4242)], ...unseen.slice(20, 40), indexed[Math.floor(DOCS * 0.9)], ...unseen.slice(40)]) {
  draftWords.push(...read(p).split(/\s+/).filter(Boolean));
  if (draftWords.length >= 5000) break;
}
const draft = draftWords.slice(0, 5000).join(" ");

const server = spawn(cli, ["serve", "--db", join(tmp, "db"), "--addr", "127.0.0.1:0", "--no-auth", "--quiet", "--www", join(root, "benches/wasm/page"), "--pkg", join(root, "pkg")], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  server.stdout.on("data", (b) => {
    const m = /listening on (http:\/\/\S+)/.exec(String(b));
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error(`server exited ${code}`)));
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.ready);
  const result = await page.evaluate(([d, runs]) => window.runBench(d, runs), [draft, RUNS]);
  console.log(JSON.stringify({ runtime: "chromium", draft_words: draft.split(/\s+/).length, ...result }));
} finally {
  await browser.close();
  server.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
}
