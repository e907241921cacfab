//! Stage and pipeline throughput on real text (20 Newsgroups), and `compare` latency.
//!
//! Run: `cargo bench --bench pipeline`. Data: `$UNIQCHECK_DATA` or `../shared/data` beside the
//! checkout; without it the benchmarks print a message and measure nothing.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use uniqcheck::anchor::winnow;
use uniqcheck::canonicalize::canonicalize;
use uniqcheck::shingle::shingles;
use uniqcheck::sketch::{shingle_set, Sketch};
use uniqcheck::{compare, CheckOptions, Document, Format, Params};

fn data_dir() -> PathBuf {
    std::env::var_os("UNIQCHECK_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Up to `limit` bytes of 20 Newsgroups posts, one string per post, in a fixed order.
fn newsgroups(limit: usize) -> Option<Vec<String>> {
    let root = data_dir().join("20news-bydate");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    // Interleave groups so the sample is not one topic.
    let step = 7919;
    let mut out = Vec::new();
    let mut total = 0;
    for i in 0..files.len() {
        let p = &files[(i * step) % files.len()];
        let text = String::from_utf8_lossy(&std::fs::read(p).ok()?).into_owned();
        total += text.len();
        out.push(text);
        if total >= limit {
            break;
        }
    }
    (!out.is_empty()).then_some(out)
}

fn stages(c: &mut Criterion) {
    let Some(docs) = newsgroups(4 << 20) else {
        eprintln!(
            "20 Newsgroups not found under {}: skipping the pipeline benchmarks",
            data_dir().display()
        );
        return;
    };
    let bytes: usize = docs.iter().map(String::len).sum();
    let p = Params::default();
    let canon: Vec<_> = docs
        .iter()
        .map(|d| canonicalize(d, Format::Plain, p.canon()))
        .collect();
    let hashes: Vec<Vec<u32>> = canon
        .iter()
        .map(|c| {
            c.content
                .iter()
                .map(|&i| c.words[i as usize].hash)
                .collect()
        })
        .collect();
    let sh: Vec<_> = hashes.iter().map(|h| shingles(h, p.n)).collect();

    let mut g = c.benchmark_group("stage");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("canonicalize+stem", |b| {
        b.iter(|| {
            docs.iter()
                .map(|d| {
                    canonicalize(black_box(d), Format::Plain, p.canon())
                        .words
                        .len()
                })
                .sum::<usize>()
        })
    });
    g.bench_function("shingle", |b| {
        b.iter(|| {
            hashes
                .iter()
                .map(|h| shingles(black_box(h), p.n).len())
                .sum::<usize>()
        })
    });
    g.bench_function("anchor(winnow)", |b| {
        b.iter(|| {
            sh.iter()
                .map(|s| winnow(black_box(s), p.w).len())
                .sum::<usize>()
        })
    });
    g.bench_function("sketch(K=128)", |b| {
        b.iter(|| {
            sh.iter()
                .map(|s| Sketch::from_set(&shingle_set(s.iter().map(|x| x.hash)), p.k).set_size)
                .sum::<u32>()
        })
    });
    g.bench_function("whole pipeline", |b| {
        b.iter(|| {
            docs.iter()
                .filter_map(|d| Document::analyze(black_box(d), Format::Plain, &p, usize::MAX).ok())
                .map(|d| d.fingerprints.len())
                .sum::<usize>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("pipeline-by-K");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    for k in [64usize, 128, 256] {
        let p = Params { k, ..p };
        g.bench_with_input(BenchmarkId::from_parameter(k), &p, |b, p| {
            b.iter(|| {
                docs.iter()
                    .filter_map(|d| Document::analyze(d, Format::Plain, p, usize::MAX).ok())
                    .count()
            })
        });
    }
    g.finish();
}

/// Two texts of about 10,000 words each sharing a few passages, like a long rewrite.
fn compare_10k(c: &mut Criterion) {
    let Some(docs) = newsgroups(1 << 20) else {
        return;
    };
    let words = |s: &str| s.split_whitespace().count();
    let mut a = String::new();
    let mut b = String::new();
    for (i, d) in docs.iter().enumerate() {
        if words(&a) < 10_000 {
            a.push_str(d);
        }
        // b takes every third post first, so the two texts share some posts but not all.
        if (i % 3 == 0 || a.len() > b.len()) && words(&b) < 10_000 {
            b.push_str(d);
        }
        if words(&a) >= 10_000 && words(&b) >= 10_000 {
            break;
        }
    }
    let p = Params::default();
    let o = CheckOptions {
        max_text_bytes: usize::MAX,
        ..Default::default()
    };
    let mut g = c.benchmark_group("compare");
    g.sample_size(20);
    g.bench_function("two 10,000-word texts", |bch| {
        bch.iter(|| {
            compare(
                black_box(&a),
                Format::Plain,
                black_box(&b),
                Format::Plain,
                &p,
                &o,
            )
            .unwrap()
            .fragments
            .len()
        })
    });
    g.finish();
}

criterion_group!(benches, stages, compare_10k);
criterion_main!(benches);
