#!/usr/bin/env python3
"""Check the 'today/en' tuning cases: verify each source passage by sha256 and
print word counts and the share of the passage's word 5-grams found in each kind.

Usage: python3 check.py [--data DIR]
DIR defaults to the repository's ../shared/data, falling back to /work/shared/data.
"""
import argparse
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["light", "paraphrase", "summary", "translation", "independent"]
WORD = re.compile(r"\w+(?:['\u2019\u0019]\w+)*", re.UNICODE)


def default_data():
    # repository root = four levels up from eval/data/today/en
    repo = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
    cand = os.path.join(os.path.dirname(repo), "shared", "data")
    if os.path.isdir(cand):
        return cand
    return "/work/shared/data"


def words(text):
    return [w.lower().replace("\u2019", "'").replace("\u0019", "'") for w in WORD.findall(text)]


def grams(ws, n=5):
    return {tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=None, help="directory holding <corpus>/<file>")
    args = ap.parse_args()
    data = args.data or default_data()
    cases = sorted(d for d in os.listdir(HERE)
                   if os.path.isdir(os.path.join(HERE, d)) and d.isdigit())
    bad = 0
    print("data: %s" % data)
    head = "%-4s %-28s %5s" % ("case", "source", "words")
    for k in KINDS:
        head += " %11s" % k[:11]
    print(head)
    print("%-4s %-28s %5s" % ("", "", "") + " %11s" % "words/5g%" * len(KINDS))
    sums = {k: [] for k in KINDS}
    for c in cases:
        d = os.path.join(HERE, c)
        with open(os.path.join(d, "source.tsv"), encoding="utf-8") as fh:
            corpus, fname, start, end, sha = fh.readline().rstrip("\n").split("\t")
        path = os.path.join(data, corpus, fname)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as e:
            print("%-4s MISSING %s (%s)" % (c, path, e))
            bad += 1
            continue
        passage = text[int(start):int(end)]
        ok = hashlib.sha256(passage.encode("utf-8")).hexdigest() == sha
        pw = words(passage)
        pg = grams(pw)
        line = "%-4s %-28s %5d" % (c, os.path.basename(fname) + ("" if ok else " SHA!"), len(pw))
        if not ok:
            bad += 1
        for k in KINDS:
            p = os.path.join(d, k + ".txt")
            if not os.path.exists(p):
                line += " %11s" % "-"
                bad += 1
                continue
            with open(p, encoding="utf-8") as fh:
                kw = words(fh.read())
            share = 100.0 * len(pg & grams(kw)) / max(1, len(pg))
            sums[k].append(share)
            line += " %5d/%4.1f" % (len(kw), share)
        print(line)
    avg = "%-4s %-28s %5s" % ("avg", "5-gram share %", "")
    for k in KINDS:
        v = sums[k]
        avg += " %11s" % ("%.1f" % (sum(v) / len(v)) if v else "-")
    print(avg)
    print("cases: %d, problems: %d" % (len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
