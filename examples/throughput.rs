//! Native pipeline throughput on a list of files, for the side-by-side comparison with the
//! WebAssembly module (`benches/wasm/run.sh`): the same texts, the same work
//! (`Document::analyze`: canonicalize, stem, shingle, winnow, K = 128 MinHash).
//!
//! Usage: `cargo run --release --example throughput -- FILE...` → one JSON line.

use std::time::Instant;
use uniqcheck::{Document, Format, Params};

fn main() {
    let texts: Vec<String> = std::env::args()
        .skip(1)
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let params = Params::default();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let words: usize = texts
            .iter()
            .filter_map(|t| Document::analyze(t, Format::Plain, &params, usize::MAX).ok())
            .map(|d| d.content_words())
            .sum();
        std::hint::black_box(words);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{{\"runtime\":\"native\",\"documents\":{},\"bytes\":{bytes},\"seconds\":{best:.4},\"mb_per_s\":{:.2}}}",
        texts.len(),
        bytes as f64 / best / 1e6
    );
}
