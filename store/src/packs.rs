//! Packs on disk (format version 6): the store's documents as immutable files a browser
//! fetches on demand, and a small `manifest.json`, what the HTTP server or any static host serves.
//!
//! ```text
//! DIR/manifest.json                   the only file that changes (uniqcheck::pack::Manifest)
//! DIR/<16 hex>.uqt                    the page table: generation id, page count of each list
//! DIR/<16 hex>.uqa                    the list of live record numbers ("download everything")
//! DIR/<16 hex>.uqbl                   the bilingual table, when written with one (translations)
//! DIR/i/<generation>/<list>-<hex>.uqi index pages: sorted keys -> record numbers, by number
//! DIR/r/<hex>/<hex>.uqr               one record per document version (uniqcheck::pack::Record)
//! ```
//! The layout and why it was chosen are in docs/FORMAT.md; the engine encodes and decodes every
//! file (`uniqcheck::pack`), this module only decides what goes where and writes it.
//! [`write_packs`] writes a store's documents; [`write_records`], which it calls, takes records
//! from any source (the scale benchmark feeds it a generated corpus without a store).
//!
//! Guarantees:
//! - **Names never change meaning.** Tables, record lists and bilingual tables are named by the
//!   first 8 bytes of their SHA-256 ([`uniqcheck::pack::content_id`], which checkers verify);
//!   index pages by their generation id (a content id of all the generation's pages, which every
//!   page carries and checkers compare) and their place; a record file by its record number, which the store
//!   never reuses for other content. Any host may serve them with `Cache-Control: immutable`.
//! - **Incremental records.** Record files already on disk are not written again; a generation
//!   whose pages changed at all writes all its pages into its own folder `i/<generation>/` (a
//!   generation with the same pages has the same id and folder, and writes nothing).
//!   When the previous generation is of another format version, canonicalizer or parameters
//!   (packs of version 2, say), every record is written again, since a record file's name does
//!   not tell its format, and the previous generation's files are deleted at once: no reader of
//!   this build can use them.
//! - **Atomic generations.** Every file is written to a temporary name, synced and renamed, the
//!   manifest last: a reader sees the old manifest or the new one, and every file either names is
//!   complete. Files named by neither the new nor the previous generation (page folders of
//!   older generations included) are deleted afterwards, so a reader still working from the
//!   previous manifest keeps working.
//! - One writer at a time per directory (the server serialises repacks; two concurrent
//!   `uniqcheck pack` runs into one directory are not supported).

use crate::backend::Backend;
use crate::{unix_now, StoreError, StoreOf};
use std::collections::HashSet;
use std::fs::{self, File};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use uniqcheck::bilingual::Bilingual;
use uniqcheck::canonicalize::CANONICALIZER_VERSION;
pub use uniqcheck::pack::Manifest;
use uniqcheck::pack::{
    bilingual_file, content_id, Builder, FileRef, Record, RecordList, Table, FORMAT_VERSION,
    MANIFEST_FILE, PAGE_BYTES,
};
use uniqcheck::Params;

/// The manifest's file name.
pub const MANIFEST: &str = MANIFEST_FILE;

/// The size index pages are aimed at, in bytes ([`PAGE_BYTES`]).
pub const DEFAULT_PAGE_BYTES: usize = PAGE_BYTES;

/// How a generation of packs is written, besides the documents it holds.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// The size index pages are aimed at, in bytes ([`DEFAULT_PAGE_BYTES`]); not zero.
    pub page_bytes: usize,
    /// An English–Russian table to publish with the packs (`<16 hex>.uqbl`, named in the
    /// manifest): checks through them then fetch it once and find translations. None: checks
    /// through the packs find none unless the caller hands a table over.
    pub bilingual: Option<Arc<Bilingual>>,
}

impl PackOptions {
    /// Pages aimed at `page_bytes`, no bilingual table.
    pub fn pages(page_bytes: usize) -> PackOptions {
        PackOptions {
            page_bytes,
            bilingual: None,
        }
    }
}

impl Default for PackOptions {
    fn default() -> PackOptions {
        PackOptions::pages(DEFAULT_PAGE_BYTES)
    }
}

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
    /// A page size of zero bytes.
    #[error("the page size must be at least 1 byte")]
    PageSize,
    /// A bilingual table that the packs' checkers would refuse (made for other parameters).
    #[error("the bilingual table cannot serve these packs")]
    Bilingual(#[source] uniqcheck::bilingual::BilingualError),
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

/// Writes `bytes` to `dir/name` (a path under `dir`) atomically: a temporary file next to it,
/// fsync, rename.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let target = dir.join(name);
    let parent = target.parent().unwrap_or(dir);
    fs::create_dir_all(parent).map_err(io("create", parent))?;
    let file_name = target.file_name().and_then(|n| n.to_str()).unwrap_or(name);
    let tmp = parent.join(format!(".{file_name}.tmp-{}", std::process::id()));
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

/// Writes a content-named file unless it is already there (its name means these bytes).
fn write_named(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    if dir.join(name).exists() {
        return Ok(());
    }
    write_atomic(dir, name, bytes)
}

/// What a previous generation holds, so that its files outlive this run.
#[derive(Default)]
struct Generation {
    /// Its table, record list and bilingual table.
    files: HashSet<String>,
    /// Its page folder's name (`i/<this>/`), the generation id in 16 hex digits.
    pages: Option<String>,
    revs: HashSet<u64>,
    /// Whether it was written in this format, canonicalizer and parameters: only then are the
    /// record files on disk this run's (a record's name is its number, not its content).
    same_format: bool,
}

/// The files of the generation `manifest.json` in `dir` describes; empty when there is none, it
/// cannot be read (then older files are simply not protected), or it is of another format,
/// canonicalizer or parameters (then none of its files can serve a reader of this build).
fn previous_generation(dir: &Path, params: &Params) -> Generation {
    let mut generation = Generation::default();
    let Ok(manifest) = Manifest::load(dir) else {
        return generation;
    };
    if manifest.format_version != FORMAT_VERSION
        || manifest.canonicalizer != CANONICALIZER_VERSION
        || manifest.params != *params
    {
        return generation;
    }
    generation.same_format = true;
    generation.files.insert(manifest.table.name.clone());
    generation.files.insert(manifest.records.name.clone());
    generation
        .files
        .extend(manifest.bilingual.iter().map(|f| f.name.clone()));
    // Its page folder (a table that cannot be read leaves its pages unprotected, as it leaves
    // every file of the generation).
    if let Some(Ok(table)) = fs::read(dir.join(&manifest.table.name))
        .ok()
        .map(|b| Table::decode(&b, params))
    {
        generation.pages = Some(format!("{:016x}", table.generation));
    }
    if let Some(Ok(list)) = fs::read(dir.join(&manifest.records.name))
        .ok()
        .map(|b| RecordList::decode(&b, params))
    {
        generation.revs.extend(list.revs);
    }
    generation
}

/// Writes the store's documents as packs into `dir` (created if missing): a record per
/// document, index pages of at most `options.page_bytes`, the page table, the record list, the
/// bilingual table if `options` gives one, and a new `manifest.json`; then deletes the files that neither this nor the previous generation names.
/// [`write_records`] with the store as the source of records.
///
/// Cost: one pass over the store's records; memory for every posting (about 16 bytes for each
/// of a document's anchors and longest words).
pub fn write_packs<B: Backend>(
    store: &StoreOf<B>,
    dir: &Path,
    options: &PackOptions,
) -> Result<Manifest> {
    // Read before the documents: if a write lands in between, the manifest looks older than it
    // is and the packs are regenerated once more, never the reverse.
    let changes = store.changes()?;
    write_records(dir, store.params(), changes, options, |add| {
        store.for_each_record(|rev, record| add(rev, &record))
    })
}

/// Writes one generation of packs into `dir` (created if missing) from records that
/// may come from anywhere (the store, a benchmark's generated corpus): `records` is called once
/// and calls `add(rev, &record)` for every document of the generation, records analysed with
/// `params`; an error from either side stops the run and is returned. The manifest records
/// `changes` (the store's counter, read before the records). Every guarantee of the module
/// holds: atomic files and manifest, fsyncs, older generations deleted once unreferenced.
///
/// `rev` is the record number: the caller must never give the same number to other content,
/// since a record file already in `dir` is kept as it is (a number's bytes never change) when
/// the previous generation is of this format. Feeding records in ascending `rev` fills each
/// `r/<hex>/` folder in turn.
///
/// Cost: every record is encoded and written as it is added (one file each, synced); memory for
/// every posting (about 16 bytes for each of a document's anchors and longest words) and for the
/// index pages, which are cut once all records are in.
pub fn write_records<F>(
    dir: &Path,
    params: &Params,
    changes: i64,
    options: &PackOptions,
    records: F,
) -> Result<Manifest>
where
    F: FnOnce(&mut dyn FnMut(u64, &Record) -> Result<()>) -> Result<()>,
{
    let page_bytes = options.page_bytes;
    if page_bytes == 0 {
        return Err(PacksError::PageSize);
    }
    // Refused before anything is written: every checker of these packs would refuse it.
    if let Some(table) = &options.bilingual {
        table
            .check(params.stemming)
            .map_err(PacksError::Bilingual)?;
    }
    fs::create_dir_all(dir).map_err(io("create", dir))?;
    let params = *params;
    let previous = previous_generation(dir, &params);

    let mut builder = Builder::new(params);
    records(&mut |rev, record| {
        let (name, bytes) = builder.add(rev, record);
        if previous.same_format {
            // A record number is never reused for other bytes: one already written is this one.
            write_named(dir, &name, &bytes)
        } else {
            // It may be a record of another format under the same number.
            write_atomic(dir, &name, &bytes)
        }
    })?;
    let built = builder.finish(page_bytes);
    // Pages first (their folder is the generation's: a page already there is this page, since
    // the generation id is a hash of every page), then the table and the list, the manifest last.
    for (name, bytes) in &built.files {
        write_named(dir, name, bytes)?;
    }
    let keep_revs: HashSet<u64> = built.revs.iter().copied().collect();
    // Named by its content, so an unchanged table is written once for every generation; a
    // checker verifies it against the name, as it does the page table.
    let bilingual = match &options.bilingual {
        Some(table) => {
            let bytes = table.encode();
            let name = bilingual_file(content_id(&bytes));
            write_named(dir, &name, &bytes)?;
            Some(FileRef {
                name,
                bytes: bytes.len() as u64,
            })
        }
        None => None,
    };

    let generated = unix_now();
    let mut manifest = Manifest::new(&built, changes, generated);
    manifest.bilingual = bilingual;
    let mut json = serde_json::to_vec_pretty(&manifest).map_err(PacksError::Encode)?;
    json.push(b'\n');
    let pages = format!("{:016x}", built.generation);
    sync_dir(&dir.join("i").join(&pages));
    for sub in ["i", "r"] {
        sync_dir(&dir.join(sub));
    }
    write_atomic(dir, MANIFEST, &json)?;
    sync_dir(dir);

    let mut keep: HashSet<String> = previous.files;
    keep.extend(manifest.bilingual.iter().map(|f| f.name.clone()));
    keep.extend(
        built
            .files
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| !name.starts_with("i/")),
    );
    let keep_pages: HashSet<String> = previous.pages.into_iter().chain([pages]).collect();
    collect_garbage(dir, &keep, &keep_pages, |rev| {
        keep_revs.contains(&rev) || previous.revs.contains(&rev)
    });
    Ok(manifest)
}

/// Deletes, best effort, the files of older generations: tables and record lists not in `keep`,
/// page folders `i/<generation>/` not in `keep_pages` (and every other entry of `i/`: format 5's
/// content-named pages), format 5's table parts (`t/`), records whose number `live` refuses,
/// version-1 shards, and temporary files left by a run that crashed. A file that cannot be
/// deleted now is deleted by a later run.
fn collect_garbage(
    dir: &Path,
    keep: &HashSet<String>,
    keep_pages: &HashSet<String>,
    live: impl Fn(u64) -> bool,
) {
    let entries = |d: &Path| fs::read_dir(d).into_iter().flatten().flatten();
    let stale_tmp = |name: &str| name.starts_with('.') && name.contains(".tmp-");
    for entry in entries(dir) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = [".uqt", ".uqa", ".uqp", ".uqbl"]
            .iter()
            .any(|e| name.ends_with(e))
            && !keep.contains(&name);
        if old || stale_tmp(&name) {
            let _ = fs::remove_file(entry.path());
        }
    }
    for entry in entries(&dir.join("i")) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && keep_pages.contains(&name) {
            // A live generation: only a crashed run's temporary files go.
            for page in entries(&entry.path()) {
                if stale_tmp(&page.file_name().to_string_lossy()) {
                    let _ = fs::remove_file(page.path());
                }
            }
        } else if is_dir {
            let _ = fs::remove_dir_all(entry.path());
        } else if name.ends_with(".uqi") || stale_tmp(&name) {
            let _ = fs::remove_file(entry.path());
        }
    }
    // Format 5's table parts: no reader of this format reads them.
    let _ = fs::remove_dir_all(dir.join("t"));
    for folder in entries(&dir.join("r")) {
        for entry in entries(&folder.path()) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rev = name
                .strip_suffix(".uqr")
                .and_then(|hex| u64::from_str_radix(hex, 16).ok());
            if rev.is_some_and(|rev| !live(rev)) || stale_tmp(&name) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}
