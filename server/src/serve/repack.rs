//! Keeps the sketch packs in step with the store: one background task rewrites them a short
//! while after the last write.
//!
//! Guarantees:
//! - **Debounced.** A burst of writes (a CMS re-publishing a section, 50 concurrent adds) causes
//!   one rewrite, [`DEBOUNCE`] after the last write of the burst, not one per write.
//! - **Never two at once.** A single task does every rewrite, so two writers never race on the
//!   packs folder; [`crate::packs::write_packs`] replaces the files atomically, so readers see
//!   either the old set or the new one. The manifest's `changes` says which store state it is.
//! - **Nothing lost.** A write that lands while packs are being written triggers another rewrite;
//!   on shutdown ([`Repacker::finish`]) a pending rewrite is done at once, not dropped.
//!
//! Writing packs reads the whole store under its lock, so API writes wait for it: packs are
//! derived data rebuilt from scratch, which keeps them trivially consistent with the store.

use crate::packs::{write_packs, Manifest};
use crate::store::Store;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Quiet time after the last write before packs are rewritten.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Where and how packs are written.
pub struct PackTarget {
    /// The store to read.
    pub store: Arc<Mutex<Store>>,
    /// The packs folder.
    pub dir: PathBuf,
    /// Largest pack index page, in bytes.
    pub max_page_bytes: usize,
    /// Log every rewrite on stderr.
    pub verbose: bool,
}

impl PackTarget {
    /// Writes the packs now (blocking: call from `spawn_blocking` inside the runtime).
    pub fn write(&self) -> Result<Manifest> {
        let store = super::lock(&self.store);
        let started = Instant::now();
        let manifest = write_packs(&store, &self.dir, self.max_page_bytes)
            .with_context(|| format!("cannot write packs to {}", self.dir.display()))?;
        drop(store);
        if self.verbose {
            eprintln!(
                "packs: {} documents, {} bytes, changes {} ({} ms)",
                manifest.documents,
                manifest.total_bytes(),
                manifest.changes,
                started.elapsed().as_millis()
            );
        }
        Ok(manifest)
    }
}

/// The handle API handlers use to ask for new packs.
pub struct Repacker {
    /// Bumped by every write that changed the store.
    requested: AtomicU64,
    /// Set once, by [`Repacker::finish`].
    closing: AtomicBool,
    wake: Notify,
}

impl Repacker {
    /// Starts the background task.
    pub fn start(target: PackTarget) -> (Arc<Repacker>, JoinHandle<()>) {
        let repacker = Arc::new(Repacker {
            requested: AtomicU64::new(0),
            closing: AtomicBool::new(false),
            wake: Notify::new(),
        });
        let task = tokio::spawn(run(repacker.clone(), Arc::new(target)));
        (repacker, task)
    }

    /// Asks for packs to be rewritten soon. Cheap; never blocks.
    pub fn request(&self) {
        self.requested.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_one();
    }

    /// Writes any pending packs without waiting for the quiet time, then stops the task.
    pub async fn finish(&self, task: JoinHandle<()>) {
        self.closing.store(true, Ordering::SeqCst);
        self.wake.notify_one();
        if let Err(e) = task.await {
            crate::warn(format_args!("the pack writer stopped abnormally: {e}"));
        }
    }
}

async fn run(repacker: Arc<Repacker>, target: Arc<PackTarget>) {
    // Generation of the store the packs on disk were written from (the start-up write is 0).
    let mut written = 0;
    loop {
        let closing = repacker.closing.load(Ordering::SeqCst);
        if repacker.requested.load(Ordering::SeqCst) == written {
            if closing {
                return;
            }
            // A `notify_one` before this wait leaves a permit, so no request is missed.
            repacker.wake.notified().await;
            continue;
        }
        if !closing {
            // Debounce: wait until no request arrived for DEBOUNCE (or shutdown began).
            // A wake-up may be the stale permit of the request that started this round, so only
            // a full quiet DEBOUNCE ends the wait.
            loop {
                let seen = repacker.requested.load(Ordering::SeqCst);
                let woke = tokio::time::timeout(DEBOUNCE, repacker.wake.notified())
                    .await
                    .is_ok();
                if repacker.closing.load(Ordering::SeqCst)
                    || (!woke && repacker.requested.load(Ordering::SeqCst) == seen)
                {
                    break;
                }
            }
        }
        let generation = repacker.requested.load(Ordering::SeqCst);
        let job = target.clone();
        match tokio::task::spawn_blocking(move || job.write()).await {
            Ok(Ok(_)) => written = generation,
            Ok(Err(e)) => {
                crate::warn(format_args!("{e:#}; retrying in a second"));
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => {
                crate::warn(format_args!(
                    "the pack writer failed: {e}; retrying in a second"
                ));
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
        if repacker.closing.load(Ordering::SeqCst) && written != generation {
            // Shutting down and the store cannot be packed: give up rather than hang the exit.
            return;
        }
    }
}
