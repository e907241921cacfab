// The copywriter's page against large pack folders (issue 14): Debian's headless Chromium opens
// the page (www/ and a package built from this checkout), pointed at PACKS/manifest.json, pastes
// a 1,000-word draft, waits for the report, then edits one word and waits again. For each draft
// it prints one JSON line: time from paste to report (and the check's own time, which the page
// shows without the 400 ms pause it waits after typing), the CPU time Chromium's processes spent
// meanwhile (by kind: on a shared machine it moves less than the wall time), bytes and requests by kind as the
// server sent them, the Web Worker's fetches (Resource Timing), and memory: the page's JS heap
// (CDP Performance.getMetrics), the Web Worker's JS heap (CDP Runtime.getHeapUsage) and
// WebAssembly memory, and the renderer process's RSS, peak RSS, PSS and private memory (/proc,
// by the pids of CDP SystemInfo.getProcessInfo), and the service worker's JS heap. First a
// baseline line: the same memory figures for a fresh Chromium showing a page with one word on it.
// Then a summary line. SW=block runs the page without its service worker; PAGE=bare runs the
// checker alone in a page without the UI (bareRun below), and KEEP=0 with it leaves out the
// "keep" messages (the service worker's copies of a check's files into its cache).
//
// Every draft gets a fresh browser (so nothing is cached, and the peak RSS is this draft's). The
// files are served by a small static server in this script, on loopback, which counts every byte
// it sends, whoever asked (the page, its Web Worker, its service worker): pack files with
// `Cache-Control: immutable` as `uniqcheck serve` sends them, the manifest with `no-cache`.
//
// Usage: node benches/packs/browser.mjs PACKS_DIR DRAFTS_DIR [COUNT]
//   PKG (env) is the package folder served at /pkg/ (default: <repo>/pkg); benches/packs/scale.sh
//   builds one from this checkout into target/uniqcheck-bench/pkg. CHROMIUM overrides
//   /usr/bin/chromium.
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize, extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const [packsArg, draftsArg, countArg] = process.argv.slice(2);
if (!packsArg || !draftsArg) {
  console.error("usage: node benches/packs/browser.mjs PACKS_DIR DRAFTS_DIR [COUNT]");
  process.exit(2);
}
const PACKS = resolve(packsArg);
const DRAFTS = resolve(draftsArg);
const PKG = resolve(process.env.PKG ?? join(ROOT, "pkg"));
const WWW = join(ROOT, "www");
const COUNT = Number(countArg ?? 20);
for (const [path, what] of [
  [join(PACKS, "manifest.json"), "a pack folder"],
  [join(PKG, "web", "uniqcheck_bg.wasm"), "the package (scripts/build-pkg, or PKG=...)"],
]) {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${what}`);
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
  ".webmanifest": "application/manifest+json",
};

/** What a served path is, for the counts. */
function kind(path) {
  if (!path.startsWith("/packs/")) return "app";
  if (path === "/packs/manifest.json") return "manifest";
  // The page table (format 6: the one small file; format 5 also read parts under t/).
  if (path.endsWith(".uqt") || path.startsWith("/packs/t/")) return "table";
  if (path.endsWith(".uqa")) return "list";
  if (path.startsWith("/packs/i/")) return "pages";
  if (path.startsWith("/packs/r/")) return "records";
  return "other";
}

/** Bytes and requests sent since the last `take()`, by kind. */
const sent = {
  counts: {},
  add(k, bytes) {
    const c = (this.counts[k] ??= { requests: 0, bytes: 0 });
    c.requests += 1;
    c.bytes += bytes;
  },
  take() {
    const out = this.counts;
    this.counts = {};
    return out;
  },
};

/** A page with nothing on it: Chromium's own memory, measured the same way (the baseline line). */
const BLANK = '<!doctype html><html lang=en><meta charset=utf-8><title>blank</title><link rel=icon href="data:,"><p>blank</p></html>';

const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (path === "/__blank" || path === "/__bare") {
    const body = Buffer.from(path === "/__blank" ? BLANK : BARE_PAGE);
    res.writeHead(200, { "content-type": TYPES[".html"], "content-length": body.length, "cache-control": "no-cache" });
    res.end(body);
    return;
  }
  let base = WWW;
  let rel = path;
  if (path.startsWith("/packs/")) [base, rel] = [PACKS, path.slice("/packs".length)];
  else if (path.startsWith("/pkg/")) [base, rel] = [PKG, path.slice("/pkg".length)];
  if (rel.endsWith("/")) rel += "index.html";
  const file = normalize(join(base, rel));
  let body;
  try {
    if (!file.startsWith(base + "/")) throw new Error("outside");
    // Read whole and sent in one write, as a static server sends a small file (nginx's
    // sendfile): a stream a file cost this process about 2 ms of CPU a request, a fifth of the
    // machine's CPU during a check of 200 files (check_cpu_ms.server).
    body = readFileSync(file);
  } catch {
    res.writeHead(404).end();
    sent.add("missing", 0);
    return;
  }
  const k = kind(path);
  const immutable = k !== "app" && k !== "manifest";
  res.writeHead(200, {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "content-length": body.length,
    "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
  });
  sent.add(k, body.length);
  res.end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const URL_BASE = `http://127.0.0.1:${server.address().port}/`;

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * CPU time of this process since `since` (process.cpuUsage()), in ms: mostly its static server
 * (and Playwright's side of the conversation), which shares the machine's cores with Chromium.
 * Not part of `total`, which is Chromium's.
 */
function serverCpu(since) {
  const { user, system } = process.cpuUsage(since);
  return Math.round((user + system) / 1000);
}

/** VmRSS and VmHWM of a process, and its proportional and private share (smaps_rollup), in bytes. */
function rss(pid) {
  const field = (text, name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * 1024;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return {
      rss: field(status, "VmRSS"),
      hwm: field(status, "VmHWM"),
      pss: field(rollup, "Pss"),
      private: field(rollup, "Private_Clean") + field(rollup, "Private_Dirty"),
    };
  } catch {
    return { rss: 0, hwm: 0, pss: 0, private: 0 };
  }
}

/** Whether process `pid` is a renderer of Chromium's own UI, not of a web page. */
function webUi(pid) {
  try {
    // Chromium rewrites its children's command lines as one string: split on spaces too.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/).includes("--top-chrome-webui");
  } catch {
    return false;
  }
}

/**
 * The Web Worker's CDP session on `cdp` (a session of the page), or null: attached without
 * flattening, so that Playwright's own session is left alone.
 */
function attachWorker(cdp) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 5000);
    cdp.on("Target.attachedToTarget", ({ sessionId, targetInfo }) => {
      if (targetInfo.type !== "worker") return;
      clearTimeout(timer);
      resolve(sessionId);
    });
    cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  });
}

let messageId = 0;
/** Sends a CDP command to the worker's session; resolves to its result. */
function workerCall(cdp, sessionId, method, params = {}) {
  const id = ++messageId;
  return new Promise((resolve) => {
    const handler = (m) => {
      if (m.sessionId !== sessionId) return;
      const msg = JSON.parse(m.message);
      if (msg.id !== id) return;
      cdp.off("Target.receivedMessageFromTarget", handler);
      resolve(msg.result ?? null);
    };
    cdp.on("Target.receivedMessageFromTarget", handler);
    cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
  });
}

/** Memory now: the page's and the worker's JS heaps, the worker's wasm memory, every renderer's RSS. */
async function memory(browser, page, cdp, workerSession) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
  const worker = page.workers().find((w) => w.url().includes("/pkg/worker.js"));
  // The module the worker's checker was made with: init() again returns its exports, memory
  // included (wasm-bindgen keeps the first instance).
  const wasm = worker
    ? await worker.evaluate(async () => {
        const m = await import(new URL("./web/uniqcheck.js", self.location.href).href);
        const exports = await m.default();
        return { memory: exports.memory.buffer.byteLength, heap: self.performance?.memory?.usedJSHeapSize ?? null };
      })
    : null;
  const heap = workerSession ? await workerCall(cdp, workerSession, "Runtime.getHeapUsage") : null;
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = await session.send("SystemInfo.getProcessInfo");
  const swHeap = await serviceWorkerHeap(session);
  await session.detach();
  // Chromium's own WebUI (the omnibox popup, `--top-chrome-webui`) has a renderer of its own,
  // about 40 MB private, whatever the page: left out. The page, its Web Worker and its service
  // worker share one renderer (seen by spinning each in turn and reading /proc CPU times).
  const renderers = processInfo
    .filter((p) => p.type === "renderer" && !webUi(p.id))
    .map((p) => ({ pid: p.id, ...rss(p.id) }));
  renderers.sort((a, b) => b.rss - a.rss);
  return {
    js_heap_used: metric("JSHeapUsedSize"),
    js_heap_total: metric("JSHeapTotalSize"),
    worker_heap_used: heap?.usedSize ?? null,
    worker_heap_total: heap?.totalSize ?? null,
    service_worker_heap_used: swHeap?.usedSize ?? null,
    service_worker_heap_total: swHeap?.totalSize ?? null,
    wasm_memory: wasm?.memory ?? null,
    // The page's renderer: the largest (the other is a spare, about 6 MB private).
    renderer_rss: renderers[0]?.rss ?? null,
    renderer_hwm: renderers[0]?.hwm ?? null,
    renderer_pss: renderers[0]?.pss ?? null,
    renderer_private: renderers[0]?.private ?? null,
    // Every renderer but the WebUI's: [RSS, private] in MB, the largest first; their private memory together.
    renderers_mb: renderers.map((r) => [Math.round(r.rss / 1e6), Math.round(r.private / 1e6)]),
    renderers_private: renderers.reduce((sum, r) => sum + r.private, 0),
  };
}

/**
 * CPU time used so far by each kind of Chromium process (CDP SystemInfo.getProcessInfo), in ms:
 * what a check costs the machine, which on a shared machine moves less than its wall time.
 */
async function cpuByType(browser) {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = await session.send("SystemInfo.getProcessInfo");
  await session.detach();
  const out = {};
  for (const p of processInfo) {
    const kind = p.type === "renderer" && webUi(p.id) ? "webui" : p.type.replace(/^.*\.mojom\./, "");
    out[kind] = (out[kind] ?? 0) + p.cpuTime * 1000;
  }
  return out;
}

/** CPU ms used between two `cpuByType` readings, by kind and in all. */
function cpuSpent(before, after) {
  const out = {};
  for (const [k, v] of Object.entries(after)) out[k] = Math.round(v - (before[k] ?? 0));
  out.total = Object.values(out).reduce((a, b) => a + b, 0);
  return out;
}

/** The service worker's JS heap (CDP Runtime.getHeapUsage on its target), or null when none runs. */
async function serviceWorkerHeap(session) {
  const { targetInfos } = await session.send("Target.getTargets");
  const sw = targetInfos.find((t) => t.type === "service_worker");
  if (!sw) return null;
  const { sessionId } = await session.send("Target.attachToTarget", { targetId: sw.targetId, flatten: false });
  try {
    return await Promise.race([
      workerCall(session, sessionId, "Runtime.getHeapUsage"),
      new Promise((resolve) => setTimeout(() => resolve(null), 5000)),
    ]);
  } finally {
    await session.send("Target.detachFromTarget", { sessionId }).catch(() => undefined);
  }
}

/**
 * Chromium's own memory, measured as a draft's is: a fresh browser showing a page with one word
 * on it, a second and a half after it loaded.
 */
async function baselineMemory() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(URL_BASE + "__blank");
    await page.waitForTimeout(1500);
    const out = await memory(browser, page, cdp, null);
    await context.close();
    return out;
  } finally {
    await browser.close();
  }
}

/**
 * Waits for the page's service worker to be active. `navigator.serviceWorker.ready` never
 * settles when the install fails (a file of the precache list missing from the package, say):
 * a minute is long enough for a first visit on a loaded machine, and the error says where.
 */
async function serviceWorkerReady(page) {
  const ready = await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker?.ready.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 60_000)),
    ]),
  );
  if (ready === false) throw new Error("the service worker did not install within 60 s (is every file of www/sw.js's precache list in PKG?)");
}

/**
 * Gives the page `window.__draft()`, the editor's view (CodeMirror's EditorView, found from its
 * DOM through the page's own copy of @codemirror/view, as tests/e2e/harness.js does).
 */
async function hookEditor(page) {
  await page.evaluate(async () => {
    if (window.__draft) return;
    const { EditorView } = await import("@codemirror/view");
    window.__draft = () => EditorView.findFromDOM(document.getElementById("editor"));
  });
}

/**
 * Waits until the page shows "Checked in N ms" for exactly the editor's text (the input handler
 * says "Checking…" at once, so an older report never counts; the print copy is the marked text of
 * the report shown); returns N, the check's own time.
 */
async function waitReport(page) {
  const handle = await page.waitForFunction(
    () => {
      const state = document.getElementById("check-state").textContent;
      const printed = document.getElementById("mirror").textContent;
      const m = /(\d[\d,]*)\s*ms/.exec(state);
      return m && printed === window.__draft().state.doc.toString() ? Number(m[1].replace(/,/g, "")) : false;
    },
    null,
    { timeout: 120_000, polling: 10 },
  );
  return handle.jsonValue();
}

/**
 * The Web Worker's pack fetches so far (Resource Timing): how many, and the span from the first
 * request's start to the last response's end, in ms; then the list is cleared.
 */
async function workerFetches(page) {
  const worker = page.workers().find((w) => w.url().includes("/pkg/worker.js"));
  if (!worker) return null;
  return worker.evaluate(() => {
    const entries = performance.getEntriesByType("resource").filter((e) => e.name.includes("/packs/"));
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(100_000); // 250 by default: fewer than a check's files
    if (!entries.length) return { files: 0, span_ms: 0 };
    const start = Math.min(...entries.map((e) => e.startTime));
    const end = Math.max(...entries.map((e) => e.responseEnd));
    const median = (f) => {
      const v = entries.map(f).sort((a, b) => a - b);
      return Math.round(v[v.length >> 1] * 10) / 10;
    };
    return {
      files: entries.length,
      span_ms: Math.round(end - start),
      // Per file, median: the whole fetch; queued before the request went out (a service worker
      // in between counts here); request to first byte.
      each_ms: median((e) => e.responseEnd - e.startTime),
      queued_ms: median((e) => (e.requestStart || e.startTime) - e.startTime),
      wait_ms: median((e) => (e.responseStart || e.responseEnd) - (e.requestStart || e.startTime)),
      via_service_worker: entries.filter((e) => e.workerStart > 0).length,
    };
  });
}

const summarize = (counts) => {
  const pick = (k) => counts[k] ?? { requests: 0, bytes: 0 };
  const packs = ["manifest", "table", "list", "pages", "records"];
  return {
    ...Object.fromEntries(packs.map((k) => [k, pick(k)])),
    pack_bytes: packs.reduce((s, k) => s + pick(k).bytes, 0),
    pack_requests: packs.reduce((s, k) => s + pick(k).requests, 0),
    app: pick("app"),
    missing: pick("missing").requests,
  };
};

/**
 * PAGE=bare: the checker without the copywriter's page: a page with one line of text that starts
 * the package's Web Worker checker (createWorkerChecker) and registers the service worker, as the
 * page does, and nothing else. Each draft is checked by a call (no paste, no pause after typing,
 * no report drawn): what uniqcheck's own code costs in time and memory, apart from the page's UI.
 */
const BARE = process.env.PAGE === "bare";
const BARE_PAGE = `<!doctype html><html lang=en><meta charset=utf-8><title>bare</title><link rel=icon href="data:,">
<p id=state>loading</p>
<script type=module>
const KEEP = ${process.env.KEEP !== "0"};
import { createWorkerChecker } from "/pkg/worker-client.js";
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js?manifest=%2Fpacks%2Fmanifest.json").catch(() => undefined);
const checker = await createWorkerChecker("/packs/manifest.json", {
  onFetch: (urls) => KEEP && navigator.serviceWorker?.controller?.postMessage({ type: "keep", urls }),
});
window.checker = checker;
document.getElementById("state").textContent = "ready";
</script></html>`;

/**
 * Once a page has loaded the packs: the service worker installed (it fetches the manifest and the
 * table) unless SW=block, what was sent meanwhile, a CDP session on the Web Worker, the idle memory;
 * the worker's fetch list cleared.
 */
async function loaded(browser, page, cdp) {
  if (process.env.SW !== "block") await serviceWorkerReady(page);
  await page.waitForTimeout(500);
  const load = summarize(sent.take());
  const workerSession = await attachWorker(cdp);
  const idle = await memory(browser, page, cdp, workerSession);
  await workerFetches(page);
  return { load, workerSession, idle };
}

/** One draft in the bare page: load, check, a one-word edit, checked again; memory after each. */
async function bareRun(browser, page, cdp, draft) {
  let t = performance.now();
  await page.goto(URL_BASE + "__bare");
  await page.waitForFunction(() => document.getElementById("state").textContent === "ready", null, { timeout: 120_000, polling: 10 });
  const loadMs = performance.now() - t;
  const { load, workerSession, idle } = await loaded(browser, page, cdp);
  const run = (text) =>
    page.evaluate(async (text) => {
      const t = performance.now();
      const report = await window.checker.check(text);
      return { ms: Math.round(performance.now() - t), sources: report.sources.length };
    }, text);
  const cpu0 = await cpuByType(browser);
  const server0 = process.cpuUsage();
  t = performance.now();
  const first = await run(draft);
  const checkMs = performance.now() - t;
  const checkCpu = cpuSpent(cpu0, await cpuByType(browser));
  checkCpu.server = serverCpu(server0);
  const fetches = await workerFetches(page);
  await page.waitForTimeout(300); // the service worker's copies
  const check = summarize(sent.take());
  const afterCheck = await memory(browser, page, cdp, workerSession);
  const words = draft.split(" ");
  words[Math.floor(words.length / 2)] = "zanzibarian";
  t = performance.now();
  const second = await run(words.join(" "));
  const recheckMs = performance.now() - t;
  await page.waitForTimeout(300);
  const recheck = summarize(sent.take());
  const afterRecheck = await memory(browser, page, cdp, workerSession);
  return {
    page: "bare",
    load_ms: Math.round(loadMs),
    load,
    check_ms: Math.round(checkMs),
    check_shown_ms: first.ms,
    check_cpu_ms: checkCpu,
    timeline: [],
    worker_fetches: fetches,
    check,
    recheck_ms: Math.round(recheckMs),
    recheck_shown_ms: second.ms,
    recheck,
    sources: second.sources,
    memory: { idle, after_check: afterCheck, after_recheck: afterRecheck },
  };
}

const manifest = JSON.parse(readFileSync(join(PACKS, "manifest.json"), "utf8"));
const rows = [];
let baseline = null;
try {
  baseline = await baselineMemory();
  console.log("baseline " + JSON.stringify(baseline));
  for (let i = 0; i < COUNT; i++) {
    const draftFile = join(DRAFTS, `draft-${i}.txt`);
    if (!existsSync(draftFile)) break;
    const draft = readFileSync(draftFile, "utf8");
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({
        locale: "en-US",
        viewport: { width: 1280, height: 800 },
        serviceWorkers: process.env.SW === "block" ? "block" : "allow",
      });
      const page = await context.newPage();
      const problems = [];
      page.on("pageerror", (e) => problems.push(e.message));
      page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      sent.take();
      if (BARE) {
        const row = { draft: i, documents: manifest.documents, ...(await bareRun(browser, page, cdp, draft)), problems };
        console.log(JSON.stringify(row));
        rows.push(row);
        await context.close();
        continue;
      }

      // Load: the page, the package, the manifest and the table; the service worker installs.
      let t = performance.now();
      await page.goto(URL_BASE);
      await page.waitForFunction(() => document.getElementById("corpus-info").textContent.trim() !== "", null, {
        timeout: 120_000,
        polling: 10,
      });
      const loadMs = performance.now() - t;
      const { load, workerSession, idle } = await loaded(browser, page, cdp);

      // The first check: paste, the page waits for a pause in typing (400 ms), fetches, checks.
      await page.evaluate(() => {
        // The status line's changes, timed in the page.
        window.__states = [];
        new MutationObserver(() =>
          window.__states.push([performance.now(), document.getElementById("check-state").textContent]),
        ).observe(document.getElementById("check-state"), { childList: true, characterData: true, subtree: true });
      });
      await hookEditor(page);
      await page.focus("#draft");
      const cpu0 = await cpuByType(browser);
      const server0 = process.cpuUsage();
      t = performance.now();
      await page.evaluate((text) => {
        window.__states.push([performance.now(), "paste"]);
        const data = new DataTransfer();
        data.setData("text/plain", text);
        document.getElementById("draft").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      }, draft);
      const checkShown = await waitReport(page);
      const checkMs = performance.now() - t;
      const checkCpu = cpuSpent(cpu0, await cpuByType(browser));
      checkCpu.server = serverCpu(server0);
      const fetches = await workerFetches(page);
      const timeline = await page.evaluate(() => {
        const [t0] = window.__states[0];
        return window.__states.map(([t, s]) => [Math.round(t - t0), s.slice(0, 24)]);
      });
      await page.waitForTimeout(300); // the service worker's copies of what the page fetched
      const check = summarize(sent.take());
      const afterCheck = await memory(browser, page, cdp, workerSession);

      // A one-word edit in the middle: only what is new is fetched.
      t = performance.now();
      await page.evaluate(() => {
        const view = window.__draft();
        const words = view.state.doc.toString().split(" ");
        words[Math.floor(words.length / 2)] = "zanzibarian";
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: words.join(" ") } });
      });
      const recheckShown = await waitReport(page);
      const recheckMs = performance.now() - t;
      await page.waitForTimeout(300);
      const recheck = summarize(sent.take());
      const afterRecheck = await memory(browser, page, cdp, workerSession);
      const sources = await page.locator("#sources .source-title").count();
      const row = {
        draft: i,
        documents: manifest.documents,
        load_ms: Math.round(loadMs),
        load,
        check_ms: Math.round(checkMs),
        check_shown_ms: checkShown,
        check_cpu_ms: checkCpu,
        timeline,
        worker_fetches: fetches,
        check,
        recheck_ms: Math.round(recheckMs),
        recheck_shown_ms: recheckShown,
        recheck,
        sources,
        memory: { idle, after_check: afterCheck, after_recheck: afterRecheck },
        problems,
      };
      console.log(JSON.stringify(row));
      rows.push(row);
      await context.close();
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}

const median = (f) => {
  const v = rows.map(f).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
const max = (f) => Math.max(...rows.map(f));
const first = (f) => ({ median: median(f), max: max(f) });
console.log(
  "summary " +
    JSON.stringify({
      documents: manifest.documents,
      drafts: rows.length,
      load_ms: first((r) => r.load_ms),
      load_pack_bytes: first((r) => r.load.pack_bytes),
      load_app_bytes: first((r) => r.load.app.bytes),
      load_list_bytes: first((r) => r.load.list.bytes),
      check_ms: first((r) => r.check_ms),
      check_shown_ms: first((r) => r.check_shown_ms),
      check_cpu_ms: first((r) => r.check_cpu_ms.total),
      check_pack_bytes: first((r) => r.check.pack_bytes),
      check_pack_requests: first((r) => r.check.pack_requests),
      first_check_bytes_with_manifest_and_table: first((r) => r.check.pack_bytes + r.load.manifest.bytes + r.load.table.bytes),
      first_check_requests_with_manifest_and_table: first((r) => r.check.pack_requests + r.load.manifest.requests + r.load.table.requests),
      recheck_ms: first((r) => r.recheck_ms),
      recheck_shown_ms: first((r) => r.recheck_shown_ms),
      recheck_pack_bytes: first((r) => r.recheck.pack_bytes),
      js_heap_used: first((r) => r.memory.after_recheck.js_heap_used),
      worker_heap_used: first((r) => r.memory.after_recheck.worker_heap_used),
      wasm_memory: first((r) => r.memory.after_recheck.wasm_memory),
      renderer_rss: first((r) => r.memory.after_recheck.renderer_rss),
      renderer_hwm: first((r) => r.memory.after_recheck.renderer_hwm),
      service_worker_heap_used: first((r) => r.memory.after_recheck.service_worker_heap_used ?? 0),
      renderer_private: first((r) => r.memory.after_recheck.renderer_private),
      renderers_private: first((r) => r.memory.after_recheck.renderers_private),
      idle_renderer_rss: first((r) => r.memory.idle.renderer_rss),
      idle_renderer_private: first((r) => r.memory.idle.renderer_private),
      baseline_renderer_rss: baseline?.renderer_rss ?? null,
      baseline_renderer_private: baseline?.renderer_private ?? null,
      problems: rows.reduce((s, r) => s + r.problems.length, 0),
    }),
);
