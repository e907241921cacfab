#!/usr/bin/env bash
# Indexing side by side (issue 18): `uniqcheck index` into a fresh store, with 1 and 2 analysis
# threads, against datasketch's whole pipeline (read, lowercase, split, 4-shingles, MinHash through
# `MinHash.generator`) on the same documents, the 18,846 posts of 20 Newsgroups, one after
# another in one run. Prints one Markdown table with the ratios.
#
# Two throughputs per row, since our indexer overlaps its stages on several threads and
# datasketch runs on one: MB of text per second of wall-clock time, and MB per CPU-second (user +
# system time of the whole process: every thread's work, SQLite's included). For datasketch the
# two differ only by the waits for a core (in wall time only), so datasketch's CPU time is
# measured too. `read`, `analysis` and `store` are our JSON summary's `read_seconds` (the reader
# thread opening and reading files, wall time; builds before it read on the analysis threads and
# have none), `analysis_seconds` (decoding, analysing and preparing rows, wall time summed over
# the analysis threads),
# `store_seconds` (the writer's transactions, wall time) and `store_cpu_seconds` (the writer
# thread's CPU time in them): the store's own cost, apart from the analysis. On a loaded machine
# the wall times grow with the waits; the CPU times do not.
#
# Usage: benches/peers/index.sh   (UNIQCHECK_DATA overrides <repo>/../shared/data)
#   RUNS (default 3): runs of each row, the best (by wall time) kept.
#   BEFORE=path/to/uniqcheck: also rows for another build (before/after in one run).
#   SMOKE=1: every step on one newsgroup of the training half (377 posts), one run, the debug CLI
#     that the tests built: to see that it runs (benches/smoke, CI); its figures mean nothing.
# benches/peers/compare.sh runs it at its end; alone, it installs datasketch (scripts/setup bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}"
posts="$data/20news-bydate"
if [ ! -d "$posts" ]; then
  echo "skipping: no 20 Newsgroups at $posts (set UNIQCHECK_DATA)" >&2
  exit 0
fi
say() { printf '\033[1m[index]\033[0m %s\n' "$*" >&2; }
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
if [ -n "$smoke" ]; then
  posts="$posts/20news-bydate-train/talk.religion.misc"
  out=target/peers/smoke/index
  runs=${RUNS:-1}
else
  out=target/peers/index
  runs=${RUNS:-3}
fi
mkdir -p "$out"
# datasketch on one thread, as in compare.sh (our indexer sizes its own pool: --threads).
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
scripts/setup bench
if [ -n "$smoke" ]; then
  cargo build --locked -p uniqcheck-cli --quiet
  bin=target/debug/uniqcheck
else
  cargo build --release --locked -p uniqcheck-cli --quiet
  bin=target/release/uniqcheck
fi
results=$out/results.jsonl
: > "$results"

say "datasketch: whole pipeline on every post, best of $runs"
target/peers/venv/bin/python benches/peers/datasketch_bench.py files "$posts" "$runs" | tee -a "$results"

# One `uniqcheck index` run into a fresh store: its JSON summary plus the process's times.
index_run() {
  local label=$1 bin=$2 threads=$3 db=$out/store.db
  rm -f "$db" "$db-wal" "$db-shm"
  /usr/bin/time -f '{"wall": %e, "user": %U, "sys": %S}' -o "$out/time.json" \
    "$bin" index "$posts" --db "$db" --threads "$threads" --json > "$out/summary.json"
  python3 - "$label" "$threads" "$out/summary.json" "$out/time.json" <<'PY'
import json, sys
label, threads, summary, times = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
print(json.dumps({"tool": "uniqcheck", "row": label, "threads": threads, "documents": summary["added"],
                  "bytes": summary["bytes"], "wall": times["wall"], "cpu": round(times["user"] + times["sys"], 2),
                  "read_seconds": summary.get("read_seconds"), "analysis_seconds": summary.get("analysis_seconds"), "store_seconds": summary.get("store_seconds"),
                  "store_cpu_seconds": summary.get("store_cpu_seconds")}))
PY
  rm -f "$db" "$db-wal" "$db-shm"
}
builds=("this build=$bin")
[ -n "${BEFORE:-}" ] && builds+=("before=$BEFORE")
for build in "${builds[@]}"; do
  for threads in 1 2; do
    say "uniqcheck index, ${build%%=*}, $threads analysis thread(s), $runs runs"
    for _ in $(seq "$runs"); do
      index_run "${build%%=*}" "${build#*=}" "$threads" | tee -a "$results"
    done
  done
done

echo
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
ds = next(r for r in rows if r["tool"] == "datasketch")
ds_mb, ds_cpu = ds["mb_per_s"], ds["mb_per_cpu_s"]
best = {}
for r in rows:
    if r["tool"] != "uniqcheck":
        continue
    key = (r["row"], r["threads"])
    if key not in best or r["wall"] < best[key]["wall"]:
        best[key] = r
print(f"Indexing {ds['documents']:,} posts of 20 Newsgroups ({ds['bytes'] / 1e6:.1f} MB), best of the runs; "
      "ratios: times datasketch's throughput.\n")
print("| row | documents | wall s | CPU s | MB/s (wall) | MB per CPU-second | read s | analysis s (summed) | store s | store CPU s | vs datasketch (wall) | vs datasketch (CPU) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
print(f"| datasketch 2.0.0: read, tokenize, `MinHash.generator` (one thread) | {ds['documents']:,} | {ds['seconds']:.2f} | "
      f"{ds['cpu_seconds']:.2f} | {ds_mb:.1f} | {ds_cpu:.1f} | — | — | — | — | 1 | 1 |")
for (label, threads), r in sorted(best.items(), key=lambda kv: (kv[0][0] != "this build", kv[0])):
    mb = r["bytes"] / 1e6
    wall, cpu = mb / r["wall"], mb / r["cpu"]
    rd = r.get("read_seconds")
    a = r["analysis_seconds"]
    s = r["store_seconds"]
    sc = r["store_cpu_seconds"]
    dash = lambda x: "—" if x is None else f"{x:.2f}"
    print(f"| `uniqcheck index`, {label}, {threads} analysis thread{'s' if threads > 1 else ''} | {r['documents']:,} | "
          f"{r['wall']:.2f} | {r['cpu']:.2f} | {wall:.1f} | {cpu:.1f} | {dash(rd)} | {dash(a)} | {dash(s)} | {dash(sc)} | "
          f"{wall / ds_mb:.1f} | {cpu / ds_cpu:.1f} |")
PY
echo
echo "$(nproc --all) cores, $(uptime | sed 's/.*load average/load average/'); results in $results"
