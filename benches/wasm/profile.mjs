// Where Chromium and Node spend `Checker.sketch`'s time, function by function: the same web/
// module run in both, warmed up, then profiled by V8's sampling profiler through the same
// DevTools protocol (node:inspector in Node, a CDP session in Chromium), each function's share of
// the samples times the thread's CPU time a pass. Prints the functions whose time differs most,
// in ms a pass (Node, Chromium, difference), and writes both profiles (.cpuprofile, for DevTools)
// to OUT (default /tmp).
// Usage: node benches/wasm/profile.mjs PKG FILE...
// PKG is a package directory whose web/ holds the module and its glue. Functions keep their Rust
// names when the module keeps its name section, e.g. built from the target directory after
// scripts/build-pkg:
//   wasm-bindgen --target web --keep-debug --out-dir /tmp/named-bg --out-name uniqcheck \
//     target/wasm32-unknown-unknown/release/uniqcheck.wasm
//   mkdir -p /tmp/named && cp -r pkg/* /tmp/named/ && node_modules/.bin/wasm-opt -O3 -g \
//     --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
//     --enable-mutable-globals --enable-simd /tmp/named-bg/uniqcheck_bg.wasm \
//     -o /tmp/named/web/uniqcheck_bg.wasm
// (the name section changes no code; the glue of pkg/web fits the module as long as the imports'
// names are the same, which `grep -o '__wbg_[a-z_0-9]*'` on both glues shows).
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const [pkgArg, ...files] = process.argv.slice(2);
const web = join(resolve(pkgArg), "web");
const out = process.env.OUT || "/tmp";
const texts = files.map((p) => new TextDecoder().decode(readFileSync(p)));
// Passes before profiling, and profiled (WARM, PROFILED: benches/wasm/run.sh's smoke run makes them 1).
const [WARM, PROFILED] = [Number(process.env.WARM) || 12, Number(process.env.PROFILED) || 16];
// One pass, as sketch-runs.mjs runs it; passed to the page as source.
const passSource = `(checker, texts) => {
  let words = 0;
  for (const t of texts) {
    try { words += checker.sketch(t).words; } catch {}
  }
  return words;
}`;

async function inNode() {
  const wasm = await import(join(web, "uniqcheck.js"));
  wasm.initSync({ module: readFileSync(join(web, "uniqcheck_bg.wasm")) });
  const checker = new wasm.Checker();
  const pass = eval(passSource);
  for (let i = 0; i < WARM; i++) pass(checker, texts);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e9;
  await session.post("Profiler.start");
  const before = cpu();
  for (let i = 0; i < PROFILED; i++) pass(checker, texts);
  const seconds = (cpu() - before) / PROFILED;
  const { profile } = await session.post("Profiler.stop");
  return { profile, seconds };
}

async function inChromium() {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", ...(process.env.CHROMIUM_JS_FLAGS ? [`--js-flags=${process.env.CHROMIUM_JS_FLAGS}`] : [])],
  });
  try {
    const page = await browser.newPage();
    await page.route("http://bench.invalid/**", (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>profile</title>" });
      return route.fulfill({ contentType: path.endsWith(".wasm") ? "application/wasm" : "text/javascript", body: readFileSync(join(web, path.slice(1))) });
    });
    await page.goto("http://bench.invalid/");
    await page.evaluate(
      async ({ texts, passSource }) => {
        const wasm = await import("/uniqcheck.js");
        await wasm.default({ module_or_path: "/uniqcheck_bg.wasm" });
        const checker = new wasm.Checker();
        const pass = eval(passSource);
        window.passes = (n) => {
          for (let i = 0; i < n; i++) pass(checker, texts);
        };
      },
      { texts, passSource },
    );
    await page.evaluate((n) => window.passes(n), WARM);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const threadTime = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value;
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    const before = await threadTime();
    await page.evaluate((n) => window.passes(n), PROFILED);
    const seconds = ((await threadTime()) - before) / PROFILED;
    const { profile } = await cdp.send("Profiler.stop");
    return { profile, seconds };
  } finally {
    await browser.close();
  }
}

/// Milliseconds a pass by function name (self time).
function byFunction({ profile, seconds }) {
  const samples = new Map();
  let total = 0;
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const name = (f.functionName || `(${f.url.split("/").pop()}:${f.lineNumber})`).replace(/::h[0-9a-f]{16}$/, "");
    samples.set(name, (samples.get(name) || 0) + n.hitCount);
    total += n.hitCount;
  }
  return new Map([...samples].map(([k, v]) => [k, (v / total) * seconds * 1000]));
}

const node = await inNode();
const browser = await inChromium();
writeFileSync(join(out, "sketch-node.cpuprofile"), JSON.stringify(node.profile));
writeFileSync(join(out, "sketch-chromium.cpuprofile"), JSON.stringify(browser.profile));
const [a, b] = [byFunction(node), byFunction(browser)];
const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => [k, a.get(k) || 0, b.get(k) || 0]);
rows.sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
const ms = (x) => x.toFixed(2).padStart(7);
console.log(`ms a pass (CPU): Node ${ms(node.seconds * 1000)}, Chromium ${ms(browser.seconds * 1000)}`);
console.log("   Node Chromium   diff  function (largest differences first)");
for (const [k, x, y] of rows.slice(0, Number(process.env.ROWS) || 20)) console.log(`${ms(x)} ${ms(y)} ${ms(y - x)}  ${k.slice(0, 100)}`);
