//! `uniqcheck eval`: detection quality measured on real corpora.
//!
//! - `eval pan DIR`: every pair of a PAN text-alignment corpus, scored with PAN's measures
//!   (precision, recall, granularity, plagdet) per obfuscation folder and overall, plus the share
//!   of no-plagiarism pairs flagged (false alarms);
//! - `eval paraphrase FILE`: ROC AUC of resemblance and containment separating precise paraphrases
//!   from non-paraphrases (ParaPhraser's TSV);
//! - `eval simplify DIR`: the share of human rewrites (RuSimpleSentEval's CSV) still flagged;
//! - `eval rewrites DIR`: drafts reusing rewritten passages of factRuEval-2016 texts (synonyms,
//!   shuffles, merges and splits, deletions), built deterministically; what is detected, copied
//!   and marked of the rewritten text, per kind of rewrite; `--retrieval` also checks every
//!   draft through one index of every text (does the check find the true source?);
//! - `eval unrelated DIR`: 20 Newsgroups' test posts checked against an index of its training
//!   posts: the share of drafts without a source that get anything marked.
//!
//! - `eval parity --demo | --rewrites DIR | --pan DIR`: every draft of a corpus checked on the
//!   three backends a check can use (an in-memory corpus, a store, the packs written from that
//!   store and read as the browser reads them): how many drafts get the same sources and figures
//!   on all three, and every disagreement ([`uniqcheck_eval::parity`]).
//!
//! - `eval today [SET]`: the tuning set of today's rewrites (`eval/data/today`: per source
//!   passage a light rewrite, a language model's paraphrase, a summary, a translation and an
//!   independent text on the same topic), every passage published among about 3,400 texts:
//!   whether each path names the source, and whether `compare` marks the draft against it
//!   ([`uniqcheck_eval::today`]).
//!
//! `--synonyms FILE` (any of them) maps every content word of both texts through a synonym table
//! (`uniqcheck::synonyms`) before alignment.
//!
//! `eval methods` sets the near-duplicate methods of the literature side by side (`uniqcheck::methods`):
//! ROC AUC, precision and recall at each one's default threshold, documents per second, on PAN
//! 2013 pairs, 20 Newsgroups near-duplicates and ParaPhraser.
//!
//! The measures live in [`uniqcheck_eval`]; this module reads flags and prints.

use crate::options::{EngineArgs, UsageError};
use crate::output;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use uniqcheck::methods::Kind;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{CheckOptions, Params};
use uniqcheck_eval::methods as dup_methods;
use uniqcheck_eval::{pan, parity, retrieval, rewrites, ru, synonymized, thesaurus, today};

/// Flags of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    pub what: EvalCommand,
}

/// What to evaluate.
#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Align every pair of a PAN text-alignment corpus and score it with PAN's measures
    Pan(PanArgs),
    /// ROC AUC of resemblance on ParaPhraser (Russian headline paraphrases, TSV)
    Paraphrase(ParaphraseArgs),
    /// Share of RuSimpleSentEval's human rewrites still flagged as copies
    Simplify(SimplifyArgs),
    /// Russian rewrites made from factRuEval-2016 texts: what is detected, per kind of rewrite
    Rewrites(RewritesArgs),
    /// The near-duplicate methods side by side: ROC AUC, precision and recall at the default
    /// threshold, documents per second, on PAN 2013, 20 Newsgroups and ParaPhraser pairs
    Methods(MethodsArgs),
    /// 20 Newsgroups' test posts checked against an index of its training posts: what is marked
    /// of drafts that have no source
    Unrelated(UnrelatedArgs),
    /// Every draft of a corpus through an in-memory corpus (check --against), a store (--db) and
    /// its packs (--packs): do all three give the same sources and figures?
    Parity(ParityArgs),
    /// Rewrites as copywriters make them today (eval/data/today: light rewrites, LLM-style
    /// paraphrases, summaries, translations, independent texts): is the source found?
    Today(TodayArgs),
}

/// Flags shared by the `eval` subcommands.
#[derive(Debug, Clone, Args)]
pub struct EvalOutput {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON to this file
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Map every content word of both texts through these synonym tables (comma-separated
    /// .uqsy files, e.g. data/synonyms/ru.uqsy,data/synonyms/en.uqsy) before alignment
    #[arg(long, value_name = "FILE,...", value_delimiter = ',')]
    pub synonyms: Vec<PathBuf>,
}

/// `eval pan --view`: [`pan::View`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PanView {
    /// The engine's detections, one per reused passage (what PAN scores)
    Detections,
    /// What a user sees: copies and rewrites, each with its source passage
    Seen,
}

impl From<PanView> for pan::View {
    fn from(v: PanView) -> pan::View {
        match v {
            PanView::Detections => pan::View::Detections,
            PanView::Seen => pan::View::Seen,
        }
    }
}

/// Flags of `eval pan`.
#[derive(Debug, Args)]
pub struct PanArgs {
    /// The corpus: a folder with src/, susp/ and one folder (with a `pairs` file) per obfuscation
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Only these folders (comma-separated names, e.g. 02-no-obfuscation,03-random-obfuscation)
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub folders: Vec<String>,
    /// At most this many pairs per folder (the first ones of its `pairs` file)
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Write the detections as PAN XML, one folder per obfuscation folder
    #[arg(long, value_name = "DIR")]
    pub xml: Option<PathBuf>,
    /// What is scored: the engine's detections, or what a user sees (copies and rewrites)
    #[arg(long, value_enum, default_value_t = PanView::Detections)]
    pub view: PanView,
    #[command(flatten)]
    pub output: EvalOutput,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Flags of `eval paraphrase`.
#[derive(Debug, Args)]
pub struct ParaphraseArgs {
    /// ParaPhraser's TSV: id, class, text_1, text_2
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Shingle lengths to report (comma-separated)
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_values_t = [2usize, 3])]
    pub shingles: Vec<usize>,
    #[command(flatten)]
    pub output: EvalOutput,
}

/// Flags of `eval simplify`.
#[derive(Debug, Args)]
pub struct SimplifyArgs {
    /// A folder of CSV files with INPUT:source and OUTPUT:output columns
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub output: EvalOutput,
}

/// Runs `eval`.
pub fn run(args: EvalArgs) -> Result<()> {
    let threads = match &args.what {
        EvalCommand::Pan(a) => a.output.threads,
        EvalCommand::Paraphrase(a) => a.output.threads,
        EvalCommand::Simplify(a) => a.output.threads,
        EvalCommand::Rewrites(a) => a.output.threads,
        EvalCommand::Methods(a) => a.output.threads,
        EvalCommand::Unrelated(a) => a.output.threads,
        EvalCommand::Parity(a) => a.output.threads,
        EvalCommand::Today(a) => a.output.threads,
    };
    if threads == Some(0) {
        return Err(UsageError::new("--threads must be at least 1").into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    pool.install(|| match args.what {
        EvalCommand::Pan(a) => run_pan(a),
        EvalCommand::Paraphrase(a) => run_paraphrase(a),
        EvalCommand::Simplify(a) => run_simplify(a),
        EvalCommand::Rewrites(a) => run_rewrites(a),
        EvalCommand::Methods(a) => run_methods(a),
        EvalCommand::Unrelated(a) => run_unrelated(a),
        EvalCommand::Parity(a) => run_parity(a),
        EvalCommand::Today(a) => run_today(a),
    })
}

/// Prints `json` (with `--json`) or `table`, and writes the JSON to `--out`.
fn emit(
    out: &EvalOutput,
    json: &impl Serialize,
    table: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if let Some(path) = &out.out {
        let text = serde_json::to_string_pretty(json)?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut stdout = io::stdout().lock();
    if out.json {
        output::print_json(&mut stdout, json)?;
    } else {
        table(&mut stdout)?;
    }
    Ok(())
}

/// The settings an evaluation ran with, recorded in its JSON.
#[derive(Debug, Serialize)]
struct Settings {
    n: usize,
    w: usize,
    k: usize,
    stop_words: bool,
    stemming: bool,
    gap: usize,
    merge_gap: usize,
    min_fragment_words: usize,
    extend_min_words: usize,
    short_threshold: usize,
}

impl Settings {
    fn new(p: &Params, o: &CheckOptions) -> Self {
        Settings {
            n: p.n,
            w: p.w,
            k: p.k,
            stop_words: p.stop_words,
            stemming: p.stemming,
            gap: o.gap,
            merge_gap: o.merge_gap,
            min_fragment_words: o.min_fragment_words,
            extend_min_words: o.extend_min_words,
            short_threshold: o.short_threshold,
        }
    }

    fn line(&self) -> String {
        format!(
            "n={} w={} gap={} merge_gap={} min_fragment_words={} extend_min_words={} \
             stop words {} stemming {}",
            self.n,
            self.w,
            self.gap,
            self.merge_gap,
            self.min_fragment_words,
            self.extend_min_words,
            if self.stop_words { "dropped" } else { "kept" },
            if self.stemming { "on" } else { "off" }
        )
    }
}

#[derive(Debug, Serialize)]
struct PanJson {
    corpus: String,
    settings: Settings,
    pairs: usize,
    elapsed_seconds: f64,
    threads: usize,
    #[serde(flatten)]
    summary: pan::Summary,
}

fn run_pan(args: PanArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    if args.limit == Some(0) {
        return Err(UsageError::new("--limit must be at least 1").into());
    }
    let started = Instant::now();
    let corpus = pan::Corpus::open(&args.dir, &args.folders, args.limit)?;
    if args.view == PanView::Seen && !args.output.synonyms.is_empty() {
        return Err(
            UsageError::new("--synonyms scores the detections: leave out --view seen").into(),
        );
    }
    let results = match load_synonyms(&args.output, &params)? {
        Some(table) => synonymized::run_pan(&corpus, &params, &opts, &table)?,
        None => pan::run(&corpus, &params, &opts, args.view.into())?,
    };
    let summary = pan::summarize(&corpus, &results);
    if let Some(dir) = &args.xml {
        pan::write_xml(dir, &corpus, &results)?;
    }
    for r in results.iter().filter(|r| r.error.is_some()).take(5) {
        crate::warn(format!(
            "{} × {}: {}",
            r.susp,
            r.src,
            r.error.as_deref().unwrap_or_default()
        ));
    }
    let json = PanJson {
        corpus: args.dir.display().to_string(),
        settings: Settings::new(&params, &opts),
        pairs: results.len(),
        elapsed_seconds: started.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        summary,
    };
    emit(&args.output, &json, |w| {
        writeln!(w, "PAN text alignment: {}", json.corpus)?;
        writeln!(w, "{}", json.settings.line())?;
        writeln!(w)?;
        writeln!(
            w,
            "{:<28} {:>6} {:>6} {:>6} {:>7} {:>9} {:>7} {:>6} {:>8}",
            "folder", "pairs", "cases", "dets", "flagged", "precision", "recall", "gran", "plagdet"
        )?;
        for f in json.summary.folders.iter().chain([&json.summary.overall]) {
            writeln!(
                w,
                "{:<28} {:>6} {:>6} {:>6} {:>7} {:>9.3} {:>7.3} {:>6.3} {:>8.3}",
                f.name,
                f.pairs,
                f.cases,
                f.detections,
                f.flagged_pairs,
                f.scores.precision,
                f.scores.recall,
                f.scores.granularity,
                f.scores.plagdet
            )?;
        }
        writeln!(w)?;
        if let Some(fa) = &json.summary.false_alarms {
            writeln!(
                w,
                "false alarms: {} of {} pairs of {} flagged ({:.1} %)",
                fa.flagged,
                fa.pairs,
                pan::NO_PLAGIARISM,
                100.0 * fa.share
            )?;
        }
        if json.summary.errors > 0 {
            writeln!(w, "pairs refused by the engine: {}", json.summary.errors)?;
        }
        writeln!(
            w,
            "elapsed {:.1} s for {} pairs on {} threads",
            json.elapsed_seconds, json.pairs, json.threads
        )
    })
}

#[derive(Debug, Serialize)]
struct ParaphraseJson {
    file: String,
    pairs: usize,
    elapsed_seconds: f64,
    results: Vec<ru::ParaphraseScores>,
}

fn fmt_auc(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"))
}

fn run_paraphrase(args: ParaphraseArgs) -> Result<()> {
    let started = Instant::now();
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let pairs = ru::read_paraphrases(&text)
        .with_context(|| format!("{}: not ParaPhraser's TSV", args.file.display()))?;
    for &n in &args.shingles {
        Params {
            n,
            ..Params::default()
        }
        .validate()
        .map_err(|e| UsageError::new(format!("invalid value in --shingles: {e}")))?;
    }
    let table = load_synonyms(&args.output, &Params::default())?;
    let mut results = Vec::new();
    for &n in &args.shingles {
        for stemming in [true, false] {
            // A table's keys are stemmed forms: it only applies with stemming on.
            let t = table.as_ref().filter(|t| t.stemmed() == stemming);
            results.push(ru::paraphrase_with(&pairs, n, stemming, true, t));
        }
    }
    let json = ParaphraseJson {
        file: args.file.display().to_string(),
        pairs: pairs.len(),
        elapsed_seconds: started.elapsed().as_secs_f64(),
        results,
    };
    emit(&args.output, &json, |w| {
        writeln!(w, "ParaPhraser: {} ({} pairs)", json.file, json.pairs)?;
        writeln!(
            w,
            "ROC AUC, precise paraphrases (class 1) against non-paraphrases (class -1); stop words dropped"
        )?;
        writeln!(w)?;
        writeln!(
            w,
            "{:>2} {:<9} {:>11} {:>12} {:>11} {:>22}",
            "n", "stemming", "resemblance", "containment", "short-text", "mean res. -1 / 0 / 1"
        )?;
        for r in &json.results {
            writeln!(
                w,
                "{:>2} {:<9} {:>11} {:>12} {:>11} {:>22}",
                r.n,
                if r.stemming { "on" } else { "off" },
                fmt_auc(r.auc_resemblance),
                fmt_auc(r.auc_containment),
                fmt_auc(r.auc_short),
                format!(
                    "{:.3} / {:.3} / {:.3}",
                    r.mean_resemblance[0], r.mean_resemblance[1], r.mean_resemblance[2]
                )
            )?;
        }
        writeln!(w)?;
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}

#[derive(Debug, Serialize)]
struct SimplifyJson {
    dir: String,
    files: Vec<String>,
    elapsed_seconds: f64,
    results: Vec<ru::SimplifyScores>,
}

fn run_simplify(args: SimplifyArgs) -> Result<()> {
    let started = Instant::now();
    let (rewrites, files) = ru::read_rewrites(&args.dir)?;
    let opts = CheckOptions::default();
    let table = load_synonyms(&args.output, &Params::default())?;
    let mut results = Vec::new();
    for stop_words in [true, false] {
        for stemming in [true, false] {
            let params = Params {
                stop_words,
                stemming,
                ..Params::default()
            };
            let t = table.as_ref().filter(|t| t.stemmed() == stemming);
            results.push(ru::simplify_with(&rewrites, &params, &opts, t));
        }
    }
    let json = SimplifyJson {
        dir: args.dir.display().to_string(),
        files: files.iter().map(|f| f.display().to_string()).collect(),
        elapsed_seconds: started.elapsed().as_secs_f64(),
        results,
    };
    emit(&args.output, &json, |w| {
        writeln!(w, "RuSimpleSentEval: {}", json.files.join(", "))?;
        writeln!(
            w,
            "rewrite (A) checked against its source sentence (B); flagged = uniqueness below 100 %"
        )?;
        writeln!(w)?;
        writeln!(
            w,
            "{:<10} {:<9} {:>8} {:>9} {:>8} {:>11} {:>14} {:>11}",
            "stop words",
            "stemming",
            "rewrites",
            "identical",
            "flagged",
            "by shingles",
            "by short-text",
            "mean uniq."
        )?;
        for r in &json.results {
            writeln!(
                w,
                "{:<10} {:<9} {:>8} {:>9} {:>7.1}% {:>10.1}% {:>13.1}% {:>10.1}%",
                if r.stop_words { "dropped" } else { "kept" },
                if r.stemming { "on" } else { "off" },
                r.rewrites,
                r.identical,
                100.0 * r.share,
                100.0 * r.flagged_shingles as f64 / r.rewrites.max(1) as f64,
                100.0 * r.flagged_short as f64 / r.rewrites.max(1) as f64,
                r.mean_uniqueness
            )?;
        }
        writeln!(w)?;
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}

/// The synonym tables of `--synonyms`, merged (the first file wins where two map a word), checked
/// against `params`; `None` without the flag.
///
/// Errors: an unreadable or refused file.
fn load_synonyms(out: &EvalOutput, params: &Params) -> Result<Option<Synonyms>> {
    let mut table: Option<Synonyms> = None;
    for path in &out.synonyms {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let t = Synonyms::decode(&bytes).with_context(|| format!("{}", path.display()))?;
        t.check(params)
            .with_context(|| format!("{}", path.display()))?;
        table = Some(match table {
            Some(a) => a.merge(&t),
            None => t,
        });
    }
    if let Some(t) = &table {
        let names: Vec<String> = out
            .synonyms
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        eprintln!(
            "synonym tables: {} ({} words mapped)",
            names.join(", "),
            t.len()
        );
    }
    Ok(table)
}

/// Flags of `eval rewrites`.
#[derive(Debug, Args)]
pub struct RewritesArgs {
    /// factRuEval-2016's folder (with devset/ and testset/ holding book_*.txt)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The Russian thesaurus the `synonyms` and `heavy` rewrites draw from (ru_synonyms.tsv;
    /// default: DIR/../../thesaurus/ru/ru_synonyms.tsv)
    #[arg(long, value_name = "FILE")]
    pub thesaurus: Option<PathBuf>,
    /// Only the sources of this split: dev (devset/), test (testset/) or all
    #[arg(long, value_name = "SPLIT", default_value = "all")]
    pub split: String,
    /// Also write every draft to DIR/KIND/SOURCE (the draft as text, and .json with the
    /// rewritten passages' byte ranges in the draft and in the source)
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// Also index every text in one corpus and check every draft through it: whether the check
    /// finds the true source, and what it marks with it
    #[arg(long)]
    pub retrieval: bool,
    #[command(flatten)]
    pub output: EvalOutput,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Flags of `eval unrelated`.
#[derive(Debug, Args)]
pub struct UnrelatedArgs {
    /// 20 Newsgroups' folder (with 20news-bydate-train/ and 20news-bydate-test/)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Check every N-th test post (sorted by path)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    #[command(flatten)]
    pub output: EvalOutput,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Serialize)]
struct UnrelatedJson {
    dir: String,
    settings: Settings,
    scores: retrieval::UnrelatedScores,
    elapsed_seconds: f64,
}

fn run_unrelated(args: UnrelatedArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    let started = Instant::now();
    let scores = retrieval::unrelated(
        &args.dir.join("20news-bydate-train"),
        &args.dir.join("20news-bydate-test"),
        args.every,
        &params,
        &opts,
    )?;
    let json = UnrelatedJson {
        dir: args.dir.display().to_string(),
        settings: Settings::new(&params, &opts),
        scores,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    };
    let scores = &json.scores;
    let pct = |n: usize| 100.0 * n as f64 / scores.drafts.max(1) as f64;
    emit(&args.output, &json, |w| {
        writeln!(
            w,
            "Drafts without a source: {} test posts (every {}) against {} training posts",
            scores.drafts, args.every, scores.indexed
        )?;
        writeln!(w, "{}", json.settings.line())?;
        writeln!(
            w,
            "with copies marked    {:>6} ({:.1} %)",
            scores.with_fragments,
            pct(scores.with_fragments)
        )?;
        writeln!(
            w,
            "with rewrites marked  {:>6} ({:.1} %)",
            scores.with_rewrites,
            pct(scores.with_rewrites)
        )?;
        writeln!(
            w,
            "with anything marked  {:>6} ({:.1} %)",
            scores.with_any,
            pct(scores.with_any)
        )?;
        writeln!(
            w,
            "with a source named   {:>6} ({:.1} %), {} sources in all",
            scores.with_sources,
            pct(scores.with_sources),
            scores.sources
        )?;
        writeln!(
            w,
            "content words marked as rewritten: {} of {} ({:.2} %)",
            scores.rewritten_words,
            scores.words,
            100.0 * scores.rewritten_words as f64 / scores.words.max(1) as f64
        )?;
        writeln!(
            w,
            "refused {}; elapsed {:.1} s",
            scores.refused, json.elapsed_seconds
        )
    })
}

#[derive(Debug, Serialize)]
struct RewritesJson {
    dir: String,
    thesaurus: String,
    split: String,
    settings: Settings,
    sources: usize,
    pairs: usize,
    errors: usize,
    elapsed_seconds: f64,
    /// Without a synonym table.
    kinds: Vec<rewrites::KindScores>,
    /// With the tables of --synonyms, when given.
    synonyms: Option<SynonymRun>,
    /// Through one index of every text (--retrieval).
    retrieval: Option<Vec<retrieval::RetrievalScores>>,
}

#[derive(Debug, Serialize)]
struct SynonymRun {
    tables: Vec<String>,
    words_mapped: usize,
    kinds: Vec<rewrites::KindScores>,
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| format!("{:.1}", 100.0 * x))
}

fn rewrites_table(w: &mut dyn Write, kinds: &[rewrites::KindScores]) -> io::Result<()> {
    writeln!(
        w,
        "{:<18} {:>5} {:>7} {:>9} | {:>7} {:>6} | {:>7} {:>6} | {:>7} {:>6} | {:>7}",
        "kind",
        "pairs",
        "flagged",
        "rewritten",
        "det.rec",
        "prec",
        "copy.rec",
        "prec",
        "mark.rec",
        "prec",
        "plagdet"
    )?;
    for k in kinds {
        writeln!(
            w,
            "{:<18} {:>5} {:>7} {:>9} | {:>7} {:>6} | {:>7} {:>6} | {:>8} {:>6} | {:>7.3}",
            k.kind,
            k.pairs,
            k.flagged,
            k.chars.truth,
            pct(k.recall),
            pct(k.precision),
            pct(k.highlight_recall),
            pct(k.highlight_precision),
            pct(k.marked_recall),
            pct(k.marked_precision),
            k.pan.plagdet
        )?;
    }
    Ok(())
}

fn run_rewrites(args: RewritesArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    if !["all", "dev", "test"].contains(&args.split.as_str()) {
        return Err(UsageError::new("--split must be dev, test or all").into());
    }
    let started = Instant::now();
    let (thesaurus_path, texts, pairs) =
        rewrite_benchmark(&args.dir, args.thesaurus.as_deref(), &args.split)?;
    if let Some(dir) = &args.dump {
        for p in &pairs {
            let d = dir.join(p.kind.name());
            std::fs::create_dir_all(&d)
                .with_context(|| format!("cannot create {}", d.display()))?;
            let truth: Vec<[[usize; 2]; 2]> = p
                .truth
                .iter()
                .map(|(a, b)| [[a.start, a.end], [b.start, b.end]])
                .collect();
            std::fs::write(d.join(&p.source), &p.draft)
                .and_then(|_| {
                    std::fs::write(
                        d.join(format!("{}.json", p.source)),
                        serde_json::to_string(&truth).unwrap_or_default(),
                    )
                })
                .with_context(|| format!("cannot write into {}", d.display()))?;
        }
    }
    let results = rewrites::run(&pairs, &texts, &params, &opts, None);
    let kinds = rewrites::summarize(&pairs, &results, &rewrites::Kind::ALL);
    let table = load_synonyms(&args.output, &params)?;
    let synonyms = table.as_ref().map(|t| {
        let results = rewrites::run(&pairs, &texts, &params, &opts, Some(t));
        SynonymRun {
            tables: args
                .output
                .synonyms
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            words_mapped: t.len(),
            kinds: rewrites::summarize(&pairs, &results, &rewrites::Kind::ALL),
        }
    });
    let retrieval = if args.retrieval {
        Some(retrieval::rewrites_view(
            &pairs,
            &texts,
            &rewrites::Kind::ALL,
            &params,
            &opts,
        )?)
    } else {
        None
    };
    let json = RewritesJson {
        retrieval,
        dir: args.dir.display().to_string(),
        thesaurus: thesaurus_path.display().to_string(),
        split: args.split.clone(),
        settings: Settings::new(&params, &opts),
        sources: pairs.len() / rewrites::Kind::ALL.len(),
        pairs: pairs.len(),
        errors: results.iter().filter(|r| r.error.is_some()).count(),
        elapsed_seconds: started.elapsed().as_secs_f64(),
        kinds,
        synonyms,
    };
    emit(&args.output, &json, |w| {
        writeln!(
            w,
            "Russian rewrites: {} (split {}), {} sources, {} pairs",
            json.dir, json.split, json.sources, json.pairs
        )?;
        writeln!(w, "{}", json.settings.line())?;
        writeln!(
            w,
            "per cent of the rewritten characters covered (rec) and of the covered characters rewritten (prec):"
        )?;
        writeln!(
            w,
            "det = detections, copy = highlighted copies (fragments), mark = copies and rewrites as the report marks them"
        )?;
        writeln!(w)?;
        rewrites_table(w, &json.kinds)?;
        if let Some(s) = &json.synonyms {
            writeln!(w)?;
            writeln!(
                w,
                "with synonym tables {} ({} words mapped):",
                s.tables.join(", "),
                s.words_mapped
            )?;
            rewrites_table(w, &s.kinds)?;
        }
        if let Some(r) = &json.retrieval {
            writeln!(w)?;
            writeln!(
                w,
                "through one index of all {} texts: drafts whose source is found, and rewritten characters marked with it:",
                texts.len()
            )?;
            writeln!(
                w,
                "{:<18} {:>6} {:>6} | {:>8} {:>6} | {:>8} | {:>6}",
                "kind", "drafts", "found", "mark.rec", "prec", "any.rec", "cands"
            )?;
            for k in r {
                writeln!(
                    w,
                    "{:<18} {:>6} {:>6.1} | {:>8} {:>6} | {:>8} | {:>6.2}",
                    k.kind,
                    k.counts.drafts,
                    100.0 * k.found,
                    pct(k.recall),
                    pct(k.precision),
                    pct(k.recall_any),
                    k.counts.candidates as f64 / k.counts.drafts.max(1) as f64
                )?;
            }
        }
        writeln!(w)?;
        if let Some(k) = json.kinds.iter().find(|k| k.kind == "synonyms") {
            let c = k.synonym_counts;
            writeln!(
                w,
                "synonyms: {} of {} content words known to the thesaurus, {} replaced ({} with the ending carried over)",
                c.known, c.words, c.replaced, c.inflected
            )?;
        }
        if json.errors > 0 {
            writeln!(w, "pairs refused by the engine: {}", json.errors)?;
        }
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}

/// The rewrite benchmark of `dir` (factRuEval-2016): the thesaurus it read (`thesaurus`, or
/// `dir/../../thesaurus/ru/ru_synonyms.tsv`), its texts (of `split` unless `all`) and every
/// draft of every kind, as `eval rewrites` and `eval parity --rewrites` build them.
fn rewrite_benchmark(
    dir: &Path,
    thesaurus: Option<&Path>,
    split: &str,
) -> Result<(PathBuf, Vec<rewrites::Text>, Vec<rewrites::Pair>)> {
    let thesaurus_path = thesaurus.map_or_else(
        || {
            dir.join("..")
                .join("..")
                .join("thesaurus/ru/ru_synonyms.tsv")
        },
        Path::to_owned,
    );
    let text = std::fs::read_to_string(&thesaurus_path).with_context(|| {
        format!(
            "cannot read the thesaurus {} (--thesaurus)",
            thesaurus_path.display()
        )
    })?;
    let syn = rewrites::Synonymizer::new(&thesaurus::read_ru(&text));
    let mut texts = rewrites::read_corpus(dir)?;
    if split != "all" {
        texts.retain(|t| t.split == split);
    }
    let pairs = rewrites::build(&texts, &rewrites::Kind::ALL, &syn);
    Ok((thesaurus_path, texts, pairs))
}

/// Flags of `eval methods`.
#[derive(Debug, Args)]
pub struct MethodsArgs {
    /// The shared data folder (with pan13-train/, 20news-bydate/ and ru/paraphrases_train.tsv);
    /// a dataset whose files are missing is left out with a warning
    #[arg(value_name = "DATA")]
    pub data: PathBuf,
    /// Only these methods (comma-separated; default: all)
    #[arg(long = "method", value_name = "METHOD,...", value_delimiter = ',', value_parser = crate::options::parse_method)]
    pub methods: Vec<Kind>,
    /// 20 Newsgroups posts to make near-duplicates of
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub posts: usize,
    /// At most this many PAN pairs per folder
    #[arg(long, value_name = "N")]
    pub pan_limit: Option<usize>,
    #[command(flatten)]
    pub output: EvalOutput,
}

#[derive(Debug, Serialize)]
struct MethodsJson {
    datasets: Vec<DatasetJson>,
    elapsed_seconds: f64,
}

#[derive(Debug, Serialize)]
struct DatasetJson {
    name: String,
    about: String,
    texts: usize,
    pairs: usize,
    positives: usize,
    /// 20 Newsgroups: the mean share of a post's words missing from its copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    measured_edit: Option<f64>,
    methods: Vec<dup_methods::MethodScores>,
}

fn run_methods(args: MethodsArgs) -> Result<()> {
    let started = Instant::now();
    if args.posts < 2 {
        return Err(UsageError::new("--posts must be at least 2").into());
    }
    let kinds: Vec<Kind> = if args.methods.is_empty() {
        Kind::ALL.to_vec()
    } else {
        args.methods.clone()
    };
    let d = &args.data;
    let mut loaded: Vec<(dup_methods::Dataset, Option<f64>)> = Vec::new();
    let pan_dir = d.join("pan13-train");
    match dup_methods::pan(&pan_dir, args.pan_limit) {
        Ok(ds) => loaded.push((ds, None)),
        Err(e) => crate::warn(format!("PAN 2013 left out: {:#}", anyhow::Error::from(e))),
    }
    let ng_dir = d.join("20news-bydate");
    for edit in [dup_methods::Edit::Light, dup_methods::Edit::Benchmark] {
        match dup_methods::newsgroups(&ng_dir, args.posts, edit) {
            Ok((ds, missing)) => loaded.push((ds, Some(missing))),
            Err(e) => crate::warn(format!(
                "20 Newsgroups left out: {:#}",
                anyhow::Error::from(e)
            )),
        }
    }
    match dup_methods::paraphrases(&d.join("ru").join("paraphrases_train.tsv")) {
        Ok(ds) => loaded.push((ds, None)),
        Err(e) => crate::warn(format!(
            "ParaPhraser left out: {:#}",
            anyhow::Error::from(e)
        )),
    }
    if loaded.is_empty() {
        anyhow::bail!("{}: none of the datasets was found", d.display());
    }
    let datasets: Vec<DatasetJson> = loaded
        .into_iter()
        .map(|(ds, measured_edit)| DatasetJson {
            methods: kinds.iter().map(|&k| dup_methods::score(&ds, k)).collect(),
            name: ds.name.clone(),
            about: ds.about.clone(),
            texts: ds.texts.len(),
            pairs: ds.pairs.len(),
            positives: ds.positives(),
            measured_edit,
        })
        .collect();
    let json = MethodsJson {
        datasets,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    };
    emit(&args.output, &json, |w| {
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"));
        for ds in &json.datasets {
            writeln!(w, "{}: {}", ds.name, ds.about)?;
            write!(
                w,
                "{} texts, {} pairs, {} duplicates",
                ds.texts, ds.pairs, ds.positives
            )?;
            if let Some(e) = ds.measured_edit {
                write!(w, "; measured edit: {:.1} % of words missing", e * 100.0)?;
            }
            writeln!(w)?;
            writeln!(w)?;
            writeln!(w, "| method | ROC AUC | threshold | precision | recall | mean sim. dup / not | docs/s |")?;
            writeln!(w, "|---|---|---|---|---|---|---|")?;
            for m in &ds.methods {
                writeln!(
                    w,
                    "| {} | {} | {:.3} | {} | {} | {:.3} / {:.3} | {:.0} |",
                    m.method.name(),
                    opt(m.auc),
                    m.threshold,
                    opt(m.precision),
                    opt(m.recall),
                    m.mean_similarity[0],
                    m.mean_similarity[1],
                    m.docs_per_second
                )?;
            }
            writeln!(w)?;
        }
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}

/// Flags of `eval parity`.
#[derive(Debug, Args)]
pub struct ParityArgs {
    /// The demo corpus (demo/corpus/) and the parity drafts (tests/data/parity/) of the
    /// repository at REPO (default: the current folder)
    #[arg(long, value_name = "REPO", num_args = 0..=1, default_missing_value = ".")]
    pub demo: Option<PathBuf>,
    /// factRuEval-2016's folder: every text published, every draft of the rewrite benchmark
    /// checked (as `eval rewrites --retrieval` builds them)
    #[arg(long, value_name = "DIR")]
    pub rewrites: Option<PathBuf>,
    /// The thesaurus of --rewrites (default: DIR/../../thesaurus/ru/ru_synonyms.tsv)
    #[arg(long, value_name = "FILE")]
    pub thesaurus: Option<PathBuf>,
    /// A PAN text-alignment corpus: every source document published, every suspicious document
    /// checked
    #[arg(long, value_name = "DIR")]
    pub pan: Option<PathBuf>,
    /// With --pan: only every N-th suspicious document (sorted by name)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    /// Disagreements listed per corpus in the table (all of them in the JSON)
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub show: usize,
    #[command(flatten)]
    pub output: EvalOutput,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Serialize)]
struct ParityJson {
    settings: Settings,
    /// The bound on candidates of `against`, `db` and `packs-500`; `packs` has the browser's.
    max_candidates: usize,
    browser_max_candidates: usize,
    tolerance: f64,
    corpora: Vec<parity::Summary>,
    elapsed_seconds: f64,
}

fn run_parity(args: ParityArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    if args.demo.is_none() && args.rewrites.is_none() && args.pan.is_none() {
        return Err(UsageError::new("name a corpus: --demo, --rewrites DIR or --pan DIR").into());
    }
    if args.every == 0 {
        return Err(UsageError::new("--every must be at least 1").into());
    }
    if !args.output.synonyms.is_empty() {
        return Err(UsageError::new("--synonyms is not a path of a check: leave it out").into());
    }
    let started = Instant::now();
    let mut corpora = Vec::new();
    if let Some(root) = &args.demo {
        let (published, drafts) = parity::demo(root)?;
        corpora.push(parity::run("demo", &published, &drafts, &params, &opts)?);
    }
    if let Some(dir) = &args.rewrites {
        let (_, texts, pairs) = rewrite_benchmark(dir, args.thesaurus.as_deref(), "all")?;
        let (published, drafts) = parity::rewrites(&texts, &pairs);
        corpora.push(parity::run(
            "rewrites", &published, &drafts, &params, &opts,
        )?);
    }
    if let Some(dir) = &args.pan {
        let (published, drafts) = parity::pan(dir, args.every)?;
        let name = if args.every == 1 {
            "pan".to_owned()
        } else {
            format!("pan (every {})", args.every)
        };
        corpora.push(parity::run(&name, &published, &drafts, &params, &opts)?);
    }
    let json = ParityJson {
        settings: Settings::new(&params, &opts),
        max_candidates: opts.max_candidates,
        browser_max_candidates: uniqcheck::index::packs::PACK_MAX_CANDIDATES,
        tolerance: parity::TOLERANCE,
        corpora,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    };
    emit(&args.output, &json, |w| {
        writeln!(
            w,
            "Parity of the paths: against (in-memory corpus), db (store), packs (the browser's \
             bound, {}), packs-500 (packs with the engine's bound, {})",
            json.browser_max_candidates, json.max_candidates
        )?;
        writeln!(w, "{}", json.settings.line())?;
        writeln!(
            w,
            "agree = the same sources and uniqueness and originality within {} points on \
             against, db and packs (agree-500: with packs-500)",
            json.tolerance
        )?;
        for c in &json.corpora {
            parity_table(w, c, args.show)?;
        }
        writeln!(w)?;
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}

/// One corpus's parity: agreements per group, disagreements by kind, the first `show` ones.
fn parity_table(w: &mut dyn Write, c: &parity::Summary, show: usize) -> io::Result<()> {
    writeln!(w)?;
    writeln!(
        w,
        "== {}: {} published texts{}",
        c.corpus,
        c.published,
        if c.refused.is_empty() {
            String::new()
        } else {
            format!(" ({} refused by the engine)", c.refused.len())
        }
    )?;
    writeln!(
        w,
        "{:<28} {:>6} {:>14} {:>14}",
        "group", "drafts", "agree", "agree-500"
    )?;
    let share = |n: usize, of: usize| format!("{n} ({:.1} %)", 100.0 * n as f64 / of.max(1) as f64);
    for g in &c.groups {
        writeln!(
            w,
            "{:<28} {:>6} {:>14} {:>14}",
            g.name,
            g.drafts,
            share(g.agree, g.drafts),
            share(g.agree_unbounded, g.drafts)
        )?;
    }
    if !c.kinds.is_empty() {
        writeln!(w, "disagreements with db (drafts):")?;
        for (k, n) in &c.kinds {
            writeln!(w, "  {k:<28} {n}")?;
        }
    }
    let shifts: Vec<String> = c
        .max_shift
        .iter()
        .map(|(p, s)| format!("{p} {s:.1}"))
        .collect();
    writeln!(
        w,
        "largest figure shift from db with db's sources: {}",
        shifts.join(", ")
    )?;
    let secs = |m: &std::collections::BTreeMap<String, f64>| -> String {
        m.iter()
            .map(|(p, s)| format!("{p} {s:.1} s"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(w, "built: {}", secs(&c.build_seconds))?;
    writeln!(
        w,
        "checks (summed over threads): {}",
        secs(&c.check_seconds)
    )?;
    for d in c.disagreements.iter().take(show) {
        writeln!(w, "- {}: {}", d.draft, d.kinds.join("; "))?;
        for (name, o) in parity::PATHS.iter().zip(&d.paths) {
            match &o.error {
                Some(e) => writeln!(w, "    {name:<10} error: {e}")?,
                None => writeln!(
                    w,
                    "    {name:<10} uniqueness {:>5.1} originality {:>5.1}{} sources [{}]",
                    o.uniqueness,
                    o.originality,
                    if o.capped {
                        format!(" (capped, {} left out)", o.unchecked)
                    } else {
                        String::new()
                    },
                    o.sources.join(", ")
                )?,
            }
        }
    }
    if c.disagreements.len() > show {
        writeln!(
            w,
            "... and {} more (all of them with --json)",
            c.disagreements.len() - show
        )?;
    }
    Ok(())
}

/// Flags of `eval today`.
#[derive(Debug, Args)]
pub struct TodayArgs {
    /// The tuning set: `en/NN/` and `ru/NN/` folders of a source.tsv and the drafts
    #[arg(value_name = "SET", default_value = "eval/data/today")]
    pub set: PathBuf,
    /// The data folder the passages and the background are read from
    #[arg(long, value_name = "DIR", default_value = "../shared/data")]
    pub data: PathBuf,
    /// List every draft, not only the figures per kind
    #[arg(long)]
    pub all: bool,
    /// Seek translations through this English–Russian table (data/bilingual/en-ru.uqbl)
    #[arg(long, value_name = "FILE")]
    pub bilingual: Option<PathBuf>,
    #[command(flatten)]
    pub output: EvalOutput,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Serialize)]
struct TodayJson {
    settings: Settings,
    browser_max_candidates: usize,
    #[serde(flatten)]
    summary: today::Summary,
    elapsed_seconds: f64,
}

fn run_today(args: TodayArgs) -> Result<()> {
    let params = args.engine.params()?;
    let opts = args.engine.check_options();
    if !args.output.synonyms.is_empty() {
        return Err(UsageError::new("--synonyms is not a path of a check: leave it out").into());
    }
    let started = Instant::now();
    let cases = today::load(&args.set, &args.data)?;
    let skip = cases.iter().map(|c| c.file.clone()).collect();
    let background = today::background(&args.data, &skip)?;
    let opts = CheckOptions {
        bilingual: crate::input::bilingual(args.bilingual.as_deref(), &params)?,
        ..opts
    };
    let summary = today::run(&cases, background, &params, &opts)?;
    let json = TodayJson {
        settings: Settings::new(&params, &opts),
        browser_max_candidates: uniqcheck::index::packs::PACK_MAX_CANDIDATES,
        summary,
        elapsed_seconds: started.elapsed().as_secs_f64(),
    };
    emit(&args.output, &json, |w| {
        let s = &json.summary;
        writeln!(
            w,
            "Today's rewrites: {} cases, {} texts published (passages and background)",
            s.cases, s.published
        )?;
        writeln!(w, "{}", json.settings.line())?;
        writeln!(
            w,
            "source found on each path (independent: flagged, a false match); db < 90 %: drafts \
             of originality under 90 % on db; compare: the passage handed over, drafts marked; \
             originality: mean, per cent"
        )?;
        writeln!(
            w,
            "{:<18} {:>6} {:>8} {:>6} {:>6} {:>9} {:>8} {:>9} {:>8} {:>8}",
            "kind",
            "drafts",
            "against",
            "db",
            "packs",
            "packs-500",
            "db orig",
            "db < 90 %",
            "compare",
            "cmp orig"
        )?;
        for g in &s.groups {
            writeln!(
                w,
                "{:<18} {:>6} {:>8} {:>6} {:>6} {:>9} {:>8.1} {:>9} {:>8} {:>8.1}",
                g.name,
                g.drafts,
                g.found[parity::AGAINST],
                g.found[parity::DB],
                g.found[parity::PACKS],
                g.found[parity::PACKS_UNBOUNDED],
                g.db_originality,
                g.db_under_90,
                g.compare_marked,
                g.compare_originality
            )?;
        }
        if args.all {
            writeln!(w)?;
            for d in &s.drafts {
                let mark = |b: bool| if b { "+" } else { "." };
                writeln!(
                    w,
                    "{:<24} found {}{}{}{}  db originality {:>5.1}  others on db {}  compare {} {:>5.1}",
                    d.draft,
                    mark(d.found[0]),
                    mark(d.found[1]),
                    mark(d.found[2]),
                    mark(d.found[3]),
                    d.originality[parity::DB],
                    d.others[parity::DB],
                    mark(d.compare_marked),
                    d.compare_originality
                )?;
            }
        }
        writeln!(w)?;
        writeln!(w, "elapsed {:.1} s", json.elapsed_seconds)
    })
}
