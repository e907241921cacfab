//! `uniqcheck`: the command-line tool of the uniqcheck text-uniqueness checker.
//!
//! This file only parses the command line, dispatches to [`cmd`] and reports errors: `error: …`
//! on stderr with the cause chain, exit code 2 for usage errors (clap's and ours), 1 for
//! failures. The engine does the checking; the modules here read files and print results.

mod cmd;
mod decode;
mod input;
mod options;
mod output;
mod serve;
mod walk;

// Ingestion is the library half of this crate, the store and the packs the uniqcheck-store
// crate: these make them `crate::ingest`, `crate::store` and `crate::packs` here.
use uniqcheck_cli::ingest;
use uniqcheck_store as store;
use uniqcheck_store::packs;

use clap::Parser;
use std::io::{self, Write};
use std::process::ExitCode;

/// How unique is a text? Compares drafts with published texts (Russian and English) and shows
/// which fragments match which sources.
#[derive(Debug, Parser)]
#[command(name = "uniqcheck", version = uniqcheck::VERSION, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cmd::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            print_error(&err);
            if err.downcast_ref::<options::UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// The reader of our output went away (`uniqcheck … | head`): not an error worth reporting.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `word:` for a message on stderr, bold in the ANSI `colour` where stderr takes colour
/// ([`output::colour`]).
fn stderr_label(word: &str, colour: u8) -> String {
    if output::colour(&io::stderr()) {
        format!("\x1b[1;{colour}m{word}:\x1b[0m")
    } else {
        format!("{word}:")
    }
}

fn print_error(err: &anyhow::Error) {
    let label = stderr_label("error", 31);
    let mut w = io::stderr().lock();
    let _ = writeln!(w, "{label} {err}");
    for cause in err.chain().skip(1) {
        let _ = writeln!(w, "  caused by: {cause}");
    }
}

/// Prints a warning on stderr (a skipped file, a lossy decoding).
pub fn warn(message: impl std::fmt::Display) {
    let label = stderr_label("warning", 33);
    let _ = writeln!(io::stderr().lock(), "{label} {message}");
}
