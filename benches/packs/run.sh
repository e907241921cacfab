#!/usr/bin/env bash
# What a browser downloads to check a 1,000-word draft against packs (docs/FORMAT.md): bytes,
# requests and rounds, against the whole packs' bytes, and whether every quoted post was found.
#
# The corpus is 20 Newsgroups' training half (11,314 posts) indexed into a store and packed; the
# drafts quote whole training posts between paragraphs of the test half (benches/packs/fetch.py).
# Each draft is checked with `uniqcheck check --packs`, which reads only the files the draft needs
# in the rounds a browser fetches them (index pages, then records): the same loop as
# the page.
#
# Usage: benches/packs/run.sh [DRAFTS [N...]]   (UNIQCHECK_DATA overrides <repo>/../shared/data; needs python3)
# With sizes N (10000 100000 1000000), then runs benches/packs/scale.sh on them: the same drafts'
# figures against generated corpora of N documents, natively and in the browser.
# SMOKE=1: every step on one newsgroup (talk.religion.misc: its 377 training posts indexed, its
# test posts as new text), 2 drafts by default, the debug CLI that the tests built, in
# target/uniqcheck-bench/packs-smoke: to see that it runs (benches/smoke, CI); SMOKE is passed on
# to scale.sh. Its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}"
train="$data/20news-bydate/20news-bydate-train"
test="$data/20news-bydate/20news-bydate-test"
if [ ! -d "$train" ]; then
  echo "skipping: no 20 Newsgroups at $train (set UNIQCHECK_DATA)" >&2
  exit 0
fi
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
if [ -n "$smoke" ]; then
  train="$train/talk.religion.misc"
  test="$test/talk.religion.misc"
  drafts="${1:-2}"
  cargo build --locked -p uniqcheck-cli --quiet
  bin=target/debug/uniqcheck
  work=target/uniqcheck-bench/packs-smoke
  # Indexed anew every time: the index step is part of what the smoke run checks.
  rm -rf "$work"
else
  drafts="${1:-20}"
  cargo build --release --locked -p uniqcheck-cli --quiet
  bin=target/release/uniqcheck
  work=target/uniqcheck-bench/packs
fi
mkdir -p "$work"
if [ ! -s "$work/train.db" ]; then
  "$bin" index "$train" --db "$work/train.db" --json > "$work/index.json"
fi
rm -rf "$work/packs"
if ! "$bin" pack --db "$work/train.db" -o "$work/packs" --json > "$work/pack.json"; then
  # A store of an older schema or canonicalizer: index the posts again.
  echo "re-indexing $work/train.db" >&2
  rm -rf "$work/train.db" "$work/train.db-wal" "$work/train.db-shm" "$work/packs"
  "$bin" index "$train" --db "$work/train.db" --json > "$work/index.json"
  "$bin" pack --db "$work/train.db" -o "$work/packs" --json > "$work/pack.json"
fi
rm -rf "$work/drafts"
python3 benches/packs/fetch.py "$train" "$test" "$work/drafts" "$drafts" 7
python3 - "$bin" "$work" "$train" "$drafts" <<'PY'
import json, os, subprocess, sys, time
bin, work, train, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pack = json.load(open(f"{work}/pack.json"))
docs = pack["documents"]
print(f"packs: {docs} documents, {pack['bytes']:,} bytes: index {pack['index_bytes'] / docs:.0f} B/document, "
      f"records {pack['record_bytes'] / docs:.0f} B/document")
rows, found, quoted = [], 0, 0
for i in range(n):
    t = time.perf_counter()
    out = subprocess.run([bin, "check", f"{work}/drafts/draft-{i}.txt", "--packs", f"{work}/packs", "--json"],
                         capture_output=True, check=True).stdout
    seconds = time.perf_counter() - t
    r = json.loads(out)
    urls = {s["url"] for s in r["sources"]}
    want = [os.path.relpath(p, train) for p in open(f"{work}/drafts/draft-{i}.quoted").read().split()]
    quoted += len(want)
    found += sum(1 for w in want if w in urls)
    f = r["fetched"]
    rows.append((f["bytes"], f["files"] + 1, f["rounds"], seconds, r["words"], len(r["sources"]), f.get("table_bytes", 0)))
b = sorted(x[0] for x in rows)
req = sorted(x[1] for x in rows)
print(f"drafts: {n}, {sum(x[4] for x in rows) / n:.0f} content words each on average")
print(f"fetched per check: median {b[n // 2]:,} B ({100 * b[n // 2] / pack['bytes']:.1f} % of the packs), "
      f"max {b[-1]:,} B ({100 * b[-1] / pack['bytes']:.1f} %); requests median {req[n // 2]}, max {req[-1]} "
      f"(manifest included), in {max(x[2] for x in rows)} rounds")
t = sorted(x[6] for x in rows)
print(f"of which the page table: median {t[n // 2]:,} B, max {t[-1]:,} B")
print(f"quoted posts found: {found} of {quoted}")
print(f"check time with reading from disk (CLI process included): median {sorted(x[3] for x in rows)[n // 2] * 1000:.0f} ms")
PY
if [ $# -gt 1 ]; then
  DRAFTS="$drafts" benches/packs/scale.sh "${@:2}"
fi
