//! # uniqcheck
//!
//! A text-uniqueness engine: it tells how much of a draft is already published, and exactly which
//! fragments match which sources. Plain Rust with no I/O, shared by the native CLI and server and
//! by the WebAssembly module.
//!
//! ## The pipeline, one module per stage
//! | stage | module | in → out |
//! |---|---|---|
//! | canonicalize | [`canonicalize`] | text or HTML → words with spans in the original text |
//! | shingle | [`shingle`] | content words → overlapping n-word shingle hashes |
//! | anchor | [`anchor`] | shingles → winnowed fingerprints |
//! | sketch | [`sketch`] | shingle set → MinHash signature |
//! | sentences | [`sentences`] | sentence starts → sentence ranges and sentence keys |
//! | keys | [`keys`] | folded words, sentences → the retrieval keys every index holds and every draft looks up |
//! | align | [`align`] (seeds, chains, rewrites), [`pair`] (one draft × one source) | draft × source → fragments with spans on both sides, rewritten passages |
//! | report | [`report`] | findings → uniqueness, originality, fragments, rewrites, ranked sources |
//! | index | [`index`] (the [`Index`] trait, ranking); backends [`index::corpus`] (in memory), [`index::packs`] (format-4 packs, filled on demand) | draft → candidate documents |
//! | check | [`check`] (the one check driver) | draft × index → report |
//!
//! [`bilingual`] holds the English–Russian table through which a check also finds a draft translated
//! from a source in the other language ([`CheckOptions::bilingual`], [`align::translate`]).
//!
//! [`methods`] holds the near-duplicate methods of the literature (char-cosine, Broder, descriptive
//! words, SimHash, the short-text method) behind one trait, as baselines to compare the engine with.
//!
//! [`Document::analyze`] runs a text through the first four; [`check::check`] (against any
//! [`Index`]: [`Corpus`] here, a store or packs elsewhere) and [`compare()`] answer the user's
//! question.
//!
//! ## Example
//! ```
//! use uniqcheck::{compare, CheckOptions, Format, Params};
//! let published = "Шинглы — это последовательности слов фиксированной длины, по которым \
//!     поисковые системы находят почти одинаковые документы в интернете.";
//! let draft = "Напомню: шинглы — это последовательности слов фиксированной длины, по которым \
//!     поисковые системы находят почти одинаковые документы.";
//! let c = compare(draft, Format::Plain, published, Format::Plain,
//!                 &Params::default(), &CheckOptions::default()).unwrap();
//! assert!(c.uniqueness < 30.0, "{}", c.uniqueness);
//! ```
#![deny(missing_docs)]

pub mod align;
pub mod anchor;
pub mod bilingual;
pub mod canonicalize;
pub mod check;
pub mod compare;
pub mod document;
mod error;
pub mod exclude;
pub mod hash;
pub mod index;
pub mod keys;
pub mod methods;
pub mod pack;
pub mod pair;
mod params;
mod postings;
pub mod report;
pub mod sentences;
pub mod shingle;
pub mod short;
pub mod sketch;
pub mod span;
pub mod stats;
pub mod synonyms;

pub use canonicalize::Format;
pub use compare::{compare, Comparison};
pub use document::Document;
pub use document::SourceInfo;
pub use error::{ComparedText, Error};
pub use exclude::{Excluded, Exclusions};
pub use index::Corpus;
pub use index::Index;
pub use index::PackIndex;
pub use params::{CheckOptions, ParamDifference, ParamValue, Params};
pub use report::{Fragment, Method, PairSpan, Report, SourceMatch};
pub use span::{OffsetConverter, Unit};

/// This crate's version, as recorded in packs and shown by the CLI.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
