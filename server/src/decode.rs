//! Bytes → text: guessing a file's character encoding.
//!
//! Writers' files come in whatever their editor saved: UTF-8 with or without a byte-order mark,
//! UTF-16 from Windows tools (always with a BOM in practice), and a great deal of Windows-1251
//! (Russian) and Windows-1252 (Western) from older Office exports. The order of the checks:
//!
//! 1. an explicit `--encoding` label wins;
//! 2. a byte-order mark (UTF-8, UTF-16 LE/BE) decides;
//! 3. NUL bytes in every other position near the start, with no BOM, are UTF-16 without a
//!    BOM: refused, with the `--encoding` to pass (guessing its byte order would be a coin toss);
//! 4. valid UTF-8 is taken as is (no copy);
//! 5. UTF-8 but for a cut last character or a few bad sequences ([`EncodingEvidence::DamagedUtf8`]) is
//!    UTF-8 too, the bad bytes replaced: a file cut by `head -c` or with one corrupted byte is
//!    not another encoding, and guessing one would turn all its letters to mojibake;
//! 6. otherwise `chardetng` guesses a legacy encoding and `encoding_rs` decodes it.
//!
//! Whether bytes are text at all is not decided here: decoding never fails on malformed input
//! (bad sequences become U+FFFD) and NUL bytes pass through, so the engine's one rule
//! ([`uniqcheck::document::check_text`]: stray NULs are spaces, many control characters are
//! binary data) judges a file exactly as it judges an API body.

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, REPLACEMENT, UTF_8};

/// How many leading bytes are searched for the NUL pattern of UTF-16 without a BOM.
const SNIFF_BYTES: usize = 8 * 1024;

/// Damaged UTF-8 stays UTF-8 while it has at least this many valid multi-byte characters per
/// invalid sequence. Text in a legacy encoding has almost no valid multi-byte sequences (a
/// Windows-1251 letter is followed by another letter, not by a continuation byte), so even a
/// short damaged UTF-8 text clears this, and no legacy text does.
const MULTIBYTE_PER_BAD: usize = 10;

/// How the encoding of a text was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingEvidence {
    /// Given with `--encoding`.
    Forced,
    /// A byte-order mark.
    Bom,
    /// The bytes are valid UTF-8.
    Utf8,
    /// UTF-8 with a few invalid sequences (replaced with U+FFFD).
    DamagedUtf8 {
        /// Invalid sequences in the middle of the text.
        invalid: usize,
        /// The last character is cut short (the file ends inside it).
        cut: bool,
    },
    /// Guessed by `chardetng`.
    Guessed,
}

/// A decoded text.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The encoding it was decoded from.
    pub encoding: &'static Encoding,
    /// How that encoding was chosen.
    pub evidence: EncodingEvidence,
    /// Some bytes were malformed in that encoding and were replaced with U+FFFD.
    pub lossy: bool,
}

/// Why bytes could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// NUL bytes at every other position and no byte-order mark.
    #[error(
        "looks like UTF-16 text without a byte-order mark (a NUL byte in every other position, \
         the first at offset {offset}): pass --encoding utf-16le or utf-16be"
    )]
    Utf16WithoutBom {
        /// Offset of the first NUL byte.
        offset: usize,
    },
}

/// The encoding named by a WHATWG label (`utf-8`, `windows-1251`, `cp1252`, `koi8-r`, `utf-16le`…),
/// or `None` for an unknown label. The "replacement" pseudo-encoding (labels of encodings that are
/// unsafe to decode, like ISO-2022-KR) is refused too: it would turn the whole file into one U+FFFD.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes()).filter(|&e| e != REPLACEMENT)
}

/// UTF-16 without a BOM: ASCII-heavy UTF-16 puts a NUL in nearly every other byte, and only on
/// one side. (Other NULs are the engine's business.)
fn check_utf16_without_bom(bytes: &[u8]) -> Result<(), DecodeError> {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let Some(offset) = head.iter().position(|&b| b == 0) else {
        return Ok(());
    };
    let nul_at = |parity: usize| {
        head.iter()
            .enumerate()
            .filter(|&(i, &b)| b == 0 && i % 2 == parity)
            .count()
    };
    let (even, odd) = (nul_at(0), nul_at(1));
    if (even + odd) * 4 >= head.len() && even.min(odd) * 20 <= even.max(odd) {
        return Err(DecodeError::Utf16WithoutBom { offset });
    }
    Ok(())
}

/// Invalid UTF-8 that is still UTF-8: `Some` when the bytes are valid but for a cut last
/// character or few enough bad sequences ([`MULTIBYTE_PER_BAD`]).
fn damaged_utf8(bytes: &[u8]) -> Option<Decoded> {
    let (mut multibyte, mut invalid) = (0usize, 0usize);
    let mut cut = false;
    let mut chunks = bytes.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if chunk.invalid().is_empty() {
            continue;
        }
        // The last invalid piece, at the very end, may be a character cut short rather than bad.
        let last = chunks.peek().is_none();
        if last && std::str::from_utf8(chunk.invalid()).is_err_and(|e| e.error_len().is_none()) {
            cut = true;
        } else {
            invalid += 1;
        }
    }
    if multibyte == 0 || invalid * MULTIBYTE_PER_BAD > multibyte {
        return None;
    }
    Some(Decoded {
        text: String::from_utf8_lossy(bytes).into_owned(),
        encoding: UTF_8,
        evidence: EncodingEvidence::DamagedUtf8 { invalid, cut },
        lossy: true,
    })
}

/// Decodes a file's bytes to text; `forced` overrides all detection.
///
/// Errors: [`DecodeError::Utf16WithoutBom`]; anything else decodes (binary data too: the
/// engine refuses it).
pub fn decode(bytes: Vec<u8>, forced: Option<&'static Encoding>) -> Result<Decoded, DecodeError> {
    if let Some(encoding) = forced {
        let (text, lossy) = encoding.decode_with_bom_removal(&bytes);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding,
            evidence: EncodingEvidence::Forced,
            lossy,
        });
    }
    if let Some((encoding, bom_len)) = Encoding::for_bom(&bytes) {
        let (text, lossy) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding,
            evidence: EncodingEvidence::Bom,
            lossy,
        });
    }
    check_utf16_without_bom(&bytes)?;
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => {
            return Ok(Decoded {
                text,
                encoding: UTF_8,
                evidence: EncodingEvidence::Utf8,
                lossy: false,
            })
        }
        Err(e) => e.into_bytes(),
    };
    if let Some(decoded) = damaged_utf8(&bytes) {
        return Ok(decoded);
    }
    // ISO-2022-JP is a 7-bit encoding that only escape sequences reveal; allowing it would let
    // stray ESC bytes in a Western file turn it into Japanese.
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(&bytes, true);
    let encoding = detector.guess(None, Utf8Detection::Allow);
    let (text, lossy) = encoding.decode_without_bom_handling(&bytes);
    Ok(Decoded {
        text: text.into_owned(),
        encoding,
        evidence: EncodingEvidence::Guessed,
        lossy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252};
    use uniqcheck::document::check_text;

    const RU: &str = "Съешь же ещё этих мягких французских булок да выпей чаю. Заварочный чайник \
        сначала прогревают кипятком, потом насыпают сухую заварку и заливают водой.";
    const WEST: &str = "Le café crème était très apprécié à la façade du théâtre. Die Größe der \
        Bäckerei überraschte alle Gäste, und niemand wußte warum.";

    fn encode(text: &str, encoding: &'static Encoding) -> Vec<u8> {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(!unmappable);
        bytes.into_owned()
    }

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        let mut out = if big_endian {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in text.encode_utf16() {
            out.extend(if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        out
    }

    #[test]
    fn utf8_without_and_with_bom() {
        let d = decode(RU.as_bytes().to_vec(), None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding, d.evidence),
            (RU, UTF_8, EncodingEvidence::Utf8)
        );
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.extend_from_slice(RU.as_bytes());
        let d = decode(with_bom, None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding, d.evidence),
            (RU, UTF_8, EncodingEvidence::Bom)
        );
    }

    #[test]
    fn utf16_le_and_be_with_bom() {
        let text = format!("{RU} 😀 {WEST}");
        for (big_endian, encoding) in [(false, UTF_16LE), (true, UTF_16BE)] {
            let d = decode(utf16(&text, big_endian), None).unwrap();
            assert_eq!(d.text, text);
            assert_eq!(d.encoding, encoding);
            assert!(!d.lossy);
        }
    }

    #[test]
    fn windows_1251_russian_is_guessed() {
        let d = decode(encode(RU, WINDOWS_1251), None).unwrap();
        assert_eq!(d.encoding, WINDOWS_1251);
        assert_eq!(d.evidence, EncodingEvidence::Guessed);
        assert_eq!(d.text, RU);
    }

    #[test]
    fn windows_1252_western_is_guessed() {
        let d = decode(encode(WEST, WINDOWS_1252), None).unwrap();
        assert_eq!(d.encoding, WINDOWS_1252);
        assert_eq!(d.text, WEST);
    }

    #[test]
    fn forced_label_overrides_detection() {
        let bytes = encode(RU, WINDOWS_1251);
        let koi8 = encoding_for_label("koi8-r").unwrap();
        let d = decode(bytes.clone(), Some(koi8)).unwrap();
        assert_eq!(d.evidence, EncodingEvidence::Forced);
        assert_ne!(d.text, RU);
        let d = decode(bytes, encoding_for_label(" CP1251 ")).unwrap();
        assert_eq!(d.text, RU);
        // UTF-16 without a BOM is only readable when named.
        let bare: Vec<u8> = "plain words"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let err = decode(bare.clone(), None).unwrap_err();
        assert_eq!(err, DecodeError::Utf16WithoutBom { offset: 1 });
        assert!(err.to_string().contains("--encoding utf-16le"), "{err}");
        assert_eq!(
            decode(bare, encoding_for_label("utf-16le")).unwrap().text,
            "plain words"
        );
    }

    #[test]
    fn unknown_and_unsafe_labels_are_refused() {
        assert!(encoding_for_label("no-such-encoding").is_none());
        assert!(encoding_for_label("iso-2022-kr").is_none());
        assert_eq!(encoding_for_label("latin1"), Some(WINDOWS_1252));
    }

    #[test]
    fn nul_bytes_are_left_to_the_engine() {
        // A stray NUL in good text decodes, and the engine takes it as a space.
        let text = format!("{RU}\0{RU}");
        let d = decode(text.clone().into_bytes(), None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.evidence),
            (text.as_str(), EncodingEvidence::Utf8)
        );
        assert!(check_text(&d.text, 1 << 20).is_ok());
        // A binary file decodes to something the engine refuses, forced encoding or not.
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0".to_vec();
        for forced in [None, encoding_for_label("windows-1251")] {
            let d = decode(png.clone(), forced).unwrap();
            assert!(check_text(&d.text, 1 << 20).is_err(), "{forced:?}");
        }
    }

    #[test]
    fn utf8_with_a_cut_tail_or_a_few_bad_bytes_is_utf8() {
        // `head -c` cuts a two-byte letter in half.
        let mut cut = RU.as_bytes().to_vec();
        cut.extend_from_slice(&"ж".as_bytes()[..1]);
        let d = decode(cut, None).unwrap();
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(
            d.evidence,
            EncodingEvidence::DamagedUtf8 {
                invalid: 0,
                cut: true
            }
        );
        assert_eq!(d.text, format!("{RU}\u{FFFD}"));
        // Two corrupted bytes in the middle of a Russian text.
        let mut bad = RU.as_bytes().to_vec();
        bad[20] = 0xFF;
        bad[60] = 0xC0;
        let d = decode(bad, None).unwrap();
        assert_eq!(d.encoding, UTF_8);
        // Each corrupted byte leaves one or two invalid pieces (a lead byte without its
        // continuation, a continuation without its lead).
        assert!(
            matches!(
                d.evidence,
                EncodingEvidence::DamagedUtf8 {
                    invalid: 2..=4,
                    cut: false
                }
            ),
            "{:?}",
            d.evidence
        );
        assert!(d.text.contains("булок да выпей чаю"), "{}", d.text);
        // Legacy encodings are still guessed, a last letter that looks cut included.
        let mut legacy = encode(RU, WINDOWS_1251);
        legacy.push(0xD0);
        assert_eq!(decode(legacy, None).unwrap().encoding, WINDOWS_1251);
        let west = encode(WEST, WINDOWS_1252);
        assert_eq!(decode(west, None).unwrap().encoding, WINDOWS_1252);
        // ASCII with one high byte at the end is not UTF-8 evidence.
        let d = decode(b"caf\xE9".to_vec(), None).unwrap();
        assert_eq!(d.evidence, EncodingEvidence::Guessed);
    }

    #[test]
    fn empty_and_arbitrary_bytes_never_panic() {
        assert_eq!(decode(Vec::new(), None).unwrap().text, "");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for len in [1usize, 2, 3, 7, 100, 5000, 20_000] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 32) as u8 | 1 // no NULs: exercise the guessing path
                })
                .collect();
            let _ = decode(bytes.clone(), None);
            let _ = decode(bytes, encoding_for_label("utf-16be"));
        }
        // A lone BOM, a truncated surrogate pair.
        assert_eq!(decode(vec![0xFF, 0xFE], None).unwrap().text, "");
        assert!(decode(vec![0xFF, 0xFE, 0x3D, 0xD8], None).unwrap().lossy);
    }
}
