//! Feeds arbitrary bytes to the pack decoder. It must never panic, and whatever it accepts must be
//! exactly what the encoder writes for the decoded pack (the format is canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use uniqcheck::pack::{decode, encode};

fuzz_target!(|data: &[u8]| {
    if let Ok(pack) = decode(data) {
        assert_eq!(encode(&pack), data, "accepted bytes are not canonical");
        // Compatibility checks must not panic either, whatever the pack claims.
        let _ = pack.check_compatible(&uniqcheck::Params::default());
    }
});
