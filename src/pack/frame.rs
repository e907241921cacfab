//! The envelope of every pack file (records, index pages, page tables, record lists): magic,
//! format version, file kind, canonicalizer version and canonicalization flags, a kind-specific
//! body, and a CRC32 of everything before it.
//!
//! ```text
//! "UQPK" | u16 version = 7 | u8 kind | u16 canonicalizer | u8 flags | body … | u32 CRC32
//! ```
//! The magic and version sit where version 1 put them, so a reader of any version given a file
//! of another says which version it is instead of misreading it. Checks run in the order a
//! damaged download is best explained: magic, version, length, checksum, then kind and flags,
//! then the body.

use super::bytes::{Reader, Writer};
use super::{PackError, MAGIC};

/// Format version of every file this module frames, and of the manifest (docs/FORMAT.md,
/// "Versioning"). Version 7: sentence keys are the ten pairs of a sentence's five smallest words
/// (a draft looks up two), where version 6 held the three pairs of its three; records and the
/// table are as in version 6. Version 6: index pages are named by their generation and place
/// (`i/<generation>/<list>-<number>.uqi`), and the table only counts them. Version 5: the page
/// table had two levels, a top table naming table parts that named the pages. Version 4: a record ends with the size of its shingle set. Version 3: the
/// page table names pages by the first 8 bytes of their SHA-256 only (version 2 also kept the
/// CRC32 each page ends with).
pub const FORMAT_VERSION: u16 = 7;

const FLAG_STOP_WORDS: u8 = 1 << 0;
const FLAG_STEMMING: u8 = 1 << 1;
const KNOWN_FLAGS: u8 = FLAG_STOP_WORDS | FLAG_STEMMING;
/// magic, version, kind, canonicalizer, flags.
const HEADER_BYTES: usize = 4 + 2 + 1 + 2 + 1;
const CRC_BYTES: usize = 4;

/// What a pack file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One document's record (`.uqr`).
    Record = 1,
    /// One page of the retrieval index (`.uqi`).
    Page = 2,
    /// The page table: the generation and its page counts (`.uqt`).
    Table = 3,
    /// The list of every live record (`.uqa`).
    Records = 4,
}

impl Kind {
    fn name(byte: u8) -> &'static str {
        match byte {
            1 => "a document record",
            2 => "an index page",
            3 => "a page table",
            4 => "a record list",
            _ => "an unknown kind of file",
        }
    }
}

/// The canonicalization a file's word hashes were made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Canon {
    /// [`crate::canonicalize::CANONICALIZER_VERSION`] of the writer.
    pub canonicalizer: u16,
    /// Stop words were removed.
    pub stop_words: bool,
    /// Words were stemmed.
    pub stemming: bool,
}

/// Writes a framed file of `kind`: the header, what `body` writes, the CRC32.
pub(super) fn write(kind: Kind, canon: Canon, body: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::with_capacity(256);
    w.bytes(&MAGIC);
    w.u16(FORMAT_VERSION);
    w.u8(kind as u8);
    w.u16(canon.canonicalizer);
    let mut flags = 0;
    if canon.stop_words {
        flags |= FLAG_STOP_WORDS;
    }
    if canon.stemming {
        flags |= FLAG_STEMMING;
    }
    w.u8(flags);
    body(&mut w);
    let crc = crc32fast::hash(&w.buf);
    w.u32(crc);
    w.buf
}

/// Decodes a whole file of `kind` in this format version: checks the envelope, runs `body` over
/// the body with the file's canonicalization, then refuses any byte `body` left unread
/// ([`finish`]). Every decoder of this version goes through it, so none can forget the trailing
/// bytes (offsets in errors count from the file's first byte).
pub(super) fn decode<'a, T>(
    kind: Kind,
    bytes: &'a [u8],
    body: impl FnOnce(Canon, &mut Reader<'a>) -> Result<T, PackError>,
) -> Result<T, PackError> {
    let (_, canon, mut r) = read_versions(kind, &[FORMAT_VERSION], bytes)?;
    let value = body(canon, &mut r)?;
    finish(&r)?;
    Ok(value)
}

/// Checks the envelope of a file of `kind` in any of the format `versions` (the upgrades read
/// older ones; [`decode`] this one); returns the file's version, its canonicalization and a
/// reader over its body, which the caller ends with [`finish`]. Any other version is refused.
pub(super) fn read_versions<'a>(
    kind: Kind,
    versions: &[u16],
    bytes: &'a [u8],
) -> Result<(u16, Canon, Reader<'a>), PackError> {
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(PackError::NotAPack {
            found: head.to_vec(),
        });
    }
    let mut r = Reader::new(bytes, 0);
    r.take(MAGIC.len())?;
    let version = r.u16()?;
    if !versions.contains(&version) {
        return Err(PackError::Version {
            expected: FORMAT_VERSION,
            found: version,
        });
    }
    if bytes.len() < HEADER_BYTES + CRC_BYTES {
        return Err(PackError::Truncated {
            offset: r.offset(),
            needed: HEADER_BYTES + CRC_BYTES - r.offset(),
        });
    }
    let (body, stored) = bytes.split_at(bytes.len() - CRC_BYTES);
    let expected = u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]);
    let found = crc32fast::hash(body);
    if expected != found {
        return Err(PackError::Checksum { expected, found });
    }
    let mut r = Reader::new(body, r.offset());
    let at = r.offset();
    let got = r.u8()?;
    if got != kind as u8 {
        return Err(r.corrupt(
            at,
            format!(
                "this is {}, where {} was expected",
                Kind::name(got),
                Kind::name(kind as u8)
            ),
        ));
    }
    let canonicalizer = r.u16()?;
    let at = r.offset();
    let flags = r.u8()?;
    if flags & !KNOWN_FLAGS != 0 {
        return Err(r.corrupt(at, format!("unknown flag bits {flags:#04x}")));
    }
    let canon = Canon {
        canonicalizer,
        stop_words: flags & FLAG_STOP_WORDS != 0,
        stemming: flags & FLAG_STEMMING != 0,
    };
    Ok((version, canon, r))
}

/// Sets the version of a framed file and gives it a correct CRC32 (tests of other versions).
pub(super) fn set_version(bytes: &mut [u8], version: u16) {
    bytes[4..6].copy_from_slice(&version.to_le_bytes());
    let n = bytes.len() - CRC_BYTES;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// Overwrites `value.len()` bytes of a framed file's body at `at` (counted from the body's first
/// byte) and gives the file a correct CRC32 again: how the writer stamps its pages with the
/// generation id computed from them ([`super::Builder::finish`]).
pub(super) fn patch_body(bytes: &mut [u8], at: usize, value: &[u8]) {
    let start = HEADER_BYTES + at;
    bytes[start..start + value.len()].copy_from_slice(value);
    let n = bytes.len() - CRC_BYTES;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// Refuses bytes left after a body was read: every accepted file is exactly what `write` wrote.
pub(super) fn finish(r: &Reader<'_>) -> Result<(), PackError> {
    if r.remaining() > 0 {
        return Err(r.corrupt(
            r.offset(),
            format!("{} unexpected bytes after the body", r.remaining()),
        ));
    }
    Ok(())
}
