//! Native pipeline throughput on a list of files, for the side-by-side comparison with the
//! WebAssembly module (`benches/wasm/run.sh`): the same texts, `PASSES` passes (20 by default) of
//! each of two workloads, one JSON line each:
//! - `sketch`: what the npm package's `Checker.sketch` computes (`Document::analyze`, text
//!   statistics, disguises with UTF-16 offsets), all but building the JavaScript result; run
//!   first, so that its first pass meets an empty word cache as the wasm benches' first pass does;
//! - `analyze`: `Document::analyze` alone (validate, canonicalize, stem, shingle, winnow, K = 128
//!   MinHash, exact hash, short-text signature).
//!
//! Each line gives the steady state (`seconds`, `mb_per_s`; `cpu_seconds`, `cpu_mb_per_s` by the
//! thread's CPU time: the median of the last half of the passes), the first pass
//! (`first_mb_per_s`, `first_cpu_mb_per_s`: a user's single check is a cold one) and every pass
//! (`pass_cpu_mb_per_s`), as `benches/wasm/sketch-runs.mjs` gives them for Node and Chromium.
//! On a loaded machine the CPU figures are the ones that compare.
//!
//! Usage: `[PASSES=N] cargo run --release --example throughput -- FILE...`
//!
//! With `--stages` first, it times each stage of that work apart instead (best of 9, by CPU time),
//! one JSON line: built for `wasm32-wasip1` and run in Node by `benches/wasm/stages.mjs`, the same
//! code gives the stages' times in V8, so that where WebAssembly loses against native can be read
//! stage by stage rather than from two profiles of different programs.

use std::time::Instant;
use uniqcheck::canonicalize::disguises;
use uniqcheck::stats::TextStats;
use uniqcheck::{Document, Format, OffsetConverter, Params, Unit};

/// One workload: a text's analysis, or `None` where the engine refuses the text.
type Work<'a> = dyn Fn(&str) -> Option<Document> + 'a;

/// CPU time this thread has run, in seconds, or `None` where the system does not say.
#[cfg(not(target_arch = "wasm32"))]
fn thread_cpu_seconds() -> Option<f64> {
    Some(
        cpu_time::ThreadTime::try_now()
            .ok()?
            .as_duration()
            .as_secs_f64(),
    )
}

/// Under WASI (the `--stages` build), the CPU time of the process (Node's, with its compiler and
/// collector threads, which are idle once the code is optimised and the runs' best is taken).
#[cfg(target_os = "wasi")]
fn thread_cpu_seconds() -> Option<f64> {
    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn clock_time_get(id: u32, precision: u64, time: *mut u64) -> u16;
    }
    const PROCESS_CPUTIME: u32 = 2;
    let mut ns = 0u64;
    // SAFETY: WASI's clock call writes one u64 through the pointer it is given.
    (unsafe { clock_time_get(PROCESS_CPUTIME, 1, &mut ns) } == 0).then(|| ns as f64 / 1e9)
}

#[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// What `Checker.sketch` computes on top of the analysis `d` of `t`, all but building the
/// JavaScript result: the text's statistics and its disguises with UTF-16 offsets.
fn sketch_extras(t: &str, d: &Document) -> (TextStats, usize) {
    (
        TextStats::of(t, Format::Plain, &d.canonical),
        disguise_units(t, d),
    )
}

/// The disguises of `t` (analysed as `d`) with their UTF-16 offsets, summed.
fn disguise_units(t: &str, d: &Document) -> usize {
    let utf16 = OffsetConverter::new(t, Unit::Utf16);
    disguises(t, Format::Plain, &d.canonical)
        .iter()
        .map(|x| utf16.convert(x.start as usize) + utf16.convert(x.end as usize))
        .sum()
}

/// The best of `runs` CPU times (wall times where there is no CPU clock) of `f` over all
/// `texts`, in seconds.
fn best_of<T>(runs: usize, texts: &[T], mut f: impl FnMut(&T) -> usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let (t, cpu) = (Instant::now(), thread_cpu_seconds());
        let n: usize = texts.iter().map(&mut f).sum();
        std::hint::black_box(n);
        let took = match (cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => t.elapsed().as_secs_f64(),
        };
        best = best.min(took);
    }
    best
}

/// One timed pass over the texts: wall seconds, and the thread's CPU seconds where the system
/// says.
struct Pass {
    seconds: f64,
    cpu: Option<f64>,
}

/// The median of `xs` (not empty).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[m]
    } else {
        (xs[m - 1] + xs[m]) / 2.0
    }
}

/// The JSON fields of a run of `passes` (in order) over `bytes` bytes, as
/// `benches/wasm/sketch-runs.mjs` gives them for the wasm side: `mb_per_s` and `cpu_mb_per_s`
/// are the steady state's (the median of the last half of the passes), `first_*` the first
/// pass's (a cold word cache), `pass_*` every pass's.
fn summary(passes: &[Pass], bytes: usize) -> String {
    let steady = &passes[passes.len() / 2..];
    let rate = |s: f64| format!("{:.2}", bytes as f64 / s / 1e6);
    let wall = median(steady.iter().map(|p| p.seconds).collect());
    let mut out = format!(
        "\"passes\":{},\"seconds\":{wall:.4},\"mb_per_s\":{},\"first_mb_per_s\":{}",
        passes.len(),
        rate(wall),
        rate(passes[0].seconds)
    );
    match passes.iter().map(|p| p.cpu).collect::<Option<Vec<f64>>>() {
        Some(cpu) => {
            let steady_cpu = median(cpu[passes.len() / 2..].to_vec());
            let each: Vec<String> = cpu.iter().map(|&c| rate(c)).collect();
            out += &format!(
                ",\"cpu_seconds\":{steady_cpu:.4},\"cpu_mb_per_s\":{},\"first_cpu_mb_per_s\":{},\"pass_cpu_mb_per_s\":[{}]",
                rate(steady_cpu),
                rate(cpu[0]),
                each.join(",")
            );
        }
        None => {
            let each: Vec<String> = passes.iter().map(|p| rate(p.seconds)).collect();
            out += &format!(",\"pass_mb_per_s\":[{}]", each.join(","));
        }
    }
    out
}

/// `--stages`: each stage of `Checker.sketch`'s work over all texts, timed apart, in
/// milliseconds; the stages after canonicalization run on its stored results.
fn stages(texts: &[String]) {
    use uniqcheck::anchor::winnow;
    use uniqcheck::canonicalize::{canonicalize, CanonOptions};
    use uniqcheck::document::check_text;
    use uniqcheck::hash::combine;
    use uniqcheck::shingle::shingles;
    use uniqcheck::short::ShortSignature;
    use uniqcheck::sketch::Sketch;
    let params = Params::default();
    let runs = 9;
    let texts: Vec<&String> = texts
        .iter()
        .filter(|t| Document::analyze(t, Format::Plain, &params, usize::MAX).is_ok())
        .collect();
    let docs: Vec<(&String, Document)> = texts
        .iter()
        .map(|t| {
            let d = Document::analyze(t, Format::Plain, &params, usize::MAX).unwrap();
            (*t, d)
        })
        .collect();
    let bare = CanonOptions {
        stop_words: false,
        stemming: false,
    };
    let ms = |s: f64| (s * 1e5).round() / 100.0;
    let mut out: Vec<(&str, f64)> = Vec::new();
    out.push((
        "validate",
        best_of(runs, &texts, |t| check_text(t, usize::MAX).is_ok() as usize),
    ));
    out.push((
        "canonicalize_bare",
        best_of(runs, &texts, |t| {
            canonicalize(t, Format::Plain, bare).words.len()
        }),
    ));
    out.push((
        "canonicalize",
        best_of(runs, &texts, |t| {
            canonicalize(t, Format::Plain, params.canon()).words.len()
        }),
    ));
    out.push((
        "shingles",
        best_of(runs, &docs, |(_, d)| shingles(&d.hashes, params.n).len()),
    ));
    out.push((
        "winnow",
        best_of(runs, &docs, |(_, d)| winnow(&d.shingles, params.w).len()),
    ));
    out.push((
        "minhash",
        best_of(runs, &docs, |(_, d)| {
            Sketch::from_shingles(&d.shingles, params.k).set_size as usize
        }),
    ));
    out.push((
        "exact",
        best_of(runs, &docs, |(_, d)| combine(&d.hashes) as usize),
    ));
    out.push((
        "short",
        best_of(runs, &docs, |(_, d)| {
            ShortSignature::from_words(d.canonical.words.iter())
                .hashes
                .len()
        }),
    ));
    out.push((
        "from_canonical",
        best_of(runs, &docs, |(_, d)| {
            Document::from_canonical(d.canonical.clone(), &params)
                .fingerprints
                .len()
        }),
    ));
    out.push((
        "analyze",
        best_of(runs, &texts, |t| {
            Document::analyze(t, Format::Plain, &params, usize::MAX)
                .map_or(0, |d| d.content_words())
        }),
    ));
    out.push((
        "stats",
        best_of(runs, &docs, |(t, d)| {
            TextStats::of(t, Format::Plain, &d.canonical).words as usize
        }),
    ));
    out.push((
        "disguises",
        best_of(runs, &docs, |(t, d)| disguise_units(t, d)),
    ));
    out.push((
        "sketch",
        best_of(runs, &texts, |t| {
            let Ok(d) = Document::analyze(t, Format::Plain, &params, usize::MAX) else {
                return 0;
            };
            std::hint::black_box(sketch_extras(t, &d));
            d.content_words()
        }),
    ));
    let mut fields: Vec<String> = out
        .iter()
        .map(|(k, v)| format!("\"{k}\":{}", ms(*v)))
        .collect();
    // What the analyses gave, so that two builds can be seen to agree (exact hashes, sketches,
    // and every word's form, span and flags).
    let digest = texts.iter().fold(0u64, |acc, t| {
        let d = Document::analyze(t, Format::Plain, &params, usize::MAX).unwrap();
        let words = d.canonical.words.iter().map(|w| {
            u64::from(w.hash)
                ^ u64::from(w.start) << 32
                ^ u64::from(w.end) << 8
                ^ u64::from(w.len) << 48
                ^ u64::from(w.stop) << 60
                ^ u64::from(w.sentence) << 61
        });
        let mins = d.sketch.mins.iter().map(|&m| u64::from(m));
        words.chain(mins).fold(acc ^ d.exact, |h, x| {
            (h.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        })
    });
    fields.push(format!("\"digest\":\"{digest:016x}\""));
    println!(
        "{{\"runtime\":\"{}\",\"unit\":\"ms\",\"documents\":{},{}}}",
        if cfg!(target_arch = "wasm32") {
            "wasm"
        } else {
            "native"
        },
        texts.len(),
        fields.join(",")
    );
}

fn main() {
    let stage_mode = std::env::args().nth(1).as_deref() == Some("--stages");
    let texts: Vec<String> = std::env::args()
        .skip(1 + usize::from(stage_mode))
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    if stage_mode {
        return stages(&texts);
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let passes = std::env::var("PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .filter(|&p: &usize| p > 0)
        .unwrap_or(20);
    let params = Params::default();
    let analyze = |t: &str| Document::analyze(t, Format::Plain, &params, usize::MAX).ok();
    let sketch = |t: &str| {
        let d = analyze(t)?;
        std::hint::black_box(sketch_extras(t, &d));
        Some(d)
    };
    // `sketch` first, so that its first pass meets the word cache as empty as the wasm benches'
    // first pass does.
    let workloads: [(&str, &Work); 2] = [("sketch", &sketch), ("analyze", &analyze)];
    for (work, f) in workloads {
        let runs: Vec<Pass> = (0..passes)
            .map(|_| {
                let (t, cpu) = (Instant::now(), thread_cpu_seconds());
                let words: usize = texts
                    .iter()
                    .filter_map(|t| f(t))
                    .map(|d| d.content_words())
                    .sum();
                std::hint::black_box(words);
                let seconds = t.elapsed().as_secs_f64();
                let cpu = cpu.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
                Pass { seconds, cpu }
            })
            .collect();
        println!(
            "{{\"runtime\":\"native\",\"work\":\"{work}\",\"documents\":{},\"bytes\":{bytes},{}}}",
            texts.len(),
            summary(&runs, bytes)
        );
    }
}
