// WebAssembly pipeline throughput in Node on a list of files: the same work as the `sketch` line of
// the native `examples/throughput.rs` (Checker.sketch runs Document::analyze, the text statistics
// and the disguises, then builds the JS result), PASSES passes (20 by default) timed by wall and by
// the thread's CPU time: the steady state (median of the last half) and the first pass, as the
// native example reports them (sketch-runs.mjs).
// Usage: [PASSES=N] node benches/wasm/throughput.mjs FILE...   (needs pkg/, from scripts/build-pkg;
// UNIQCHECK_PKG=DIR measures another build of the package's node/ module)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { DEFAULT_PASSES, sketchPass, summary } from "./sketch-runs.mjs";

const pkg = process.env.UNIQCHECK_PKG ? resolve(process.env.UNIQCHECK_PKG) : new URL("../../pkg", import.meta.url).pathname;
const { Checker } = createRequire(import.meta.url)(`${pkg}/node/uniqcheck.js`);
const texts = process.argv.slice(2).map((p) => new TextDecoder().decode(readFileSync(p)));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const passCount = Number(process.env.PASSES) || DEFAULT_PASSES;
// The main thread's CPU time (Linux), as the native example reads its own: on a loaded machine
// the figures that compare. The kernel adds a running thread's time to schedstat only at a tick
// or a switch (a read could lag by a millisecond or more, where the native example's clock is
// exact); a wait of 50 µs first switches the thread out, which brings the figure up to date.
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const cpuSeconds = () => {
  try {
    Atomics.wait(sleeper, 0, 0, 0.05);
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e9;
  } catch {
    return undefined;
  }
};
const checker = new Checker();
const passes = Array.from({ length: passCount }, () => sketchPass(checker, texts, cpuSeconds));
console.log(JSON.stringify({ runtime: "wasm-node", work: "sketch", documents: texts.length, bytes, ...summary(passes, bytes) }));
