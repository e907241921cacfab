//! `uniqcheck check DRAFT --against PATH...`: a draft against every text file under the paths;
//! `uniqcheck check DRAFT --db FILE`: a draft against a store made by `uniqcheck index`.
//!
//! With `--against`, the files are decoded and indexed in memory ([`Corpus`]); the draft is
//! checked against that index. With `--db`, the store finds the candidates and the draft is
//! aligned against their sketches: sources are named by URL and title, and carry no source
//! spans (`"source": null` in JSON), since a store keeps no text; a copied run shorter than
//! `w + n - 1` words can be missed there, where the full text would still find it.
//!
//! With `--against`, A file that cannot be used (binary, empty, undecodable, too large, unreadable) is
//! skipped with a warning rather than failing the whole check, because real folders of texts
//! always hold some junk; only when nothing at all could be indexed is it an error. Source
//! texts are kept so that source spans can be given in characters of each source's text.
//!
//! `--method NAME` (with `--against` only) also ranks EVERY source file by that near-duplicate
//! method's similarity to the whole draft ([`uniqcheck::methods`]), not only the candidates the
//! index found: the engine's report is unchanged, and the ranking follows it (`ranking` in JSON,
//! best first, each with its similarity and the method's decision). A store or pack folder keeps
//! no text, so `--method` is refused with `--db` and `--packs`.

use crate::input::{self, is_stdin, Input};
use crate::options::{
    store_error, EngineArgs, ExcludeArgs, MethodArgs, OutputArgs, TextArgs, UsageError,
};
use crate::output::{self, CorpusSummary, Paint, Skipped};
use crate::store::folder::{Fetched, PackFolder};
use crate::store::{Store, StoreError};
use crate::walk;
use crate::warn;
use anyhow::{bail, Context, Result};
use clap::{ArgGroup, Args};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use uniqcheck::methods::{Text, Verdict};
use uniqcheck::{CheckOptions, Corpus, OffsetConverter, Report, SourceInfo, Unit};

/// Extensions of the files indexed when walking a directory (files without one are indexed too).
const TEXT_EXTENSIONS: &[&str] = &["txt", "text", "md", "html", "htm"];

/// Flags of `check`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("sources").required(true).args(["against", "db", "packs"])))]
pub struct CheckArgs {
    /// The draft to check (`-` for standard input)
    #[arg(value_name = "DRAFT")]
    pub draft: PathBuf,
    /// Files or folders of published texts, searched recursively for .txt, .md, .html, .htm
    /// and .text files (hidden ones, READMEs and extension-less ones skipped; a file named here
    /// is taken whatever its name)
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub against: Vec<PathBuf>,
    /// A store made by `uniqcheck index` to check against instead of files
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// A pack folder made by `uniqcheck pack` to check against, reading only the files the draft
    /// needs, as the browser does (the JSON says which and how many bytes)
    #[arg(long, value_name = "DIR")]
    pub packs: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub text: TextArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub exclude: ExcludeArgs,
    /// With --against only: also rank every source file by this method's similarity to the draft
    #[command(flatten)]
    pub method: MethodArgs,
    /// Also find the draft translated from sources in the other language (English and Russian)
    /// through this table (data/bilingual/en-ru.uqbl)
    #[arg(long, value_name = "FILE")]
    pub bilingual: Option<PathBuf>,
}

/// The JSON answer: the engine's report with offsets in `units`, plus what was indexed.
#[derive(Debug, Serialize)]
struct CheckJson<'a> {
    #[serde(flatten)]
    report: &'a Report,
    units: Unit,
    corpus: &'a CorpusSummary,
    /// With --packs: what the check read of the packs.
    #[serde(skip_serializing_if = "Option::is_none")]
    fetched: Option<Fetched>,
    /// With --method: every source by the method's similarity, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    ranking: Option<Vec<Ranked>>,
}

/// What some checks add to the JSON.
struct Extras {
    fetched: Option<Fetched>,
    ranking: Option<Vec<Ranked>>,
}

/// One source in the `--method` ranking.
#[derive(Debug, Serialize)]
struct Ranked {
    /// The source's id (its path).
    id: String,
    #[serde(flatten)]
    verdict: Verdict,
}

/// The check options: the engine flags and the exclusions, validated by the engine.
fn check_options(args: &CheckArgs) -> Result<CheckOptions> {
    let opts = CheckOptions {
        exclude: args.exclude.exclusions(),
        bilingual: input::bilingual(args.bilingual.as_deref(), &args.engine.params()?)?,
        ..args.engine.check_options()
    };
    opts.validate()
        .map_err(|e| UsageError::new(e.to_string()))?;
    Ok(opts)
}

/// Runs `check`.
pub fn run(args: CheckArgs) -> Result<()> {
    if args.method.method.is_some() && args.against.is_empty() {
        return Err(UsageError::new(
            "--method ranks the files given with --against; a store or pack folder keeps no text to rank",
        )
        .into());
    }
    if let Some(db) = &args.db {
        return run_db(&args, db);
    }
    if let Some(dir) = &args.packs {
        return run_packs(&args, dir);
    }
    let params = args.engine.params()?;
    let opts = check_options(&args)?;
    let forced = args.text.encoding()?;
    if args.against.iter().any(|p| is_stdin(p)) {
        return Err(UsageError::new(
            "--against takes files and folders; standard input (-) can only be the draft",
        )
        .into());
    }

    // A mistyped path is a mistake in the command, not junk inside a folder: fail, don't skip.
    for root in &args.against {
        std::fs::metadata(root).with_context(|| format!("cannot read {}", root.display()))?;
    }

    // The draft first: a bad draft should fail before a large folder is indexed.
    let draft = input::read(&args.draft, &args.text, forced, opts.max_text_bytes)?;
    let draft_doc = uniqcheck::check::analyze_draft(&draft.text, draft.format, &params, &opts)
        .map_err(|e| input::explain(&draft.name, e, true))?;

    let mut summary = CorpusSummary::default();
    let files = collect_files(&args.against, draft.path.as_deref(), &mut summary);
    let found = files.len() + summary.skipped.len();
    let mut corpus = Corpus::new(params)?;
    let mut texts: HashMap<String, String> = HashMap::new();
    let method = args.method.method(&params)?;
    let mut signed = Vec::new();
    for file in files {
        let id = file.display().to_string();
        let source =
            input::read(&file, &args.text, forced, opts.max_text_bytes).and_then(|source| {
                corpus
                    .add(
                        info(&file, &id),
                        &source.text,
                        source.format,
                        opts.max_text_bytes,
                    )
                    .map_err(|e| input::explain(&id, e, false))?;
                Ok(source)
            });
        match source {
            Ok(Input { text, format, .. }) => {
                if let Some(m) = &method {
                    // The file was just indexed with these parameters, so analysing it succeeds.
                    let t = Text::analyze(&text, format, &params, opts.max_text_bytes)?;
                    signed.push((id.clone(), m.signature(&t)));
                }
                texts.insert(id, text);
            }
            Err(e) => skip(&mut summary, &id, &e),
        }
    }
    summary.indexed = corpus.len();
    if corpus.is_empty() {
        let paths = args
            .against
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        if found == 0 {
            bail!(
                "no text files found in {paths} (looked for .{}; name a file to take it whatever \
                 its name)",
                TEXT_EXTENSIONS.join(", .")
            );
        }
        bail!(
            "no source could be indexed from {paths}: {found} file{} found, none usable (see the warnings above)",
            if found == 1 { "" } else { "s" }
        );
    }

    let report = corpus.check_document(&draft_doc, &opts);
    let ranking = method.map(|m| {
        let draft_sig = m.signature(&Text::from_document(
            &draft_doc,
            Some((&draft.text, draft.format)),
        ));
        let mut ranked: Vec<Ranked> = signed
            .iter()
            .map(|(id, sig)| Ranked {
                id: id.clone(),
                verdict: m.verdict(m.similarity(&draft_sig, sig)),
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.verdict
                .similarity
                .total_cmp(&a.verdict.similarity)
                .then_with(|| a.id.cmp(&b.id))
        });
        ranked
    });
    let mut stdout = io::stdout().lock();
    if !args.output.json {
        output::print_check(&mut stdout, Paint::for_stdout(), &draft, &report, &summary)?;
        if let Some(ranking) = &ranking {
            print_ranking(&mut stdout, ranking)?;
        }
        return Ok(());
    }
    print_json(
        &args,
        &mut stdout,
        report,
        &draft.text,
        &texts,
        &summary,
        Extras {
            fetched: None,
            ranking,
        },
    )
}

/// The `--method` ranking under the report: the ten most similar sources.
fn print_ranking(w: &mut dyn io::Write, ranking: &[Ranked]) -> io::Result<()> {
    let Some(first) = ranking.first() else {
        return Ok(());
    };
    writeln!(
        w,
        "\nBy {} (duplicate at {:.3} or more), most similar first:",
        first.verdict.method.name(),
        first.verdict.threshold
    )?;
    for r in ranking.iter().take(10) {
        let mark = if r.verdict.duplicate { "duplicate" } else { "" };
        writeln!(w, "  {:.3}  {:<9}  {}", r.verdict.similarity, mark, r.id)?;
    }
    if ranking.len() > 10 {
        writeln!(
            w,
            "  ... and {} more (all of them with --json)",
            ranking.len() - 10
        )?;
    }
    Ok(())
}

/// `check --packs`: the draft against a pack folder, reading only what it needs, in the rounds a
/// browser fetches them (pages, then records).
fn run_packs(args: &CheckArgs, dir: &Path) -> Result<()> {
    let opts = CheckOptions {
        max_candidates: args
            .engine
            .max_candidates
            .unwrap_or(uniqcheck::index::packs::PACK_MAX_CANDIDATES),
        ..check_options(args)?
    };
    let forced = args.text.encoding()?;
    let folder = PackFolder::open(dir)?;
    let draft = input::read(&args.draft, &args.text, forced, opts.max_text_bytes)?;
    let doc = uniqcheck::check::analyze_draft(
        &draft.text,
        draft.format,
        &folder.manifest().params,
        &opts,
    )
    .map_err(|e| input::explain(&draft.name, e, true))?;
    let (report, fetched) = folder.check(&doc, &opts)?;
    let summary = CorpusSummary {
        indexed: folder.manifest().documents,
        skipped: Vec::new(),
        packs: Some(dir.display().to_string()),
        ..CorpusSummary::default()
    };
    print_textless(args, &draft, report, &summary, Some(fetched))
}

/// `check --db`: the draft against a store.
fn run_db(args: &CheckArgs, db: &Path) -> Result<()> {
    let opts = check_options(args)?;
    let forced = args.text.encoding()?;
    // The store's parameters rule; flags that ask for others are refused by `Store::open`.
    let store = match args.engine.sketch.explicit()? {
        Some(params) if db.exists() => Store::open(db, params).map_err(store_error)?,
        _ => Store::open_existing(db).map_err(store_error)?,
    };
    let draft = input::read(&args.draft, &args.text, forced, opts.max_text_bytes)?;
    let report = store
        .check(&draft.text, draft.format, &opts)
        .map_err(|e| match e {
            StoreError::Engine(e) => input::explain(&draft.name, e, true),
            e => e.into(),
        })?;
    let summary = CorpusSummary {
        indexed: store.count()?,
        skipped: Vec::new(),
        db: Some(db.display().to_string()),
        ..CorpusSummary::default()
    };
    print_textless(args, &draft, report, &summary, None)
}

/// Prints a report of sources known without their text (a store, packs): human or JSON, with no
/// source spans to convert.
fn print_textless(
    args: &CheckArgs,
    draft: &Input,
    report: Report,
    summary: &CorpusSummary,
    fetched: Option<Fetched>,
) -> Result<()> {
    let mut stdout = io::stdout().lock();
    if !args.output.json {
        output::print_check(&mut stdout, Paint::for_stdout(), draft, &report, summary)?;
        return Ok(());
    }
    print_json(
        args,
        &mut stdout,
        report,
        &draft.text,
        &HashMap::new(),
        summary,
        Extras {
            fetched,
            ranking: None,
        },
    )
}

/// Prints the report as JSON with every offset in `--units`: the draft's, and each source's whose
/// text is in `texts` (by source id).
fn print_json(
    args: &CheckArgs,
    out: &mut dyn io::Write,
    mut report: Report,
    draft: &str,
    texts: &HashMap<String, String>,
    summary: &CorpusSummary,
    extras: Extras,
) -> Result<()> {
    let unit = Unit::from(args.output.units);
    let conv = OffsetConverter::new(draft, unit);
    report.map_draft_offsets(|o| conv.convert(o));
    for source in &mut report.sources {
        if let Some(text) = texts.get(&source.info.id) {
            let conv = OffsetConverter::new(text, unit);
            source.map_source_offsets(|o| conv.convert(o));
        }
    }
    output::print_json(
        out,
        &CheckJson {
            report: &report,
            units: unit,
            corpus: summary,
            fetched: extras.fetched,
            ranking: extras.ranking,
        },
    )?;
    Ok(())
}

/// Who a source file is: id = the path as found, title = its file name, url = a file:// URL.
fn info(path: &Path, id: &str) -> SourceInfo {
    let title = path
        .file_name()
        .map_or_else(|| id.to_owned(), |n| n.to_string_lossy().into_owned());
    let url = std::fs::canonicalize(path).map_or_else(|_| id.to_owned(), |p| file_url(&p));
    SourceInfo {
        id: id.to_owned(),
        url,
        title,
    }
}

/// `file://` URL of an absolute path, percent-encoding what a URL path cannot hold.
fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    let text = path.to_string_lossy();
    if !text.starts_with('/') {
        url.push('/'); // Windows: file:///C:/…
    }
    for b in text.bytes() {
        match b {
            b'\\' => url.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                url.push(b as char)
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

fn skip(summary: &mut CorpusSummary, path: &str, err: &anyhow::Error) {
    let message = format!("{err:#}");
    warn(format_args!("skipped {message}"));
    let reason = message
        .strip_prefix(&format!("{path}: "))
        .unwrap_or(&message)
        .to_owned();
    summary.skipped.push(Skipped {
        path: path.to_owned(),
        reason,
    });
}

/// The source files under `paths`, sorted per path, each once, never the draft itself. Paths
/// named directly are taken whatever their extension: the user asked for them.
fn collect_files(
    paths: &[PathBuf],
    draft: Option<&Path>,
    summary: &mut CorpusSummary,
) -> Vec<PathBuf> {
    let draft = draft.and_then(|d| std::fs::canonicalize(d).ok());
    // Files of other types are not sources and not worth a warning each: a folder of texts
    // often holds images and stylesheets. They are counted by reason (its head, before " (").
    let walk::Walk {
        found,
        unreadable,
        passed_over,
    } = walk::text_files(paths, TEXT_EXTENSIONS);
    for p in passed_over {
        let head = p.reason.split(" (").next().unwrap_or_default().to_owned();
        *summary.passed_over.entry(head).or_default() += 1;
    }
    for u in unreadable {
        skip(
            summary,
            &u.place,
            &anyhow::anyhow!("{}: {}", u.place, u.reason),
        );
    }
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for f in found {
        let canonical = std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone());
        if Some(&canonical) != draft.as_ref() && seen.insert(canonical) {
            files.push(f.path);
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_are_percent_encoded() {
        assert_eq!(
            file_url(Path::new("/tmp/a b/чай.txt")),
            "file:///tmp/a%20b/%D1%87%D0%B0%D0%B9.txt"
        );
    }
}
