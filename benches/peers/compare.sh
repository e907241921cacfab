#!/usr/bin/env bash
# Side by side with the peers (issue 7): datasketch (PyPI), npm minhash and gaoya (crates.io)
# against our native engine and our WebAssembly module, on the same documents, one after another
# in one run: sketch throughput, LSH / candidate query latency against 1k, 10k and 100k
# documents, peak RSS. Installs the peers, pinned, under target/peers/ (scripts/setup bench).
# Prints Markdown tables.
# Usage: benches/peers/compare.sh   (UNIQCHECK_DATA overrides <repo>/../shared/data)
#   PEERS_DOCS (default 2000): documents in the sketch-throughput set.
#   PEERS_SIZES (default 1000,10000,100000): the index sizes; the largest is the corpus's.
#   SMOKE=1: every step on a tiny input, to see that it runs (benches/smoke, CI): 200 documents,
#     indexes of 100, 300 and 1,000, one run each, debug builds, results under target/peers/smoke;
#     its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
data="${UNIQCHECK_DATA:-$repo/../shared/data}"
if [ ! -d "$data/20news-bydate" ]; then
  echo "skipping: no 20 Newsgroups at $data/20news-bydate (set UNIQCHECK_DATA)" >&2
  exit 0
fi
say() { printf '\033[1m[peers]\033[0m %s\n' "$*" >&2; }
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
if [ -n "$smoke" ]; then
  out=target/peers/smoke
  docs=${PEERS_DOCS:-200}
  export PEERS_SIZES=${PEERS_SIZES:-100,300,1000}
  runs=1 runs_slow=1
  # The bench project's dev profile: the release one (LTO, one codegen unit) costs minutes.
  profile=debug cargo_profile=()
else
  out=target/peers
  docs=${PEERS_DOCS:-2000}
  runs=5 runs_slow=3
  profile=release cargo_profile=(--release)
fi
mkdir -p "$out"
# Every measurement runs on one thread; keep libraries from starting more.
export RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

# --- our side: the wasm tooling and the npm package; the peers, pinned -------------------------
scripts/setup native wasm bench
[ -f pkg/package.json ] || scripts/build-pkg
if [ -n "$(find src Cargo.toml wasm/src wasm/Cargo.toml -newer pkg/node/uniqcheck_bg.wasm -print -quit)" ]; then
  say "note: pkg/ is older than src/ or wasm/; run scripts/build-pkg for figures of the current engine"
fi

# gaoya and our engine, natively, and the bench wasm module: benches/peers/rust is its own
# workspace (its .cargo/config.toml puts the build in target/peers/rust).
(cd benches/peers/rust && cargo build "${cargo_profile[@]}" --locked --quiet &&
  cargo build "${cargo_profile[@]}" --locked --quiet --lib --target wasm32-unknown-unknown)
wasm_in=target/peers/rust/wasm32-unknown-unknown/$profile/uniqcheck_peers.wasm
# One folder a profile (the smoke run's debug module must never stand in for the release one);
# bench.mjs reads it from PEERS_WASM.
export PEERS_WASM=$out/wasm
wasm_out=$PEERS_WASM
# (Built again too where an older compare.sh left the `nodejs` target's CommonJS glue.)
if [ ! "$wasm_out/uniqcheck_peers_bg.wasm" -nt "$wasm_in" ] || ! grep -qs '"module"' "$wasm_out/package.json"; then
  say "wasm-bindgen and wasm-opt for the bench module"
  rm -rf "$wasm_out"
  # The `web` target (ES modules), instantiated from its bytes by bench.mjs: any JavaScript
  # snippet of the crates it links (none since the facade is its own crate, wasm/) loads as the ES module it
  # is. As `nodejs` (CommonJS) the snippet stopped the run: "Unexpected token 'export'".
  wasm-bindgen --target web --out-dir "$wasm_out" "$wasm_in"
  echo '{ "type": "module" }' > "$wasm_out/package.json"
  # The same optimisation as the npm package (Cargo.toml's wasm-pack profile), npm's binaryen.
  PATH="$repo/node_modules/.bin:$PATH" wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals "$wasm_out/uniqcheck_peers_bg.wasm" -o "$wasm_out/uniqcheck_peers_bg.wasm"
fi

# --- the documents (cached): 100,000 as store/benches/store.rs builds them, 32 drafts, packs ---
peers=target/peers/rust/$profile/uniqcheck-peers
corpus=$out/corpus
"$peers" corpus "$data" "$corpus"

# --- the runs, one after another -----------------------------------------------------------------
results=$out/results.jsonl
: > "$results"
run() {
  say "$*"
  "$@" | tee -a "$results"
}
py=target/peers/venv/bin/python
run "$peers" sketch ours "$corpus" "$docs" "$runs"
run "$peers" sketch gaoya "$corpus" "$docs" "$runs"
run node benches/peers/node/bench.mjs sketch wasm "$corpus" "$docs" "$runs"
run node benches/peers/node/bench.mjs sketch minhash "$corpus" "$docs" "$runs_slow"
run "$py" benches/peers/datasketch_bench.py sketch "$corpus" "$docs" "$runs_slow"
run "$peers" index ours "$corpus" "$runs"
run "$peers" index gaoya "$corpus" "$runs"
run node benches/peers/node/bench.mjs index wasm-candidates "$corpus" "$runs"
run node benches/peers/node/bench.mjs index wasm-check "$corpus" "$runs"
run node --max-old-space-size=4096 benches/peers/node/bench.mjs index minhash "$corpus" "$runs"
run "$py" benches/peers/datasketch_bench.py index "$corpus" "$runs"

echo
python3 benches/peers/table.py "$results"
echo
echo "$(nproc --all) cores, $(uptime | sed 's/.*load average/load average/'); results in $results"

# Indexing into a store, side by side with datasketch's whole pipeline (issue 18): its own script
# (SMOKE passed on).
echo
benches/peers/index.sh
