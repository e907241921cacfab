//! Running the built binary from an integration test and waiting for it: the tests that drive
//! `uniqcheck` by its arguments include this file (`#[path = "common/run.rs"] mod run;`).

use serde_json::Value;
use std::process::{Command, Output};

/// Runs `uniqcheck` with `args` (no stdin) and waits for it.
pub fn uniqcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_uniqcheck"))
        .args(args)
        .output()
        .expect("run uniqcheck")
}

/// The JSON a successful run printed; panics with its exit status and stderr otherwise.
pub fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}
