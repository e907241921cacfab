//! `uniqcheck dedup --db FILE`: every near-duplicate group already in a store.
//!
//! The work is [`crate::store::dedup`]'s: each document looked up in the store's indexes as a check
//! of its text would be (never all pairs), candidate pairs scored by `--method` (default
//! `aligned`: the engine's alignment, how much of each the other covers; at its threshold or
//! `--threshold`), and groups made by centre-based complete-link
//! clustering, so that every two members of a group are near-duplicates and a chain of
//! documents, each like the next, is never one group. Each group names a document to keep: the
//! longest (most content words), ties going to the one indexed first.
//!
//! Output: a summary and the groups (default), `--json`, or `--csv` (one row per member:
//! group, id, url, title, words, similarity to the group's centre, keep).

use crate::options::{parse_method, store_error, UsageError};
use crate::output;
use crate::store::dedup::{dedup, Dedup, DedupError};
use crate::store::Store;
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;
use uniqcheck::methods::{AnyMethod, Kind};
use uniqcheck::CheckOptions;

/// Flags of `dedup`.
#[derive(Debug, Args)]
pub struct DedupArgs {
    /// The store: an SQLite file made by `uniqcheck index`
    #[arg(long, value_name = "FILE", default_value = uniqcheck_store::DEFAULT_DB)]
    pub db: PathBuf,
    /// The near-duplicate method that scores candidate pairs: aligned (the engine's alignment:
    /// each text covers at least 60 % of the other), shingles, broder, broder-minhash,
    /// descriptive, simhash, short (char-cosine needs the text, which a store does not keep)
    #[arg(long, value_name = "METHOD", value_parser = parse_method, default_value = "aligned")]
    pub method: Kind,
    /// The method's duplicate threshold, 0..=1 (default: its source's)
    #[arg(long, value_name = "T")]
    pub threshold: Option<f64>,
    /// Score at most this many candidates per document, those sharing the most keys first
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_candidates: usize,
    /// Print JSON
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: one row per member of a group
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, Serialize)]
struct DedupJson<'a> {
    db: String,
    method: Kind,
    threshold: f64,
    elapsed_seconds: f64,
    #[serde(flatten)]
    found: &'a Dedup,
}

/// Runs `dedup`.
pub fn run(args: DedupArgs) -> Result<()> {
    if let Some(t) = args.threshold.filter(|t| !(0.0..=1.0).contains(t)) {
        return Err(
            UsageError::new(format!("--threshold must be between 0 and 1, not {t}")).into(),
        );
    }
    if args.method.needs_characters() {
        return Err(UsageError::new(format!(
            "--method {} reads the text's characters, and a store keeps only word hashes: choose another method",
            args.method.name()
        ))
        .into());
    }
    let store = Store::open_existing(&args.db).map_err(store_error)?;
    // The store's parameters: the shingles method cuts shingles of the store's length.
    let method = AnyMethod::new(args.method, store.params());
    let method = match args.threshold {
        Some(t) => method.with_threshold(t),
        None => method,
    };
    let started = Instant::now();
    let bar = output::progress_bar(
        store.count().map_err(store_error)? as u64,
        "{spinner} looking up [{bar:30}] {pos}/{len} documents ({per_sec}, {eta} left)",
    );
    let found = dedup(
        &store,
        &method,
        &CheckOptions::default(),
        args.max_candidates,
        &mut |done| bar.set_position(done as u64),
    )
    .map_err(|e| match e {
        DedupError::Store(e) => store_error(e),
        e => e.into(),
    })?;
    bar.finish_and_clear();
    let json = DedupJson {
        db: args.db.display().to_string(),
        method: args.method,
        threshold: method.threshold(),
        elapsed_seconds: started.elapsed().as_secs_f64(),
        found: &found,
    };
    let mut stdout = io::stdout().lock();
    if args.json {
        output::print_json(&mut stdout, &json)?;
    } else if args.csv {
        print_csv(&mut stdout, &found)?;
    } else {
        print_groups(&mut stdout, &json)?;
    }
    Ok(())
}

/// A CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn print_csv(w: &mut dyn Write, found: &Dedup) -> io::Result<()> {
    writeln!(w, "group,id,url,title,words,similarity,keep")?;
    for (g, group) in found.groups.iter().enumerate() {
        for m in &group.members {
            writeln!(
                w,
                "{},{},{},{},{},{:.4},{}",
                g + 1,
                m.id,
                field(&m.url),
                field(&m.title),
                m.words,
                m.similarity,
                m.id == group.keep
            )?;
        }
    }
    Ok(())
}

fn print_groups(w: &mut dyn Write, json: &DedupJson<'_>) -> io::Result<()> {
    let f = json.found;
    writeln!(
        w,
        "{}: {} documents, {} candidate pairs scored by {} (duplicate at {:.3} or more), {} near-duplicate pairs, {} groups ({:.1} s)",
        json.db,
        f.documents,
        f.candidate_pairs,
        json.method.name(),
        json.threshold,
        f.duplicate_pairs,
        f.groups.len(),
        json.elapsed_seconds
    )?;
    for (g, group) in f.groups.iter().enumerate() {
        writeln!(w, "\ngroup {} ({} documents)", g + 1, group.members.len())?;
        for m in &group.members {
            let keep = if m.id == group.keep { "keep" } else { "    " };
            writeln!(w, "  {keep} {:.3}  #{}  {}", m.similarity, m.id, m.url)?;
        }
    }
    Ok(())
}
