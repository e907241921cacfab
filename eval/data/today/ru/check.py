#!/usr/bin/env python3
"""Check the "today/ru" tuning set (stdlib only).

For every case folder (01, 02, ...) this reads source.tsv
(corpus, file, start, end, sha256), opens the passage in the shared data
directory, verifies its sha256, and prints the word counts of the passage and
of each written kind, and the share of the passage's distinct word 5-grams
(lowercased words) that also occur in each kind.

Usage: python3 check.py [--data DIR]
DIR defaults to <repo>/../shared/data, falling back to /work/shared/data.
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys

KINDS = ["light", "paraphrase", "summary", "translation", "independent"]
WORD = re.compile(r"\w+", re.UNICODE)


def words(text):
    return WORD.findall(text.lower().replace("ё", "е"))


def grams(ws, n=5):
    return {tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)}


def repo_root(here):
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here,
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except Exception:
        return os.path.abspath(os.path.join(here, "..", "..", "..", ".."))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", help="shared data directory")
    args = ap.parse_args()
    if args.data:
        data = args.data
    else:
        data = os.path.join(repo_root(here), "..", "shared", "data")
        if not os.path.isdir(data):
            data = "/work/shared/data"
    cases = sorted(d for d in os.listdir(here)
                   if d.isdigit() and os.path.isdir(os.path.join(here, d)))
    head = "case  file                    ok  words  " + "  ".join(
        f"{k[:5]:>5}w {k[:5]:>5}%" for k in KINDS)
    print(head)
    bad = 0
    sums = {k: [] for k in KINDS}
    for c in cases:
        d = os.path.join(here, c)
        with open(os.path.join(d, "source.tsv"), encoding="utf-8") as f:
            corpus, fname, start, end, sha = f.read().rstrip("\n").split("\t")
        path = os.path.join(data, corpus, fname)
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
        except OSError as e:
            print(f"{c}    {fname:<22} MISSING ({e})")
            bad += 1
            continue
        passage = text[int(start):int(end)]
        ok = hashlib.sha256(passage.encode("utf-8")).hexdigest() == sha
        if not ok:
            bad += 1
        pw = words(passage)
        pg = grams(pw)
        cols = []
        for k in KINDS:
            p = os.path.join(d, k + ".txt")
            if not os.path.exists(p):
                cols.append(f"{'-':>6} {'-':>6}")
                bad += 1
                continue
            with open(p, encoding="utf-8") as f:
                kw = words(f.read())
            share = 100.0 * len(pg & grams(kw)) / max(1, len(pg))
            sums[k].append(share)
            cols.append(f"{len(kw):>6} {share:>5.1f}%")
        print(f"{c:<5} {fname:<22} {'ok' if ok else 'BAD':<3} {len(pw):>5}  "
              + "  ".join(cols))
    print("mean 5-gram share: " + ", ".join(
        f"{k} {sum(v) / len(v):.1f}%" for k, v in sums.items() if v))
    print(f"{len(cases)} cases, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
