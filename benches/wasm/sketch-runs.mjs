// The timed loop of the throughput benches, shared by Node (throughput.mjs) and Chromium
// (chromium-throughput.mjs, which serves this file to its page): `checker.sketch` on every text,
// `runs` times; the best run's seconds, and with a `cpuSeconds` clock (Node: the thread's CPU
// time) the best run's CPU seconds too. Texts the engine refuses (empty, binary) count as refused
// natively too.
export function bestSketchSeconds(checker, texts, runs = 5, cpuSeconds = undefined) {
  let best = Infinity;
  let bestCpu = Infinity;
  for (let run = 0; run < runs; run++) {
    const t = performance.now();
    const cpu = cpuSeconds?.();
    let words = 0;
    for (const text of texts) {
      try {
        words += checker.sketch(text).words;
      } catch {
        // empty or binary posts are refused, as natively
      }
    }
    best = Math.min(best, (performance.now() - t) / 1000);
    if (cpu !== undefined) bestCpu = Math.min(bestCpu, cpuSeconds() - cpu);
    if (words === 0) throw new Error("no words");
  }
  return cpuSeconds ? { seconds: best, cpuSeconds: bestCpu } : best;
}
