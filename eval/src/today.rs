//! Rewrites as copywriters make them today (issue 34): the tuning set of `eval/data/today/`
//! checked on every path.
//!
//! The set: per language (`en/`, `ru/`), numbered cases, each a source passage referenced by
//! `source.tsv` (corpus, file, code-point range, SHA-256: the passage is read from
//! `../shared/data`, never copied into the repository) and five drafts written from it
//! ([`KINDS`]): a light human rewrite, a full paraphrase in a language model's manner, a summary
//! of about a third, a translation into the other language, and an independent text on the same
//! topic (the hard negative). How it was made: `eval/data/today/{en,ru}/NOTES.md`.
//!
//! [`run`] publishes every case's passage (named `today/<lang>/<case>`) among a background of
//! every PAN 2013 training source document and every factRuEval-2016 text except the files
//! the passages were taken from (about 3,400 texts, English and Russian, as the held-out
//! measure indexes its sources among about 3,200), builds the three backends of
//! [`crate::parity`] and checks every draft on every path; and hands each draft and its passage
//! to [`uniqcheck::compare()`] (the source handed over). A draft's source is **found** on a path
//! when that path's report names its passage; for an independent text that is a false flag.
//! A comparison **marks** a draft when it shows any fragment or rewrite.
//!
//! Guarantees: a passage whose file is missing or whose text does not hash to the recorded
//! SHA-256 is an error naming the case (the figures would be of other text); the same set and
//! data give the same figures.

use crate::parity::{read_folder, Backends, Text, AGAINST, DB, PACKS, PACKS_UNBOUNDED};
use crate::{EvalError, Result};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use uniqcheck::{CheckOptions, Format, Params};

/// The drafts of a case, by file name without `.txt`.
pub const KINDS: [&str; 5] = [
    "light",
    "paraphrase",
    "summary",
    "translation",
    "independent",
];

/// Originality under this many per cent flags a draft (issue 34's measure for independent texts).
pub const FLAGGED_UNDER: f64 = 90.0;

/// The kind whose finding is a false flag.
pub const INDEPENDENT: &str = "independent";

/// One case of the set: a source passage and the drafts written from it.
#[derive(Debug, Clone)]
pub struct Case {
    /// `en/01`, `ru/17`: the language of the passage and the case's number.
    pub name: String,
    /// The passage's language (`en` or `ru`).
    pub lang: String,
    /// `corpus/file` under the data folder that the passage was taken from.
    pub file: String,
    /// The passage.
    pub passage: String,
    /// `(kind, text)` for each kind of [`KINDS`] the case has.
    pub drafts: Vec<(String, String)>,
}

/// Reads the set at `set` (`en/NN/`, `ru/NN/`), each passage from `data` (`../shared/data`).
///
/// Errors: an unreadable file, a malformed `source.tsv`, a passage that does not hash to its
/// recorded SHA-256, or no case at all.
pub fn load(set: &Path, data: &Path) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for lang in ["en", "ru"] {
        let dir = set.join(lang);
        if !dir.is_dir() {
            continue;
        }
        let numbers = crate::sorted_paths(&dir, |p| p.join("source.tsv").is_file())?;
        for case_dir in numbers {
            let number = case_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = format!("{lang}/{number}");
            let (file, passage) = passage(&case_dir.join("source.tsv"), data, &name)?;
            let mut drafts = Vec::new();
            for kind in KINDS {
                let path = case_dir.join(format!("{kind}.txt"));
                if path.is_file() {
                    drafts.push((kind.to_owned(), crate::read_text(&path)?));
                }
            }
            cases.push(Case {
                name,
                lang: lang.to_owned(),
                file,
                passage,
                drafts,
            });
        }
    }
    if cases.is_empty() {
        return Err(EvalError::NoDrafts {
            dir: set.to_owned(),
        });
    }
    Ok(cases)
}

/// The passage `source.tsv` names (`corpus, file, start, end, sha256`: code points of the
/// file's text), checked against its hash; with `corpus/file`.
fn passage(tsv: &Path, data: &Path, case: &str) -> Result<(String, String)> {
    let bad = |why: String| EvalError::TuningSet {
        path: tsv.to_owned(),
        why,
    };
    let line = crate::read_text(tsv)?;
    let cols: Vec<&str> = line.trim_end().split('\t').collect();
    let [corpus, file, start, end, sha] = cols[..] else {
        return Err(bad(format!(
            "{} columns, not 5 (corpus, file, start, end, sha256)",
            cols.len()
        )));
    };
    let (start, end): (usize, usize) = match (start.parse(), end.parse()) {
        (Ok(s), Ok(e)) if s < e => (s, e),
        _ => return Err(bad(format!("not a range of code points: {start}..{end}"))),
    };
    let path = data.join(corpus).join(file);
    let text = crate::read_text(&path)?;
    let passage: String = text.chars().skip(start).take(end - start).collect();
    let got = sha256_hex(&passage);
    if got != sha {
        return Err(bad(format!(
            "case {case}: {}[{start}..{end}] hashes to {got}, not {sha} (another version of the data?)",
            path.display()
        )));
    }
    Ok((format!("{corpus}/{file}"), passage))
}

/// The SHA-256 of `text`'s UTF-8 bytes, in lowercase hex, as `source.tsv` records it.
fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The background corpus: every PAN 2013 training source document and every factRuEval-2016
/// text under `data`, except the files in `skip` (`corpus/file`, as [`Case::file`]), each named
/// by its `corpus/file`.
///
/// Errors: a folder or file that cannot be read.
pub fn background(data: &Path, skip: &BTreeSet<String>) -> Result<Vec<Text>> {
    let mut out = Vec::new();
    for (corpus, folder) in [
        ("pan13-train", "src"),
        ("ru/factRuEval-2016", "devset"),
        ("ru/factRuEval-2016", "testset"),
    ] {
        let texts = read_folder(
            &data.join(corpus).join(folder),
            "txt",
            &format!("{corpus}/{folder}/"),
            Format::Plain,
        )?;
        out.extend(texts.into_iter().filter(|t| !skip.contains(&t.name)));
    }
    Ok(out)
}

/// One draft's answers.
#[derive(Debug, Clone, Serialize)]
pub struct DraftOutcome {
    /// `en/01/paraphrase`.
    pub draft: String,
    /// `en/paraphrase`: the passage's language and the kind.
    pub group: String,
    /// Whether each path of [`crate::parity::PATHS`] named the passage.
    pub found: [bool; 4],
    /// Each path's originality, per cent (100 when it failed).
    pub originality: [f64; 4],
    /// Each path's sources other than the passage.
    pub others: [usize; 4],
    /// The comparison with the passage handed over marks something.
    pub compare_marked: bool,
    /// Its originality, per cent.
    pub compare_originality: f64,
}

/// The figures of one group (`<lang>/<kind>`, or `all/<kind>`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct GroupFigures {
    /// The group's name.
    pub name: String,
    /// Drafts.
    pub drafts: usize,
    /// Drafts whose passage each path of [`crate::parity::PATHS`] named.
    pub found: [usize; 4],
    /// Mean originality on `db`, per cent.
    pub db_originality: f64,
    /// Drafts whose originality on `db` is under [`FLAGGED_UNDER`] per cent (the measure
    /// of an independent text flagged).
    pub db_under_90: usize,
    /// Drafts the comparison with the passage marks.
    pub compare_marked: usize,
    /// Mean originality of those comparisons, per cent.
    pub compare_originality: f64,
}

/// The set's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Cases.
    pub cases: usize,
    /// Texts published (passages and background).
    pub published: usize,
    /// Per `all/<kind>` (every language), then per `<lang>/<kind>`.
    pub groups: Vec<GroupFigures>,
    /// Every draft.
    pub drafts: Vec<DraftOutcome>,
    /// Seconds spent building the backends.
    pub build_seconds: BTreeMap<String, f64>,
}

/// The passage's name as published.
fn published_name(case: &Case) -> String {
    format!("today/{}", case.name)
}

/// Publishes the passages of `cases` among `background`, and checks every draft on every path
/// and against its own passage, with `params` and `opts`.
///
/// Errors: the backends could not be built.
pub fn run(
    cases: &[Case],
    background: Vec<Text>,
    params: &Params,
    opts: &CheckOptions,
) -> Result<Summary> {
    let mut published = background;
    published.extend(cases.iter().map(|c| Text {
        name: published_name(c),
        group: String::new(),
        text: c.passage.clone(),
        format: Format::Plain,
    }));
    let backends = Backends::build(&published, params, opts)?;
    let mut drafts = Vec::new();
    let mut owners = Vec::new();
    for c in cases {
        for (kind, text) in &c.drafts {
            drafts.push(Text {
                name: format!("{}/{kind}", c.name),
                group: format!("{}/{kind}", c.lang),
                text: text.clone(),
                format: Format::Plain,
            });
            owners.push(c);
        }
    }
    let checked = backends.check(&drafts);
    let compared: Vec<(bool, f64)> = drafts
        .par_iter()
        .zip(&owners)
        .map(|(d, c)| {
            match uniqcheck::compare(
                &d.text,
                Format::Plain,
                &c.passage,
                Format::Plain,
                params,
                opts,
            ) {
                Ok(cmp) => (
                    !cmp.fragments.is_empty()
                        || !cmp.rewrites.is_empty()
                        || !cmp.translations.is_empty(),
                    cmp.originality,
                ),
                Err(_) => (false, 100.0),
            }
        })
        .collect();
    let mut outcomes = Vec::new();
    for (((d, c), (result, _)), (marked, compare_originality)) in
        drafts.iter().zip(&owners).zip(checked).zip(compared)
    {
        let want = published_name(c);
        let mut found = [false; 4];
        let mut originality = [100.0; 4];
        let mut others = [0; 4];
        for (i, o) in result.paths.iter().enumerate() {
            if o.error.is_some() {
                continue;
            }
            found[i] = o.sources.contains(&want);
            originality[i] = o.originality;
            others[i] = o.sources.iter().filter(|s| **s != want).count();
        }
        outcomes.push(DraftOutcome {
            draft: d.name.clone(),
            group: d.group.clone(),
            found,
            originality,
            others,
            compare_marked: marked,
            compare_originality,
        });
    }
    let mut groups: BTreeMap<String, GroupFigures> = BTreeMap::new();
    for o in &outcomes {
        let kind = o.group.rsplit('/').next().unwrap_or_default();
        for name in [format!("all/{kind}"), o.group.clone()] {
            let g = groups.entry(name.clone()).or_insert_with(|| GroupFigures {
                name,
                ..GroupFigures::default()
            });
            g.drafts += 1;
            for i in [AGAINST, DB, PACKS, PACKS_UNBOUNDED] {
                g.found[i] += usize::from(o.found[i]);
            }
            g.db_originality += o.originality[DB];
            g.db_under_90 += usize::from(o.originality[DB] < FLAGGED_UNDER);
            g.compare_marked += usize::from(o.compare_marked);
            g.compare_originality += o.compare_originality;
        }
    }
    let order = |name: &str| {
        let (lang, kind) = name.split_once('/').unwrap_or((name, ""));
        let k = KINDS.iter().position(|&x| x == kind).unwrap_or(KINDS.len());
        (lang != "all", lang.to_owned(), k)
    };
    let mut groups: Vec<GroupFigures> = groups
        .into_values()
        .map(|mut g| {
            let n = g.drafts.max(1) as f64;
            g.db_originality /= n;
            g.compare_originality /= n;
            g
        })
        .collect();
    groups.sort_by_key(|g| order(&g.name));
    Ok(Summary {
        cases: cases.len(),
        published: backends.published(),
        groups,
        drafts: outcomes,
        build_seconds: backends.build_seconds.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A data folder with one file, and a set with one case taking `range` of it recorded with
    /// `sha`.
    fn set_of(text: &str, range: &str, sha: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        std::fs::create_dir_all(data.join("c")).unwrap();
        std::fs::write(data.join("c/f.txt"), text).unwrap();
        let case = tmp.path().join("set/ru/01");
        std::fs::create_dir_all(&case).unwrap();
        let (start, end) = range.split_once("..").unwrap();
        std::fs::write(
            case.join("source.tsv"),
            format!("c\tf.txt\t{start}\t{end}\t{sha}\n"),
        )
        .unwrap();
        std::fs::write(case.join("paraphrase.txt"), "Пересказ.").unwrap();
        let set = tmp.path().join("set");
        (tmp, set, data)
    }

    #[test]
    fn a_passage_is_taken_by_code_points_and_checked_against_its_hash() {
        let text = "Ёлка. Мороз и солнце; день чудесный.";
        let want = "Мороз и солнце";
        let (_tmp, set, data) = set_of(text, "6..20", &sha256_hex(want));
        let cases = load(&set, &data).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "ru/01");
        assert_eq!(cases[0].file, "c/f.txt");
        assert_eq!(cases[0].passage, want);
        assert_eq!(
            cases[0].drafts,
            vec![("paraphrase".to_owned(), "Пересказ.".to_owned())]
        );
    }

    #[test]
    fn a_passage_of_other_text_is_refused_naming_the_case() {
        let text = "Ёлка. Мороз и солнце; день чудесный.";
        let (_tmp, set, data) = set_of(text, "6..20", &sha256_hex("Мороз и солнце!"));
        let err = load(&set, &data).unwrap_err().to_string();
        assert!(
            err.contains("case ru/01") && err.contains("hashes to"),
            "{err}"
        );
        let (_tmp, set, data) = set_of(text, "20..6", &sha256_hex(""));
        let err = load(&set, &data).unwrap_err().to_string();
        assert!(err.contains("not a range"), "{err}");
    }
}
