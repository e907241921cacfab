//! The subcommands. Each lives in its own module with an `Args` struct (its flags) and a `run`
//! function; adding one means a module, a variant of [`Command`] and a line in [`run`].

use anyhow::Result;
use clap::Subcommand;

pub mod check;
pub mod compare;
pub mod dedup;
pub mod eval;
pub mod index;
pub mod pack;
pub mod serve;
pub mod stats;
pub mod study;

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check text A against text B: how much of A is in B, with spans on both sides
    Compare(compare::CompareArgs),
    /// Check a draft against every text file under the given paths, or against a store
    Check(check::CheckArgs),
    /// Add published texts (folders of .txt, .html, .md, .jsonl) to a store
    Index(index::IndexArgs),
    /// Write a store's sketches as pack files for the browser
    Pack(pack::PackArgs),
    /// Draw two methods' similarities for sampled pairs as a heatmap (SVG), thresholds marked
    Study(study::StudyArgs),
    /// Find every group of near-duplicates already in a store (without comparing all pairs)
    Dedup(dedup::DedupArgs),
    /// Show what a store holds
    Stats(stats::StatsArgs),
    /// Measure detection quality on a PAN corpus and on Russian paraphrases and rewrites
    Eval(eval::EvalArgs),
    /// Serve the page, the packs and the JSON API over HTTP
    Serve(serve::ServeArgs),
}

/// Runs a subcommand.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Compare(args) => compare::run(args),
        Command::Check(args) => check::run(args),
        Command::Index(args) => index::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Study(args) => study::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Serve(args) => serve::run(args),
    }
}
