"""Prints benches/peers/compare.sh's results (JSON lines) as Markdown tables with ratios.

    python3 table.py RESULTS.jsonl

Ratios are "times faster than the peer": the peer's time over the row's time (so above 1 is
faster, and a peer's own column reads 1.00).
"""

import json
import sys

PEERS = ["datasketch", "minhash", "gaoya"]

SKETCH_ROWS = {
    ("ours-native", "pipeline"): "ours, native: whole pipeline (`Document::analyze`)",
    ("ours-native", "pipeline-once"): "ours, native: whole pipeline, one pass over 16,000 other posts, stem cache cold at the start",
    ("ours-native", "sketch"): "ours, native: sketch alone (set + MinHash of the pipeline's shingle hashes)",
    ("ours-native", "peer-tokens"): "ours, native: the peers' tokens, then CRC32 words, shingle hashes, set, MinHash",
    ("ours-wasm", "pipeline"): "ours, wasm in Node: whole pipeline (`Checker.sketch`, npm package)",
    ("ours-wasm", "sketch"): "ours, wasm in Node: sketch alone (bench module)",
    ("gaoya", "sketch"): "gaoya 0.2.2, native: `MinHasher32::create_signature`",
    ("minhash", "sketch"): "npm minhash 0.0.9, Node: `new Minhash()` + `update` per shingle",
    ("datasketch", "sketch"): "datasketch 2.0.0, Python: `MinHash.generator` (SHA-1)",
}

QUERY_ROWS = {
    ("ours-native", "candidates"): "ours, native: `Corpus::candidates` (fingerprint keys + short-text lookup; documents as records)",
    ("ours-native", "candidates-no-short"): "ours, native: `Corpus::candidates`, short-text lookup off",
    ("ours-native", "check"): "ours, native: `Corpus::check_document` (candidates + alignment against records + report)",
    ("ours-wasm", "candidates"): "ours, wasm in Node: `Corpus::candidates` (bench module)",
    ("ours-wasm", "check"): "ours, wasm in Node: `Checker.check` (npm package, packs v2 all added; analyses the draft too)",
    ("gaoya", "lsh-query"): "gaoya: `MinHashIndex::query` (32×4 bands, keeps J ≥ 0.5)",
    ("minhash", "lsh-query"): "npm minhash: `LshIndex` query (32×4 bands)",
    ("datasketch", "lsh-query"): "datasketch: `MinHashLSH.query` (32×4 bands)",
}


def fmt(x, digits=1):
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def ratio(x):
    """Times faster: 2 decimals, or 2 significant digits below 0.1 (1/x shown as well)."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 0.1:
        return f"{x:.2f}"
    return f"{x:.2g} (1/{1 / x:,.0f})"


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip().startswith("{")]
    by = {(r["tool"], r["row"]): r for r in rows}

    sketch = [by[k] for k in SKETCH_ROWS if k in by]
    if sketch:
        first = sketch[0]
        print(f"Sketching: the first {first['documents']:,} documents ({first['bytes'] / 1e6:.1f} MB), "
              "one thread, best of N runs. Ratios: times faster than the peer.\n")
        peers = {p: by.get((p, "sketch")) for p in PEERS}
        print("| row | MB/s | documents/s | " + " | ".join(f"vs {p}" for p in PEERS) + " |")
        print("|---|---|---|" + "---|" * len(PEERS))
        for (tool, row), label in SKETCH_ROWS.items():
            r = by.get((tool, row))
            if not r:
                continue
            # Throughput ratios: the one-pass row reads other documents than the peers.
            ratios = [ratio(r["mb_per_s"] / peers[p]["mb_per_s"]) if peers[p] else "—" for p in PEERS]
            print(f"| {label} | {fmt(r['mb_per_s'])} | {fmt(r['docs_per_s'])} | " + " | ".join(ratios) + " |")
        counts = {k[0]: by[k]["shingles"] for k in [("datasketch", "sketch"), ("minhash", "sketch"),
                                                    ("gaoya", "sketch"), ("ours-native", "peer-tokens")] if k in by}
        same = len(set(counts.values())) <= 1
        print(f"\nShingles fed by the peers' tokenization: {counts} "
              f"({'the same in every language' if same else 'DIFFERENT: the tokenizations disagree'}).\n")

    query = [by[k] for k in QUERY_ROWS if k in by]
    if query:
        sizes = query[0]["sizes"]
        drafts = query[0]["drafts"]
        print(f"Query latency: mean per draft over {drafts} drafts, best of N passes, draft already sketched "
              "or analysed (except `Checker.check`). Ratios at the largest index: times faster than the peer.\n")
        peers = {p: by.get((p, "lsh-query")) for p in PEERS}
        head = " | ".join(f"{s:,} docs, µs" for s in sizes)
        print(f"| row | {head} | results/query at {sizes[-1]:,} | quoted doc found | "
              + " | ".join(f"vs {p}" for p in PEERS) + " | peak RSS, MB |")
        print("|---|" + "---|" * len(sizes) + "---|---|" + "---|" * len(PEERS) + "---|")
        for (tool, row), label in QUERY_ROWS.items():
            r = by.get((tool, row))
            if not r:
                continue
            us = " | ".join(fmt(x, 1) for x in r["query_us"])
            ratios = [ratio(peers[p]["query_us"][-1] / r["query_us"][-1]) if peers[p] else "—" for p in PEERS]
            found = "/".join(str(f) for f in r["found"])
            print(f"| {label} | {us} | {r['candidates'][-1]} | {found} of {r['drafts']} | " + " | ".join(ratios)
                  + f" | {r['peak_rss_kb'] / 1024:,.0f} |")
        builds = [(k, by[k]["build_seconds"]) for k in [("ours-native", "candidates"), ("gaoya", "lsh-query"),
                                                      ("minhash", "lsh-query"), ("datasketch", "lsh-query")] if k in by]
        print("\nIndex build, sketching or analysis included, seconds to reach each size (for information; "
              "minhash's with its update loop hoisted, see bench.mjs): "
              + "; ".join(f"{k[0]} {', '.join(str(s) for s in b)}" for k, b in builds))


if __name__ == "__main__":
    main(sys.argv[1])
