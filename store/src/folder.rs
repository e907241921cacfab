//! Reading a pack folder as a browser reads it: [`PackFolder`] opens `manifest.json` and the
//! page table it names, and [`PackFolder::check`] fetches, for one draft, only the files the
//! engine asks for ([`PackIndex::needed`]) in rounds (index pages, then records) until it asks
//! for none, then checks the draft against what it fetched.
//!
//! Guarantees: every check starts from a fresh [`PackIndex`] (the table alone), so what one draft
//! fetched never changes another's answer, and nothing is read that the draft's own rounds did
//! not name; the rounds are the ones the WebAssembly `Checker` runs, so `uniqcheck check --packs`
//! and `uniqcheck eval parity` answer as the browser does with the same `max_candidates`.
//! Every file is checked by the engine as it is added (names, hashes, canonicalization).

use std::fs;
use std::path::{Path, PathBuf};
use uniqcheck::pack::{Manifest, PackError};
use uniqcheck::{CheckOptions, Document, PackIndex, Report};

use crate::packs::{LoadManifest, PacksError};

/// Why a pack folder could not be read or used.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The manifest could not be read or parsed.
    #[error(transparent)]
    Manifest(#[from] PacksError),
    /// A file the check needs could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The manifest or its page table is not usable by this engine.
    #[error("cannot use the packs in {dir}")]
    Open {
        /// The folder.
        dir: String,
        /// The engine's reason.
        #[source]
        source: PackError,
    },
    /// A fetched file was refused by the engine.
    #[error("{name} in {dir}")]
    File {
        /// The file's name in the folder.
        name: String,
        /// The folder.
        dir: String,
        /// The engine's reason.
        #[source]
        source: PackError,
    },
    /// The engine refused the draft or the options while checking.
    #[error(transparent)]
    Check(PackError),
}

/// What one check read of a pack folder, besides the manifest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Fetched {
    /// Files read (the table, pages, records).
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Bytes of every file of the generation: what downloading everything would read.
    pub total_bytes: u64,
    /// Of [`Fetched::bytes`], the page table's (format 6: the table file alone, a few bytes;
    /// format 5 added the table parts read).
    pub table_bytes: u64,
    /// Rounds of fetching: pages, then records.
    pub rounds: usize,
}

/// One generation of packs in a folder: its manifest and page table, read once.
#[derive(Debug, Clone)]
pub struct PackFolder {
    dir: PathBuf,
    manifest: Manifest,
    table: Vec<u8>,
}

impl PackFolder {
    /// Reads `dir/manifest.json` and the page table it names, and checks that this engine can
    /// use them (format version, canonicalizer, parameters, the table's hash).
    ///
    /// Errors: an unreadable or invalid manifest or table.
    pub fn open(dir: &Path) -> Result<PackFolder, FolderError> {
        let manifest = Manifest::load(dir)?;
        let folder = PackFolder {
            dir: dir.to_owned(),
            table: read(dir, &manifest.table.name)?,
            manifest,
        };
        // Refused here rather than at the first check: a folder that cannot be used is an error
        // about the folder, whatever the draft.
        folder.index()?;
        Ok(folder)
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// A fresh index of the generation: the page table only, nothing fetched.
    ///
    /// Errors: [`FolderError::Open`].
    pub fn index(&self) -> Result<PackIndex, FolderError> {
        PackIndex::open(self.manifest.clone(), &self.table).map_err(|source| FolderError::Open {
            dir: self.dir.display().to_string(),
            source,
        })
    }

    /// Checks `draft` (analysed with the manifest's parameters) as the browser does: a fresh
    /// index, rounds of [`PackIndex::needed`] files read and [`PackIndex::add`]ed until none is
    /// needed, then [`uniqcheck::check::check_document`] against the index. `opts.max_candidates`
    /// is the bound on records fetched (the browser's is
    /// [`uniqcheck::index::packs::PACK_MAX_CANDIDATES`]; the caller chooses).
    ///
    /// Errors: a file missing or refused, or the engine's refusal of the draft or options.
    pub fn check(
        &self,
        draft: &Document,
        opts: &CheckOptions,
    ) -> Result<(Report, Fetched), FolderError> {
        let mut index = self.index()?;
        let mut fetched = Fetched {
            files: 1,
            bytes: self.table.len() as u64,
            total_bytes: self.manifest.total_bytes(),
            table_bytes: self.table.len() as u64,
            rounds: 0,
        };
        let refused = |name: &str, source| FolderError::File {
            name: name.to_owned(),
            dir: self.dir.display().to_string(),
            source,
        };
        loop {
            let needed = index.needed(draft, opts).map_err(FolderError::Check)?;
            if needed.is_empty() {
                break;
            }
            fetched.rounds += 1;
            for name in needed {
                let bytes = read(&self.dir, &name)?;
                fetched.files += 1;
                fetched.bytes += bytes.len() as u64;
                index.add(&name, &bytes).map_err(|e| refused(&name, e))?;
            }
        }
        let report =
            uniqcheck::check::check_document(&index, draft, opts).map_err(FolderError::Check)?;
        Ok((report, fetched))
    }
}

/// `dir/name`'s bytes.
fn read(dir: &Path, name: &str) -> Result<Vec<u8>, FolderError> {
    let path = dir.join(name);
    fs::read(&path).map_err(|source| FolderError::Read {
        path: path.display().to_string(),
        source,
    })
}
