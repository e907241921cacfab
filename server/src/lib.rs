//! The library half of the `uniqcheck` command-line tool: what the subcommands and the HTTP
//! server share and what is tested on its own.
//!
//! - [`ingest`]: files, JSONL lines and API bodies → documents for the store.
//!
//! The store and the pack writer are the `uniqcheck-store` crate; the evaluation measures and
//! corpora are `uniqcheck-eval`.

pub mod ingest;
