//! A PAN corpus checked with every content word mapped through a synonym table
//! ([`uniqcheck::synonyms`]), both documents of each pair alike: what synonym canonicalization
//! costs in false alarms and buys in recall. The same measures as [`crate::pan::run`] on the
//! detections; the path is `compare`'s after analysis ([`crate::rewrites::find`]).

use crate::pan::{in_chars, run_with, Corpus, PairResult};
use crate::rewrites::find;
use crate::Result;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{CheckOptions, Params};

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
    Ok(in_chars(susp, src, found.detections.into_iter()))
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
    run_with(corpus, |a, b| detect(a, b, params, opts, synonyms))
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
