// WebAssembly pipeline throughput in Debian's headless Chromium: `Checker.sketch` on a list of
// files, best of 5 runs by wall time and by the page thread's CPU time, as
// benches/wasm/throughput.mjs measures it in Node. The page and the
// package's web/ module are served by Playwright's request interception: no server, no network.
// Usage: node benches/wasm/chromium-throughput.mjs FILE...   (needs pkg/, from scripts/build-pkg;
// UNIQCHECK_PKG=DIR measures another build of the package's web/ module)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const pkg = process.env.UNIQCHECK_PKG ? resolve(process.env.UNIQCHECK_PKG) : fileURLToPath(new URL("../../pkg", import.meta.url));
const texts = process.argv.slice(2).map((p) => new TextDecoder().decode(readFileSync(p)));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const origin = "http://bench.invalid";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    // CHROMIUM_JS_FLAGS="--no-liftoff ..." passes V8 flags to the page's engine (to compare its
    // tiers and compilers with Node's).
    ...(process.env.CHROMIUM_JS_FLAGS ? [`--js-flags=${process.env.CHROMIUM_JS_FLAGS}`] : []),
  ],
});
try {
  const page = await browser.newPage();
  await page.route(`${origin}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>uniqcheck throughput</title>" });
    if (path === "/sketch-runs.mjs") return route.fulfill({ contentType: "text/javascript", body: readFileSync(new URL("sketch-runs.mjs", import.meta.url)) });
    const type = path.endsWith(".wasm") ? "application/wasm" : "text/javascript";
    return route.fulfill({ contentType: type, body: readFileSync(join(pkg, "web", path.slice(1))) });
  });
  await page.goto(`${origin}/`);
  // The CPU time of the page's main thread (DevTools' ThreadTime), as the native example and the
  // Node bench read their thread's: on a loaded machine the wall times say more about the load.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const threadTime = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime")?.value;
  await page.evaluate(async (texts) => {
    const wasm = await import("/uniqcheck.js");
    await wasm.default();
    const { bestSketchSeconds } = await import("/sketch-runs.mjs");
    window.bench = { run: () => bestSketchSeconds(window.bench.checker, texts, 1), checker: new wasm.Checker() };
  }, texts);
  // Five runs, one page call each, so that the thread's CPU time can be read around each.
  let seconds = Infinity;
  let cpuSeconds = Infinity;
  for (let run = 0; run < 5; run++) {
    const before = await threadTime();
    seconds = Math.min(seconds, await page.evaluate(() => window.bench.run()));
    const after = await threadTime();
    if (before !== undefined && after !== undefined) cpuSeconds = Math.min(cpuSeconds, after - before);
  }
  const cpu = Number.isFinite(cpuSeconds) ? { cpu_seconds: +cpuSeconds.toFixed(4), cpu_mb_per_s: +(bytes / cpuSeconds / 1e6).toFixed(2) } : {};
  console.log(JSON.stringify({ runtime: "wasm-chromium", work: "sketch", documents: texts.length, bytes, seconds: +seconds.toFixed(4), mb_per_s: +(bytes / seconds / 1e6).toFixed(2), ...cpu }));
} finally {
  await browser.close();
}
