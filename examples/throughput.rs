//! Native pipeline throughput on a list of files, for the side-by-side comparison with the
//! WebAssembly module (`benches/wasm/run.sh`): the same texts, best of 5 runs of each of two
//! workloads, one JSON line each:
//! - `analyze`: `Document::analyze` (validate, canonicalize, stem, shingle, winnow, K = 128
//!   MinHash, exact hash, short-text signature);
//! - `sketch`: what the npm package's `Checker.sketch` computes on top of that (text statistics,
//!   disguises with UTF-16 offsets), all but building the JavaScript result.
//!
//! Each line gives the best run's wall time (`seconds`, `mb_per_s`) and the best run's
//! CPU time of the thread (`cpu_seconds`, `cpu_mb_per_s`):
//! on a loaded machine the CPU figures are the ones that compare with `throughput.mjs`'s.
//!
//! Usage: `cargo run --release --example throughput -- FILE...`

use std::time::Instant;
use uniqcheck::canonicalize::disguises;
use uniqcheck::stats::TextStats;
use uniqcheck::{Document, Format, OffsetConverter, Params, Unit};

/// One workload: a text's analysis, or `None` where the engine refuses the text.
type Work<'a> = dyn Fn(&str) -> Option<Document> + 'a;

/// CPU time this thread has run, in seconds, or `None` where the system does not say.
fn thread_cpu_seconds() -> Option<f64> {
    Some(
        cpu_time::ThreadTime::try_now()
            .ok()?
            .as_duration()
            .as_secs_f64(),
    )
}

fn main() {
    let texts: Vec<String> = std::env::args()
        .skip(1)
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let params = Params::default();
    let analyze = |t: &str| Document::analyze(t, Format::Plain, &params, usize::MAX).ok();
    let sketch = |t: &str| {
        let d = analyze(t)?;
        let stats = TextStats::of(t, Format::Plain, &d.canonical);
        let utf16 = OffsetConverter::new(t, Unit::Utf16);
        let hidden: usize = disguises(t, Format::Plain, &d.canonical)
            .iter()
            .map(|x| utf16.convert(x.start as usize) + utf16.convert(x.end as usize))
            .sum();
        std::hint::black_box((stats, hidden));
        Some(d)
    };
    let workloads: [(&str, &Work); 2] = [("analyze", &analyze), ("sketch", &sketch)];
    for (work, f) in workloads {
        let (mut best, mut best_cpu) = (f64::MAX, f64::MAX);
        for _ in 0..5 {
            let (t, cpu) = (Instant::now(), thread_cpu_seconds());
            let words: usize = texts
                .iter()
                .filter_map(|t| f(t))
                .map(|d| d.content_words())
                .sum();
            std::hint::black_box(words);
            best = best.min(t.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu, thread_cpu_seconds()) {
                best_cpu = best_cpu.min(b - a);
            }
        }
        let cpu = if best_cpu < f64::MAX {
            format!(
                ",\"cpu_seconds\":{best_cpu:.4},\"cpu_mb_per_s\":{:.2}",
                bytes as f64 / best_cpu / 1e6
            )
        } else {
            String::new()
        };
        println!(
            "{{\"runtime\":\"native\",\"work\":\"{work}\",\"documents\":{},\"bytes\":{bytes},\"seconds\":{best:.4},\"mb_per_s\":{:.2}{cpu}}}",
            texts.len(),
            bytes as f64 / best / 1e6
        );
    }
}
