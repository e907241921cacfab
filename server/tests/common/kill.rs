//! Killing a writer mid-run, as a crash would stop it: the crash tests of the CLI
//! (server/tests/index_crash.rs) and of the store (store/tests/crash.rs) include this file by
//! path (`#[path = "…/common/kill.rs"] mod kill;`).

use std::process::Child;
use std::time::{Duration, Instant};

/// Polls `far_enough` every 5 ms while `child` runs (two minutes at most), then kills `child`
/// with SIGKILL (on Unix: no chance to clean up) and reaps it. Returns whether it was still
/// running when killed: false means it finished (or failed) before the kill, and what is left is
/// no crash's.
pub fn kill_when(child: &mut Child, mut far_enough: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        if far_enough() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap_or(());
    child.wait().unwrap();
    running
}
