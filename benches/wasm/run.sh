#!/usr/bin/env bash
# Side-by-side: the WebAssembly module against the native engine on the same texts, and check
# latency in headless Chromium. Prints JSON lines and the ratio. Figures go in docs/PERFORMANCE.md.
# Usage: benches/wasm/run.sh [DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-${UNIQCHECK_DATA:-../shared/data}}
[ -d "$data/20news-bydate" ] || { echo "20 Newsgroups not found under $data: nothing to measure" >&2; exit 0; }
scripts/setup native wasm browser
[ -f pkg/package.json ] || scripts/build-pkg
cargo build --release --locked -p uniqcheck-cli
cargo build --release --locked -p uniqcheck --example throughput
mapfile -t files < <(find "$data/20news-bydate/20news-bydate-train" -type f | sort | awk 'NR % 3 == 0' | head -n 3000)
native=$(target/release/examples/throughput "${files[@]}")
wasm=$(node benches/wasm/throughput.mjs "${files[@]}")
echo "$native"
echo "$wasm"
node -e 'const [n, w] = process.argv.slice(1).map(JSON.parse); console.log(`wasm/native throughput: ${(w.mb_per_s / n.mb_per_s).toFixed(2)}`)' "$native" "$wasm"
gzip -9 -c pkg/web/uniqcheck_bg.wasm | wc -c | xargs -I{} echo "uniqcheck_bg.wasm: $(stat -c %s pkg/web/uniqcheck_bg.wasm) bytes, {} gzipped"
node benches/wasm/chromium.mjs "$data"
