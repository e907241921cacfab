//! Parity of the paths: whether `check --against` (an in-memory [`Corpus`]), `check --db` (a
//! SQLite store) and `check --packs` (the pack files a browser fetches) give a draft the same
//! answer on the same published texts.
//!
//! [`run`] builds the three backends from one list of texts in a temporary folder, as the CLI
//! builds them: every text analysed once and added to a [`Corpus`] and, in batches, to a
//! [`Store`] (as `uniqcheck index` writes, bulk runs merged at the end); packs written from that
//! store by [`write_packs`] (what `uniqcheck pack` calls) and read back through
//! [`PackFolder::check`] (what `check --packs` calls: a fresh index, rounds of
//! `PackIndex::needed` files added until none is needed). Each draft is analysed once and
//! checked on four paths:
//!
//! - `against`: [`Corpus::check_document`], the engine's default bound on candidates;
//! - `db`: the store's `check_document`, the same bound;
//! - `packs`: the packs with the browser's bound ([`PACK_MAX_CANDIDATES`]);
//! - `packs-500`: the packs with the engine's bound (the options' `max_candidates`), so that a
//!   source lost to the bound can be told from one lost to retrieval.
//!
//! A draft **agrees** when `against`, `db` and `packs` name the same set of sources (by URL, the
//! text's name on every path) and their uniqueness and originality lie within [`TOLERANCE`]
//! points of each other; `agree_unbounded` counts the same with `packs-500` in place of
//! `packs`. Every disagreement is kept with each path's sources and figures, and classified
//! against `db` (the reference: what the store finds, the packs must let the browser find):
//! a source of `db` missing on a path, an extra source on a path, or the same sources with a
//! figure shifted by more than [`TOLERANCE`]. A draft or text the engine refuses is counted,
//! never dropped silently.
//!
//! The corpora: [`demo`] (the bundled demo corpus and the hand-written drafts of
//! `tests/data/parity/`), [`rewrites`] (the Russian rewrite benchmark, [`crate::rewrites`], as
//! its retrieval view builds it: every text indexed, every draft checked) and [`pan`] (every
//! suspicious document of a PAN text-alignment corpus against every source document).

use crate::{EvalError, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;
use uniqcheck::index::packs::PACK_MAX_CANDIDATES;
use uniqcheck::{CheckOptions, Corpus, Document, Format, Params, Report, SourceInfo};
use uniqcheck_store::folder::PackFolder;
use uniqcheck_store::packs::{write_packs, PackOptions};
use uniqcheck_store::{NewDocument, Store};

/// Figures of two paths further apart than this many points disagree (issue 33's target).
pub const TOLERANCE: f64 = 0.5;

/// Documents written to the store in one transaction.
const BATCH: usize = 1024;

/// A published text or a draft.
#[derive(Debug, Clone)]
pub struct Text {
    /// Its name: a published text's id, URL and title on every path; a draft's label.
    pub name: String,
    /// A group to count the draft in (a rewrite kind, a PAN folder); empty for none.
    pub group: String,
    /// The text.
    pub text: String,
    /// How it is written.
    pub format: Format,
}

/// The paths, in the order of [`DraftResult::paths`].
pub const PATHS: [&str; 4] = ["against", "db", "packs", "packs-500"];
/// Index of `against` in [`PATHS`].
pub const AGAINST: usize = 0;
/// Index of `db` in [`PATHS`].
pub const DB: usize = 1;
/// Index of `packs` in [`PATHS`].
pub const PACKS: usize = 2;
/// Index of `packs-500` in [`PATHS`].
pub const PACKS_UNBOUNDED: usize = 3;

/// What one path answered for one draft.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Outcome {
    /// The sources' URLs, sorted.
    pub sources: Vec<String>,
    /// Uniqueness, per cent.
    pub uniqueness: f64,
    /// Originality, per cent.
    pub originality: f64,
    /// More candidates were found than the bound allows.
    pub capped: bool,
    /// Candidates left out by the bound.
    pub unchecked: usize,
    /// The path failed on this draft: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Outcome {
    fn of(report: &Report) -> Outcome {
        let mut sources: Vec<String> = report.sources.iter().map(|s| s.info.url.clone()).collect();
        sources.sort();
        Outcome {
            sources,
            uniqueness: report.uniqueness,
            originality: report.originality,
            capped: report.capped,
            unchecked: report.unchecked,
            error: None,
        }
    }

    fn failed(error: String) -> Outcome {
        Outcome {
            error: Some(error),
            ..Outcome::default()
        }
    }

    /// The largest difference of the two figures.
    fn shift(&self, other: &Outcome) -> f64 {
        (self.uniqueness - other.uniqueness)
            .abs()
            .max((self.originality - other.originality).abs())
    }
}

/// One draft on every path.
#[derive(Debug, Clone, Serialize)]
pub struct DraftResult {
    /// The draft's name.
    pub draft: String,
    /// Its group.
    pub group: String,
    /// `against`, `db` and `packs` agree.
    pub agree: bool,
    /// `against`, `db` and `packs-500` agree.
    pub agree_unbounded: bool,
    /// What each path of [`PATHS`] answered.
    pub paths: Vec<Outcome>,
    /// How the paths disagree with `db`: `"<path>: source missing"`, `"<path>: extra source"`,
    /// `"<path>: figure shift"`, `"<path>: error"`.
    pub kinds: Vec<String>,
}

/// The paths that agree on a draft: the same sources, figures within [`TOLERANCE`], no error.
fn agree(outcomes: &[&Outcome]) -> bool {
    let first = outcomes[0];
    outcomes.iter().all(|o| o.error.is_none())
        && outcomes
            .iter()
            .all(|o| o.sources == first.sources && o.shift(first) <= TOLERANCE)
        && {
            // Within the tolerance of each other, not only of the first.
            let (lo, hi) = outcomes.iter().fold((f64::MAX, f64::MIN), |(lo, hi), o| {
                (lo.min(o.uniqueness), hi.max(o.uniqueness))
            });
            let (olo, ohi) = outcomes.iter().fold((f64::MAX, f64::MIN), |(lo, hi), o| {
                (lo.min(o.originality), hi.max(o.originality))
            });
            hi - lo <= TOLERANCE && ohi - olo <= TOLERANCE
        }
}

impl DraftResult {
    fn new(draft: &Text, paths: Vec<Outcome>) -> DraftResult {
        let reference = &paths[DB];
        let mut kinds = Vec::new();
        if reference.error.is_some() {
            kinds.push("db: error".to_owned());
        }
        for (i, o) in paths.iter().enumerate().filter(|(i, _)| *i != DB) {
            let name = PATHS[i];
            if o.error.is_some() {
                kinds.push(format!("{name}: error"));
                continue;
            }
            if reference.error.is_some() {
                continue;
            }
            let have: BTreeSet<&String> = o.sources.iter().collect();
            let want: BTreeSet<&String> = reference.sources.iter().collect();
            if want.difference(&have).next().is_some() {
                kinds.push(format!("{name}: source missing"));
            }
            if have.difference(&want).next().is_some() {
                kinds.push(format!("{name}: extra source"));
            }
            if have == want && o.shift(reference) > TOLERANCE {
                kinds.push(format!("{name}: figure shift"));
            }
        }
        DraftResult {
            draft: draft.name.clone(),
            group: draft.group.clone(),
            agree: agree(&[&paths[AGAINST], &paths[DB], &paths[PACKS]]),
            agree_unbounded: agree(&[&paths[AGAINST], &paths[DB], &paths[PACKS_UNBOUNDED]]),
            paths,
            kinds,
        }
    }
}

/// Drafts and agreements of one group.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Group {
    /// The group's name (`all` for every draft).
    pub name: String,
    /// Drafts.
    pub drafts: usize,
    /// Drafts on which `against`, `db` and `packs` agree.
    pub agree: usize,
    /// Drafts on which `against`, `db` and `packs-500` agree.
    pub agree_unbounded: usize,
}

/// A corpus's parity.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The corpus's name.
    pub corpus: String,
    /// Published texts indexed on every path.
    pub published: usize,
    /// Published texts the engine refused (indexed on no path).
    pub refused: Vec<String>,
    /// Every draft, then per group (when there are groups).
    pub groups: Vec<Group>,
    /// Disagreements by kind (see [`DraftResult::kinds`]), drafts counted once per kind.
    pub kinds: BTreeMap<String, usize>,
    /// The largest figure shift from `db` among the drafts with `db`'s sources, per path.
    pub max_shift: BTreeMap<String, f64>,
    /// Seconds spent building: the corpus, the store, the packs.
    pub build_seconds: BTreeMap<String, f64>,
    /// Seconds spent checking on each path, summed over the drafts (threads overlap them).
    pub check_seconds: BTreeMap<String, f64>,
    /// Every draft on which some path disagrees with another (either bound).
    pub disagreements: Vec<DraftResult>,
}

/// The three backends built from one list of published texts, in a temporary folder (removed
/// when dropped): an in-memory corpus, a store and its packs.
pub struct Backends {
    // Kept for its folder: the store and the packs live in it.
    _tmp: tempfile::TempDir,
    db: std::path::PathBuf,
    corpus: Corpus,
    folder: PackFolder,
    params: Params,
    opts: CheckOptions,
    /// Published texts the engine refused (indexed on no path).
    pub refused: Vec<String>,
    /// Seconds spent building: the corpus, the store, the packs.
    pub build_seconds: BTreeMap<String, f64>,
}

impl Backends {
    /// Builds the backends from `published` as the CLI builds them, for checks with `opts`
    /// (the browser's bound for `packs`, [`PACK_MAX_CANDIDATES`]).
    ///
    /// Errors: a store or pack folder that cannot be written or read. Texts the engine refuses
    /// are counted in [`Backends::refused`] instead.
    pub fn build(published: &[Text], params: &Params, opts: &CheckOptions) -> Result<Backends> {
        let tmp = tempfile::tempdir().map_err(|source| EvalError::Create {
            path: std::env::temp_dir(),
            source,
        })?;
        let mut build_seconds = BTreeMap::new();

        let started = Instant::now();
        let analysed: Vec<(String, std::result::Result<Document, uniqcheck::Error>)> = published
            .par_iter()
            .map(|t| {
                (
                    t.name.clone(),
                    Document::analyze(&t.text, t.format, params, opts.max_text_bytes),
                )
            })
            .collect();
        let mut refused = Vec::new();
        let mut docs = Vec::new();
        for (name, doc) in analysed {
            match doc {
                Ok(doc) => docs.push((name, doc)),
                Err(_) => refused.push(name),
            }
        }
        let info = |name: &str| SourceInfo {
            id: name.to_owned(),
            url: name.to_owned(),
            title: name.to_owned(),
        };
        let mut corpus = Corpus::new(*params)?;
        for (name, doc) in &docs {
            corpus.add_document(info(name), doc.clone());
        }
        build_seconds.insert("corpus".to_owned(), started.elapsed().as_secs_f64());

        let started = Instant::now();
        let db = tmp.path().join("parity.db");
        let mut store = Store::open(&db, *params).map_err(store_error)?;
        store.set_bulk(true).map_err(store_error)?;
        let mut batch = Vec::with_capacity(BATCH);
        let by_name: BTreeMap<&str, &Text> =
            published.iter().map(|t| (t.name.as_str(), t)).collect();
        for (name, doc) in docs {
            let t = by_name[name.as_str()];
            batch.push((
                NewDocument {
                    url: name.clone(),
                    title: name,
                    text: t.text.clone(),
                    format: t.format,
                },
                doc,
            ));
            if batch.len() == BATCH {
                store
                    .upsert_batch(std::mem::take(&mut batch))
                    .map_err(store_error)?;
            }
        }
        store.upsert_batch(batch).map_err(store_error)?;
        store.finish_bulk(true).map_err(store_error)?;
        build_seconds.insert("store".to_owned(), started.elapsed().as_secs_f64());

        let started = Instant::now();
        let packs = tmp.path().join("packs");
        write_packs(&store, &packs, &PackOptions::default()).map_err(store_error)?;
        let folder = PackFolder::open(&packs).map_err(store_error)?;
        build_seconds.insert("packs".to_owned(), started.elapsed().as_secs_f64());
        drop(store);
        Ok(Backends {
            _tmp: tmp,
            db,
            corpus,
            folder,
            params: *params,
            opts: opts.clone(),
            refused,
            build_seconds,
        })
    }

    /// Published texts indexed.
    pub fn published(&self) -> usize {
        self.corpus.len()
    }

    /// Checks every draft on every path ([`PATHS`]), in parallel; the results in the drafts'
    /// order, each with the seconds each path took.
    pub fn check(&self, drafts: &[Text]) -> Vec<(DraftResult, [f64; 4])> {
        let browser = CheckOptions {
            max_candidates: PACK_MAX_CANDIDATES,
            ..self.opts.clone()
        };
        // One connection per worker thread: a store is `Send`, not `Sync`.
        drafts
            .par_iter()
            .map_init(
                || Store::open_existing(&self.db).map_err(|e| format!("{e:#}")),
                |store, draft| {
                    check_one(
                        draft,
                        &self.params,
                        &self.opts,
                        &browser,
                        &self.corpus,
                        store,
                        &self.folder,
                    )
                },
            )
            .collect()
    }
}

/// Builds the three backends from `published` in a temporary folder and checks every draft of
/// `drafts` on every path ([`PATHS`]) with `opts` (the browser's bound for `packs`).
///
/// Errors: a store or pack folder that cannot be written or read. Texts and drafts the engine
/// refuses are counted in the summary instead.
pub fn run(
    corpus_name: &str,
    published: &[Text],
    drafts: &[Text],
    params: &Params,
    opts: &CheckOptions,
) -> Result<Summary> {
    let backends = Backends::build(published, params, opts)?;
    let checked = backends.check(drafts);
    let mut summary = Summary {
        corpus: corpus_name.to_owned(),
        published: backends.published(),
        refused: backends.refused.clone(),
        groups: Vec::new(),
        kinds: BTreeMap::new(),
        max_shift: BTreeMap::new(),
        build_seconds: backends.build_seconds.clone(),
        check_seconds: BTreeMap::new(),
        disagreements: Vec::new(),
    };
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for (r, seconds) in checked {
        for (i, s) in seconds.iter().enumerate() {
            *summary
                .check_seconds
                .entry(PATHS[i].to_owned())
                .or_default() += s;
        }
        for (i, o) in r.paths.iter().enumerate().filter(|(i, _)| *i != DB) {
            if o.error.is_none() && r.paths[DB].error.is_none() && o.sources == r.paths[DB].sources
            {
                let m = summary.max_shift.entry(PATHS[i].to_owned()).or_default();
                *m = m.max(o.shift(&r.paths[DB]));
            }
        }
        for name in ["all", r.group.as_str()] {
            if name.is_empty() {
                continue;
            }
            let g = groups.entry(name.to_owned()).or_insert_with(|| Group {
                name: name.to_owned(),
                ..Group::default()
            });
            g.drafts += 1;
            g.agree += usize::from(r.agree);
            g.agree_unbounded += usize::from(r.agree_unbounded);
        }
        for k in &r.kinds {
            *summary.kinds.entry(k.clone()).or_default() += 1;
        }
        if !r.agree || !r.agree_unbounded || !r.kinds.is_empty() {
            summary.disagreements.push(r);
        }
    }
    // `all` first, then the groups by name.
    let all = groups.remove("all").unwrap_or_else(|| Group {
        name: "all".to_owned(),
        ..Group::default()
    });
    summary.groups.push(all);
    summary.groups.extend(groups.into_values());
    Ok(summary)
}

/// One draft on every path, and the seconds each took.
fn check_one(
    draft: &Text,
    params: &Params,
    opts: &CheckOptions,
    browser: &CheckOptions,
    corpus: &Corpus,
    store: &std::result::Result<Store, String>,
    folder: &PackFolder,
) -> (DraftResult, [f64; 4]) {
    let mut seconds = [0.0; 4];
    let doc = match uniqcheck::check::analyze_draft(&draft.text, draft.format, params, opts) {
        Ok(doc) => doc,
        Err(e) => {
            let why = format!("refused: {e}");
            return (
                DraftResult::new(draft, vec![Outcome::failed(why); PATHS.len()]),
                seconds,
            );
        }
    };
    let mut timed = |i: usize, f: &mut dyn FnMut() -> std::result::Result<Report, String>| {
        let started = Instant::now();
        let o = f().map_or_else(Outcome::failed, |r| Outcome::of(&r));
        seconds[i] = started.elapsed().as_secs_f64();
        o
    };
    let paths = vec![
        timed(AGAINST, &mut || Ok(corpus.check_document(&doc, opts))),
        timed(DB, &mut || match store {
            Ok(s) => s.check_document(&doc, opts).map_err(|e| format!("{e:#}")),
            Err(e) => Err(e.clone()),
        }),
        timed(PACKS, &mut || {
            folder
                .check(&doc, browser)
                .map(|(r, _)| r)
                .map_err(|e| format!("{e:#}"))
        }),
        timed(PACKS_UNBOUNDED, &mut || {
            folder
                .check(&doc, opts)
                .map(|(r, _)| r)
                .map_err(|e| format!("{e:#}"))
        }),
    ];
    (DraftResult::new(draft, paths), seconds)
}

/// A store or pack error as the evaluation's.
fn store_error(e: impl std::error::Error + Send + Sync + 'static) -> EvalError {
    EvalError::Backend(Box::new(e))
}

/// The files of `dir` with extension `ext`, sorted, as texts named `prefix` + file name.
pub(crate) fn read_folder(
    dir: &Path,
    ext: &str,
    prefix: &str,
    format: Format,
) -> Result<Vec<Text>> {
    crate::sorted_paths(dir, |p| {
        p.is_file() && p.extension().is_some_and(|e| e == ext)
    })?
    .into_iter()
    .map(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Text {
            name: format!("{prefix}{name}"),
            group: String::new(),
            text: crate::read_text(&p)?,
            format,
        })
    })
    .collect()
}

/// The demo corpus of the repository at `root` (`demo/corpus/{en,ru}/*.html`, named
/// `en/…`, `ru/…`, read as HTML) and the parity drafts (`tests/data/parity/*.txt`, plain).
///
/// Errors: a folder or file that cannot be read, or no draft.
pub fn demo(root: &Path) -> Result<(Vec<Text>, Vec<Text>)> {
    let corpus = root.join("demo/corpus");
    let mut published = Vec::new();
    for lang in ["en", "ru"] {
        published.extend(read_folder(
            &corpus.join(lang),
            "html",
            &format!("{lang}/"),
            Format::Html,
        )?);
    }
    let drafts = read_folder(&root.join("tests/data/parity"), "txt", "", Format::Plain)?;
    if drafts.is_empty() {
        return Err(EvalError::NoDrafts {
            dir: root.join("tests/data/parity"),
        });
    }
    Ok((published, drafts))
}

/// The rewrite benchmark as its retrieval view checks it: every text of `texts` published (by
/// file name), every draft of `pairs` a draft (`kind/source`, grouped by kind).
pub fn rewrites(
    texts: &[crate::rewrites::Text],
    pairs: &[crate::rewrites::Pair],
) -> (Vec<Text>, Vec<Text>) {
    let published = texts
        .iter()
        .map(|t| Text {
            name: t.name.clone(),
            group: String::new(),
            text: t.text.clone(),
            format: Format::Plain,
        })
        .collect();
    let drafts = pairs
        .iter()
        .map(|p| Text {
            name: format!("{}/{}", p.kind.name(), p.source),
            group: p.kind.name().to_owned(),
            text: p.draft.clone(),
            format: Format::Plain,
        })
        .collect();
    (published, drafts)
}

/// A PAN text-alignment corpus: every source document (`src/*.txt`) published, and every
/// `every`-th suspicious document named in the corpus's folders of pairs (sorted by name) a
/// draft, grouped by the first folder naming it.
///
/// Errors: not a PAN corpus, or an unreadable file.
pub fn pan(root: &Path, every: usize) -> Result<(Vec<Text>, Vec<Text>)> {
    let corpus = crate::pan::Corpus::open(root, &[], None)?;
    let mut first: BTreeMap<&str, &str> = BTreeMap::new();
    for f in &corpus.folders {
        for (susp, _) in &f.pairs {
            first.entry(susp.as_str()).or_insert(f.name.as_str());
        }
    }
    let published = read_folder(&root.join("src"), "txt", "", Format::Plain)?;
    let drafts = first
        .into_iter()
        .step_by(every.max(1))
        .map(|(susp, folder)| {
            Ok(Text {
                name: susp.to_owned(),
                group: folder.to_owned(),
                text: crate::read_text(&root.join("susp").join(susp))?,
                format: Format::Plain,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((published, drafts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(sources: &[&str], u: f64, o: f64) -> Outcome {
        Outcome {
            sources: sources.iter().map(|s| s.to_string()).collect(),
            uniqueness: u,
            originality: o,
            ..Outcome::default()
        }
    }

    #[test]
    fn agreement_needs_the_same_sources_and_figures_within_half_a_point_of_each_other() {
        let a = outcome(&["x"], 50.0, 40.0);
        assert!(agree(&[&a, &outcome(&["x"], 50.5, 39.5), &a]));
        assert!(!agree(&[&a, &outcome(&["x"], 50.6, 40.0), &a]));
        assert!(!agree(&[&a, &outcome(&["x", "y"], 50.0, 40.0), &a]));
        // 0.4 above and 0.4 below the first: 0.8 apart.
        assert!(!agree(&[
            &a,
            &outcome(&["x"], 50.4, 40.0),
            &outcome(&["x"], 49.6, 40.0)
        ]));
        assert!(!agree(&[&a, &Outcome::failed("no".into()), &a]));
    }

    #[test]
    fn disagreements_are_classified_against_the_store() {
        let draft = Text {
            name: "d".into(),
            group: String::new(),
            text: String::new(),
            format: Format::Plain,
        };
        let r = DraftResult::new(
            &draft,
            vec![
                outcome(&["x", "y"], 50.0, 40.0),
                outcome(&["x"], 60.0, 50.0),
                outcome(&[], 100.0, 100.0),
                outcome(&["x"], 61.0, 50.0),
            ],
        );
        assert!(!r.agree && !r.agree_unbounded);
        assert_eq!(
            r.kinds,
            [
                "against: extra source",
                "packs: source missing",
                "packs-500: figure shift"
            ]
        );
    }

    /// Made-up prose: `words` words from a syllable alphabet, distinct for distinct seeds.
    fn prose(seed: u64, words: usize) -> String {
        const SYL: [&str; 10] = [
            "ka", "lo", "mi", "ren", "tas", "vo", "pel", "dri", "son", "gu",
        ];
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut out = String::new();
        for i in 0..words {
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                out.push_str(SYL[(state % 10) as usize]);
            }
            out.push_str(if i % 10 == 9 { ". " } else { " " });
        }
        out
    }

    fn plain(name: &str, text: String) -> Text {
        Text {
            name: name.to_owned(),
            group: String::new(),
            text,
            format: Format::Plain,
        }
    }

    #[test]
    fn a_source_left_out_by_the_browser_bound_is_told_from_one_missed_by_retrieval() {
        // 60 near-copies of one text (each with a sentence of its own): the browser's bound
        // (50 records) leaves 10 out, the engine's (500) none.
        let base = prose(1, 120);
        let published: Vec<Text> = (0..60)
            .map(|i| {
                plain(
                    &format!("copy-{i:02}"),
                    format!("{base} {}", prose(100 + i, 20)),
                )
            })
            .collect();
        let drafts = vec![plain("draft", base)];
        let s = run(
            "bound",
            &published,
            &drafts,
            &Params::default(),
            &CheckOptions::default(),
        )
        .unwrap();
        assert_eq!(s.published, 60);
        assert_eq!(s.groups.len(), 1);
        let all = &s.groups[0];
        assert_eq!((all.drafts, all.agree, all.agree_unbounded), (1, 0, 1));
        assert_eq!(
            s.kinds.keys().collect::<Vec<_>>(),
            ["packs: source missing"]
        );
        let d = &s.disagreements[0];
        assert_eq!(d.paths[DB].sources.len(), 60);
        assert_eq!(d.paths[AGAINST].sources, d.paths[DB].sources);
        assert_eq!(d.paths[PACKS_UNBOUNDED].sources, d.paths[DB].sources);
        assert_eq!(d.paths[PACKS].sources.len(), 50);
        assert!(d.paths[PACKS].capped && d.paths[PACKS].unchecked == 10);
    }
}
