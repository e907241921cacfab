//! Why a pack was refused: one variant per failure, each with the data to explain it and a fix.

use crate::params::ParamDifference;

/// Why a pack file could not be decoded, or cannot be compared with drafts analysed here.
///
/// Decoding errors (e.g. [`Record::decode`](super::Record::decode)) come in the order they are
/// checked ([`super::frame`]): magic ([`NotAPack`](PackError::NotAPack)), format version
/// ([`Version`](PackError::Version)), length ([`Truncated`](PackError::Truncated)), checksum
/// ([`Checksum`](PackError::Checksum)), then structure ([`Corrupt`](PackError::Corrupt), or
/// `Truncated` when a field runs past the end), then the canonicalization the file was made with
/// ([`Canonicalizer`](PackError::Canonicalizer), [`ParamsMismatch`](PackError::ParamsMismatch)).
/// [`Manifest::check_compatible`](super::Manifest::check_compatible) gives the same, and
/// [`Manifest`](PackError::Manifest).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// The bytes do not start with the pack magic `UQPK`.
    #[error(
        "not a uniqcheck pack file: it starts with {} instead of the magic bytes \"UQPK\"; \
         check the URL or file name",
        show_bytes(found)
    )]
    NotAPack {
        /// The first (up to 4) bytes found.
        found: Vec<u8>,
    },
    /// The pack was written in another format version.
    #[error("{}", version_message(*expected, *found))]
    Version {
        /// The version this build reads ([`FORMAT_VERSION`](super::FORMAT_VERSION)).
        expected: u16,
        /// The version recorded in the pack.
        found: u16,
    },
    /// The bytes end before a field that should be there.
    #[error(
        "the pack is truncated: a field at byte offset {offset} needs {needed} bytes past the end \
         of the data; download or copy the pack again"
    )]
    Truncated {
        /// Byte offset of the field that could not be read.
        offset: usize,
        /// Bytes that field needs.
        needed: usize,
    },
    /// The CRC32 stored at the end does not match the bytes before it.
    #[error(
        "the pack is damaged: its stored CRC32 is {expected:#010x} but its bytes hash to \
         {found:#010x}; download the pack again or rebuild it"
    )]
    Checksum {
        /// The CRC32 stored in the pack's last 4 bytes.
        expected: u32,
        /// The CRC32 computed over the bytes before them.
        found: u32,
    },
    /// A content-named file (index page, page table, record list) whose bytes do not hash to its
    /// name: the first 8 bytes of their SHA-256 are not the ones the name (or the table, or the
    /// manifest) gives. A damaged download, or a copy of another generation's file served under
    /// this name (a stale cache, a mixed-up host). Code `pack_checksum`, like a CRC32 mismatch:
    /// fetching the file again is the fix for both.
    #[error(
        "the pack file {file} is not the file its name stands for: its SHA-256 starts with \
         {found:016x}, the name says {expected:016x} (damaged in transit, or a stale copy of \
         another generation's file); download it again"
    )]
    NameMismatch {
        /// The file's path in the pack directory.
        file: String,
        /// The 64-bit name it should have ([`content_id`](super::content_id)).
        expected: u64,
        /// The 64-bit name of the bytes received.
        found: u64,
    },
    /// An index page of another generation than the one its name and the page table give: a
    /// stale copy served under the current name (a cache, a host updated in place), or a mixed-up
    /// host. Code `pack_checksum`, like a file that does not hash to its name: fetching the file
    /// again is the fix.
    #[error(
        "the pack file {file} is a page of generation {found:016x}, not of {expected:016x} that \
         its name and the page table give (a stale copy of another generation's file); download \
         it again"
    )]
    Generation {
        /// The file's path in the pack directory.
        file: String,
        /// The generation its name and the table give ([`super::Table::generation`]).
        expected: u64,
        /// The generation the page says it belongs to.
        found: u64,
    },
    /// The checksum matched but the content breaks a rule of the format (a hostile or buggy writer).
    #[error("the pack is corrupt at byte offset {offset}: {what}; rebuild the pack")]
    Corrupt {
        /// Byte offset of the offending field.
        offset: usize,
        /// What is wrong there.
        what: String,
    },
    /// The pack was built with other engine parameters than the ones in force here.
    #[error(
        "the pack was built with other parameters ({}); rebuild the pack with the \
         parameters in force here, or check drafts with the pack's parameters",
        differences.iter().map(|d| d.describe("pack")).collect::<Vec<_>>().join(", ")
    )]
    ParamsMismatch {
        /// Every parameter that differs, in the order n, w, k, stop_words, stemming.
        differences: Vec<ParamDifference>,
    },
    /// A check needed a pack file (an index page, a record) that was not added: fetch every file
    /// `needed` names before checking.
    #[error(
        "the pack file {file} is needed for this check but was not added; fetch the files the \
         checker says it needs, then check again"
    )]
    Missing {
        /// The file's path in the pack directory.
        file: String,
    },
    /// The packs' manifest (`manifest.json`) is not of the manifest's shape, or names an invalid
    /// file name: the file or the server is not a uniqcheck pack directory.
    #[error(
        "not a uniqcheck pack manifest: {what}; check the manifest's URL or rebuild the packs"
    )]
    Manifest {
        /// What is wrong with it.
        what: String,
    },
    /// The pack's words were canonicalized by another version of the rules.
    #[error(
        "the pack was built with canonicalizer version {found}, this engine uses version \
         {expected}: its words would not match; rebuild the pack with this version of uniqcheck"
    )]
    Canonicalizer {
        /// [`CANONICALIZER_VERSION`](crate::canonicalize::CANONICALIZER_VERSION) of this build.
        expected: u16,
        /// The version recorded in the pack.
        found: u16,
    },
}

impl PackError {
    /// This error's stable machine-readable code (one of [`Error::CODES`](crate::Error::CODES)).
    ///
    /// # Example
    /// ```
    /// use uniqcheck::{pack::Record, Params};
    /// let err = Record::decode(b"<html>", &Params::default()).unwrap_err();
    /// assert_eq!(err.code(), "pack_magic");
    /// ```
    pub fn code(&self) -> &'static str {
        use crate::Error;
        match self {
            PackError::NotAPack { .. } => Error::PACK_MAGIC,
            PackError::Version { .. } => Error::PACK_VERSION,
            PackError::Truncated { .. } => Error::PACK_TRUNCATED,
            PackError::Checksum { .. }
            | PackError::NameMismatch { .. }
            | PackError::Generation { .. } => Error::PACK_CHECKSUM,
            PackError::Corrupt { .. } => Error::PACK_CORRUPT,
            PackError::ParamsMismatch { .. } => Error::PACK_PARAMS,
            PackError::Manifest { .. } => Error::MANIFEST_INVALID,
            PackError::Missing { .. } => Error::PACK_MISSING,
            PackError::Canonicalizer { .. } => Error::PACK_CANONICALIZER,
        }
    }
}

fn version_message(expected: u16, found: u16) -> String {
    let fix = if found > expected {
        "upgrade uniqcheck (the page, package or CLI) to a version that reads it"
    } else {
        "rebuild the packs with this version of uniqcheck (`uniqcheck pack`)"
    };
    format!(
        "the pack is in format version {found}, this build reads version {expected} only: {fix}"
    )
}

fn show_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "nothing".to_owned();
    }
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("bytes {}", hex.join(" "))
}
