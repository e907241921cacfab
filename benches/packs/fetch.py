#!/usr/bin/env python3
"""Draft files for benches/packs/run.sh: 1,000-word drafts, each quoting whole posts of the corpus
(the "quoted posts" that must be found) between paragraphs of the test half (new text).

Usage: fetch.py TRAIN_DIR TEST_DIR OUT_DIR COUNT SEED [QUOTABLE]
Writes OUT_DIR/draft-<i>.txt and OUT_DIR/draft-<i>.quoted (the quoted posts' paths, one a line).
QUOTABLE, a file of paths relative to TRAIN_DIR (one a line), limits the quoted posts to those
(the posts a corpus indexed, benches/packs/scale.sh); without it any training post may be quoted.
"""
import os, random, sys

train, test, out, count, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
quotable = sys.argv[6] if len(sys.argv) > 6 else None
rng = random.Random(seed)

def posts(root):
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.join(d, n) for n in names]
    return sorted(files)

def body(path):
    text = open(path, encoding="latin-1").read()
    # The body: what follows the header block.
    return text.split("\n\n", 1)[-1].strip()

train_posts, test_posts = posts(train), posts(test)
if quotable:
    allowed = {os.path.join(train, line.strip()) for line in open(quotable) if line.strip()}
    train_posts = [p for p in train_posts if p in allowed]
os.makedirs(out, exist_ok=True)
for i in range(count):
    words, parts, quoted = 0, [], []
    while words < 1000:
        if rng.random() < 0.5:
            p = rng.choice(train_posts)
            b = body(p)
            n = len(b.split())
            if n < 40 or n > 400:
                continue
            quoted.append(p)
        else:
            b = body(rng.choice(test_posts))
            n = len(b.split())
            if n < 20 or n > 300:
                continue
        parts.append(b)
        words += n
    open(os.path.join(out, f"draft-{i}.txt"), "w").write("\n\n".join(parts))
    open(os.path.join(out, f"draft-{i}.quoted"), "w").write("\n".join(quoted))
