//! The near-duplicate methods ([`uniqcheck::methods`]) side by side on the same labelled pairs:
//! ROC AUC of each method's similarity, its precision and recall at its default threshold, and how
//! many documents per second it signs (`uniqcheck eval methods`, docs/EVALUATION.md).
//!
//! Three datasets, each a set of texts and labelled pairs of them:
//! - [`pan`]: PAN 2013 text-alignment training pairs: a pair from a plagiarism folder (copied,
//!   randomly obfuscated, translated, summarized passages) is a duplicate, one from
//!   `01-no-plagiarism` is not;
//! - [`newsgroups`]: 20 Newsgroups posts and near-duplicates made by the store benchmark's
//!   perturbation (store/benches/newsgroups/mod.rs: sentences shuffled, 10 % of words dropped,
//!   5 % replaced by another word of the post; the edit actually made is measured and reported);
//!   the duplicate pairs are (post, its perturbed copy), the others (a post, the perturbed copy of
//!   another post of the same newsgroup); and the same with a light edit ([`Edit::Light`]: one
//!   word in 20 replaced by another word of the post, nothing dropped or moved);
//! - [`paraphrases`]: ParaPhraser's Russian headline pairs, precise paraphrases (class 1) as
//!   duplicates against non-paraphrases (class −1); near paraphrases (0) are left out.
//!
//! Texts are analysed once with the engine's default parameters (canonical words and longest
//! words, in parallel); each method then signs every text and scores every pair, on one thread,
//! and "documents per second" is texts signed per second of that signing (plus, for `char-cosine`,
//! the normalization of the characters it reads, which no other method needs).

use crate::auc::auc;
use crate::measures::ratio;
use crate::{read_error, EvalError, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;
use uniqcheck::methods::{normalized, AnyMethod, Kind, Text};
use uniqcheck::{Format, Params};

/// The store benchmark's 20 Newsgroups corpus and perturbation, shared (by path) so that the
/// near-duplicates measured here are the ones benchmarked there.
#[allow(dead_code)]
#[path = "../../store/benches/newsgroups/mod.rs"]
mod ng;

/// Labelled pairs of texts.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Short name, as in the table.
    pub name: String,
    /// What the pairs are, in a line.
    pub about: String,
    /// The raw texts (plain text).
    pub raw: Vec<String>,
    /// The texts as the methods read them, without characters ([`Dataset::raw`] has them).
    pub texts: Vec<Text>,
    /// (text, text, duplicate?).
    pub pairs: Vec<(usize, usize, bool)>,
}

impl Dataset {
    /// Analyses `raw` (skipping nothing: a text without words is an empty [`Text`]).
    fn new(name: &str, about: String, raw: Vec<String>, pairs: Vec<(usize, usize, bool)>) -> Self {
        let params = Params::default();
        let texts = raw
            .par_iter()
            .map(|t| {
                uniqcheck::Document::analyze(t, Format::Plain, &params, 64 << 20)
                    .map(|d| Text::from_document(&d, None))
                    .unwrap_or_default()
            })
            .collect();
        Dataset {
            name: name.to_owned(),
            about,
            raw,
            texts,
            pairs,
        }
    }

    /// Duplicate pairs.
    pub fn positives(&self) -> usize {
        self.pairs.iter().filter(|p| p.2).count()
    }
}

/// PAN 2013 training pairs under `root`: plagiarism folders are duplicates, `01-no-plagiarism`
/// is not; at most `limit` pairs per folder.
///
/// Errors: not a PAN corpus, an unreadable document.
pub fn pan(root: &Path, limit: Option<usize>) -> Result<Dataset> {
    let corpus = crate::pan::Corpus::open(root, &[], limit)?;
    let mut ids: std::collections::HashMap<String, usize> = Default::default();
    let mut raw = Vec::new();
    let mut pairs = Vec::new();
    let mut id_of = |path: std::path::PathBuf, raw: &mut Vec<String>| -> Result<usize> {
        let key = path.display().to_string();
        if let Some(&i) = ids.get(&key) {
            return Ok(i);
        }
        raw.push(crate::read_text(&path)?);
        ids.insert(key, raw.len() - 1);
        Ok(raw.len() - 1)
    };
    for folder in &corpus.folders {
        let duplicate = folder.name != crate::pan::NO_PLAGIARISM;
        for (susp, src) in &folder.pairs {
            let a = id_of(root.join("susp").join(susp), &mut raw)?;
            let b = id_of(root.join("src").join(src), &mut raw)?;
            pairs.push((a, b, duplicate));
        }
    }
    let about = format!(
        "PAN 2013 training pairs ({}): plagiarism folders as duplicates, 01-no-plagiarism as not",
        root.display()
    );
    Ok(Dataset::new("PAN 2013", about, raw, pairs))
}

/// How the 20 Newsgroups near-duplicates are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The store benchmark's perturbation: sentences (and lines) shuffled, 10 % of words dropped,
    /// 5 % replaced by another word of the post.
    Benchmark,
    /// One word in 20 (at random, fixed seed) replaced by another word of the post.
    Light,
}

/// `text` with about one word in 20 replaced by another of its words (whitespace kept as one
/// space, lines kept).
fn light_edit(text: &str, rng: &mut ng::Rng) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        for w in line.split_whitespace() {
            out.push_str(if rng.below(20) == 0 {
                words[rng.below(words.len())]
            } else {
                w
            });
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

/// 20 Newsgroups near-duplicates from the first `posts` posts (in the store benchmark's shuffled
/// order) under `dir`, made by `edit`, and the measured edit: the mean share of a post's words (as
/// split by whitespace, counted with repeats) missing from its copy.
///
/// Errors: no posts under `dir`.
pub fn newsgroups(dir: &Path, posts: usize, edit: Edit) -> Result<(Dataset, f64)> {
    let all = ng::posts(dir);
    if all.len() < 2 {
        return Err(EvalError::NoPosts {
            dir: dir.to_owned(),
        });
    }
    let posts = &all[..posts.min(all.len())];
    let n = posts.len();
    let mut raw: Vec<String> = match edit {
        // documents(): round 0 is the posts themselves, round 1 one perturbed copy of each.
        Edit::Benchmark => ng::documents(posts, 2 * n).map(|(_, _, t)| t).collect(),
        Edit::Light => {
            let mut rng = ng::Rng(0x0001_16E7_ED17);
            let copies: Vec<String> = posts.iter().map(|p| light_edit(&p.1, &mut rng)).collect();
            posts.iter().map(|p| p.1.clone()).chain(copies).collect()
        }
    };
    let group = |i: usize| posts[i].0.split('/').next().unwrap_or("").to_owned();
    let mut pairs = Vec::with_capacity(2 * n);
    for i in 0..n {
        pairs.push((i, n + i, true));
        // Another post of the same newsgroup (the next one in the shuffled order), perturbed.
        if let Some(j) = (1..n).map(|d| (i + d) % n).find(|&j| group(j) == group(i)) {
            pairs.push((j, n + i, false));
        }
    }
    let missing: f64 = (0..n)
        .map(|i| missing_share(&raw[i], &raw[n + i]))
        .sum::<f64>()
        / n as f64;
    for t in &mut raw {
        t.shrink_to_fit();
    }
    let (name, how) = match edit {
        Edit::Benchmark => (
            "20 Newsgroups, perturbed",
            "the store benchmark's perturbation (lines shuffled, 10 % of words dropped, 5 % replaced)",
        ),
        Edit::Light => (
            "20 Newsgroups, light edit",
            "a light edit (one word in 20 replaced by another word of the post)",
        ),
    };
    let about = format!(
        "20 Newsgroups ({}), first {n} posts of the shuffled order, each copied with {how}: \
         post vs its copy (duplicate) and vs another post's copy from the same newsgroup (not)",
        dir.display()
    );
    Ok((Dataset::new(name, about, raw, pairs), missing))
}

/// The share of `a`'s whitespace-separated words (with repeats) that `b` lacks.
fn missing_share(a: &str, b: &str) -> f64 {
    let mut left: std::collections::HashMap<&str, i64> = Default::default();
    for w in b.split_whitespace() {
        *left.entry(w).or_default() += 1;
    }
    let (mut total, mut missing) = (0usize, 0usize);
    for w in a.split_whitespace() {
        total += 1;
        match left.get_mut(w) {
            Some(c) if *c > 0 => *c -= 1,
            _ => missing += 1,
        }
    }
    if total == 0 {
        0.0
    } else {
        missing as f64 / total as f64
    }
}

/// ParaPhraser's pairs in `file`: class 1 as duplicates, class −1 as not.
///
/// Errors: unreadable, not ParaPhraser's TSV.
pub fn paraphrases(file: &Path) -> Result<Dataset> {
    let text = std::fs::read_to_string(file).map_err(read_error(file))?;
    let all = crate::ru::read_paraphrases(&text).map_err(|source| EvalError::NotParaPhraser {
        path: file.to_owned(),
        source: Box::new(source),
    })?;
    let mut raw = Vec::new();
    let mut pairs = Vec::new();
    for p in all.into_iter().filter(|p| p.class != 0) {
        raw.push(p.a);
        raw.push(p.b);
        pairs.push((raw.len() - 2, raw.len() - 1, p.class == 1));
    }
    let about = format!(
        "ParaPhraser ({}): precise paraphrases (class 1) as duplicates, non-paraphrases (-1) as not",
        file.display()
    );
    Ok(Dataset::new("ParaPhraser", about, raw, pairs))
}

/// One method on one dataset.
#[derive(Debug, Clone, Serialize)]
pub struct MethodScores {
    /// The method.
    pub method: Kind,
    /// The dataset's name.
    pub dataset: String,
    /// Pairs scored, and how many are duplicates.
    pub pairs: usize,
    /// Duplicate pairs.
    pub positives: usize,
    /// ROC AUC of the similarity, duplicates against the rest (`None`: a class is empty).
    pub auc: Option<f64>,
    /// The method's default threshold.
    pub threshold: f64,
    /// Precision of "duplicate" at the threshold (`None`: nothing called a duplicate).
    pub precision: Option<f64>,
    /// Recall of the duplicates at the threshold.
    pub recall: Option<f64>,
    /// Mean similarity of duplicate pairs and of the others.
    pub mean_similarity: [f64; 2],
    /// Texts signed per second, one thread.
    pub docs_per_second: f64,
}

/// Scores `kind` on `data`.
pub fn score(data: &Dataset, kind: Kind) -> MethodScores {
    let m = AnyMethod::new(kind, &Params::default());
    let started = Instant::now();
    let sigs: Vec<_> = data
        .texts
        .iter()
        .zip(&data.raw)
        .map(|(t, raw)| {
            if kind.needs_characters() {
                let with_chars = Text {
                    chars: Some(normalized(raw, Format::Plain)),
                    ..t.clone()
                };
                m.signature(&with_chars)
            } else {
                m.signature(t)
            }
        })
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    let (mut tp, mut fp) = (0usize, 0usize);
    for &(a, b, dup) in &data.pairs {
        let v = m.verdict(m.similarity(&sigs[a], &sigs[b]));
        if dup {
            pos.push(v.similarity);
            tp += usize::from(v.duplicate);
        } else {
            neg.push(v.similarity);
            fp += usize::from(v.duplicate);
        }
    }
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    MethodScores {
        method: kind,
        dataset: data.name.clone(),
        pairs: data.pairs.len(),
        positives: pos.len(),
        auc: auc(&pos, &neg),
        threshold: m.threshold(),
        precision: ratio(tp, tp + fp),
        recall: ratio(tp, pos.len()),
        mean_similarity: [mean(&pos), mean(&neg)],
        docs_per_second: data.texts.len() as f64 / seconds.max(1e-9),
    }
}

/// One pair in a threshold study: two methods' similarities, and its label when it has one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StudyPoint {
    /// The first method's similarity.
    pub x: f64,
    /// The second method's similarity.
    pub y: f64,
    /// `Some(true)` for a labelled duplicate, `Some(false)` for a labelled non-duplicate, `None`
    /// for a randomly sampled pair.
    pub duplicate: Option<bool>,
}

/// The threshold study's pairs (`uniqcheck study`): every labelled pair of `data`, plus `random`
/// pairs of distinct texts drawn with a fixed seed (most of them unrelated: the mass that a
/// threshold must stay clear of), each scored by methods `x` and `y`.
pub fn study(data: &Dataset, x: Kind, y: Kind, random: usize) -> Vec<StudyPoint> {
    let params = Params::default();
    let (mx, my) = (AnyMethod::new(x, &params), AnyMethod::new(y, &params));
    let with_chars = |i: usize| {
        if x.needs_characters() || y.needs_characters() {
            Text {
                chars: Some(normalized(&data.raw[i], Format::Plain)),
                ..data.texts[i].clone()
            }
        } else {
            data.texts[i].clone()
        }
    };
    let sigs: Vec<_> = (0..data.texts.len())
        .into_par_iter()
        .map(|i| {
            let t = with_chars(i);
            (mx.signature(&t), my.signature(&t))
        })
        .collect();
    let mut pairs: Vec<(usize, usize, Option<bool>)> = data
        .pairs
        .iter()
        .map(|&(a, b, d)| (a, b, Some(d)))
        .collect();
    let n = data.texts.len();
    if n >= 2 {
        let mut rng = ng::Rng(0x0570_D1E5);
        for _ in 0..random {
            let a = rng.below(n);
            let b = (a + 1 + rng.below(n - 1)) % n;
            pairs.push((a, b, None));
        }
    }
    pairs
        .par_iter()
        .map(|&(a, b, duplicate)| StudyPoint {
            x: mx.similarity(&sigs[a].0, &sigs[b].0),
            y: my.similarity(&sigs[a].1, &sigs[b].1),
            duplicate,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_share_counts_repeats() {
        assert_eq!(missing_share("a b b c", "b a"), 0.5);
        assert_eq!(missing_share("", "x"), 0.0);
    }

    #[test]
    fn a_perfect_method_scores_one_and_a_blind_one_a_half() {
        let raw: Vec<String> = [
            "The quick brown fox jumps over the lazy dog near the river bank today.",
            "The quick brown fox jumps over the lazy dog near the river bank today!",
            "Completely different words about gardening tomatoes and cucumbers in spring.",
        ]
        .map(String::from)
        .to_vec();
        let data = Dataset::new("t", String::new(), raw, vec![(0, 1, true), (0, 2, false)]);
        let s = score(&data, Kind::Shingles);
        assert_eq!(
            (s.auc, s.precision, s.recall),
            (Some(1.0), Some(1.0), Some(1.0))
        );
        assert_eq!(s.positives, 1);
        let blind = Dataset {
            texts: vec![Text::default(); 3],
            ..data
        };
        assert_eq!(score(&blind, Kind::Shingles).auc, Some(0.5));
    }
}
