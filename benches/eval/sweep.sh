#!/usr/bin/env bash
# The parameter sweep behind docs/EVALUATION.md, on the PAN 2013 text-alignment training corpus:
#   1. a coordinate sweep from the current defaults, one knob at a time (n, w, gap, merge_gap,
#      min_fragment_words, extend_min_words, stop words, stemming);
#   2. a grid over the knobs that matter most (merge_gap × min_fragment_words × extend_min_words);
#   3. the defaults on every pair, with the detections written as PAN XML.
#
# Usage: benches/eval/sweep.sh [LIMIT]
#   LIMIT  pairs per folder in steps 1 and 2 (default 0 = every pair; the whole corpus takes
#          about 4 s per setting on 2 cores, the whole sweep about 5 minutes)
# UNIQCHECK_DATA overrides <repo>/../shared/data; JSON results land in target/eval/.
# SMOKE=1: every step and every setting on one pair per folder (step 3 too), the debug CLI that
#   the tests built, results in target/eval/smoke/: to see that it runs (benches/smoke, CI); its
#   figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}/pan13-train"
if [ ! -d "$data" ]; then
  echo "skipping: no PAN 2013 corpus at $data (set UNIQCHECK_DATA)" >&2
  exit 0
fi
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
final_flag=()
if [ -n "$smoke" ]; then
  limit="${1:-1}"
  final_flag=(--limit "$limit")
  cargo build --locked -p uniqcheck-cli --quiet
  bin=./target/debug/uniqcheck
  out=target/eval/smoke
else
  limit="${1:-0}"
  cargo build --release --locked -p uniqcheck-cli --quiet
  bin=./target/release/uniqcheck
  out=target/eval
fi
mkdir -p "$out"
: > "$out/warnings.log"
limit_flag=()
if [ "$limit" != 0 ]; then limit_flag=(--limit "$limit"); fi

row() { # name json
  python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
j = json.load(open(path))
f = {x["name"]: x for x in j["folders"]}
o = j["overall"]
pd = lambda k: f"{f[k]['plagdet']:.3f}" if k in f else "-"
fa = j.get("false_alarms")
fa = f"{100 * fa['share']:.1f} %" if fa else "-"
print(f"| {name} | {pd('02-no-obfuscation')} | {pd('03-random-obfuscation')} | "
      f"{pd('04-translation-obfuscation')} | {pd('05-summary-obfuscation')} | "
      f"{o['precision']:.3f} | {o['recall']:.3f} | {o['granularity']:.3f} | **{o['plagdet']:.3f}** | {fa} |")
PY
}

header() {
  echo "| setting | 02 plagdet | 03 plagdet | 04 plagdet | 05 plagdet | precision | recall | granularity | plagdet | false alarms (01) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
}

run() { # name flags...
  local name="$1"
  shift
  local file="$out/sweep-$(echo "$name" | tr -c 'a-zA-Z0-9=\n' '_').json"
  "$bin" eval pan "$data" "${limit_flag[@]}" --json --out "$file" "$@" > /dev/null 2>> "$out/warnings.log"
  row "$name" "$file"
}

echo "## 1. Coordinate sweep from the defaults (limit: ${limit}, 0 = every pair)"
echo
header
run "defaults"
for n in 3 5; do run "n=$n" -n "$n"; done
for w in 3 6; do run "w=$w" -w "$w"; done
for g in 2 8; do run "gap=$g" --gap "$g"; done
for g in 16 32 64 96; do run "merge_gap=$g" --merge-gap "$g"; done
for m in 6 8 12 16; do run "min_fragment_words=$m" --min-fragment-words "$m"; done
for x in 0 10 12 16 20; do run "extend_min_words=$x" --extend-min-words "$x"; done
run "stop words kept" --keep-stop-words
run "stemming off" --no-stemming

echo
echo "## 2. Grid: merge_gap × min_fragment_words × extend_min_words"
echo
header
for g in 32 48 64; do
  for m in 8 10 12; do
    for x in 0 12 14 16; do
      run "merge_gap=$g min=$m extend=$x" --merge-gap "$g" --min-fragment-words "$m" --extend-min-words "$x"
    done
  done
done

echo
echo "## 3. The defaults, every pair"
echo
header
"$bin" eval pan "$data" "${final_flag[@]}" --out "$out/final.json" --xml "$out/final-xml" > "$out/final.txt" 2>> "$out/warnings.log"
row "defaults" "$out/final.json"
echo
echo '```'
cat "$out/final.txt"
echo '```'
