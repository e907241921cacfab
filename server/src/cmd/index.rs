//! `uniqcheck index PATH... --db FILE`: add published texts to a store.
//!
//! Folders are walked recursively for .txt, .text, .md, .markdown, .html, .htm and .jsonl files
//! (one `{"url", "title", "text" | "html"}` object per line); READMEs, files without an extension
//! (a `LICENSE`) and files of other types are passed over and counted as skipped, with the reason
//! ([`walk::pass_over`]); a file named as a path is indexed whatever its name. A file's URL is its
//! path relative to the folder given (prefixed with `--base-url` when given). Files and lines
//! become documents, titles included, through [`crate::ingest`], as API bodies do.
//!
//! The work runs as a pipeline of three stages on native threads: one thread walks the files,
//! reads them and cuts batches, a pool of `--threads` threads decodes, analyses and prepares
//! each batch's rows ([`Store::prepare`]), and this thread writes each batch to the store in one
//! transaction ([`Store::write_batch`]: the writes alone) while the next one is analysed. The
//! batches' key runs are merged once, at the end ([`Store::set_bulk`]). The JSON summary says
//! how long each took (`read_seconds`, `analysis_seconds`, summed over the pool's threads, and
//! `store_seconds`), so the store's cost reads apart from the analysis'. Documents the store
//! already holds with the same text and title are recognised before analysis and not written
//! ([`store::decide`]).
//! A file or line that cannot be used is skipped and reported in the summary, grouped by reason
//! (a bad line of a .jsonl file skips that line only; a binary .jsonl, by the engine's rule, the
//! whole file);
//! a failure of the store itself stops the run (batches already written stay written).

use crate::decode::decode;
use crate::ingest;
use crate::input::{self, explain};
use crate::options::{store_error, JsonArgs, ParamsArgs, TextArgs, UsageError};
use crate::output::{self, print_json};
use crate::packs::{write_packs, PackOptions, DEFAULT_PAGE_BYTES};
use crate::store::{self, Decision, Known, NewDocument, Prepared, Store, Upsert, DEFAULT_DB};
use crate::walk;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use encoding_rs::Encoding;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::Instant;
use uniqcheck::document::check_text;
use uniqcheck::{CheckOptions, Document, Params};

/// Extensions of the files indexed when walking a folder (files without one are indexed too).
const EXTENSIONS: &[&str] = &["txt", "text", "md", "markdown", "html", "htm", "jsonl"];

/// A batch (one transaction) closes at this many documents…
const BATCH_DOCS: usize = 4096;
/// …or this many bytes of text, whichever comes first. Large batches matter: fingerprint keys
/// are random, so each commit rewrites index pages all over the file; on 20 Newsgroups, batches
/// of 4,096 documents index twice as fast as batches of 512. A crash loses at most one batch.
const BATCH_BYTES: usize = 32 << 20;

/// The reader hands the analysis at least this many units at a time (a batch's last piece can
/// be smaller), and 32 a thread with more threads.
const PIECE_UNITS: usize = 256;

/// How many file names each skip reason lists in the summary.
const EXAMPLES: usize = 3;

/// Flags of `index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Files or folders to index (folders recursively)
    #[arg(value_name = "PATH", num_args = 1.., required = true)]
    pub paths: Vec<PathBuf>,
    /// The store (created if missing)
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// Prefix of the URLs of files: URL = this + the file's path relative to the folder given
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Analysis threads [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// After indexing, write packs into this folder (as `uniqcheck pack` does)
    #[arg(long, value_name = "DIR")]
    pub pack: Option<PathBuf>,
    /// Size to aim index pages at, in bytes (with --pack)
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_PAGE_BYTES, alias = "shard-bytes")]
    pub page_bytes: usize,
    /// Publish this English–Russian table (data/bilingual/en-ru.uqbl) with the packs (with
    /// --pack), as `uniqcheck pack --bilingual` does
    #[arg(long, value_name = "FILE", requires = "pack")]
    pub bilingual: Option<PathBuf>,
    /// Refuse texts larger than this many bytes (UTF-8)
    #[arg(long, value_name = "BYTES", default_value_t = CheckOptions::default().max_text_bytes)]
    pub max_size: usize,
    /// Merge the store's key runs into one a list after indexing, whatever was written
    /// [default: only when this run wrote at least an eighth of the store's documents]
    #[arg(long)]
    pub merge: bool,
    /// Documents per transaction (for tests and tuning)
    #[arg(long, value_name = "N", default_value_t = BATCH_DOCS, hide = true)]
    pub batch: usize,
    #[command(flatten)]
    pub output: JsonArgs,
    #[command(flatten)]
    pub text: TextArgs,
    /// Engine parameters: they apply when the store is created; an existing store keeps its own
    /// (giving other ones is an error)
    #[command(flatten)]
    pub sketch: ParamsArgs,
}

/// One thing to index: a file, or a line of a .jsonl file (or a .jsonl file that cannot be read).
#[derive(Debug)]
enum Unit {
    /// A file and its bytes, read by the reader stage ([`input::read_bytes`]).
    File {
        path: PathBuf,
        url: String,
        bytes: Result<Vec<u8>>,
    },
    Line {
        place: String,
        line: String,
    },
    Unreadable(Skip),
}

/// Units read for the analysis, and whether they end a batch (a transaction).
struct Piece {
    units: Vec<Unit>,
    /// Bytes of the files and lines, as the walk found them (for the progress bar).
    bytes: u64,
    ends_batch: bool,
}

/// What became of one unit.
#[derive(Debug)]
enum Outcome {
    /// Analysed and prepared for the store ([`Store::prepare`]); the text's bytes.
    Ready(Box<Prepared>, u64),
    Unchanged,
    Skipped(Skip),
}

/// A file or line that was not indexed.
#[derive(Debug, Clone)]
struct Skip {
    /// `path` or `path:line`.
    place: String,
    /// Why, without the place: the grouping key is its head (up to the first ':' or " (").
    reason: String,
}

impl Skip {
    fn new(place: &str, err: &anyhow::Error) -> Skip {
        let message = format!("{err:#}");
        // "PATH: reason", or "cannot open PATH: cause": without the place, so reasons group.
        let reason = match message.strip_prefix(&format!("{place}: ")) {
            Some(rest) => rest.to_owned(),
            None => message.replace(&format!(" {place}"), ""),
        };
        Skip {
            place: place.to_owned(),
            reason,
        }
    }

    fn kind(&self) -> &str {
        let end = [self.reason.find(": "), self.reason.find(" (")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(self.reason.len());
        &self.reason[..end]
    }
}

/// Everything the analysis stage needs, shared by the pool's threads.
struct Shared {
    params: Params,
    max_bytes: usize,
    text: TextArgs,
    forced: Option<&'static Encoding>,
    known: HashMap<String, Known>,
    /// Nanoseconds spent in [`analyse`], summed over the threads.
    analysing: AtomicU64,
    /// Nanoseconds the reader spent in [`input::read_bytes`].
    reading: AtomicU64,
}

/// The summary of a run.
#[derive(Debug, Default, Serialize)]
struct Summary {
    db: String,
    added: usize,
    updated: usize,
    unchanged: usize,
    skipped: usize,
    /// Reason → (count, first few places).
    skipped_by_reason: BTreeMap<String, SkipGroup>,
    documents_in_store: usize,
    bytes: u64,
    seconds: f64,
    documents_per_second: f64,
    megabytes_per_second: f64,
    /// Seconds the reader thread spent opening and reading files (wall time; it overlaps with
    /// the analysis).
    read_seconds: f64,
    /// Seconds the analysis threads spent decoding, analysing and preparing documents, summed
    /// over the threads (so it can exceed `seconds`).
    analysis_seconds: f64,
    /// Seconds the writer spent in the store's transactions: the store's own cost, apart from
    /// the analysis it overlaps with.
    store_seconds: f64,
    /// The writer thread's CPU seconds in those transactions (Linux only: absent elsewhere). On
    /// a shared machine wall times count the waits for a core; this does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    store_cpu_seconds: Option<f64>,
    /// Whether the key runs were merged into one a list at the end ([`should_merge`]), and how
    /// long that took (it is not in `store_seconds`).
    merged: bool,
    merge_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pack: Option<PackSummary>,
}

/// Whether `index` merges the store's key runs at its end: always with `--merge`; otherwise
/// when there is more than one run of a list and this run wrote at least an eighth of the
/// store's documents. A merge rewrites every key pair of the store (11 s at a million
/// documents), so it follows only writes of comparable size: each merge then costs at most
/// about eight times the pairs that brought it about, and a store built in one run, or grown in
/// large steps, is left with one run a list, the fastest to check (each run costs a check about
/// 1.3 ms at a million documents; docs/PERFORMANCE.md, "Key runs"). Small additions leave the
/// runs the writes' own merging keeps (at most about two a level).
fn should_merge(forced: bool, written: usize, in_store: usize, runs: [usize; 3]) -> bool {
    runs.iter().any(|&n| n > 1) && (forced || written.saturating_mul(8) >= in_store)
}

#[derive(Debug, Default, Serialize)]
struct SkipGroup {
    count: usize,
    examples: Vec<String>,
}

/// What `--pack` wrote.
#[derive(Debug, Serialize)]
pub struct PackSummary {
    /// The pack folder.
    pub dir: String,
    /// Documents in the packs.
    pub documents: usize,
    /// Bytes of the index pages.
    pub index_bytes: u64,
    /// Bytes of the records.
    pub record_bytes: u64,
    /// Bytes of every file.
    pub bytes: u64,
}

impl Summary {
    fn skip(&mut self, skip: Skip) {
        self.skipped += 1;
        let group = self
            .skipped_by_reason
            .entry(skip.kind().to_owned())
            .or_default();
        group.count += 1;
        if group.examples.len() < EXAMPLES {
            let detail = skip.reason[skip.kind().len()..]
                .trim_start_matches(':')
                .trim();
            let detail = detail
                .strip_prefix('(')
                .and_then(|d| d.strip_suffix(')'))
                .unwrap_or(detail);
            group.examples.push(if detail.is_empty() {
                skip.place
            } else {
                format!("{} ({detail})", skip.place)
            });
        }
    }
}

/// Opens the store for writing: an existing one with its own parameters (unless others were
/// asked for explicitly, which [`Store::open`] refuses if they differ), a new one with the
/// flags' parameters.
pub fn open_for_writing(db: &Path, sketch: &ParamsArgs) -> Result<Store> {
    let explicit = sketch.explicit()?;
    match explicit {
        None if db.exists() => Store::open_existing(db),
        _ => Store::open(db, sketch.params()?),
    }
    .map_err(store_error)
}

/// Runs `index`.
pub fn run(args: IndexArgs) -> Result<()> {
    let started = Instant::now();
    let forced = args.text.encoding()?;
    let threads = match args.threads {
        Some(0) => return Err(UsageError::new("--threads must be at least 1").into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let batch_docs = args.batch.max(1);
    if args.max_size == 0 {
        return Err(UsageError::new("--max-size must be at least 1 byte").into());
    }
    for root in &args.paths {
        if input::is_stdin(root) {
            return Err(
                UsageError::new("index takes files and folders, not standard input (-)").into(),
            );
        }
        std::fs::metadata(root).with_context(|| format!("cannot read {}", root.display()))?;
    }
    let mut store = open_for_writing(&args.db, &args.sketch)?;
    // Read before indexing: a wrong table is said before the corpus is read, not after.
    let bilingual = input::bilingual(args.bilingual.as_deref(), store.params())?;
    let mut summary = Summary {
        db: args.db.display().to_string(),
        ..Summary::default()
    };
    let Collected {
        files,
        bytes: total_bytes,
        unreadable,
        passed_over,
    } = collect(&args.paths, args.base_url.as_deref());
    if files.is_empty() && unreadable.is_empty() {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        let others = match passed_over.len() {
            0 => String::new(),
            n => format!(
                "; passed over {n} other file{}, such as {}",
                if n == 1 { "" } else { "s" },
                passed_over[0].place
            ),
        };
        bail!(
            "no text files found in {} (looked for .{}, READMEs aside; name a file to \
             index it whatever its name{others})",
            paths.join(", "),
            EXTENSIONS.join(", .")
        );
    }
    for s in unreadable.into_iter().chain(passed_over) {
        summary.skip(s);
    }

    let ctx = Shared {
        params: *store.params(),
        max_bytes: args.max_size,
        text: args.text.clone(),
        forced,
        known: store.known_all()?,
        analysing: AtomicU64::new(0),
        reading: AtomicU64::new(0),
    };
    // The batches' runs wait for one merge at the end ([`Store::finish_bulk`]).
    store.set_bulk(true)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("uniqcheck-analyse-{i}"))
        .build()?;
    let progress = output::progress_bar(
        total_bytes,
        "{spinner} indexing [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
    );

    std::thread::scope(|scope| -> Result<()> {
        // Three stages, each a batch ahead of the next: the reader walks and reads the files,
        // the pool analyses the batch before, this thread writes the one before that.
        let (units_tx, units_rx) = sync_channel::<Piece>(1);
        let (tx, rx) = sync_channel::<(Vec<Outcome>, u64)>(1);
        let ctx = &ctx;
        let pool = &pool;
        let max_bytes = args.max_size;
        // The reader hands batches over in pieces, so the analysis starts after a piece is
        // read, not a whole batch; the batches (the transactions) are the same.
        let piece_units = (32 * threads).max(PIECE_UNITS);
        scope.spawn(move || {
            let mut piece: Vec<Unit> = Vec::new();
            let (mut batch_units, mut batch_bytes, mut piece_bytes) = (0usize, 0usize, 0usize);
            // Sends the units read since the last piece; false when the analysis has stopped.
            let send = |piece: &mut Vec<Unit>, bytes: usize, ends_batch: bool| {
                let units = std::mem::take(piece);
                units_tx
                    .send(Piece {
                        units,
                        bytes: bytes as u64,
                        ends_batch,
                    })
                    .is_ok()
            };
            let mut add = |unit: Unit, size: usize, piece: &mut Vec<Unit>| -> bool {
                piece.push(unit);
                batch_units += 1;
                batch_bytes += size;
                piece_bytes += size;
                let ends_batch = batch_units >= batch_docs || batch_bytes >= BATCH_BYTES;
                if ends_batch || piece.len() >= piece_units {
                    let bytes = std::mem::take(&mut piece_bytes);
                    if ends_batch {
                        (batch_units, batch_bytes) = (0, 0);
                    }
                    return send(piece, bytes, ends_batch);
                }
                true
            };
            for (path, url, size) in files {
                if is_jsonl(&path) {
                    // Lines are split here, so a large .jsonl is analysed in parallel too.
                    for unit in jsonl_units(&path) {
                        let size = match &unit {
                            Unit::Line { line, .. } => line.len() + 1,
                            Unit::File { .. } | Unit::Unreadable(_) => 0,
                        };
                        if !add(unit, size, &mut piece) {
                            return;
                        }
                    }
                } else {
                    // Opening and reading is a system call or two per file, a fifth of the
                    // analysis thread's time on 20 Newsgroups when it did it too.
                    let started = Instant::now();
                    let bytes = input::read_bytes(&path, max_bytes);
                    let nanos = started.elapsed().as_nanos() as u64;
                    ctx.reading.fetch_add(nanos, Ordering::Relaxed);
                    if !add(Unit::File { path, url, bytes }, size as usize, &mut piece) {
                        return;
                    }
                }
            }
            if !piece.is_empty() || batch_units > 0 {
                send(&mut piece, piece_bytes, true);
            }
        });
        scope.spawn(move || {
            let (mut batch, mut batch_bytes) = (Vec::new(), 0);
            for piece in units_rx {
                let outcomes: Vec<Outcome> = pool.install(|| {
                    piece
                        .units
                        .into_par_iter()
                        .map(|u| {
                            let started = Instant::now();
                            let outcome = analyse(u, ctx);
                            let nanos = started.elapsed().as_nanos() as u64;
                            ctx.analysing.fetch_add(nanos, Ordering::Relaxed);
                            outcome
                        })
                        .collect()
                });
                batch.extend(outcomes);
                batch_bytes += piece.bytes;
                // Dropping the receiver stops the reader at its next piece.
                if piece.ends_batch
                    && tx
                        .send((std::mem::take(&mut batch), std::mem::take(&mut batch_bytes)))
                        .is_err()
                {
                    return;
                }
            }
        });
        for (outcomes, bytes) in rx {
            let mut ready = Vec::new();
            for outcome in outcomes {
                match outcome {
                    Outcome::Ready(prepared, bytes) => {
                        summary.bytes += bytes;
                        ready.push(*prepared);
                    }
                    Outcome::Unchanged => summary.unchanged += 1,
                    Outcome::Skipped(skip) => summary.skip(skip),
                }
            }
            // Dropping the receiver on error stops the reader at its next batch.
            let writing = Instant::now();
            let cpu = thread_cpu_seconds();
            let results = store.write_batch(ready)?;
            summary.store_seconds += writing.elapsed().as_secs_f64();
            if let (Some(before), Some(after)) = (cpu, thread_cpu_seconds()) {
                *summary.store_cpu_seconds.get_or_insert(0.0) += after - before;
            }
            for result in results {
                match result {
                    Upsert::Added(_) => summary.added += 1,
                    Upsert::Updated(_) => summary.updated += 1,
                    Upsert::Unchanged(_) => summary.unchanged += 1,
                }
            }
            progress.inc(bytes);
        }
        Ok(())
    })?;
    progress.finish_and_clear();

    summary.documents_in_store = store.count()?;
    let written = summary.added + summary.updated;
    let merge = (written > 0 || args.merge)
        && should_merge(
            args.merge,
            written,
            summary.documents_in_store,
            store.runs()?,
        );
    let merging = Instant::now();
    store.finish_bulk(merge)?;
    if merge {
        summary.merged = true;
        summary.merge_seconds = (merging.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    summary.seconds = (seconds * 1000.0).round() / 1000.0;
    summary.analysis_seconds =
        (ctx.analysing.load(Ordering::Relaxed) as f64 / 1e6).round() / 1000.0;
    summary.read_seconds = (ctx.reading.load(Ordering::Relaxed) as f64 / 1e6).round() / 1000.0;
    summary.store_seconds = (summary.store_seconds * 1000.0).round() / 1000.0;
    summary.store_cpu_seconds = summary
        .store_cpu_seconds
        .map(|s| (s * 100.0).round() / 100.0);
    let processed = summary.added + summary.updated + summary.unchanged;
    summary.documents_per_second = (processed as f64 / seconds * 10.0).round() / 10.0;
    summary.megabytes_per_second = (summary.bytes as f64 / 1e6 / seconds * 100.0).round() / 100.0;
    if let Some(dir) = &args.pack {
        let options = PackOptions {
            page_bytes: args.page_bytes,
            bilingual,
        };
        let manifest = write_packs(&store, dir, &options)?;
        summary.pack = Some(PackSummary {
            dir: dir.display().to_string(),
            documents: manifest.documents,
            index_bytes: manifest.index_bytes,
            record_bytes: manifest.record_bytes,
            bytes: manifest.total_bytes(),
        });
    }
    let mut out = io::stdout().lock();
    if args.output.json {
        print_json(&mut out, &summary)?;
    } else {
        print_summary(&mut out, &summary)?;
    }
    Ok(())
}

/// CPU seconds (user + system) the calling thread has used, or `None` where the system does not
/// say.
fn thread_cpu_seconds() -> Option<f64> {
    Some(
        cpu_time::ThreadTime::try_now()
            .ok()?
            .as_duration()
            .as_secs_f64(),
    )
}

fn print_summary(w: &mut dyn Write, s: &Summary) -> io::Result<()> {
    writeln!(
        w,
        "Indexed into {}: {} added, {} updated, {} unchanged, {} skipped",
        s.db, s.added, s.updated, s.unchanged, s.skipped
    )?;
    writeln!(
        w,
        "  {:.2} s, {:.1} documents/s, {:.2} MB/s of new text; {} document{} in the store",
        s.seconds,
        s.documents_per_second,
        s.megabytes_per_second,
        s.documents_in_store,
        if s.documents_in_store == 1 { "" } else { "s" }
    )?;
    if s.merged {
        writeln!(
            w,
            "  key runs merged into one a list in {:.2} s",
            s.merge_seconds
        )?;
    }
    if s.skipped > 0 {
        writeln!(w, "Skipped:")?;
        for (reason, group) in &s.skipped_by_reason {
            let more = group.count.saturating_sub(group.examples.len());
            let more = if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            };
            writeln!(
                w,
                "  {reason} ({}): {}{more}",
                group.count,
                group.examples.join(", ")
            )?;
        }
    }
    if let Some(p) = &s.pack {
        writeln!(
            w,
            "Packs in {}: {} documents, {} bytes ({} in index pages, {} in records)",
            p.dir, p.documents, p.bytes, p.index_bytes, p.record_bytes
        )?;
    }
    Ok(())
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

fn is_jsonl(path: &Path) -> bool {
    extension(path).as_deref() == Some("jsonl")
}

/// What [`collect`] found.
struct Collected {
    /// The files with their URLs and sizes, in a stable order (each root sorted by name).
    files: Vec<(PathBuf, String, u64)>,
    /// Their total size.
    bytes: u64,
    /// What could not be walked.
    unreadable: Vec<Skip>,
    /// Files inside the folders that are not texts (other types, READMEs).
    passed_over: Vec<Skip>,
}

/// The files under `roots` with their URLs, and what was left out.
fn collect(roots: &[PathBuf], base_url: Option<&str>) -> Collected {
    let walk = walk::text_files(roots, EXTENSIONS);
    let skip = |place: &Path, reason: String| Skip {
        place: place.display().to_string(),
        reason,
    };
    Collected {
        bytes: walk.found.iter().map(|f| f.size).sum(),
        files: walk
            .found
            .into_iter()
            .map(|f| {
                let url = file_url(&f.rel, base_url);
                (f.path, url, f.size)
            })
            .collect(),
        unreadable: walk
            .unreadable
            .into_iter()
            .map(|u| skip(Path::new(&u.place), format!("unreadable: {}", u.reason)))
            .collect(),
        passed_over: walk
            .passed_over
            .into_iter()
            .map(|p| skip(&p.path, p.reason))
            .collect(),
    }
}

/// The URL of a file at `rel` (relative to the folder given): the path with `/` separators, or
/// `base` joined with it, percent-encoded, when a base URL is given.
fn file_url(rel: &Path, base: Option<&str>) -> String {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let path = parts.join("/");
    let Some(base) = base else {
        return path;
    };
    let mut url = base.trim_end_matches('/').to_owned();
    url.push('/');
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                url.push(b as char)
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

/// The lines of a .jsonl file as units (blank lines dropped); an unreadable file is one skip.
fn jsonl_units(path: &Path) -> Vec<Unit> {
    let name = path.display().to_string();
    let text = std::fs::read(path)
        .map_err(|e| anyhow!("{name}: cannot read: {e}"))
        .and_then(|bytes| decode(bytes, None).map_err(|e| anyhow!("{name}: {e}")));
    // Binary or not is the engine's one rule, on the whole file: a stray NUL on one line
    // leaves the others (that line then fails as JSON, alone), a binary file is one skip.
    let text = text.and_then(|decoded| {
        check_text(&decoded.text, usize::MAX)
            .map(|()| decoded.text)
            .map_err(|e| explain(&name, e, false))
    });
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            return vec![Unit::Unreadable(Skip::new(&name, &e))];
        }
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Unit::Line {
            place: format!("{name}:{}", i + 1),
            line: l.to_owned(),
        })
        .collect()
}

/// Decodes and analyses one unit.
fn analyse(unit: Unit, ctx: &Shared) -> Outcome {
    let (place, new) = match unit {
        Unit::File { path, url, bytes } => {
            let place = path.display().to_string();
            match bytes.and_then(|bytes| read_file(&path, url, bytes, ctx)) {
                Ok(new) => (place, new),
                Err(e) => return Outcome::Skipped(Skip::new(&place, &e)),
            }
        }
        Unit::Line { place, line } => match ingest::from_jsonl_line(&line) {
            Ok(new) => (place, new),
            Err(e) => {
                return Outcome::Skipped(Skip {
                    place,
                    reason: e.to_string(),
                })
            }
        },
        Unit::Unreadable(skip) => return Outcome::Skipped(skip),
    };
    if let Decision::Unchanged(_) = store::decide(ctx.known.get(&new.url), &new) {
        return Outcome::Unchanged;
    }
    let bytes = new.text.len() as u64;
    let doc = match Document::analyze(&new.text, new.format, &ctx.params, ctx.max_bytes) {
        Ok(doc) => doc,
        Err(e) => return Outcome::Skipped(Skip::new(&place, &explain(&place, e, false))),
    };
    // The row values are made here, on the analysis threads, so the single writer only writes.
    match Store::prepare(new, &doc, &ctx.params) {
        Ok(prepared) => Outcome::Ready(Box::new(prepared), bytes),
        Err(e) => Outcome::Skipped(Skip::new(&place, &anyhow!(e))),
    }
}

fn read_file(path: &Path, url: String, bytes: Vec<u8>, ctx: &Shared) -> Result<NewDocument> {
    let input = input::from_bytes(path, bytes, &ctx.text, ctx.forced)?;
    Ok(ingest::from_file(path, url, input.text, input.format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_merged_after_large_writes_or_when_asked() {
        // One run a list already: nothing to merge, even when asked.
        assert!(!should_merge(true, 100, 100, [1, 1, 0]));
        // A store built or grown by an eighth or more in this run.
        assert!(should_merge(false, 100, 100, [2, 1, 1]));
        assert!(should_merge(false, 125, 1000, [1, 3, 1]));
        // A small addition to a large store keeps its runs, unless asked.
        assert!(!should_merge(false, 124, 1000, [3, 3, 3]));
        assert!(should_merge(true, 0, 1000, [3, 3, 3]));
    }

    #[test]
    fn urls_are_relative_paths_or_joined_with_the_base() {
        let rel = Path::new("blog").join("чай 1.md");
        assert_eq!(file_url(&rel, None), "blog/чай 1.md");
        assert_eq!(
            file_url(&rel, Some("https://example.com/posts/")),
            "https://example.com/posts/blog/%D1%87%D0%B0%D0%B9%201.md"
        );
    }

    #[test]
    fn skips_group_by_the_head_of_their_reason() {
        let s = Skip {
            place: "a.txt".into(),
            reason: "looks like binary data, not text (a NUL byte at offset 8)".into(),
        };
        assert_eq!(s.kind(), "looks like binary data, not text");
        let mut summary = Summary::default();
        summary.skip(s);
        let g = &summary.skipped_by_reason["looks like binary data, not text"];
        assert_eq!(g.examples, ["a.txt (a NUL byte at offset 8)"]);
    }
}
