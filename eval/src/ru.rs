//! Russian: how well resemblance separates paraphrases from non-paraphrases (ParaPhraser), and how
//! many human simplifications of a sentence the checker still flags (RuSimpleSentEval).

use super::auc::auc;
use crate::rewrites::find;
use crate::{read_error, EvalError, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use uniqcheck::sketch::exact_similarity;
use uniqcheck::synonyms::Synonyms;
use uniqcheck::{compare, CheckOptions, Document, Format, Params};

/// Parses CSV (RFC 4180: quoted fields, `""` for a quote, line breaks inside quotes) into rows.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => quoted = true,
            ',' => row.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                any = false;
            }
            _ => field.push(c),
        }
    }
    if any {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A ParaPhraser pair of headlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paraphrase {
    /// 1 precise paraphrase, 0 near paraphrase, -1 not a paraphrase.
    pub class: i8,
    /// First headline.
    pub a: String,
    /// Second headline.
    pub b: String,
}

/// Reads ParaPhraser's TSV (a header naming `class`, `text_1`, `text_2`, then one pair a line).
///
/// Errors: a missing column.
pub fn read_paraphrases(text: &str) -> Result<Vec<Paraphrase>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &'static str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| EvalError::MissingColumn {
                name,
                header: header.iter().map(|h| (*h).to_owned()).collect(),
            })
    };
    let (ci, ai, bi) = (col("class")?, col("text_1")?, col("text_2")?);
    Ok(lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let class = f.get(ci)?.trim().parse::<i8>().ok()?;
            Some(Paraphrase {
                class,
                a: f.get(ai)?.to_string(),
                b: f.get(bi)?.to_string(),
            })
        })
        .collect())
}

/// How well each similarity separates precise paraphrases (class 1) from non-paraphrases (-1).
#[derive(Debug, Clone, Serialize)]
pub struct ParaphraseScores {
    /// Words per shingle.
    pub n: usize,
    /// Snowball stemming on.
    pub stemming: bool,
    /// Stop words dropped.
    pub stop_words: bool,
    /// Class-1 pairs.
    pub positives: usize,
    /// Class -1 pairs.
    pub negatives: usize,
    /// ROC AUC of shingle-set resemblance |A∩B| / |A∪B|.
    pub auc_resemblance: Option<f64>,
    /// ROC AUC of containment |A∩B| / |A| (A = text_1).
    pub auc_containment: Option<f64>,
    /// ROC AUC of the short-text method's longest-words similarity (independent of n).
    pub auc_short: Option<f64>,
    /// Mean resemblance of classes -1, 0, 1.
    pub mean_resemblance: [f64; 3],
    /// Pairs where both headlines yield no shingle (too few content words for n).
    pub no_shingles: usize,
}

/// Resemblance, containment of `a` in `b`, and short-text similarity; zeros when a text has no
/// content words. Both texts go through `synonyms` when given.
fn similarities(
    a: &str,
    b: &str,
    params: &Params,
    synonyms: Option<&Synonyms>,
) -> (f64, f64, f64, bool) {
    let analyze = |t: &str| {
        let d = Document::analyze(t, Format::Plain, params, 1 << 20).ok()?;
        Some(match synonyms {
            Some(s) => s.apply(d, params),
            None => d,
        })
    };
    let (Some(da), Some(db)) = (analyze(a), analyze(b)) else {
        return (0.0, 0.0, 0.0, true);
    };
    let (r, c) = exact_similarity(
        da.shingles.iter().map(|s| s.hash),
        db.shingles.iter().map(|s| s.hash),
    );
    let no_shingles = da.shingles.is_empty() && db.shingles.is_empty();
    (r, c, da.short.similarity(&db.short), no_shingles)
}

/// Scores `pairs` with shingles of `n` words.
pub fn paraphrase(
    pairs: &[Paraphrase],
    n: usize,
    stemming: bool,
    stop_words: bool,
) -> ParaphraseScores {
    paraphrase_with(pairs, n, stemming, stop_words, None)
}

/// [`paraphrase`], every headline's words mapped through `synonyms` when given.
pub fn paraphrase_with(
    pairs: &[Paraphrase],
    n: usize,
    stemming: bool,
    stop_words: bool,
    synonyms: Option<&Synonyms>,
) -> ParaphraseScores {
    let params = Params {
        n,
        stemming,
        stop_words,
        ..Params::default()
    };
    let scored: Vec<(i8, (f64, f64, f64, bool))> = pairs
        .par_iter()
        .map(|p| (p.class, similarities(&p.a, &p.b, &params, synonyms)))
        .collect();
    let pick = |class: i8, f: fn(&(f64, f64, f64, bool)) -> f64| -> Vec<f64> {
        scored
            .iter()
            .filter(|s| s.0 == class)
            .map(|s| f(&s.1))
            .collect()
    };
    let a = |f: fn(&(f64, f64, f64, bool)) -> f64| auc(&pick(1, f), &pick(-1, f));
    let mean = |class: i8| {
        let v = pick(class, |s| s.0);
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    ParaphraseScores {
        n,
        stemming,
        stop_words,
        positives: scored.iter().filter(|s| s.0 == 1).count(),
        negatives: scored.iter().filter(|s| s.0 == -1).count(),
        auc_resemblance: a(|s| s.0),
        auc_containment: a(|s| s.1),
        auc_short: a(|s| s.2),
        mean_resemblance: [mean(-1), mean(0), mean(1)],
        no_shingles: scored.iter().filter(|s| (s.1).3).count(),
    }
}

/// A human rewrite of a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The original sentence.
    pub source: String,
    /// The rewrite.
    pub output: String,
}

/// Reads every `*.csv` file of `dir` with `INPUT:source` and `OUTPUT:output` columns.
///
/// Errors: an unreadable folder or file, or no such file.
pub fn read_rewrites(dir: &Path) -> Result<(Vec<Rewrite>, Vec<PathBuf>)> {
    let files = crate::sorted_paths(dir, |p| p.extension().is_some_and(|x| x == "csv"))?;
    let mut rewrites = Vec::new();
    let mut used = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(read_error(&f))?;
        let rows = parse_csv(&text);
        let Some(header) = rows.first() else { continue };
        let (Some(si), Some(oi)) = (
            header.iter().position(|h| h.trim() == "INPUT:source"),
            header.iter().position(|h| h.trim() == "OUTPUT:output"),
        ) else {
            continue;
        };
        rewrites.extend(rows[1..].iter().filter_map(|r| {
            Some(Rewrite {
                source: r.get(si)?.clone(),
                output: r.get(oi)?.clone(),
            })
        }));
        used.push(f);
    }
    if used.is_empty() {
        return Err(EvalError::NoRewrites {
            dir: dir.to_owned(),
        });
    }
    Ok((rewrites, used))
}

/// How many rewrites are still flagged as copies of their source.
#[derive(Debug, Clone, Serialize)]
pub struct SimplifyScores {
    /// Stop words dropped.
    pub stop_words: bool,
    /// Snowball stemming on.
    pub stemming: bool,
    /// Rewrites checked (both texts have content words).
    pub rewrites: usize,
    /// Rewrites identical to their source (after trimming).
    pub identical: usize,
    /// Flagged by the default rule: `compare(rewrite, source)` uniqueness below 100 %.
    pub flagged: usize,
    /// `flagged / rewrites`.
    pub share: f64,
    /// Flagged by the short-text method alone (longest-words similarity at the threshold).
    pub flagged_short: usize,
    /// Flagged by shingle fragments alone (short-text method off).
    pub flagged_shingles: usize,
    /// Mean uniqueness of the rewrites, percent.
    pub mean_uniqueness: f64,
}

/// Checks every rewrite against its source with `params` and `opts`.
pub fn simplify(rewrites: &[Rewrite], params: &Params, opts: &CheckOptions) -> SimplifyScores {
    simplify_with(rewrites, params, opts, None)
}

/// [`simplify`], both sentences' words mapped through `synonyms` when given (then through
/// [`crate::rewrites::find`], the same path as `compare` after analysis).
pub fn simplify_with(
    rewrites: &[Rewrite],
    params: &Params,
    opts: &CheckOptions,
    synonyms: Option<&Synonyms>,
) -> SimplifyScores {
    let uniqueness = |a: &str, b: &str, o: &CheckOptions| -> Option<f64> {
        match synonyms {
            None => compare(a, Format::Plain, b, Format::Plain, params, o)
                .ok()
                .map(|c| c.uniqueness),
            Some(_) => find(a, b, params, o, synonyms).ok().map(|f| f.uniqueness),
        }
    };
    let analyze = |t: &str| {
        let d = Document::analyze(t, Format::Plain, params, opts.max_text_bytes).ok()?;
        Some(match synonyms {
            Some(s) => s.apply(d, params),
            None => d,
        })
    };
    let shingles_only = CheckOptions {
        short_threshold: 0,
        ..opts.clone()
    };
    // (uniqueness, flagged by short, flagged by shingles, identical) per usable rewrite.
    let rows: Vec<(f64, bool, bool, bool)> = rewrites
        .par_iter()
        .filter_map(|r| {
            let c = uniqueness(&r.output, &r.source, opts)?;
            let s = uniqueness(&r.output, &r.source, &shingles_only)?;
            let da = analyze(&r.output)?;
            let db = analyze(&r.source)?;
            let short = da.content_words() < opts.short_threshold
                && da.short.similarity(&db.short) >= opts.short_similarity;
            Some((c, short, s < 100.0, r.output.trim() == r.source.trim()))
        })
        .collect();
    let n = rows.len();
    let flagged = rows.iter().filter(|r| r.0 < 100.0).count();
    SimplifyScores {
        stop_words: params.stop_words,
        stemming: params.stemming,
        rewrites: n,
        identical: rows.iter().filter(|r| r.3).count(),
        flagged,
        share: if n == 0 {
            0.0
        } else {
            flagged as f64 / n as f64
        },
        flagged_short: rows.iter().filter(|r| r.1).count(),
        flagged_shingles: rows.iter().filter(|r| r.2).count(),
        mean_uniqueness: if n == 0 {
            0.0
        } else {
            rows.iter().map(|r| r.0).sum::<f64>() / n as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quotes_commas_and_line_breaks() {
        let text = ",INPUT:source,OUTPUT:output\r\n3,\"a, b\",c\n4, d,\"e \"\"q\"\"\nf\"\n";
        assert_eq!(
            parse_csv(text),
            vec![
                vec!["", "INPUT:source", "OUTPUT:output"],
                vec!["3", "a, b", "c"],
                vec!["4", " d", "e \"q\"\nf"],
            ]
        );
        assert_eq!(parse_csv("x,y"), vec![vec!["x", "y"]]);
        assert!(parse_csv("").is_empty());
    }

    #[test]
    fn paraphrase_tsv() {
        let text = "id\tclass\ttext_1\ttext_2\n1\t0\tА\tБ\n2\t-1\tВ \"г\"\tД\nbad line\n";
        let p = read_paraphrases(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[1].class, p[1].a.as_str()), (-1, "В \"г\""));
        assert!(read_paraphrases("id\tlabel\n").is_err());
    }

    #[test]
    fn stemming_matches_inflected_russian() {
        let pairs = vec![
            Paraphrase {
                class: 1,
                a: "Правительство утвердило новые правила въезда иностранных граждан".into(),
                b: "Правительством утверждены новые правила въезда иностранных граждан".into(),
            },
            Paraphrase {
                class: -1,
                a: "Сборная России выиграла чемпионат мира по хоккею".into(),
                b: "Центробанк снизил ключевую ставку до семи процентов".into(),
            },
        ];
        let on = paraphrase(&pairs, 2, true, true);
        assert_eq!((on.positives, on.negatives), (1, 1));
        assert_eq!(on.auc_resemblance, Some(1.0));
        assert!(on.mean_resemblance[2] > 0.0 && on.mean_resemblance[0] == 0.0);
    }
}
