//! `uniqcheck pack --db FILE -o DIR`: write the store as pack files (format version 6: records,
//! index pages named by generation and number, the page table, record list) and a manifest, for
//! any static host.
//!
//! The folder can be served by any static file server (or by `uniqcheck serve`, which rewrites
//! it after every change); see [`crate::packs`] for the layout and its guarantees.

use crate::options::{store_error, DbArgs, JsonArgs};
use crate::output::print_json;
use crate::packs::{write_packs, PackOptions, DEFAULT_PAGE_BYTES};
use crate::store::Store;
use anyhow::Result;
use clap::Args;
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;

/// Flags of `pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// The folder to write into (created if missing)
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Size to aim index pages at, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_PAGE_BYTES, alias = "shard-bytes")]
    pub page_bytes: usize,
    /// Publish this English–Russian table (data/bilingual/en-ru.uqbl) with the packs: checks
    /// through them fetch it once (about 0.8 MB) and find drafts translated from a source in the
    /// other language
    #[arg(long, value_name = "FILE")]
    pub bilingual: Option<PathBuf>,
    #[command(flatten)]
    pub output: JsonArgs,
}

#[derive(Debug, Serialize)]
struct PackJson {
    dir: String,
    documents: usize,
    index_bytes: u64,
    record_bytes: u64,
    bytes: u64,
    bytes_per_document: f64,
    changes: i64,
}

/// Runs `pack`.
pub fn run(args: PackArgs) -> Result<()> {
    if args.page_bytes == 0 {
        return Err(crate::options::UsageError::new("--page-bytes must be at least 1").into());
    }
    let store = Store::open_existing(&args.db.db).map_err(store_error)?;
    let options = PackOptions {
        page_bytes: args.page_bytes,
        bilingual: crate::input::bilingual(args.bilingual.as_deref(), store.params())?,
    };
    let manifest = write_packs(&store, &args.out, &options)?;
    let bytes = manifest.total_bytes();
    let summary = PackJson {
        dir: args.out.display().to_string(),
        documents: manifest.documents,
        index_bytes: manifest.index_bytes,
        record_bytes: manifest.record_bytes,
        bytes,
        bytes_per_document: if manifest.documents == 0 {
            0.0
        } else {
            (bytes as f64 / manifest.documents as f64 * 10.0).round() / 10.0
        },
        changes: manifest.changes,
    };
    let mut out = io::stdout().lock();
    if args.output.json {
        print_json(&mut out, &summary)?;
        return Ok(());
    }
    writeln!(
        out,
        "Wrote {} document{} to {}: {} bytes, {:.0} bytes per document ({} in index pages, {} in \
         records)",
        summary.documents,
        if summary.documents == 1 { "" } else { "s" },
        summary.dir,
        summary.bytes,
        summary.bytes_per_document,
        summary.index_bytes,
        summary.record_bytes
    )?;
    Ok(())
}
