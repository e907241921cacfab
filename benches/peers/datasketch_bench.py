"""Python side of benches/peers/compare.sh: datasketch on the documents `peers corpus` wrote.

    python datasketch_bench.py sketch CORPUS N RUNS   MinHash throughput, first N documents, best of RUNS
    python datasketch_bench.py index CORPUS RUNS      MinHashLSH over 1k, 10k, 100k documents
    python datasketch_bench.py files DIR RUNS         MinHash of every file under DIR, reading included

One JSON line per result; peak RSS (VmHWM) last. MinHash(num_perm=128) with datasketch's default
hash (SHA-1, 32 bits), fed word 4-shingles as UTF-8 bytes, through MinHash.generator (datasketch's
own fast path for many documents: the permutations are made once). MinHashLSH with 32 bands of 4
rows (params=(32, 4)), as every peer here.
"""

import json
import os
import re
import struct
import sys
import time

from datasketch import MinHash, MinHashLSH

# The index sizes, as the native side reads them (PEERS_SIZES: compare.sh's smoke run).
SIZES = [int(s) for s in os.environ.get("PEERS_SIZES", "1000,10000,100000").split(",")]
# The peers' tokenization (gaoya's whitespace_split): the lowercased text split at ASCII whitespace
# and ASCII punctuation; word 4-shingles joined by one space.
WORD = re.compile(r"[^\t\n\x0c\r !-/:-@\[-`{-~]+")


def shingles(text):
    w = WORD.findall(text.lower())
    return [" ".join(w[i : i + 4]).encode("utf-8") for i in range(len(w) - 3)]


def records(path, limit=None):
    """`[u32 LE length][UTF-8]` records, read one at a time."""
    with open(path, "rb") as f:
        n = 0
        while limit is None or n < limit:
            head = f.read(4)
            if len(head) < 4:
                return
            (length,) = struct.unpack("<I", head)
            yield f.read(length).decode("utf-8")
            n += 1


def peak_rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def sketch(corpus, n, runs):
    docs = list(records(f"{corpus}/docs.bin", n))
    best, count = float("inf"), 0
    for _ in range(runs):
        t = time.perf_counter()
        lists = (shingles(d) for d in docs)
        count = 0
        for _m in MinHash.generator(lists, num_perm=128):
            count += 1
        best = min(best, time.perf_counter() - t)
    total = sum(len(shingles(d)) for d in docs)
    size = sum(len(d.encode("utf-8")) for d in docs)
    print(json.dumps({
        "tool": "datasketch", "row": "sketch", "documents": len(docs), "bytes": size,
        "seconds": round(best, 4), "mb_per_s": round(size / best / 1e6, 3),
        "docs_per_s": round(len(docs) / best, 1), "shingles": total, "peak_rss_kb": peak_rss_kb(),
    }), flush=True)


def index(corpus, runs):
    drafts = list(records(f"{corpus}/drafts.bin"))
    with open(f"{corpus}/drafts.txt") as f:
        sources = [int(line) for line in f.read().split()]
    queries = MinHash.bulk([shingles(d) for d in drafts], num_perm=128)
    lsh = MinHashLSH(num_perm=128, params=(32, 4))
    docs = records(f"{corpus}/docs.bin")
    out = {"micros": [], "candidates": [], "found": [], "build_seconds": []}
    added, build = 0, 0.0
    generator = MinHash.generator((shingles(d) for d in docs), num_perm=128)
    for size in SIZES:
        t = time.perf_counter()
        while added < size:
            lsh.insert(added, next(generator))
            added += 1
        build += time.perf_counter() - t
        out["build_seconds"].append(round(build, 2))
        best = float("inf")
        for p in range(runs + 1):
            t = time.perf_counter()
            results = [lsh.query(q) for q in queries]
            s = time.perf_counter() - t
            if p > 0:
                best = min(best, s)
        out["micros"].append(round(best / len(queries) * 1e6, 2))
        out["candidates"].append(round(sum(map(len, results)) / len(queries), 1))
        out["found"].append(sum(src in r for r, src in zip(results, sources)))
    print(json.dumps({
        "tool": "datasketch", "row": "lsh-query", "sizes": SIZES, "query_us": out["micros"],
        "candidates": out["candidates"], "found": out["found"], "drafts": len(queries),
        "build_seconds": out["build_seconds"], "peak_rss_kb": peak_rss_kb(),
    }), flush=True)


def files(folder, runs):
    """The whole pipeline on every file under `folder` (sorted walk, bytes read as UTF-8 with
    replacement, as our corpus builder reads them): what `uniqcheck index FOLDER` is set against
    in benches/peers/index.sh. Best of RUNS, by wall-clock time and by CPU time (the process's:
    on a shared machine its wall time counts the waits for a core)."""
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs)
    best, best_cpu, docs, size = float("inf"), float("inf"), 0, 0
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        docs, size = 0, 0
        texts = []
        for p in paths:
            with open(p, "rb") as f:
                raw = f.read()
            size += len(raw)
            texts.append(raw.decode("utf-8", errors="replace"))
        for _m in MinHash.generator((shingles(d) for d in texts), num_perm=128):
            docs += 1
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    print(json.dumps({
        "tool": "datasketch", "row": "files", "documents": docs, "bytes": size,
        "seconds": round(best, 4), "mb_per_s": round(size / best / 1e6, 3),
        "cpu_seconds": round(best_cpu, 4), "mb_per_cpu_s": round(size / best_cpu / 1e6, 3),
        "peak_rss_kb": peak_rss_kb(),
    }), flush=True)


if __name__ == "__main__":
    mode, corpus, *rest = sys.argv[1:]
    if mode == "sketch":
        sketch(corpus, int(rest[0]), int(rest[1]))
    elif mode == "index":
        index(corpus, int(rest[0]))
    elif mode == "files":
        files(corpus, int(rest[0]))
    else:
        sys.exit("usage: datasketch_bench.py sketch CORPUS N RUNS | index CORPUS RUNS | files DIR RUNS")
