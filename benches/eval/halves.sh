#!/usr/bin/env bash
# How much of the PAN figures is the sample: the defaults on each half of the PAN 2013 training
# corpus (odd and even lines of every folder's `pairs`), as docs/EVALUATION.md reports them. The
# defaults were chosen on the whole corpus, so this is no held-out test; it shows how far the
# figures move when half the pairs change.
# Usage: benches/eval/halves.sh   (UNIQCHECK_DATA overrides <repo>/../shared/data)
# SMOKE=1: the first 2 pairs of each half of every folder, the debug CLI that the tests built: to
#   see that it runs (benches/smoke, CI); its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="${UNIQCHECK_DATA:-$PWD/../shared/data}/pan13-train"
if [ ! -d "$data" ]; then
  echo "skipping: no PAN 2013 corpus at $data (set UNIQCHECK_DATA)" >&2
  exit 0
fi
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
if [ -n "$smoke" ]; then
  cargo build --locked -p uniqcheck-cli --quiet
  bin=./target/debug/uniqcheck
  max=2
else
  cargo build --release --locked -p uniqcheck-cli --quiet
  bin=./target/release/uniqcheck
  max=0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for half in 1 0; do
  # A corpus laid out like the original, by symbolic links: nothing is copied.
  dir="$work/half$half"
  mkdir -p "$dir"
  ln -s "$data/src" "$dir/src"
  ln -s "$data/susp" "$dir/susp"
  : > "$dir/pairs"
  for folder in "$data"/0*/; do
    name=$(basename "$folder")
    mkdir "$dir/$name"
    find "$folder" -maxdepth 1 -name '*.xml' -exec ln -s {} "$dir/$name/" \;
    # (At most $max lines of the half when max is not 0.)
    awk -v h="$half" -v max="$max" 'NR % 2 == h && (max == 0 || ++n <= max)' "$folder/pairs" > "$dir/$name/pairs"
    cat "$dir/$name/pairs" >> "$dir/pairs"
  done
  echo "== $([ "$half" = 1 ] && echo odd || echo even) lines of every pairs file"
  "$bin" eval pan "$dir" | sed -n '/^folder/,/false alarms/p'
done
