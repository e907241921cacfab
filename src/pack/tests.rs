//! Tests of the pack format across its files: the envelope's errors (one test each, on a golden
//! record), the golden generation, a no-panic sweep over random and mutated files (the plain-test
//! stand-in for `fuzz/`). Each kind of file has more tests beside its code (`record`, `pages`,
//! `manifest`, `bytes`).

use super::frame::{self, Kind};
use super::*;
use crate::canonicalize::CANONICALIZER_VERSION;
use crate::hash::SplitMix64;
use crate::{Document, Format, SourceInfo};
use proptest::prelude::*;

// ---------------------------------------------------------------- helpers

/// Appends a correct CRC32, so a crafted body reaches the structural checks.
fn with_crc(mut body: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

/// Replaces the CRC of a (possibly mutated) file with the correct one.
fn fix_crc(bytes: &[u8]) -> Vec<u8> {
    with_crc(bytes[..bytes.len().saturating_sub(4)].to_vec())
}

/// The golden generation's first record file.
fn golden_record() -> Vec<u8> {
    let (name, bytes) = golden_v7().swap_remove(0);
    assert!(name.ends_with(".uqr"), "{name}");
    bytes
}

fn decode_record(bytes: &[u8]) -> Result<Record, PackError> {
    Record::decode(bytes, &Params::default())
}

/// Every decoder on `bytes`: none may panic, and whatever one accepts must re-encode to exactly
/// `bytes`. Returns whether any accepted them, and whether any refused them as corrupt (past the
/// checksum).
fn decode_all(bytes: &[u8]) -> (bool, bool) {
    let p = Params::default();
    let results = [
        Record::decode(bytes, &p).map(|x| x.encode(&p)),
        Page::decode(bytes, &p).map(|x| x.encode(&p)),
        Table::decode(bytes, &p).map(|x| x.encode(&p)),
        RecordList::decode(bytes, &p).map(|x| x.encode(&p)),
    ];
    let (mut accepted, mut corrupt) = (false, false);
    for r in results {
        match r {
            Ok(encoded) => {
                assert_eq!(encoded, bytes, "accepted bytes are not canonical");
                accepted = true;
            }
            Err(PackError::Corrupt { .. }) => corrupt = true,
            Err(_) => {}
        }
    }
    (accepted, corrupt)
}

// ---------------------------------------------------------------- one test per error

#[test]
fn not_a_pack() {
    assert_eq!(
        decode_record(b"PK\x03\x04zip"),
        Err(PackError::NotAPack {
            found: b"PK\x03\x04".to_vec()
        })
    );
    let err = decode_record(b"{\"json\": 1}").unwrap_err();
    assert!(
        err.to_string().contains("not a uniqcheck pack file"),
        "{err}"
    );
    assert_eq!(err.code(), "pack_magic");
    assert!(matches!(
        decode_record(b"U?"),
        Err(PackError::NotAPack { .. })
    ));
}

#[test]
fn every_prefix_is_truncated_or_fails_the_checksum() {
    let bytes = golden_record();
    for len in 0..bytes.len() {
        match decode_record(&bytes[..len]) {
            Err(PackError::Truncated { .. }) | Err(PackError::Checksum { .. }) => {}
            other => panic!("prefix of {len} bytes: {other:?}"),
        }
    }
    assert_eq!(
        decode_record(&bytes[..2]),
        Err(PackError::Truncated {
            offset: 0,
            needed: 4
        })
    );
    assert_eq!(
        decode_record(&bytes[..5]),
        Err(PackError::Truncated {
            offset: 4,
            needed: 2
        })
    );
}

#[test]
fn every_flipped_byte_is_caught() {
    let bytes = golden_record();
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= mask;
            let result = decode_record(&bad);
            let ok = match i {
                0..4 => matches!(result, Err(PackError::NotAPack { .. })),
                4..6 => matches!(
                    result,
                    Err(PackError::Version {
                        expected: FORMAT_VERSION,
                        ..
                    })
                ),
                _ => matches!(result, Err(PackError::Checksum { .. })),
            };
            assert!(ok, "byte {i} ^ {mask:#04x}: {result:?}");
        }
    }
}

#[test]
fn checksum_error_carries_both_values() {
    let mut bytes = golden_record();
    let n = bytes.len();
    bytes[n - 1] ^= 0xff;
    let Err(PackError::Checksum { expected, found }) = decode_record(&bytes) else {
        panic!("expected Checksum");
    };
    assert_eq!(expected.to_le_bytes()[3], bytes[n - 1]);
    assert_eq!(found, crc32fast::hash(&bytes[..n - 4]));
    assert!(decode_record(&bytes)
        .unwrap_err()
        .to_string()
        .contains("damaged"));
}

#[test]
fn other_versions_are_refused_with_the_fix() {
    assert_eq!(FORMAT_VERSION, 7);
    let mut bytes = golden_record();
    bytes[4..6].copy_from_slice(&8u16.to_le_bytes());
    let err = decode_record(&fix_crc(&bytes)).unwrap_err();
    assert_eq!(
        err,
        PackError::Version {
            expected: 7,
            found: 8
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("version 8") && msg.contains("version 7") && msg.contains("upgrade"));
    // Version 6 (three sentence keys a sentence), version 5 (a two-level page table naming pages by content), version 4 (a flat page
    // table), version 3 (records without their shingle count), version 2 (page tables with a
    // CRC32 a page) and version 1 (one file of sketches per shard) are older: rebuild. Every
    // kind of file says so, before its checksum is looked at.
    for old in [6u16, 5, 4, 3, 2, 1] {
        for (name, file) in golden_v7() {
            let mut file = file.clone();
            file[4..6].copy_from_slice(&old.to_le_bytes());
            let p = Params::default();
            let errors = [
                Record::decode(&file, &p).err(),
                Page::decode(&file, &p).err(),
                Table::decode(&file, &p).err(),
                RecordList::decode(&file, &p).err(),
            ];
            for err in errors {
                let err = err.unwrap();
                assert_eq!(err.code(), "pack_version", "{name}: {err}");
                let msg = err.to_string();
                assert!(
                    msg.contains(&format!("format version {old}, this build reads version 7"))
                        && msg.contains("rebuild"),
                    "{msg}"
                );
            }
        }
    }
}

#[test]
fn other_params_are_refused_naming_each_difference() {
    let engine = Params {
        n: 5,
        k: 64,
        stemming: false,
        ..Params::default()
    };
    let err = check_analysis(CANONICALIZER_VERSION, &Params::default(), &engine).unwrap_err();
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
    assert!(check_analysis(CANONICALIZER_VERSION, &engine, &engine).is_ok());
}

#[test]
fn another_canonicalizer_is_refused() {
    let mut bytes = golden_record();
    bytes[7..9].copy_from_slice(&(CANONICALIZER_VERSION + 1).to_le_bytes());
    let err = decode_record(&fix_crc(&bytes)).unwrap_err();
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
fn a_word_count_of_4_billion_is_corrupt_not_an_allocation() {
    let p = Params::default();
    let bytes = frame::write(Kind::Record, record::canon_of(&p), |w| {
        w.str("1");
        w.str("");
        w.str("");
        w.u64(0);
        w.varint(4_000_000_000);
        w.bytes(&[0; 16]);
    });
    let err = decode_record(&bytes).unwrap_err();
    assert!(
        matches!(&err, PackError::Corrupt { what, .. } if what.contains("word count")),
        "{err:?}"
    );
}

// ---------------------------------------------------------------- no-panic sweep (see fuzz/)

/// 20,000 random and mutated byte strings through every decoder: each must return, never panic,
/// and whatever one accepts must re-encode to the very same bytes. Half the mutated files get
/// their CRC fixed so that the structural checks behind the checksum are exercised too.
#[test]
fn decoders_never_panic_on_random_or_mutated_bytes() {
    let files: Vec<Vec<u8>> = golden_v7().into_iter().map(|(_, b)| b).collect();
    let mut rng = SplitMix64(0x5eed_f00d);
    let mut below = |n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    let (mut accepted, mut structural) = (0, 0);
    for case in 0..20_000 {
        let input: Vec<u8> = match case % 4 {
            0 => (0..below(300)).map(|_| below(256) as u8).collect(),
            1 => {
                // A valid header of any kind, then random bytes.
                let mut v = files[below(files.len())][..10].to_vec();
                v[6] = 1 + below(5) as u8;
                v.extend((0..below(200)).map(|_| below(256) as u8));
                if below(2) == 0 {
                    v = with_crc(v);
                }
                v
            }
            _ => {
                let mut v = files[below(files.len())].clone();
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
        let Ok((ok, corrupt)) = std::panic::catch_unwind(|| decode_all(&input)) else {
            panic!("a decoder panicked on case {case}: {input:02x?}");
        };
        accepted += usize::from(ok);
        structural += usize::from(corrupt);
    }
    // The sweep must reach past the checksum, or it tests nothing but the CRC.
    assert!(
        structural > 1000,
        "only {structural} inputs reached the body checks"
    );
    assert!(accepted > 0);
}

/// What `fuzz/fuzz_targets/decode.rs` does with an input: every decoder on it as it is, and on
/// it with its last four bytes replaced by the CRC32 of the rest.
fn decode_as_the_fuzzer(bytes: &[u8]) -> [(bool, bool); 2] {
    [decode_all(bytes), decode_all(&fix_crc(bytes))]
}

/// The crashers cargo-fuzz saved for `decode` (`fuzz/artifacts/decode/`, kept in git), by name.
fn fuzz_artifacts() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/artifacts/decode");
    // Absent where the crate is built without its repository (and on wasm32, no file system).
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Replays every crasher cargo-fuzz saved for `decode` as the target runs it: each must go
/// through every decoder without a panic, and whatever one accepts must re-encode to itself.
#[test]
fn fuzz_artifacts_replay_without_panic() {
    for (name, bytes) in fuzz_artifacts() {
        let Ok(_) = std::panic::catch_unwind(|| decode_as_the_fuzzer(&bytes)) else {
            panic!("fuzz/artifacts/decode/{name} still fails: {bytes:02x?}");
        };
    }
}

/// The first crasher (issue 33): a record whose shingles were not counted (`n` 0, count 0) was
/// accepted, and re-encoded counted for the checker's `n`, so two files decoded to one record.
/// A writer of this version always counts them: refused as corrupt.
#[test]
fn fuzz_crasher_a_record_of_uncounted_shingles_is_refused() {
    const NAME: &str = "crash-0f4e342d9cc095630b3611ef08a1a552f4e5acf8";
    let Some((_, bytes)) = fuzz_artifacts().into_iter().find(|(n, _)| n == NAME) else {
        return;
    };
    // As found: the golden header (of version 4, then this version: carried over to the current
    // version, so the body's check is what is tested), an empty record, then `n` 0 and a count of 0.
    let mut bytes = fix_crc(&bytes);
    frame::set_version(&mut bytes, FORMAT_VERSION);
    let err = decode_record(&bytes).unwrap_err();
    assert!(
        matches!(&err, PackError::Corrupt { offset: 25, what } if what.contains("not counted")),
        "{err:?}"
    );
    let (accepted, corrupt) = decode_all(&bytes);
    assert!(!accepted && corrupt);
}

// ---------------------------------------------------------------- golden generation

/// A generation of packs built from the golden documents: every file, by name, in the order the
/// builder makes them (records first), named as every writer names them (SHA-256).
fn golden_v7() -> Vec<(String, Vec<u8>)> {
    let p = Params::default();
    let texts = [
        ("1", "https://example.com/winnowing", "Winnowing", "Winnowing keeps the minimum hash of every window of shingles, so two documents that share a long enough run of words always share a fingerprint, wherever the run appears in either of them."),
        ("2", "", "Шинглы 🦀", "Шинглы — это последовательности слов фиксированной длины, по которым поисковые системы находят почти одинаковые документы в интернете."),
        ("3", "https://example.org/ad?id=7&lang=ru", "Объявление", "Продаю велосипед, почти новый, недорого."),
    ];
    let mut builder = Builder::new(p);
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
    // Small pages, so that the golden lists have several.
    let finished = builder.finish(24);
    files.extend(finished.files);
    files
}

/// The golden generation as one file: per file, its name, a newline, its length in decimal, a
/// newline, its bytes.
fn golden_v7_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    for (name, bytes) in golden_v7() {
        out.extend_from_slice(format!("{name}\n{}\n", bytes.len()).as_bytes());
        out.extend_from_slice(&bytes);
    }
    out
}

const GOLDEN_V7_PATH: &str = "tests/golden/v7-small.bin";
const GOLDEN_V7: &[u8] = include_bytes!("../../tests/golden/v7-small.bin");

/// With `UNIQCHECK_FUZZ_SEED=1`, writes every golden file to `fuzz/corpus/decode/` (git ignores
/// it), the `decode` fuzz target's seeds: mutations of valid files reach the body's checks far
/// sooner than random bytes do. Does nothing otherwise.
#[test]
fn golden_v7_files_seed_the_decode_fuzz_corpus() {
    if std::env::var_os("UNIQCHECK_FUZZ_SEED").is_none_or(|v| v != "1") {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/decode");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in golden_v7() {
        std::fs::write(
            dir.join(format!("golden-{}", name.replace('/', "_"))),
            bytes,
        )
        .unwrap();
    }
}

/// Native and wasm builds must write exactly these files. When a change is intended (and
/// [`FORMAT_VERSION`] or [`CANONICALIZER_VERSION`](crate::canonicalize::CANONICALIZER_VERSION)
/// bumped as `docs/FORMAT.md` says), regenerate with
/// `UNIQCHECK_BLESS=1 cargo test --lib pack::tests::golden`.
#[test]
fn golden_v7_files_match_and_decode() {
    let bytes = golden_v7_bytes();
    if std::env::var_os("UNIQCHECK_BLESS").is_some_and(|v| v == "1") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_V7_PATH);
        std::fs::write(&path, &bytes).unwrap();
        return;
    }
    assert!(
        bytes == GOLDEN_V7,
        "the encoders no longer write {GOLDEN_V7_PATH}: if the change is intended, bump \
         the format or canonicalizer version and regenerate with UNIQCHECK_BLESS=1"
    );
    let p = Params::default();
    for (name, bytes) in golden_v7() {
        assert_eq!(&bytes[..6], b"UQPK\x07\x00", "{name}");
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
    /// The plain-test stand-in for `fuzz/fuzz_targets/decode.rs`: any golden file,
    /// mutated anywhere and with its CRC repaired, is refused or accepted canonically by every
    /// decoder, never with a panic.
    #[test]
    fn mutated_golden_files_never_panic(file in 0usize..16, at in any::<usize>(), byte in any::<u8>(), cut in any::<bool>()) {
        let files = golden_v7();
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
