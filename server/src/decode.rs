//! Bytes → text: guessing a file's character encoding.
//!
//! Writers' files come in whatever their editor saved: UTF-8 with or without a byte-order mark,
//! UTF-16 from Windows tools (always with a BOM in practice), and a great deal of Windows-1251
//! (Russian) and Windows-1252 (Western) from older Office exports. The order of the checks:
//!
//! 1. an explicit `--encoding` label wins;
//! 2. a byte-order mark (UTF-8, UTF-16 LE/BE) decides;
//! 3. NUL bytes near the start with no UTF-16 BOM mean binary data: refused;
//! 4. valid UTF-8 is taken as is (no copy);
//! 5. otherwise `chardetng` guesses a legacy encoding and `encoding_rs` decodes it.
//!
//! Decoding never fails on malformed input: bad sequences become U+FFFD, which the engine's own
//! binary-data check counts, so a mis-guessed binary file is still refused there.

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8};
use std::fmt;

/// How many leading bytes are searched for NUL bytes. Text never contains NUL; almost every
/// binary format does within its header.
const SNIFF_BYTES: usize = 8 * 1024;

/// How the encoding of a text was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detection {
    /// Given with `--encoding`.
    Forced,
    /// A byte-order mark.
    Bom,
    /// The bytes are valid UTF-8.
    Utf8,
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
    pub detection: Detection,
    /// Some bytes were malformed in that encoding and were replaced with U+FFFD.
    pub lossy: bool,
}

/// Why bytes could not be taken as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte near the start and no UTF-16 byte-order mark.
    Binary {
        /// Offset of the first NUL byte.
        offset: usize,
        /// The NUL bytes sit at every other position, as in UTF-16 text without a BOM.
        utf16_like: bool,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Binary { offset, utf16_like } => {
                write!(
                    f,
                    "looks like binary data, not text (a NUL byte at offset {offset})"
                )?;
                if *utf16_like {
                    write!(
                        f,
                        "; if it is UTF-16 text without a byte-order mark, pass --encoding utf-16le or utf-16be"
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// The encoding named by a WHATWG label (`utf-8`, `windows-1251`, `cp1252`, `koi8-r`, `utf-16le`…),
/// or `None` for an unknown label. The "replacement" pseudo-encoding (labels of encodings that are
/// unsafe to decode, like ISO-2022-KR) is refused too: it would turn the whole file into one U+FFFD.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes()).filter(|&e| e != REPLACEMENT)
}

fn is_utf16(encoding: &'static Encoding) -> bool {
    encoding == UTF_16LE || encoding == UTF_16BE
}

fn check_nul(bytes: &[u8]) -> Result<(), DecodeError> {
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
    // ASCII-heavy UTF-16 puts a NUL in nearly every other byte, and only on one side.
    let utf16_like = (even + odd) * 4 >= head.len() && even.min(odd) * 20 <= even.max(odd);
    Err(DecodeError::Binary { offset, utf16_like })
}

/// Decodes a file's bytes to text; `forced` overrides all detection.
///
/// Errors: [`DecodeError::Binary`] when the bytes are clearly not text.
pub fn decode(bytes: Vec<u8>, forced: Option<&'static Encoding>) -> Result<Decoded, DecodeError> {
    if let Some(encoding) = forced {
        if !is_utf16(encoding) {
            check_nul(&bytes)?;
        }
        let (text, lossy) = encoding.decode_with_bom_removal(&bytes);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding,
            detection: Detection::Forced,
            lossy,
        });
    }
    if let Some((encoding, bom_len)) = Encoding::for_bom(&bytes) {
        let (text, lossy) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Ok(Decoded {
            text: text.into_owned(),
            encoding,
            detection: Detection::Bom,
            lossy,
        });
    }
    check_nul(&bytes)?;
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => {
            return Ok(Decoded {
                text,
                encoding: UTF_8,
                detection: Detection::Utf8,
                lossy: false,
            })
        }
        Err(e) => e.into_bytes(),
    };
    // ISO-2022-JP is a 7-bit encoding that only escape sequences reveal; allowing it would let
    // stray ESC bytes in a Western file turn it into Japanese.
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(&bytes, true);
    let encoding = detector.guess(None, Utf8Detection::Allow);
    let (text, lossy) = encoding.decode_without_bom_handling(&bytes);
    Ok(Decoded {
        text: text.into_owned(),
        encoding,
        detection: Detection::Guessed,
        lossy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{WINDOWS_1251, WINDOWS_1252};

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
            (d.text.as_str(), d.encoding, d.detection),
            (RU, UTF_8, Detection::Utf8)
        );
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.extend_from_slice(RU.as_bytes());
        let d = decode(with_bom, None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding, d.detection),
            (RU, UTF_8, Detection::Bom)
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
        assert_eq!(d.detection, Detection::Guessed);
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
        assert_eq!(d.detection, Detection::Forced);
        assert_ne!(d.text, RU);
        let d = decode(bytes, encoding_for_label(" CP1251 ")).unwrap();
        assert_eq!(d.text, RU);
        // UTF-16 without a BOM is only readable when named.
        let bare: Vec<u8> = "plain words"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(matches!(
            decode(bare.clone(), None),
            Err(DecodeError::Binary {
                utf16_like: true,
                ..
            })
        ));
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
    fn nul_bytes_mean_binary() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0".to_vec();
        let err = decode(png, None).unwrap_err();
        assert!(matches!(
            err,
            DecodeError::Binary {
                offset: 8,
                utf16_like: false
            }
        ));
        assert!(err
            .to_string()
            .starts_with("looks like binary data, not text"));
        // A forced single-byte encoding does not make binary data text.
        assert!(decode(vec![b'a', 0, b'b'], encoding_for_label("windows-1251")).is_err());
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
