// The timed passes of the throughput benches, shared by Node (throughput.mjs) and Chromium
// (chromium-throughput.mjs, which serves this file to its page), and summed up as the native
// example (examples/throughput.rs) sums up its own: `checker.sketch` on every text, once a pass;
// every pass's figures, the first pass's (a user's single check meets a cold word cache and, in
// V8, code not yet optimised) and the steady state's (the median of the last half of the passes).
// Texts the engine refuses (empty, binary) count as refused natively too.

/// Passes a run makes: PASSES in the environment (Node), 20 by default. The three programs of
/// benches/wasm/run.sh take the same number.
export const DEFAULT_PASSES = 20;

/// One pass over `texts`: wall seconds, and with a `cpuSeconds` clock (Node: the thread's CPU
/// time) CPU seconds too.
export function sketchPass(checker, texts, cpuSeconds = undefined) {
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
  const seconds = (performance.now() - t) / 1000;
  const cpuTaken = cpu === undefined ? undefined : cpuSeconds() - cpu;
  if (words === 0) throw new Error("no words");
  return { seconds, cpuSeconds: cpuTaken };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, digits) => +x.toFixed(digits);

/// The JSON fields of a run of passes (`{ seconds, cpuSeconds }` each, in order) over `bytes`
/// bytes, named as the native example names them: `mb_per_s` and `cpu_mb_per_s` are the steady
/// state's, `first_*` the first pass's, `pass_*` every pass's.
export function summary(passes, bytes) {
  const steady = passes.slice(passes.length >> 1);
  const rate = (s) => round(bytes / s / 1e6, 2);
  const fields = {
    passes: passes.length,
    seconds: round(median(steady.map((p) => p.seconds)), 4),
    mb_per_s: rate(median(steady.map((p) => p.seconds))),
    first_mb_per_s: rate(passes[0].seconds),
  };
  if (passes.every((p) => Number.isFinite(p.cpuSeconds) && p.cpuSeconds > 0)) {
    const cpu = median(steady.map((p) => p.cpuSeconds));
    Object.assign(fields, {
      cpu_seconds: round(cpu, 4),
      cpu_mb_per_s: rate(cpu),
      first_cpu_mb_per_s: rate(passes[0].cpuSeconds),
      pass_cpu_mb_per_s: passes.map((p) => rate(p.cpuSeconds)),
    });
  } else {
    fields.pass_mb_per_s = passes.map((p) => rate(p.seconds));
  }
  return fields;
}
