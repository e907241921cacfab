//! Running the built binary from an integration test and waiting for it: the tests that drive
//! `uniqcheck` by its arguments include this file (`#[path = "common/run.rs"] mod run;`).
// Each test binary that includes this file uses only part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `uniqcheck` with `args` and an empty stdin, and waits for it.
pub fn uniqcheck(args: &[&str]) -> Output {
    run(args, None)
}

/// Runs `uniqcheck` with `args`, `input` on its stdin, and waits for it.
pub fn uniqcheck_stdin(args: &[&str], input: &[u8]) -> Output {
    run(args, Some(input))
}

fn run(args: &[&str], input: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_uniqcheck"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run uniqcheck");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = input {
            // A command may fail before reading its input (`compare - -`): a broken pipe here.
            if let Err(e) = pipe.write_all(bytes) {
                assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
            }
        }
    }
    child.wait_with_output().unwrap()
}

/// What a run printed on stdout (UTF-8).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What a run printed on stderr (UTF-8).
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The JSON a successful run printed; panics with its exit status and stderr otherwise, and with
/// what it printed if that is not JSON.
pub fn json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

/// Asserts a failure that explains itself and does not panic.
pub fn assert_fails(o: &Output, code: i32, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert!(err.lines().any(|l| l.starts_with("error: ")), "{err}");
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
