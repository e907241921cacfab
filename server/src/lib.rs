//! The library half of the `uniqcheck` command-line tool: what the subcommands, the HTTP server,
//! the integration tests and the benchmarks share.
//!
//! - [`store`]: the SQLite document store (index, check, list).
//! - [`ingest`]: files, JSONL lines and API bodies → documents for the store, and whether
//!   indexing one adds, replaces or changes nothing.
//! - [`packs`]: the store's sketches written as content-addressed pack shards and a manifest.
//! - [`eval`]: detection-quality measures and the evaluation corpora (`uniqcheck eval`).

pub mod eval;
pub mod ingest;
pub mod packs;
pub mod store;
