#!/usr/bin/env bash
# Side-by-side: the WebAssembly module (in Node and in headless Chromium) against the native
# engine on the same texts, and check latency in headless Chromium. Prints JSON lines and the ratio. Figures go in docs/PERFORMANCE.md.
# Usage: benches/wasm/run.sh [DATA_DIR]
# SMOKE=1: every step on 20 posts, 2 passes, the Chromium check against 200 indexed posts with 3
#   runs, with the package (pkg/) and the debug builds that the tests made, plus encode.mjs and
#   profile.mjs (which the real run leaves to be run by hand): to see that it runs (benches/smoke,
#   CI). Its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-${UNIQCHECK_DATA:-../shared/data}}
[ -d "$data/20news-bydate" ] || { echo "20 Newsgroups not found under $data: nothing to measure" >&2; exit 0; }
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
scripts/setup native wasm browser
if [ -n "$smoke" ]; then
  # The package scripts/test built (its wasm is release either way); built here only if missing.
  [ -f pkg/package.json ] || scripts/build-pkg
  cargo build --locked --quiet -p uniqcheck-cli
  cargo build --locked --quiet -p uniqcheck --example throughput
  export PASSES=${PASSES:-2} BENCH_DOCS=${BENCH_DOCS:-200} BENCH_RUNS=${BENCH_RUNS:-3}
  export UNIQCHECK_BIN=${UNIQCHECK_BIN:-$PWD/target/debug/uniqcheck}
  example=target/debug/examples/throughput
  count=20
else
  # Always built from this tree: a pkg/ left from another commit was measured before (and failed
  # to read packs of the current format).
  scripts/build-pkg
  cargo build --release --locked -p uniqcheck-cli
  cargo build --release --locked -p uniqcheck --example throughput
  example=target/release/examples/throughput
  count=3000
fi
mapfile -t files < <(find "$data/20news-bydate/20news-bydate-train" -type f | sort | awk 'NR % 3 == 0' | head -n "$count")
native=$("$example" "${files[@]}")
node=$(node benches/wasm/throughput.mjs "${files[@]}")
chromium=$(node benches/wasm/chromium-throughput.mjs "${files[@]}")
echo "$native"
echo "$node"
echo "$chromium"
# wasm against native for the same work (Checker.sketch: analysis, statistics, disguises), and
# against the analysis alone; every program makes PASSES passes (20 by default), from a cold word
# cache and, in V8, unoptimised code: the steady state (median of the last half of the passes)
# and the first pass (what a user's single check meets).
node -e '
  const lines = process.argv.slice(1).join("\n").split("\n").map(JSON.parse);
  const line = (runtime, work) => lines.find((l) => l.runtime === runtime && l.work === work);
  const by = (runtime, work, field = "mb_per_s") => line(runtime, work)[field];
  for (const rt of ["wasm-node", "wasm-chromium"])
    console.log(`${rt}/native throughput, steady: ${(by(rt, "sketch") / by("native", "sketch")).toFixed(2)} (same work), ${(by(rt, "sketch") / by("native", "analyze")).toFixed(2)} (against the analysis alone)`);
  // By the thread'"'"'s CPU time where all sides give it (Linux): steadier on a loaded machine.
  for (const rt of ["wasm-node", "wasm-chromium"])
    if (by(rt, "sketch", "cpu_mb_per_s") && by("native", "sketch", "cpu_mb_per_s"))
      console.log(`${rt}/native by CPU time (same work): steady ${(by(rt, "sketch", "cpu_mb_per_s") / by("native", "sketch", "cpu_mb_per_s")).toFixed(3)}, first pass ${(by(rt, "sketch", "first_cpu_mb_per_s") / by("native", "sketch", "first_cpu_mb_per_s")).toFixed(3)}`);
' "$native" "$node" "$chromium"
gzip -9 -c pkg/web/uniqcheck_bg.wasm | wc -c | xargs -I{} echo "uniqcheck_bg.wasm: $(stat -c %s pkg/web/uniqcheck_bg.wasm) bytes, {} gzipped"
node benches/wasm/chromium.mjs "$data"
if [ -n "$smoke" ]; then
  # The scripts run by hand (docs/PERFORMANCE.md), kept running. stages.mjs is not: it needs the
  # wasm32-wasip1 target, which scripts/setup does not install.
  node benches/wasm/encode.mjs
  WARM=1 PROFILED=1 ROWS=3 OUT="$(mktemp -d)" node benches/wasm/profile.mjs pkg "${files[@]:0:5}"
fi
