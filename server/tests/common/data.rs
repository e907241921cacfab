//! The shared corpora for the tests that need them: `$UNIQCHECK_DATA`, or `../shared/data` beside
//! the checkout. A test without them is skipped loudly (a `SKIPPED:` line on stderr), and fails
//! when `CI` is set: CI must have the data, and a green run there must mean the test ran.
//! Included by path (`#[path = "common/data.rs"]`) by the server's and the store's tests.

use std::path::{Path, PathBuf};

/// The data folder: `$UNIQCHECK_DATA`, or `../shared/data` beside the checkout.
pub fn data_dir() -> PathBuf {
    std::env::var_os("UNIQCHECK_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    )
}

/// The data folder when it holds `needed` (a path inside it); `None` after saying on stderr that
/// the test is skipped.
///
/// Panics: `needed` is missing and `CI` is set.
#[allow(dead_code)] // not every test file that includes this module skips
pub fn require(needed: &str) -> Option<PathBuf> {
    let data = data_dir();
    if data.join(needed).exists() {
        return Some(data);
    }
    let missing = data.join(needed);
    assert!(
        std::env::var_os("CI").is_none(),
        "../shared/data not found: {} is missing, and CI must have the data (set UNIQCHECK_DATA)",
        missing.display()
    );
    eprintln!(
        "SKIPPED: ../shared/data not found: {} is missing (set UNIQCHECK_DATA)",
        missing.display()
    );
    None
}
