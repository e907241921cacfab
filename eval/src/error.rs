//! Why an evaluation could not run: a corpus that is missing, unreadable or not in its expected
//! layout, or a text the engine refuses where the measure needs it. Each variant names the file
//! or folder; the operating system's or the engine's reason is its source, so a caller that
//! prints the cause chain (the CLI) shows both.

use std::path::PathBuf;

/// Why a corpus could not be read or an evaluation run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A file or folder could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A folder could not be created.
    #[error("cannot create {}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A PAN corpus folder without its `src/` or `susp/` folder.
    #[error("{}: not a PAN text-alignment corpus (no {side}/ folder)", root.display())]
    NotPan {
        /// The corpus folder.
        root: PathBuf,
        /// The folder it lacks: `src` or `susp`.
        side: &'static str,
    },
    /// A PAN folder asked for by name that is not there (or has no `pairs` file).
    #[error("{}: no folder {name:?} with a pairs file", root.display())]
    NoSuchFolder {
        /// The corpus folder.
        root: PathBuf,
        /// The folder asked for.
        name: String,
    },
    /// A PAN corpus without any folder of pairs.
    #[error("{}: no folder with a pairs file", root.display())]
    NoPairs {
        /// The corpus folder.
        root: PathBuf,
    },
    /// A PAN ground-truth file that does not parse.
    #[error("{}: bad ground truth", path.display())]
    GroundTruth {
        /// The XML file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: XmlError,
    },
    /// A table without a column it needs (ParaPhraser's TSV).
    #[error("no {name:?} column in the header {header:?}")]
    MissingColumn {
        /// The column.
        name: &'static str,
        /// The header's fields.
        header: Vec<String>,
    },
    /// A file that is not ParaPhraser's TSV.
    #[error("{}: not ParaPhraser's TSV", path.display())]
    NotParaPhraser {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: Box<EvalError>,
    },
    /// A RuSimpleSentEval folder without a usable CSV file.
    #[error("{}: no .csv file with INPUT:source and OUTPUT:output columns", dir.display())]
    NoRewrites {
        /// The folder.
        dir: PathBuf,
    },
    /// A factRuEval-2016 folder without its texts.
    #[error(
        "{}: no devset/book_*.txt or testset/book_*.txt (factRuEval-2016's layout)",
        dir.display()
    )]
    NoFactRuEval {
        /// The folder.
        dir: PathBuf,
    },
    /// A 20 Newsgroups folder with fewer than two posts.
    #[error("{}: no 20 Newsgroups posts", dir.display())]
    NoPosts {
        /// The folder.
        dir: PathBuf,
    },
    /// A folder of drafts without any (`eval parity --demo`: `tests/data/parity/*.txt`).
    #[error("{}: no drafts (.txt files)", dir.display())]
    NoDrafts {
        /// The folder.
        dir: PathBuf,
    },
    /// A case of a tuning set (`eval/data/today/`) that cannot be used.
    #[error("{}: {why}", path.display())]
    TuningSet {
        /// Its `source.tsv`.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The store or the packs of a parity run could not be written or read.
    #[error(transparent)]
    Backend(Box<dyn std::error::Error + Send + Sync>),
    /// A text could not be indexed.
    #[error("cannot index {name}")]
    Index {
        /// The text's name.
        name: String,
        /// The engine's reason.
        #[source]
        source: uniqcheck::Error,
    },
    /// A draft could not be checked.
    #[error("{draft}")]
    Check {
        /// The draft's name.
        draft: String,
        /// The engine's reason.
        #[source]
        source: uniqcheck::Error,
    },
    /// The engine refused the parameters.
    #[error(transparent)]
    Engine(#[from] uniqcheck::Error),
}

/// Why a PAN XML document does not parse.
#[derive(Debug, thiserror::Error)]
pub enum XmlError {
    /// No `<document>` element.
    #[error("no <document>")]
    NoDocument,
    /// A `<document>` without its `reference` attribute.
    #[error("<document> has no reference")]
    NoReference,
    /// An offset or length that is not a number.
    #[error("{key}={value:?} is not a number")]
    NotANumber {
        /// The attribute.
        key: String,
        /// Its value.
        value: String,
        /// Why it does not parse.
        #[source]
        source: std::num::ParseIntError,
    },
}

/// A result of the evaluation crate.
pub(crate) type Result<T, E = EvalError> = std::result::Result<T, E>;

/// Reading `path` failed: [`EvalError::Read`] (for `map_err`).
pub(crate) fn read_error(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> EvalError {
    let path = path.to_owned();
    move |source| EvalError::Read { path, source }
}
