#!/usr/bin/env bash
# Indexing throughput of `uniqcheck index` on 20 Newsgroups with 1 and 2 analysis threads:
# the whole pipeline (walk, read, decode, analyse, write to SQLite), as a user runs it.
# Usage: server/benches/index.sh   (UNIQCHECK_DATA overrides <repo>/../shared/data)
# SMOKE=1: every step on one newsgroup of the training half (377 posts) with the debug CLI that the
#   tests built: to see that it runs (benches/smoke, CI); its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}/20news-bydate"
if [ ! -d "$data" ]; then
  echo "skipping: no 20 Newsgroups at $data (set UNIQCHECK_DATA)" >&2
  exit 0
fi
if [ -n "${SMOKE:-}" ] && [ "$SMOKE" != 0 ]; then
  data="$data/20news-bydate-train/talk.religion.misc"
  cargo build --locked -p uniqcheck-cli --quiet
  bin=./target/debug/uniqcheck
else
  cargo build --release --locked -p uniqcheck-cli --quiet
  bin=./target/release/uniqcheck
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for threads in 1 2; do
  "$bin" index "$data" --db "$out/news-$threads.db" --threads "$threads" \
    --json > "$out/summary-$threads.json"
  python3 - "$threads" "$out/summary-$threads.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
print(f"threads={sys.argv[1]}: {s['added']} documents, {s['bytes']/1e6:.1f} MB in {s['seconds']:.2f} s: "
      f"{s['documents_per_second']:.0f} documents/s, {s['megabytes_per_second']:.2f} MB/s")
PY
done
# Re-indexing unchanged files: hashes only, no analysis, no write.
"$bin" index "$data" --db "$out/news-2.db" --json > "$out/again.json"
python3 - "$out/again.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"re-index, unchanged: {s['unchanged']} documents in {s['seconds']:.2f} s ({s['documents_per_second']:.0f} documents/s)")
PY
ls -l "$out"/news-2.db | awk '{print "store file: " $5 " bytes"}'
"$bin" pack --db "$out/news-2.db" -o "$out/packs"
