//! Feeds arbitrary bytes to every pack file decoder (record, index page, page table, record
//! list). None may panic, and whatever a decoder accepts must be exactly what its encoder writes
//! (the format is canonical).
//!
//! Each input is also tried with its last four bytes replaced by the CRC32 of the rest: random
//! bytes almost never carry a valid checksum, so without the repaired copy the fuzzer would spend
//! its time on the checksum test and never reach the body's checks. Seed it with the golden
//! generation's files (`UNIQCHECK_FUZZ_SEED=1 cargo test --lib pack::tests::golden` writes them
//! to `fuzz/corpus/decode`), then from `fuzz/`:
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run decode corpus/decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use uniqcheck::pack::{Page, Record, RecordList, Table};
use uniqcheck::Params;

fn check(bytes: &[u8]) {
    let p = Params::default();
    if let Ok(r) = Record::decode(bytes, &p) {
        assert_eq!(
            r.encode(&p),
            bytes,
            "accepted record bytes are not canonical"
        );
    }
    if let Ok(x) = Page::decode(bytes, &p) {
        assert_eq!(x.encode(&p), bytes, "accepted page bytes are not canonical");
    }
    if let Ok(x) = Table::decode(bytes, &p) {
        assert_eq!(
            x.encode(&p),
            bytes,
            "accepted table bytes are not canonical"
        );
    }
    if let Ok(x) = RecordList::decode(bytes, &p) {
        assert_eq!(x.encode(&p), bytes, "accepted list bytes are not canonical");
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
