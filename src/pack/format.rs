//! The v1 byte layout, section by section; each section's writer and reader sit side by side so
//! the format is described once. `docs/FORMAT.md` is the prose version of this file: change both
//! together (and [`FORMAT_VERSION`] with them).
//!
//! ```text
//! header | document table | MinHash sketches | short signatures | fingerprints | CRC32
//! ```
//! Every section after the header holds one record per document, in document order. Sections
//! rather than one record per document keep like data together (a reader that needs only the
//! table stops early, and HTTP compression sees similar bytes side by side).

use std::borrow::Cow;

use super::bytes::{Reader, Writer};
use super::{Pack, PackError, PackedDocument, FORMAT_VERSION, MAGIC};
use crate::anchor::Fingerprint;
use crate::document::SourceInfo;
use crate::short::ShortSignature;
use crate::sketch::Sketch;
use crate::Params;

/// Offset of the format version: fixed in every version, so any reader can tell versions apart.
const VERSION_OFFSET: usize = 4;
/// Offset of the first byte after magic and version.
const AFTER_VERSION: usize = 6;
/// Bytes of the closing CRC32.
const CRC_BYTES: usize = 4;
/// Smallest possible pack: magic, version, canonicalizer, flags, four one-byte varints, CRC.
pub(super) const MIN_PACK_BYTES: usize = 4 + 2 + 2 + 1 + 4 + CRC_BYTES;

const FLAG_STOP_WORDS: u8 = 1 << 0;
const FLAG_STEMMING: u8 = 1 << 1;
/// Set by the encoder exactly when every MinHash value of every document fits in 16 bits: then
/// each is stored in 2 bytes instead of 4. Lossless either way; it pays off when sketches hold
/// b-bit (b = 16) minima, and costs nothing to support before they do.
const FLAG_MINHASH_16: u8 = 1 << 2;
const KNOWN_FLAGS: u8 = FLAG_STOP_WORDS | FLAG_STEMMING | FLAG_MINHASH_16;

/// Fewest bytes one document takes over all sections: table (three empty strings, words,
/// exact hash) 1+1+1+1+8, sketch (set size, zero mins) 1+1, short signature 1, fingerprints 1.
/// The document count is checked against this before anything is allocated for it.
const MIN_DOCUMENT_BYTES: usize = 12 + 2 + 1 + 1;
/// Bytes of one fingerprint at least: a one-byte position delta and a u32 key.
const MIN_FINGERPRINT_BYTES: usize = 5;

/// Encodes `pack` (see [`super::encode`]).
pub(super) fn write(pack: &Pack) -> Vec<u8> {
    let docs = &pack.documents;
    let estimate = 64 + docs.iter().map(estimated_size).sum::<usize>();
    let mut w = Writer::with_capacity(estimate);
    let narrow = minhash_fits_16_bits(docs);
    write_header(&mut w, pack, narrow);
    docs.iter().for_each(|d| write_table_entry(&mut w, d));
    docs.iter()
        .for_each(|d| write_sketch(&mut w, &d.sketch, narrow));
    docs.iter().for_each(|d| write_short(&mut w, &d.short));
    docs.iter()
        .for_each(|d| write_fingerprints(&mut w, &d.fingerprints));
    let crc = crc32fast::hash(&w.buf);
    w.u32(crc);
    w.buf
}

/// Decodes a pack (see [`super::decode`]).
pub(super) fn read(bytes: &[u8]) -> Result<Pack, PackError> {
    check_magic_and_version(bytes)?;
    if bytes.len() < MIN_PACK_BYTES {
        return Err(PackError::Truncated {
            offset: AFTER_VERSION,
            needed: MIN_PACK_BYTES - AFTER_VERSION,
        });
    }
    // Checked before the body is parsed, so that damage in transit reads as `Checksum` and not as
    // whatever structural error the damaged byte happens to cause.
    let body_len = bytes.len() - CRC_BYTES;
    let (body, stored) = bytes.split_at(body_len);
    let mut stored_bytes = [0u8; CRC_BYTES];
    stored_bytes.copy_from_slice(stored);
    let expected = u32::from_le_bytes(stored_bytes);
    let found = crc32fast::hash(body);
    if expected != found {
        return Err(PackError::Checksum { expected, found });
    }

    // The CRC only proves the bytes are what the writer wrote, not that the writer was honest:
    // the body is still parsed with every check.
    let mut r = Reader::new(body, AFTER_VERSION);
    let (mut pack, count, narrow) = read_header(&mut r)?;
    let mut docs = Vec::with_capacity(count);
    for _ in 0..count {
        docs.push(read_table_entry(&mut r)?);
    }
    let sketches_at = r.offset();
    for d in docs.iter_mut() {
        d.sketch = read_sketch(&mut r, narrow)?;
    }
    // The encoder always narrows when it can; accepting the wide form of narrow data would break
    // "every accepted byte string is the one encode writes".
    if !narrow && minhash_fits_16_bits(&docs) {
        return Err(r.corrupt(
            sketches_at,
            "MinHash values stored in 32 bits though all fit in 16 (the 16-bit flag must be set)",
        ));
    }
    for d in docs.iter_mut() {
        d.short = read_short(&mut r)?;
    }
    for d in docs.iter_mut() {
        d.fingerprints = read_fingerprints(&mut r)?;
    }
    if r.remaining() > 0 {
        return Err(r.corrupt(
            r.offset(),
            format!("{} unexpected bytes after the last section", r.remaining()),
        ));
    }
    pack.documents = docs;
    Ok(pack)
}

fn estimated_size(d: &PackedDocument) -> usize {
    let i = &d.info;
    40 + i.id.len()
        + i.url.len()
        + i.title.len()
        + 4 * (d.sketch.mins.len() + d.short.hashes.len())
        + 6 * d.fingerprints.len()
}

// ---- magic and version: the only bytes every format version must keep in place ----

fn check_magic_and_version(bytes: &[u8]) -> Result<(), PackError> {
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(PackError::NotAPack {
            found: head.to_vec(),
        });
    }
    if head.len() < MAGIC.len() {
        return Err(PackError::Truncated {
            offset: 0,
            needed: MAGIC.len(),
        });
    }
    let mut r = Reader::new(bytes, VERSION_OFFSET);
    let found = r.u16()?;
    if found != FORMAT_VERSION {
        return Err(PackError::Version {
            expected: FORMAT_VERSION,
            found,
        });
    }
    Ok(())
}

// ---- header ----

fn write_header(w: &mut Writer, pack: &Pack, narrow: bool) {
    let p = &pack.params;
    w.bytes(&MAGIC);
    w.u16(FORMAT_VERSION);
    w.u16(pack.canonicalizer);
    let mut flags = 0;
    if p.stop_words {
        flags |= FLAG_STOP_WORDS;
    }
    if p.stemming {
        flags |= FLAG_STEMMING;
    }
    if narrow {
        flags |= FLAG_MINHASH_16;
    }
    w.u8(flags);
    w.len(p.n);
    w.len(p.w);
    w.len(p.k);
    w.len(pack.documents.len());
}

/// Reads the header after magic and version; returns the pack without documents, their count, and
/// whether MinHash values are stored in 16 bits.
fn read_header(r: &mut Reader) -> Result<(Pack, usize, bool), PackError> {
    let canonicalizer = r.u16()?;
    let flags_at = r.offset();
    let flags = r.u8()?;
    if flags & !KNOWN_FLAGS != 0 {
        return Err(r.corrupt(flags_at, format!("unknown flag bits {flags:#04x}")));
    }
    let mut param = |name: &str| -> Result<usize, PackError> {
        let at = r.offset();
        let v = r.varint()?;
        usize::try_from(v)
            .map_err(|_| r.corrupt(at, format!("parameter {name} = {v} does not fit in usize")))
    };
    let n = param("n")?;
    let w = param("w")?;
    let k = param("k")?;
    let params = Params {
        n,
        w,
        k,
        stop_words: flags & FLAG_STOP_WORDS != 0,
        stemming: flags & FLAG_STEMMING != 0,
    };
    let count = r.count("document count", MIN_DOCUMENT_BYTES)?;
    let pack = Pack {
        params,
        canonicalizer,
        documents: Vec::new(),
    };
    Ok((pack, count, flags & FLAG_MINHASH_16 != 0))
}

// ---- document table: who each document is ----

fn write_table_entry(w: &mut Writer, d: &PackedDocument) {
    w.str(&d.info.id);
    w.str(&d.info.url);
    w.str(&d.info.title);
    w.varint(u64::from(d.words));
    w.u64(d.exact);
}

fn read_table_entry(r: &mut Reader) -> Result<PackedDocument, PackError> {
    let id = r.str("document id")?;
    let url = r.str("document url")?;
    let title = r.str("document title")?;
    let words = r.varint_u32("word count")?;
    let exact = r.u64()?;
    Ok(PackedDocument {
        info: SourceInfo { id, url, title },
        words,
        exact,
        sketch: Sketch {
            mins: Vec::new(),
            set_size: 0,
        },
        fingerprints: Vec::new(),
        short: ShortSignature::default(),
    })
}

// ---- MinHash sketches ----

fn minhash_fits_16_bits(docs: &[PackedDocument]) -> bool {
    docs.iter()
        .all(|d| d.sketch.mins.iter().all(|&m| m <= u32::from(u16::MAX)))
}

fn write_sketch(w: &mut Writer, s: &Sketch, narrow: bool) {
    w.varint(u64::from(s.set_size));
    w.len(s.mins.len());
    for &m in &s.mins {
        if narrow {
            // `narrow` is only set when every value fits (see `minhash_fits_16_bits`).
            w.u16(m as u16);
        } else {
            w.u32(m);
        }
    }
}

fn read_sketch(r: &mut Reader, narrow: bool) -> Result<Sketch, PackError> {
    let set_size = r.varint_u32("shingle set size")?;
    let width = if narrow { 2 } else { 4 };
    let k = r.count("MinHash value count", width)?;
    let mut mins = Vec::with_capacity(k);
    for _ in 0..k {
        mins.push(if narrow {
            u32::from(r.u16()?)
        } else {
            r.u32()?
        });
    }
    Ok(Sketch { mins, set_size })
}

// ---- short-text signatures ----

fn write_short(w: &mut Writer, s: &ShortSignature) {
    w.len(s.hashes.len());
    s.hashes.iter().for_each(|&h| w.u32(h));
}

fn read_short(r: &mut Reader) -> Result<ShortSignature, PackError> {
    let count = r.count("short-signature hash count", 4)?;
    let mut hashes = Vec::with_capacity(count);
    for _ in 0..count {
        hashes.push(r.u32()?);
    }
    Ok(ShortSignature { hashes })
}

// ---- fingerprints: (position delta, key) pairs in position order ----

fn write_fingerprints(w: &mut Writer, fps: &[Fingerprint]) {
    // Winnowing already yields position order; anything else is put in (pos, key) order, the
    // one canonical order, so equal fingerprint sets always give equal bytes.
    let sorted = fps.windows(2).all(|p| p[0].pos <= p[1].pos);
    let fps: Cow<[Fingerprint]> = if sorted {
        Cow::Borrowed(fps)
    } else {
        let mut v = fps.to_vec();
        v.sort_unstable_by_key(|f| (f.pos, f.key));
        Cow::Owned(v)
    };
    w.len(fps.len());
    let mut prev = 0u32;
    for f in fps.iter() {
        w.varint(u64::from(f.pos - prev));
        w.u32(f.key);
        prev = f.pos;
    }
}

fn read_fingerprints(r: &mut Reader) -> Result<Vec<Fingerprint>, PackError> {
    let count = r.count("fingerprint count", MIN_FINGERPRINT_BYTES)?;
    let mut fps = Vec::with_capacity(count);
    let mut pos = 0u32;
    for _ in 0..count {
        let at = r.offset();
        let delta = r.varint_u32("position delta")?;
        pos = pos
            .checked_add(delta)
            .ok_or_else(|| r.corrupt(at, "fingerprint positions overflow 32 bits"))?;
        let key = r.u32()?;
        fps.push(Fingerprint { key, pos });
    }
    Ok(fps)
}
