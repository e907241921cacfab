//! Native side of `benches/peers/compare.sh`: our engine and gaoya on the same documents.
//!
//! ```text
//! peers corpus DATA OUT        # the 100,000 documents, the 32 drafts and our packs (cached)
//! peers sketch TOOL OUT N RUNS # sketch throughput on the first N documents, best of RUNS
//! peers index TOOL OUT RUNS    # index 1k → 10k → 100k documents; query latency, best of RUNS passes
//! peers query OUT RUNS [JSON]   # our in-memory check at 100k alone, phase by phase (src/query.rs)
//! ```
//! TOOL is `ours` or `gaoya`. Every result is one JSON line on standard output; the last field of
//! each is the process's peak RSS (`VmHWM`).
//!
//! The documents are built as `store/benches/store.rs` builds its stores: every 20 Newsgroups
//! post in a fixed shuffle, then perturbed copies (sentences shuffled, 10 % of words dropped, 5 %
//! replaced, fixed-seed RNG) up to 100,000; the drafts are 32 posts of the first 1,000 with a
//! sentence of their own in front: one construction, `store/benches/newsgroups/mod.rs`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::Instant;

#[path = "../../../../store/benches/newsgroups/mod.rs"]
mod newsgroups;
mod query;

use gaoya::minhash::{MinHashIndex, MinHasher, MinHasher32};
use uniqcheck::pack::{Builder, Manifest, Record, PAGE_BYTES};
use uniqcheck::shingle::shingles;
use uniqcheck::sketch::{shingle_set, Sketch};
use uniqcheck::{CheckOptions, Corpus, Document, Format, Params, SourceInfo};

/// The index sizes, ascending: `PEERS_SIZES` (comma-separated; compare.sh's smoke run sets small
/// ones), else 1,000, 10,000 and 100,000. The largest is the corpus's size: the smaller indexes
/// are its first documents.
fn sizes() -> Vec<usize> {
    let sizes: Vec<usize> = std::env::var("PEERS_SIZES")
        .unwrap_or_else(|_| "1000,10000,100000".into())
        .split(',')
        .map(|s| {
            s.trim()
                .parse()
                .expect("PEERS_SIZES: comma-separated numbers")
        })
        .collect();
    assert!(
        !sizes.is_empty() && sizes.windows(2).all(|w| w[0] < w[1]),
        "PEERS_SIZES: ascending numbers"
    );
    sizes
}

/// Documents in the largest index.
fn total() -> usize {
    *sizes().last().unwrap()
}
/// Bump when the corpus construction changes: cached corpora of another version are rebuilt.
const CORPUS_VERSION: u32 = 3;
/// LSH banding for every peer: 32 bands of 4 rows (K = 128), Jaccard threshold 0.5.
const BANDS: usize = 32;
const ROWS: usize = 4;
const THRESHOLD: f64 = 0.5;

fn write_record(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(&(text.len() as u32).to_le_bytes())?;
    out.write_all(text.as_bytes())
}

/// Reads `[u32 LE length][UTF-8 bytes]` records one at a time (never the whole file at once, so
/// the index runs' peak RSS is the index's, not the corpus file's).
struct Records(BufReader<File>);

impl Records {
    fn open(path: &Path) -> Records {
        let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Records(BufReader::with_capacity(1 << 20, file))
    }
}

impl Iterator for Records {
    type Item = String;
    fn next(&mut self) -> Option<String> {
        let mut len = [0u8; 4];
        self.0.read_exact(&mut len).ok()?;
        let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
        self.0.read_exact(&mut buf).expect("truncated corpus file");
        Some(String::from_utf8(buf).expect("corpus records are UTF-8"))
    }
}

/// The drafts: (text, number of the document it quotes).
fn drafts(dir: &Path) -> Vec<(String, usize)> {
    let sources: Vec<usize> = std::fs::read_to_string(dir.join("drafts.txt"))
        .expect("drafts.txt")
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    Records::open(&dir.join("drafts.bin"))
        .zip(sources)
        .collect()
}

/// Writes `files` under `dir`, creating folders as needed.
fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) {
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// Writes the generation of `builder`'s documents into `dir` (records already there):
/// its pages, table, record list and `manifest-DOCS.json`, as `uniqcheck pack` would.
fn write_generation(dir: &Path, builder: Builder, docs: usize) {
    let done = builder.finish(PAGE_BYTES);
    write_files(dir, &done.files);
    let manifest = Manifest::new(&done, 0, 0);
    let json = serde_json::to_vec_pretty(&manifest).unwrap();
    std::fs::write(dir.join(format!("manifest-{docs}.json")), json).unwrap();
}

/// Builds `OUT/docs.bin`, `OUT/drafts.bin` (+ `drafts.txt`, the quoted document of each) and
/// `OUT/packs/`, one generation per index size (`manifest-1000.json`, …; the records
/// are shared, record number = document number + 1), unless `OUT/done` says a build of this
/// version and pack format is already there.
fn corpus(data: &Path, out: &Path) {
    let stamp = out.join("done");
    let (sizes, total) = (sizes(), total());
    let list: Vec<String> = sizes.iter().map(usize::to_string).collect();
    // The pack format too: packs of another format are refused by the checker that reads them.
    let want = format!(
        "{CORPUS_VERSION} format {} {}\n",
        uniqcheck::pack::FORMAT_VERSION,
        list.join(",")
    );
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(want.as_str()) {
        eprintln!("corpus: cached in {}", out.display());
        return;
    }
    let started = Instant::now();
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out.join("packs")).unwrap();
    let posts = newsgroups::posts(&data.join("20news-bydate"));
    assert!(
        posts.len() > 1_000,
        "too few posts under {}",
        data.display()
    );
    let params = Params::default();

    let mut docs = BufWriter::new(File::create(out.join("docs.bin")).unwrap());
    let packs = out.join("packs");
    // One builder per index size: each holds the first `size` documents.
    let mut builders: Vec<Builder> = sizes.iter().map(|_| Builder::new(params)).collect();
    let (mut bytes, mut refused) = (0usize, 0usize);
    for (i, (_, _, text)) in newsgroups::documents(&posts, total).enumerate() {
        write_record(&mut docs, &text).unwrap();
        bytes += text.len();
        match Document::analyze(&text, Format::Plain, &params, 1 << 24) {
            Ok(d) => {
                let info = SourceInfo {
                    id: i.to_string(),
                    ..SourceInfo::default()
                };
                let record = Record::from_document(info, &d);
                // The same record file for every generation holding the document: written once.
                let mut file = None;
                for (b, _) in builders.iter_mut().zip(&sizes).filter(|&(_, &s)| i < s) {
                    file = Some(b.add(i as u64 + 1, &record));
                }
                write_files(&packs, file.as_slice());
            }
            Err(_) => refused += 1,
        }
    }
    for (b, &size) in builders.into_iter().zip(&sizes) {
        write_generation(&packs, b, size);
    }
    docs.flush().unwrap();

    let mut texts = BufWriter::new(File::create(out.join("drafts.bin")).unwrap());
    let mut sources = String::new();
    for (source, draft) in newsgroups::drafts(&posts) {
        if Document::analyze(&draft, Format::Plain, &params, 1 << 24).is_ok() {
            write_record(&mut texts, &draft).unwrap();
            sources += &format!("{source}\n");
        }
    }
    texts.flush().unwrap();
    std::fs::write(out.join("drafts.txt"), sources).unwrap();
    std::fs::write(&stamp, want).unwrap();
    eprintln!(
        "corpus: {total} documents ({} posts, the rest perturbed copies), {:.1} MB, \
         {refused} refused by our analysis (binary), packs of {sizes:?} documents; {:.1} s",
        posts.len(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
}

/// The peers' tokenization, as gaoya ships it (`gaoya::text::whitespace_split`): the lowercased
/// text split at ASCII whitespace and ASCII punctuation. Python and JavaScript use the same rule.
fn peer_words(lower: &str) -> impl Iterator<Item = &str> {
    gaoya::text::whitespace_split(lower)
}

/// Word 4-shingles as strings, words joined by one space (what datasketch and minhash are fed).
fn peer_shingles(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = peer_words(&lower).collect();
    words.windows(4).map(|w| w.join(" ")).collect()
}

/// Peak resident set size of this process, in KiB.
fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Best of `runs` timings of `f` over all documents; `f` returns a checksum (kept alive).
fn best_of(runs: usize, mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut sum = 0;
    for _ in 0..runs {
        let t = Instant::now();
        sum = std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, sum)
}

fn sketch_line(tool: &str, row: &str, docs: &[String], seconds: f64, shingles: usize) {
    let bytes: usize = docs.iter().map(String::len).sum();
    println!(
        "{{\"tool\":\"{tool}\",\"row\":\"{row}\",\"documents\":{},\"bytes\":{bytes},\"seconds\":{seconds:.4},\
         \"mb_per_s\":{:.3},\"docs_per_s\":{:.1},\"shingles\":{shingles},\"peak_rss_kb\":{}}}",
        docs.len(),
        bytes as f64 / seconds / 1e6,
        docs.len() as f64 / seconds,
        peak_rss_kb()
    );
}

/// Posts after the sketching set that the one-pass row reads (all originals: the corpus's first
/// 18,846 documents are the 20 Newsgroups posts, the perturbed copies come after).
const ONCE: usize = 16_000;

fn sketch(tool: &str, dir: &Path, n: usize, runs: usize) {
    let docs: Vec<String> = Records::open(&dir.join("docs.bin")).take(n).collect();
    let params = Params::default();
    match tool {
        "ours" => {
            // First, before anything warms the per-thread stem cache: one pass over posts never
            // seen before, as indexing a corpus from scratch runs. The best-of rows below read the
            // same documents several times, which the cache rewards and the peers do not.
            let others: Vec<String> = Records::open(&dir.join("docs.bin"))
                .skip(n)
                .take(ONCE)
                .collect();
            let (s, words) = best_of(1, || {
                others
                    .iter()
                    .filter_map(|t| Document::analyze(t, Format::Plain, &params, usize::MAX).ok())
                    .map(|d| d.shingles.len())
                    .sum()
            });
            sketch_line("ours-native", "pipeline-once", &others, s, words);
            drop(others);
            // The whole pipeline, as `Document::analyze` runs it for every text we index or check.
            let (s, words) = best_of(runs, || {
                docs.iter()
                    .filter_map(|t| Document::analyze(t, Format::Plain, &params, usize::MAX).ok())
                    .map(|d| d.shingles.len())
                    .sum()
            });
            sketch_line("ours-native", "pipeline", &docs, s, words);
            // The sketch alone: set (sort + dedup) and K = 128 MinHash of the pipeline's shingle
            // hashes, computed beforehand.
            let hashes: Vec<Vec<u64>> = docs
                .iter()
                .filter_map(|t| Document::analyze(t, Format::Plain, &params, usize::MAX).ok())
                .map(|d| d.shingles.iter().map(|s| s.hash).collect())
                .collect();
            let (s, n) = best_of(runs, || {
                hashes
                    .iter()
                    .map(|h| {
                        Sketch::from_set(&shingle_set(h.iter().copied()), params.k).set_size
                            as usize
                    })
                    .sum()
            });
            sketch_line("ours-native", "sketch", &docs, s, n);
            // The peers' tokens, then ours: CRC32 per word, 4-word shingle hashes, set, sketch.
            let (s, n) = best_of(runs, || {
                docs.iter()
                    .map(|t| {
                        let lower = t.to_lowercase();
                        let words: Vec<u32> = peer_words(&lower)
                            .map(|w| crc32fast::hash(w.as_bytes()))
                            .collect();
                        let set = shingle_set(shingles(&words, 4).iter().map(|s| s.hash));
                        Sketch::from_set(&set, params.k);
                        words.len().saturating_sub(3)
                    })
                    .sum()
            });
            sketch_line("ours-native", "peer-tokens", &docs, s, n);
        }
        "gaoya" => {
            let hasher = MinHasher32::new(BANDS * ROWS);
            let (s, n) = best_of(runs, || {
                docs.iter()
                    .map(|t| {
                        let sh = peer_shingles(t);
                        std::hint::black_box(hasher.create_signature(sh.iter()));
                        sh.len()
                    })
                    .sum()
            });
            sketch_line("gaoya", "sketch", &docs, s, n);
        }
        _ => panic!("unknown tool {tool}"),
    }
}

/// Query latency per index size: the mean over the drafts of the best of `runs` passes.
struct Latency {
    micros: Vec<f64>,
    /// Mean candidates per query, and drafts whose quoted document came back (last pass).
    candidates: Vec<f64>,
    found: Vec<usize>,
    build_seconds: Vec<f64>,
}

impl Latency {
    fn new() -> Latency {
        Latency {
            micros: vec![],
            candidates: vec![],
            found: vec![],
            build_seconds: vec![],
        }
    }

    /// Times `query(i)` for every draft `i`, `runs` passes after one warm-up; `query` returns the
    /// document numbers it found.
    fn measure(
        &mut self,
        drafts: usize,
        sources: &[usize],
        runs: usize,
        mut query: impl FnMut(usize) -> Vec<usize>,
    ) {
        let (mut best, mut total, mut found) = (f64::MAX, 0, 0);
        for pass in 0..=runs {
            let t = Instant::now();
            let results: Vec<Vec<usize>> = (0..drafts).map(&mut query).collect();
            let s = t.elapsed().as_secs_f64();
            if pass > 0 {
                best = best.min(s);
            }
            total = results.iter().map(Vec::len).sum();
            found = results
                .iter()
                .zip(sources)
                .filter(|(r, s)| r.contains(s))
                .count();
        }
        self.micros.push(best / drafts as f64 * 1e6);
        self.candidates.push(total as f64 / drafts as f64);
        self.found.push(found);
    }

    fn print(&self, tool: &str, row: &str, drafts: usize) {
        let list = |v: &[f64], digits: usize| {
            v.iter()
                .map(|x| format!("{x:.digits$}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        println!(
            "{{\"tool\":\"{tool}\",\"row\":\"{row}\",\"sizes\":[{}],\"query_us\":[{}],\"candidates\":[{}],\
             \"found\":[{}],\"drafts\":{drafts},\"build_seconds\":[{}],\"peak_rss_kb\":{}}}",
            sizes().iter().map(|s| s.to_string()).collect::<Vec<_>>().join(","),
            list(&self.micros, 2),
            list(&self.candidates, 1),
            self.found.iter().map(|f| f.to_string()).collect::<Vec<_>>().join(","),
            list(&self.build_seconds, 2),
            peak_rss_kb()
        );
    }
}

fn index(tool: &str, dir: &Path, runs: usize) {
    let drafts = drafts(dir);
    let sources: Vec<usize> = drafts.iter().map(|d| d.1).collect();
    let mut docs = Records::open(&dir.join("docs.bin")).enumerate();
    let params = Params::default();
    match tool {
        "ours" => {
            // Documents go in as the store keeps them: indexed by their fingerprints, aligned
            // against their records (every content word folded to 16 bits; no text).
            let opts = CheckOptions::default();
            let analysed: Vec<Document> = drafts
                .iter()
                .map(|(t, _)| Document::analyze(t, Format::Plain, &params, usize::MAX).unwrap())
                .collect();
            let mut corpus = Corpus::new(params).unwrap();
            let mut numbers: Vec<usize> = Vec::new();
            // The same lookup without its short-text part (drafts under 60 content words also
            // look up their 15 longest words): to see what that part costs.
            let no_short = CheckOptions {
                short_threshold: 0,
                ..CheckOptions::default()
            };
            let short = analysed
                .iter()
                .filter(|d| d.content_words() < opts.short_threshold)
                .count();
            let (mut cands, mut keys_only, mut checks) =
                (Latency::new(), Latency::new(), Latency::new());
            let (mut build, mut read) = (0.0, 0);
            for size in sizes() {
                let t = Instant::now();
                for (i, text) in docs.by_ref().take(size - read) {
                    read += 1;
                    if let Ok(d) = Document::analyze(&text, Format::Plain, &params, usize::MAX) {
                        let info = SourceInfo {
                            id: i.to_string(),
                            ..SourceInfo::default()
                        };
                        corpus.add_record(info, &d);
                        numbers.push(i);
                    }
                }
                build += t.elapsed().as_secs_f64();
                for l in [&mut cands, &mut keys_only, &mut checks] {
                    l.build_seconds.push(build);
                }
                cands.measure(analysed.len(), &sources, runs, |i| {
                    corpus
                        .candidates(&analysed[i], &opts)
                        .iter()
                        .map(|c| numbers[c.id as usize])
                        .collect()
                });
                keys_only.measure(analysed.len(), &sources, runs, |i| {
                    corpus
                        .candidates(&analysed[i], &no_short)
                        .iter()
                        .map(|c| numbers[c.id as usize])
                        .collect()
                });
                checks.measure(analysed.len(), &sources, runs, |i| {
                    corpus
                        .check_document(&analysed[i], &opts)
                        .sources
                        .iter()
                        .map(|s| s.info.id.parse().unwrap())
                        .collect()
                });
            }
            eprintln!(
                "ours: {short} of {} drafts are short (under {} content words)",
                analysed.len(),
                opts.short_threshold
            );
            cands.print("ours-native", "candidates", analysed.len());
            keys_only.print("ours-native", "candidates-no-short", analysed.len());
            checks.print("ours-native", "check", analysed.len());
        }
        "gaoya" => {
            let hasher = MinHasher32::new(BANDS * ROWS);
            let queries: Vec<Vec<u32>> = drafts
                .iter()
                .map(|(t, _)| hasher.create_signature(peer_shingles(t).iter()))
                .collect();
            let mut index: MinHashIndex<u32, usize> = MinHashIndex::new(BANDS, ROWS, THRESHOLD);
            let mut lat = Latency::new();
            let (mut build, mut added) = (0.0, 0);
            for size in sizes() {
                let t = Instant::now();
                for (i, text) in docs.by_ref().take(size - added) {
                    index.insert(i, hasher.create_signature(peer_shingles(&text).iter()));
                    added += 1;
                }
                build += t.elapsed().as_secs_f64();
                lat.build_seconds.push(build);
                lat.measure(queries.len(), &sources, runs, |i| {
                    index.query(&queries[i]).into_iter().copied().collect()
                });
            }
            lat.print("gaoya", "lsh-query", queries.len());
        }
        _ => panic!("unknown tool {tool}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or_default();
    let number = |i: usize| arg(i).parse::<usize>().expect("a number");
    match arg(0) {
        "corpus" => corpus(Path::new(arg(1)), Path::new(arg(2))),
        "sketch" => sketch(arg(1), Path::new(arg(2)), number(3), number(4)),
        "index" => index(arg(1), Path::new(arg(2)), number(3)),
        "query" => query::query(Path::new(arg(1)), number(2), args.get(3).map(Path::new)),
        _ => {
            eprintln!("usage: peers corpus DATA OUT | sketch ours|gaoya OUT N RUNS | index ours|gaoya OUT RUNS | query OUT RUNS [JSON]");
            std::process::exit(2);
        }
    }
}
