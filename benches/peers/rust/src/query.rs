//! `peers query OUT RUNS [REPORTS]`: our in-memory check alone (issue 18's in-memory target), the
//! two query rows of `peers index ours` at 100,000 documents without the smaller indexes or the
//! peers, then the same check taken apart phase by phase, and optionally the 32 reports as JSON
//! (to prove that a change to the check leaves its results as they were).
//!
//! Every figure is a mean per draft, best of RUNS passes after one warm-up pass, as wall clock and
//! as this thread's CPU time (the machine is shared: CPU time is what the check itself cost); the
//! whole check also as the process's CPU time (`check_process_cpu_us`: its candidates may be
//! aligned on several threads, whose time the calling thread's leaves out). The
//! phases are timed one at a time, each over every (draft, candidate) pair, on inputs the earlier
//! phases made beforehand, through the engine's public functions standing alone: work the check
//! itself does once per draft (the draft's shingle set, word pairs and sentence counts) or once
//! per source (one shingle index for similarity and seeds) is counted here in every function
//! that needs it, so the phases add up to more than `pair::find_source`, the whole of one pair.
//! `PEERS_PROFILE=N` runs N passes of the checks alone, for a profiler. `PEERS_LONG=DATA` checks
//! the 32 drafts of about 1,000 words instead (`newsgroups::long_drafts` of the 20 Newsgroups
//! posts in `DATA/20news-bydate`, as the store benchmark's `1000_words`).

use std::path::Path;
use std::time::Instant;

use uniqcheck::align::rewrite::{combine, rewrites, rewritten, RewriteOptions};
use uniqcheck::align::{against_words, align, ShingleIndex, SourceIndex, Words};
use uniqcheck::index::{checked_candidates, Index};
use uniqcheck::pack::Record;
use uniqcheck::pair::{find_source, Draft, Source};
use uniqcheck::report::{Method, Report};
use uniqcheck::shingle::shingles;
use uniqcheck::sketch::exact_similarity;
use uniqcheck::{CheckOptions, Corpus, Document, Format, Params, SourceInfo};

use crate::{drafts, peak_rss_kb, total, Records};

/// CPU time of this thread, in seconds: on a machine shared with other jobs, the time the check
/// itself took, whoever else ran meanwhile.
fn thread_cpu() -> f64 {
    cpu_time::ThreadTime::now().as_duration().as_secs_f64()
}

/// CPU time of the whole process, in seconds: the check's alignment may run on several threads
/// (`check::check_document`), and the calling thread's CPU time leaves theirs out.
fn process_cpu() -> f64 {
    cpu_time::ProcessTime::now().as_duration().as_secs_f64()
}

/// Best of `runs` timings of `f` (after one warm-up), as µs per draft: (wall clock, thread CPU).
fn per_draft(drafts: usize, runs: usize, f: impl FnMut() -> usize) -> (f64, f64) {
    let (wall, cpu, _) = per_draft_all(drafts, runs, f);
    (wall, cpu)
}

/// [`per_draft`], and the process's CPU time (best of the same passes).
fn per_draft_all(drafts: usize, runs: usize, mut f: impl FnMut() -> usize) -> (f64, f64, f64) {
    let (mut wall, mut cpu, mut process) = (f64::MAX, f64::MAX, f64::MAX);
    for pass in 0..=runs {
        let (t, c, p) = (Instant::now(), thread_cpu(), process_cpu());
        std::hint::black_box(f());
        let (s, c, p) = (
            t.elapsed().as_secs_f64(),
            thread_cpu() - c,
            process_cpu() - p,
        );
        if pass > 0 {
            wall = wall.min(s);
            cpu = cpu.min(c);
            process = process.min(p);
        }
    }
    let us = |s: f64| s / drafts as f64 * 1e6;
    (us(wall), us(cpu), us(process))
}

/// Words of a record as `pair::find_record` makes them.
fn decode(r: &Record, n: usize) -> Words {
    Words::from_folded(r.words(), n).with_sentences(r.sentences.clone())
}

pub fn query(dir: &Path, runs: usize, reports_out: Option<&Path>) {
    let params = Params::default();
    let opts = CheckOptions::default();
    let texts: Vec<(String, usize)> = match std::env::var_os("PEERS_LONG") {
        Some(data) => {
            let posts = crate::newsgroups::posts(&Path::new(&data).join("20news-bydate"));
            crate::newsgroups::long_drafts(&posts)
                .into_iter()
                .map(|(source, text)| (text, source))
                .collect()
        }
        None => drafts(dir),
    };
    let analysed: Vec<Document> = texts
        .iter()
        .map(|(t, _)| Document::analyze(t, Format::Plain, &params, usize::MAX).unwrap())
        .collect();
    let t = Instant::now();
    let mut corpus = Corpus::new(params).unwrap();
    // The corpus's records again, by document id, for the phases (the corpus lends its own only
    // inside a callback).
    let mut records: Vec<Record> = Vec::new();
    for (i, text) in Records::open(&dir.join("docs.bin"))
        .enumerate()
        .take(total())
    {
        if let Ok(d) = Document::analyze(&text, Format::Plain, &params, usize::MAX) {
            let info = SourceInfo {
                id: i.to_string(),
                ..SourceInfo::default()
            };
            records.push(Record::from_document(info.clone(), &d));
            corpus.add_record(info, &d);
        }
    }
    let build = t.elapsed().as_secs_f64();
    let n = analysed.len();

    // PEERS_PROFILE=N: only N passes of the checks, for a profiler (`perf record -D`).
    if let Some(passes) = std::env::var("PEERS_PROFILE")
        .ok()
        .and_then(|p| p.parse().ok())
    {
        eprintln!("built in {build:.1} s; {passes} passes of the checks");
        for _ in 0..passes {
            for d in &analysed {
                std::hint::black_box(corpus.check_document(d, &opts));
            }
        }
        return;
    }
    // The two rows of `peers index ours`.
    let candidates_us = per_draft(n, runs, || {
        analysed
            .iter()
            .map(|d| corpus.candidates(d, &opts).len())
            .sum()
    });
    let check_us = per_draft_all(n, runs, || {
        analysed
            .iter()
            .map(|d| corpus.check_document(d, &opts).sources.len())
            .sum()
    });
    let reports: Vec<Report> = analysed
        .iter()
        .map(|d| corpus.check_document(d, &opts))
        .collect();

    // The phases.
    let mut phases: Vec<(&str, (f64, f64))> = Vec::new();
    let prepared: Vec<Draft<'_>> = analysed.iter().map(|d| Draft::new(d, &params)).collect();
    phases.push((
        "draft prepared (Draft::new)",
        per_draft(n, runs, || {
            analysed
                .iter()
                .map(|d| Draft::new(d, &params).words.hashes.len())
                .sum()
        }),
    ));
    let ids: Vec<Vec<u64>> = prepared
        .iter()
        .map(|d| checked_candidates(&corpus, d, &opts).unwrap().0)
        .collect();
    phases.push((
        "candidates (index::checked_candidates)",
        per_draft(n, runs, || {
            prepared
                .iter()
                .map(|d| checked_candidates(&corpus, d, &opts).unwrap().0.len())
                .sum()
        }),
    ));
    // (draft, record) pairs in check order.
    let records = &records;
    let pairs: Vec<(usize, &Record)> = ids
        .iter()
        .enumerate()
        .flat_map(|(k, ids)| ids.iter().map(move |&id| (k, &records[id as usize])))
        .collect();
    phases.push((
        "records fetched (Index::records)",
        per_draft(n, runs, || {
            let mut count = 0;
            for ids in &ids {
                corpus
                    .records(ids, &mut |s| {
                        count += matches!(s, Source::Record(_)) as usize;
                    })
                    .unwrap();
            }
            count
        }),
    ));
    let words: Vec<Words> = pairs.iter().map(|(_, r)| decode(r, params.n)).collect();
    phases.push((
        "records decoded (Words::from_folded)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .map(|(_, r)| decode(r, params.n).shingles.len())
                .sum()
        }),
    ));
    phases.push((
        "resemblance, containment (exact_similarity)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&words)
                .map(|(&(k, _), w)| {
                    let (r, c) = exact_similarity(
                        prepared[k].words.shingles.iter().map(|s| s.hash),
                        w.shingles.iter().map(|s| s.hash),
                    );
                    (r + c > 0.0) as usize
                })
                .sum()
        }),
    ));
    let indexes: Vec<ShingleIndex> = words
        .iter()
        .map(|w| ShingleIndex::new(&w.shingles))
        .collect();
    phases.push((
        "per-candidate shingle index (ShingleIndex::new)",
        per_draft(n, runs, || {
            words
                .iter()
                .map(|w| {
                    std::hint::black_box(ShingleIndex::new(&w.shingles))
                        .positions(0)
                        .len()
                })
                .sum()
        }),
    ));
    phases.push((
        "seeds into fragments (align, n = 4)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&indexes)
                .map(|(&(k, _), ix)| {
                    align(&prepared[k].words.shingles, ix, params.n, opts.gap).len()
                })
                .sum()
        }),
    ));
    phases.push((
        "extension built (2-word shingles, both sides, index)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&words)
                .map(|(&(k, _), w)| {
                    let d = shingles(&prepared[k].words.hashes, 2);
                    let s = ShingleIndex::new(&shingles(&w.hashes, 2));
                    d.len() + s.positions(0).len()
                })
                .sum()
        }),
    ));
    let aligned: Vec<_> = pairs
        .iter()
        .zip(&words)
        .map(|(&(k, _), w)| against_words(&prepared[k].words, w, &params, &opts))
        .collect();
    phases.push((
        "against_words in all (the three above, extension align, chains)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&words)
                .map(|(&(k, _), w)| against_words(&prepared[k].words, w, &params, &opts).0.len())
                .sum()
        }),
    ));
    // `align_pair`: sentence-level rewrites unless a fragment is a verbatim copy (25 words).
    let verbatim: Vec<bool> = aligned
        .iter()
        .map(|(f, _)| f.iter().any(|m| m.draft.len() >= 25))
        .collect();
    phases.push((
        "rewrites (sentence seeds, extension, filter)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&words)
                .zip(&verbatim)
                .filter(|(_, &v)| !v)
                .map(|((&(k, _), w), _)| {
                    rewrites(&prepared[k].words, w, &RewriteOptions::default()).len()
                })
                .sum()
        }),
    ));
    let rewritten_in: Vec<_> = pairs
        .iter()
        .zip(&words)
        .zip(&aligned)
        .zip(&verbatim)
        .map(|(((&(k, _), w), (_, det)), &v)| {
            if v {
                det.clone()
            } else {
                combine(
                    det.clone(),
                    &rewrites(&prepared[k].words, w, &RewriteOptions::default()),
                )
            }
        })
        .collect();
    phases.push((
        "rewritten sentences (rewritten)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .zip(&words)
                .zip(&rewritten_in)
                .map(|((&(k, _), w), det)| rewritten(&prepared[k].words, w, det).len())
                .sum()
        }),
    ));
    phases.push((
        "one pair in all (pair::find_source)",
        per_draft(n, runs, || {
            pairs
                .iter()
                .map(|&(k, r)| {
                    find_source(&prepared[k], Source::Record(r), &params, &opts)
                        .spans
                        .len()
                })
                .sum()
        }),
    ));
    let findings: Vec<Vec<_>> = ids
        .iter()
        .enumerate()
        .map(|(k, ids)| {
            ids.iter()
                .map(|&id| {
                    find_source(
                        &prepared[k],
                        Source::Record(&records[id as usize]),
                        &params,
                        &opts,
                    )
                })
                .collect()
        })
        .collect();
    phases.push((
        "report (quotations, method, Report::build; findings cloned)",
        per_draft(n, runs, || {
            findings
                .iter()
                .zip(&analysed)
                .map(|(f, d)| {
                    let mut f = f.clone();
                    uniqcheck::report::cut_quotations(d, &mut f, opts.gap);
                    let method = Method::decide(d, &f, &opts);
                    Report::build(d, f, method).sources.len()
                })
                .sum()
        }),
    ));
    phases.push((
        "findings cloned (subtract from the report)",
        per_draft(n, runs, || findings.iter().map(|f| f.clone().len()).sum()),
    ));

    let cands: usize = ids.iter().map(Vec::len).sum();
    let sources: usize = reports.iter().map(|r| r.sources.len()).sum();
    println!(
        "{{\"tool\":\"ours-native\",\"row\":\"query\",\"documents\":{},\"drafts\":{n},\
         \"candidates_us\":{:.2},\"check_us\":{:.2},\"candidates_cpu_us\":{:.2},\"check_cpu_us\":{:.2},\
         \"check_process_cpu_us\":{:.2},\"aligned_per_draft\":{:.2},\"sources_per_draft\":{:.2},\"build_seconds\":{build:.1},\
         \"peak_rss_kb\":{}}}",
        corpus.len(),
        candidates_us.0,
        check_us.0,
        candidates_us.1,
        check_us.1,
        check_us.2,
        cands as f64 / n as f64,
        sources as f64 / n as f64,
        peak_rss_kb()
    );
    eprintln!(
        "phase (µs per draft, best of {runs})                                   wall      CPU"
    );
    for (name, (wall, cpu)) in &phases {
        eprintln!("{name:<66} {wall:>8.2} {cpu:>8.2}");
    }
    if let Some(path) = reports_out {
        let json = serde_json::to_string_pretty(&reports).unwrap();
        std::fs::write(path, json + "\n").unwrap();
        eprintln!("reports: {}", path.display());
    }
}
