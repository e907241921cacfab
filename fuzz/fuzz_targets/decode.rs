//! Feeds arbitrary bytes to the pack decoder. It must never panic, and whatever it accepts must be
//! exactly what the encoder writes for the decoded pack (the format is canonical).
//!
//! Each input is decoded twice: as it is, and with its last four bytes replaced by the CRC32 of
//! the rest. Random bytes almost never carry a valid checksum, so without the repaired copy the
//! fuzzer would spend its time on the checksum test and never reach the body's checks.
//! Seed it with the golden pack: `cargo +nightly fuzz run decode fuzz/corpus/decode tests/golden`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uniqcheck::pack::{decode, encode};

fn check(bytes: &[u8]) {
    if let Ok(pack) = decode(bytes) {
        assert_eq!(encode(&pack), bytes, "accepted bytes are not canonical");
        // Compatibility checks must not panic either, whatever the pack claims.
        let _ = pack.check_compatible(&uniqcheck::Params::default());
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(body) = data.len().checked_sub(4) {
        let mut repaired = data.to_vec();
        let crc = crc32fast::hash(&repaired[..body]);
        repaired[body..].copy_from_slice(&crc.to_le_bytes());
        check(&repaired);
    }
});
