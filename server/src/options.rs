//! Command-line flags shared by several subcommands, as clap `Args` structs to flatten.
//!
//! [`ParamsArgs`] map onto the engine's [`Params`] and [`EngineArgs`] add its [`CheckOptions`];
//! [`TextArgs`] say how to read input files; [`OutputArgs`] how to print; [`DbArgs`] name the
//! store; [`MethodArgs`] choose a near-duplicate method. Ranges are NOT repeated here as clap value
//! parsers: the engine owns them, and its error (naming the parameter and the allowed range) is
//! turned into a usage error, so the CLI can never disagree with the library about what is valid.

use crate::decode::encoding_for_label;
use clap::{Args, ValueEnum};
use encoding_rs::Encoding;
use std::fmt;
use std::path::PathBuf;
use uniqcheck::methods::{AnyMethod, Kind as MethodKind};
use uniqcheck::{CheckOptions, Exclusions, ParamValue, Params, Unit};
use uniqcheck_store::StoreError;

/// A mistake in how the command was called (exit code 2, like clap's own errors).
#[derive(Debug)]
pub struct UsageError {
    message: String,
    source: Option<uniqcheck::Error>,
}

impl UsageError {
    /// A usage error with a message only.
    pub fn new(message: impl Into<String>) -> Self {
        UsageError {
            message: message.into(),
            source: None,
        }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// Engine parameters: what a sketch is made of (recorded in stores and packs).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Engine options")]
pub struct ParamsArgs {
    /// Words per shingle (2..=10)
    #[arg(short = 'n', long = "shingle", value_name = "N", default_value_t = Params::default().n)]
    pub shingle: usize,

    /// Winnowing window, in shingles (1..=64)
    #[arg(short = 'w', long, value_name = "W", default_value_t = Params::default().w)]
    pub window: usize,

    /// MinHash sketch length (16..=1024)
    #[arg(short = 'k', long, value_name = "K", default_value_t = Params::default().k)]
    pub sketch: usize,

    /// Keep Russian and English stop words instead of dropping them
    #[arg(long)]
    pub keep_stop_words: bool,

    /// Compare words as written instead of by their stems
    #[arg(long)]
    pub no_stemming: bool,
}

impl ParamsArgs {
    /// The engine parameters, validated by the engine.
    ///
    /// Errors: a [`UsageError`] naming the flag, caused by the engine's range error.
    pub fn params(&self) -> Result<Params, UsageError> {
        let params = Params {
            n: self.shingle,
            w: self.window,
            k: self.sketch,
            stop_words: !self.keep_stop_words,
            stemming: !self.no_stemming,
        };
        params.validate().map_err(|e| {
            let flag = match &e {
                uniqcheck::Error::InvalidParameter { name: "n", .. } => "-n/--shingle",
                uniqcheck::Error::InvalidParameter { name: "w", .. } => "-w/--window",
                uniqcheck::Error::InvalidParameter { name: "k", .. } => "-k/--sketch",
                _ => "an engine option",
            };
            UsageError {
                message: format!("invalid value for {flag}"),
                source: Some(e),
            }
        })?;
        Ok(params)
    }

    /// The parameters, or `None` when every flag was left at its default: commands working on an
    /// existing store then take the store's parameters instead of refusing them.
    pub fn explicit(&self) -> Result<Option<Params>, UsageError> {
        let params = self.params()?;
        Ok((params != Params::default()).then_some(params))
    }
}

/// Engine parameters and check options.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Engine options")]
pub struct EngineArgs {
    #[command(flatten)]
    pub sketch: ParamsArgs,

    /// Largest run of unmatched words that still joins two matches into one highlighted fragment
    #[arg(long, value_name = "G", default_value_t = CheckOptions::default().gap)]
    pub gap: usize,

    /// Largest run of unmatched words that still joins matches into one detection (a reused
    /// passage, however reworded), which must gather --min-fragment-words matched words to count
    #[arg(long, value_name = "G", default_value_t = CheckOptions::default().merge_gap)]
    pub merge_gap: usize,

    /// Drop detections whose exact-copy fragments cover fewer than this many content words
    #[arg(long, value_name = "M", default_value_t = CheckOptions::default().min_fragment_words)]
    pub min_fragment_words: usize,

    /// Against full sources (compare, eval), also count a detection with an exact copy whose
    /// matched words, pairs of words included, cover this many content words (0: off)
    #[arg(long, value_name = "M", default_value_t = CheckOptions::default().extend_min_words)]
    pub extend_min_words: usize,

    /// Refuse texts larger than this many bytes (UTF-8)
    #[arg(long, value_name = "BYTES", default_value_t = CheckOptions::default().max_text_bytes)]
    pub max_size: usize,

    /// Align at most this many candidate sources (the report says when more matched) [default:
    /// 500; 50 with --packs, the bound a browser checks packs with: one record file each]
    #[arg(long, value_name = "N")]
    pub max_candidates: Option<usize>,
}

impl EngineArgs {
    /// The engine parameters, validated by the engine.
    ///
    /// Errors: a [`UsageError`] naming the flag, caused by the engine's range error.
    pub fn params(&self) -> Result<Params, UsageError> {
        self.sketch.params()
    }

    /// The check options.
    pub fn check_options(&self) -> CheckOptions {
        CheckOptions {
            gap: self.gap,
            merge_gap: self.merge_gap,
            min_fragment_words: self.min_fragment_words,
            extend_min_words: self.extend_min_words,
            max_text_bytes: self.max_size,
            max_candidates: self
                .max_candidates
                .unwrap_or(CheckOptions::default().max_candidates),
            ..CheckOptions::default()
        }
    }
}

/// What a check leaves out ([`uniqcheck::exclude`]).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Exclusions")]
pub struct ExcludeArgs {
    /// Leave out sources on this domain or its subdomains (repeatable): your own site, the
    /// client's. A URL gives its domain; `www.` is ignored
    #[arg(long = "exclude-domain", value_name = "DOMAIN")]
    pub domains: Vec<String>,

    /// Leave out the source published at this URL (repeatable). Compared without the scheme,
    /// `www.`, the host's case, the port, a #fragment and trailing slashes
    #[arg(long = "exclude-url", value_name = "URL")]
    pub urls: Vec<String>,

    /// Count the draft's words inside quotation marks («…», „…“, “…”, "…") as not copied
    #[arg(long = "exclude-quotes")]
    pub quotes: bool,
}

impl ExcludeArgs {
    /// The engine's exclusions.
    pub fn exclusions(&self) -> Exclusions {
        Exclusions {
            urls: self.urls.clone(),
            domains: self.domains.clone(),
            quotes: self.quotes,
            ..Default::default()
        }
    }
}

/// The store a command works on.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// The store: an SQLite file made by `uniqcheck index`
    #[arg(long, value_name = "FILE", default_value = uniqcheck_store::DEFAULT_DB)]
    pub db: PathBuf,
}

/// A store's refusal with the command-line fix added: the flags that select the store's
/// parameters, where a new store goes, how a store is made. Other store errors pass unchanged.
pub fn store_error(e: StoreError) -> anyhow::Error {
    let fix = match &e {
        StoreError::ParamsMismatch { differences, .. } => {
            let flags: Vec<String> = differences
                .iter()
                .map(|d| match (d.name, d.found) {
                    ("stop_words", ParamValue::Flag(false)) => "--keep-stop-words".into(),
                    ("stemming", ParamValue::Flag(false)) => "--no-stemming".into(),
                    ("stop_words", ParamValue::Flag(true)) => "without --keep-stop-words".into(),
                    (_, ParamValue::Flag(_)) => "without --no-stemming".into(),
                    (name, ParamValue::Number(v)) => format!("-{name} {v}"),
                })
                .collect();
            format!(
                "use the store's parameters ({}), or index the texts into a new file (--db NEW.db)",
                flags.join(" ")
            )
        }
        StoreError::Version { .. } | StoreError::OlderSchema { .. } => {
            "re-index the texts into a new file (--db NEW.db)".into()
        }
        StoreError::NotAStore { .. } => "pass the file made by `uniqcheck index`".into(),
        StoreError::Missing { path } => {
            format!("create it with `uniqcheck index PATH... --db {path}`")
        }
        _ => return e.into(),
    };
    anyhow::anyhow!("{e}; {fix}")
}

/// How the text of an input is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// HTML for .html/.htm files and for content that looks like HTML; plain text otherwise
    Auto,
    /// Plain text (Markdown included)
    Plain,
    /// HTML: tags, scripts and styles are skipped, entities decoded
    Html,
}

/// How input files are read.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Input options")]
pub struct TextArgs {
    /// Input format
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Auto)]
    pub format: FormatArg,

    /// Read every input in this encoding (a WHATWG label: utf-8, utf-16le, windows-1251,
    /// cp1252, koi8-r…) instead of detecting it
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<String>,
}

impl TextArgs {
    /// The forced encoding, if any.
    ///
    /// Errors: a [`UsageError`] for an unknown label.
    pub fn encoding(&self) -> Result<Option<&'static Encoding>, UsageError> {
        match &self.encoding {
            None => Ok(None),
            Some(label) => encoding_for_label(label).map(Some).ok_or_else(|| {
                UsageError::new(format!(
                    "unknown encoding {label:?} for --encoding (try utf-8, utf-16le, utf-16be, \
                     windows-1251, windows-1252, koi8-r)"
                ))
            }),
        }
    }
}

/// A unit for offsets in JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UnitArg {
    /// Unicode scalar values (Python string indices)
    Chars,
    /// UTF-16 code units (JavaScript string indices)
    Utf16,
    /// UTF-8 bytes (Rust string indices)
    Bytes,
}

impl From<UnitArg> for Unit {
    fn from(u: UnitArg) -> Unit {
        match u {
            UnitArg::Chars => Unit::Chars,
            UnitArg::Utf16 => Unit::Utf16,
            UnitArg::Bytes => Unit::Bytes,
        }
    }
}

/// `--json` alone: for commands whose output has no offsets in a text (`index`, `pack`,
/// `stats`), where `--units` would mean nothing.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output options")]
pub struct JsonArgs {
    /// Print the result as pretty JSON instead of a human-readable summary
    #[arg(long)]
    pub json: bool,
}

/// How results with spans in a text are printed (`check`, `compare`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Output options")]
pub struct OutputArgs {
    /// Print the result as pretty JSON instead of a human-readable summary
    #[arg(long)]
    pub json: bool,

    /// Unit of the offsets in JSON output, counted in each file's decoded text
    #[arg(long, value_enum, value_name = "UNIT", default_value_t = UnitArg::Chars)]
    pub units: UnitArg,
}

/// A near-duplicate method by name ([`uniqcheck::methods::Kind`]), for clap.
pub fn parse_method(name: &str) -> Result<MethodKind, String> {
    MethodKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = MethodKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown method {name:?}; one of: {}", names.join(", "))
    })
}

/// `--method` and `--threshold`: which near-duplicate method judges a pair, and where.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Method options")]
pub struct MethodArgs {
    /// Also judge by a near-duplicate method from the literature: shingles (the engine's shingle
    /// sets), char-cosine, broder, broder-minhash, descriptive, simhash, short, aligned (see
    /// docs/EVALUATION.md, "The methods side by side"). compare: the pair's similarity and
    /// decision after the report (JSON: "verdict"). check --against: after the engine's report
    /// (unchanged), EVERY source file ranked by the method's similarity to the whole draft (JSON:
    /// "ranking"); refused with --db and --packs, which keep no text
    #[arg(long, value_name = "METHOD", value_parser = parse_method)]
    pub method: Option<MethodKind>,
    /// The method's duplicate threshold, 0..=1 (default: its source's)
    #[arg(long, value_name = "T", requires = "method")]
    pub threshold: Option<f64>,
}

impl MethodArgs {
    /// The chosen method at its threshold, if any.
    ///
    /// Errors: a threshold outside 0..=1.
    pub fn method(&self, params: &Params) -> Result<Option<AnyMethod>, UsageError> {
        let Some(kind) = self.method else {
            return Ok(None);
        };
        let m = AnyMethod::new(kind, params);
        match self.threshold {
            Some(t) if !(0.0..=1.0).contains(&t) => Err(UsageError::new(format!(
                "--threshold must be between 0 and 1, not {t}"
            ))),
            Some(t) => Ok(Some(m.with_threshold(t))),
            None => Ok(Some(m)),
        }
    }
}
