//! Stage and pipeline throughput on real text (20 Newsgroups), and `compare` latency.
//!
//! Run: `cargo bench --bench pipeline`. Data: `$UNIQCHECK_DATA` or `../shared/data` beside the
//! checkout; without it the benchmarks print a message and measure nothing.
//!
//! The yardstick (issue 18) is a plain loop that lowercases each text and splits it at ASCII
//! whitespace and punctuation (the peers' tokenization, `gaoya::text::whitespace_split`): the
//! least any word-based pipeline does. The `analysis` group measures it beside the whole analysis,
//! and `ratio` prints the analysis's throughput over the loop's, both timed in alternation in the
//! same run (medians of 15 passes each, by wall time and by the thread's CPU time), so machine load
//! moves both alike.

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
    let texts: Vec<String> = newsgroup_files(limit)?.iter().map(|p| read(p)).collect();
    (!texts.is_empty()).then_some(texts)
}

/// A file's text, decoded leniently (20 Newsgroups is mostly ASCII and Latin-1).
fn read(p: &std::path::Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned()
}

/// The files [`newsgroups`] reads.
fn newsgroup_files(limit: usize) -> Option<Vec<PathBuf>> {
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
        total += std::fs::metadata(p).ok()?.len() as usize;
        out.push(p.clone());
        if total >= limit {
            break;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The yardstick: lowercase, split at ASCII whitespace and punctuation, count the words.
fn lowercase_split(text: &str) -> usize {
    let lower = text.to_lowercase();
    lower
        .split(|c: char| c.is_ascii_whitespace() || c.is_ascii_punctuation())
        .filter(|w| !w.is_empty())
        .count()
}

/// The whole analysis of one text, as every entry point runs it.
fn analyze(text: &str, p: &Params) -> usize {
    Document::analyze(text, Format::Plain, p, usize::MAX).map_or(0, |d| d.fingerprints.len())
}

/// Whether the command line's filter (`cargo bench --bench pipeline -- FILTER`) selects `name`.
fn selected(name: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// Throughput of the whole analysis over that of the yardstick loop, timed in alternation: the
/// issue's measure (the analysis of texts in memory against the loop that reads each file, as
/// the 83 MB/s of issue 18 did), both with the files read, and both in memory.
fn ratio(_: &mut Criterion) {
    if !selected("ratio") {
        return;
    }
    let Some(files) = newsgroup_files(4 << 20) else {
        return;
    };
    let docs: Vec<String> = files.iter().map(|p| read(p)).collect();
    let bytes: usize = docs.iter().map(String::len).sum();
    let p = Params::default();
    // Wall time and the thread's CPU time (user and system: reading the files counts), which
    // moves less on a shared machine where other processes take the core away.
    let time = |f: &dyn Fn(usize) -> usize| {
        let (t, c) = (std::time::Instant::now(), cpu_time::ThreadTime::now());
        black_box((0..docs.len()).map(f).sum::<usize>());
        (t.elapsed().as_secs_f64(), c.elapsed().as_secs_f64())
    };
    let rows: [(&str, &dyn Fn(usize) -> usize); 4] = [
        ("read+lowercase+split", &|i| {
            lowercase_split(&read(&files[i]))
        }),
        ("lowercase+split", &|i| lowercase_split(black_box(&docs[i]))),
        ("read+analyze", &|i| analyze(&read(&files[i]), &p)),
        ("analyze", &|i| analyze(black_box(&docs[i]), &p)),
    ];
    let mut times = vec![Vec::new(); rows.len()];
    let mut cpu = vec![Vec::new(); rows.len()];
    for _ in 0..15 {
        for ((t, c), (_, f)) in times.iter_mut().zip(&mut cpu).zip(&rows) {
            let (wall, used) = time(f);
            t.push(wall);
            c.push(used);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let med: Vec<f64> = times.iter_mut().map(median).collect();
    let med_cpu: Vec<f64> = cpu.iter_mut().map(median).collect();
    let mbs = |s: f64| bytes as f64 / s / 1e6;
    for (((name, _), &s), &c) in rows.iter().zip(&med).zip(&med_cpu) {
        println!(
            "ratio: {name:<22} {:7.1} MB/s wall, {:7.1} MB/s CPU",
            mbs(s),
            mbs(c)
        );
    }
    for (what, m) in [("wall", &med), ("CPU", &med_cpu)] {
        println!(
            "ratio: {} files, {:.1} MB, medians of 15 by {what}: analyze / read+lowercase+split = {:.2}; \
             read+analyze / read+lowercase+split = {:.2}; analyze / lowercase+split = {:.2}",
            docs.len(),
            bytes as f64 / 1e6,
            m[0] / m[3],
            m[0] / m[2],
            m[1] / m[3]
        );
    }
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

    let mut g = c.benchmark_group("analysis");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("lowercase+split (yardstick)", |b| {
        b.iter(|| {
            docs.iter()
                .map(|d| lowercase_split(black_box(d)))
                .sum::<usize>()
        })
    });
    g.bench_function("canonicalize, no stem or stop words", |b| {
        let o = Params {
            stemming: false,
            stop_words: false,
            ..p
        }
        .canon();
        b.iter(|| {
            docs.iter()
                .map(|d| canonicalize(black_box(d), Format::Plain, o).words.len())
                .sum::<usize>()
        })
    });
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
    g.bench_function("whole pipeline", |b| {
        b.iter(|| {
            docs.iter()
                .map(|d| analyze(black_box(d), &p))
                .sum::<usize>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("stage");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
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
    g.bench_function("set(sort+dedup)", |b| {
        b.iter(|| {
            sh.iter()
                .map(|s| shingle_set(black_box(s).iter().map(|x| x.hash)).len())
                .sum::<usize>()
        })
    });
    g.bench_function("sketch(K=128) from_hashes (as the pipeline)", |b| {
        let hs: Vec<Vec<u64>> = sh
            .iter()
            .map(|s| s.iter().map(|x| x.hash).collect())
            .collect();
        b.iter(|| {
            hs.iter()
                .map(|h| Sketch::from_hashes(black_box(h), p.k).set_size)
                .sum::<u32>()
        })
    });
    g.bench_function("sketch(K=128)", |b| {
        b.iter(|| {
            sh.iter()
                .map(|s| Sketch::from_set(&shingle_set(s.iter().map(|x| x.hash)), p.k).set_size)
                .sum::<u32>()
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

criterion_group!(benches, ratio, stages, compare_10k);
criterion_main!(benches);
