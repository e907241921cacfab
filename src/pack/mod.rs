//! Pack stage: many documents' sketches ↔ one compact, versioned, checksummed byte string.
//!
//! A **sketch pack** is what the server sends and the browser downloads: for each published
//! document its identity ([`SourceInfo`]), canonical word count, exact-duplicate hash, MinHash
//! [`Sketch`], short-text [`ShortSignature`] and winnowed [`Fingerprint`]s with positions, plus
//! the engine [`Params`] and [`CANONICALIZER_VERSION`] they were made with. The byte layout is
//! specified in `docs/FORMAT.md`, byte by byte, and implemented once, in this module, for
//! native and WebAssembly alike.
//!
//! Guarantees:
//! - **Deterministic.** [`encode`] writes the same bytes for the same [`Pack`] on every platform
//!   (explicit little-endian, no hash-map order, no padding). A golden file
//!   (`tests/golden/v1-small.uqp`) pins them.
//! - **Canonical.** Every byte string [`decode`] accepts is exactly what [`encode`] writes for the
//!   decoded pack: varints must be minimal, unknown flags and trailing bytes are refused.
//! - **Hostile bytes are safe.** [`decode`] never panics, never reads out of bounds, never
//!   overflows, and allocates only in proportion to the input: every count is checked against the
//!   bytes left before anything is allocated for it. Magic, version and CRC32 are checked before
//!   the body is parsed, and the body is still parsed defensively.
//! - **Never silently compared.** A pack made with other parameters or canonicalization rules is
//!   refused by [`Pack::check_compatible`], naming each difference.
//!
//! # Example
//! ```
//! use uniqcheck::pack::{decode, encode, Pack, PackedDocument};
//! use uniqcheck::{Document, Format, Params, SourceInfo};
//!
//! let params = Params::default();
//! let text = "Winnowing keeps the minimum hash of every window of shingles, so documents that \
//!     share a long enough run of words always share a fingerprint.";
//! let doc = Document::analyze(text, Format::Plain, &params, 1 << 20).unwrap();
//! let info = SourceInfo { id: "a1".into(), url: String::new(), title: "Winnowing".into() };
//! let mut pack = Pack::new(params);
//! pack.documents.push(PackedDocument::from_document(info, &doc));
//!
//! let bytes = encode(&pack);
//! let back = decode(&bytes).unwrap();
//! back.check_compatible(&params).unwrap();
//! assert_eq!(back, pack);
//! ```

mod build;
mod bytes;
mod error;
mod format;
pub mod frame;
mod manifest;
mod pages;
mod record;
#[cfg(test)]
mod tests;

pub use crate::params::{ParamDifference, ParamValue};
pub use build::{Builder, Finished};
pub use error::PackError;
pub use frame::FORMAT_VERSION_2;
#[cfg(target_arch = "wasm32")]
pub(crate) use manifest::TYPESCRIPT as MANIFEST_TYPESCRIPT;
pub use manifest::{FileRef, Manifest, MANIFEST_FILE};
pub use pages::{
    anchors, is_pack_file, page_file, page_of, record_file, records_file, spread, table_file,
    trailing_crc, Page, RecordList, Table, LIST_KEYS, LIST_LONG_WORDS, PAGE_BYTES,
};
pub use record::Record;

use crate::anchor::Fingerprint;
use crate::canonicalize::CANONICALIZER_VERSION;
use crate::document::Document;
use crate::document::SourceInfo;
use crate::short::ShortSignature;
use crate::sketch::Sketch;
use crate::Params;

/// The four bytes every pack starts with.
pub const MAGIC: [u8; 4] = *b"UQPK";

/// Version of the byte layout written by [`encode`] and the only one [`decode`] reads.
///
/// **Policy.** The magic and this `u16` (little-endian, bytes 4..6) stay where they are in every
/// future version, so any reader can say which version it was given. The version is bumped
/// whenever the bytes written for the same documents change, or the meaning of a stored value
/// changes (MinHash coefficients, shingle or word hashes, winnowing's tie rule), since a pack
/// cannot detect that by itself. A reader accepts exactly its own version and refuses others
/// with [`PackError::Version`]: packs are derived data, so the fix is to rebuild them with the
/// running version (`uniqcheck index`), or to upgrade the reader when the pack is newer. There is
/// no migration path by design: it would be a second, rarely tested decoder.
pub const FORMAT_VERSION: u16 = 1;

/// One document as stored in a pack: everything a check needs, and no text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedDocument {
    /// Identifier, URL and title.
    pub info: SourceInfo,
    /// Canonical content words ([`Document::content_words`]), saturated at `u32::MAX`.
    pub words: u32,
    /// Exact-duplicate hash of the canonical content ([`Document::exact`]).
    pub exact: u64,
    /// MinHash sketch of the shingle set.
    pub sketch: Sketch,
    /// Winnowed fingerprints; positions are content-word indices. Stored in position order.
    pub fingerprints: Vec<Fingerprint>,
    /// Longest-words signature for short drafts.
    pub short: ShortSignature,
}

impl PackedDocument {
    /// Keeps what a pack needs of an analysed document.
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::PackedDocument, Document, Format, Params, SourceInfo};
    /// let doc = Document::analyze("Sketch packs carry fingerprints, never the text itself.",
    ///     Format::Plain, &Params::default(), 1 << 20).unwrap();
    /// let p = PackedDocument::from_document(SourceInfo::default(), &doc);
    /// assert_eq!(p.words as usize, doc.content_words());
    /// assert_eq!(p.fingerprints, doc.fingerprints);
    /// ```
    pub fn from_document(info: SourceInfo, doc: &Document) -> Self {
        PackedDocument {
            info,
            words: u32::try_from(doc.content_words()).unwrap_or(u32::MAX),
            exact: doc.exact,
            sketch: doc.sketch.clone(),
            fingerprints: doc.fingerprints.clone(),
            short: doc.short.clone(),
        }
    }
}

/// A set of packed documents and the parameters they were analysed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    /// Engine parameters every document was analysed with.
    pub params: Params,
    /// [`CANONICALIZER_VERSION`] of the build that analysed them.
    pub canonicalizer: u16,
    /// The documents, in the order they were added.
    pub documents: Vec<PackedDocument>,
}

impl Pack {
    /// An empty pack for documents analysed here with `params` (records this build's
    /// [`CANONICALIZER_VERSION`]).
    pub fn new(params: Params) -> Pack {
        Pack {
            params,
            canonicalizer: CANONICALIZER_VERSION,
            documents: Vec::new(),
        }
    }

    /// Refuses a pack whose documents cannot be compared with drafts analysed here with `params`:
    /// another canonicalizer version ([`PackError::Canonicalizer`], checked first), or any
    /// differing parameter ([`PackError::ParamsMismatch`], listing every difference with both
    /// values).
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::{Pack, PackError}, Params};
    /// let pack = Pack::new(Params { n: 5, ..Params::default() });
    /// let err = pack.check_compatible(&Params::default()).unwrap_err();
    /// assert!(matches!(err, PackError::ParamsMismatch { .. }));
    /// assert!(err.to_string().contains("n = 5 in the pack, 4 here"));
    /// ```
    pub fn check_compatible(&self, params: &Params) -> Result<(), PackError> {
        check_sketches(self.canonicalizer, &self.params, params)
    }
}

/// Refuses sketches made by canonicalizer version `canonicalizer` with parameters `made` when
/// drafts are analysed here with `params`: [`Pack::check_compatible`] and
/// [`Manifest::check_compatible`].
fn check_sketches(canonicalizer: u16, made: &Params, params: &Params) -> Result<(), PackError> {
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

/// Encodes `pack` into the v1 byte format (`docs/FORMAT.md`). Deterministic: the same pack gives
/// the same bytes on every platform. Fingerprints not already in position order are written in
/// (position, key) order. Cost: O(total size), one allocation sized up front.
///
/// # Example
/// ```
/// use uniqcheck::{pack::{encode, Pack, MAGIC}, Params};
/// let bytes = encode(&Pack::new(Params::default()));
/// assert_eq!(bytes[..4], MAGIC);
/// assert_eq!(bytes, encode(&Pack::new(Params::default())));
/// ```
pub fn encode(pack: &Pack) -> Vec<u8> {
    format::write(pack)
}

/// Decodes bytes written by [`encode`], refusing anything else with a [`PackError`] that says what
/// is wrong and how to fix it. Never panics; memory use is linear in `bytes.len()`.
/// Does not check compatibility with the engine: call [`Pack::check_compatible`].
///
/// # Example
/// ```
/// use uniqcheck::pack::{decode, PackError};
/// assert!(matches!(decode(b"<html>"), Err(PackError::NotAPack { .. })));
/// assert!(matches!(decode(b"UQPK\x09\x00"), Err(PackError::Version { expected: 1, found: 9 })));
/// ```
pub fn decode(bytes: &[u8]) -> Result<Pack, PackError> {
    format::read(bytes)
}
