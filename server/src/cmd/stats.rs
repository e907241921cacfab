//! `uniqcheck stats --db FILE`: what a store holds and how it was made.

use crate::options::{store_error, DbArgs, JsonArgs};
use crate::output::print_json;
use crate::store::{Stats, Store};
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use std::io::{self, Write};
use uniqcheck::Params;

/// Flags of `stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub db: DbArgs,
    #[command(flatten)]
    pub output: JsonArgs,
}

#[derive(Debug, Serialize)]
struct StatsJson<'a> {
    db: String,
    #[serde(flatten)]
    stats: &'a Stats,
    params: &'a Params,
}

/// Runs `stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    let store = Store::open_existing(&args.db.db).map_err(store_error)?;
    let stats = store.stats()?;
    let p = store.params();
    let mut out = io::stdout().lock();
    if args.output.json {
        let json = StatsJson {
            db: args.db.db.display().to_string(),
            stats: &stats,
            params: p,
        };
        print_json(&mut out, &json)?;
        return Ok(());
    }
    let per_doc = |v: u64| {
        if stats.documents == 0 {
            0.0
        } else {
            v as f64 / stats.documents as f64
        }
    };
    writeln!(out, "{}", args.db.db.display())?;
    writeln!(out, "  documents     {}", stats.documents)?;
    writeln!(
        out,
        "  words         {} ({:.0} per document)",
        stats.words,
        per_doc(stats.words)
    )?;
    writeln!(
        out,
        "  fingerprints  {} ({:.1} per document)",
        stats.fingerprints,
        per_doc(stats.fingerprints)
    )?;
    writeln!(
        out,
        "  records       {} bytes ({:.0} per document)",
        stats.record_bytes,
        per_doc(stats.record_bytes)
    )?;
    writeln!(
        out,
        "  file          {} bytes ({:.0} per document)",
        stats.file_bytes,
        per_doc(stats.file_bytes)
    )?;
    writeln!(out, "  changes       {}", stats.changes)?;
    let [f, l, s] = stats.key_runs;
    writeln!(
        out,
        "  key runs      {f} fingerprints, {l} long words, {s} sentences (one a list checks fastest: index --merge)"
    )?;
    writeln!(
        out,
        "  params        n = {}, w = {}, k = {}, stop words {}, stemming {}",
        p.n,
        p.w,
        p.k,
        if p.stop_words { "removed" } else { "kept" },
        if p.stemming { "on" } else { "off" }
    )?;
    Ok(())
}
