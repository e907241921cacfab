//! Sketch packs on disk: the store's documents cut into content-addressed shard files plus a
//! small `manifest.json`, which is what the HTTP server serves and the browser downloads.
//!
//! ```text
//! DIR/manifest.json           {"format_version", "engine_version", "params", "canonicalizer",
//!                              "documents", "generated", "generated_iso", "changes", "shards": [...]}
//! DIR/<sha256 prefix>.uqp     one encoded Pack of consecutive documents by id
//! ```
//!
//! The manifest is the engine's [`Manifest`] (its type, JSON shape, shard names and the
//! compatibility check clients run on it live in `uniqcheck::pack`); this module writes it.
//!
//! Guarantees:
//! - **Content-addressed, cache-friendly shards.** A shard's name is the first 16 hex digits of
//!   the SHA-256 of its bytes, so a name always means the same bytes (cache forever). Documents
//!   are cut into shards in id order, a shard closing when the next document would take it over
//!   the size limit: adding documents changes only the last shard (and adds new ones), so every
//!   earlier shard a client has cached stays valid.
//! - **Atomic generations.** Shards are written to temporary names, synced and renamed; then the
//!   manifest is written to a temporary file, synced and renamed over `manifest.json`. A reader
//!   sees the old manifest or the new one, and every shard either names is complete. Shards
//!   named by neither the new nor the previous manifest are deleted afterwards, so a reader
//!   still fetching the previous generation keeps working.
//! - One writer at a time per directory (the server serialises repacks; two concurrent
//!   `uniqcheck pack` runs into one directory are not supported).

use crate::{unix_now, Store, StoreError};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::fs::{self, File};
use std::io::Write;
use std::path::Path;
use uniqcheck::canonicalize::CANONICALIZER_VERSION;
use uniqcheck::pack::{encode, Pack, FORMAT_VERSION, MANIFEST_FILE, SHARD_EXTENSION};
pub use uniqcheck::pack::{Manifest, Shard};

/// The manifest's file name.
pub const MANIFEST: &str = MANIFEST_FILE;

/// Default largest shard, in bytes.
pub const DEFAULT_SHARD_BYTES: usize = 512 * 1024;

/// Why packs could not be written or a manifest read.
#[derive(Debug, thiserror::Error)]
pub enum PacksError {
    /// A file or directory could not be read or written.
    #[error("cannot {what} {path}")]
    Io {
        /// What was being done: "create", "read", "write", "list".
        what: &'static str,
        /// The file or directory.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// `manifest.json` is not a pack manifest.
    #[error("{path} is not a valid pack manifest")]
    Manifest {
        /// The file.
        path: String,
        /// What is wrong with it.
        #[source]
        source: serde_json::Error,
    },
    /// The manifest could not be encoded as JSON.
    #[error("cannot encode the pack manifest")]
    Encode(#[source] serde_json::Error),
    /// A shard size limit of zero bytes.
    #[error("the shard size limit must be at least 1 byte")]
    ShardSize,
    /// The store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

type Result<T, E = PacksError> = std::result::Result<T, E>;

/// An I/O error with what was being done and where.
fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> PacksError {
    let path = path.display().to_string();
    move |source| PacksError::Io { what, path, source }
}

/// The engine's [`Manifest`] read from a pack directory (the engine itself does no I/O).
pub trait LoadManifest: Sized {
    /// Reads `dir/manifest.json`.
    fn load(dir: &Path) -> Result<Self>;
}

impl LoadManifest for Manifest {
    fn load(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST);
        let bytes = fs::read(&path).map_err(io("read", &path))?;
        serde_json::from_slice(&bytes).map_err(|source| PacksError::Manifest {
            path: path.display().to_string(),
            source,
        })
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` of unix seconds `t` (proleptic Gregorian, UTC).
pub fn iso8601(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Writes `bytes` to `dir/name` atomically: a temporary file, fsync, rename.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let target = dir.join(name);
    let result = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io("write", &target))
}

/// Makes the renames durable (directories cannot be synced on Windows; nothing to do there).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Encodes and writes one shard unless a file with its name (hence its bytes) already exists.
fn write_shard(dir: &Path, pack: &Pack) -> Result<Shard> {
    let bytes = encode(pack);
    let digest = Sha256::digest(&bytes);
    let sha256: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let name = Shard::name_for(&digest);
    // Unchanged shards of the previous generation are kept as they are, untouched.
    if fs::read(dir.join(&name)).ok().as_deref() != Some(bytes.as_slice()) {
        write_atomic(dir, &name, &bytes)?;
    }
    Ok(Shard {
        name,
        bytes: bytes.len() as u64,
        documents: pack.documents.len(),
        sha256,
    })
}

/// Writes the store's documents as shards of at most `max_shard_bytes` (a single larger
/// document gets a shard of its own) and a new `manifest.json` into `dir` (created if missing),
/// then deletes shards that neither this nor the previous manifest names.
pub fn write_packs(store: &Store, dir: &Path, max_shard_bytes: usize) -> Result<Manifest> {
    if max_shard_bytes == 0 {
        return Err(PacksError::ShardSize);
    }
    fs::create_dir_all(dir).map_err(io("create", dir))?;
    let previous = match dir.join(MANIFEST).exists() {
        true => Manifest::load(dir).ok(),
        false => None,
    };
    // Read before the documents: if a write lands in between, the manifest looks older than it
    // is and the packs are regenerated once more, never the reverse.
    let changes = store.changes()?;
    let params = *store.params();
    let empty = Pack::new(params);
    let overhead = encode(&empty).len();

    let mut shards = Vec::new();
    let mut documents = 0;
    let mut current = empty.clone();
    let mut current_bytes = overhead;
    store.for_each_packed(|_, doc| {
        let one = Pack {
            documents: vec![doc],
            ..empty.clone()
        };
        // A document's share of a pack: its records in each section. Exact, except that a pack
        // whose every MinHash value fits 16 bits stores them narrower: then it is an upper bound.
        let size = encode(&one).len() - overhead;
        if !current.documents.is_empty() && current_bytes + size > max_shard_bytes {
            shards.push(write_shard(dir, &current)?);
            current.documents.clear();
            current_bytes = overhead;
        }
        current.documents.extend(one.documents);
        current_bytes += size;
        documents += 1;
        Ok::<_, PacksError>(())
    })?;
    if !current.documents.is_empty() {
        shards.push(write_shard(dir, &current)?);
    }
    sync_dir(dir);

    let generated = unix_now();
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        engine_version: uniqcheck::VERSION.to_owned(),
        params,
        canonicalizer: CANONICALIZER_VERSION,
        documents,
        generated,
        generated_iso: iso8601(generated),
        changes,
        shards,
    };
    let mut json = serde_json::to_vec_pretty(&manifest).map_err(PacksError::Encode)?;
    json.push(b'\n');
    write_atomic(dir, MANIFEST, &json)?;
    sync_dir(dir);

    let keep: HashSet<&str> = manifest
        .shards
        .iter()
        .chain(previous.iter().flat_map(|m| &m.shards))
        .map(|s| s.name.as_str())
        .collect();
    for entry in fs::read_dir(dir).map_err(io("list", dir))?.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_shard = Path::new(name)
            .extension()
            .is_some_and(|e| e == SHARD_EXTENSION)
            && !name.starts_with('.');
        // Temporary files left by a run that crashed (ours are renamed by now).
        let stale_tmp = name.starts_with('.') && name.contains(".tmp-");
        if (is_shard && !keep.contains(name)) || stale_tmp {
            // Best effort: a shard that cannot be deleted now is deleted by a later run.
            let _ = fs::remove_file(entry.path());
        }
    }
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_of_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59Z");
    }
}
