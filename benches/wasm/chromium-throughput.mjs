// WebAssembly pipeline throughput in Debian's headless Chromium: `Checker.sketch` on a list of
// files, PASSES passes (20 by default), each timed by wall and by the CPU time of the thread that
// runs it, summed up as benches/wasm/throughput.mjs sums up Node's (sketch-runs.mjs: the steady
// state, the median of the last half, and the first pass). The page and the package's web/ module
// are served by Playwright's request interception: no server, no network.
// Usage: [PASSES=N] node benches/wasm/chromium-throughput.mjs FILE...   (needs pkg/, from
// scripts/build-pkg; UNIQCHECK_PKG=DIR measures another build of the package's web/ module)
// To compare how the page runs the module (all give the same JSON line, with these as fields):
//   CHROMIUM_JS_FLAGS="--no-liftoff ..."  V8 flags for the page's engine;
//   CHROMIUM_THREAD=worker                in a dedicated Web Worker instead of the page's thread;
//   CHROMIUM_COMPILE=bytes|sync           the module compiled from its bytes (WebAssembly.instantiate,
//                                         or new WebAssembly.Module and initSync) instead of
//                                         streamed from its response (instantiateStreaming, the
//                                         glue's default).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { DEFAULT_PASSES, summary } from "./sketch-runs.mjs";

const pkg = process.env.UNIQCHECK_PKG ? resolve(process.env.UNIQCHECK_PKG) : fileURLToPath(new URL("../../pkg", import.meta.url));
const texts = process.argv.slice(2).map((p) => new TextDecoder().decode(readFileSync(p)));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const passCount = Number(process.env.PASSES) || DEFAULT_PASSES;
const inWorker = process.env.CHROMIUM_THREAD === "worker";
const compile = process.env.CHROMIUM_COMPILE || "streaming";
if (!["streaming", "bytes", "sync"].includes(compile)) throw new Error(`CHROMIUM_COMPILE=${compile}: streaming, bytes or sync`);
const origin = "http://bench.invalid";

// The CPU time of the thread that runs the passes, read from /proc as the Node bench reads its
// own: the renderers' main threads (thread id = process id) or their dedicated workers, summed
// over every renderer this browser started (the idle ones add nothing measurable). DevTools'
// ThreadTime gives the page's main thread only.
const ancestors = (pid) => {
  const chain = [];
  for (let p = pid; p > 1; ) {
    chain.push(p);
    try {
      p = Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    } catch {
      break;
    }
  }
  return chain;
};
const threadCpuSeconds = () => {
  let ns = 0;
  let found = false;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer") || !ancestors(pid).includes(process.pid)) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
        const ours = inWorker ? readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").startsWith("DedicatedWorker") : tid === pid;
        if (!ours) continue;
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
        found = true;
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return found ? ns / 1e9 : undefined;
};

// The page's (or the worker's) side: load the module as asked, then one pass per message.
const runner = `
  const setup = async (compile) => {
    const wasm = await import("/uniqcheck.js");
    const url = "/uniqcheck_bg.wasm";
    if (compile === "streaming") await wasm.default({ module_or_path: url });
    else if (compile === "bytes") await wasm.default({ module_or_path: await (await fetch(url)).arrayBuffer() });
    else wasm.initSync({ module: new WebAssembly.Module(await (await fetch(url)).arrayBuffer()) });
    const { sketchPass } = await import("/sketch-runs.mjs");
    const checker = new wasm.Checker();
    return (texts) => sketchPass(checker, texts).seconds;
  };
`;
const worker = `${runner}
  let pass, texts;
  onmessage = async ({ data }) => {
    if (data.compile) {
      pass = await setup(data.compile);
      texts = data.texts;
      postMessage("ready");
    } else postMessage(pass(texts));
  };
`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    ...(process.env.CHROMIUM_JS_FLAGS ? [`--js-flags=${process.env.CHROMIUM_JS_FLAGS}`] : []),
  ],
});
try {
  const page = await browser.newPage();
  await page.route(`${origin}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><meta charset=utf-8><title>uniqcheck throughput</title>" });
    if (path === "/sketch-runs.mjs") return route.fulfill({ contentType: "text/javascript", body: readFileSync(new URL("sketch-runs.mjs", import.meta.url)) });
    if (path === "/worker.mjs") return route.fulfill({ contentType: "text/javascript", body: worker });
    const type = path.endsWith(".wasm") ? "application/wasm" : "text/javascript";
    return route.fulfill({ contentType: type, body: readFileSync(join(pkg, "web", path.slice(1))) });
  });
  await page.goto(`${origin}/`);
  await page.evaluate(
    async ({ runner, texts, compile, inWorker }) => {
      if (inWorker) {
        const w = new Worker("/worker.mjs", { type: "module" });
        const reply = () => new Promise((ok, fail) => ((w.onmessage = ({ data }) => ok(data)), (w.onerror = (e) => fail(new Error(e.message)))));
        const ready = reply();
        w.postMessage({ compile, texts });
        await ready;
        window.pass = () => {
          const seconds = reply();
          w.postMessage({});
          return seconds;
        };
      } else {
        const pass = await new Function(`${runner}; return setup;`)()(compile);
        window.pass = () => pass(texts);
      }
    },
    { runner, texts, compile, inWorker },
  );
  // One page call a pass, so that the thread's CPU time can be read around each.
  const passes = [];
  for (let i = 0; i < passCount; i++) {
    const before = threadCpuSeconds();
    const seconds = await page.evaluate(() => window.pass());
    const after = threadCpuSeconds();
    passes.push({ seconds, cpuSeconds: before === undefined || after === undefined ? undefined : after - before });
  }
  const how = { thread: inWorker ? "worker" : "page", compile, ...(process.env.CHROMIUM_JS_FLAGS ? { js_flags: process.env.CHROMIUM_JS_FLAGS } : {}) };
  console.log(JSON.stringify({ runtime: "wasm-chromium", work: "sketch", ...how, documents: texts.length, bytes, ...summary(passes, bytes) }));
} finally {
  await browser.close();
}
