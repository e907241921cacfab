//! Measuring detection quality on real corpora, apart from the CLI plumbing (`uniqcheck eval`).
//!
//! - [`measures`]: PAN's character-level precision, recall, granularity and plagdet;
//! - [`methods`]: the near-duplicate methods of the literature side by side on labelled pairs;
//! - [`pan`]: a PAN text-alignment corpus (layout, ground-truth XML) and the engine run over it;
//! - [`auc`]: ROC AUC by the rank-sum formula;
//! - [`ru`]: the Russian paraphrase and simplification corpora;
//! - [`rewrites`]: Russian rewrites made from factRuEval texts, and what the engine finds;
//! - [`retrieval`]: whether a check through an index finds those rewrites' sources, and what it
//!   marks of drafts that have none;
//! - [`parity`]: whether `check --against`, `check --db` and `check --packs` give each draft
//!   the same sources and figures on the same published texts;
//! - [`synonymized`]: a PAN corpus checked through a synonym table;
//! - [`thesaurus`]: synonym classes from thesauri, for [`uniqcheck::synonyms`] tables.
//!
//! Errors are [`EvalError`]s, each naming the file or folder at fault; the CLI adds nothing but
//! prints their cause chain.

pub mod auc;
mod error;
pub mod measures;
pub mod methods;
pub mod pan;
pub mod parity;
pub mod retrieval;
pub mod rewrites;
pub mod ru;
pub mod synonymized;
pub mod thesaurus;
pub mod today;

pub(crate) use error::{read_error, Result};
pub use error::{EvalError, XmlError};

use std::path::{Path, PathBuf};

/// The paths in `dir` that `keep` accepts, sorted (so a corpus is read in the same order on
/// every file system). Entries that cannot be read are skipped.
///
/// Errors: a folder that cannot be read, naming it.
pub(crate) fn sorted_paths(dir: &Path, keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_error(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| keep(p))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Reads a corpus file as UTF-8, invalid sequences replaced (which would shift character
/// offsets: the corpora measured here have none where offsets count).
///
/// Errors: a file that cannot be read, naming it.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(read_error(path))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}
