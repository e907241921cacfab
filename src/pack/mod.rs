//! Pack stage: what a browser (or `uniqcheck check --packs`) checks drafts against, as small,
//! versioned, checksummed files fetched on demand (format version 7, `docs/FORMAT.md`).
//!
//! A generation of packs is one [`Record`] per document (its identity, exact-duplicate hash,
//! content words folded to 16 bits and short-text signature), the [`Page`]s of an inverted index
//! of the documents' fingerprints ([`crate::keys`]), longest words and sentence keys, the
//! [`Table`] counting those pages (they are named by their generation and number), the
//! [`RecordList`] of live records, and the [`Manifest`] naming the table and the list. The
//! [`Builder`] makes a generation; every file is encoded and decoded here, once, for native and
//! WebAssembly alike, inside one envelope ([`frame`]).
//!
//! Guarantees:
//! - **Deterministic.** The same documents give the same bytes on every platform (explicit
//!   little-endian, no hash-map order, no padding). A golden generation
//!   (`tests/golden/v7-small.bin`) pins them.
//! - **Canonical.** Every byte string a decoder accepts is exactly what its encoder writes:
//!   varints must be minimal, unknown flags and trailing bytes are refused, ascending sequences
//!   are stored as deltas that cannot repeat a value, counts must lie in their ranges, and a
//!   record's shingles must be counted for the checker's `n` (the `decode` fuzz target checks
//!   it: `fuzz/`).
//! - **Hostile bytes are safe.** Decoders never panic, never read out of bounds, never overflow,
//!   and allocate only in proportion to the input: every count is checked against the bytes left
//!   before anything is allocated for it. Magic, version and CRC32 are checked before the body is
//!   parsed, and the body is still parsed defensively.
//! - **A name means its bytes.** Page tables and record lists are named by the first 8 bytes of
//!   their SHA-256 ([`content_id`]), which the checker recomputes; index pages by their
//!   generation, a content id of all the generation's pages, and their place ([`page_file`]),
//!   which every page carries and the checker compares with its name
//!   ([`crate::PackIndex::add`]); records are named by their record number, which a writer
//!   never reuses for other content. Every file is checked by its CRC32.
//! - **Never silently compared.** Files made with other parameters or canonicalization rules are
//!   refused ([`PackError::ParamsMismatch`], [`PackError::Canonicalizer`]), naming each
//!   difference.
//!
//! # Example
//! ```
//! use uniqcheck::pack::Record;
//! use uniqcheck::{Document, Format, Params, SourceInfo};
//!
//! let params = Params::default();
//! let text = "Winnowing keeps the minimum hash of every window of shingles, so documents that \
//!     share a long enough run of words always share a fingerprint.";
//! let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
//! let info = SourceInfo { id: "a1".into(), url: String::new(), title: "Winnowing".into() };
//! let record = Record::from_document(info, &doc);
//!
//! let bytes = record.encode(&params);
//! assert_eq!(bytes[..4], uniqcheck::pack::MAGIC);
//! let back = Record::decode(&bytes, &params).unwrap();
//! assert_eq!(back.words(), record.words());
//! // Written with the number of its shingles, which a check of this record does not count again.
//! assert!(back.distinct_shingles(params.n).is_some());
//! ```

mod balance;
mod build;
mod bytes;
mod error;
pub mod frame;
mod manifest;
mod pages;
mod record;
#[cfg(test)]
mod tests;

pub use crate::params::{ParamDifference, ParamValue};
pub use balance::{FILE_COST, FILE_OVERHEAD, MIN_PAGE_BYTES};
pub use build::{Builder, Finished};
pub use error::PackError;
pub use frame::FORMAT_VERSION;
pub use manifest::TYPESCRIPT as MANIFEST_TYPESCRIPT;
pub use manifest::{iso8601, FileRef, Manifest, MANIFEST_FILE};
pub use pages::{
    bilingual_file, content_id, is_pack_file, page_file, page_of, parse_page_file, record_file,
    records_file, spread, table_file, Page, RecordList, Table, LISTS, LIST_FINGERPRINTS,
    LIST_LONG_WORDS, LIST_SENTENCES, MAX_PAGES, PAGE_BYTES,
};
pub use record::Record;

use crate::canonicalize::CANONICALIZER_VERSION;
use crate::Params;

/// The four bytes every pack file starts with.
pub const MAGIC: [u8; 4] = *b"UQPK";

/// Refuses files made by canonicalizer version `canonicalizer` with parameters `made` when
/// drafts are analysed here with `params`: another canonicalizer version
/// ([`PackError::Canonicalizer`], checked first), or any differing parameter
/// ([`PackError::ParamsMismatch`], listing every difference with both values). Records, pages
/// and [`Manifest::check_compatible`] share it.
fn check_analysis(canonicalizer: u16, made: &Params, params: &Params) -> Result<(), PackError> {
    if canonicalizer != CANONICALIZER_VERSION {
        return Err(PackError::Canonicalizer {
            expected: CANONICALIZER_VERSION,
            found: canonicalizer,
        });
    }
    let differences = made.differences(params);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(PackError::ParamsMismatch { differences })
    }
}
