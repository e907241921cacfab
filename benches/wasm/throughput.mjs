// WebAssembly pipeline throughput in Node on a list of files: the same work as the native
// `examples/throughput.rs` (Checker.sketch runs Document::analyze), best of 5 runs.
// Usage: node benches/wasm/throughput.mjs FILE...   (needs pkg/, from scripts/build-pkg)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const { Checker } = createRequire(import.meta.url)("../../pkg/node/uniqcheck.js");
const texts = process.argv.slice(2).map((p) => new TextDecoder().decode(readFileSync(p)));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const checker = new Checker();
let best = Infinity;
for (let run = 0; run < 5; run++) {
  const t = performance.now();
  let words = 0;
  for (const text of texts) {
    try {
      words += checker.sketch(text).words;
    } catch {
      // empty or binary posts are refused, as natively
    }
  }
  best = Math.min(best, (performance.now() - t) / 1000);
  if (words === 0) throw new Error("no words");
}
console.log(JSON.stringify({ runtime: "wasm-node", documents: texts.length, bytes, seconds: +best.toFixed(4), mb_per_s: +(bytes / best / 1e6).toFixed(2) }));
