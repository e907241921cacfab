//! A PAN text-alignment corpus: its layout, its ground truth, and the engine run over it.
//!
//! Layout (as PAN 2013 training ships it): `src/` and `susp/` hold the documents; every folder
//! that has a `pairs` file (lines `suspicious-documentX.txt source-documentY.txt`) is one kind of
//! obfuscation, with one ground-truth XML per pair, `suspicious-documentX-source-documentY.xml`:
//! `<document reference="suspicious-documentX.txt">` and a `<feature name="plagiarism"
//! this_offset this_length source_reference source_offset source_length/>` per case. Offsets
//! count Unicode characters.
//!
//! Each pair is checked with [`uniqcheck::compare()`] (suspicious = A, source = B); every fragment
//! is one detection, its byte spans converted to characters.

use super::measures::{Annotation, Scores};
use crate::read_text;
use crate::{read_error, EvalError, Result, XmlError};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use uniqcheck::{compare, CheckOptions, Format, OffsetConverter, PairSpan, Params, Unit};

/// The folder of pairs without plagiarism: its flagged pairs are false alarms.
pub const NO_PLAGIARISM: &str = "01-no-plagiarism";

/// One folder of pairs.
#[derive(Debug, Clone)]
pub struct Folder {
    /// Folder name, e.g. `02-no-obfuscation`.
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// (suspicious, source) file names, in the `pairs` file's order.
    pub pairs: Vec<(String, String)>,
}

/// A PAN corpus on disk.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The corpus folder (holding `src/` and `susp/`).
    pub root: PathBuf,
    /// The obfuscation folders, by name.
    pub folders: Vec<Folder>,
}

fn parse_pairs(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_owned(), it.next()?.to_owned()))
        })
        .collect()
}

impl Corpus {
    /// Opens the corpus at `root`: the subfolders with a `pairs` file, sorted by name, only those
    /// named in `only` when it is not empty, at most `limit` pairs each.
    pub fn open(root: &Path, only: &[String], limit: Option<usize>) -> Result<Corpus> {
        for side in ["src", "susp"] {
            if !root.join(side).is_dir() {
                return Err(EvalError::NotPan {
                    root: root.to_owned(),
                    side,
                });
            }
        }
        let mut folders = Vec::new();
        let entries = std::fs::read_dir(root).map_err(read_error(root))?;
        for entry in entries {
            let path = entry.map_err(read_error(root))?.path();
            let pairs_file = path.join("pairs");
            if !pairs_file.is_file() {
                continue;
            }
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !only.is_empty() && !only.contains(&name) {
                continue;
            }
            let text = std::fs::read_to_string(&pairs_file).map_err(read_error(&pairs_file))?;
            let mut pairs = parse_pairs(&text);
            if let Some(limit) = limit {
                pairs.truncate(limit);
            }
            folders.push(Folder { name, path, pairs });
        }
        folders.sort_by(|a, b| a.name.cmp(&b.name));
        for wanted in only {
            if !folders.iter().any(|f| &f.name == wanted) {
                return Err(EvalError::NoSuchFolder {
                    root: root.to_owned(),
                    name: wanted.clone(),
                });
            }
        }
        if folders.is_empty() {
            return Err(EvalError::NoPairs {
                root: root.to_owned(),
            });
        }
        Ok(Corpus {
            root: root.to_owned(),
            folders,
        })
    }
}

/// The XML file name of a pair: `suspicious-documentX-source-documentY.xml`.
pub fn xml_name(susp: &str, src: &str) -> String {
    let stem = |s: &str| s.strip_suffix(".txt").unwrap_or(s).to_owned();
    format!("{}-{}.xml", stem(susp), stem(src))
}

fn unescape(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    value
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The attributes of the first `<tag …>` at or after `from`, and where it ends.
fn attributes(xml: &str, tag: &str, from: usize) -> Option<(Vec<(String, String)>, usize)> {
    let open = format!("<{tag}");
    let mut at = from;
    let start = loop {
        let i = at + xml[at..].find(&open)?;
        let next = xml[i + open.len()..].chars().next();
        if matches!(next, Some(c) if c.is_whitespace() || c == '/' || c == '>') {
            break i + open.len();
        }
        at = i + open.len();
    };
    let end = start + xml[start..].find('>')?;
    let body = &xml[start..end];
    let mut attrs = Vec::new();
    let mut rest = body;
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_owned();
        let after = rest[eq + 1..].trim_start();
        let quote = after.chars().next()?;
        if quote != '"' && quote != '\'' {
            return None;
        }
        let close = after[1..].find(quote)? + 1;
        attrs.push((name, unescape(&after[1..close])));
        rest = &after[close + 1..];
    }
    Some((attrs, end + 1))
}

fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The annotations named `name` (`plagiarism` for ground truth, `detected-plagiarism` for
/// detections) of one PAN XML document. Features without source attributes are skipped (this
/// evaluation is of external detection only).
///
/// Errors: no `<document reference=…>`, or a number that does not parse.
pub fn parse_xml(xml: &str, name: &str) -> Result<Vec<Annotation>, XmlError> {
    let (doc, mut at) = attributes(xml, "document", 0).ok_or(XmlError::NoDocument)?;
    let this_ref = attr(&doc, "reference")
        .ok_or(XmlError::NoReference)?
        .to_owned();
    let mut out = Vec::new();
    while let Some((attrs, end)) = attributes(xml, "feature", at) {
        at = end;
        if attr(&attrs, "name") != Some(name) {
            continue;
        }
        let num = |key: &str| -> Result<Option<usize>, XmlError> {
            attr(&attrs, key)
                .map(|v| {
                    v.trim()
                        .parse::<usize>()
                        .map_err(|source| XmlError::NotANumber {
                            key: key.to_owned(),
                            value: v.to_owned(),
                            source,
                        })
                })
                .transpose()
        };
        let (Some(toff), Some(tlen)) = (num("this_offset")?, num("this_length")?) else {
            continue;
        };
        let (Some(sref), Some(soff), Some(slen)) = (
            attr(&attrs, "source_reference"),
            num("source_offset")?,
            num("source_length")?,
        ) else {
            continue;
        };
        out.push(Annotation::new(&this_ref, sref, [toff, tlen, soff, slen]));
    }
    Ok(out)
}

/// Detections of one pair in PAN's XML format.
pub fn detections_xml(susp: &str, detections: &[Annotation]) -> String {
    let mut s = format!("<document reference=\"{}\">\n", escape(susp));
    for d in detections {
        let _ = writeln!(
            s,
            "<feature name=\"detected-plagiarism\" this_offset=\"{}\" this_length=\"{}\" \
             source_reference=\"{}\" source_offset=\"{}\" source_length=\"{}\" />",
            d.this_offset,
            d.this_length,
            escape(&d.source_ref),
            d.source_offset,
            d.source_length
        );
    }
    s.push_str("</document>\n");
    s
}

/// Which of the engine's answers is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// The detections: one per reused passage however reworded (what PAN scores).
    #[default]
    Detections,
    /// What a user sees: the highlighted copies (fragments) and rewrites, each with its source
    /// passage; copies and rewrites that overlap or touch (nothing but spaces and punctuation
    /// between them) joined into one, as a reader sees one marked stretch in two styles.
    Seen,
}

/// The engine's detections (or what a user sees, `view`) between a suspicious text and a source
/// text, in characters.
///
/// Errors: the engine's (an empty or binary text).
pub fn detect(
    susp: &str,
    src: &str,
    params: &Params,
    opts: &CheckOptions,
    view: View,
) -> Result<Vec<[usize; 4]>, uniqcheck::Error> {
    let c = compare(susp, Format::Plain, src, Format::Plain, params, opts)?;
    let spans: Vec<PairSpan> = match view {
        // PAN scores one detection per reused passage: the merged detections, not the highlight.
        View::Detections => c.detections,
        View::Seen => {
            // A copy whose source span meets no detection is the same draft text matched to
            // a passage the source repeats: the reader sees one marked stretch, attributed to
            // the detection's passage.
            let within = |p: &PairSpan| {
                let meet = |a: [usize; 2], b: [usize; 2]| a[0] < b[1] && b[0] < a[1];
                c.detections.iter().any(|d| {
                    meet(p.draft, d.draft)
                        && matches!((p.source, d.source), (Some(s), Some(t)) if meet(s, t))
                })
            };
            let mut pieces: Vec<PairSpan> = c
                .fragments
                .iter()
                .filter(|p| within(p))
                .cloned()
                .chain(c.rewrites)
                .collect();
            pieces.sort_by_key(|p| p.draft);
            let mut joined: Vec<PairSpan> = Vec::with_capacity(pieces.len());
            for p in pieces {
                match joined.last_mut() {
                    Some(last)
                        if p.draft[0] <= last.draft[1]
                            || !susp[last.draft[1]..p.draft[0]]
                                .chars()
                                .any(char::is_alphanumeric) =>
                    {
                        last.draft[1] = last.draft[1].max(p.draft[1]);
                        last.source = match (last.source, p.source) {
                            (Some(a), Some(b)) => Some([a[0].min(b[0]), a[1].max(b[1])]),
                            (a, b) => a.or(b),
                        };
                    }
                    _ => joined.push(p),
                }
            }
            joined
        }
    };
    Ok(in_chars(
        susp,
        src,
        spans
            .iter()
            .filter_map(|f| Some((f.draft[0]..f.draft[1], f.source.map(|s| s[0]..s[1])?))),
    ))
}

/// One detection's byte spans (draft `d` through `cd`, source `s` through `cs`) as PAN's
/// `[this_offset, this_length, source_offset, source_length]` in characters.
pub(crate) fn annotation_span(
    cd: &OffsetConverter<'_>,
    cs: &OffsetConverter<'_>,
    d: &Range<usize>,
    s: &Range<usize>,
) -> [usize; 4] {
    let (t0, t1) = (cd.convert(d.start), cd.convert(d.end));
    let (s0, s1) = (cs.convert(s.start), cs.convert(s.end));
    [t0, t1 - t0, s0, s1 - s0]
}

/// Detections (draft, source byte ranges) between `susp` and `src` in characters, sorted and
/// without duplicates; one empty on either side after conversion is not a detection.
pub(crate) fn in_chars(
    susp: &str,
    src: &str,
    spans: impl Iterator<Item = (Range<usize>, Range<usize>)>,
) -> Vec<[usize; 4]> {
    let (ca, cb) = (
        OffsetConverter::new(susp, Unit::Chars),
        OffsetConverter::new(src, Unit::Chars),
    );
    let mut out: Vec<[usize; 4]> = spans
        .map(|(d, s)| annotation_span(&ca, &cb, &d, &s))
        .filter(|d| d[1] > 0 && d[3] > 0)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One pair, checked.
#[derive(Debug, Clone)]
pub struct PairResult {
    /// Index of its folder in [`Corpus::folders`].
    pub folder: usize,
    /// Suspicious document.
    pub susp: String,
    /// Source document.
    pub src: String,
    /// Ground-truth cases.
    pub cases: Vec<Annotation>,
    /// The engine's detections.
    pub detections: Vec<Annotation>,
    /// The engine refused a text (counted as no detection).
    pub error: Option<String>,
}

/// Checks every pair of `corpus` with [`detect`], in parallel (rayon's current pool).
///
/// Errors: an unreadable document or ground-truth file.
pub fn run(
    corpus: &Corpus,
    params: &Params,
    opts: &CheckOptions,
    view: View,
) -> Result<Vec<PairResult>> {
    run_with(corpus, |a, b| detect(a, b, params, opts, view))
}

/// Checks every pair of `corpus` with `detect` (suspicious text, source text: detections in
/// characters), in parallel (rayon's current pool); a text `detect` refuses is a pair without
/// detections, with its error.
///
/// Errors: an unreadable document or ground-truth file.
pub(crate) fn run_with(
    corpus: &Corpus,
    detect: impl Fn(&str, &str) -> Result<Vec<[usize; 4]>, uniqcheck::Error> + Sync,
) -> Result<Vec<PairResult>> {
    let jobs: Vec<(usize, &str, &str)> = corpus
        .folders
        .iter()
        .enumerate()
        .flat_map(|(i, f)| {
            f.pairs
                .iter()
                .map(move |(a, b)| (i, a.as_str(), b.as_str()))
        })
        .collect();
    jobs.par_iter()
        .map(|&(fi, susp, src)| {
            let folder = &corpus.folders[fi];
            let xml_path = folder.path.join(xml_name(susp, src));
            let cases = if xml_path.is_file() {
                let xml = read_text(&xml_path)?;
                parse_xml(&xml, "plagiarism").map_err(|source| EvalError::GroundTruth {
                    path: xml_path.clone(),
                    source,
                })?
            } else {
                Vec::new()
            };
            let a = read_text(&corpus.root.join("susp").join(susp))?;
            let b = read_text(&corpus.root.join("src").join(src))?;
            let (detections, error) = match detect(&a, &b) {
                Ok(d) => (
                    d.into_iter()
                        .map(|d| Annotation::new(susp, src, d))
                        .collect(),
                    None,
                ),
                Err(e) => (Vec::new(), Some(e.to_string())),
            };
            Ok(PairResult {
                folder: fi,
                susp: susp.to_owned(),
                src: src.to_owned(),
                cases,
                detections,
                error,
            })
        })
        .collect()
}

/// The scores of one folder (or of all of them).
#[derive(Debug, Clone, Serialize)]
pub struct FolderScores {
    /// Folder name, or `overall`.
    pub name: String,
    /// Pairs checked.
    pub pairs: usize,
    /// Ground-truth cases.
    pub cases: usize,
    /// Detections made.
    pub detections: usize,
    /// Pairs with at least one detection.
    pub flagged_pairs: usize,
    /// Precision, recall, granularity, plagdet.
    #[serde(flatten)]
    pub scores: Scores,
}

/// False alarms: pairs of [`NO_PLAGIARISM`] with any detection.
#[derive(Debug, Clone, Serialize)]
pub struct FalseAlarms {
    /// Pairs without plagiarism checked.
    pub pairs: usize,
    /// Of which flagged.
    pub flagged: usize,
    /// `flagged / pairs`.
    pub share: f64,
}

/// Scores per folder, overall, and false alarms.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// One entry per folder, in corpus order.
    pub folders: Vec<FolderScores>,
    /// Every pair together.
    pub overall: FolderScores,
    /// When the no-plagiarism folder was checked.
    pub false_alarms: Option<FalseAlarms>,
    /// Pairs whose text the engine refused.
    pub errors: usize,
}

fn score(name: &str, results: &[&PairResult]) -> FolderScores {
    let cases: Vec<Annotation> = results.iter().flat_map(|r| r.cases.clone()).collect();
    let detections: Vec<Annotation> = results.iter().flat_map(|r| r.detections.clone()).collect();
    FolderScores {
        name: name.to_owned(),
        pairs: results.len(),
        cases: cases.len(),
        detections: detections.len(),
        flagged_pairs: results.iter().filter(|r| !r.detections.is_empty()).count(),
        scores: Scores::compute(&cases, &detections),
    }
}

/// Scores the results of [`run`].
pub fn summarize(corpus: &Corpus, results: &[PairResult]) -> Summary {
    let folders: Vec<FolderScores> = corpus
        .folders
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mine: Vec<&PairResult> = results.iter().filter(|r| r.folder == i).collect();
            score(&f.name, &mine)
        })
        .collect();
    let false_alarms = folders
        .iter()
        .find(|f| f.name == NO_PLAGIARISM)
        .map(|f| FalseAlarms {
            pairs: f.pairs,
            flagged: f.flagged_pairs,
            share: if f.pairs == 0 {
                0.0
            } else {
                f.flagged_pairs as f64 / f.pairs as f64
            },
        });
    let all: Vec<&PairResult> = results.iter().collect();
    Summary {
        folders,
        overall: score("overall", &all),
        false_alarms,
        errors: results.iter().filter(|r| r.error.is_some()).count(),
    }
}

/// Writes every pair's detections as PAN XML under `dir/<folder>/`, so that the official
/// scorer can be run as `-p <corpus>/<folder> -d <dir>/<folder>`.
///
/// Errors: a folder or file that cannot be written.
pub fn write_xml(dir: &Path, corpus: &Corpus, results: &[PairResult]) -> Result<()> {
    for f in &corpus.folders {
        let d = dir.join(&f.name);
        std::fs::create_dir_all(&d).map_err(|source| EvalError::Create {
            path: d.clone(),
            source,
        })?;
    }
    for r in results {
        let path = dir
            .join(&corpus.folders[r.folder].name)
            .join(xml_name(&r.susp, &r.src));
        std::fs::write(&path, detections_xml(&r.susp, &r.detections)).map_err(|source| {
            EvalError::Write {
                path: path.clone(),
                source,
            }
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ground_truth() {
        let xml = r#"<document reference="suspicious-document00005.txt">
<feature name="plagiarism" obfuscation="none" source_length="698" source_offset="1300" source_reference="source-document01090.txt" this_length="698" this_offset="3593" type="artificial" />
<feature name="about" authors="x"/>
<feature name='plagiarism' this_offset='1' this_length='2' source_reference='a&amp;b.txt' source_offset='3' source_length='4'/>
</document>"#;
        let a = parse_xml(xml, "plagiarism").unwrap();
        assert_eq!(
            a,
            vec![
                Annotation::new(
                    "suspicious-document00005.txt",
                    "source-document01090.txt",
                    [3593, 698, 1300, 698]
                ),
                Annotation::new("suspicious-document00005.txt", "a&b.txt", [1, 2, 3, 4]),
            ]
        );
        assert!(
            parse_xml("<document reference=\"x\">\n</document>", "plagiarism")
                .unwrap()
                .is_empty()
        );
        assert!(parse_xml("<feature name=\"plagiarism\"/>", "plagiarism").is_err());
        let bad = r#"<document reference="s"><feature name="plagiarism" this_offset="x" this_length="1" source_reference="r" source_offset="0" source_length="1"/></document>"#;
        assert!(parse_xml(bad, "plagiarism").is_err());
    }

    #[test]
    fn detections_round_trip_through_xml() {
        let dets = vec![
            Annotation::new("s.txt", "r.txt", [1, 2, 3, 4]),
            Annotation::new("s.txt", "r.txt", [10, 20, 30, 40]),
        ];
        let xml = detections_xml("s.txt", &dets);
        assert_eq!(parse_xml(&xml, "detected-plagiarism").unwrap(), dets);
        assert!(parse_xml(&xml, "plagiarism").unwrap().is_empty());
        assert_eq!(
            xml_name("suspicious-document00005.txt", "source-document01090.txt"),
            "suspicious-document00005-source-document01090.xml"
        );
    }

    #[test]
    fn detects_a_copy_in_characters() {
        let copied = "Winnowing selects fingerprints from hashes of k-grams, guaranteeing that any \
            match of a sufficiently long substring is detected, while keeping only a fraction of all \
            the hashes as the fingerprints of the document.";
        let susp = format!("Ünïcödé prefix wörds here. {copied} And then something else entirely.");
        let src = format!("Другой текст впереди. {copied}");
        let opts = CheckOptions {
            short_threshold: 0,
            ..Default::default()
        };
        let d = detect(&susp, &src, &Params::default(), &opts, View::Detections).unwrap();
        assert_eq!(d.len(), 1);
        let [t, tl, s, sl] = d[0];
        let chars = |x: &str, o: usize, l: usize| x.chars().skip(o).take(l).collect::<String>();
        // Spans run from the first to the last copied word (the final full stop is not a word).
        let words = copied.trim_end_matches('.');
        assert_eq!(chars(&susp, t, tl), words);
        assert_eq!(chars(&src, s, sl), words);
    }
}
