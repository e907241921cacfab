#!/usr/bin/env bash
# The parameter sweep behind docs/EVALUATION.md, on the PAN 2013 text-alignment training corpus:
#   1. a coordinate sweep from the former defaults (n = 4, w = 4, gap = 4, min_fragment_words = 4,
#      stop words dropped, stemming on), one knob at a time;
#   2. a grid over the knobs that mattered (n × gap × min_fragment_words, stop words dropped,
#      then kept);
#   3. the current defaults on every pair, with the detections written as PAN XML.
#
# Usage: benches/eval/sweep.sh [LIMIT]
#   LIMIT  pairs per folder in steps 1 and 2 (default 0 = every pair; the whole corpus takes
#          about 5 s per setting on 2 cores)
# UNIQCHECK_DATA overrides <repo>/../shared/data; JSON results land in target/eval/.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}/pan13-train"
if [ ! -d "$data" ]; then
  echo "skipping: no PAN 2013 corpus at $data (set UNIQCHECK_DATA)" >&2
  exit 0
fi
limit="${1:-0}"
cargo build --release -p uniqcheck-cli --quiet
bin=./target/release/uniqcheck
out=target/eval
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

# The former defaults, spelled out so that the sweep does not move when the defaults do.
old() { # n w gap min [more flags]
  local n="$1" w="$2" g="$3" m="$4"
  shift 4
  echo -n "$n $w $g $m"
  run_args=(-n "$n" -w "$w" --gap "$g" --min-fragment-words "$m" "$@")
}

echo "## 1. Coordinate sweep from the former defaults (limit: ${limit}, 0 = every pair)"
echo
header
sweep() { # name n w gap min [flags]
  local name="$1"
  shift
  old "$@" > /dev/null
  run "$name" "${run_args[@]}"
}
sweep "former defaults (n=4 w=4 gap=4 min=4)" 4 4 4 4
for n in 3 5 6; do sweep "n=$n" "$n" 4 4 4; done
for w in 3 6; do sweep "w=$w" 4 "$w" 4 4; done
for g in 2 8; do sweep "gap=$g" 4 4 "$g" 4; done
sweep "stop words kept" 4 4 4 4 --keep-stop-words
sweep "stemming off" 4 4 4 4 --no-stemming
for m in 3 5 8; do sweep "min_fragment_words=$m" 4 4 4 "$m"; done

echo
echo "## 2. Grid: n × gap × min_fragment_words (stop words dropped, stemming on)"
echo
header
for n in 3 4 5 6; do
  for g in 8 16 32 48 64; do
    for m in 8 12 16; do
      run "n=$n gap=$g min=$m" -n "$n" --gap "$g" --min-fragment-words "$m"
    done
  done
done
for flag in --no-stemming --keep-stop-words; do
  run "n=4 gap=48 min=12 $flag" -n 4 --gap 48 --min-fragment-words 12 "$flag"
done

echo
echo "## 2b. Grid with stop words kept (gap and min_fragment_words then count every word)"
echo
header
for n in 4 5; do
  for g in 48 64 96; do
    for m in 20 28 36; do
      run "stop words kept, n=$n gap=$g min=$m" --keep-stop-words -n "$n" --gap "$g" --min-fragment-words "$m"
    done
  done
done

echo
echo "## 3. The defaults, every pair"
echo
header
"$bin" eval pan "$data" --out "$out/final.json" --xml "$out/final-xml" > "$out/final.txt" 2>> "$out/warnings.log"
row "defaults" "$out/final.json"
echo
echo '```'
cat "$out/final.txt"
echo '```'
