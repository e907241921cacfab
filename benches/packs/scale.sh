#!/usr/bin/env bash
# Packs at scale (issue 14): what checking a 1,000-word draft costs against packs of
# 10,000, 100,000 and 1,000,000 documents, natively and in the browser. Not run in CI: the
# million takes 10–20 minutes to build and about 4 GB of disk, once (cached).
#
# For each size N:
#  1. packs of N documents (20 Newsgroups' training posts, then perturbed copies of them), built
#     once into target/uniqcheck-bench/scale-N/packs by
#     `cargo bench -p uniqcheck-store --bench packs_scale -- build N` (store/benches/packs_scale.rs);
#  2. DRAFTS drafts of 1,000 words quoting whole indexed posts between paragraphs of the test half
#     (benches/packs/fetch.py, limited to the posts indexed as themselves: scale-N/indexed.txt);
#  3. each draft checked in-process as a browser does (`packs_scale -- check N`, at the browser's
#     bound on candidates, js/loader.js): bytes of the table, the index pages and the records
#     apart, requests, rounds, candidates whose records were read, quoted posts found, the
#     figures against every candidate, and a re-check after a one-word edit (scale-N/check.jsonl);
#  4. each draft checked with the CLI, `uniqcheck check --packs` (process and disk reads
#     included; scale-N/cli.jsonl), the quoted posts found by its answer;
#  5. unless BROWSER=0, the page in headless Chromium (benches/packs/browser.mjs; BROWSER_DRAFTS
#     drafts, each in a fresh browser): time from paste to report, bytes and requests as served
#     on loopback, memory (scale-N/browser.jsonl). The page's package is built from this checkout
#     into target/uniqcheck-bench/pkg (as scripts/build-pkg builds pkg/, web target only).
# Then one table of every size.
#
# Usage: benches/packs/scale.sh [N...]    (default: 10000 100000 1000000)
#   DRAFTS (20), BROWSER_DRAFTS (20), BROWSER (1); UNIQCHECK_DATA overrides <repo>/../shared/data;
#   PKG=DIR uses a package built already instead of building one. Installs nothing: run
#   `scripts/setup wasm browser` first.
#   SMOKE=1: every step at 500 documents by default, 2 drafts, 1 in the browser, the packs
#   builder and the CLI as the tests built them (test profile, debug CLI) instead of release: to
#   see that it runs (benches/smoke, CI). Its figures mean nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
data="${UNIQCHECK_DATA:-$repo/../shared/data}"
train="$data/20news-bydate/20news-bydate-train"
test="$data/20news-bydate/20news-bydate-test"
if [ ! -d "$train" ]; then
  echo "skipping: no 20 Newsgroups at $train (set UNIQCHECK_DATA)" >&2
  exit 0
fi
export UNIQCHECK_DATA="$data"
smoke=${SMOKE:-}
[ "$smoke" = 0 ] && smoke=
sizes=("$@")
if [ -n "$smoke" ]; then
  [ ${#sizes[@]} -gt 0 ] || sizes=(500)
  drafts="${DRAFTS:-2}"
  browser_drafts="${BROWSER_DRAFTS:-1}"
  # `cargo test` runs the (harness-less) bench binary with the arguments after `--`, built in the
  # test profile whose dependencies scripts/test built already; `cargo bench` would build the
  # bench profile (release, LTO) from scratch.
  bench() { cargo test --quiet --locked -p uniqcheck-store --bench packs_scale -- "$@"; }
  cargo build --quiet --locked -p uniqcheck-cli
  bin="$repo/target/debug/uniqcheck"
else
  [ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
  drafts="${DRAFTS:-20}"
  browser_drafts="${BROWSER_DRAFTS:-20}"
  bench() { cargo bench --quiet --locked -p uniqcheck-store --bench packs_scale -- "$@"; }
  cargo build --release --quiet --locked -p uniqcheck-cli
  bin="$repo/target/release/uniqcheck"
fi
browser="${BROWSER:-1}"

pkg="$repo/target/uniqcheck-bench/pkg"
if [ "$browser" != 0 ] && [ -n "${PKG:-}" ]; then
  # A package built already (PKG=target/uniqcheck-bench/pkg from an earlier run).
  pkg=$(cd "$PKG" && pwd)
  [ -f "$pkg/web/uniqcheck_bg.wasm" ] || { echo "PKG=$PKG holds no package" >&2; exit 1; }
elif [ "$browser" != 0 ]; then
  # No set-up from here: its `npm ci` would empty node_modules under the tests another shell is
  # running, or another checkout's through a symlinked node_modules. Check what is needed instead.
  export PATH="$repo/node_modules/.bin:$PATH"
  for tool in wasm-pack wasm-bindgen wasm-opt; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/setup wasm browser first" >&2; exit 1; }
  done
  [ -d "$repo/node_modules/playwright-core" ] || { echo "playwright-core is missing: run scripts/setup wasm browser first" >&2; exit 1; }
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "no Chromium: run scripts/setup browser first" >&2; exit 1; }
  # The page's editor (CodeMirror) is served from www/vendor/, which scripts/build-pkg copies.
  [ -f "$repo/www/vendor/codemirror/view.js" ] || { echo "www/vendor/ is missing: run scripts/build-pkg once" >&2; exit 1; }
  [ ! -L "$pkg" ] || { echo "refusing to empty $pkg: a symlink" >&2; exit 1; }
  rm -rf "$pkg"
  # As scripts/build-pkg builds the web target: from the facade crate's folder (wasm/: SIMD and
  # its release profile), and the module's JavaScript half (wasm/src/results.js) moved next to
  # the glue under the name the glue and the service worker's precache list use (without it the
  # service worker never installs and the page waits on navigator.serviceWorker.ready for ever).
  (cd wasm && wasm-pack --quiet build --release --target web --out-dir "$pkg/web" --out-name uniqcheck \
    --mode no-install --no-pack -- --locked)
  rm -f "$pkg/web/.gitignore" "$pkg/web/package.json" "$pkg/web/README.md"
  snippet=("$pkg"/web/snippets/*/src/results.js)
  [ -f "${snippet[0]}" ] || { echo "wasm-bindgen wrote no src/results.js snippet" >&2; exit 1; }
  mv "${snippet[0]}" "$pkg/web/uniqcheck_results.js"
  rm -r "$pkg/web/snippets"
  sed -i 's#\./snippets/[A-Za-z0-9_-]*/src/results\.js#./uniqcheck_results.js#' "$pkg/web/uniqcheck.js"
  ! grep -q snippets "$pkg/web/uniqcheck.js" || { echo "$pkg/web: the snippet was not moved" >&2; exit 1; }
  cp js/*.js "$pkg/"
  cp -r js/ui "$pkg/"
fi

for n in "${sizes[@]}"; do
  dir="$repo/target/uniqcheck-bench/scale-$n"
  echo "== $n documents" >&2
  bench build "$n" | tail -n 1
  rm -rf "$dir/drafts"
  python3 benches/packs/fetch.py "$train" "$test" "$dir/drafts" "$drafts" 7 "$dir/indexed.txt"
  bench check "$n" > "$dir/check.jsonl"
  python3 - "$bin" "$dir" "$drafts" > "$dir/cli.jsonl" <<'PY'
import json, os, subprocess, sys, time
bin, dir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
manifest = os.path.getsize(f"{dir}/packs/manifest.json")
for i in range(n):
    t = time.perf_counter()
    out = subprocess.run([bin, "check", f"{dir}/drafts/draft-{i}.txt", "--packs", f"{dir}/packs", "--json"],
                         capture_output=True, check=True).stdout
    ms = (time.perf_counter() - t) * 1000
    r = json.loads(out)
    urls = {s["url"] for s in r["sources"]}
    quoted = ["/".join(p.split("/")[-2:]) for p in open(f"{dir}/drafts/draft-{i}.quoted").read().split()]
    f = r["fetched"]
    print(json.dumps({"draft": i, "ms": ms, "bytes": f["bytes"] + manifest, "requests": f["files"] + 1,
                      "rounds": f["rounds"], "quoted": len(quoted), "found": sum(q in urls for q in quoted),
                      "sources": len(r["sources"])}))
PY
  if [ "$browser" != 0 ]; then
    PKG="$pkg" node benches/packs/browser.mjs "$dir/packs" "$dir/drafts" "$browser_drafts" > "$dir/browser.jsonl"
  fi
done

python3 - "$repo/target/uniqcheck-bench" "${sizes[@]}" <<'PY'
import json, os, sys
root, sizes = sys.argv[1], sys.argv[2:]
def lines(path):
    return [l for l in open(path).read().splitlines() if l.strip()] if os.path.exists(path) else []
def med(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")
kb = lambda b: f"{b / 1000:,.0f} KB"
rows = []
for n in sizes:
    d = f"{root}/scale-{n}"
    b = json.load(open(f"{d}/build.json"))
    check = [json.loads(l) for l in lines(f"{d}/check.jsonl") if not l.startswith("summary")]
    cli = [json.loads(l) for l in lines(f"{d}/cli.jsonl")]
    web = [json.loads(l) for l in lines(f"{d}/browser.jsonl") if l.startswith("{")]
    base = [json.loads(l.split(" ", 1)[1]) for l in lines(f"{d}/browser.jsonl") if l.startswith("baseline ")]
    r = {
        "documents": f"{b['documents']:,}",
        "build": f"{b['build_seconds']:.0f} s",
        "packs": f"{b['pack_bytes'] / 1e6:,.1f} MB",
        "index + table per document": f"{b['index_bytes_per_document']:.0f} + {b['table_bytes'] / b['documents']:.1f} B",
        "records per document": f"{b['record_bytes_per_document']:.0f} B",
        "records per 1,000 words (900–1,100-word texts, median)": f"{b['long_record_bytes_per_1000_words_median']:,.0f} B",
        "pages (fingerprints + long words + sentence keys)": f"{b['anchor_pages']:,} + {b['long_word_pages']:,} + {b.get('sentence_pages', 0):,}",
        "fetched per check, median (max)": f"{kb(med([c['bytes'] + c['manifest_bytes'] for c in check]))} ({kb(max(c['bytes'] + c['manifest_bytes'] for c in check))})",
        "  manifest + table, median (max)": f"{kb(med([c['manifest_bytes'] + c['table_bytes'] for c in check]))} ({kb(max(c['manifest_bytes'] + c['table_bytes'] for c in check))})",
        "  index pages, median": f"{kb(med([c['page_bytes'] for c in check]))} ({med([c['pages'] for c in check])} pages)",
        "  records, median (max)": f"{kb(med([c['record_bytes'] for c in check]))} ({med([c['records'] for c in check])} records; max {max(c['records'] for c in check)})",
        "share of the packs, median": f"{100 * med([c['bytes'] for c in check]) / b['pack_bytes']:.2f} %",
        "requests, median (max)": f"{med([c['requests'] for c in check])} ({max(c['requests'] for c in check)})",
        "rounds": f"{max(c['rounds'] for c in check)}",
        "quoted posts found (as themselves)": f"{sum(c['found'] for c in check)} of {sum(c['quoted'] for c in check)}",
        "candidates, every one: median (max)": f"{med([c['candidates_all'] for c in check])} ({max(c['candidates_all'] for c in check)})",
        "candidates capped at the browser's bound": f"{sum(c['capped'] for c in check)} of {len(check)} drafts (bound {check[0]['max_candidates']})",
        "  figures against every candidate: largest shift of uniqueness / originality": f"{max(abs(c['uniqueness'] - c['uniqueness_all']) for c in check):.1f} / {max(abs(c['originality'] - c['originality_all']) for c in check):.1f} points",
        "  quoted posts found with every candidate": f"{sum(c['found_all'] for c in check)} of {sum(c['quoted'] for c in check)}",
        "check in-process, files in the page cache (first run), median": f"{med([c['ms'] for c in check]):.1f} ms ({med([c['ms_first'] for c in check]):.0f} ms)",
        "  of which the engine's check after the rounds, median": f"{med([c['check_ms'] for c in check]):.1f} ms",
        "check with the CLI (process included), median": f"{med([c['ms'] for c in cli]):.0f} ms" if cli else "",
        "CLI found": f"{sum(c['found'] for c in cli)} of {sum(c['quoted'] for c in cli)}" if cli else "",
        "re-check after a one-word edit: bytes, median (max)": f"{med([c['recheck_bytes'] for c in check]):,} B ({max(c['recheck_bytes'] for c in check):,} B)",
    }
    if web:
        mb = lambda x: f"{x / 1e6:.0f} MB"
        mem = [w["memory"]["after_recheck"] for w in web]
        r.update({
            "browser: page load to ready (page, package, manifest, table), median": f"{med([w['load_ms'] for w in web]):,} ms",
            "browser: bytes at load: app / packs (manifest, table, record list)": f"{kb(med([w['load']['app']['bytes'] for w in web]))} / {kb(med([w['load']['pack_bytes'] for w in web]))} ({kb(med([w['load']['list']['bytes'] for w in web]))} list)",
            "browser: first check, bytes and requests after the paste, median": f"{kb(med([w['check']['pack_bytes'] for w in web]))}, {med([w['check']['pack_requests'] for w in web])}",
            "browser: paste to report, median (max)": f"{med([w['check_ms'] for w in web]):,} ms ({max(w['check_ms'] for w in web):,} ms)",
            "browser: the check itself (fetches + engine), median": f"{med([w['check_shown_ms'] for w in web]):,} ms",
            "browser:   CPU time of Chromium's processes meanwhile, median": f"{med([w['check_cpu_ms']['total'] for w in web if 'check_cpu_ms' in w]):,} ms",
            "browser:   the worker's fetches: span / each, median": f"{med([w['worker_fetches']['span_ms'] for w in web]):,} ms / {med([w['worker_fetches']['each_ms'] for w in web])} ms",
            "browser: re-check after one word, bytes / paste-free time, median": f"{med([w['recheck']['pack_bytes'] for w in web]):,} B / {med([w['recheck_shown_ms'] for w in web])} ms",
            "browser: JS heap of the page / of the worker / of the service worker / wasm memory, median": f"{med([m['js_heap_used'] for m in mem]) / 1e6:.1f} / {med([m['worker_heap_used'] or 0 for m in mem]) / 1e6:.1f} / {med([m.get('service_worker_heap_used') or 0 for m in mem]) / 1e6:.1f} / {med([m['wasm_memory'] for m in mem]) / 1e6:.1f} MB",
            "browser: renderer RSS / private / peak RSS, median": f"{mb(med([m['renderer_rss'] for m in mem]))} / {mb(med([m['renderer_private'] for m in mem]))} / {mb(med([m['renderer_hwm'] for m in mem]))}",
            "browser: renderer private idle before the paste / a blank page's, median": f"{mb(med([w['memory']['idle']['renderer_private'] for w in web]))} / " + (mb(base[0]['renderer_private']) if base else "?"),
        })
    rows.append(r)
keys = list(dict.fromkeys(k for r in rows for k in r))
print("| | " + " | ".join(r["documents"] for r in rows) + " |")
print("|---|" + "---|" * len(rows))
for k in keys[1:]:
    print(f"| {k} | " + " | ".join(r.get(k, "") for r in rows) + " |")
PY
