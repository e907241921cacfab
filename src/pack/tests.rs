//! Tests of the pack format: round trips, one test per error, the golden file, a no-panic sweep
//! over random and mutated bytes (the plain-test stand-in for `fuzz/`), and the size measurement.

use super::bytes::Writer;
use super::*;
use crate::hash::SplitMix64;
use crate::Format;
use proptest::prelude::*;

// ---------------------------------------------------------------- helpers

fn analyzed(id: &str, url: &str, title: &str, text: &str) -> PackedDocument {
    let doc = Document::analyze(text, Format::Plain, &Params::default(), 1 << 20).unwrap();
    let info = SourceInfo {
        id: id.into(),
        url: url.into(),
        title: title.into(),
    };
    PackedDocument::from_document(info, &doc)
}

/// The three documents of the golden pack. Changing any byte here changes the golden file.
fn golden_pack() -> Pack {
    let mut pack = Pack::new(Params::default());
    pack.documents = vec![
        analyzed(
            "en-1",
            "https://example.com/winnowing",
            "Winnowing",
            "Winnowing keeps the minimum hash of every window of shingles, so two documents \
             that share a long enough run of words always share a fingerprint, wherever the \
             run appears in either of them.",
        ),
        analyzed(
            "ru-1",
            "",
            "Шинглы 🦀",
            "Шинглы — это последовательности слов фиксированной длины, по которым поисковые \
             системы находят почти одинаковые документы в интернете.",
        ),
        analyzed(
            "short",
            "https://example.org/ad?id=7&lang=ru",
            "Объявление",
            "Продаю велосипед, почти новый, недорого.",
        ),
    ];
    pack
}

/// Appends a correct CRC32, so a crafted body reaches the structural checks.
fn with_crc(mut body: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

/// Replaces the CRC of a (possibly mutated) pack with the correct one.
fn fix_crc(bytes: &[u8]) -> Vec<u8> {
    with_crc(bytes[..bytes.len().saturating_sub(4)].to_vec())
}

/// A header for default params with `count` written as given, for crafting hostile packs.
/// Flags: stop words, stemming, and 16-bit MinHash values (what the encoder sets for sketches
/// without values, as the crafted documents have).
fn header(count: u64) -> Writer {
    let mut w = Writer::default();
    w.bytes(&MAGIC);
    w.u16(FORMAT_VERSION);
    w.u16(CANONICALIZER_VERSION);
    w.u8(0b111);
    w.varint(4);
    w.varint(4);
    w.varint(128);
    w.varint(count);
    w
}

fn corrupt_what(result: Result<Pack, PackError>) -> String {
    match result {
        Err(PackError::Corrupt { what, .. }) => what,
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

// ---------------------------------------------------------------- round trips

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Zа-яА-ЯёЁ0-9 .,!?😀🦀🇷🇺-]{0,40}",
        Just(String::new()),
    ]
}

fn fingerprints() -> impl Strategy<Value = Vec<Fingerprint>> {
    proptest::collection::vec((prop_oneof![1u32..8, 1u32..100_000], any::<u32>()), 0..300).prop_map(
        |gaps| {
            let mut pos = 0u32;
            gaps.into_iter()
                .map(|(gap, key)| {
                    pos += gap;
                    Fingerprint { key, pos }
                })
                .collect()
        },
    )
}

fn document() -> impl Strategy<Value = PackedDocument> {
    (
        (text(), text(), text()),
        any::<u32>(),
        any::<u64>(),
        (
            proptest::collection::vec(any::<u32>(), 0..160),
            any::<u32>(),
        ),
        fingerprints(),
        proptest::collection::vec(any::<u32>(), 0..16),
    )
        .prop_map(
            |((id, url, title), words, exact, (mins, set_size), fingerprints, hashes)| {
                PackedDocument {
                    info: SourceInfo { id, url, title },
                    words,
                    exact,
                    sketch: Sketch { mins, set_size },
                    fingerprints,
                    short: ShortSignature { hashes },
                }
            },
        )
}

fn pack() -> impl Strategy<Value = Pack> {
    let size = prop_oneof![0usize..20, any::<u32>().prop_map(|v| v as usize)];
    (
        (
            size.clone(),
            size.clone(),
            size,
            any::<bool>(),
            any::<bool>(),
        ),
        any::<u16>(),
        proptest::collection::vec(document(), 0..6),
    )
        .prop_map(
            |((n, w, k, stop_words, stemming), canonicalizer, documents)| Pack {
                params: Params {
                    n,
                    w,
                    k,
                    stop_words,
                    stemming,
                },
                canonicalizer,
                documents,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn round_trip_gives_back_the_same_pack(p in pack()) {
        let bytes = encode(&p);
        prop_assert_eq!(&decode(&bytes).unwrap(), &p);
        // Deterministic, and canonical: re-encoding the decoded pack gives the same bytes.
        prop_assert_eq!(&encode(&p), &bytes);
        prop_assert_eq!(&encode(&decode(&bytes).unwrap()), &bytes);
    }
}

#[test]
fn real_documents_round_trip() {
    let p = golden_pack();
    assert!(p.documents.iter().all(|d| !d.fingerprints.is_empty()));
    assert_eq!(decode(&encode(&p)).unwrap(), p);
    p.check_compatible(&Params::default()).unwrap();
}

#[test]
fn extreme_positions_and_empty_pack_round_trip() {
    let mut p = Pack::new(Params::default());
    // K = 128 takes a two-byte varint; everything else in an empty pack is as small as can be.
    assert_eq!(encode(&p).len(), format::MIN_PACK_BYTES + 1);
    assert_eq!(decode(&encode(&p)).unwrap(), p);
    let mut d = golden_pack().documents.remove(0);
    d.fingerprints = vec![
        Fingerprint { key: 0, pos: 0 },
        Fingerprint { key: 7, pos: 0 },
        Fingerprint {
            key: u32::MAX,
            pos: u32::MAX,
        },
    ];
    p.documents.push(d);
    assert_eq!(decode(&encode(&p)).unwrap(), p);
}

#[test]
fn unsorted_fingerprints_are_written_in_position_order() {
    let mut p = golden_pack();
    let sorted = p.clone();
    p.documents[0].fingerprints.reverse();
    assert_eq!(encode(&p), encode(&sorted));
    assert_eq!(decode(&encode(&p)).unwrap(), sorted);
}

#[test]
fn sixteen_bit_minhash_values_take_two_bytes_and_round_trip() {
    // The engine's sketches hold 16-bit values; a pack with any wider value (from another
    // producer) is stored in 32 bits and still round-trips.
    let narrow = golden_pack();
    assert!(narrow
        .documents
        .iter()
        .all(|d| d.sketch.mins.iter().all(|&m| m <= 0xffff)));
    let mut wide = narrow.clone();
    for d in &mut wide.documents {
        d.sketch.mins.iter_mut().for_each(|m| *m |= 0x1_0000);
    }
    let narrow_back = {
        let mut n = wide.clone();
        n.documents
            .iter_mut()
            .for_each(|d| d.sketch.mins.iter_mut().for_each(|m| *m &= 0xffff));
        n
    };
    assert_eq!(narrow_back, narrow);
    assert_eq!(decode(&encode(&wide)).unwrap(), wide);
    let (wb, nb) = (encode(&wide), encode(&narrow));
    assert_eq!(wb[8] & 0b100, 0);
    assert_eq!(nb[8] & 0b100, 0b100);
    assert_eq!(wb.len() - nb.len(), 3 * 2 * Params::default().k);
    assert_eq!(decode(&nb).unwrap(), narrow);

    // The wide form of narrow values is not what the encoder writes: refused.
    let mut w = header(1);
    w.buf[8] = 0b011;
    w.str("id");
    w.str("");
    w.str("");
    w.varint(1);
    w.u64(0);
    w.varint(1); // set size
    w.varint(1); // one MinHash value...
    w.u32(7); // ...that fits in 16 bits
    w.varint(0);
    w.varint(0);
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("16"));
}

// ---------------------------------------------------------------- one test per error

#[test]
fn not_a_pack() {
    assert_eq!(
        decode(b"PK\x03\x04zip"),
        Err(PackError::NotAPack {
            found: b"PK\x03\x04".to_vec()
        })
    );
    let err = decode(b"{\"json\": 1}").unwrap_err();
    assert!(
        err.to_string().contains("not a uniqcheck sketch pack"),
        "{err}"
    );
    assert!(matches!(decode(b"U?"), Err(PackError::NotAPack { .. })));
}

#[test]
fn every_prefix_is_truncated_or_fails_the_checksum() {
    let bytes = encode(&golden_pack());
    for len in 0..bytes.len() {
        match decode(&bytes[..len]) {
            Err(PackError::Truncated { .. }) | Err(PackError::Checksum { .. }) => {}
            other => panic!("prefix of {len} bytes: {other:?}"),
        }
    }
    assert_eq!(
        decode(&bytes[..2]),
        Err(PackError::Truncated {
            offset: 0,
            needed: 4
        })
    );
    assert_eq!(
        decode(&bytes[..5]),
        Err(PackError::Truncated {
            offset: 4,
            needed: 2
        })
    );
}

#[test]
fn every_flipped_byte_is_caught() {
    let bytes = encode(&golden_pack());
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= mask;
            let result = decode(&bad);
            let ok = match i {
                0..4 => matches!(result, Err(PackError::NotAPack { .. })),
                4..6 => matches!(result, Err(PackError::Version { expected: 1, .. })),
                _ => matches!(result, Err(PackError::Checksum { .. })),
            };
            assert!(ok, "byte {i} ^ {mask:#04x}: {result:?}");
        }
    }
}

#[test]
fn checksum_error_carries_both_values() {
    let mut bytes = encode(&golden_pack());
    let n = bytes.len();
    bytes[n - 1] ^= 0xff;
    let Err(PackError::Checksum { expected, found }) = decode(&bytes) else {
        panic!("expected Checksum");
    };
    assert_eq!(expected.to_le_bytes()[3], bytes[n - 1]);
    assert_eq!(found, crc32fast::hash(&bytes[..n - 4]));
    assert!(decode(&bytes).unwrap_err().to_string().contains("damaged"));
}

#[test]
fn other_versions_are_refused_with_the_fix() {
    let mut bytes = encode(&golden_pack());
    bytes[4..6].copy_from_slice(&2u16.to_le_bytes());
    let err = decode(&fix_crc(&bytes)).unwrap_err();
    assert_eq!(
        err,
        PackError::Version {
            expected: 1,
            found: 2
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("version 2") && msg.contains("version 1") && msg.contains("upgrade"));
    bytes[4..6].copy_from_slice(&0u16.to_le_bytes());
    let msg = decode(&bytes).unwrap_err().to_string();
    assert!(msg.contains("rebuild"), "{msg}");
}

#[test]
fn other_params_are_refused_naming_each_difference() {
    let pack = golden_pack();
    let engine = Params {
        n: 5,
        k: 64,
        stemming: false,
        ..Params::default()
    };
    let err = pack.check_compatible(&engine).unwrap_err();
    let PackError::ParamsMismatch { differences } = &err else {
        panic!("{err:?}");
    };
    let names: Vec<&str> = differences.iter().map(|d| d.name).collect();
    assert_eq!(names, ["n", "k", "stemming"]);
    assert_eq!(differences[0].found, ParamValue::Number(4));
    assert_eq!(differences[0].expected, ParamValue::Number(5));
    let msg = err.to_string();
    for part in [
        "n = 4 in the pack, 5 here",
        "k = 128 in the pack, 64 here",
        "stemming = true in the pack, false here",
    ] {
        assert!(msg.contains(part), "{msg}");
    }
    assert!(pack.check_compatible(&Params::default()).is_ok());
}

#[test]
fn another_canonicalizer_is_refused() {
    let mut pack = golden_pack();
    pack.canonicalizer = CANONICALIZER_VERSION + 1;
    // Survives the round trip: the check works on decoded packs.
    let pack = decode(&encode(&pack)).unwrap();
    let err = pack.check_compatible(&Params::default()).unwrap_err();
    assert_eq!(
        err,
        PackError::Canonicalizer {
            expected: CANONICALIZER_VERSION,
            found: CANONICALIZER_VERSION + 1
        }
    );
    assert!(err.to_string().contains("rebuild"));
}

#[test]
fn a_document_count_of_4_billion_is_corrupt_not_an_allocation() {
    let w = header(4_000_000_000);
    let bytes = with_crc(w.buf);
    let err = decode(&bytes).unwrap_err();
    assert!(
        matches!(&err, PackError::Corrupt { offset: 13, what } if what.contains("document count")),
        "{err:?}"
    );
}

/// One valid document table entry, then whatever `rest` the test needs.
fn one_document(rest: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = header(1);
    w.str("id");
    w.str("");
    w.str("title");
    w.varint(10);
    w.u64(42);
    rest(&mut w);
    with_crc(w.buf)
}

#[test]
fn hostile_counts_inside_documents_are_corrupt() {
    let huge_mins = one_document(|w| {
        w.varint(5);
        w.varint(u64::from(u32::MAX));
    });
    assert!(corrupt_what(decode(&huge_mins)).contains("MinHash value count"));

    let huge_short = one_document(|w| {
        w.varint(0);
        w.varint(0);
        w.varint(1 << 40);
    });
    assert!(corrupt_what(decode(&huge_short)).contains("short-signature"));

    let huge_fps = one_document(|w| {
        w.varint(0);
        w.varint(0);
        w.varint(0);
        w.varint(3);
        w.bytes(&[0; 14]);
    });
    assert!(corrupt_what(decode(&huge_fps)).contains("fingerprint count"));

    let mut w = header(1);
    w.varint(u64::MAX);
    w.bytes(&[0; 20]);
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("document id length"));
}

#[test]
fn structural_errors_are_corrupt() {
    let overflow = one_document(|w| {
        w.varint(0);
        w.varint(0);
        w.varint(0);
        w.varint(2);
        w.varint(u64::from(u32::MAX));
        w.u32(1);
        w.varint(1);
        w.u32(2);
    });
    assert!(corrupt_what(decode(&overflow)).contains("overflow"));

    let delta_too_big = one_document(|w| {
        w.varint(0);
        w.varint(0);
        w.varint(0);
        w.varint(1);
        w.varint(1 << 32);
        w.u32(1);
    });
    assert!(corrupt_what(decode(&delta_too_big)).contains("32 bits"));

    let mut w = header(1);
    w.varint(2);
    w.bytes(&[0xff, 0xfe]);
    w.bytes(&[0; 20]);
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("UTF-8"));

    let mut w = header(0);
    w.buf[8] = 0b1000;
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("flag"));

    let mut w = header(0);
    w.u8(0);
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("after the last section"));

    let mut w = header(0);
    w.buf.pop();
    w.bytes(&[0x80, 0x00]);
    assert!(corrupt_what(decode(&with_crc(w.buf))).contains("overlong"));
}

#[test]
fn a_field_past_the_end_of_a_checksummed_body_is_truncated() {
    let mut w = header(1);
    w.str("id");
    w.str("");
    w.str("");
    w.varint(1);
    w.bytes(&[0; 7]); // the exact hash needs 8
    w.bytes(&[0; 4]); // room enough for the count check, not for the sections
    let err = decode(&with_crc(w.buf)).unwrap_err();
    assert!(matches!(err, PackError::Truncated { .. }), "{err:?}");
}

// ---------------------------------------------------------------- golden file

const GOLDEN_PATH: &str = "tests/golden/v1-small.uqp";
/// Included rather than read at run time, so the same check runs under wasm32 test runners.
const GOLDEN: &[u8] = include_bytes!("../../tests/golden/v1-small.uqp");

/// Native and wasm builds must write exactly these bytes. When a change is intended (and
/// [`FORMAT_VERSION`] or [`CANONICALIZER_VERSION`] bumped as the policy says), regenerate with
/// `UNIQCHECK_BLESS=1 cargo test --lib pack::tests::golden`.
#[test]
fn golden_file_matches_and_decodes() {
    let bytes = encode(&golden_pack());
    if std::env::var_os("UNIQCHECK_BLESS").is_some_and(|v| v == "1") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_PATH);
        std::fs::write(&path, &bytes).unwrap();
        eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
        return;
    }
    assert!(
        bytes == GOLDEN,
        "the encoder no longer writes {GOLDEN_PATH} ({} bytes now, {} in the file): if the change \
         is intended, bump FORMAT_VERSION or CANONICALIZER_VERSION and regenerate with \
         UNIQCHECK_BLESS=1 (see docs/FORMAT.md)",
        bytes.len(),
        GOLDEN.len()
    );
    let pack = decode(GOLDEN).unwrap();
    assert_eq!(pack, golden_pack());
    assert_eq!(&GOLDEN[..4], b"UQPK");
    assert_eq!(&GOLDEN[4..6], &[1, 0]);
    assert_eq!(pack.documents[1].info.title, "Шинглы 🦀");
}

// ---------------------------------------------------------------- no-panic sweep (see fuzz/)

/// 20,000 random and mutated byte strings: `decode` must return, never panic, and whatever it
/// accepts must re-encode to the very same bytes. Half the mutated packs get their CRC fixed so
/// that the structural checks behind the checksum are exercised too.
#[test]
fn decode_never_panics_on_random_or_mutated_bytes() {
    let valid = encode(&golden_pack());
    let mut small = golden_pack();
    small.documents.truncate(1);
    let small = encode(&small);
    let mut rng = SplitMix64(0x5eed_f00d);
    let mut below = |n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    let (mut accepted, mut structural) = (0, 0);
    for case in 0..20_000 {
        let input: Vec<u8> = match case % 4 {
            0 => (0..below(300)).map(|_| below(256) as u8).collect(),
            1 => {
                let mut v = header(below(4) as u64).buf;
                v.extend((0..below(200)).map(|_| below(256) as u8));
                if below(2) == 0 {
                    v = with_crc(v);
                }
                v
            }
            _ => {
                let base = if below(2) == 0 { &valid } else { &small };
                let mut v = base.clone();
                for _ in 0..1 + below(4) {
                    if v.is_empty() {
                        break;
                    }
                    let at = below(v.len());
                    match below(5) {
                        0 => v[at] ^= 1 << below(8),
                        1 => v[at] = below(256) as u8,
                        2 => v.insert(at, below(256) as u8),
                        3 if v.len() > 1 => {
                            v.remove(at);
                        }
                        _ => v.truncate(at),
                    }
                }
                if case % 4 == 3 {
                    v = fix_crc(&v);
                }
                v
            }
        };
        let outcome = std::panic::catch_unwind(|| decode(&input));
        let Ok(result) = outcome else {
            panic!("decode panicked on case {case}: {input:02x?}");
        };
        match result {
            Ok(pack) => {
                accepted += 1;
                assert_eq!(encode(&pack), input, "case {case} is not canonical");
            }
            Err(PackError::Corrupt { .. }) => structural += 1,
            Err(_) => {}
        }
    }
    // The sweep must reach past the checksum, or it tests nothing but the CRC.
    assert!(
        structural > 1000,
        "only {structural} inputs reached the body checks"
    );
    assert!(accepted > 0);
}

/// Replays the crashers cargo-fuzz saved (none yet): each must now decode without panicking.
#[test]
fn fuzz_artifacts_replay_without_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/artifacts/decode");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        if let Ok(pack) = decode(&bytes) {
            assert_eq!(encode(&pack), bytes, "{}", e.path().display());
        }
    }
}

// ---------------------------------------------------------------- size on real text

/// Bytes per document on 20 Newsgroups with the default parameters; the figure in
/// docs/FORMAT.md. Run with
/// `cargo test --release --lib pack::tests::size -- --ignored --nocapture`
/// (`UNIQCHECK_20NEWS` overrides the corpus path).
#[test]
#[ignore = "reads the 20 Newsgroups corpus from ../shared/data; prints a measurement"]
fn size_on_20_newsgroups() {
    let root = std::env::var("UNIQCHECK_20NEWS").unwrap_or_else(|_| {
        format!(
            "{}/../shared/data/20news-bydate",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&root)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no files under {root}");
    let params = Params::default();
    let mut pack = Pack::new(params);
    let mut all_words = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let raw = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&raw);
        let Ok(doc) = Document::analyze(&text, Format::Plain, &params, 32 << 20) else {
            continue;
        };
        all_words.push(doc.canonical.words.len());
        // Ids like the store's: short and numeric; no URL or title, to measure the sketches.
        let info = SourceInfo {
            id: i.to_string(),
            ..SourceInfo::default()
        };
        pack.documents
            .push(PackedDocument::from_document(info, &doc));
    }
    let total = encode(&pack).len();
    let docs = pack.documents.len();
    let words: usize = all_words.iter().sum();
    let content: usize = pack.documents.iter().map(|d| d.words as usize).sum();
    let fps: usize = pack.documents.iter().map(|d| d.fingerprints.len()).sum();
    println!("20 Newsgroups, Params::default(): {docs} documents, pack {total} bytes");
    println!(
        "  words (all / content): {words} / {content}; fingerprints {fps} ({:.3} per content word)",
        fps as f64 / content as f64
    );
    println!(
        "  bytes per 1,000 words: {:.0} (all words), {:.0} (content words)",
        1000.0 * total as f64 / words as f64,
        1000.0 * total as f64 / content as f64
    );
    println!(
        "  MinHash part: {} bytes per document (K = {} values of 16 bits, b-bit minwise hashing)",
        2 * params.k,
        params.k
    );
    // Documents near 1,000 words, encoded alone (header and CRC included), and what the
    // fingerprints cost of that.
    let alone = |d: PackedDocument| {
        let mut one = Pack::new(params);
        one.documents.push(d);
        encode(&one).len()
    };
    let (mut n, mut w, mut full, mut no_fps) = (0, 0, 0, 0);
    for (d, &words) in pack.documents.iter().zip(&all_words) {
        if !(900..=1100).contains(&words) {
            continue;
        }
        n += 1;
        w += words;
        full += alone(d.clone());
        no_fps += alone(PackedDocument {
            fingerprints: Vec::new(),
            ..d.clone()
        });
    }
    let per_1000 = |b: usize| 1000.0 * b as f64 / w as f64;
    println!(
        "  {n} documents of 900-1,100 words: {:.0} bytes per 1,000 words \
         (fingerprints {:.0}, the rest {:.0})",
        per_1000(full),
        per_1000(full - no_fps),
        per_1000(no_fps)
    );
}

// ---------------------------------------------------------------- version 2

/// A generation of version-2 packs built from the golden documents: every file, by name, in the
/// order the builder makes them (records first). Names use CRC32 as content id, so the golden
/// file pins every byte without a cryptographic hash in the engine.
fn golden_v2() -> Vec<(String, Vec<u8>)> {
    let p = Params::default();
    let texts = [
        ("1", "https://example.com/winnowing", "Winnowing", "Winnowing keeps the minimum hash of every window of shingles, so two documents that share a long enough run of words always share a fingerprint, wherever the run appears in either of them."),
        ("2", "", "Шинглы 🦀", "Шинглы — это последовательности слов фиксированной длины, по которым поисковые системы находят почти одинаковые документы в интернете."),
        ("3", "https://example.org/ad?id=7&lang=ru", "Объявление", "Продаю велосипед, почти новый, недорого."),
    ];
    let mut builder = Builder::new(p, 16);
    let mut files = Vec::new();
    for (rev, (id, url, title, text)) in texts.into_iter().enumerate() {
        let doc = Document::analyze(text, Format::Plain, &p, 1 << 20).unwrap();
        let info = SourceInfo {
            id: id.into(),
            url: url.into(),
            title: title.into(),
        };
        files.push(builder.add(rev as u64 + 1, &Record::from_document(info, &doc)));
    }
    let finished = builder.finish(64, |b| u64::from(crc32fast::hash(b)));
    files.extend(finished.files);
    files
}

/// The golden generation as one file: per file, its name, a newline, its length in decimal, a
/// newline, its bytes.
fn golden_v2_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    for (name, bytes) in golden_v2() {
        out.extend_from_slice(format!("{name}\n{}\n", bytes.len()).as_bytes());
        out.extend_from_slice(&bytes);
    }
    out
}

const GOLDEN_V2_PATH: &str = "tests/golden/v2-small.bin";
const GOLDEN_V2: &[u8] = include_bytes!("../../tests/golden/v2-small.bin");

/// Native and wasm builds write exactly these version-2 files (regenerate as for version 1).
#[test]
fn golden_v2_files_match_and_decode() {
    let bytes = golden_v2_bytes();
    if std::env::var_os("UNIQCHECK_BLESS").is_some_and(|v| v == "1") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_V2_PATH);
        std::fs::write(&path, &bytes).unwrap();
        return;
    }
    assert!(
        bytes == GOLDEN_V2,
        "the version-2 encoders no longer write {GOLDEN_V2_PATH}: if the change is intended, bump \
         the format or canonicalizer version and regenerate with UNIQCHECK_BLESS=1"
    );
    let p = Params::default();
    for (name, bytes) in golden_v2() {
        assert_eq!(&bytes[..6], b"UQPK\x02\x00", "{name}");
        let ok = if name.ends_with(".uqr") {
            Record::decode(&bytes, &p).map(|r| r.encode(&p))
        } else if name.ends_with(".uqi") {
            Page::decode(&bytes, &p).map(|x| x.encode(&p))
        } else if name.ends_with(".uqt") {
            Table::decode(&bytes, &p).map(|x| x.encode(&p))
        } else {
            RecordList::decode(&bytes, &p).map(|x| x.encode(&p))
        };
        assert_eq!(
            ok.unwrap(),
            bytes,
            "{name} decodes and re-encodes to itself"
        );
        assert!(is_pack_file(&name), "{name}");
    }
}

proptest! {
    /// The plain-test stand-in for `fuzz/fuzz_targets/decode_v2.rs`: any golden version-2 file,
    /// mutated anywhere and with its CRC repaired, is refused or accepted canonically by every
    /// decoder, never with a panic.
    #[test]
    fn mutated_v2_files_never_panic(file in 0usize..16, at in any::<usize>(), byte in any::<u8>(), cut in any::<bool>()) {
        let files = golden_v2();
        let (_, bytes) = &files[file % files.len()];
        let mut b = bytes.clone();
        let i = at % b.len();
        b[i] = byte;
        if cut {
            b.truncate(i.max(1));
        }
        let b = fix_crc(&b);
        let p = Params::default();
        if let Ok(r) = Record::decode(&b, &p) { prop_assert_eq!(r.encode(&p), b.clone()); }
        if let Ok(x) = Page::decode(&b, &p) { prop_assert_eq!(x.encode(&p), b.clone()); }
        if let Ok(x) = Table::decode(&b, &p) { prop_assert_eq!(x.encode(&p), b.clone()); }
        if let Ok(x) = RecordList::decode(&b, &p) { prop_assert_eq!(x.encode(&p), b.clone()); }
    }
}
