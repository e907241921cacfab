//! A PAN corpus checked with every content word mapped through a synonym table
//! ([`uniqcheck::synonyms`]), both documents of each pair alike: what synonym canonicalization
//! costs in false alarms and buys in recall. The same measures as [`crate::pan::run`] on the
//! detections; the path is `compare`'s after analysis ([`crate::rewrites::find`]).

use crate::measures::Annotation;
use crate::pan::{parse_xml, xml_name, Corpus, PairResult};
use crate::rewrites::find;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::path::Path;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{CheckOptions, OffsetConverter, Params, Unit};

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// The detections between a suspicious text and a source text through `synonyms`, in
/// characters, sorted and without duplicates.
///
/// Errors: the engine's (an empty or binary text).
pub fn detect(
    susp: &str,
    src: &str,
    params: &Params,
    opts: &CheckOptions,
    synonyms: &Synonyms,
) -> Result<Vec<[usize; 4]>, uniqcheck::Error> {
    let found = find(susp, src, params, opts, Some(synonyms))?;
    let (ca, cb) = (
        OffsetConverter::new(susp, Unit::Chars),
        OffsetConverter::new(src, Unit::Chars),
    );
    let mut out: Vec<[usize; 4]> = found
        .detections
        .iter()
        .map(|(d, s)| {
            let (t0, t1) = (ca.convert(d.start), ca.convert(d.end));
            let (s0, s1) = (cb.convert(s.start), cb.convert(s.end));
            [t0, t1 - t0, s0, s1 - s0]
        })
        .filter(|d| d[1] > 0 && d[3] > 0)
        .collect();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Checks every pair of `corpus` through `synonyms`, in parallel (rayon's current pool).
///
/// Errors: an unreadable document or ground-truth file.
pub fn run_pan(
    corpus: &Corpus,
    params: &Params,
    opts: &CheckOptions,
    synonyms: &Synonyms,
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
                parse_xml(&xml, "plagiarism")
                    .with_context(|| format!("{}: bad ground truth", xml_path.display()))?
            } else {
                Vec::new()
            };
            let a = read_text(&corpus.root.join("susp").join(susp))?;
            let b = read_text(&corpus.root.join("src").join(src))?;
            let (detections, error) = match detect(&a, &b, params, opts, synonyms) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_table_changes_nothing() {
        let copied = "the old farmer counts his sheep every morning while the mist slowly lifts \
            over the green hills and the river shines below the ancient stone bridge of the village";
        let src =
            format!("An old fable begins like this: {copied}. Nobody remembers who wrote it.");
        let susp = format!("Yesterday I wrote the following lines: {copied}. Then I went home.");
        let opts = CheckOptions {
            short_threshold: 0,
            ..Default::default()
        };
        let p = Params::default();
        let c = uniqcheck::compare(
            &susp,
            uniqcheck::Format::Plain,
            &src,
            uniqcheck::Format::Plain,
            &p,
            &opts,
        )
        .unwrap();
        let mapped = detect(&susp, &src, &p, &opts, &Synonyms::default()).unwrap();
        let chars = |t: &str, b: usize| t[..b].chars().count();
        let plain: Vec<[usize; 4]> = c
            .detections
            .iter()
            .map(|d| {
                let s = d.source.unwrap();
                let (t0, t1) = (chars(&susp, d.draft[0]), chars(&susp, d.draft[1]));
                let (s0, s1) = (chars(&src, s[0]), chars(&src, s[1]));
                [t0, t1 - t0, s0, s1 - s0]
            })
            .collect();
        assert_eq!(plain, mapped);
        assert_eq!(mapped.len(), 1);
    }
}
