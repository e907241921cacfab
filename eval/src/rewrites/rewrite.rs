//! Rewriting a passage by a [`Kind`]: words replaced by synonyms, shuffled or dropped, sentences
//! shuffled, merged or split. Every rewrite keeps the words' own punctuation and ends each
//! sentence as a sentence; the randomness is the caller's stream, so a passage rewritten twice
//! from the same stream comes out the same.

use super::rng::Rng;
use super::synonymizer::{SynonymCounts, Synonymizer};
use super::words::{capitalize, decapitalize, join, terminate, tokens, Token};
use super::{Kind, DELETE_SHARE, HEAVY_DELETE_SHARE, HEAVY_SYNONYM_SHARE, SYNONYM_SHARE};

/// The words of each sentence shuffled; punctuation and the sentence's end stay in place.
fn shuffle_words(sentence: &str, rng: &mut Rng) -> String {
    let mut toks = tokens(sentence);
    let mut cores: Vec<String> = toks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if i == 0 {
                decapitalize(&t.core)
            } else {
                t.core.clone()
            }
        })
        .collect();
    rng.shuffle(&mut cores);
    for (i, (t, c)) in toks.iter_mut().zip(cores).enumerate() {
        t.core = if i == 0 { capitalize(&c) } else { c };
    }
    join(&toks)
}

/// A share of the words dropped (a sentence keeps at least one).
fn delete_words(sentence: &str, share: f64, rng: &mut Rng) -> String {
    let mut kept: Vec<Token> = tokens(sentence)
        .into_iter()
        .filter(|t| t.core.is_empty() || !rng.chance(share))
        .collect();
    if kept.iter().all(|t| t.core.is_empty()) {
        return sentence.to_owned();
    }
    if let Some(first) = kept.first_mut() {
        first.core = capitalize(&first.core);
    }
    terminate(&join(&kept))
}

/// Sentences merged in pairs (the first one's full stop becomes a comma) or, with a comma
/// between the fourth word and the fourth from the end, split there; half and half.
fn merge_split(sentences: Vec<String>, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < sentences.len() {
        let s = &sentences[i];
        if i + 1 < sentences.len() && rng.chance(0.5) {
            let a = s.trim_end_matches(['.', '!', '?', '…']);
            let b = &sentences[i + 1];
            let first = tokens(b)
                .first()
                .map(|t| t.core.clone())
                .unwrap_or_default();
            let b = match b.find(first.as_str()) {
                Some(at) if !first.is_empty() => {
                    format!(
                        "{}{}{}",
                        &b[..at],
                        decapitalize(&first),
                        &b[at + first.len()..]
                    )
                }
                _ => b.clone(),
            };
            out.push(format!("{a}, {b}"));
            i += 2;
            continue;
        }
        let toks = tokens(s);
        let cut = (4..toks.len().saturating_sub(4))
            .filter(|&j| toks[j - 1].suffix.starts_with(','))
            .min_by_key(|&j| j.abs_diff(toks.len() / 2));
        match cut {
            Some(j) => {
                let mut a = toks[..j].to_vec();
                if let Some(last) = a.last_mut() {
                    last.suffix = ".".to_owned();
                }
                let mut b = toks[j..].to_vec();
                b[0].core = capitalize(&b[0].core);
                out.push(join(&a));
                out.push(join(&b));
            }
            None => out.push(s.clone()),
        }
        i += 1;
    }
    out
}

/// Rewrites a passage (its sentences) by `kind`.
pub fn rewrite(
    sentences: &[&str],
    kind: Kind,
    syn: &Synonymizer,
    rng: &mut Rng,
    counts: &mut SynonymCounts,
) -> String {
    let mut s: Vec<String> = sentences.iter().map(|s| (*s).to_owned()).collect();
    match kind {
        Kind::None | Kind::Verbatim => {}
        Kind::Synonyms => {
            s = s
                .iter()
                .map(|x| syn.rewrite(x, SYNONYM_SHARE, rng, counts))
                .collect()
        }
        Kind::ShuffleWords => s = s.iter().map(|x| shuffle_words(x, rng)).collect(),
        Kind::ShuffleSentences => {
            let before = s.clone();
            rng.shuffle(&mut s);
            if s == before && s.len() > 1 {
                s.rotate_left(1);
            }
        }
        Kind::MergeSplit => s = merge_split(s, rng),
        Kind::Delete => {
            s = s
                .iter()
                .map(|x| delete_words(x, DELETE_SHARE, rng))
                .collect()
        }
        Kind::Heavy => {
            s = s
                .iter()
                .map(|x| {
                    let x = syn.rewrite(x, HEAVY_SYNONYM_SHARE, rng, counts);
                    delete_words(&x, HEAVY_DELETE_SHARE, rng)
                })
                .collect();
            s = merge_split(s, rng);
            let before = s.clone();
            rng.shuffle(&mut s);
            if s == before && s.len() > 1 {
                s.rotate_left(1);
            }
        }
    }
    s.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_keep_words_or_sentences_as_promised() {
        let mut rng = Rng::new(3, "k");
        let s = "Участники пройдут по бульварам, журналисты будут освещать событие, власти призвали к спокойствию.";
        let shuffled = shuffle_words(s, &mut rng);
        let mut a: Vec<String> = tokens(s)
            .into_iter()
            .map(|t| t.core.to_lowercase())
            .collect();
        let mut b: Vec<String> = tokens(&shuffled)
            .into_iter()
            .map(|t| t.core.to_lowercase())
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert!(shuffled.ends_with('.'));
        let split = merge_split(vec![s.to_owned()], &mut rng);
        assert_eq!(split.len(), 2, "{split:?}");
        let merged = merge_split(
            vec!["Один два.".into(), "Три четыре.".into()],
            &mut Rng::new(0, "m"),
        );
        assert!(merged.len() == 1 && merged[0] == "Один два, три четыре." || merged.len() == 2);
        let d = delete_words(s, 0.5, &mut rng);
        assert!(tokens(&d).len() < tokens(s).len() && d.ends_with('.'));
    }
}
