//! Keeps the packs in step with the store: one background task rewrites them a short
//! while after the last write, whoever wrote.
//!
//! Guarantees:
//! - **Debounced.** A burst of writes (a CMS re-publishing a section, 50 concurrent adds) causes
//!   one rewrite, [`DEBOUNCE`] after the last write of the burst, not one per write.
//! - **Any writer.** The API's writes ask for a rewrite at once ([`Repacker::request`]); writes
//!   by another process (a CLI `uniqcheck index` into the served store) are noticed by reading
//!   the store's `changes` counter every [`POLL`]: once it has stopped moving for one poll (the
//!   writer is done), or [`POLL_MAX_LAG`] after it started moving (a writer that goes on for
//!   long), the packs are rewritten. So the served manifest reflects a CLI run a few seconds
//!   after it ends.
//! - **Never two at once.** A single task does every rewrite, so two writers never race on the
//!   packs folder; [`crate::packs::write_packs`] replaces the files atomically, so readers see
//!   either the old set or the new one. The manifest's `changes` says which store state it is.
//! - **Never for nothing.** A rewrite whose store state is already packed (same `changes`) is
//!   skipped, so asking twice for the same change costs one counter read.
//! - **Nothing lost.** A write that lands while packs are being written triggers another rewrite;
//!   on shutdown ([`Repacker::finish`]) a pending rewrite is done at once, not dropped.
//!
//! Writing packs reads the whole store under its lock, so API writes wait for it: packs are
//! derived data rebuilt from scratch, which keeps them trivially consistent with the store.

use crate::packs::{write_packs, Manifest, PackOptions};
use crate::store::Store;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// Quiet time after the last write before packs are rewritten.
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// How often the store's `changes` counter is read, to notice other processes' writes.
pub const POLL: Duration = Duration::from_secs(1);
/// How long another process may keep writing before its changes so far are packed anyway.
pub const POLL_MAX_LAG: Duration = Duration::from_secs(30);

/// Where and how packs are written.
pub struct PackTarget {
    /// The store to read.
    pub store: Arc<Mutex<Store>>,
    /// The packs folder.
    pub dir: PathBuf,
    /// Largest pack index page, and the bilingual table published with the packs.
    pub options: PackOptions,
    /// Log every rewrite on stderr.
    pub verbose: bool,
}

impl PackTarget {
    /// Writes the packs now, unless `packed` (the `changes` of the packs on disk) is already the
    /// store's state: `None` then. Blocking: call from `spawn_blocking` inside the runtime.
    pub fn write(&self, packed: Option<i64>) -> Result<Option<Manifest>> {
        let store = super::lock(&self.store);
        if packed.is_some() && packed == Some(changes(&store)?) {
            return Ok(None);
        }
        let started = Instant::now();
        let manifest = write_packs(&store, &self.dir, &self.options)
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
        Ok(Some(manifest))
    }

    /// The store's `changes` counter now. Blocking, like [`PackTarget::write`].
    fn changes(&self) -> Result<i64> {
        changes(&super::lock(&self.store))
    }
}

fn changes(store: &Store) -> Result<i64> {
    store
        .changes()
        .context("cannot read the store's change counter")
}

/// The handle API handlers use to ask for new packs.
pub struct Repacker {
    /// Bumped by every write that changed the store.
    requested: AtomicU64,
    /// The `changes` of the packs on disk.
    packed: AtomicI64,
    /// Set once, by [`Repacker::finish`].
    closing: AtomicBool,
    wake: Notify,
}

impl Repacker {
    /// Starts the background tasks (the writer and the poller of the change counter); `packed`
    /// is the `changes` of the packs already on disk.
    pub fn start(target: PackTarget, packed: i64) -> (Arc<Repacker>, JoinHandle<()>) {
        let repacker = Arc::new(Repacker {
            requested: AtomicU64::new(0),
            packed: AtomicI64::new(packed),
            closing: AtomicBool::new(false),
            wake: Notify::new(),
        });
        let target = Arc::new(target);
        let poller = tokio::spawn(poll(repacker.clone(), target.clone()));
        let writer = tokio::spawn(run(repacker.clone(), target));
        let task = tokio::spawn(async move {
            // The writer returns once shutdown began and nothing is pending; the poller never.
            let _ = writer.await;
            poller.abort();
        });
        (repacker, task)
    }

    /// Asks for packs to be rewritten soon. Cheap; never blocks.
    pub fn request(&self) {
        self.requested.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_one();
    }

    /// Writes any pending packs without waiting for the quiet time, then stops the tasks.
    pub async fn finish(&self, task: JoinHandle<()>) {
        self.closing.store(true, Ordering::SeqCst);
        self.wake.notify_one();
        if let Err(e) = task.await {
            crate::warn(format_args!("the pack writer stopped abnormally: {e}"));
        }
    }
}

/// Asks for a rewrite when the store's counter moved past the packs' without the API knowing:
/// another process wrote. Waits for the counter to settle (or [`POLL_MAX_LAG`]), as the
/// debounce does for the API's writes.
async fn poll(repacker: Arc<Repacker>, target: Arc<PackTarget>) {
    let mut last = None;
    let mut moving_since: Option<Instant> = None;
    loop {
        tokio::time::sleep(POLL).await;
        let job = target.clone();
        let now = match tokio::task::spawn_blocking(move || job.changes()).await {
            Ok(Ok(changes)) => changes,
            // The writer reports store failures when it meets them; here, try again later.
            _ => continue,
        };
        if now == repacker.packed.load(Ordering::SeqCst) {
            moving_since = None;
        } else {
            let started = *moving_since.get_or_insert_with(Instant::now);
            if last == Some(now) || started.elapsed() >= POLL_MAX_LAG {
                repacker.request();
                moving_since = None;
            }
        }
        last = Some(now);
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
        let packed = repacker.packed.load(Ordering::SeqCst);
        match tokio::task::spawn_blocking(move || job.write(Some(packed))).await {
            Ok(Ok(manifest)) => {
                if let Some(manifest) = manifest {
                    repacker.packed.store(manifest.changes, Ordering::SeqCst);
                }
                written = generation;
            }
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
