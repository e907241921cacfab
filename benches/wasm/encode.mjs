// TextEncoder.encodeInto, the call that copies every text into the module (wasm/src/lib.rs,
// `string_arg`), alone in Node and in headless Chromium: one 5 MB text (per byte) and 3,000
// short ones (per call), ASCII and with one character outside Latin-1 (a two-byte string in V8),
// into a view of a WebAssembly memory as the module's own copy does. Best of 7, ms.
// Usage: node benches/wasm/encode.mjs
import { chromium } from "playwright-core";

const bench = () => {
  const memory = new WebAssembly.Memory({ initial: 600 });
  const encoder = new TextEncoder();
  const short = Array.from({ length: 3000 }, (_, i) => `word ${i}`);
  const long = "lorem ipsum dolor sit amet, ".repeat(184000);
  const twoByte = `${long}\u2019`;
  const into = (t) => encoder.encodeInto(t, new Uint8Array(memory.buffer, 1024, t.length * 3)).written;
  const ways = {
    short_3000_calls: () => short.reduce((n, t) => n + into(t), 0),
    long_5MB: () => into(long),
    long_5MB_two_byte: () => into(twoByte),
  };
  const best = { bytes: long.length };
  for (let round = 0; round < 7; round++)
    for (const [k, f] of Object.entries(ways)) {
      const t = performance.now();
      f();
      best[k] = +Math.min(best[k] ?? Infinity, performance.now() - t).toFixed(2);
    }
  return best;
};

console.log(JSON.stringify({ runtime: `node ${process.version}`, ...bench() }));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
try {
  const page = await browser.newPage();
  await page.setContent("<!doctype html><title>encodeInto</title>");
  console.log(JSON.stringify({ runtime: `chromium ${browser.version()}`, ...(await page.evaluate(bench)) }));
} finally {
  await browser.close();
}
