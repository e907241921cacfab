#!/usr/bin/env bash
# Side by side with the peers (issue 7): datasketch (PyPI), npm minhash and gaoya (crates.io)
# against our native engine and our WebAssembly module, on the same documents, one after another
# in one run: sketch throughput, LSH / candidate query latency against 1k, 10k and 100k
# documents, peak RSS. Installs the peers, pinned, under target/peers/. Prints Markdown tables.
# Usage: benches/peers/compare.sh   (UNIQCHECK_DATA overrides <repo>/../shared/data)
#   PEERS_DOCS (default 2000): documents in the sketch-throughput set.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
data="${UNIQCHECK_DATA:-$repo/../shared/data}"
if [ ! -d "$data/20news-bydate" ]; then
  echo "skipping: no 20 Newsgroups at $data/20news-bydate (set UNIQCHECK_DATA)" >&2
  exit 0
fi
say() { printf '\033[1m[peers]\033[0m %s\n' "$*" >&2; }
out=target/peers
mkdir -p "$out"
docs=${PEERS_DOCS:-2000}
# Every measurement runs on one thread; keep libraries from starting more.
export RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

# --- our side: the wasm tooling and the npm package -------------------------------------------
scripts/setup native wasm
[ -f pkg/package.json ] || scripts/build-pkg
if [ -n "$(find src Cargo.toml wasm/src wasm/Cargo.toml -newer pkg/node/uniqcheck_bg.wasm -print -quit)" ]; then
  say "note: pkg/ is older than src/ or wasm/; run scripts/build-pkg for figures of the current engine"
fi

# --- the peers, pinned ---------------------------------------------------------------------------
if ! cmp -s benches/peers/requirements.txt "$out/venv/requirements.txt"; then
  say "datasketch into $out/venv (PyPI)"
  rm -rf "$out/venv"
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install --quiet -r benches/peers/requirements.txt
  cp benches/peers/requirements.txt "$out/venv/requirements.txt"
fi
if ! cmp -s benches/peers/node/package-lock.json "$out/node/package-lock.json" || [ ! -d "$out/node/node_modules/minhash" ]; then
  say "minhash into $out/node (npm ci)"
  rm -rf "$out/node"
  mkdir -p "$out/node"
  cp benches/peers/node/package.json benches/peers/node/package-lock.json "$out/node/"
  (cd "$out/node" && npm ci --no-audit --no-fund --silent)
fi
# gaoya and our engine, natively, and the bench wasm module: benches/peers/rust is its own
# workspace (its .cargo/config.toml puts the build in target/peers/rust).
(cd benches/peers/rust && cargo build --release --locked --quiet &&
  cargo build --release --locked --quiet --lib --target wasm32-unknown-unknown)
wasm_in=$out/rust/wasm32-unknown-unknown/release/uniqcheck_peers.wasm
if [ ! "$out/wasm/uniqcheck_peers_bg.wasm" -nt "$wasm_in" ]; then
  say "wasm-bindgen and wasm-opt for the bench module"
  rm -rf "$out/wasm"
  wasm-bindgen --target nodejs --out-dir "$out/wasm" "$wasm_in"
  # The bench module links the engine alone: the facade (wasm/) and its ES-module snippet, which
  # this CommonJS glue could not load, are the npm package's (loaded from pkg/ as Node loads it).
  if [ -d "$out/wasm/snippets" ]; then
    echo "$out/wasm: the bench module has JS snippets; it must link the engine, not the facade" >&2; exit 1
  fi
  echo '{ "type": "commonjs" }' > "$out/wasm/package.json"
  # The same optimisation as the npm package (Cargo.toml's wasm-pack profile), npm's binaryen.
  PATH="$repo/node_modules/.bin:$PATH" wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals "$out/wasm/uniqcheck_peers_bg.wasm" -o "$out/wasm/uniqcheck_peers_bg.wasm"
fi

# --- the documents (cached): 100,000 as store/benches/store.rs builds them, 32 drafts, packs ---
peers=$out/rust/release/uniqcheck-peers
corpus=$out/corpus
"$peers" corpus "$data" "$corpus"

# --- the runs, one after another -----------------------------------------------------------------
results=$out/results.jsonl
: > "$results"
run() {
  say "$*"
  "$@" | tee -a "$results"
}
py=$out/venv/bin/python
run "$peers" sketch ours "$corpus" "$docs" 5
run "$peers" sketch gaoya "$corpus" "$docs" 5
run node benches/peers/node/bench.mjs sketch wasm "$corpus" "$docs" 5
run node benches/peers/node/bench.mjs sketch minhash "$corpus" "$docs" 3
run "$py" benches/peers/datasketch_bench.py sketch "$corpus" "$docs" 3
run "$peers" index ours "$corpus" 5
run "$peers" index gaoya "$corpus" 5
run node benches/peers/node/bench.mjs index wasm-candidates "$corpus" 5
run node benches/peers/node/bench.mjs index wasm-check "$corpus" 5
run node --max-old-space-size=4096 benches/peers/node/bench.mjs index minhash "$corpus" 5
run "$py" benches/peers/datasketch_bench.py index "$corpus" 5

echo
python3 benches/peers/table.py "$results"
echo
echo "$(nproc --all) cores, $(uptime | sed 's/.*load average/load average/'); results in $results"

# Indexing into a store, side by side with datasketch's whole pipeline (issue 18): its own script.
echo
benches/peers/index.sh
